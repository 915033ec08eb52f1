"""The Equilibria page's API (``/api/equilibria*``) with FastAPI's test client: the live
run against OpenSpiel's solver at every checkpoint, its policy and agent against the
library's solve, matrix games against nashpy, the stop and the time cap, the ``cfr``
agent of the play page, and every bad input a one-line 4xx."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from gamesearch.games import get_game
from gamesearch.interfaces.web import create_app, equilibria
from gamesearch.interfaces.web.validation import Caps
from gamesearch.search.equilibrium import solve_equilibrium

pyspiel = pytest.importorskip("pyspiel")
nashpy = pytest.importorskip("nashpy")
np = pytest.importorskip("numpy")

SMALL = Caps(equilibrium_iterations=5000, equilibrium_time=20.0)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(caps=SMALL))


def events(text: str) -> list[tuple[str, Any]]:
    out = []
    for block in text.strip().split("\n\n"):
        kind, _, data = block.partition("\n")
        out.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_checkpoints_are_four_a_decade_and_the_last() -> None:
    assert equilibria.checkpoints(1) == [1]
    assert equilibria.checkpoints(7) == [1, 2, 3, 5, 7]
    assert equilibria.checkpoints(1000) == [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300,
                                            500, 1000]
    assert len(equilibria.checkpoints(100_000)) == 4 * 5 + 1


@pytest.mark.parametrize(("game", "algorithm", "iterations"),
                         [("kuhn_poker", "cfr", 200), ("kuhn_poker", "cfr+", 100),
                          ("leduc_poker", "cfr+", 3)])
def test_a_run_streams_openspiels_exploitability_at_each_checkpoint(
        client: TestClient, game: str, algorithm: str, iterations: int) -> None:
    """Each point equal to OpenSpiel's own solver's exploitability at that iteration; the
    exploitability measured at the checkpoints only; the final policy the library's."""
    r = client.get("/api/equilibria/solve", params={
        "game": game, "algorithm": algorithm, "iterations": str(iterations)})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    got = events(r.text)
    assert got[0][0] == "start" and got[-1][0] == "done"
    points = [d for kind, d in got if kind == "point"]
    assert [p["iteration"] for p in points] == equilibria.checkpoints(iterations)
    spiel = pyspiel.load_game(game)
    theirs = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}[algorithm](spiel)
    for i in range(1, iterations + 1):
        theirs.evaluate_and_update_policy()
        if i in equilibria.checkpoints(iterations):
            expected = pyspiel.exploitability(spiel, theirs.average_policy())
            assert points.pop(0)["exploitability"] == pytest.approx(expected, abs=1e-12)
    done = got[-1][1]
    assert done["evaluations"] == len(equilibria.checkpoints(iterations))
    assert done["iterations"] == iterations and not done["stopped"]
    library = solve_equilibrium(get_game(game), algorithm, iterations)
    assert done["exploitability"] == pytest.approx(library.exploitability, abs=1e-12)
    assert done["value"] == pytest.approx(library.value, abs=1e-12)
    sets = done["information_sets"]
    assert {s["key"]: s["probabilities"] for s in sets} == library.table
    assert done["agent"] == f"cfr:iterations={iterations},algorithm={algorithm}"
    assert all(len(s["actions"]) == len(s["probabilities"]) for s in sets)


def test_kuhn_sets_are_labelled_for_people(client: TestClient) -> None:
    done = events(client.get("/api/equilibria/solve", params={
        "game": "kuhn_poker", "iterations": "10"}).text)[-1][1]
    by_key = {s["key"]: s for s in done["information_sets"]}
    assert by_key["0"]["player"] == 1 and by_key["0"]["card"] == "J"
    assert by_key["0"]["actions"] == ["pass", "bet"]
    assert by_key["2pb"]["player"] == 1 and by_key["2pb"]["card"] == "K"
    assert by_key["2pb"]["history"] == "pass bet"
    assert by_key["1b"]["player"] == 2 and by_key["1b"]["history"] == "bet"


@pytest.mark.parametrize(("params", "words"), [
    ({"game": "kuhn_poker", "iterations": "-3"}, "iterations '-3'"),
    ({"game": "kuhn_poker", "iterations": "0"}, "iterations '0'"),
    ({"game": "kuhn_poker", "iterations": "nan"}, "iterations 'nan'"),
    ({"game": "kuhn_poker", "iterations": "inf"}, "iterations 'inf'"),
    ({"game": "kuhn_poker", "iterations": "1e30"}, "iterations '1e30'"),
    ({"game": "kuhn_poker", "iterations": "5001"}, "from 1 to 5000"),
    ({"game": "kuhn_poker", "iterations": "2.5"}, "whole number"),
    ({"game": "chess"}, "game 'chess'"),
    ({"game": "liars_dice"}, "game 'liars_dice'"),
    ({}, "game ''"),
    ({"game": "kuhn_poker", "algorithm": "es-mccfr"}, "algorithm 'es-mccfr'"),
    ({"game": "kuhn_poker", "algorithm": "x" * 5000}, "at most 4000"),
])
def test_bad_runs_are_one_line_400s(client: TestClient, params: dict[str, str],
                                    words: str) -> None:
    r = client.get("/api/equilibria/solve", params=params)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert words in error and "\n" not in error


def test_stop_and_time_cap_end_a_run_with_its_policy_so_far() -> None:
    """A stop after the 5th checkpoint (what the stop button and a client leaving do):
    the run ends there, its last policy measured and cached for the agent; a time cap of
    0 s: no iteration at all."""
    game = get_game("kuhn_poker")
    run = equilibria.SolveRun(game, "cfr", 100_000, 60.0)

    def emit(kind: str, data: dict[str, Any]) -> None:
        if kind == "point" and data["iteration"] == 5:
            run.stop.set()

    done = run.run(emit)
    assert done["stopped"] == "asked to stop" and done["iterations"] == 5
    assert done["exploitability"] == pytest.approx(
        solve_equilibrium(game, "cfr", 5).exploitability, abs=1e-15)
    assert equilibria.recalled("kuhn_poker", "cfr", 5) == solve_equilibrium(
        game, "cfr", 5).table
    # stopped between two checkpoints (at the first progress report): measured there too
    between = equilibria.SolveRun(game, "cfr", 100_000, 60.0)
    points: list[int] = []

    def watch(kind: str, data: dict[str, Any]) -> None:
        if kind == "point":
            points.append(data["iteration"])
        elif kind == "progress":
            between.stop.set()

    done = between.run(watch)
    assert done["stopped"] == "asked to stop" and points[-1] == done["iterations"] < 100_000
    assert done["evaluations"] == len(points)
    capped = equilibria.SolveRun(game, "cfr", 100, 0.0).run(lambda kind, data: None)
    assert capped["iterations"] == 0 and capped["stopped"].startswith("at the server's time cap")
    assert capped["exploitability"] is None and "agent" not in capped


def test_stop_endpoint(client: TestClient) -> None:
    r = client.post("/api/equilibria/stop", params={"run": "nosuchrun"})
    assert r.status_code == 404 and "no equilibrium run 'nosuchrun'" in r.json()["error"]
    run = equilibria.SolveRun(get_game("kuhn_poker"), "cfr", 10, 10.0)
    client.app.state.equilibrium_runs[run.id] = run  # type: ignore[attr-defined]
    try:
        r = client.post("/api/equilibria/stop", params={"run": run.id})
        assert r.json() == {"run": run.id, "stopping": True} and run.stop.is_set()
    finally:
        client.app.state.equilibrium_runs.pop(run.id)  # type: ignore[attr-defined]


def test_the_play_page_plays_the_solved_policy(client: TestClient) -> None:
    """``cfr:iterations=N,algorithm=A`` is the policy the run ended with: from the cache
    after a run, solved again (the same) without it; the play page's game takes it."""
    spec = "cfr:iterations=300,algorithm=dcfr"
    game = get_game("kuhn_poker")
    library = solve_equilibrium(game, "dcfr", 300).table
    equilibria.SOLVED.clear()
    assert equilibria.cfr_agent(game, spec, SMALL).table == library  # solved here
    assert equilibria.recalled("kuhn_poker", "dcfr", 300) == library
    equilibria.SOLVED.clear()
    events(client.get("/api/equilibria/solve", params={
        "game": "kuhn_poker", "algorithm": "dcfr", "iterations": "300"}).text)
    cached = equilibria.recalled("kuhn_poker", "dcfr", 300)
    assert cached == library
    assert equilibria.cfr_agent(game, spec, SMALL).table is cached  # not solved again
    r = client.post("/api/play", json={"game": "kuhn_poker", "agents": ["human", spec]})
    assert r.status_code == 201, r.text
    assert r.json()["agents"] == ["human", spec]
    r = client.post("/api/play", json={"game": "leduc_poker",
                                       "agents": [spec.replace("300", "40"), "human"]})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(("game", "spec"), [
    ("kuhn_poker", "cfr"), ("kuhn_poker", "CFR:seed=-3,iterations=7,algorithm=DCFR"),
    ("leduc_poker", "cfr:iterations=20,algorithm=cfr")])
def test_the_web_cfr_agent_is_the_command_lines(game: str, spec: str) -> None:
    """The same defaults (1,000 iterations of CFR+), seeds and policy as the command
    line's agent (``gamesearch play ... cfr:...``), whether solved here or cached."""
    from gamesearch.agents import make_agent

    g = get_game(game)
    theirs = make_agent(g, spec.lower(), 1.0)
    equilibria.SOLVED.clear()
    for _ in range(2):  # solved, then from the cache
        ours = equilibria.cfr_agent(g, spec, SMALL)
        assert ours.table == theirs.table  # type: ignore[attr-defined]
        if "seed" in spec:  # (without one, each seeds itself from the system)
            assert ours.rng.getstate() == theirs.rng.getstate()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("agent", "words"), [
    ("cfr:iterations=100000000", "from 1 to 5000"),
    ("cfr:iterations=-1", "iterations '-1'"),
    ("cfr:iterations=10,algorithm=lp", "algorithm 'lp'"),
    ("cfr:iterations=10,depth=3", "option 'depth'"),
    ("policy:/etc/passwd", "policy:FILE reads a file of the server; here a solved policy "
     "plays as cfr:iterations=N,algorithm=A (the play buttons of the Equilibria page)"),
    ("cfr:iterations=5,seed=x", "seed='x'"),
])
def test_bad_cfr_agents_are_refused(client: TestClient, agent: str, words: str) -> None:
    """Before: cfr:iterations=100000000 was taken (an endless solve on the server's
    thread) and cfr:...,algorithm=A refused (an unknown search option)."""
    r = client.post("/api/play", json={"game": "kuhn_poker", "agents": ["human", agent]})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"] and "\n" not in r.json()["error"]


def test_a_cfr_agent_not_solved_in_time_is_refused(client: TestClient) -> None:
    equilibria.SOLVED.clear()
    with pytest.raises(equilibria.WebInputError, match="not solved within the 0 s"):
        equilibria.cfr_agent(get_game("kuhn_poker"), "cfr:iterations=5",
                             Caps(equilibrium_time=0.0))
    assert equilibria.recalled("kuhn_poker", "cfr+", 5) is None


def test_matrix_zero_sum_and_general_sum_against_nashpy(client: TestClient) -> None:
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    d = client.get("/api/equilibria/matrix", params={"a": json.dumps(rps)}).json()
    (row, col), = list(nashpy.Game(np.array(rps)).support_enumeration())
    assert d["zero_sum"] and d["value"] == pytest.approx(float(row @ np.array(rps) @ col))
    assert d["row_strategy"] == pytest.approx(list(row))
    assert d["column_strategy"] == pytest.approx(list(col))
    # a nondegenerate general-sum game with three equilibria (nashpy warns of a
    # degenerate one: made an error here)
    a, b = [[2, 3, -5], [3, 0, 0], [1, -2, 5]], [[-5, -2, -1], [1, -1, -4], [-5, -5, -5]]
    d = client.get("/api/equilibria/matrix",
                   params={"a": json.dumps(a), "b": json.dumps(b)}).json()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        truth = sorted(tuple(np.round(np.concatenate(e), 9)) for e in
                       nashpy.Game(np.array(a), np.array(b)).support_enumeration())
    assert len(truth) == 3
    ours = sorted(tuple(np.round(e["row_strategy"] + e["column_strategy"], 9))
                  for e in d["equilibria"])
    assert ours == truth and d["value"] is None


@pytest.mark.parametrize(("params", "words"), [
    ({"a": "[[1, 2], [3]]"}, "ragged"),
    ({"a": "[[1, NaN]]"}, "not a finite number"),
    ({"a": "[[1, 2]"}, "not JSON"),
    ({"a": "[]"}, "non-empty"),
    ({"a": "[[1, \"x\"]]"}, "not a number"),
    ({"a": "[[1, 2]]", "b": "[[1], [2]]"}, "differ in shape"),
    ({"a": json.dumps([[0] * 20] * 20), "b": json.dumps([[1] * 19 + [0]] * 20)},
     "too large for support enumeration"),
    ({}, "a: missing"),
])
def test_bad_matrices_are_one_line_400s(client: TestClient, params: dict[str, str],
                                        words: str) -> None:
    r = client.get("/api/equilibria/matrix", params=params)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"] and "\n" not in r.json()["error"]


def test_page_and_offer(client: TestClient) -> None:
    assert "<html" in client.get("/equilibria").text
    assert client.get("/static/equilibria.js").status_code == 200
    offer = client.get("/api/equilibria").json()
    assert offer["caps"] == {"iterations": 5000, "seconds": 20.0}
    assert set(offer["algorithms"]) == {"cfr", "cfr+", "dcfr"}
    assert 'href="/equilibria"' in client.get("/").text
