"""Tic-tac-toe drawn as SVG (:meth:`TicTacToe.drawing`): squares 1-9 in reading order,
an empty legal square is a target with ``data-move``; the PV as numbered grey marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .svg import document, esc, label, pv_texts, target

CELL = 100
PAD = 10


def _mark(kind: str, i: int, cls: str, label: str = "") -> str:
    x = PAD + (i % 3) * CELL + CELL / 2
    y = PAD + (i // 3) * CELL + CELL / 2
    r = CELL * 0.3
    if kind == "x":
        shape = (f'<path d="M{x - r:g} {y - r:g}L{x + r:g} {y + r:g}M{x + r:g} {y - r:g}'
                 f'L{x - r:g} {y + r:g}" stroke-width="9" stroke-linecap="round"/>')
    else:
        shape = f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="none" stroke-width="9"/>'
    text = (f'<text x="{x:g}" y="{y + 8:g}" text-anchor="middle" font-size="24" '
            f'stroke="none" fill="#333">{esc(label)}</text>' if label else "")
    colour = "#999" if cls == "pv" else "#1d4e89" if kind == "x" else "#e63946"
    opacity = ' opacity="0.6"' if cls == "pv" else ""
    return (f'<g class="{cls} mark-{kind}" stroke="{colour}" fill="{colour}"{opacity}>'
            f'{shape}{text}</g>')


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    from .tictactoe import LINES

    cells = game.format_state(state)
    legal = set(game.legal_action_strings(state)) if interactive else set()
    size = 3 * CELL + 2 * PAD
    parts = [f'<rect width="{size}" height="{size}" fill="#fbfaf5"/>']
    for i in range(9):
        x, y = PAD + (i % 3) * CELL, PAD + (i // 3) * CELL
        move = str(i + 1)
        if last == move:
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                         'fill="#fff3b0" class="last"/>')
    for k in (1, 2):
        a = PAD + k * CELL
        parts.append(f'<path d="M{a} {PAD}V{PAD + 3 * CELL}M{PAD} {a}H{PAD + 3 * CELL}" '
                     'stroke="#333" stroke-width="4"/>')
    for i, c in enumerate(cells):
        if c in "xo":
            parts.append(_mark(c, i, "stone"))
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        parts.append(_mark("xo"[player], int(text) - 1, "pv", str(n)))
    for line in LINES:
        if cells[line[0]] != "." and all(cells[i] == cells[line[0]] for i in line):
            (x0, y0), (x1, y1) = ((PAD + (i % 3) * CELL + CELL / 2,
                                   PAD + (i // 3) * CELL + CELL / 2) for i in (line[0], line[2]))
            parts.append(f'<line class="win" x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" '
                         'stroke="#2a9d8f" stroke-width="10" stroke-linecap="round" '
                         'opacity="0.8"/>')
    for i in range(9):
        move = str(i + 1)
        x, y = PAD + (i % 3) * CELL, PAD + (i // 3) * CELL
        if labels and move in labels:
            parts.append(label(labels[move], x + CELL - 6, y + CELL - 8, anchor="end"))
        if move in legal:
            parts.append(target(move, x, y, CELL, CELL, f"square {move}"))
    return document(size, size, parts, "board tictactoe")
