"""The search algorithms against independent truths: plain minimax, the textbook's figures,
published node counts. Correctness and node counts only — never wall time."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import example as hypothesis_example
from hypothesis import strategies as st

from gamesearch import (
    GameError,
    InvalidLimitError,
    Limit,
    UnknownNameError,
    UnsupportedGameError,
    get_game,
    make_searcher,
    search,
)
from gamesearch.capabilities import EngineSettings, Tactics
from gamesearch.game import CHANCE
from gamesearch.games import available_games
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.games.trees import TreeGame, example
from gamesearch.search.trace import pruned_leaves, trace

# ----- an independent truth, written here from the definition ---------------------------


def plain_minimax(game: Any, s: Any, me: int, depth: int | None = None) -> float:
    """MINIMAX(s) straight from AIMA's definition (§6.2.1), with an optional cut-off."""
    if game.is_terminal(s):
        return float(game.utility(s, me))
    if depth == 0:
        return float(game.evaluate(s, me))
    nd = None if depth is None else depth - 1
    if game.to_move(s) == CHANCE:
        return sum(p * plain_minimax(game, game.result(s, o), me, depth)
                   for o, p in game.chance_outcomes(s))
    vals = [plain_minimax(game, game.result(s, a), me, nd) for a in game.actions(s)]
    return max(vals) if game.to_move(s) == me else min(vals)


TWO_PLAYER = [
    ("alphabeta", {}),
    ("negamax", {}),
    ("pvs", {}),
    ("negamax", {"pvs": True}),
    ("negamax", {"tt": 64}),
    ("negamax", {"tt": 4, "ordering": True}),
    ("negamax", {"killers": True}),
    ("negamax", {"history": True}),
    ("id", {}),
    ("id", {"tt": 2}),
    ("id", {"aspiration": 1.0}),
]

tree_params = st.fixed_dictionaries({
    "seed": st.integers(0, 10**9),
    "branching": st.sampled_from([2, 3, (1, 4), (2, 5)]),
    "depth": st.integers(1, 5),
    "values": st.sampled_from([range(-9, 10), range(-2, 3), range(0, 2), range(-50, 51)]),
    "ties": st.sampled_from([0.0, 0.3, 0.7]),
    "early_leaf": st.sampled_from([0.0, 0.2]),
    "players": st.sampled_from(["alternate", "random"]),
})


def build_tree(p: dict[str, Any], **extra: Any) -> TreeGame:
    return TreeGame.random(p["branching"], p["depth"], p["seed"], values=p["values"],
                           ties=p["ties"], early_leaf=p["early_leaf"], players=p["players"],
                           **extra)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree_params, st.booleans())
def test_every_two_player_algorithm_agrees_with_minimax(p: dict[str, Any], discount: bool) -> None:
    game = build_tree(p)
    root = game.initial_state()
    truth = plain_minimax(game, root, 0)
    reference = make_searcher(game, "minimax", discount=discount).search(root)
    if not discount:
        assert reference.value == truth
    for algorithm, options in TWO_PLAYER:
        r = make_searcher(game, algorithm, discount=discount, **options).search(root)
        assert r.value == reference.value, (algorithm, options)
        # The move it recommends really is worth the root value.
        assert plain_minimax(game, game.result(root, r.action), 0) == truth, (algorithm, options)


@settings(max_examples=300, deadline=None)
@given(tree_params)
def test_alphabeta_and_negamax_prune_alike_and_pick_minimax_first_best(p: dict[str, Any]) -> None:
    game = build_tree(p)
    root = game.initial_state()
    mm = make_searcher(game, "minimax", discount=False).search(root)
    ab = make_searcher(game, "alphabeta", discount=False).search(root)
    ng = make_searcher(game, "negamax", discount=False).search(root)
    # Same value and, ties included, the same (first best) move as minimax.
    assert ab.value == ng.value == mm.value
    assert ab.action == ng.action == mm.action
    # The short form prunes exactly what Fig 6.7 prunes, never more than minimax visits.
    assert ab.nodes == ng.nodes <= mm.nodes


@settings(max_examples=200, deadline=None)
@given(tree_params, st.integers(1, 4))
def test_depth_limited_search_with_heuristics(p: dict[str, Any], depth: int) -> None:
    p = {**p, "depth": max(p["depth"], 2)}
    game = build_tree(p, heuristics=True)
    root = game.initial_state()
    truth = plain_minimax(game, root, 0, depth)
    for algorithm, options in [("minimax", {}), *TWO_PLAYER]:
        r = make_searcher(game, algorithm, discount=False, **options).search(
            root, Limit(depth=depth))
        assert r.value == truth, (algorithm, options)
    # Alpha-beta values the cut-off's leaves inside their parent's loop; the plain negamax
    # calls itself for each. Both must visit the same nodes and agree with minimax's line.
    mm = make_searcher(game, "minimax", discount=False).search(root, Limit(depth=depth))
    ab = make_searcher(game, "alphabeta", discount=False).search(root, Limit(depth=depth))
    ng = make_searcher(game, "negamax", discount=False).search(root, Limit(depth=depth))
    assert ab.nodes == ng.nodes <= mm.nodes
    assert ab.pv == mm.pv


@settings(max_examples=200, deadline=None)
@given(tree_params, st.floats(0.1, 0.6))
def test_expectiminimax_matches_the_weighted_sum_definition(p: dict[str, Any], c: float) -> None:
    p = {**p, "players": "alternate"}
    game = build_tree(p, chance=c)
    root = game.initial_state()
    r = make_searcher(game, "expectiminimax", discount=False).search(root)
    assert r.value == pytest.approx(plain_minimax(game, root, 0))


@settings(max_examples=100, deadline=None)
@given(tree_params, st.integers(5, 400))
@hypothesis_example(  # the root's own budget check once counted the root twice
    {"seed": 856454360, "branching": (2, 5), "depth": 5, "values": range(-9, 10),
     "ties": 0.0, "early_leaf": 0.0, "players": "alternate"}, 193)
def test_iterative_deepening_under_a_node_limit_matches_fixed_depth(
    p: dict[str, Any], budget: int
) -> None:
    game = build_tree(p, heuristics=True)
    root = game.initial_state()
    for algorithm, options in [("alphabeta", {}), ("id", {"partial": False})]:
        r = make_searcher(game, algorithm, **options).search(root, Limit(nodes=budget))
        assert r.action in game.actions(root)
        assert r.nodes <= budget
        if r.depth >= 1:
            fixed = make_searcher(game, algorithm, **options).search(root, Limit(depth=r.depth))
            assert r.action == fixed.action
            assert r.value == fixed.value


def test_tictactoe_published_counts() -> None:
    game = TicTacToe()
    mm = search(game, 0, "minimax")
    assert (mm.value, mm.nodes) == (0.0, 549_946)
    assert search(game, 0, "alphabeta", discount=False).nodes == 18_297
    assert search(game, 0, "alphabeta", discount=True).nodes == 20_866
    assert search(game, 0, "negamax", discount=False).nodes == 18_297
    center = TicTacToe(order="center")
    assert search(center, 0, "alphabeta", discount=False).nodes == 7_275


def test_tictactoe_status_table_agrees_with_the_lines_on_every_reachable_state() -> None:
    # terminal_utility reads a precomputed table; is_terminal/utility test the eight lines.
    game = TicTacToe()
    seen, frontier = {0}, [0]
    while frontier:
        s = frontier.pop()
        for player in (0, 1):
            expected = game.utility(s, player) if game.is_terminal(s) else None
            assert game.terminal_utility(s, player) == expected, (game.format_state(s), player)
        if not game.is_terminal(s):
            for a in game.actions(s):
                c = game.result(s, a)
                if c not in seen:
                    seen.add(c)
                    frontier.append(c)
    assert len(seen) == 5_478  # every legal tic-tac-toe position


@pytest.mark.parametrize("name", sorted(available_games()))
def test_games_declared_alternating_do_alternate(name: str) -> None:
    # Search trusts the flag: it reads the side to move from the ply's parity.
    game = get_game(name)
    if not game.game_type.alternating:
        return
    rng = random.Random(7)
    for _ in range(20):
        state = game.initial_state()
        while not game.is_terminal(state):
            child = game.result(state, rng.choice(list(game.actions(state))))
            assert game.to_move(child) != game.to_move(state) or game.is_terminal(child)
            state = child


def test_tictactoe_faster_win_preferred() -> None:
    game = TicTacToe()
    # X to move can win at once on 3 or set up a slower win; the fast win must be chosen.
    s = game.parse_state("xx.oo....")
    for algorithm in ("minimax", "alphabeta", "negamax", "pvs", "id"):
        r = search(game, s, algorithm)
        assert game.format_action(s, r.action) == "3", algorithm
        assert r.value == pytest.approx(1 - 1 / 1000)
    # O to move, about to lose whatever it does: the slower loss is preferred (block).
    s = game.parse_state("xx..o....")
    r = search(game, s, "id")
    assert game.format_action(s, r.action) == "3"


def test_results_carry_statistics_and_pv() -> None:
    game = TicTacToe()
    seen: list[int] = []
    r = search(game, 0, "id", Limit(depth=9), callback=lambda it: seen.append(it.depth))
    assert seen == list(range(1, len(seen) + 1)) and seen[-1] == r.depth
    assert sum(r.nodes_per_depth) == r.nodes
    assert r.tt_hits > 0 and r.cutoffs > 0
    assert r.pv[0] == r.action
    s = 0
    for a in r.pv:  # the PV is a legal line
        assert a in game.actions(s)
        s = game.result(s, a)


def test_time_limit_always_returns_a_legal_move() -> None:
    game = get_game("tictactoe")
    r = search(game, 0, "id", Limit(time=0.05))
    assert r.action in game.actions(0)
    r = search(game, 0, "minimax", Limit(nodes=3))
    assert r.action in game.actions(0) and not r.completed


def test_textbook_figures() -> None:
    fig62 = example("fig6.2")
    root = fig62.initial_state()
    for algorithm in ("minimax", "alphabeta", "negamax", "pvs", "id"):
        r = search(fig62, root, algorithm, discount=False)
        assert r.value == 3 and r.action == "a1", algorithm
    tree, result = trace(fig62, root, "alphabeta")
    # Fig 6.5: alpha-beta never looks at C's second and third leaves.
    assert pruned_leaves(tree) == ["a2/c2", "a2/c3"]
    assert result.nodes == 1 + 3 + 3 + 1 + 3
    comp = example("comp3200")
    assert search(comp, comp.initial_state(), "minimax").value == 7
    assert search(comp, comp.initial_state(), "alphabeta").value == 7
    fig64 = example("fig6.4")
    assert search(fig64, fig64.initial_state(), "maxn").value == (1, 2, 6)
    coin = example("coinflip")
    r = search(coin, coin.initial_state(), "expectiminimax")
    assert r.value == 3
    assert [v for _, v in r.extra["root_values"]] == [3, -1]


def test_monotonic_transform_changes_expectiminimax_but_not_minimax() -> None:
    before = example("chance-transform")
    after = example("chance-transform-monotonic")
    a = search(before, before.initial_state(), "expectiminimax").action
    b = search(after, after.initial_state(), "expectiminimax").action
    assert a != b
    rng = random.Random(7)
    for _ in range(50):
        g = TreeGame.random(3, 4, rng.randrange(10**9), values=range(1, 30))
        h = g.transformed(lambda x: x**3 + 5 * x)
        assert search(g, 0, "minimax").action == search(h, 0, "minimax").action


def test_bad_input_is_refused_clearly() -> None:
    game = get_game("tictactoe")
    with pytest.raises(InvalidLimitError, match="time"):
        Limit(time=-1)
    with pytest.raises(InvalidLimitError, match="depth"):
        Limit(depth=0)
    with pytest.raises(UnknownNameError, match="algorithm 'nope'"):
        search(game, 0, "nope")
    with pytest.raises(InvalidLimitError, match="unknown option"):
        search(game, 0, "alphabeta:colour=red")
    with pytest.raises(GameError, match="terminal"):
        search(game, game.parse_state("xxxoo...."), "minimax")
    fig64 = example("fig6.4")
    with pytest.raises(UnsupportedGameError, match="two-player"):
        search(fig64, fig64.initial_state(), "alphabeta")
    coin = example("coinflip")
    with pytest.raises(UnsupportedGameError, match="chance"):
        search(coin, coin.initial_state(), "minimax")


def test_transposition_table_size_is_bounded() -> None:
    game = TicTacToe()
    r = make_searcher(game, "id", tt="16").search(0)
    assert r.value == 0.0
    searcher = make_searcher(game, "id", tt="1k")
    assert searcher.table is not None and searcher.table.size == 1024  # type: ignore[attr-defined]
    with pytest.raises(InvalidLimitError, match="table size"):
        make_searcher(game, "id", tt="lots")


class NoisyTree(TreeGame):
    """A random tree whose first action at every node is 'noisy' (think: a capture)."""

    def tactics(self) -> Tactics[int, str]:
        return Tactics(self.noisy_actions)

    def noisy_actions(self, state: int) -> Any:
        acts = self.actions(state)
        return acts[:1] if not self.is_terminal(state) else ()


def plain_quiescence_value(game: Any, s: Any, depth: int) -> float:
    """Negamax value with the cut-off replaced by a full quiescence search (no pruning)."""
    p = game.to_move(s)

    def q(s: Any) -> float:
        if game.is_terminal(s):
            return float(game.utility(s, game.to_move(s)))
        stand = float(game.evaluate(s, game.to_move(s)))
        vals = [stand] + [sign(s, c) * q(c) for c in
                          (game.result(s, a) for a in game.noisy_actions(s))]
        return max(vals)

    def sign(parent: Any, child: Any) -> int:
        return 1 if game.to_move(child) == game.to_move(parent) else -1

    def v(s: Any, d: int) -> float:
        if game.is_terminal(s):
            return float(game.utility(s, game.to_move(s)))
        if d == 0:
            return q(s)
        return max(sign(s, c) * v(c, d - 1) for c in (game.result(s, a) for a in game.actions(s)))

    del p
    return v(s, depth)


@settings(max_examples=150, deadline=None)
@given(tree_params, st.integers(1, 3))
def test_quiescence_search_matches_its_definition(p: dict[str, Any], depth: int) -> None:
    p = {**p, "depth": max(p["depth"], 3)}
    tree = build_tree(p, heuristics=True)
    game = NoisyTree(tree.tree, name="noisy")
    root = game.initial_state()
    truth = plain_quiescence_value(game, root, depth)
    for algorithm, options in [("negamax", {}), ("pvs", {}), ("id", {})]:
        r = make_searcher(game, algorithm, discount=False, quiescence=True, **options).search(
            root, Limit(depth=depth))
        assert r.value == truth, (algorithm, options)


def test_paranoid_equals_minimax_of_the_root_player_utility() -> None:
    game = example("fig6.4")
    root = game.initial_state()
    r = search(game, root, "paranoid")
    # Paranoid: A maximises its own utility, B and C minimise it.
    assert r.value == 1 and r.action == "a1"


def test_pig_expectiminimax_matches_the_definition() -> None:
    pig = get_game("pig")
    state = pig.parse_state("15-17-3-0")
    for depth in (1, 2, 3):
        r = search(pig, state, "expectiminimax", Limit(depth=depth), discount=False)
        assert r.value == pytest.approx(plain_minimax_decisions(pig, state, 0, depth))


def plain_minimax_decisions(game: Any, s: Any, me: int, depth: int) -> float:
    """Expectiminimax where only decision plies use depth (the library's convention)."""
    if game.is_terminal(s):
        return float(game.utility(s, me))
    if game.to_move(s) == CHANCE:
        return sum(p * plain_minimax_decisions(game, game.result(s, o), me, depth)
                   for o, p in game.chance_outcomes(s))
    if depth == 0:
        return float(game.evaluate(s, me))
    vals = [plain_minimax_decisions(game, game.result(s, a), me, depth - 1)
            for a in game.actions(s)]
    return max(vals) if game.to_move(s) == me else min(vals)


class _FutileTree(TreeGame):
    """A random tree with heuristics whose futility margins never trigger a pruning."""

    def engine_settings(self) -> EngineSettings:
        return EngineSettings(futility_margins=(0.0, 1e9, 1e9))


@settings(max_examples=100, deadline=None)
@given(tree_params, st.integers(2, 4))
def test_futility_pruning_that_never_triggers_changes_nothing(
    p: dict[str, Any], depth: int
) -> None:
    game = _FutileTree(build_tree(p, heuristics=True).tree, name="futile")
    root = game.initial_state()
    on = make_searcher(game, "id").search(root, Limit(depth=depth))
    off = make_searcher(game, "id", futility=False).search(root, Limit(depth=depth))
    assert (on.value, on.action, on.pv, on.nodes) == (off.value, off.action, off.pv, off.nodes)


def test_futility_needs_margins() -> None:
    game = TreeGame.random(2, 3, 1)
    with pytest.raises(UnsupportedGameError, match="futility margins"):
        make_searcher(game, "id", futility=True)
    with pytest.raises(UnsupportedGameError, match="futility margins"):
        search(game, 0, "id:futility=1")


def test_aspiration_with_a_table_keeps_deepening() -> None:
    """Regression: a node whose window a depth-limited table entry narrowed was stored as
    exact to the end, so the next search believed the whole tree seen and stopped a depth
    early (id with aspiration gave 4 instead of 2 on this tree at depth 3)."""
    game = TreeGame.random((2, 5), 5, 8, values=range(-9, 10), ties=0.7, early_leaf=0.2,
                           players="alternate", heuristics=True)
    root = game.initial_state()
    truth = plain_minimax(game, root, 0, 3)
    r = make_searcher(game, "id", discount=False, aspiration=1.0).search(root, Limit(depth=3))
    assert (r.value, r.depth) == (truth, 3)
