"""The agents' contract (issue 20, item 7): what an agent reports after a move is a typed
value (:class:`~gamesearch.agents.AgentReport`), and its life cycle (reset at the start of
each game, choose per move, close at the end) is kept by every front end: the game loop,
the command line, the arena and the web app."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import pytest

import arena_agents
from arena_agents import LOG, Recorder
from gamesearch.agents import Agent, AgentReport, SearchAgent, make_agent, play_game
from gamesearch.games import get_game
from gamesearch.search import Limit

TTT = get_game("tictactoe")


@pytest.fixture(autouse=True)
def _clear_log() -> None:
    LOG.clear()


def test_the_base_class_declares_the_report_and_the_life_cycle() -> None:
    agent = Agent()
    assert agent.report is None
    agent.close()  # nothing to release, and no error
    with agent as same:
        assert same is agent
    report = AgentReport("search", 1.0, 3, 10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.nodes = 11  # type: ignore[misc]


def test_a_search_agent_reports_its_search_and_forgets_it_on_reset() -> None:
    agent = make_agent(TTT, "alphabeta:depth=3")
    assert isinstance(agent, SearchAgent)
    state = TTT.result(TTT.initial_state(), 4)
    action = agent.choose(TTT, state)
    r = agent.report
    assert r is not None and r.source == "search" and r.search is agent.last
    assert (r.value, r.depth, r.nodes, r.pv[0]) == (agent.last.value, 3, agent.last.nodes,
                                                   action)
    searcher = agent.searcher
    agent.reset()
    assert agent.report is None and agent.searcher is not searcher  # a fresh searcher


def test_the_solver_agent_reports_a_solve() -> None:
    agent = make_agent(TTT, "solver:time=5")
    state = TTT.parse_state("o...x...x")
    action = agent.choose(TTT, state)
    r = agent.report
    assert r is not None and r.source == "solver" and r.solved and r.pv == (action,)
    assert r.nodes > 0


def test_play_game_resets_every_agent_before_its_first_move() -> None:
    a, b = Recorder(), Recorder()
    a.report = AgentReport("engine", nodes=99)  # left over from an earlier game
    play_game(TTT, [a, b])
    assert LOG[:2] == ["reset", "reset"] and LOG[2:] == ["choose"] * (len(LOG) - 2)
    assert a.report is not None and a.report.nodes == 7  # this game's, not the earlier one's
    assert "close" not in LOG  # closing is the owner's part: an agent may play again
    LOG.clear()
    play_game(TTT, [a, b])
    assert LOG[:2] == ["reset", "reset"]


def test_the_command_line_play_closes_its_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamesearch.interfaces import cli

    made: list[Agent] = []

    def make(game: Any, spec: str, *args: Any, **kw: Any) -> Agent:
        made.append(Recorder())
        return made[-1]

    monkeypatch.setattr(cli, "make_agent", make)
    out = io.StringIO()
    assert cli.main(["play", "tictactoe", "--agent", "x", "--agent", "y"], out) == 0
    assert LOG[:2] == ["reset", "reset"] and LOG[-2:] == ["close", "close"]
    assert LOG.count("close") == 2


def test_the_command_line_play_shows_the_report() -> None:
    from gamesearch.interfaces.cli import main

    out = io.StringIO()
    assert main(["play", "tictactoe", "--agent", "alphabeta:depth=2", "--agent",
                 "solver:time=5"], out) == 0
    text = out.getvalue()
    assert "depth 2" in text and "nodes" in text  # the search's report
    assert "solved" in text  # the solver's


def test_the_arena_resets_reads_the_report_and_closes() -> None:
    from gamesearch.arena import TournamentConfig, parse_agents, play_job

    cfg = TournamentConfig("tictactoe", tuple(parse_agents(
        ["py:arena_agents:Recording", "alphabeta:depth=2"])), games_per_pair=2)
    job = cfg.schedule()[0]
    record = play_job(job)
    seat = list(job.specs).index("py:arena_agents:Recording")
    assert LOG[0] == "reset" and LOG[-1] == "close" and LOG.count("close") == 1
    assert record.nodes[seat] == 7 * record.plies[seat] > 0  # from the report
    assert record.nodes[1 - seat] > 0  # the search's nodes, from its report too


def test_the_web_engine_move_reads_the_report_and_closes_the_agent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import app as web_app
    from gamesearch.interfaces.web import validation

    monkeypatch.setattr(validation, "agent", lambda *a, **kw: arena_agents.Recorder())
    client = TestClient(web_app.create_app())
    with client.stream("GET", "/api/think", params={"game": "tictactoe", "moves": "5",
                                                    "time": "1"}) as r:
        text = "".join(r.iter_text())
    move = json.loads(text.strip().split("\n\n")[-1].split("\n")[1].removeprefix("data: "))
    assert move["move"] == "1" and move["source"] == "agent"
    assert LOG == ["choose", "close"]


def test_a_limit_is_still_passed_to_the_agent() -> None:
    agent = make_agent(TTT, "id")
    agent.choose(TTT, TTT.initial_state(), Limit(depth=2))
    assert agent.report is not None and agent.report.depth >= 1
