"""Watch a search: the tree it visited, the values it backed up, the branches it pruned.

No algorithm is written a second time for this. :class:`TracingGame` wraps any game and
records every state the search visits (each visit asks ``terminal_utility`` or
``is_terminal`` once), so the trace shows what the *real* algorithm did. Values are then
backed up over the visited part of the tree exactly as the fail-soft algorithms back them up:
a MAX node is worth the largest value among the children it visited, a MIN node the smallest,
a chance node the probability-weighted sum, a max^n node the visited child best for its
player. (For alpha-beta these are the values Fig 6.5 writes next to each node; children that
were never visited are the pruned branches.)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..capabilities import (
    EngineSettings,
    Evaluation,
    MoveOrdering,
    NullMove,
    Playouts,
    SafeMoves,
    ScoreConvention,
    Tactics,
)
from ..game import CHANCE, Game
from .common import SearchResult
from .control import Limit


class TracingGame(Game[Any, Any]):
    """A transparent wrapper that records the order in which states are visited."""

    def __init__(self, inner: Game[Any, Any]) -> None:
        self.inner = inner
        self.name = inner.name
        self.num_players = inner.num_players
        self.game_type = inner.game_type
        self.max_utility = inner.max_utility
        self.visits: list[Any] = []

    def initial_state(self) -> Any:
        return self.inner.initial_state()

    def to_move(self, state: Any) -> int:
        return self.inner.to_move(state)

    def actions(self, state: Any) -> Sequence[Any]:
        return self.inner.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self.inner.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        self.visits.append(state)
        return self.inner.is_terminal(state)

    def terminal_utility(self, state: Any, player: int) -> float | None:
        self.visits.append(state)
        return self.inner.terminal_utility(state, player)

    def returns(self, state: Any) -> Sequence[float]:
        return self.inner.returns(state)

    def utility(self, state: Any, player: int) -> float:
        return self.inner.utility(state, player)

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]]:
        return self.inner.chance_outcomes(state)

    def key(self, state: Any) -> Hashable:
        return self.inner.key(state)

    def search_start(self, state: Any) -> Any:
        return self.inner.search_start(state)

    # The inner game's capabilities, as they are: they see states, not visits.
    def evaluation(self, name: str | None = None) -> Evaluation[Any] | None:
        return self.inner.evaluation(name)

    def move_ordering(self) -> MoveOrdering[Any, Any] | None:
        return self.inner.move_ordering()

    def tactics(self) -> Tactics[Any, Any] | None:
        return self.inner.tactics()

    def null_move(self) -> NullMove[Any] | None:
        return self.inner.null_move()

    def safe_moves(self) -> SafeMoves[Any, Any] | None:
        return self.inner.safe_moves()

    def score_convention(self) -> ScoreConvention[Any] | None:
        return self.inner.score_convention()

    def engine_settings(self) -> EngineSettings | None:
        return self.inner.engine_settings()

    def playouts(self) -> Playouts[Any] | None:
        # (a compiled playout would bypass the recording: the traced search plays in Python)
        inner = self.inner.playouts()
        return None if inner is None or inner.priors is None else Playouts(inner.priors)

    def format_action(self, state: Any, action: Any) -> str:
        return self.inner.format_action(state, action)

    def format_state(self, state: Any) -> str:
        return self.inner.format_state(state)


@dataclass
class TraceNode:
    state: Any
    label: str
    player: int
    action: str | None = None
    probability: float | None = None
    visited: bool = False
    visits: int = 0
    order: int | None = None
    value: Any = None
    children: list[TraceNode] = field(default_factory=list)


def _build(
    game: Game[Any, Any], state: Any, counts: dict[Any, int], order: dict[Any, int],
    root_player: int, action: str | None = None, prob: float | None = None,
) -> TraceNode:
    terminal = game.is_terminal(state)
    node = TraceNode(
        state=state,
        label=game.format_state(state),
        player=-2 if terminal else game.to_move(state),
        action=action,
        probability=prob,
        visits=max(1, counts[state]) if state in counts else 0,
        visited=state in counts,
        order=order.get(state),
    )
    if terminal:
        node.value = (
            tuple(game.returns(state)) if game.num_players > 2 else game.utility(state, root_player)
        )
        return node
    if node.player == CHANCE:
        pairs: list[tuple[Any, float | None]] = list(game.chance_outcomes(state))
    else:
        pairs = [(a, None) for a in game.actions(state)]
    for a, p in pairs:
        node.children.append(
            _build(game, game.result(state, a), counts, order, root_player,
                   game.format_action(state, a), p)
        )
    seen = [c for c in node.children if c.visited and c.value is not None]
    if node.visited and seen:
        if node.player == CHANCE:
            node.value = sum((c.probability or 0.0) * c.value for c in seen)
        elif game.num_players > 2:
            node.value = max(seen, key=lambda c: c.value[node.player]).value
        elif node.player == root_player:
            node.value = max(c.value for c in seen)
        else:
            node.value = min(c.value for c in seen)
    return node


def trace(
    game: Game[Any, Any], state: Any, algorithm: str = "alphabeta", **options: Any
) -> tuple[TraceNode, SearchResult]:
    """Run ``algorithm`` on a small game and return the traced tree and the search result."""
    from . import make_searcher  # the registry imports this package's modules

    tracer = TracingGame(game)
    result = make_searcher(tracer, algorithm, discount=False, **options).search(state, Limit())
    counts: dict[Any, int] = {}
    order: dict[Any, int] = {}
    # The driver itself asks once whether the root is terminal: that is not a search visit.
    visits = tracer.visits[1:] if tracer.visits and tracer.visits[0] == state else tracer.visits
    counts[state] = 0
    order[state] = 1
    for s in visits:
        counts[s] = counts.get(s, 0) + 1
        order.setdefault(s, len(order) + 1)
    root_player = game.to_move(state)
    return _build(game, state, counts, order, root_player), result


def _fmt(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, tuple):
        return "(" + ", ".join(_fmt(v) for v in value) + ")"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def _role(node: TraceNode, game: Game[Any, Any], root_player: int) -> str:
    if node.player == -2:
        return "leaf"
    if node.player == CHANCE:
        return "CHANCE"
    if game.num_players > 2:
        return f"player {node.player}"
    return "MAX" if node.player == root_player else "MIN"


def render_text(root: TraceNode, game: Game[Any, Any]) -> str:
    """An indented tree: node, role, backed-up value; pruned branches marked."""
    root_player = root.player
    out: list[str] = []

    def walk(n: TraceNode, prefix: str, last: bool, is_root: bool) -> None:
        head = "" if is_root else prefix + ("└─ " if last else "├─ ")
        edge = "" if n.action is None else f"{n.action}"
        if n.probability is not None:
            edge += f" (p={n.probability:g})"
        edge = f"{edge} → " if edge else ""
        if not n.visited:
            out.append(f"{head}{edge}{n.label}  ✂ pruned")
            return
        extra = f"  [visited {n.visits}x]" if n.visits > 1 else ""
        out.append(f"{head}{edge}{n.label} {_role(n, game, root_player)} = {_fmt(n.value)}{extra}")
        child_prefix = "" if is_root else prefix + ("   " if last else "│  ")
        for i, c in enumerate(n.children):
            walk(c, child_prefix, i == len(n.children) - 1, False)

    walk(root, "", True, True)
    return "\n".join(out)


def render_dot(root: TraceNode, game: Game[Any, Any]) -> str:
    """The same tree as Graphviz DOT: pruned branches dashed and grey."""
    root_player = root.player
    lines = ["digraph search {", "  node [fontname=Helvetica];"]
    counter = [0]

    def walk(n: TraceNode) -> str:
        counter[0] += 1
        nid = f"n{counter[0]}"
        role = _role(n, game, root_player)
        shape = {"MAX": "triangle", "MIN": "invtriangle", "CHANCE": "circle"}.get(role, "box")
        if n.visited:
            lines.append(f'  {nid} [label="{n.label}\\n{_fmt(n.value)}", shape={shape}];')
        else:
            lines.append(
                f'  {nid} [label="{n.label}", shape={shape}, style=dashed, color=grey];'
            )
        for c in n.children:
            cid = walk(c)
            label = c.action or ""
            if c.probability is not None:
                label += f" p={c.probability:g}"
            style = "" if c.visited else ", style=dashed, color=grey"
            lines.append(f'  {nid} -> {cid} [label="{label}"{style}];')
        return nid

    walk(root)
    lines.append("}")
    return "\n".join(lines)


def pruned_leaves(root: TraceNode) -> list[str]:
    """Labels of the leaves the search never visited."""
    out: list[str] = []

    def walk(n: TraceNode) -> None:
        if not n.children:
            if not n.visited:
                out.append(n.label)
            return
        for c in n.children:
            walk(c)

    walk(root)
    return out
