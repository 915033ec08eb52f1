"""The Learn page's animations, made from the library's own trace of a real search.

:func:`gamesearch.search.trace.trace` runs the algorithm on a wrapped game that records the
order in which the search visits states; the search is depth first, so that order is a
preorder of the visited part of the tree. :func:`steps` turns it into events a page can
play forward and back:

* ``visit`` — the search enters a node; with the window ``α``/``β`` it carries there,
  which for alpha-beta is, by definition of AIMA Fig 6.7's parameters, the best value so far
  of the nearest MAX (MIN) ancestors: the largest (smallest) partial value on the path;
* ``leaf`` — a leaf's utility is read;
* ``backup`` — a finished child's value reaches its parent (the parent's value so far);
* ``done`` — a node is finished, with its backed-up value (as the trace computes it);
* ``prune`` — a node finished with children never visited: those branches were pruned.

Nothing of the algorithms is written again here: which nodes were visited, in which order,
and so which were pruned, comes from the search itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...errors import GameError, InvalidLimitError
from ...game import CHANCE
from ...games.trees import EXAMPLES, Node, Tree, TreeGame, example
from ...search.trace import TraceNode, pruned_leaves, trace

#: algorithms the Learn page animates (the rest of the registry works too)
ALGORITHMS = ("minimax", "alphabeta", "maxn", "expectiminimax", "negamax", "paranoid")
ORDERINGS = ("given", "best", "worst")
MAX_LEAVES = 400


def fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, tuple | list):
        return "(" + ", ".join(fmt(x) for x in v) + ")"
    if isinstance(v, float):
        if math.isinf(v):
            return "+∞" if v > 0 else "−∞"
        if v.is_integer():
            return str(int(v))
        return f"{v:.3g}"
    return str(v)


def random_game(branching: int, depth: int, seed: int, chance: float = 0.0) -> TreeGame:
    if not 1 <= branching <= 6:
        raise InvalidLimitError(f"branching {branching}: between 1 and 6")
    if not 1 <= depth <= 6:
        raise InvalidLimitError(f"depth {depth}: between 1 and 6")
    if branching ** depth > MAX_LEAVES:
        raise InvalidLimitError(f"branching {branching} and depth {depth} make "
                                f"{branching ** depth} leaves; at most {MAX_LEAVES} are drawn")
    if not 0 <= seed < 2**31:
        raise InvalidLimitError(f"seed {seed}: between 0 and 2^31 - 1")
    if not 0.0 <= chance <= 0.5:
        raise InvalidLimitError(f"chance {chance}: a probability between 0 and 0.5")
    return TreeGame.random(branching, depth, seed, chance=chance)


def tree_game(name: str) -> TreeGame:
    return example(name.strip().lower())


def full_values(game: TreeGame) -> dict[str, Any]:
    """Every node's exact value (by a search that visits all of them), by node name."""
    gt = game.game_type
    algorithm = "expectiminimax" if gt.chance else "maxn" if gt.num_players > 2 else "minimax"
    root, _ = trace(game, game.initial_state(), algorithm)
    values: dict[str, Any] = {}

    def walk(n: TraceNode) -> None:
        values[n.label] = n.value
        for c in n.children:
            walk(c)

    walk(root)
    return values


def reordered(game: TreeGame, ordering: str) -> TreeGame:
    """The same tree with each decision node's children sorted by their exact value for the
    player to move: ``best`` first (the perfect ordering alpha-beta hopes for) or ``worst``
    first. Names and action labels are kept, so the pictures stay comparable."""
    if ordering == "given":
        return game
    if ordering not in ORDERINGS:
        raise InvalidLimitError(f"ordering {ordering!r}; allowed: {', '.join(ORDERINGS)}")
    values = full_values(game)
    two = game.num_players == 2

    def walk(t: Tree, path: tuple[str, ...]) -> Tree:
        if not isinstance(t, Node):
            return t
        kids = [(a, walk(c, (*path, a))) for a, c in t.children]
        probs = list(t.probs) if t.probs is not None else None
        if t.player != CHANCE:
            def score(item: tuple[str, Tree]) -> float:
                child = item[1]
                name = child.name if isinstance(child, Node) else "/".join((*path, item[0]))
                v = values[name]
                if two:
                    return float(v) if t.player == 0 else -float(v)
                return float(v[t.player])

            kids.sort(key=score, reverse=ordering == "best")
        return Node(t.name, t.player, tuple(kids), tuple(probs) if probs else None,
                    t.heuristic)

    tree = walk(game.tree, ())
    assert isinstance(tree, Node)
    return TreeGame(tree, name=game.name, description=f"{game.description} "
                    f"({ordering} ordering)", num_players=game.num_players)


@dataclass
class _Frame:
    node: TraceNode
    finished: list[TraceNode]
    partial: Any = None


def _partial(frame: _Frame, root_player: int, players: int) -> Any:
    done = [c for c in frame.finished if c.value is not None]
    if not done:
        return None
    n = frame.node
    if n.player == CHANCE:
        return sum((c.probability or 0.0) * c.value for c in done)
    if players > 2:
        return max(done, key=lambda c: c.value[n.player]).value
    vals = [c.value for c in done]
    return max(vals) if n.player == root_player else min(vals)


def steps(root: TraceNode, players: int) -> list[dict[str, Any]]:
    """The events of the search, in order (see the module docstring)."""
    visited: list[tuple[TraceNode, TraceNode | None]] = []

    def collect(n: TraceNode, parent: TraceNode | None) -> None:
        if n.visited:
            visited.append((n, parent))
        for c in n.children:
            collect(c, n)

    collect(root, None)
    visited.sort(key=lambda p: p[0].order or 0)
    root_player = root.player
    out: list[dict[str, Any]] = []
    stack: list[_Frame] = []

    def role(n: TraceNode) -> str:
        if n.player == -2:
            return "leaf"
        if n.player == CHANCE:
            return "chance"
        if players > 2:
            return f"player {n.player}"
        return "MAX" if n.player == root_player else "MIN"

    def window() -> tuple[float, float]:
        """α and β on the current path: the best values so far of MAX and MIN nodes."""
        alpha, beta = -math.inf, math.inf
        if players == 2:
            for f in stack:
                if f.partial is None or f.node.player == CHANCE:
                    continue
                if f.node.player == root_player:
                    alpha = max(alpha, f.partial)
                else:
                    beta = min(beta, f.partial)
        return alpha, beta

    def finish() -> None:
        frame = stack.pop()
        n = frame.node
        skipped = [c.label for c in n.children if not c.visited]
        if skipped:
            out.append({"type": "prune", "node": n.label, "nodes": _subtree(n, skipped),
                        "children": skipped,
                        "text": f"{n.label}: {', '.join(c.split('/')[-1] for c in skipped)} "
                                f"pruned — they cannot change the decision"})
        if n.player != -2:
            out.append({"type": "done", "node": n.label, "value": fmt(n.value),
                        "text": f"{n.label} ({role(n)}) is worth {fmt(n.value)}"})
        if stack:
            parent = stack[-1]
            parent.finished.append(n)
            parent.partial = _partial(parent, root_player, players)
            alpha, beta = window()
            out.append({"type": "backup", "node": parent.node.label, "from": n.label,
                        "value": fmt(parent.partial), "alpha": fmt(alpha), "beta": fmt(beta),
                        "text": f"{fmt(n.value)} backed up from {_short(n.label)} to "
                                f"{parent.node.label}: value so far {fmt(parent.partial)}"})

    for n, parent in visited:
        while stack and stack[-1].node is not parent:
            finish()
        alpha, beta = window()
        stack.append(_Frame(n, []))
        if n.player == -2:
            out.append({"type": "leaf", "node": n.label, "value": fmt(n.value),
                        "alpha": fmt(alpha), "beta": fmt(beta),
                        "text": f"leaf {_short(n.label)} = {fmt(n.value)}"})
        else:
            out.append({"type": "visit", "node": n.label, "role": role(n),
                        "alpha": fmt(alpha), "beta": fmt(beta),
                        "text": f"visit {n.label} ({role(n)})"
                                + (f", α = {fmt(alpha)}, β = {fmt(beta)}" if players == 2
                                   else "")})
    while stack:
        finish()
    return out


def _short(label: str) -> str:
    return label.rsplit("/", 1)[-1]


def _subtree(n: TraceNode, labels: list[str]) -> list[str]:
    """The given children of ``n`` and everything below them (all greyed out together)."""
    out: list[str] = []

    def walk(t: TraceNode) -> None:
        out.append(t.label)
        for c in t.children:
            walk(c)

    for c in n.children:
        if c.label in labels:
            walk(c)
    return out


def animate(game: TreeGame, algorithm: str) -> dict[str, Any]:
    """Trace ``algorithm`` on the tree: the drawing, the events, the result."""
    if algorithm not in ALGORITHMS:
        raise InvalidLimitError(f"algorithm {algorithm!r} for the Learn page; allowed: "
                                f"{', '.join(ALGORITHMS)}")
    state = game.initial_state()
    try:
        root, result = trace(game, state, algorithm)
    except RecursionError:  # pragma: no cover - trees are small
        raise GameError("the tree is too deep to trace") from None
    pruned = pruned_leaves(root)
    return {
        "game": game.name,
        "description": game.description,
        "algorithm": algorithm,
        "players": game.num_players,
        "svg": game.render_svg(state, interactive=False),
        "steps": steps(root, game.num_players),
        "value": fmt(result.value),
        "move": game.format_action(state, result.action),
        "nodes": result.nodes,
        "leaves": len(game.leaves()),
        "pruned": ([_short(p) for p in pruned]
                   if len({_short(p) for p in pruned}) == len(pruned) else pruned),
        "pruned_paths": pruned,
    }


__all__ = ["ALGORITHMS", "EXAMPLES", "ORDERINGS", "animate", "random_game", "reordered",
           "steps", "tree_game"]
