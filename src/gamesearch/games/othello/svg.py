"""Othello drawn as SVG (:meth:`Othello.drawing`): a1 at the top left, rows 1-8 downwards
(as Edax and the FFO suite print the board); every legal square is a target with
``data-move`` (``d3``), a pass is a button under the board; the PV as numbered grey discs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import disc, document, label, pv_texts, square_board, target

CELL = 50
PAD = 24


def _disc(col: int, row: int, colour: str, extra: str = "", text: str = "") -> str:
    return disc(PAD + col * CELL + CELL / 2, PAD + row * CELL + CELL / 2, CELL * 0.4, colour,
                extra, text, "#c00")


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    board = game.format_state(state).split()[0]
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width, height = 8 * CELL + 2 * PAD, 8 * CELL + 2 * PAD + 40
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    parts += square_board(8, CELL, PAD, "#2e7d4f", "#1b4d30")
    for i, c in enumerate(board):
        col, row = i % 8, i // 8
        square = "abcdefgh"[col] + str(row + 1)
        if last == square:
            parts.append(f'<rect class="last" x="{PAD + col * CELL}" y="{PAD + row * CELL}" '
                         f'width="{CELL}" height="{CELL}" fill="#6fbf8f"/>')
        if c in "XO":
            parts.append(_disc(col, row, "#111" if c == "X" else "#f5f5f5",
                               f' class="stone disc-{c}"'))
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        if text != "pass":
            col, row = "abcdefgh".index(text[0]), int(text[1]) - 1
            parts.append('<g class="pv" opacity="0.6">'
                         + _disc(col, row, "#555" if player == 0 else "#ccc", "", str(n))
                         + "</g>")
    for i in range(64):
        col, row = i % 8, i // 8
        square = "abcdefgh"[col] + str(row + 1)
        x, y = PAD + col * CELL, PAD + row * CELL
        if labels and square in labels:
            parts.append(label(labels[square], x + CELL / 2, y + CELL / 2 + 5, size=14,
                               fill="#ffe066"))
        if square in legal:
            parts.append(f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="5" '
                         'fill="#ffe066" opacity="0.7"/>')
            parts.append(target(square, x, y, CELL, CELL, f"play {square}"))
    if "pass" in legal:
        bx, by = PAD + 3 * CELL, PAD + 8 * CELL + 8
        parts.append(f'<rect x="{bx}" y="{by}" width="{2 * CELL}" height="26" rx="5" '
                     'fill="#ffe066"/>')
        parts.append(label("pass", bx + CELL, by + 18, size=15, fill="#333"))
        parts.append(target("pass", bx, by, 2 * CELL, 26, "pass (no legal move)"))
    return document(width, height, parts, "board othello")
