"""Chinese Checkers drawn as SVG (:meth:`ChineseCheckers.drawing`): the star with its
121 holes, the pieces in each player's colour, the target triangles tinted.

A move takes two clicks, as in chess: every hole is a transparent ``rect.sq`` carrying
``data-square`` (its name, ``e5``); the page (``common.js``'s ``squareClick``) selects a
start on the first click and plays ``START-END`` on the second when that move is legal
(moves are written ``d1-e5``: the page splits them at the dash). A pass (only when a player
has no move) is a button with ``data-move="pass"``. The PV's moves are numbered grey
discs on their end holes; ``last`` outlines the last move's two holes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import document, esc, label, pv_texts, target
from . import board as B

UNIT = 14  # half the distance between neighbouring holes
ROW = UNIT * math.sqrt(3)
PAD = 22
COLOURS = ("#d62828", "#2a9d4f", "#1d5fbf", "#f2b705", "#8e44ad", "#222222")
TINTS = ("#f6d3d3", "#d4eedd", "#d2def3", "#fbefc7", "#e7d7ef", "#dddddd")


def _xy(h: int) -> tuple[float, float]:
    r, c = B.CELLS[h]
    return PAD + c * UNIT, PAD + r * ROW


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    width = 24 * UNIT + 2 * PAD
    height = 16 * ROW + 2 * PAD + 36
    owner = [-1] * B.HOLES
    for p, mask in enumerate(state.pieces):
        for h in range(B.HOLES):
            if (mask >> h) & 1:
                owner[h] = p
    legal = game.legal_action_strings(state) if interactive else []
    starts = {m.split("-")[0] for m in legal if "-" in m}
    tint = {}
    for p, t in enumerate(game.targets):
        for h in B.TRIANGLES[t]:
            tint[h] = TINTS[p]
    last_holes = set(last.split("-")) if last and "-" in last else set()
    parts = [f'<rect width="{width:g}" height="{height:g}" fill="#fbfaf5"/>']
    grid = []
    for h in range(B.HOLES):
        x, y = _xy(h)
        for d in (3, 4, 5):  # each grid line once
            n = B.NEIGHBOUR[h][d]
            if n >= 0:
                nx, ny = _xy(n)
                grid.append(f"M{x:.1f} {y:.1f}L{nx:.1f} {ny:.1f}")
    parts.append(f'<path d="{"".join(grid)}" stroke="#d8d2c0" stroke-width="1"/>')
    for h in range(B.HOLES):
        x, y = _xy(h)
        name = B.NAMES[h]
        stroke = ' stroke="#e85d04" stroke-width="3"' if name in last_holes else ""
        parts.append(f'<circle class="hole" cx="{x:.1f}" cy="{y:.1f}" r="{UNIT * 0.45:g}" '
                     f'fill="{tint.get(h, "#ece6d6")}"{stroke}/>')
        p = owner[h]
        if p >= 0:
            ring = ' stroke="#ffe066" stroke-width="2.5"' if name in starts else \
                ' stroke="#333" stroke-width="1"'
            parts.append(f'<circle class="piece player-{p + 1}" cx="{x:.1f}" cy="{y:.1f}" '
                         f'r="{UNIT * 0.72:g}" fill="{COLOURS[p]}"{ring}/>')
    for n, (text, _player, _s) in enumerate(pv_texts(game, state, pv), 1):
        if "-" in text:
            x, y = _xy(B.BY_NAME[text.split("-")[1]])
            parts.append(f'<g class="pv" opacity="0.6"><circle cx="{x:.1f}" cy="{y:.1f}" '
                         f'r="{UNIT * 0.6:g}" fill="#777"/>'
                         + label(str(n), x, y + 4, size=11, fill="#fff") + "</g>")
    if labels:
        for move, text in labels.items():
            if "-" in move and move.split("-")[1] in B.BY_NAME:
                x, y = _xy(B.BY_NAME[move.split("-")[1]])
                parts.append(label(text, x, y - UNIT, size=10, fill="#b5179e"))
    if interactive:
        for h in range(B.HOLES):
            x, y = _xy(h)
            name = B.NAMES[h]
            parts.append(f'<rect class="sq" data-square="{esc(name)}" x="{x - UNIT:.1f}" '
                         f'y="{y - UNIT:.1f}" width="{2 * UNIT:g}" height="{2 * UNIT:g}" '
                         f'rx="{UNIT:g}" fill="transparent"><title>{esc(name)}</title></rect>')
    y0 = 16 * ROW + 2 * PAD
    who = f"player {state.player + 1} to move" if not game.is_terminal(state) else "game over"
    parts.append(f'<circle cx="{PAD:g}" cy="{y0 + 14:.1f}" r="7" '
                 f'fill="{COLOURS[state.player]}"/>')
    parts.append(label(who, PAD + 12, y0 + 19, anchor="start", size=13, fill="#333"))
    if "pass" in legal:
        bx = width - PAD - 80
        parts.append(f'<rect x="{bx:g}" y="{y0:.1f}" width="80" height="26" rx="5" '
                     'fill="#ffe066"/>')
        parts.append(label("pass", bx + 40, y0 + 18, size=14, fill="#333"))
        parts.append(target("pass", bx, y0, 80, 26, "pass (no legal move)"))
    return document(width, height, parts, "board chinese-checkers")
