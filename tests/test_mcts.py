"""Monte Carlo tree search against independent truths: minimax, max^n and expectiminimax on
the textbook trees and on seeded random trees, minimax moves on tic-tac-toe, expectiminimax
decisions on Pig. Budgets are counted in iterations, never in time (the machines are shared)."""

from __future__ import annotations

import json
import math
import random
import threading
import time
from io import StringIO
from typing import Any

import pytest

from gamesearch import (
    ALGORITHMS,
    GameError,
    InvalidLimitError,
    Limit,
    UnsupportedGameError,
    get_game,
    make_searcher,
    search,
)
from gamesearch.agents import SearchAgent, make_agent, play_game
from gamesearch.capabilities import Playouts
from gamesearch.game import CHANCE, GameType, random_playout
from gamesearch.games.pig import Pig
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.games.trees import TreeGame, example, random_tree
from gamesearch.interfaces.cli import main
from gamesearch.search import parse_spec
from gamesearch.search.mcts import MCTS

TTT = TicTacToe()


def mcts(game: Any, state: Any, iterations: int, **options: Any) -> Any:
    return make_searcher(game, "mcts", iterations=iterations, **options).search(state)


def child_values(game: Any, state: Any) -> dict[Any, float]:
    """Each move's minimax value for the player to move (plain minimax: the independent truth)."""
    me = game.to_move(state)
    out = {}
    for a in game.actions(state):
        s = game.result(state, a)
        r = None if game.is_terminal(s) else search(game, s, "minimax", discount=False)
        if r is None:
            v = game.utility(s, me)
        else:  # the value for the player to move in s
            v = r.value if game.to_move(s) == me else -r.value
        out[a] = v
    return out


def plain_value(game: Any, s: Any) -> float:
    """Player 0's minimax / expectiminimax value of ``s`` from the definitions (AIMA §6.2,
    §6.5): the independent truth for two-player trees."""
    if game.is_terminal(s):
        return float(game.utility(s, 0))
    p = game.to_move(s)
    if p == CHANCE:
        return sum(q * plain_value(game, game.result(s, o)) for o, q in game.chance_outcomes(s))
    values = [plain_value(game, game.result(s, a)) for a in game.actions(s)]
    return max(values) if p == 0 else min(values)


# ----- the solver on the textbook's trees -------------------------------------------------


@pytest.mark.parametrize("name, truth_algorithm", [
    ("fig6.2", "minimax"),
    ("comp3200", "minimax"),
    ("fig6.4", "maxn"),
    ("coinflip", "expectiminimax"),
    ("chance-transform", "expectiminimax"),
    ("chance-transform-monotonic", "expectiminimax"),
])
def test_solver_proves_the_textbook_trees(name: str, truth_algorithm: str) -> None:
    game = example(name)
    truth = search(game, 0, truth_algorithm)
    r = mcts(game, 0, 10_000, seed=1)
    assert r.extra["proven"]
    assert r.action == truth.action
    if isinstance(truth.value, tuple):
        assert r.value == pytest.approx(truth.value)
    else:
        assert r.value == pytest.approx(truth.value, abs=1e-9)
    assert r.nodes == r.extra["iterations"] < 100  # proven long before the budget


def test_textbook_values_and_moves() -> None:
    assert mcts(example("fig6.2"), 0, 1000, seed=3).value == 3
    assert mcts(example("comp3200"), 0, 1000, seed=3).value == 7
    r = mcts(example("fig6.4"), 0, 1000, seed=3)
    assert r.value == (1, 2, 6) and r.action == "a1"  # A's tie at 1 keeps the first move
    r = mcts(example("coinflip"), 0, 1000, seed=3)
    assert r.value == pytest.approx(3) and r.action == "a1"
    values = dict(r.extra["root_values"])
    assert values["a1"] == pytest.approx(3)
    # a2 is proven worth -1, or cut from selection once its bounds cannot beat a1's 3.
    a2 = next(ch for ch in r.extra["root_children"] if ch["move"] == "a2")
    assert a2["proven"] == pytest.approx(-1) or (a2["proven"] is None and a2["visits"] < 50)


# ----- the solver on random trees -----------------------------------------------------------


@pytest.mark.parametrize("discount", [True, False])
def test_solver_returns_the_minimax_value_of_random_trees(discount: bool) -> None:
    rng = random.Random(2024)
    for i in range(60):
        seed = rng.randrange(10**9)
        game = TreeGame.random(
            rng.choice([2, 3, (1, 4), (2, 4)]), rng.randint(2, 6), seed,
            values=rng.choice([range(-9, 10), range(-2, 3), range(0, 2)]),
            ties=rng.choice([0.0, 0.5]), early_leaf=rng.choice([0.0, 0.2]),
            players=rng.choice(["alternate", "random"]),
            chance=0.25 if i % 3 == 0 else 0.0)
        algorithm = "expectiminimax" if game.game_type.chance else "minimax"
        truth = search(game, 0, algorithm, discount=discount)
        r = mcts(game, 0, 20_000, seed=seed, discount=discount,
                 transpositions=i % 2 == 1, puct=i % 5 == 0)
        assert r.extra["proven"], (i, seed)
        assert r.value == pytest.approx(truth.value, abs=1e-9), (i, seed)
        # The recommended move is worth the root value.
        if not discount:
            assert plain_value(game, game.result(0, r.action)) == pytest.approx(r.value)


def test_solver_on_n_player_random_trees() -> None:
    rng = random.Random(7)
    for _ in range(30):
        seed = rng.randrange(10**9)
        tree = random_tree((1, 3), rng.randint(1, 4), seed, values=range(0, 6))

        def vec(t: Any) -> Any:  # turn number leaves into 3-player vectors, players cycle
            if isinstance(t, int | float):
                return (float(t), float((t * 7) % 5), float((t * 3) % 4))
            return t

        from gamesearch.games.trees import Node, node

        def three(t: Any, depth: int) -> Any:
            if not isinstance(t, Node):
                return vec(t)
            return node(t.name, depth % 3, {a: three(c, depth + 1) for a, c in t.children})

        game = TreeGame(three(tree, 0), num_players=3)
        truth = search(game, 0, "maxn")
        r = mcts(game, 0, 20_000, seed=seed)
        assert r.extra["proven"]
        assert r.value == truth.value and r.action == truth.action


# ----- tic-tac-toe ------------------------------------------------------------------------

#: Positions whose minimax move is unique (checked in the test): the only drawing reply, a
#: win to take, a loss to block, a fork to make or to stop.
UNIQUE_MOVE_POSITIONS = ["x........", "......x..", ".x....o..", ".x....ox.", "o...x.o.x",
                         "x..x.oo.x", ".xo.x....", "x.x.o....", "..ox.....", "xx...o...",
                         "x..o..x..", "oxox....."]


@pytest.mark.parametrize("position", UNIQUE_MOVE_POSITIONS)
def test_uct_converges_to_the_unique_minimax_move(position: str) -> None:
    state = TTT.parse_state(position)
    values = child_values(TTT, state)
    best = max(values.values())
    winners = [a for a, v in values.items() if v == best]
    assert len(winners) == 1, (position, values)
    for seed in (1, 2):
        r = mcts(TTT, state, 4000, seed=seed, solver=False)
        assert r.action == winners[0], (position, seed, r.extra["root_children"])


def test_solver_proves_tictactoe_positions_and_the_empty_board() -> None:
    rng = random.Random(5)
    for _ in range(25):
        state = TTT.initial_state()
        for _ in range(rng.randint(1, 6)):
            state = TTT.result(state, rng.choice(list(TTT.actions(state))))
            if TTT.is_terminal(state):
                break
        if TTT.is_terminal(state):
            continue
        truth = search(TTT, state, "minimax", discount=False)
        r = mcts(TTT, state, 50_000, seed=rng.randrange(100), discount=False)
        assert r.extra["proven"] and r.value == truth.value
        assert child_values(TTT, state)[r.action] == truth.value
    # The empty board: a draw, proven in far fewer iterations than minimax's 549,946 nodes.
    r = mcts(TTT, 0, 100_000, seed=1, transpositions=True)
    assert r.extra["proven"] and r.value == 0.0 and r.nodes < 20_000
    assert r.extra["tree_size"] < 6000  # nodes are shared: 5,478 legal positions


def test_discounted_proofs_prefer_a_win() -> None:
    state = TTT.parse_state("xx.oo....")  # X wins at once on square 3
    r = mcts(TTT, state, 1000, seed=1)
    assert r.extra["proven"] and r.action == 2 and r.value == pytest.approx(0.999)


# ----- chance: Pig ----------------------------------------------------------------------------

#: Pig positions where expectiminimax (depth 6 and 8 agree) prefers one move by a clear
#: margin; the move, and the position.
PIG_DECISIONS = [("roll", "18-0-0-0"), ("roll", "0-18-0-0"), ("roll", "10-15-9-0"),
                 ("roll", "17-17-0-0"), ("roll", "15-10-0-1"), ("hold", "12-18-8-0")]


@pytest.mark.parametrize("move, position", PIG_DECISIONS)
def test_pig_decisions_agree_with_expectiminimax(move: str, position: str) -> None:
    game = Pig()
    state = game.parse_state(position)
    truth = search(game, state, "expectiminimax", limit=Limit(depth=6))
    assert truth.action == move
    r = mcts(game, state, 3000, seed=4)
    assert r.action == move, r.extra["root_children"]


def test_pig_with_a_heuristic_cut_off_and_transpositions() -> None:
    game = Pig()
    state = game.parse_state("10-15-9-0")
    r = mcts(game, state, 2000, seed=1, playout_depth=0)  # the evaluation, no playout
    assert r.action == "roll"
    r = mcts(game, state, 2000, seed=1, playout_depth=6, transpositions=True)
    assert r.action == "roll"  # Pig's passes make cycles: the search must not loop


def test_wdl_maximises_the_chance_of_winning() -> None:
    from gamesearch.games.trees import chance, node

    # a1: +10 or -1 at even odds (mean 4.5, wins half the time); a2: +1 nine times in ten,
    # else -1 (mean 0.8, wins 90 % of the time).
    tree = node("A", 0, {
        "a1": chance("B", {"b1": (0.5, 10), "b2": (0.5, -1)}),
        "a2": chance("C", {"c1": (0.9, 1), "c2": (0.1, -1)}),
    })  # fmt: skip
    game = TreeGame(tree)
    for seed in (1, 2, 3):  # (c = 1.4: a small c may starve a1 after three unlucky -1s)
        assert mcts(game, 0, 3000, seed=seed, c=1.4, solver=False).action == "a1"
        assert mcts(game, 0, 3000, seed=seed, c=1.4, solver=False, wdl=True).action == "a2"
    assert mcts(game, 0, 2000, seed=1, wdl=True).value == pytest.approx(4.5)  # proofs: exact
    with pytest.raises(InvalidLimitError, match="wdl"):
        MCTS(example("fig6.4"), wdl=True)


# ----- reproducibility, budgets, reuse ------------------------------------------------------


def test_seeded_runs_are_reproducible() -> None:
    c4 = get_game("connect4")
    for game, state in ((TTT, 0), (c4, c4.initial_state()), (Pig(), (0, 0, 0, 0, 0))):
        a = mcts(game, state, 300, seed=11)
        b = mcts(game, state, 300, seed=11)
        assert (a.action, a.value, a.pv) == (b.action, b.value, b.pv)
        assert a.extra["root_children"] == b.extra["root_children"]
        c = mcts(game, state, 300, seed=12)
        assert c.extra["root_children"] != a.extra["root_children"]


def test_budgets_and_reported_figures() -> None:
    r = make_searcher(TTT, "mcts", seed=1, solver=False).search(0, Limit(nodes=123))
    assert r.nodes == r.extra["iterations"] == 123 and r.extra["root_visits"] == 123
    assert sum(ch["visits"] for ch in r.extra["root_children"]) == 123
    assert r.extra["tree_size"] == 124  # one node per iteration, and the root
    assert r.extra["iterations_per_second"] > 0 and r.pv and r.pv[0] == r.action
    assert len(r.extra["root_children"]) == 9 and r.depth == len(r.pv)
    r = make_searcher(TTT, "mcts", seed=1, iterations=50).search(0, Limit(nodes=80))
    assert r.nodes == 50  # the smaller of the two budgets
    r = make_searcher(TTT, "mcts", seed=1, solver=False).search(0, Limit(time=0.05))
    assert r.nodes > 0 and r.seconds < 1.0
    # A game's compiled playouts load when the searcher is made, not on the search's clock.
    c4 = get_game("connect4")
    r = MCTS(c4, seed=1).search(c4.initial_state(), Limit(time=0.2))
    assert r.nodes > 50 and r.seconds < 1.0
    # On a game clock MCTS spends the move's target: in sudden death 3 s / 50 moves to go,
    # the replies' latency kept back (allocate_time).
    from gamesearch.search.control import allocate_time

    r = MCTS(c4, seed=1).search(c4.initial_state(), Limit(clocks=(3.0, 3.0)))
    assert 0.9 * allocate_time(3.0)[0] <= r.seconds < 1.0


def test_stop_event_ends_the_search() -> None:
    c4 = get_game("connect4")
    searcher = MCTS(c4, seed=1)
    stop = threading.Event()
    found: list[Any] = []
    worker = threading.Thread(target=lambda: found.append(
        searcher.search(c4.initial_state(), Limit(time=60.0, stop=stop))))
    worker.start()
    time.sleep(0.3)
    stop.set()  # what UCI's "stop" does
    worker.join(timeout=20)
    assert not worker.is_alive() and found[0].nodes > 0 and found[0].seconds < 20
    # A stop event alone is a budget too ("go infinite").
    stop = threading.Event()
    stop.set()
    assert MCTS(c4, seed=1).search(c4.initial_state(), Limit(stop=stop)).nodes == 0


def test_subtree_reuse_between_moves() -> None:
    c4 = get_game("connect4")
    searcher = MCTS(c4, seed=3)
    s0 = c4.initial_state()
    first = searcher.search(s0, Limit(nodes=2000))
    assert first.extra["reused_visits"] == 0
    s2 = c4.result(c4.result(s0, first.action), 3)  # our move, then the opponent's
    second = searcher.search(s2, Limit(nodes=500))
    assert second.extra["reused_visits"] > 0
    assert second.extra["root_visits"] == second.extra["reused_visits"] + 500
    fresh = MCTS(c4, seed=3, reuse=False).search(s2, Limit(nodes=500))
    assert fresh.extra["reused_visits"] == 0 and fresh.extra["root_visits"] == 500
    # With transpositions the table finds the position directly.
    shared = MCTS(c4, seed=3, transpositions=True)
    shared.search(s0, Limit(nodes=1000))
    assert shared.search(c4.result(s0, 3), Limit(nodes=10)).extra["reused_visits"] > 0


# ----- PUCT --------------------------------------------------------------------------------


class PriorTree(TreeGame):
    def playouts(self) -> Playouts[int]:
        return Playouts(priors=self.action_priors)

    def action_priors(self, state: int) -> list[float]:
        k = len(self.actions(state))
        return [1.0 / k] * k


def test_puct_with_and_without_priors() -> None:
    game = PriorTree(example("fig6.2").tree, name="fig6.2-priors")
    r = mcts(game, 0, 1000, seed=1, puct=True)
    assert r.extra["proven"] and r.value == 3 and r.action == "a1"
    assert all("prior" in ch for ch in r.extra["root_children"])
    state = TTT.parse_state("xx.oo....")
    r = mcts(TTT, state, 3000, seed=1, puct=True, solver=False)
    assert r.action == 2

    class BadPriors(PriorTree):
        def action_priors(self, state: int) -> list[float]:
            return [1.0]

    with pytest.raises(GameError, match="priors"):
        mcts(BadPriors(example("fig6.2").tree), 0, 10, puct=True)


# ----- the registry, agents, the command line ------------------------------------------------


def test_registry_spec_and_agents() -> None:
    assert "mcts" in ALGORITHMS
    name, options, limit = parse_spec("mcts:time=1,c=1.4,solver=1")
    assert name == "mcts" and options == {"c": 1.4, "solver": True} and limit.time == 1.0
    name, options, _ = parse_spec("mcts:iterations=50,seed=3,puct=1,playout_depth=4,"
                                  "transpositions=1,reuse=0,fast=0,wdl=1")
    assert options == {"iterations": 50, "seed": 3, "puct": True, "playout_depth": 4,
                       "transpositions": True, "reuse": False, "fast": False, "wdl": True}
    agent = make_agent(TTT, "mcts:iterations=300,seed=1")
    assert isinstance(agent, SearchAgent)
    final, moves = play_game(TTT, [agent, make_agent(TTT, "random:seed=2")])
    assert TTT.utility(final, 0) >= 0 and len(moves) >= 5
    # Three players with dice: the same agent spec.
    fig64 = example("fig6.4")
    agents = [make_agent(fig64, "mcts:iterations=100,seed=1") for _ in range(3)]
    final, _ = play_game(fig64, agents)
    assert fig64.returns(final) == (1, 2, 6)


def test_cli_analyze_reports_the_mcts_figures() -> None:
    out = StringIO()
    main(["analyze", "tictactoe", "--position", "xx.oo....", "--algorithm",
          "mcts:iterations=400,seed=1", "--json"], out)
    data = json.loads(out.getvalue())
    assert data["move"] == "3" and data["algorithm"] == "mcts"
    assert data["proven"] and data["iterations"] >= 1 and "root_children" in data
    assert "3" in data["root_values"]
    out = StringIO()
    main(["analyze", "pig", "--algorithm", "mcts:seed=1", "--nodes", "200"], out)
    assert "best move" in out.getvalue() and "values of the moves" in out.getvalue()
    out = StringIO()
    main(["list"], out)
    assert "mcts" in out.getvalue()


# ----- bad options ---------------------------------------------------------------------------


def test_bad_options_are_refused_clearly() -> None:
    with pytest.raises(InvalidLimitError, match="c=-1"):
        MCTS(TTT, c=-1)
    with pytest.raises(InvalidLimitError, match="c=nan"):
        MCTS(TTT, c=math.nan)
    with pytest.raises(InvalidLimitError, match="c='inf': expected a number"):
        search(TTT, 0, "mcts:c=inf,iterations=5")
    with pytest.raises(InvalidLimitError, match="c='nan': expected a number"):
        search(TTT, 0, "mcts:c=nan,iterations=5")
    with pytest.raises(InvalidLimitError, match=r"c='-0\.5': must be at least 0"):
        search(TTT, 0, "mcts:c=-0.5,iterations=5")
    with pytest.raises(InvalidLimitError, match="unknown option 'colour'"):
        search(TTT, 0, "mcts:colour=red")
    with pytest.raises(InvalidLimitError, match="algorithm mcts"):
        make_searcher(TTT, "mcts", tt=5)
    with pytest.raises(InvalidLimitError, match="iterations=0"):
        MCTS(TTT, iterations=0)
    with pytest.raises(InvalidLimitError, match="iterations='many': expected a whole number"):
        parse_spec("mcts:iterations=many")
    with pytest.raises(InvalidLimitError, match="solver='maybe'"):
        parse_spec("mcts:solver=maybe")
    with pytest.raises(InvalidLimitError, match="playout_depth=-1"):
        MCTS(TTT, playout_depth=-1)
    with pytest.raises(InvalidLimitError, match="no evaluation"):
        MCTS(example("fig6.2"), playout_depth=2)
    with pytest.raises(InvalidLimitError, match="seed"):
        MCTS(TTT, seed="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidLimitError, match="budget"):
        search(TTT, 0, "mcts")
    with pytest.raises(InvalidLimitError, match="depth"):
        search(TTT, 0, "mcts:depth=3")
    with pytest.raises(GameError, match="terminal"):
        search(TTT, TTT.parse_state("xxxoo...."), "mcts:iterations=10")

    class Hidden(TreeGame):
        pass

    hidden = Hidden(example("fig6.2").tree)
    hidden.game_type = GameType(perfect_information=False)
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        MCTS(hidden)


def test_random_playout_stops_after_max_plies() -> None:
    c4 = get_game("connect4")
    rng = random.Random(1)
    s = random_playout(c4, c4.initial_state(), rng, max_plies=5)
    assert c4.moves_played(s) == 5  # type: ignore[attr-defined]
    assert random_playout(c4, s, rng, max_plies=0) == s
    assert c4.is_terminal(random_playout(c4, s, rng))


def test_compiled_connect4_playouts_match_the_plain_ones() -> None:
    c4 = get_game("connect4")
    playouts = c4.playouts()
    fast = playouts.compiled if playouts is not None else None
    if fast is None:
        pytest.skip("numba is not installed")
    rng = random.Random(3)
    start = c4.initial_state()
    wins = {True: 0, False: 0}
    n = 4000
    for compiled in (True, False):
        for _ in range(n):
            end = random_playout(c4, start, rng, fast=compiled)
            wins[compiled] += c4.terminal_utility(end, 0) == c4.max_utility
    # The first player wins about 55.8 % of uniformly random games; both paths agree
    # within sampling error (4 standard deviations of the difference: ~4.4 points).
    assert abs(wins[True] - wins[False]) / n < 0.045
    for _ in range(200):  # every state it returns is the state the rules would reach
        s = c4.initial_state()
        for _ in range(rng.randrange(10)):
            if c4.is_terminal(s):
                break
            s = c4.result(s, rng.choice(list(c4.actions(s))))
        if c4.is_terminal(s):
            continue
        cut = fast(s, rng, rng.randrange(1, 8))
        assert cut == c4.state_from_bitboards(cut[0], cut[1])  # E carried exactly
        assert cut[2] - s[2] <= 7 and cut[1] & s[1] == s[1]
        end = fast(s, rng, None)
        assert c4.is_terminal(end) and end == c4.state_from_bitboards(end[0], end[1])
    # Seeded: equal seeds, equal playouts; and MCTS can be told to use the plain path.
    assert fast(start, random.Random(9), None) == fast(start, random.Random(9), None)
    a = mcts(c4, start, 300, seed=5, fast=False)
    b = mcts(c4, start, 300, seed=5, fast=False)
    assert a.extra["root_children"] == b.extra["root_children"]


# ----- the steps as functions, and where the coming issues plug in (issue 20, item 8) -----
def test_the_plug_in_points_run_once_per_iteration_and_change_nothing_unused() -> None:
    """ISMCTS's determinisation and RAVE's back-up hook are called once per iteration when
    a subclass gives them; the defaults (None) leave the search as it was."""
    from gamesearch.search.mcts import Node

    calls = {"sample": 0, "backup": 0}

    class Hooked(MCTS):
        def determinization(self) -> Any:
            def sample(root: Node, rng: random.Random) -> None:
                assert root is self._root
                calls["sample"] += 1
            return sample

        def backup_hook(self) -> Any:
            def backup(path: list[Node], r: tuple[float, ...]) -> None:
                assert path[0] is self._root and len(r) == 2
                calls["backup"] += 1
            return backup

    state = TTT.initial_state()
    hooked = Hooked(TTT, seed=3).search(state, Limit(nodes=150))
    assert calls == {"sample": 150, "backup": 150}
    plain = MCTS(TTT, seed=3).search(state, Limit(nodes=150))
    assert (hooked.action, hooked.value, hooked.extra["root_children"]) == (
        plain.action, plain.value, plain.extra["root_children"])


def test_the_games_playout_and_priors_are_read_in_one_place() -> None:
    from gamesearch.capabilities import Playouts
    from gamesearch.search.mcts import policies

    class Primed(TicTacToe):
        def playouts(self) -> Playouts[Any]:
            return Playouts(priors=self.action_priors)

        def action_priors(self, state: Any) -> list[float]:
            n = len(self.actions(state))
            return [1.0 if i == 0 else 0.0 for i in range(n)]

    game = Primed()
    p = policies(game, fast=True)
    assert not p.compiled and p.priors is not None
    assert p.priors(game.initial_state())[0] == 1.0
    end = p.playout(game.initial_state(), random.Random(1), None)
    assert game.is_terminal(end)
    root = MCTS(game, puct=True, seed=1)._new_node(game.initial_state(), 0)
    assert root.priors == tuple(p.priors(game.initial_state()))
