"""Rolit drawn as SVG (:meth:`Rolit.drawing`): a1 at the top left, rows 1-8 downwards (as
the rules' example and the terminal print the board); every legal square is a target with
``data-move`` (``f4``); the PV as numbered translucent balls of the mover's colour; the
balls of each colour counted under the board, the neutral colours marked so."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import DiscStyle, disc_board, document, label

CELL = 50
PAD = 24
#: The fill of each colour (R, Y, G, B).
FILL = {"R": "#d7263d", "Y": "#f4d03f", "G": "#2e9e4f", "B": "#2f6fdf"}
STYLE = DiscStyle(board="#9aa5ad", lines="#5d6870", last="#c8d1d6", pieces=FILL,
                  piece_class="ball", number="#111", pv=tuple(FILL.values()),
                  pv_opacity="0.55", label="#111")


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    board = game.format_state(state).split()[0]
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width, height = 8 * CELL + 2 * PAD, 8 * CELL + 2 * PAD + 30
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    parts += disc_board(game, state, board, STYLE, CELL, PAD, pv=pv, labels=labels, last=last,
                        legal=legal, dot=FILL["RYGB"[game.to_move(state)]], dot_opacity="0.8")
    counts = []
    for q, c in enumerate("RYGB"):
        mark = "" if q < game.players else " (neutral)"
        counts.append(f"{c} {board.count(c)}{mark}")
    parts.append(label("   ".join(counts), width / 2, PAD + 8 * CELL + 22, size=14))
    return document(width, height, parts, "board rolit")
