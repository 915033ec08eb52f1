"""Explicit game trees written as data, and the textbook's example trees.

A tree is nested data. A **leaf** is a number (two players, zero-sum: the utility for MAX,
player 0; MIN gets its negation) or a tuple of numbers (a utility vector, one entry per
player). An **internal node** is a :class:`Node`: a name (``"A"``, ``"B"`` ... kept so a trace
can show it), the player to move (``0 .. n-1`` or :data:`~gamesearch.game.CHANCE`) and its
children, each reached by an action label; under a chance node every child also has a
probability. Two ways to write one::

    node("A", 0, {"a1": node("B", 1, {"b1": 3, "b2": 12, "b3": 8}), "a2": ...})
    chance("C", {"heads": (0.5, node(...)), "tails": (0.5, node(...))})

    from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])   # AIMA Fig 6.2: A; B C D; a1 .. d3

In nested-list form a *list* is an internal node and a number or a *tuple* is a leaf; players
alternate by depth, nodes are named A, B, C ... breadth first and actions follow AIMA's
convention (node ``B``'s moves are ``b1 b2 b3``) unless labels are given.

:class:`TreeGame` turns a tree into a :class:`~gamesearch.game.Game`. Its states are node ids
(ints, preorder from the root = 0). Positions are written as the node's name, or — for a leaf,
which has no name — as the path of actions from the root (``a1/b2``); ``parse_state`` reads
both. ``max_utility`` is set far above every leaf (at least ``10**9``) so that search never
mistakes a textbook leaf value for a win to be discounted by its distance.

The named examples (:data:`EXAMPLES`): ``fig6.2``, ``comp3200``, ``fig6.4``, ``coinflip``,
``chance-transform`` and ``chance-transform-monotonic``. :func:`random_tree` builds seeded
random trees for the property tests that compare search algorithms.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from typing import Any, TypeAlias

from ..capabilities import Drawing, Evaluation
from ..errors import (
    GameError,
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnknownNameError,
)
from ..game import CHANCE, Game, GameType

#: A leaf: a number (utility for player 0 of a two-player zero-sum game) or a utility vector.
Leaf: TypeAlias = "float | tuple[float, ...]"
#: A (sub)tree: an internal :class:`Node` or a leaf.
Tree: TypeAlias = "Node | float | tuple[float, ...]"

#: Leaf values are kept below this, so search never discounts them as wins (see search/common).
MAX_UTILITY = 1e9
PROBABILITY_TOLERANCE = 1e-9


def _is_number(x: object) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _check_label(kind: str, label: object) -> str:
    if not isinstance(label, str) or not label or label != label.strip() or "/" in label:
        raise InvalidPositionError(
            f"{kind} {label!r}: must be a non-empty string without '/' or surrounding spaces"
        )
    return label


def _check_leaf(where: str, leaf: object) -> None:
    if _is_number(leaf):
        if not math.isfinite(float(leaf)):  # type: ignore[arg-type]
            raise InvalidPositionError(f"leaf {where}: {leaf!r} is not a finite number")
        return
    if isinstance(leaf, tuple) and leaf and all(_is_number(x) for x in leaf):
        if not all(math.isfinite(float(x)) for x in leaf):
            raise InvalidPositionError(f"leaf {where}: {leaf!r} has a non-finite entry")
        return
    raise InvalidPositionError(
        f"child {where}: {leaf!r} is neither a node nor a leaf "
        "(a number, or a non-empty tuple of numbers)"
    )


@dataclass(frozen=True)
class Node:
    """An internal node: ``name``, ``player`` to move (or CHANCE) and ``children``.

    ``children`` is a tuple of ``(action, subtree)`` in the order ``actions`` lists them;
    ``probs`` gives one probability per child at a chance node (``None`` elsewhere).
    ``heuristic`` is an optional estimate of the node's value (a number for player 0, or a
    vector) that :meth:`TreeGame.evaluate` returns at a depth cut-off.
    Build nodes with :func:`node`, :func:`chance` or :func:`from_nested`.
    """

    name: str
    player: int
    children: tuple[tuple[str, Tree], ...]
    probs: tuple[float, ...] | None = None
    heuristic: float | tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        _check_label("node name", self.name)
        if not isinstance(self.player, int) or isinstance(self.player, bool) or self.player < -1:
            raise InvalidPositionError(
                f"node {self.name}: player {self.player!r} must be 0, 1, ... or CHANCE (-1)"
            )
        if not self.children:
            raise InvalidPositionError(f"node {self.name}: an internal node needs children")
        seen: set[str] = set()
        for action, child in self.children:
            _check_label(f"node {self.name}: action", action)
            if action in seen:
                raise InvalidPositionError(f"node {self.name}: action {action!r} appears twice")
            seen.add(action)
            if not isinstance(child, Node):
                _check_leaf(f"{self.name}/{action}", child)
        if self.player == CHANCE:
            if self.probs is None or len(self.probs) != len(self.children):
                raise InvalidPositionError(
                    f"chance node {self.name}: needs one probability per child "
                    f"({len(self.children)}), got {self.probs!r}"
                )
            if not all(_is_number(p) and 0 < p <= 1 for p in self.probs):
                raise InvalidPositionError(
                    f"chance node {self.name}: probabilities {self.probs!r} must be in (0, 1]"
                )
            if abs(math.fsum(self.probs) - 1.0) > PROBABILITY_TOLERANCE:
                raise InvalidPositionError(
                    f"chance node {self.name}: probabilities {self.probs!r} "
                    f"sum to {math.fsum(self.probs)!r}, not 1"
                )
        elif self.probs is not None:
            raise InvalidPositionError(
                f"node {self.name}: only chance nodes have probabilities (player {self.player})"
            )
        if self.heuristic is not None:
            _check_leaf(f"{self.name} (heuristic)", self.heuristic)

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.children)


# ----- builders ------------------------------------------------------------------------


def node(
    name: str,
    player: int,
    children: Mapping[str, Tree] | Sequence[tuple[str, Tree]],
    *,
    probs: Sequence[float] | Mapping[str, float] | None = None,
    heuristic: float | tuple[float, ...] | None = None,
) -> Node:
    """An internal node; ``children`` maps action labels to subtrees, in order.

    For ``player=CHANCE``, ``probs`` gives the probabilities (a sequence in child order or a
    mapping by action); without it the outcomes are equally likely.
    """
    kids = tuple(children.items()) if isinstance(children, Mapping) else tuple(children)
    probabilities: tuple[float, ...] | None = None
    if player == CHANCE:
        if probs is None:
            probabilities = tuple(1.0 / len(kids) for _ in kids) if kids else ()
        elif isinstance(probs, Mapping):
            missing = [a for a, _ in kids if a not in probs]
            extra = [a for a in probs if a not in {a for a, _ in kids}]
            if missing or extra:
                raise InvalidPositionError(
                    f"chance node {name}: probabilities missing for {missing}, "
                    f"given for unknown outcomes {extra}"
                )
            probabilities = tuple(float(probs[a]) for a, _ in kids)
        else:
            probabilities = tuple(float(p) for p in probs)
    elif probs is not None:
        raise InvalidPositionError(f"node {name}: only chance nodes have probabilities")
    return Node(name, player, kids, probabilities, heuristic)


def chance(
    name: str,
    outcomes: Mapping[str, tuple[float, Tree]] | Sequence[tuple[str, float, Tree]],
) -> Node:
    """A chance node: ``{"heads": (0.5, subtree), "tails": (0.5, subtree)}``."""
    if isinstance(outcomes, Mapping):
        items = [(a, p, t) for a, (p, t) in outcomes.items()]
    else:
        items = [(a, p, t) for a, p, t in outcomes]
    return node(name, CHANCE, [(a, t) for a, _, t in items], probs=[p for _, p, _ in items])


def letter_name(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ... (spreadsheet column names)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("A") + r) + out
    return out


class _Proto:
    """A node under construction, named once the whole tree is known (breadth first)."""

    __slots__ = ("children", "heuristic", "player", "probs")

    def __init__(
        self,
        player: int,
        children: list[Any],
        probs: list[float] | None = None,
        heuristic: float | None = None,
    ) -> None:
        self.player = player
        self.children = children  # of _Proto or leaves
        self.probs = probs
        self.heuristic = heuristic


def _finish(root: _Proto, labels: Sequence[str] | None) -> Node:
    """Name the nodes A, B, C ... breadth first, label the actions, and build the Nodes."""
    names: dict[int, str] = {}
    queue = [root]
    for p in queue:  # the list grows as we go: a breadth-first walk
        names[id(p)] = letter_name(len(names))
        queue.extend(c for c in p.children if isinstance(c, _Proto))

    def build(p: _Proto) -> Node:
        name = names[id(p)]
        if labels is None:
            acts = [f"{name.lower()}{i + 1}" for i in range(len(p.children))]
        else:
            if len(p.children) > len(labels):
                raise InvalidPositionError(
                    f"node {name} has {len(p.children)} children but only "
                    f"{len(labels)} action labels were given: {list(labels)}"
                )
            acts = list(labels[: len(p.children)])
        kids = [
            (a, build(c) if isinstance(c, _Proto) else c)
            for a, c in zip(acts, p.children, strict=True)
        ]
        return node(name, p.player, kids, probs=p.probs, heuristic=p.heuristic)

    return build(root)


def from_nested(
    data: Sequence[Any],
    *,
    actions: Sequence[str] | None = None,
    first_player: int = 0,
    num_players: int = 2,
) -> Node:
    """A tree from nested lists: a list is a node, a number or tuple a leaf.

    Players take turns by depth (``first_player`` at the root, then the next of
    ``num_players`` ...). Nodes are named A, B, C ... breadth first. ``actions`` gives the
    labels by child index (``"LR"`` or ``["L", "R"]``); by default node ``B``'s actions are
    ``b1, b2, ...`` as in AIMA.
    """
    if not isinstance(data, list):
        raise InvalidPositionError(f"nested tree {data!r}: the root must be a list of children")
    if num_players < 1 or not 0 <= first_player < num_players:
        raise InvalidPositionError(
            f"first_player {first_player} must be a player 0..{num_players - 1}"
        )

    def proto(d: list[Any], player: int) -> _Proto:
        if not d:
            raise InvalidPositionError("nested tree: an empty list is not a node")
        nxt = (player + 1) % num_players
        return _Proto(player, [proto(c, nxt) if isinstance(c, list) else c for c in d])

    return _finish(proto(data, first_player), actions)


def random_tree(
    branching: int | tuple[int, int],
    depth: int,
    rng: random.Random | int,
    *,
    values: Sequence[float] = range(-9, 10),
    ties: float = 0.0,
    early_leaf: float = 0.0,
    chance: float = 0.0,
    players: str = "alternate",
    heuristics: bool = False,
) -> Node:
    """A random two-player tree, the same for the same arguments and seed.

    * ``branching``: children per node, or ``(lo, hi)`` for a number drawn in ``lo..hi``.
    * ``depth``: plies from the root to the deepest leaves (at least 1).
    * ``rng``: a :class:`random.Random` or an int seed.
    * ``values``: leaf values are drawn from it (a small range gives many ties).
    * ``ties``: probability that a leaf repeats the previous leaf's value (more ties).
    * ``early_leaf``: probability that a node above ``depth`` is a leaf (uneven depth).
    * ``chance``: probability that a non-root internal node is a chance node (its outcome
      probabilities drawn from integer weights 1-4).
    * ``players``: ``"alternate"`` (MAX at the root, then turns alternate, chance nodes
      aside) or ``"random"`` (each decision node below the root picks its player at random,
      so a player may move twice in a row).
    * ``heuristics``: give every internal node a heuristic value drawn from ``values``.

    Nodes are named A, B, ... breadth first; actions follow AIMA (``b1``, ``b2``...).
    """
    if isinstance(rng, int):
        rng = random.Random(rng)
    lo, hi = (branching, branching) if isinstance(branching, int) else branching
    if not 1 <= lo <= hi:
        raise InvalidLimitError(f"branching {branching!r}: need 1 <= lo <= hi")
    if depth < 1:
        raise InvalidLimitError(f"depth {depth!r}: must be at least 1")
    if not values:
        raise InvalidLimitError("values: need at least one leaf value")
    for name, p in (("ties", ties), ("early_leaf", early_leaf), ("chance", chance)):
        if not 0.0 <= p <= 1.0:
            raise InvalidLimitError(f"{name} {p!r}: must be a probability in [0, 1]")
    if players not in ("alternate", "random"):
        raise InvalidLimitError(f"players {players!r}: 'alternate' or 'random'")
    r = rng
    last_leaf: list[float] = []

    def leaf() -> float:
        if last_leaf and ties and r.random() < ties:
            return last_leaf[0]
        v = r.choice(values)
        last_leaf[:] = [v]
        return v

    def build(d: int, last_player: int, root: bool) -> _Proto | float:
        if d == depth or (not root and early_leaf and r.random() < early_leaf):
            return leaf()
        k = r.randint(lo, hi)
        if not root and chance and r.random() < chance:
            weights = [r.randint(1, 4) for _ in range(k)]
            total = sum(weights)
            kids = [build(d + 1, last_player, False) for _ in range(k)]
            h = r.choice(values) if heuristics else None
            return _Proto(CHANCE, kids, [w / total for w in weights], h)
        if root:
            player = 0
        elif players == "random":
            player = r.randint(0, 1)
        else:
            player = 1 - last_player
        kids = [build(d + 1, player, False) for _ in range(k)]
        h = r.choice(values) if heuristics else None
        return _Proto(player, kids, None, h)

    root = build(0, 1, True)
    assert isinstance(root, _Proto)
    return _finish(root, None)


def monotonic_transform(tree: Tree, f: Callable[[float], float], *, check: bool = True) -> Tree:
    """The same tree with every leaf value (every entry of a vector leaf) mapped by ``f``.

    With ``check`` (the default), ``f`` must be strictly increasing on the tree's leaf values
    — the order-preserving transformations under which minimax's decisions never change,
    though expectiminimax's may (Russell's slides, "exact values DO matter").
    Heuristic values at internal nodes are mapped too.
    """

    def leaf_map(v: float | tuple[float, ...]) -> float | tuple[float, ...]:
        if isinstance(v, tuple):
            return tuple(f(x) for x in v)
        return f(v)

    def walk(t: Tree) -> Tree:
        if isinstance(t, Node):
            h = None if t.heuristic is None else leaf_map(t.heuristic)
            kids = tuple((a, walk(c)) for a, c in t.children)
            return Node(t.name, t.player, kids, t.probs, h)
        return leaf_map(t)

    if check:
        seen: set[float] = set()

        def collect(t: Tree) -> None:
            if isinstance(t, Node):
                if t.heuristic is not None:
                    collect(t.heuristic)
                for _, c in t.children:
                    collect(c)
            elif isinstance(t, tuple):
                seen.update(t)
            else:
                seen.add(t)

        collect(tree)
        xs = sorted(seen)
        for (x0, y0), (x1, y1) in pairwise((x, f(x)) for x in xs):
            if not y0 < y1:
                raise InvalidLimitError(
                    f"the transform is not strictly increasing on the leaf values: "
                    f"f({x0!r}) = {y0!r} but f({x1!r}) = {y1!r}"
                )
    return walk(tree)


# ----- the game ------------------------------------------------------------------------


class TreeGame(Game[int, str]):
    """A game played on an explicit tree. States are node ids (ints; the root is 0).

    ``TreeGame(tree, name=..., description=...)``; ``tree`` is a :class:`Node`. The number
    of players comes from the leaves (numbers: two players, zero-sum; tuples: their length)
    unless ``num_players`` is given. ``actions`` keep the tree's order (search breaks ties in
    favour of the first). At a leaf ``to_move`` returns 0 (nobody moves there).
    """

    state_notation = "a node name (A, B, ...) or a path of actions from the root, e.g. a1/b2"

    def __init__(
        self,
        tree: Node,
        *,
        name: str = "tree",
        description: str = "",
        num_players: int | None = None,
    ) -> None:
        if not isinstance(tree, Node):
            raise InvalidPositionError(
                f"tree {tree!r}: the root must be an internal node (node(...)), not a leaf"
            )
        self.tree = tree
        self.name = name
        self.description = description
        self._player: list[int] = []
        self._actions: list[tuple[str, ...]] = []
        self._child: list[dict[str, int]] = []
        self._outcomes: list[tuple[tuple[str, float], ...]] = []
        self._leaf: list[Leaf | None] = []
        self._heuristic: list[float | tuple[float, ...] | None] = []
        self._path: list[tuple[str, ...]] = []
        self._name: list[str] = []
        self._parent: list[int] = []

        def visit(t: Tree, path: tuple[str, ...], parent: int) -> int:
            i = len(self._player)
            self._path.append(path)
            self._parent.append(parent)
            if isinstance(t, Node):
                self._player.append(t.player)
                self._actions.append(t.actions)
                self._leaf.append(None)
                self._heuristic.append(t.heuristic)
                self._name.append(t.name)
                self._child.append({})
                self._outcomes.append(
                    tuple(zip(t.actions, t.probs, strict=True)) if t.probs is not None else ()
                )
                kids = {a: visit(c, (*path, a), i) for a, c in t.children}
                self._child[i] = kids
            else:
                self._player.append(0)
                self._actions.append(())
                self._leaf.append(t)
                self._heuristic.append(None)
                self._name.append("/".join(path))
                self._child.append({})
                self._outcomes.append(())
            return i

        visit(tree, (), -1)

        # Players and utilities.
        leaves = [v for v in self._leaf if v is not None]
        vectors = [v for v in leaves if isinstance(v, tuple)]
        lengths = {len(v) for v in vectors}
        has_numbers = len(vectors) < len(leaves)
        if num_players is None:
            if len(lengths) > 1:
                raise InvalidPositionError(
                    f"{name}: leaf vectors have different lengths {sorted(lengths)}"
                )
            num_players = lengths.pop() if lengths else 2
        if lengths - {num_players}:
            raise InvalidPositionError(
                f"{name}: {num_players} players but leaf vectors of length "
                f"{sorted(lengths - {num_players})}"
            )
        if has_numbers and num_players != 2:
            raise InvalidPositionError(
                f"{name}: a number leaf means a two-player zero-sum utility, "
                f"but the tree has {num_players} players; write utility vectors instead"
            )
        bad = [
            self._name[i]
            for i, p in enumerate(self._player)
            if p >= num_players and self._leaf[i] is None
        ]
        if bad:
            raise InvalidPositionError(
                f"{name}: node(s) {', '.join(bad)} name a player outside 0..{num_players - 1}"
            )

        def vec(v: float | tuple[float, ...]) -> tuple[float, ...]:
            if isinstance(v, tuple):
                return tuple(float(x) for x in v)
            return (float(v), 0.0 - float(v))

        self._returns: list[tuple[float, ...] | None] = [
            None if v is None else vec(v) for v in self._leaf
        ]
        self._heuristic_vec: list[tuple[float, ...] | None] = [
            None if h is None else vec(h) for h in self._heuristic
        ]
        for i, h in enumerate(self._heuristic_vec):
            if h is not None and len(h) != num_players:
                raise InvalidPositionError(
                    f"{name}: node {self._name[i]}'s heuristic {self._heuristic[i]!r} "
                    f"does not fit {num_players} players"
                )
        zero_sum = all(
            abs(math.fsum(r)) <= 1e-9 * max(1.0, max(abs(x) for x in r))
            for r in self._returns
            if r is not None
        )
        self.num_players = num_players
        # What max^n's pruning needs (GameType.constant_sum, value_bounds): the leaves'
        # vectors and the heuristic ones (the evaluation) all sum to one number.
        vectors = [r for r in self._returns + self._heuristic_vec if r is not None]
        sums = {math.fsum(r) for r in vectors}
        constant = sums.pop() if len(sums) == 1 else None
        entries = [x for r in vectors for x in r]
        self.game_type = GameType(
            num_players=num_players, chance=CHANCE in self._player, zero_sum=zero_sum,
            constant_sum=constant,
            value_bounds=(min(entries), max(entries)) if entries else None,
            small=True,
        )
        biggest = max(
            (abs(x) for r in self._returns + self._heuristic_vec if r is not None for x in r),
            default=0.0,
        )
        self.max_utility = max(MAX_UTILITY, 10.0 * biggest)
        #: the tree gives heuristic values (then it has an evaluation)
        self.heuristics = any(h is not None for h in self._heuristic)

        # Names: unique, and a leaf's path must not read as some node's name.
        self._by_name: dict[str, int] = {}
        for i, n in enumerate(self._name):
            if n in self._by_name:
                raise InvalidPositionError(
                    f"{name}: the name {n!r} is used twice (node names must be unique "
                    "and differ from every leaf's path of actions)"
                )
            self._by_name[n] = i

    # ----- the six functions -------------------------------------------------------------
    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return self._player[state]

    def actions(self, state: int) -> Sequence[str]:
        return self._actions[state]

    def result(self, state: int, action: str) -> int:
        try:
            return self._child[state][action]
        except (KeyError, TypeError):
            reason = "the game is over" if self._leaf[state] is not None else ""
            raise IllegalMoveError(
                action, self.legal_action_strings(state), reason=reason
            ) from None

    def is_terminal(self, state: int) -> bool:
        return self._returns[state] is not None

    def returns(self, state: int) -> tuple[float, ...]:
        r = self._returns[state]
        if r is None:
            raise GameError(f"{self.name}: node {self._name[state]} is not a leaf")
        return r

    def utility(self, state: int, player: int) -> float:
        r = self._returns[state]
        if r is None:
            raise GameError(f"{self.name}: node {self._name[state]} is not a leaf")
        return r[player]

    def terminal_utility(self, state: int, player: int) -> float | None:
        r = self._returns[state]
        return None if r is None else r[player]

    def chance_outcomes(self, state: int) -> Sequence[tuple[str, float]]:
        if self._player[state] != CHANCE or self._leaf[state] is not None:
            raise GameError(f"{self.name}: node {self._name[state]} is not a chance node")
        return self._outcomes[state]

    def evaluation(self, name: str | None = None) -> Evaluation[int] | None:
        """The tree's heuristic values, when it gives some (:meth:`evaluate`)."""
        if name is not None or not self.heuristics:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: int, player: int) -> float:
        """The node's heuristic value if the tree gives one (else 0; a leaf's utility)."""
        h = self._heuristic_vec[state]
        if h is not None:
            return h[player]
        r = self._returns[state]
        return 0.0 if r is None else r[player]

    # ----- notation ----------------------------------------------------------------------
    def format_state(self, state: int) -> str:
        return self._name[state]

    def parse_state(self, text: str) -> int:
        text = text.strip()
        if text in self._by_name:
            return self._by_name[text]
        steps = [s.strip() for s in text.split("/") if s.strip()]
        state = 0
        for k, step in enumerate(steps):
            kids = self._child[state]
            if step not in kids:
                legal = " ".join(self._actions[state]) or "(none: a leaf)"
                if k == 0 and "/" not in text:
                    names = list(n for n, i in self._by_name.items() if self._leaf[i] is None)
                    shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
                    raise InvalidPositionError(
                        f"{self.name}: {text!r} is neither a node name ({shown}) nor an "
                        f"action at the root ({legal}); expected {self.state_notation}"
                    )
                raise InvalidPositionError(
                    f"{self.name}: path {text!r}: no action {step!r} at node "
                    f"{self._name[state]}; its actions: {legal}"
                )
            state = kids[step]
        return state

    def drawing(self) -> Drawing[int]:
        """The position as SVG, legal moves clickable (see :mod:`.trees_svg`)."""
        from .trees_svg import render

        return Drawing(partial(render, self))

    def render(self, state: int) -> str:
        """The subtree below ``state`` as an indented outline."""
        lines: list[str] = []

        def label(s: int) -> str:
            leaf = self._leaf[s]
            if leaf is not None:
                return repr(leaf)
            return f"{self._name[s]} [{self.player_name(self._player[s])}]"

        def walk(s: int, indent: str) -> None:
            outcomes = dict(self._outcomes[s])
            for a in self._actions[s]:
                c = self._child[s][a]
                p = f" p={outcomes[a]:g}" if a in outcomes else ""
                lines.append(f"{indent}{a}{p} -> {label(c)}")
                walk(c, indent + "  ")

        lines.append(label(state))
        walk(state, "  ")
        return "\n".join(lines)

    # ----- for traces --------------------------------------------------------------------
    def player_name(self, player: int) -> str:
        """MAX / MIN for two players, A, B, C ... for more, CHANCE at chance nodes."""
        if player == CHANCE:
            return "CHANCE"
        if self.num_players == 2:
            return ("MAX", "MIN")[player]
        return letter_name(player)

    def node_name(self, state: int) -> str:
        """The node's name; for a leaf, its path of actions (``a1/b2``)."""
        return self._name[state]

    def leaf_value(self, state: int) -> Leaf | None:
        """The leaf's value as written in the tree (``None`` at an internal node)."""
        return self._leaf[state]

    def path(self, state: int) -> tuple[str, ...]:
        """The actions from the root to ``state``."""
        return self._path[state]

    def parent(self, state: int) -> int | None:
        p = self._parent[state]
        return None if p < 0 else p

    def children(self, state: int) -> list[tuple[str, int]]:
        """``(action, child state)`` pairs in action order."""
        return [(a, self._child[state][a]) for a in self._actions[state]]

    def is_chance(self, state: int) -> bool:
        return self._player[state] == CHANCE and self._leaf[state] is None

    @property
    def num_nodes(self) -> int:
        return len(self._player)

    def leaves(self) -> list[int]:
        """Every leaf, left to right."""
        return [i for i, v in enumerate(self._leaf) if v is not None]

    # ----- constructors ------------------------------------------------------------------
    @classmethod
    def from_nested(
        cls,
        data: Sequence[Any],
        *,
        actions: Sequence[str] | None = None,
        first_player: int = 0,
        num_players: int = 2,
        name: str = "tree",
        description: str = "",
    ) -> TreeGame:
        """``TreeGame(from_nested(data, ...))``; see :func:`from_nested`."""
        tree = from_nested(
            data, actions=actions, first_player=first_player, num_players=num_players
        )
        return cls(tree, name=name, description=description, num_players=num_players)

    @classmethod
    def random(
        cls,
        branching: int | tuple[int, int],
        depth: int,
        rng: random.Random | int,
        **options: Any,
    ) -> TreeGame:
        """A game on :func:`random_tree` ``(branching, depth, rng, **options)``."""
        seed = f" seed {rng}" if isinstance(rng, int) else ""
        tree = random_tree(branching, depth, rng, **options)
        return cls(
            tree, name="random-tree", description=f"random tree b={branching} d={depth}{seed}"
        )

    def transformed(self, f: Callable[[float], float], *, check: bool = True) -> TreeGame:
        """The same game with every leaf value mapped by ``f`` (see :func:`monotonic_transform`)."""
        tree = monotonic_transform(self.tree, f, check=check)
        assert isinstance(tree, Node)
        return TreeGame(
            tree,
            name=f"{self.name}-transformed",
            description=f"{self.description} (leaves transformed)",
            num_players=self.num_players,
        )


# ----- the textbook's examples ---------------------------------------------------------


def fig6_2() -> TreeGame:
    """AIMA Fig 6.2: MAX at A; a1 a2 a3 to MIN nodes B C D. Minimax: B=3 C=2 D=2, root 3 (a1)."""
    tree = from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    return TreeGame(tree, name="fig6.2", description=EXAMPLES["fig6.2"].description)


COMP3200_LEAVES = (8, 7, 3, 9, 9, 8, 2, 4, 1, 8, 6, 5, 9, 9, 3, 4)


def comp3200() -> TreeGame:
    """COMP 3200's 16-leaf binary tree: depth 4, MAX at the root, actions L/R; value 7.

    Each internal node is named by its path: ``root``; ``L`` ``R``; ``LL`` ``LR`` ...;
    ``LLL`` ... ``RRR`` (so the name ``LR`` and the path ``L/R`` are the same node).
    """

    def build(path: str, leaves: Sequence[int]) -> Tree:
        if len(leaves) == 1:
            return leaves[0]
        half = len(leaves) // 2
        kids = {"L": build(path + "L", leaves[:half]), "R": build(path + "R", leaves[half:])}
        return node(path or "root", len(path) % 2, kids)

    tree = build("", COMP3200_LEAVES)
    assert isinstance(tree, Node)
    return TreeGame(tree, name="comp3200", description=EXAMPLES["comp3200"].description)


def fig6_4() -> TreeGame:
    """AIMA Fig 6.4: three players A, B, C (players 0, 1, 2); max^n root value (1, 2, 6).

    Nodes are named by the player to move: A; B1 B2; C1 .. C4. Actions a1 a2, b1 .. b4,
    c1 .. c8, left to right.
    """
    leaves = [
        (1, 2, 6),
        (4, 2, 3),
        (6, 1, 2),
        (7, 4, 1),
        (5, 1, 1),
        (1, 5, 2),
        (7, 7, 1),
        (5, 4, 5),
    ]
    cs = [
        node(f"C{i + 1}", 2, {f"c{2 * i + 1}": leaves[2 * i], f"c{2 * i + 2}": leaves[2 * i + 1]})
        for i in range(4)
    ]
    bs = [
        node(f"B{i + 1}", 1, {f"b{2 * i + 1}": cs[2 * i], f"b{2 * i + 2}": cs[2 * i + 1]})
        for i in range(2)
    ]
    tree = node("A", 0, {"a1": bs[0], "a2": bs[1]})
    return TreeGame(tree, name="fig6.4", description=EXAMPLES["fig6.4"].description)


def coinflip() -> TreeGame:
    """Russell's slides, coin-flip expectiminimax: MAX at A; a1, a2 to chance nodes B, C;
    heads/tails (0.5 each) to MIN nodes D E (under B) and F G (under C).

    MIN values 2, 4, 0, -2; chance values 3 and -1; MAX plays a1 for 3.
    """
    tree = node("A", 0, {
        "a1": chance("B", {
            "heads": (0.5, node("D", 1, {"d1": 2, "d2": 4})),
            "tails": (0.5, node("E", 1, {"e1": 7, "e2": 4})),
        }),
        "a2": chance("C", {
            "heads": (0.5, node("F", 1, {"f1": 6, "f2": 0})),
            "tails": (0.5, node("G", 1, {"g1": 5, "g2": -2})),
        }),
    })  # fmt: skip
    return TreeGame(tree, name="coinflip", description=EXAMPLES["coinflip"].description)


#: The order-preserving map of Russell's "exact values DO matter" slide.
SLIDES_TRANSFORM: dict[float, float] = {1: 1, 2: 20, 3: 30, 4: 400}


def chance_transform() -> TreeGame:
    """Russell's slides / AIMA Fig 6.12: MAX at A; a1, a2 to dice nodes B, C with outcomes
    of probability .9 and .1 leading to MIN nodes D E, F G whose two leaves are equal:
    2 2 | 3 3 | 1 1 | 4 4. Chance values 2.1 and 1.3: MAX plays a1.
    """
    tree = node("A", 0, {
        "a1": chance("B", {
            "b1": (0.9, node("D", 1, {"d1": 2, "d2": 2})),
            "b2": (0.1, node("E", 1, {"e1": 3, "e2": 3})),
        }),
        "a2": chance("C", {
            "c1": (0.9, node("F", 1, {"f1": 1, "f2": 1})),
            "c2": (0.1, node("G", 1, {"g1": 4, "g2": 4})),
        }),
    })  # fmt: skip
    return TreeGame(
        tree, name="chance-transform", description=EXAMPLES["chance-transform"].description
    )


def chance_transform_monotonic() -> TreeGame:
    """:func:`chance_transform` with leaves mapped 1, 2, 3, 4 -> 1, 20, 30, 400 (order kept).

    Chance values 21 and 40.9: MAX now plays a2 — exact values matter under chance.
    """
    tree = monotonic_transform(chance_transform().tree, lambda x: SLIDES_TRANSFORM[x])
    assert isinstance(tree, Node)
    return TreeGame(
        tree,
        name="chance-transform-monotonic",
        description=EXAMPLES["chance-transform-monotonic"].description,
    )


@dataclass(frozen=True)
class Example:
    factory: Callable[[], TreeGame]
    description: str


EXAMPLES: dict[str, Example] = {
    "fig6.2": Example(fig6_2, "AIMA Fig 6.2 two-ply tree: minimax value 3, best move a1"),
    "comp3200": Example(
        comp3200, "COMP 3200 16-leaf binary tree (depth 4, actions L/R): minimax value 7"
    ),
    "fig6.4": Example(fig6_4, "AIMA Fig 6.4 three-player tree: max^n value (1, 2, 6) at the root"),
    "coinflip": Example(
        coinflip, "Russell's coin-flip expectiminimax tree: chance nodes 3 and -1, MAX plays a1"
    ),
    "chance-transform": Example(
        chance_transform, "dice tree, p=.9/.1: chance nodes 2.1 and 1.3, MAX plays a1"
    ),
    "chance-transform-monotonic": Example(
        chance_transform_monotonic,
        "the same tree, leaves 1,2,3,4 -> 1,20,30,400: chance nodes 21 and 40.9, MAX plays a2",
    ),
}


def example(name: str) -> TreeGame:
    """The named example tree; :class:`UnknownNameError` lists the known names."""
    try:
        return EXAMPLES[name].factory()
    except KeyError:
        raise UnknownNameError("example tree", name, EXAMPLES) from None
