"""Explicit game trees (gamesearch.games.trees) and the textbook example trees.

The textbook values are checked with a plain evaluator written here over the tree data
(the Node dataclasses), independent of gamesearch.search and of TreeGame's own tables.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from gamesearch.errors import (
    GameError,
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnknownNameError,
)
from gamesearch.game import CHANCE, Game, random_playout
from gamesearch.games.trees import (
    EXAMPLES,
    SLIDES_TRANSFORM,
    Node,
    TreeGame,
    chance,
    chance_transform,
    chance_transform_monotonic,
    coinflip,
    comp3200,
    example,
    fig6_2,
    fig6_4,
    from_nested,
    letter_name,
    monotonic_transform,
    node,
    random_tree,
)

# ----- an independent evaluator over the data ------------------------------------------


def value(t: Any) -> Any:
    """Minimax / expectiminimax (number leaves, player 0 = MAX) or max^n (vector leaves)."""
    if not isinstance(t, Node):
        return t
    vals = [value(c) for _, c in t.children]
    if t.player == CHANCE:
        return sum(p * v for p, v in zip(t.probs or (), vals, strict=True))
    if isinstance(vals[0], tuple):  # max^n: the mover maximises its own entry, first wins ties
        return max(vals, key=lambda v: v[t.player])  # max() keeps the first of equals
    return max(vals) if t.player == 0 else min(vals)


def decision(t: Node) -> str:
    """The root's best action (first of equals), for the root's player."""
    vals = [value(c) for _, c in t.children]
    if isinstance(vals[0], tuple):
        key = [v[t.player] for v in vals]
    else:
        key = vals if t.player == 0 else [-v for v in vals]
    return t.children[key.index(max(key))][0]


def game_value(g: Game[Any, Any], s: Any) -> Any:
    """The same through the Game interface: checks TreeGame's tables against the data."""
    if g.is_terminal(s):
        r = tuple(g.returns(s))
        return r if g.num_players > 2 or not g.game_type.zero_sum else r[0]
    p = g.to_move(s)
    if p == CHANCE:
        return sum(q * game_value(g, g.result(s, a)) for a, q in g.chance_outcomes(s))
    vals = [game_value(g, g.result(s, a)) for a in g.actions(s)]
    if isinstance(vals[0], tuple):
        return max(vals, key=lambda v: v[p])
    return max(vals) if p == 0 else min(vals)


def child(t: Node, action: str) -> Any:
    return dict(t.children)[action]


# ----- the textbook values --------------------------------------------------------------


def test_fig6_2_minimax() -> None:
    g = fig6_2()
    assert [value(child(g.tree, a)) for a in ["a1", "a2", "a3"]] == [3, 2, 2]
    assert value(g.tree) == 3
    assert decision(g.tree) == "a1"
    assert game_value(g, 0) == 3


def test_comp3200_minimax() -> None:
    g = comp3200()
    assert value(g.tree) == 7
    assert game_value(g, 0) == 7
    leaves = [g.leaf_value(s) for s in g.leaves()]
    assert leaves == [8, 7, 3, 9, 9, 8, 2, 4, 1, 8, 6, 5, 9, 9, 3, 4]
    assert all(len(g.path(s)) == 4 for s in g.leaves())


def test_fig6_4_maxn() -> None:
    g = fig6_4()
    c_nodes = [g.parse_state(f"C{i}") for i in range(1, 5)]
    assert [game_value(g, s) for s in c_nodes] == [(1, 2, 6), (6, 1, 2), (1, 5, 2), (5, 4, 5)]
    b1, b2 = (child(g.tree, a) for a in ("a1", "a2"))
    assert [value(b1), value(b2)] == [(1, 2, 6), (1, 5, 2)]
    assert value(g.tree) == (1, 2, 6)  # A's values tie at 1: the first move is kept
    assert decision(g.tree) == "a1"
    assert game_value(g, 0) == (1, 2, 6)


def test_coinflip_expectiminimax() -> None:
    g = coinflip()
    b, c = child(g.tree, "a1"), child(g.tree, "a2")
    assert [value(n) for _, n in b.children + c.children] == [2, 4, 0, -2]
    assert (value(b), value(c)) == (3, -1)
    assert value(g.tree) == 3
    assert decision(g.tree) == "a1"
    assert game_value(g, 0) == 3


def test_chance_transform_changes_expectiminimax_decision() -> None:
    before, after = chance_transform(), chance_transform_monotonic()
    vb = [value(child(before.tree, a)) for a in ("a1", "a2")]
    va = [value(child(after.tree, a)) for a in ("a1", "a2")]
    assert vb == pytest.approx([2.1, 1.3])
    assert va == pytest.approx([21, 40.9])
    assert decision(before.tree) == "a1"
    assert decision(after.tree) == "a2"
    assert game_value(after, 0) == pytest.approx(40.9)


def as_deterministic(t: Any) -> Any:
    """The same tree with every chance node replaced by a MIN node."""
    if not isinstance(t, Node):
        return t
    kids = [(a, as_deterministic(c)) for a, c in t.children]
    return node(t.name, 1 if t.player == CHANCE else t.player, kids)


def test_monotonic_transform_keeps_minimax_decision() -> None:
    det = as_deterministic(chance_transform().tree)
    det_t = monotonic_transform(det, lambda x: SLIDES_TRANSFORM[x])
    assert isinstance(det_t, Node)
    assert decision(det) == decision(det_t) == "a1"
    for f in (lambda x: x**3, lambda x: 10 * x + 7, math.exp):
        for seed in range(30):
            t = random_tree((1, 4), 4, seed, values=range(-5, 6))
            t2 = monotonic_transform(t, f)
            assert isinstance(t2, Node)
            assert decision(t) == decision(t2)
            assert f(value(t)) == pytest.approx(value(t2))


def test_monotonic_transform_can_change_chance_decisions() -> None:
    changed = 0
    for seed in range(40):
        t = random_tree(2, 3, seed, values=range(1, 6), chance=0.5)
        t2 = monotonic_transform(t, lambda x: x**4)
        assert isinstance(t2, Node)
        changed += decision(t) != decision(t2)
    assert changed > 0


def test_monotonic_transform_checks_order_and_maps_vectors() -> None:
    with pytest.raises(InvalidLimitError, match="not strictly increasing"):
        monotonic_transform(fig6_2().tree, lambda x: -x)
    with pytest.raises(InvalidLimitError):
        monotonic_transform(fig6_2().tree, lambda x: 0)
    t = monotonic_transform(fig6_4().tree, lambda x: 2 * x)
    assert isinstance(t, Node)
    assert value(t) == (2, 4, 12)
    g = fig6_2().transformed(lambda x: x + 100)
    assert game_value(g, 0) == 103
    assert g.name == "fig6.2-transformed"


# ----- structure ------------------------------------------------------------------------


def test_fig6_2_structure() -> None:
    g = fig6_2()
    assert g.initial_state() == 0
    assert list(g.actions(0)) == ["a1", "a2", "a3"]
    assert g.to_move(0) == 0
    b = g.result(0, "a1")
    assert g.node_name(b) == "B" and g.to_move(b) == 1
    assert list(g.actions(b)) == ["b1", "b2", "b3"]
    assert [g.node_name(g.result(0, a)) for a in g.actions(0)] == ["B", "C", "D"]
    leaf = g.result(g.result(0, "a3"), "d1")
    assert g.is_terminal(leaf) and not g.is_terminal(0) and not g.is_terminal(b)
    assert g.returns(leaf) == (14.0, -14.0)
    assert g.utility(leaf, 0) == 14 and g.utility(leaf, 1) == -14
    assert g.terminal_utility(leaf, 1) == -14 and g.terminal_utility(b, 0) is None
    assert g.leaf_value(leaf) == 14 and g.leaf_value(b) is None
    assert g.actions(leaf) == ()
    assert g.evaluate(b, 0) == 0.0
    assert g.game_type.num_players == 2 and g.game_type.zero_sum and not g.game_type.chance
    assert g.max_utility >= 1e9
    assert g.num_nodes == 13 and len(g.leaves()) == 9
    assert g.parent(b) == 0 and g.parent(0) is None
    assert g.children(0) == [("a1", b), ("a2", g.parse_state("C")), ("a3", g.parse_state("D"))]
    assert g.player_name(0) == "MAX" and g.player_name(1) == "MIN"


def test_fig6_4_structure() -> None:
    g = fig6_4()
    gt = g.game_type
    assert (gt.num_players, gt.zero_sum, gt.chance) == (3, False, False)
    assert g.num_players == 3
    assert [g.to_move(g.parse_state(n)) for n in ("A", "B1", "B2", "C1", "C4")] == [0, 1, 1, 2, 2]
    leaf = g.parse_state("a2/b4/c8")
    assert g.returns(leaf) == (5.0, 4.0, 5.0)
    assert g.utility(leaf, 2) == 5
    assert g.player_name(2) == "C"
    with pytest.raises(GameError):
        g.chance_outcomes(0)


def test_chance_structure() -> None:
    for g in (coinflip(), chance_transform(), chance_transform_monotonic()):
        assert g.game_type.chance and g.game_type.zero_sum
        chance_nodes = [s for s in range(g.num_nodes) if g.is_chance(s)]
        assert [g.node_name(s) for s in chance_nodes] == ["B", "C"]
        for s in chance_nodes:
            assert g.to_move(s) == CHANCE
            outcomes = g.chance_outcomes(s)
            assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [a for a, _ in outcomes] == list(g.actions(s))
    g = coinflip()
    assert g.chance_outcomes(g.parse_state("B")) == (("heads", 0.5), ("tails", 0.5))
    assert [p for _, p in chance_transform().chance_outcomes(1)] == [0.9, 0.1]


def test_examples_registry() -> None:
    assert set(EXAMPLES) == {
        "fig6.2",
        "comp3200",
        "fig6.4",
        "coinflip",
        "chance-transform",
        "chance-transform-monotonic",
    }
    for name, ex in EXAMPLES.items():
        g = ex.factory()
        assert g.name == name and g.description == ex.description and ex.description
        assert example(name).tree == g.tree
    with pytest.raises(UnknownNameError, match=r"fig6\.2"):
        example("fig9.9")


def test_random_playout_reaches_a_leaf() -> None:
    rng = random.Random(1)
    for name in EXAMPLES:
        g = example(name)
        for _ in range(10):
            assert g.is_terminal(random_playout(g, 0, rng))


# ----- notation and errors --------------------------------------------------------------


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_format_parse_round_trip(name: str) -> None:
    g = example(name)
    for s in range(g.num_nodes):
        assert g.parse_state(g.format_state(s)) == s
        assert g.parse_state("/".join(g.path(s))) == s
        if not g.is_terminal(s):
            assert g.format_state(s) == g.node_name(s)


def test_parse_state_forms() -> None:
    g = fig6_2()
    assert g.parse_state("B") == g.parse_state("a1") == g.result(0, "a1")
    assert g.parse_state(" a2 / c3 ") == g.result(g.result(0, "a2"), "c3")
    assert g.parse_state("/a2/c3/") == g.parse_state("a2/c3")
    assert g.parse_state("") == g.parse_state("/") == 0
    assert g.format_state(g.parse_state("a2/c3")) == "a2/c3"
    c = comp3200()
    assert c.parse_state("LR") == c.parse_state("L/R") and c.format_state(0) == "root"


def test_parse_state_errors() -> None:
    g = fig6_2()
    with pytest.raises(InvalidPositionError, match=r"neither a node name.*A, B, C, D"):
        g.parse_state("Q")
    with pytest.raises(InvalidPositionError, match=r"no action 'c1' at node B; its actions: b1"):
        g.parse_state("a1/c1")
    with pytest.raises(InvalidPositionError, match="a leaf"):
        g.parse_state("a1/b1/x")


def test_illegal_moves() -> None:
    g = fig6_2()
    with pytest.raises(IllegalMoveError, match="legal moves: a1 a2 a3"):
        g.result(0, "b1")
    with pytest.raises(IllegalMoveError, match="legal moves: a1 a2 a3"):
        g.play(0, "zz")
    leaf = g.parse_state("a1/b1")
    with pytest.raises(IllegalMoveError, match="game is over"):
        g.result(leaf, "b1")
    with pytest.raises(GameError, match="not a leaf"):
        g.utility(0, 0)
    with pytest.raises(GameError, match="not a leaf"):
        g.returns(0)
    assert g.play(0, "a2") == g.parse_state("C")


def test_bad_trees() -> None:
    with pytest.raises(InvalidPositionError, match="needs children"):
        node("A", 0, {})
    with pytest.raises(InvalidPositionError, match="appears twice"):
        node("A", 0, [("a", 1), ("a", 2)])
    with pytest.raises(InvalidPositionError, match="sum to"):
        chance("C", {"h": (0.5, 1), "t": (0.6, 2)})
    with pytest.raises(InvalidPositionError, match="only chance nodes"):
        node("A", 0, {"a": 1}, probs=[1.0])
    with pytest.raises(InvalidPositionError, match="neither a node nor a leaf"):
        node("A", 0, {"a": "x"})  # type: ignore[dict-item]
    with pytest.raises(InvalidPositionError, match="not a finite number"):
        node("A", 0, {"a": math.nan})
    with pytest.raises(InvalidPositionError, match="'/'"):
        node("A/B", 0, {"a": 1})
    with pytest.raises(InvalidPositionError, match="used twice"):
        TreeGame(node("A", 0, {"a": node("A", 1, {"b": 1})}))
    with pytest.raises(InvalidPositionError, match="used twice"):
        TreeGame(node("A", 0, {"a1": 1, "a2": node("a1", 1, {"b": 2})}))
    with pytest.raises(InvalidPositionError, match="different lengths"):
        TreeGame(node("A", 0, {"a": (1, 2, 3), "b": (1, 2)}))
    with pytest.raises(InvalidPositionError, match="two-player"):
        TreeGame(node("A", 0, {"a": (1, 2, 3), "b": 4}))
    with pytest.raises(InvalidPositionError, match=r"outside 0\.\.1"):
        TreeGame(node("A", 0, {"a": node("B", 2, {"b": 1})}))
    with pytest.raises(InvalidPositionError, match="not a leaf"):
        TreeGame(3)  # type: ignore[arg-type]


def test_builders() -> None:
    t = node("A", CHANCE, {"x": 1, "y": 2, "z": 3, "w": 4})
    assert t.probs == (0.25, 0.25, 0.25, 0.25)
    t = node("A", CHANCE, {"x": 1, "y": 2}, probs={"y": 0.25, "x": 0.75})
    assert t.probs == (0.75, 0.25)
    assert chance("C", [("h", 0.5, 1), ("t", 0.5, 2)]) == chance(
        "C", {"h": (0.5, 1), "t": (0.5, 2)}
    )
    # from_nested reproduces Fig 6.2 exactly, names and actions included.
    assert from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]) == fig6_2().tree
    t3 = from_nested([[(1, 2, 3), (3, 2, 1)], [(0, 0, 9)]], num_players=3, actions="xyz")
    g = TreeGame(t3)
    assert g.num_players == 3 and g.to_move(g.parse_state("x")) == 1
    assert [g.format_state(s) for s in g.leaves()] == ["x/x", "x/y", "y/x"]
    assert [letter_name(i) for i in (0, 25, 26, 27, 701, 702)] == [
        "A", "Z", "AA", "AB", "ZZ", "AAA",
    ]  # fmt: skip
    g2 = TreeGame.from_nested([[1, -1], [0]], actions="LR", name="tiny")
    assert g2.name == "tiny" and game_value(g2, 0) == 0
    # Two-player vector leaves that do not sum to zero: not zero-sum.
    assert not TreeGame(node("A", 0, {"a": (1, 1), "b": (0, 0)})).game_type.zero_sum


def test_heuristics() -> None:
    t = node("A", 0, {"a1": node("B", 1, {"b1": 3}, heuristic=5), "a2": 1})
    g = TreeGame(t)
    assert g.evaluation() is not None
    assert g.evaluate(1, 0) == 5 and g.evaluate(1, 1) == -5
    assert fig6_2().evaluation() is None
    r = TreeGame.random(2, 3, 4, heuristics=True)
    assert r.evaluation() is not None
    assert all(abs(r.evaluate(s, 0)) < r.max_utility for s in range(r.num_nodes))


def test_max_utility_above_big_leaves() -> None:
    g = TreeGame(node("A", 0, {"a": 5e12, "b": -1}))
    assert g.max_utility > 2 * 5e12


def test_render() -> None:
    text = coinflip().render(0)
    assert text.splitlines()[:3] == ["A [MAX]", "  a1 -> B [CHANCE]", "    heads p=0.5 -> D [MIN]"]
    assert "g2 -> -2" in text


# ----- random trees ---------------------------------------------------------------------


def test_random_tree_is_deterministic_by_seed() -> None:
    opts: dict[str, Any] = {"ties": 0.3, "early_leaf": 0.2, "chance": 0.2, "players": "random"}
    assert random_tree((1, 4), 5, 7, **opts) == random_tree((1, 4), 5, random.Random(7), **opts)
    assert random_tree(3, 4, 1) != random_tree(3, 4, 2)
    assert TreeGame.random(2, 3, 5).tree == random_tree(2, 3, 5)


def test_random_tree_shapes() -> None:
    g = TreeGame.random(3, 4, 0)
    assert len(g.leaves()) == 81 and all(len(g.path(s)) == 4 for s in g.leaves())
    assert all(g.to_move(s) == len(g.path(s)) % 2 for s in range(g.num_nodes) if not
               g.is_terminal(s))  # fmt: skip
    for seed in range(20):
        g = TreeGame.random((1, 4), 5, seed, early_leaf=0.3, chance=0.3, values=[0, 1])
        assert g.to_move(0) == 0
        for s in range(g.num_nodes):
            if g.is_terminal(s):
                assert g.leaf_value(s) in (0, 1) and 1 <= len(g.path(s)) <= 5
            else:
                assert 1 <= len(g.actions(s)) <= 4
                if g.is_chance(s):
                    assert math.fsum(p for _, p in g.chance_outcomes(s)) == pytest.approx(1)
        assert game_value(g, 0) == pytest.approx(value(g.tree))
    # Ties: with ties=1 every leaf repeats the first value drawn.
    g = TreeGame.random(2, 4, 3, ties=1.0)
    assert len({g.leaf_value(s) for s in g.leaves()}) == 1
    # Random players: somewhere a player moves twice in a row.
    twice = 0
    for seed in range(10):
        g = TreeGame.random(2, 4, seed, players="random")
        twice += any(
            g.to_move(s) == g.to_move(c)
            for s in range(g.num_nodes)
            for _, c in g.children(s)
            if not g.is_terminal(c)
        )
    assert twice


def test_random_tree_bad_options() -> None:
    with pytest.raises(InvalidLimitError):
        random_tree(0, 3, 1)
    with pytest.raises(InvalidLimitError):
        random_tree((3, 2), 3, 1)
    with pytest.raises(InvalidLimitError):
        random_tree(2, 0, 1)
    with pytest.raises(InvalidLimitError):
        random_tree(2, 2, 1, ties=1.5)
    with pytest.raises(InvalidLimitError):
        random_tree(2, 2, 1, players="both")
    with pytest.raises(InvalidLimitError):
        random_tree(2, 2, 1, values=[])
