"""Time by instability (control.TimeRule): the soft limit of iterative deepening follows
best-move changes, a falling score, a stable or far-ahead best move and a single legal
move, never past the hard limit. Deterministic: iteration results are fed by hand, and the
driver runs on a fake clock (no timed asserts)."""

from __future__ import annotations

from typing import Any

import pytest

from gamesearch.errors import InvalidLimitError
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher
from gamesearch.search.common import Iteration
from gamesearch.search.control import SOFT_SHARE, Clock, TimeRule, allocate_time

RULE = TimeRule(score_unit=100.0)


class FakeTime:
    """A time source that moves only when told."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_a_stable_best_move_shrinks_the_soft_limit() -> None:
    s = RULE.start()
    factors = [s.observe(20.0, "e4") for _ in range(RULE.stable_iterations + 1)]
    assert factors[:RULE.stable_iterations - 1] == [1.0] * (RULE.stable_iterations - 1)
    assert factors[-1] == pytest.approx(RULE.stable_factor)


def test_best_move_changes_stretch_it_and_their_count_decays() -> None:
    s = RULE.start()
    for move in ("a", "a", "a"):  # the first iterations' changes do not count anyway
        s.observe(0.0, move)
    assert s.observe(0.0, "b") == pytest.approx(1 + RULE.change_weight)  # one change
    assert s.observe(0.0, "b") == pytest.approx(1 + RULE.change_weight * RULE.change_decay)
    assert s.observe(0.0, "c") == pytest.approx(
        1 + RULE.change_weight * (1 + RULE.change_decay ** 2))


def test_early_changes_do_not_count() -> None:
    s = RULE.start()
    assert [s.observe(0.0, m) for m in ("a", "b", "a")] == [1.0, 1.0, 1.0]


def test_a_falling_score_stretches_it_a_rising_one_shrinks_it_within_its_range() -> None:
    s = RULE.start(previous_value=50.0)
    assert s.observe(-50.0, "a") == pytest.approx(1 + RULE.fall_weight)  # a pawn lost
    s = RULE.start(previous_value=50.0)
    assert s.observe(-5000.0, "a") == pytest.approx(RULE.fall_range[1])
    s = RULE.start(previous_value=0.0)
    assert s.observe(300.0, "a") == pytest.approx(RULE.fall_range[0])
    # against the value `lookback` iterations ago, too (the fourth same move: stable)
    s = RULE.start()
    for v in (0.0, 0.0, 0.0):
        s.observe(v, "a")
    assert s.observe(-100.0, "a") == pytest.approx(
        (1 + RULE.fall_iter_weight) * RULE.stable_factor)


def test_a_far_ahead_best_move_and_a_single_move_spend_less() -> None:
    s = RULE.start()
    assert s.observe(0.0, "a", margin=RULE.ahead_margin * 100) == pytest.approx(
        RULE.ahead_factor)
    assert RULE.start().observe(0.0, "a", margin=50.0) == 1.0
    s = RULE.start(single=True)
    assert s.factor == RULE.single_factor == 0.0
    assert s.observe(-900.0, "a") == 0.0


def test_without_a_score_unit_only_the_moves_count() -> None:
    s = TimeRule().start(previous_value=500.0)
    assert s.observe(-500.0, "a", margin=1e9) == 1.0


def test_the_soft_limit_moves_but_never_past_the_hard_one() -> None:
    fake = FakeTime()
    limit = Limit(clocks=(60.0, 60.0))
    clock = Clock.start(limit, 0, now=fake)
    target, hard = allocate_time(60.0)
    assert clock.managed and clock.soft == pytest.approx(SOFT_SHARE * target)
    clock.scale_soft(1.5)
    assert clock.soft == pytest.approx(1.5 * SOFT_SHARE * target)
    assert clock.soft_deadline == pytest.approx(1000.0 + clock.soft)
    clock.scale_soft(100.0)
    assert clock.soft == pytest.approx(hard) and clock.hard == pytest.approx(hard)
    clock.scale_soft(0.0)
    assert clock.soft == 0.0 and clock.soft_expired()
    # a soft or plain time the caller gave is not the rule's to move
    assert not Clock.start(Limit(time=2.0), 0, now=fake).managed
    assert not Clock.start(Limit(clocks=(60.0,), soft_time=1.0), 0, now=fake).managed


@pytest.mark.parametrize("bad", [
    {"change_weight": -1}, {"change_decay": 1.0}, {"lookback": 0}, {"score_unit": 0},
    {"fall_range": (2.0, 1.0)}, {"stable_factor": float("nan")},
])
def test_bad_rules_are_clear_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(InvalidLimitError, match="time rule"):
        TimeRule(**bad)


def scripted(moves: str, step: float, instability: bool) -> int:
    """Run the real driver on a Negamax whose iterations return the scripted best moves
    (value 0), ``step`` fake seconds each, under a clock whose soft limit is 2 s: the
    depth it stopped at."""
    game = get_game("connect4")
    searcher = make_searcher(game, "id", instability=instability)
    fake = FakeTime()
    searcher.time_source = fake
    actions = list(game.actions(game.initial_state()))
    done: list[int] = []

    def iteration(state: Any, depth: int | None, clock: Clock) -> Iteration:
        fake.t += step
        done.append(1)
        a = actions[int(moves[min(len(done), len(moves)) - 1])]
        return Iteration(0.0, a, [a])

    searcher.iteration = iteration  # type: ignore[method-assign]
    # 96 s + 1 s: the target 96 / 30 + 80 % of 1 s = 4 s, soft 2 s (connect4: no score unit)
    assert allocate_time(96.0, 1.0)[0] == pytest.approx(2.0 / SOFT_SHARE)
    limit = Limit(clocks=(96.0, 96.0), increments=(1.0, 1.0))
    return searcher.search(game.initial_state(), limit).depth


def test_the_driver_applies_the_rule_after_every_iteration() -> None:
    # a change at iteration 4 doubles the soft limit (4 s), which then decays: 3 s after
    # iteration 5 (2.5 s spent), 2.5 s after iteration 6 (3 s spent): stop at depth 6
    assert scripted("000111111", 0.5, False) == 4
    assert scripted("000111111", 0.5, True) == 6
    # changes before iteration 4 do not count
    assert scripted("012222222", 0.5, True) == 4
    # the same move four times: 0.7 of the soft limit (1.4 s), reached after iteration 4
    assert scripted("000000000", 0.45, False) == 5
    assert scripted("000000000", 0.45, True) == 4


def test_a_single_legal_move_is_answered_after_one_iteration() -> None:
    game = get_game("chess")
    state = game.parse_state("7k/p7/8/8/8/8/P5q1/7K w - - 0 1")  # Kxg2 only
    moves = list(game.actions(state))
    assert len(moves) == 1
    for instability, depth in ((True, 1), (False, 3)):
        searcher = make_searcher(game, "id", instability=instability)
        searcher.time_source = FakeTime()  # no time passes: only the soft limit 0 stops it
        r = searcher.search(state, Limit(clocks=(60.0, 60.0), depth=3))
        assert r.action == moves[0] and r.depth == depth


def test_the_engine_reports_the_best_moves_proven_lead() -> None:
    game = get_game("chess")
    searcher = make_searcher(game, "id")
    state = game.parse_state("3q3k/8/8/8/8/8/6PP/3R3K w - - 0 1")  # Rxd8+ wins the queen
    it = searcher.iteration(state, 3, Clock())
    assert it.action.uci() == "d1d8"
    assert it.margin is not None and it.margin >= RULE.ahead_margin * 100
    state = game.parse_state(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    it = make_searcher(game, "id").iteration(state, 3, Clock())
    assert it.margin is not None and 0 <= it.margin < 200


def test_the_lead_counts_a_best_move_overtaken() -> None:
    """The root's margin is the best value less the best of the others, also when the
    best move comes second (the first one's value then is the runner-up's)."""
    from gamesearch.search.common import INF

    game = get_game("chess")
    searcher = make_searcher(game, "negamax")  # no ordering: the root's order is kept
    state = game.parse_state("3q3k/8/8/8/8/8/6PP/3R3K w - - 0 1")
    quiet, take = (game.parse_action(state, m) for m in ("d1a1", "d1d8"))

    def value(moves: list[Any]) -> float:
        return searcher.search_root(state, 2, -INF, INF, Clock(), root_moves=moves).value

    it = searcher.search_root(state, 2, -INF, INF, Clock(), root_moves=[quiet, take])
    assert it.action == take
    assert it.margin == pytest.approx(value([take]) - value([quiet]))


def test_bad_settings_of_the_rule_are_one_line_errors() -> None:
    from gamesearch.capabilities import EngineSettings
    from gamesearch.search import parse_spec

    with pytest.raises(InvalidLimitError, match="instability"):
        parse_spec("id:instability=maybe")
    assert parse_spec("id:instability=0")[1] == {"instability": False}
    assert make_searcher(get_game("chess"), "id").time_rule is None  # off by default
    assert make_searcher(get_game("chess"), "id", instability=True).time_rule == TimeRule(
        score_unit=100.0)
    with pytest.raises(InvalidLimitError, match="score_unit"):
        EngineSettings(score_unit=-1)
    with pytest.raises(InvalidLimitError, match="overhead"):
        Limit(clocks=(1.0,), overhead=-0.1)
