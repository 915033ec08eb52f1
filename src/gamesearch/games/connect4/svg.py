"""Connect Four drawn as SVG (:meth:`ConnectFour.drawing`): the 7x6 board, the first
player's discs red, the second's yellow; every playable column is a target with
``data-move``; labels (the solver's scores) above the columns, the PV as numbered rings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import document, label, pv_texts, target

COLS, ROWS = 7, 6
CELL = 60
TOP = 34  # the label band above the board
COLOURS = ("#e63946", "#f4c430")


def _grid(moves: str) -> list[list[int]]:
    grid: list[list[int]] = [[] for _ in range(COLS)]
    for k, ch in enumerate(moves):
        grid[int(ch) - 1].append(k % 2)
    return grid


def _fours(grid: list[list[int]]) -> set[tuple[int, int]]:
    def at(c: int, r: int) -> int | None:
        if 0 <= c < COLS and 0 <= r < len(grid[c]):
            return grid[c][r]
        return None

    cells: set[tuple[int, int]] = set()
    for c in range(COLS):
        for r in range(ROWS):
            p = at(c, r)
            if p is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                line = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(at(x, y) == p for x, y in line):
                    cells.update(line)
    return cells


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    moves = game.format_state(state)
    grid = _grid(moves)
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width, height = COLS * CELL + 20, TOP + ROWS * CELL + 34
    parts = [f'<rect x="10" y="{TOP}" width="{COLS * CELL}" height="{ROWS * CELL}" rx="10" '
             'fill="#1d4e89"/>']
    fours = _fours(grid)
    col = last if last and last in "1234567" and len(last) == 1 else (moves[-1:] or None)
    last_cell = (int(col) - 1, len(grid[int(col) - 1]) - 1) if col else None

    def centre(c: int, r: int) -> tuple[float, float]:
        return 10 + c * CELL + CELL / 2, TOP + (ROWS - 1 - r) * CELL + CELL / 2

    for c in range(COLS):
        for r in range(ROWS):
            x, y = centre(c, r)
            fill = COLOURS[grid[c][r]] if r < len(grid[c]) else "#f8f9fa"
            cls = "disc" if r < len(grid[c]) else "hole"
            extra = ""
            if (c, r) in fours:
                extra = ' stroke="#111" stroke-width="4"'
                cls += " win"
            elif (c, r) == last_cell:
                extra = ' stroke="#fff" stroke-width="3"'
                cls += " last"
            parts.append(f'<circle class="{cls}" cx="{x:g}" cy="{y:g}" r="{CELL * 0.4:g}" '
                         f'fill="{fill}"{extra}/>')
    heights = [len(g) for g in grid]
    for n, (text, player, _s) in enumerate(pv_texts(game, state, pv), 1):
        c = int(text) - 1
        x, y = centre(c, heights[c])
        heights[c] += 1
        parts.append(f'<g class="pv"><circle cx="{x:g}" cy="{y:g}" r="{CELL * 0.33:g}" '
                     f'fill="none" stroke="{COLOURS[player]}" stroke-width="4" '
                     f'stroke-dasharray="6 4"/><text x="{x:g}" y="{y + 7:g}" '
                     f'text-anchor="middle" font-size="20" fill="#333">{n}</text></g>')
    for c in range(COLS):
        move = str(c + 1)
        x = 10 + c * CELL
        parts.append(f'<text x="{x + CELL / 2:g}" y="{TOP + ROWS * CELL + 24}" '
                     f'text-anchor="middle" font-size="16" fill="#555">{move}</text>')
        if labels and move in labels:
            parts.append(label(labels[move], x + CELL / 2, TOP - 10, size=18, fill="#1d4e89",
                               attrs=f' data-col="{move}" font-weight="bold"'))
        if move in legal:
            parts.append(target(move, x, 0, CELL, TOP + ROWS * CELL, f"column {move}"))
    return document(width, height, parts, "board connect4")
