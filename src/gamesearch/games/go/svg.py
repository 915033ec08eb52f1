"""Go drawn as SVG (:meth:`Go.drawing`): the grid with its star points, the stones, the last
move marked, every legal point a target with ``data-move`` (``D4``) and a pass button
(``data-move="pass"``); the principal variation as numbered translucent stones; labels
(the search's visits or win rates) written on their points; at the end of the game, each
point's owner under area scoring marked by a small square."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import disc, document, label, pv_texts, target

CELL = 36
#: the margin around the grid: the coordinates are drawn in it, clear of the edge stones
#: (a stone's radius is 0.46 of a cell)
PAD = 46
STONE_R = CELL * 0.46
FILL = ("", "#111111", "#f4f4f0")
TEXT_ON = ("#111", "#eee", "#111")


def _xy(game: Any, point: int) -> tuple[float, float]:
    r, c = divmod(point, game.size)
    return float(PAD + c * CELL), float(PAD + (game.size - 1 - r) * CELL)


def owners(game: Any, board: bytes) -> list[int]:
    """The owner of each point under area scoring: its stone's colour, or the one colour an
    empty region reaches (0: neutral)."""
    out = list(board)
    seen = [False] * game.points
    for p in range(game.points):
        if board[p] or seen[p]:
            continue
        region, reach, i = [p], 0, 0
        seen[p] = True
        while i < len(region):
            for q in game.neighbours[region[i]]:
                if board[q]:
                    reach |= board[q]
                elif not seen[q]:
                    seen[q] = True
                    region.append(q)
            i += 1
        for q in region:
            out[q] = reach if reach in (1, 2) else 0
    return out


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    n = game.size
    span = (n - 1) * CELL
    width, height = span + 2 * PAD, span + 2 * PAD + 66
    parts = [f'<rect width="{width}" height="{height}" fill="#dcb35c"/>']
    for i in range(n):
        x: float = PAD + i * CELL
        parts.append(f'<line x1="{x}" y1="{PAD}" x2="{x}" y2="{PAD + span}" stroke="#333"/>')
        parts.append(f'<line x1="{PAD}" y1="{x}" x2="{PAD + span}" y2="{x}" stroke="#333"/>')
        parts.append(label("ABCDEFGHJKLMNOPQRST"[i], x, PAD - STONE_R - 5, size=12,
                           fill="#333", attrs=' data-coord="col"'))
        parts.append(label(str(n - i), PAD - STONE_R - 4, x + 4, anchor="end", size=12,
                           fill="#333", attrs=' data-coord="row"'))
    if n >= 7:
        edge = 2 if n < 13 else 3
        stars = {edge, n - 1 - edge} | ({n // 2} if n % 2 else set())
        for r in stars:
            for c in stars:
                x, y = _xy(game, r * n + c)
                parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="#333"/>')
    board = state.board
    for p in range(game.points):
        if board[p]:
            x, y = _xy(game, p)
            cls = f' class="stone stone-{"bw"[board[p] - 1]}"'
            parts.append(disc(x, y, CELL * 0.46, FILL[board[p]], cls))
            if last is not None and game.vertex(p) == last.upper():
                parts.append(f'<circle class="last" cx="{x}" cy="{y}" r="{CELL * 0.16:g}" '
                             f'fill="none" stroke="#d22" stroke-width="2.5"/>')
    for k, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        if text == "pass":
            continue
        x, y = _xy(game, game.parse_vertex(text))
        parts.append('<g class="pv" opacity="0.55">'
                     + disc(x, y, CELL * 0.46, FILL[player + 1], "", str(k),
                            TEXT_ON[player + 1]) + "</g>")
    if game.is_terminal(state):
        for p, owner in enumerate(owners(game, board)):
            if owner and board[p] != owner:
                x, y = _xy(game, p)
                parts.append(f'<rect class="territory territory-{"bw"[owner - 1]}" '
                             f'x="{x - 6}" y="{y - 6}" width="12" height="12" '
                             f'fill="{FILL[owner]}" stroke="#555"/>')
    legal = set(game.legal_action_strings(state)) if interactive else set()
    for p in range(game.points):
        v = game.vertex(p)
        x, y = _xy(game, p)
        if labels and v in labels:
            parts.append(label(labels[v], x, y + 4, size=11,
                               fill=TEXT_ON[board[p]] if board[p] else "#102a6b"))
        if v in legal:
            parts.append(target(v, x - CELL / 2, y - CELL / 2, CELL, CELL, f"play {v}"))
    foot = PAD + span + 22
    if "pass" in legal:
        parts.append(f'<g class="pass-button"><rect x="{PAD}" y="{foot - 4}" width="70" '
                     f'height="26" rx="5" fill="#f7efd9" stroke="#333"/>'
                     + label("pass", PAD + 35, foot + 14, size=14, fill="#111") + "</g>")
        parts.append(target("pass", PAD, foot - 4, 70, 26, "pass"))
    black, white = game.area(board)
    status = (game.result_text(state) if game.is_terminal(state)
              else ("black" if state.to_move == 0 else "white") + " to move")
    parts.append(label(f"area B {black}  W {white} + {game.komi:g}   {status}",
                       PAD, foot + 40, anchor="start", size=13, fill="#222"))
    return document(width, height, parts, "board go")
