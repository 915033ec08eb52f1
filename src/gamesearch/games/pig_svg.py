"""Pig drawn as SVG (:meth:`Pig.drawing`): both players' banked points as bars towards
the goal (the turn total stacked on the mover's bar), the die, and the two choices ``roll``
and ``hold`` as buttons with ``data-move``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .svg import document, esc, pv_texts

WIDTH, HEIGHT = 460, 250
COLOURS = ("#1d4e89", "#e63946")
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _die(x: float, y: float, face: int | None) -> str:
    s = 56
    out = [f'<g class="die"><rect x="{x}" y="{y}" width="{s}" height="{s}" rx="10" '
           'fill="#fff" stroke="#333" stroke-width="2"/>']
    if face is None:
        out.append(f'<text x="{x + s / 2}" y="{y + s / 2 + 10}" text-anchor="middle" '
                   'font-size="30" fill="#999">?</text>')
    elif face in PIPS:
        for dx, dy in PIPS[face]:
            out.append(f'<circle cx="{x + s / 2 + dx * 15}" cy="{y + s / 2 + dy * 15}" r="5" '
                       f'fill="{"#e63946" if face == 1 else "#333"}"/>')
    else:
        out.append(f'<text x="{x + s / 2}" y="{y + s / 2 + 10}" text-anchor="middle" '
                   f'font-size="26">{face}</text>')
    out.append("</g>")
    return "".join(out)


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, **_: Any) -> str:
    text = game.format_state(state)
    rolling = text.endswith("r")
    s0, s1, total, player = (int(f) for f in text.rstrip("r").split("-"))
    goal = game.goal
    over = game.is_terminal(state)
    legal = set(game.legal_action_strings(state)) if interactive and not rolling else set()
    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf5"/>',
             f'<text x="20" y="26" font-size="16" fill="#333">Pig: first to {goal}</text>']
    bar_w = 300
    for p, score in enumerate((s0, s1)):
        y = 48 + 52 * p
        w = bar_w * min(score, goal) / goal
        parts.append(f'<text x="20" y="{y + 20}" font-size="15">player {p + 1}</text>')
        parts.append(f'<rect x="100" y="{y}" width="{bar_w}" height="28" fill="#eee" '
                     'stroke="#999"/>')
        parts.append(f'<rect class="banked" x="100" y="{y}" width="{w:g}" height="28" '
                     f'fill="{COLOURS[p]}"/>')
        if p == player and not over and total:
            tw = bar_w * min(total, goal - min(score, goal)) / goal
            parts.append(f'<rect class="turn-total" x="{100 + w:g}" y="{y}" width="{tw:g}" '
                         f'height="28" fill="{COLOURS[p]}" opacity="0.35"/>')
        mark = " ◀" if p == player and not over else (" wins" if score >= goal else "")
        parts.append(f'<text x="{110 + bar_w}" y="{y + 20}" font-size="15">{score}'
                     f'{esc(mark)}</text>')
    face = int(last) if last and last.isdigit() else None
    parts.append(_die(20, 160, None if rolling else face))
    parts.append(f'<text x="90" y="185" font-size="15">turn total {total}</text>')
    if rolling:
        parts.append('<text x="90" y="207" font-size="14" fill="#555">the die is rolling…'
                     "</text>")
    for k, move in enumerate(("roll", "hold")):
        x = 250 + 100 * k
        enabled = move in legal
        label = labels.get(move) if labels else None
        parts.append(
            f'<g class="button{" target" if enabled else ""}"'
            + (f' data-move="{move}"' if enabled else "")
            + f'><rect x="{x}" y="160" width="86" height="40" rx="8" '
            f'fill="{"#2a9d8f" if enabled else "#ccc"}"/><text x="{x + 43}" y="186" '
            f'text-anchor="middle" font-size="17" fill="#fff">{move}</text>'
            + (f'<text x="{x + 43}" y="222" text-anchor="middle" font-size="13" '
               f'fill="#555">{esc(label)}</text>' if label else "")
            + "</g>")
    shown = [t for t, _p, _s in pv_texts(game, state, pv)]
    if shown:
        parts.append(f'<text class="pv" x="20" y="240" font-size="13" fill="#555">pv: '
                     f'{esc(" ".join(shown))}</text>')
    return document(WIDTH, HEIGHT, parts, "board pig")
