"""Rolit drawn as SVG (:meth:`Rolit.drawing`): a1 at the top left, rows 1-8 downwards (as
the rules' example and the terminal print the board); every legal square is a target with
``data-move`` (``f4``); the PV as numbered translucent balls of the mover's colour; the
balls of each colour counted under the board, the neutral colours marked so."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import disc, document, label, pv_texts, square_board, target

CELL = 50
PAD = 24
#: The fill of each colour (R, Y, G, B).
FILL = {"R": "#d7263d", "Y": "#f4d03f", "G": "#2e9e4f", "B": "#2f6fdf"}


def _ball(col: int, row: int, colour: str, extra: str = "", text: str = "") -> str:
    return disc(PAD + col * CELL + CELL / 2, PAD + row * CELL + CELL / 2, CELL * 0.4, colour,
                extra, text, "#111")


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    board = game.format_state(state).split()[0]
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width, height = 8 * CELL + 2 * PAD, 8 * CELL + 2 * PAD + 30
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    parts += square_board(8, CELL, PAD, "#9aa5ad", "#5d6870")
    for i, c in enumerate(board):
        col, row = i % 8, i // 8
        square = "abcdefgh"[col] + str(row + 1)
        if last == square:
            parts.append(f'<rect class="last" x="{PAD + col * CELL}" y="{PAD + row * CELL}" '
                         f'width="{CELL}" height="{CELL}" fill="#c8d1d6"/>')
        if c in FILL:
            parts.append(_ball(col, row, FILL[c], f' class="stone ball-{c}"'))
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        col, row = "abcdefgh".index(text[0]), int(text[1]) - 1
        parts.append('<g class="pv" opacity="0.55">'
                     + _ball(col, row, FILL["RYGB"[player]], "", str(n)) + "</g>")
    for i in range(64):
        col, row = i % 8, i // 8
        square = "abcdefgh"[col] + str(row + 1)
        x, y = PAD + col * CELL, PAD + row * CELL
        if labels and square in labels:
            parts.append(label(labels[square], x + CELL / 2, y + CELL / 2 + 5, size=14,
                               fill="#111"))
        if square in legal:
            parts.append(f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="5" '
                         f'fill="{FILL["RYGB"[game.to_move(state)]]}" opacity="0.8"/>')
            parts.append(target(square, x, y, CELL, CELL, f"play {square}"))
    counts = []
    for q, c in enumerate("RYGB"):
        mark = "" if q < game.players else " (neutral)"
        counts.append(f"{c} {board.count(c)}{mark}")
    parts.append(label("   ".join(counts), width / 2, PAD + 8 * CELL + 22, size=14))
    return document(width, height, parts, "board rolit")
