"""Checkers drawn as SVG (:meth:`Checkers.drawing`): the board from White's side (Black's
men at the top on 1-12, square 1 top left), each dark square numbered in its corner.

A move takes two clicks, as in chess: every dark square is a transparent ``rect.sq``
carrying ``data-square`` (its number, ``11``); the page (``common.js``'s ``squareClick``)
selects a piece on the first click and plays the move from it to the square clicked second
(``11-15``, ``22x15``, a chain ``9x18x27`` by its last square). When several chains join the
same two squares the page asks which one. Pieces that can move are ringed; ``last`` outlines
the squares of the last move; the PV's moves are numbered grey discs on their end squares.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...argtypes import ascii_digits
from ..svg import disc, document, esc, label, pv_texts
from .board import row_col

CELL = 50
PAD = 20
COLOURS = ("#1a1a1a", "#f4efe1")  # Black, White


def _centre(sq: int) -> tuple[float, float]:
    r, c = row_col(sq)
    return PAD + c * CELL + CELL / 2, PAD + r * CELL + CELL / 2


def _squares(text: str) -> list[int]:
    return [int(p) - 1 for p in text.replace("x", "-").split("-")
            if ascii_digits(p) and 1 <= int(p) <= 32]


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    black, white, kings, side = state[0], state[1], state[2], state[3]
    legal = game.legal_action_strings(state) if interactive else []
    starts = {_squares(m)[0] for m in legal}
    last_squares = set(_squares(last)) if last else set()
    width, height = 8 * CELL + 2 * PAD, 8 * CELL + 2 * PAD + 30
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>',
             f'<rect x="{PAD}" y="{PAD}" width="{8 * CELL}" height="{8 * CELL}" '
             'fill="#efe0bf"/>']
    for sq in range(32):
        r, c = row_col(sq)
        x, y = float(PAD + c * CELL), float(PAD + r * CELL)
        fill = "#8fb36b" if sq in last_squares else "#6b4f33"
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>')
        parts.append(label(str(sq + 1), x + 3, y + 11, anchor="start", size=9,
                           fill="#e6d3ad"))
    for sq in range(32):
        bit = 1 << sq
        if not (black | white) & bit:
            continue
        x, y = _centre(sq)
        who = 0 if black & bit else 1
        king = bool(kings & bit)
        extra = (f' class="piece {"black" if who == 0 else "white"}'
                 f'{" king" if king else ""}"')
        parts.append(disc(x, y, CELL * 0.38, COLOURS[who], extra, "K" if king else "",
                          "#d4a017"))
        if sq in starts:
            parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{CELL * 0.44:g}" fill="none" '
                         'stroke="#ffe066" stroke-width="2.5"/>')
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        x, y = _centre(_squares(text)[-1])
        parts.append('<g class="pv" opacity="0.6">'
                     + disc(x, y, CELL * 0.25, "#555" if player == 0 else "#ccc", "", str(n))
                     + "</g>")
    if labels:
        for move, text in labels.items():
            squares = _squares(move)
            if squares:
                x, y = _centre(squares[-1])
                parts.append(label(text, x, y + CELL / 2 - 4, size=11, fill="#ffe066"))
    if interactive:
        for sq in range(32):
            r, c = row_col(sq)
            name = str(sq + 1)
            parts.append(f'<rect class="sq" data-square="{esc(name)}" x="{PAD + c * CELL}" '
                         f'y="{PAD + r * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="transparent"><title>{esc(name)}</title></rect>')
    over = game.termination(state)
    text = (f"{('Black', 'White')[side]} to move" if over is None else f"game over: {over}")
    parts.append(f'<circle cx="{PAD + 8}" cy="{8 * CELL + PAD + 16}" r="7" '
                 f'fill="{COLOURS[side]}" stroke="#222"/>')
    parts.append(label(text, PAD + 22, 8 * CELL + PAD + 21, anchor="start", size=13,
                       fill="#333"))
    return document(width, height, parts, "board checkers")
