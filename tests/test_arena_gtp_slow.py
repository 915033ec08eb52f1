"""A GTP engine that answers slowly (a loaded machine) is judged by the arena's clock, not
by a short deadline of the GTP client: a fake engine (``tests/data/slow_gtp_engine.py``, a
few lines of Python that sleep before answering ``genmove``) plays whole arena games. The
client's limits are shrunk for the test, so nothing here waits long or depends on the
machine's speed: the engine's answer comes after the client's documented floor
(``GENMOVE_LIMIT``) and grace, patched to 0.05 s, and well inside its clock."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gamesearch.arena import (
    RunOptions,
    TimeControl,
    TournamentConfig,
    gtp_client,
    parse_agents,
    run_tournament,
)
from gamesearch.arena.play import make_arena_agent
from gamesearch.games import get_game
from gamesearch.games.go.gtp import GTPError
from gamesearch.search import Limit

ENGINE = Path(__file__).parent / "data" / "slow_gtp_engine.py"


def fake_engine(delay: float) -> str:
    return f"gtp:{sys.executable},args={ENGINE} {delay:g}"


@pytest.fixture
def short_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gtp_client, "GENMOVE_LIMIT", 0.05)
    monkeypatch.setattr(gtp_client, "GENMOVE_GRACE", 0.05)


def test_the_deadline_is_the_clock_plus_grace_and_never_below_the_limit() -> None:
    grace, floor = gtp_client.GENMOVE_GRACE, gtp_client.GENMOVE_LIMIT
    assert floor >= 600  # the documented generous limit
    assert gtp_client.genmove_deadline(None, 0) == floor
    assert gtp_client.genmove_deadline(Limit(clocks=(3600.0, 5.0)), 0) == 3600 + grace
    assert gtp_client.genmove_deadline(Limit(clocks=(3600.0, 5.0)), 1) == floor
    assert gtp_client.genmove_deadline(Limit(time=5.0), 0) == floor
    assert gtp_client.genmove_deadline(Limit(time=5000.0), 1) == 5000 + grace


def test_a_slow_answer_within_the_clock_is_no_forfeit(short_limits: None) -> None:
    cfg = TournamentConfig(
        "go:size=5", tuple(parse_agents([f"slow={fake_engine(0.3)}", "random:seed=1"])),
        games_per_pair=2, time_control=TimeControl(20, 0), max_plies=8)
    result = run_tournament(cfg, RunOptions(workers=1))
    assert len(result.records) == 2
    for record in result.records:
        assert record.termination in ("normal", "move-limit"), record.detail
        slow_seat = record.specs.index(fake_engine(0.3))
        assert record.plies[slow_seat] >= 1  # it answered, slower than limit and grace
        assert record.times[slow_seat] / record.plies[slow_seat] > 0.25


def test_an_answer_past_the_arena_clock_is_a_timeout(short_limits: None) -> None:
    cfg = TournamentConfig(
        "go:size=5", tuple(parse_agents([f"slow={fake_engine(2.0)}", "random:seed=1"])),
        games_per_pair=1, time_control=TimeControl(0.5, 0), max_plies=8, grace=0.2)
    result = run_tournament(cfg, RunOptions(workers=1))
    (record,) = result.records
    assert record.termination == "timeout"
    slow_seat = record.specs.index(fake_engine(2.0))
    assert record.scores[slow_seat] == 0


def test_an_engine_past_the_documented_limit_is_taken_for_hung(short_limits: None) -> None:
    go = get_game("go:size=5")
    agent = make_arena_agent(go, fake_engine(1.0), 0)
    try:
        with pytest.raises(GTPError, match=r"did not answer 'genmove b' within 0\.05 s"):
            agent.choose(go, go.initial_state(), None)
    finally:
        agent.close()
