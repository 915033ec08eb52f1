"""Othello drawn as SVG (:meth:`Othello.drawing`): a1 at the top left, rows 1-8 downwards
(as Edax and the FFO suite print the board); every legal square is a target with
``data-move`` (``d3``), a pass is a button under the board; the PV as numbered grey discs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import DiscStyle, disc_board, document, label, target

CELL = 50
PAD = 24
STYLE = DiscStyle(board="#2e7d4f", lines="#1b4d30", last="#6fbf8f",
                  pieces={"X": "#111", "O": "#f5f5f5"}, piece_class="disc", number="#c00",
                  pv=("#555", "#ccc"), pv_opacity="0.6", label="#ffe066")


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    board = game.format_state(state).split()[0]
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width, height = 8 * CELL + 2 * PAD, 8 * CELL + 2 * PAD + 40
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    parts += disc_board(game, state, board, STYLE, CELL, PAD, pv=pv, labels=labels, last=last,
                        legal=legal, dot="#ffe066", dot_opacity="0.7")
    if "pass" in legal:
        bx, by = PAD + 3 * CELL, PAD + 8 * CELL + 8
        parts.append(f'<rect x="{bx}" y="{by}" width="{2 * CELL}" height="26" rx="5" '
                     'fill="#ffe066"/>')
        parts.append(label("pass", bx + CELL, by + 18, size=15, fill="#333"))
        parts.append(target("pass", bx, by, 2 * CELL, 26, "pass (no legal move)"))
    return document(width, height, parts, "board othello")
