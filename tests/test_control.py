"""Search control as data: limits, the one time-allocation rule, stop events, soft limits."""

from __future__ import annotations

import math
import threading
import time

import pytest

from gamesearch.errors import InvalidLimitError
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher, search
from gamesearch.search.control import (
    FLOOR_SHARE,
    HARD_FACTOR,
    MIN_SECONDS,
    MOVE_OVERHEAD,
    SOFT_SHARE,
    SUDDEN_DEATH_MOVES,
    Clock,
    SearchTimeout,
    allocate_time,
)

#: the target on a sudden-death clock of 60 s: 50 moves to go, 10 ms of latency each kept
T60 = (60.0 - SUDDEN_DEATH_MOVES * MOVE_OVERHEAD) / SUDDEN_DEATH_MOVES


def test_allocation_stays_within_the_clock() -> None:
    for remaining in (0.0, 0.01, 0.05, 0.2, 1.0, 10.0, 300.0):
        for inc in (0.0, 0.1, 2.0):
            for mtg in (None, 1, 2, 40):
                target, hard = allocate_time(remaining, inc, mtg)
                floor = min(MIN_SECONDS, remaining * FLOOR_SHARE)  # a clock nearly gone
                assert floor <= target <= hard <= max(remaining * 0.8, floor)
                assert hard <= max(HARD_FACTOR * target, MIN_SECONDS)
                if remaining > 1:
                    assert hard <= remaining - MOVE_OVERHEAD
                    if mtg != 1:
                        assert hard <= remaining / 2
    target, hard = allocate_time(60.0)  # sudden death: 50 moves, their latency kept back
    assert target == pytest.approx(T60) and hard == pytest.approx(HARD_FACTOR * T60)
    assert pytest.approx(1.19) == T60
    assert allocate_time(60.0, 1.0)[0] == pytest.approx(2.8)  # 30 moves, 80 % of the increment
    # the latency of 50 replies (0.5 s) takes all of 0.3 s: 1 % of it, not stretched
    assert allocate_time(0.3) == pytest.approx((0.3 * FLOOR_SHARE, 0.3 * FLOOR_SHARE))
    assert allocate_time(60.0, 0.004)[0] == pytest.approx(  # an increment short of the latency
        (60.0 - 30 * (MOVE_OVERHEAD - 0.004)) / 30 + 0.8 * 0.004)


def test_a_clock_limit_gives_the_mover_its_share() -> None:
    limit = Limit(clocks=(60.0, 6.0), increments=(0.0, 0.0))
    hard0, soft0 = limit.budget(0)
    hard1, soft1 = limit.budget(1)
    assert hard0 == pytest.approx(HARD_FACTOR * T60) and soft0 == pytest.approx(
        SOFT_SHARE * T60)
    t6 = (6.0 - SUDDEN_DEATH_MOVES * MOVE_OVERHEAD) / SUDDEN_DEATH_MOVES
    assert hard1 == pytest.approx(HARD_FACTOR * t6) and soft1 == pytest.approx(SOFT_SHARE * t6)
    # a plain time: hard, with the engine's soft share; an explicit soft time wins
    assert Limit(time=2.0).budget(0, 0.5) == (2.0, 1.0)
    assert Limit(time=2.0, soft_time=2.0).budget(0, 0.5) == (2.0, 2.0)
    assert Limit(depth=3).budget(0) == (math.inf, math.inf)


@pytest.mark.parametrize("bad", [
    {"depth": 0}, {"depth": 1.5}, {"nodes": 0}, {"time": 0}, {"time": -1},
    {"time": math.nan}, {"time": math.inf}, {"time": 1e308}, {"soft_time": 2.0, "time": 1.0},
    {"clocks": (math.nan, 1.0)}, {"clocks": ()}, {"increments": (1.0,)},
    {"moves_to_go": 0}, {"stop": "yes"}, {"depth": True},
])
def test_bad_limits_are_clear_errors(bad: dict) -> None:
    with pytest.raises(InvalidLimitError):
        Limit(**bad)


def test_clock_checks_nodes_exactly_and_the_stop_event() -> None:
    clock = Clock.start(Limit(nodes=100))
    nxt = clock.begin(0)
    with pytest.raises(SearchTimeout):
        while True:
            nxt = clock.check(nxt)
    assert nxt == 100  # check points 64, then exactly the budget (which raised)
    stop = threading.Event()
    clock = Clock.start(Limit(stop=stop))
    assert clock.check(10) > 10
    stop.set()
    with pytest.raises(SearchTimeout):
        clock.check(20)
    assert Clock.start(Limit()).begin(0) == Clock.start(None).begin(0)  # never checks


def test_stop_event_ends_an_infinite_search_with_a_legal_move() -> None:
    game = get_game("connect4")
    stop = threading.Event()
    out = {}

    def run() -> None:
        out["r"] = search(game, game.initial_state(), "id", Limit(stop=stop))

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.3)
    assert thread.is_alive()  # no depth, time or node limit: it runs until stopped
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    r = out["r"]
    assert not r.completed and r.action in game.actions(game.initial_state()) and r.depth >= 1


def test_soft_time_ends_iterative_deepening_for_every_algorithm() -> None:
    game = get_game("tictactoe")
    for algorithm in ("minimax", "alphabeta", "negamax", "id"):
        r = search(game, game.initial_state(), algorithm, Limit(time=30.0, soft_time=1e-9))
        assert r.depth == 1 and not r.completed, algorithm


def test_search_result_speaks_the_games_notation() -> None:
    game = get_game("connect4")
    state = game.parse_state("4455")
    r = search(game, state, "alphabeta", Limit(depth=4))
    assert r.move == game.format_action(state, r.action)
    assert len(r.pv_moves) == len(r.pv) and r.pv_moves[0] == r.move
    assert r.best_moves == [r.move]
    assert r.as_dict()["move"] == r.move


def test_engine_options_are_checked() -> None:
    game = get_game("tictactoe")
    for spec in ("id:aspiration=nan", "id:soft_share=0", "id:soft_share=2", "id:tt=inf",
                 "alphabeta:depth=2,depth=3", "alphabeta:depth=٣", "id:tt=99999999999999999999"):
        with pytest.raises(InvalidLimitError):
            search(game, game.initial_state(), spec)
    with pytest.raises(InvalidLimitError):
        make_searcher(game, "id", aspiration=float("nan"))


def test_a_cut_off_without_an_evaluation_is_refused_unless_zero_is_asked_for() -> None:
    from gamesearch.errors import UnsupportedGameError

    game = get_game("fig6.2")  # explicit tree, leaves only: no heuristic
    assert game.evaluation() is None
    for algorithm in ("minimax", "alphabeta", "negamax", "id"):
        with pytest.raises(UnsupportedGameError, match="no evaluation"):
            search(game, game.initial_state(), algorithm, Limit(depth=1))
        r = search(game, game.initial_state(), f"{algorithm}:zero_eval=1", Limit(depth=1))
        assert r.value == 0  # every MIN node cut off and scored 0, as asked
        # to the end (or deep enough that no cut-off happens) the answer is exact
        assert search(game, game.initial_state(), algorithm, Limit(depth=2)).value == 3
        assert search(game, game.initial_state(), algorithm).value == 3


# ----- the time plan: one rule, read from the clock by every searcher (issue 20, item 6) ----
class FakeTime:
    """A time source for clocks: ``step`` seconds pass at every reading, and ``jump``
    moves it on by hand; ``readings`` counts the readings."""

    def __init__(self, step: float = 0.0) -> None:
        self.t, self.step, self.readings = 1000.0, step, 0

    def __call__(self) -> float:
        self.readings += 1
        t = self.t
        self.t += self.step
        return t


def test_a_limit_plans_the_target_the_soft_and_the_hard_deadline() -> None:
    from gamesearch.search.control import TimePlan

    # a plain time is the move's time: the target and the hard limit; soft_time only
    # ends iterative deepening (it used to fix MCTS's target at soft_time / SOFT_SHARE)
    assert Limit(time=5.0, soft_time=0.5).plan(0) == TimePlan(5.0, 0.5, 5.0)
    assert Limit(time=2.0).plan(0, 0.5) == TimePlan(2.0, 1.0, 2.0)
    assert Limit(soft_time=0.5).plan(0) == TimePlan(0.5, 0.5, math.inf)
    p = Limit(clocks=(60.0, 6.0)).plan(0)  # Stockfish's optimum and maximum
    assert (p.target, p.soft, p.hard) == pytest.approx(
        (T60, SOFT_SHARE * T60, HARD_FACTOR * T60))
    assert Limit(clocks=(60.0, 6.0), time=1.0).plan(0).target == 1.0
    assert Limit(depth=3).plan(0) == TimePlan()
    fake = FakeTime()
    clock = Clock.start(Limit(time=5.0, soft_time=0.5), now=fake)
    assert (clock.target, clock.soft, clock.hard) == (5.0, 0.5, 5.0)
    assert (clock.target_deadline, clock.soft_deadline, clock.deadline) == (1005.0, 1000.5,
                                                                             1005.0)
    fake.t = 1000.5
    assert clock.soft_expired() and clock.check(0) == Clock.interval  # soft, not hard
    fake.t = 1005.0
    with pytest.raises(SearchTimeout):
        clock.check(0)


def test_mcts_runs_to_the_clocks_target_not_the_soft_time() -> None:
    """``Limit(time=5, soft_time=0.5)``: MCTS used to stop at 0.5 / SOFT_SHARE = 1.0 s; it
    runs to the clock's target, 5 s (1/64 s of fake time passes per iteration)."""
    game = get_game("connect4")
    searcher = make_searcher(game, "mcts", seed=1)
    fake = FakeTime(step=1 / 64)
    searcher.time_source = fake
    clocks: list[Clock] = []
    start_clock = searcher.start_clock
    searcher.start_clock = lambda *a: clocks.append(start_clock(*a)) or clocks[-1]  # type: ignore[method-assign]
    r = searcher.search(game.initial_state(), Limit(time=5.0, soft_time=0.5))
    assert clocks[0].target == 5.0 and clocks[0].soft == 0.5
    assert r.extra["iterations"] == pytest.approx(5 * 64, abs=3)  # not 64 (1 s)
    assert fake.t - 1000.0 == pytest.approx(5.0, abs=0.1)


def test_mcts_on_a_game_clock_runs_to_the_allocations_target() -> None:
    game = get_game("connect4")
    searcher = make_searcher(game, "mcts", seed=1)
    searcher.time_source = FakeTime(step=1 / 64)
    r = searcher.search(game.initial_state(), Limit(clocks=(60.0, 60.0)))  # target T60
    assert r.extra["iterations"] == pytest.approx(T60 * 64, abs=3)


@pytest.mark.parametrize(("algorithm", "name"), [
    ("minimax", "connect4"), ("alphabeta", "connect4"), ("negamax", "connect4"),
    ("pvs", "connect4"), ("id", "connect4"), ("maxn", "connect4"),
    ("paranoid", "connect4"), ("expectiminimax", "pig"),
])
def test_iterative_deepening_stops_at_the_clocks_soft_deadline(algorithm: str,
                                                              name: str) -> None:
    """The driver reads the soft deadline of the searcher's clock: 0.2 s of (fake) time
    passes per completed iteration, so the soft time 0.5 s ends the search after depth 3."""
    game = get_game(name)
    searcher = make_searcher(game, algorithm)
    fake = FakeTime()
    searcher.time_source = fake

    def callback(r: object) -> None:
        fake.t += 0.2

    r = searcher.search(game.initial_state(), Limit(time=5.0, soft_time=0.5), callback)
    assert r.depth == 3 and not r.completed


def test_a_search_stops_at_the_clocks_hard_deadline() -> None:
    game = get_game("connect4")
    searcher = make_searcher(game, "id")
    fake = FakeTime(step=0.001)  # one reading per check interval (64 nodes)
    searcher.time_source = fake
    r = searcher.search(game.initial_state(), Limit(time=0.05))
    assert not r.completed
    assert fake.t - 1000.0 == pytest.approx(0.05, abs=0.01)  # read to the deadline, no further


def test_the_solver_stops_at_its_clocks_hard_deadline() -> None:
    from gamesearch.search.solve import make_solver

    game = get_game("tictactoe")
    solver = make_solver(game)
    solver.time_source = FakeTime(step=1.0)
    with pytest.raises(SearchTimeout):
        solver.solve(game.initial_state(), limit=Limit(time=2.5))


def test_the_solver_agent_spends_its_clocks_target_not_the_hard_limit() -> None:
    """On a clock of 60 s the target is T60 and the hard limit 2.5 times it: the solver
    gets half the target, the fallback engine the rest of it (it used to budget the hard
    limit)."""
    from gamesearch.agents import SolverAgent

    game = get_game("tictactoe")
    agent = SolverAgent(game)
    agent.time_source = FakeTime()  # no time passes
    asked: list[Limit] = []

    def solve(state: object, **kw: Limit) -> None:
        asked.append(kw["limit"])
        raise SearchTimeout

    def engine(g: object, state: object, limit: Limit) -> int:
        asked.append(limit)
        return 4

    agent.solver.solve = solve  # type: ignore[method-assign,assignment]
    agent.engine.choose = engine  # type: ignore[method-assign,assignment]
    assert agent.choose(game, game.initial_state(), Limit(clocks=(60.0, 60.0))) == 4
    assert [x.time for x in asked] == pytest.approx([T60 / 2, T60])
