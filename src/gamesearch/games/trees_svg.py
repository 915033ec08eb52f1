"""Explicit game trees drawn as SVG (:meth:`TreeGame.drawing`), the textbook's way: MAX
nodes as triangles pointing up, MIN nodes pointing down, chance nodes as circles, the
players of an n-player tree as lettered circles, leaves as boxes with their values.

Every node is a group with ``data-node`` (its name; a leaf's is its path, ``a1/b2``) holding
an empty ``text.val`` and ``text.ab`` that a page fills in (the Learn page writes the
backed-up values and α/β there); every edge is a group with ``data-edge`` (the child's name).
The node of the position drawn is marked ``current``; its edges and children carry
``data-move`` (the action), so a page can play on the tree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import CHANCE
from .svg import document, esc

LEVEL = 86  # vertical distance between plies
R = 15  # node size
PLAYER_COLOURS = ("#1d4e89", "#e63946", "#2a9d8f", "#f4a261", "#6d597a")


def _fmt(v: Any) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_fmt(x) for x in v) + ")"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return f"{v:g}" if isinstance(v, float) else str(v)


def layout(game: Any) -> tuple[dict[int, tuple[float, float]], float, float]:
    """Positions of every node (leaves side by side, parents centred), width, height."""
    leaves = game.leaves()
    slot = max(44, *(9 * len(_fmt(game.leaf_value(s))) + 16 for s in leaves))
    pos: dict[int, tuple[float, float]] = {}
    counter = [0]
    depth = [0]

    def place(s: int, d: int) -> float:
        depth[0] = max(depth[0], d)
        kids = game.children(s)
        if not kids:
            x = 20 + slot / 2 + slot * counter[0]
            counter[0] += 1
        else:
            xs = [place(c, d + 1) for _a, c in kids]
            x = (xs[0] + xs[-1]) / 2
        pos[s] = (x, 40 + LEVEL * d)
        return x

    place(0, 0)
    return pos, 40 + slot * counter[0], 90 + LEVEL * depth[0]


def _shape(game: Any, s: int, x: float, y: float) -> str:
    leaf = game.leaf_value(s)
    if leaf is not None:
        text = _fmt(leaf)
        w = 9 * len(text) + 12
        return (f'<rect class="shape" x="{x - w / 2:g}" y="{y - 13:g}" width="{w:g}" '
                f'height="26" rx="3" fill="#fff" stroke="#333"/>'
                f'<text x="{x:g}" y="{y + 5:g}" text-anchor="middle" font-size="14">'
                f'{esc(text)}</text>')
    player = game.to_move(s)
    if player == CHANCE:
        return (f'<circle class="shape" cx="{x:g}" cy="{y:g}" r="{R}" fill="#fff" '
                'stroke="#555" stroke-dasharray="3 2"/>')
    if game.num_players == 2:
        up = player == 0
        pts = ((x, y - R), (x - R, y + R * 0.8), (x + R, y + R * 0.8)) if up else (
            (x, y + R), (x - R, y - R * 0.8), (x + R, y - R * 0.8))
        points = " ".join(f"{a:g},{b:g}" for a, b in pts)
        return f'<polygon class="shape" points="{points}" fill="#fff" stroke="#333"/>'
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    return (f'<circle class="shape" cx="{x:g}" cy="{y:g}" r="{R}" fill="#fff" '
            f'stroke="{colour}" stroke-width="2"/><text x="{x:g}" y="{y + 5:g}" '
            f'text-anchor="middle" font-size="13" fill="{colour}">'
            f'{esc(game.player_name(player))}</text>')


def render(game: Any, state: Any, *, pv: Sequence[Any] = (),
           labels: Mapping[str, str] | None = None, last: str | None = None,
           interactive: bool = True, values: Mapping[str, str] | None = None,
           **_: Any) -> str:
    pos, width, height = layout(game)
    pv_edges: set[int] = set()
    s = state
    for a in pv:
        kids = dict(game.children(s))
        if a not in kids:
            break
        s = kids[a]
        pv_edges.add(s)
    edges, nodes = [], []
    for parent in range(game.num_nodes):
        px, py = pos[parent]
        outcomes = dict(game.chance_outcomes(parent)) if game.is_chance(parent) else {}
        for action, child in game.children(parent):
            cx, cy = pos[child]
            name = esc(game.node_name(child))
            move = interactive and parent == state
            cls = "edge" + (" pv" if child in pv_edges else "") + (" target" if move else "")
            label = action + (f" ({outcomes[action]:g})" if action in outcomes else "")
            extra = labels.get(action) if labels and parent == state else None
            mx, my = (px + cx) / 2, (py + cy) / 2
            edges.append(
                f'<g class="{cls}" data-edge="{name}"'
                + (f' data-move="{esc(action)}"' if move else "")
                + f'><line x1="{px:g}" y1="{py + R:g}" x2="{cx:g}" y2="{cy - 13:g}" '
                f'stroke="#888" stroke-width="2"/>'
                f'<line class="hit" x1="{px:g}" y1="{py + R:g}" x2="{cx:g}" y2="{cy - 13:g}" '
                f'stroke="transparent" stroke-width="14"/>'
                f'<text class="action" x="{mx + (5 if cx >= px else -5):g}" y="{my:g}" '
                f'text-anchor="{"start" if cx >= px else "end"}" font-size="12" '
                f'fill="#555">{esc(label)}</text>'
                + (f'<text class="label" x="{cx:g}" y="{cy - 20:g}" text-anchor="middle" '
                   f'font-size="12" fill="#1d4e89">{esc(extra)}</text>' if extra else "")
                + "</g>")
    for s in range(game.num_nodes):
        x, y = pos[s]
        name = game.node_name(s)
        leaf = game.leaf_value(s) is not None
        role = ("leaf" if leaf else "chance" if game.is_chance(s)
                else game.player_name(game.to_move(s)).lower())
        cls = f"node {role}" + (" current" if s == state else "")
        parent = game.parent(s)
        move = interactive and parent is not None and parent == state
        action = game.path(s)[-1] if move else ""
        value = values.get(name, "") if values else ""
        nodes.append(
            f'<g class="{esc(cls)}" data-node="{esc(name)}"'
            + (f' data-move="{esc(action)}"' if move else "")
            + f'>{_shape(game, s, x, y)}'
            + ("" if leaf else f'<text class="name" x="{x - R - 4:g}" y="{y - 6:g}" '
               f'text-anchor="end" font-size="12" fill="#777">{esc(name)}</text>')
            + f'<text class="val" x="{x if leaf else x + R + 4:g}" '
            f'y="{y + (30 if leaf else -4):g}" '
            f'font-size="14" font-weight="bold" fill="#1d4e89"'
            + (' text-anchor="middle"' if leaf else "")
            + f'>{esc(value)}</text>'
            + ("" if leaf else f'<text class="ab" x="{x + R + 4:g}" y="{y + 12:g}" '
               'font-size="11" fill="#6d597a"></text>')
            + "</g>")
    return document(width, height, edges + nodes, "board tree")
