"""Nim drawn as SVG (the drawing of :meth:`Nim.drawing`): one row of counters a heap.
Clicking a counter takes it and every counter to its right: counter ``k`` (from the left,
1-based) of heap ``h`` of size ``n`` carries ``data-move="h-(n-k+1)"``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .svg import document, esc, pv_texts

R = 14  # counter radius
STEP = 34
LEFT = 80


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    heaps = state.heaps
    legal = set(game.legal_action_strings(state)) if interactive else set()
    width = LEFT + STEP * max(max(heaps, default=1), 1) + 40
    height = 30 + 50 * len(heaps) + 30
    parts = [f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    taken: dict[int, int] = {}  # heap -> how many the PV's first move takes (dashed)
    for text, _player, _s in pv_texts(game, state, pv[:1]):
        heap_text, count_text = text.split("-")
        taken[int(heap_text) - 1] = int(count_text)
    for h, size in enumerate(heaps):
        y = 40 + 50 * h
        parts.append(f'<text x="16" y="{y + 5}" font-size="15" fill="#555">heap {h + 1}</text>')
        for k in range(size):
            x = LEFT + STEP * k + R
            move = f"{h + 1}-{size - k}"
            pv_cut = h in taken and k >= size - taken[h]
            fill = "#fff" if pv_cut else "#e9c46a"
            dash = ' stroke-dasharray="4 3"' if pv_cut else ""
            title = f"take {size - k} from heap {h + 1}"
            if labels and move in labels:
                title += f": {labels[move]}"
            parts.append(
                f'<g class="counter{" target" if move in legal else ""}"'
                + (f' data-move="{move}"' if move in legal else "")
                + f'><circle cx="{x}" cy="{y}" r="{R}" fill="{fill}" stroke="#8a6d1d" '
                f'stroke-width="2"{dash}/><title>{esc(title)}</title></g>')
        if last and last.startswith(f"{h + 1}-"):
            parts.append(f'<text class="last" x="{LEFT + STEP * size + 8}" y="{y + 5}" '
                         f'font-size="13" fill="#999">−{esc(last.split("-")[1])}</text>')
    who = "game over" if game.is_terminal(state) else f"player {game.to_move(state) + 1} to move"
    parts.append(f'<text x="16" y="{height - 12}" font-size="14" fill="#333">{who}</text>')
    return document(width, height, parts, "board nim")
