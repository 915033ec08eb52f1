"""Backgammon drawn as SVG (:meth:`Backgammon.drawing`): the 24 points from seat 0's side (X,
dark, moves from 24 down to 1, its home bottom right; O, light, the other way), the bar, the
borne-off checkers, the dice, and the legal moves in gnubg notation as a list of buttons
(``data-move``, each with the search's label: an agent's equity) — the web app's move box
accepts any of them typed as well."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import disc, document, esc, label, pv_texts, target

W, H = 780, 470
BOARD_W, BOARD_H = 520, 360
X0, Y0 = 20, 30
PT = 40  # a point's width
BAR_W = 40
COLOURS = ("#2b2d42", "#f1faee")  # seat 0 (X), seat 1 (O)
MAX_MOVES_SHOWN = 12


def _point_x(p: int) -> float:
    """The left edge of point ``p`` (1-24, seat 0's numbering)."""
    if p <= 12:  # bottom row, right to left: 1 at the right
        k = 12 - p
    else:  # top row, left to right: 13 at the left
        k = p - 13
    x = X0 + k * PT
    return x + BAR_W if k >= 6 else x


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    seat = state[2]
    x_side, o_side = (state[0], state[1]) if seat == 0 else (state[1], state[0])
    parts = [f'<rect width="{W}" height="{H}" fill="#fbfaf5"/>',
             f'<rect x="{X0}" y="{Y0}" width="{BOARD_W}" height="{BOARD_H}" fill="#deb887" '
             'stroke="#5c4033" stroke-width="3"/>',
             f'<rect x="{X0 + 6 * PT}" y="{Y0}" width="{BAR_W}" height="{BOARD_H}" '
             'fill="#8b5a2b"/>']
    for p in range(1, 25):
        x = _point_x(p)
        top = p >= 13
        tip = Y0 + (BOARD_H * 0.42 if top else BOARD_H * 0.58)
        base = Y0 if top else Y0 + BOARD_H
        colour = "#a0522d" if p % 2 else "#f5deb3"
        parts.append(f'<path d="M{x} {base}L{x + PT / 2} {tip}L{x + PT} {base}Z" '
                     f'fill="{colour}"/>')
        parts.append(label(str(p), x + PT / 2, base - 6 if top else base + 16, size=11,
                           fill="#333") if not top else
                     label(str(p), x + PT / 2, Y0 - 8, size=11, fill="#333"))
        for who, count in ((0, x_side[p - 1]), (1, o_side[24 - p])):
            for k in range(min(count, 5)):
                cy = (Y0 + 18 + 34 * k) if top else (Y0 + BOARD_H - 18 - 34 * k)
                text = str(count) if k == 4 and count > 5 else ""
                parts.append(disc(x + PT / 2, cy, 16, COLOURS[who],
                                  f' class="checker seat{who}" data-point="{p}"', text,
                                  "#e63946"))
    bar_x = X0 + 6 * PT + BAR_W / 2
    for who, count, bar_y in ((0, x_side[24], Y0 + BOARD_H / 2 - 40.0),
                              (1, o_side[24], Y0 + BOARD_H / 2 + 40.0)):
        if count:
            parts.append(disc(bar_x, bar_y, 16, COLOURS[who], f' class="bar seat{who}"',
                              str(count), "#e63946"))
    off_x = X0 + BOARD_W + 14
    parts.append(f'<text x="{off_x}" y="{Y0 + 20}" font-size="13">O off: '
                 f'{15 - sum(o_side)}</text>')
    parts.append(f'<text x="{off_x}" y="{Y0 + BOARD_H - 8}" font-size="13">X off: '
                 f'{15 - sum(x_side)}</text>')
    status = game.render(state).splitlines()[-2].strip()
    parts.append(f'<text class="status" x="{X0}" y="{Y0 + BOARD_H + 42}" font-size="14">'
                 f'{esc(status)}</text>')
    if state[3] > 0:
        for k, face in enumerate((state[3], state[4])):
            parts.append(f'<rect class="die" x="{off_x + 40 * k}" y="{Y0 + 34}" '
                         'width="32" height="32" rx="6" fill="#fff" stroke="#333"/>')
            parts.append(label(str(face), off_x + 16 + 40 * k, Y0 + 56, size=18,
                               fill="#111"))
    if not game.is_terminal(state) and state[3] > 0 and (interactive or labels):
        # the legal moves as buttons; while an agent thinks, its top moves and equities
        moves = game.legal_action_strings(state) if interactive else list(labels or {})
        if labels:  # the agent's best first
            moves.sort(key=lambda m: _label_value(labels.get(m)), reverse=True)
        y = Y0 + 80
        for move in moves[:MAX_MOVES_SHOWN]:
            text = move + (f"  {labels[move]}" if labels and move in labels else "")
            parts.append(f'<text class="move" x="{off_x}" y="{y + 13}" font-size="12">'
                         f'{esc(text)}</text>')
            if interactive:
                parts.append(target(move, off_x - 2, y, W - off_x - 4, 17, f"play {move}"))
            y += 18
        if len(moves) > MAX_MOVES_SHOWN:
            parts.append(f'<text x="{off_x}" y="{y + 13}" font-size="12" fill="#777">… '
                         f'{len(moves) - MAX_MOVES_SHOWN} more: type one</text>')
    shown = [t for t, _p, _s in pv_texts(game, state, pv)]
    if shown:
        parts.append(f'<text class="pv" x="{X0}" y="{H - 8}" font-size="13" fill="#555">pv: '
                     f'{esc(" / ".join(shown))}</text>')
    return document(W, H, parts, "board backgammon")


def _label_value(text: str | None) -> float:
    try:
        return float(str(text).split()[0])
    except (ValueError, IndexError):
        return -1e9
