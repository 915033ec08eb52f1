"""The web app's second round (issue 36, item 5) where it is data: result texts, the Go
drawing's coordinates, resigning, Connect Four's quick scores, the gallery, and the bounds
of a tournament started from the web (``tests/test_web_second_round_browser.py`` has what a
person sees)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from gamesearch.game import CHANCE
from gamesearch.games import get_game
from gamesearch.interfaces.web.app import create_app
from gamesearch.interfaces.web.runs import RunCaps
from gamesearch.interfaces.web.sessions import result_text


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def played_out(spec: str, seed: int) -> tuple[Any, Any]:
    g = get_game(spec)
    s, rng = g.initial_state(), random.Random(seed)
    while not g.is_terminal(s):
        if g.to_move(s) == CHANCE:
            outcomes = g.chance_outcomes(s)
            a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            a = rng.choice(list(g.actions(s)))
        s = g.result(s, a)
    return g, s


def test_bridge_result_is_said_by_partnership() -> None:
    """Before: "1. player 1, 1. player 3, 3. player 2". After: the side that won, from
    the game's ``match_hooks`` (team_names, teams, table_outcome)."""
    g, s = played_out("bridge", 1)
    text = result_text(g, s)
    assert re.match(r"(N-S|E-W) wins: \S+ by \w+, \d+ tricks", text), text
    assert "N-S: player 1 and player 3; E-W: player 2 and player 4" in text
    assert "1. player" not in text


def test_points_are_plural_but_one() -> None:
    g = get_game("backgammon")
    for seed in range(12):
        g, s = played_out("backgammon", seed)
        text = result_text(g, s)
        k = g.points(s)
        assert text.endswith(f"({k} point{'s' if k > 1 else ''})"), text
        assert "1 points" not in g.render(s)


def test_ohhell_numbers_seats_from_one() -> None:
    g, s = played_out("ohhell", 2)
    assert re.match(r"1\. player \d", result_text(g, s))
    assert "seat 0" not in g.render(s) and "player 1:" in g.render(s)
    svg = g.render_svg(s, seat="all")
    assert "seat 0" not in svg and "player 1" in svg and 'viewBox="0 0 420 330"' in svg
    obs = g.observation()
    assert obs is not None
    assert obs.describe(obs.observe(s, 0)).startswith("you are player 1;")


def test_rolit_names_each_seats_colour() -> None:
    g, s = played_out("rolit:players=3", 3)
    text = result_text(g, s)
    assert re.match(r"1\. player \d \((red|yellow|green)\)", text), text


def test_go_coordinates_are_drawn_clear_of_the_edge_stones() -> None:
    """Before: the letters and numbers sat under the first row's and column's stones.
    After: every coordinate is outside the circle of any stone on the edge."""
    from gamesearch.games.go import svg as go_svg

    g = get_game("go:size=9")
    s = g.initial_state()
    for v in ("A9", "J1", "A1", "E9"):
        s = g.play(s, v)
    picture = g.render_svg(s)
    edge = go_svg.PAD - go_svg.STONE_R
    for _x, y in re.findall(r'<text class="label" data-coord="col" x="([\d.]+)" y="([\d.]+)"',
                           picture):
        assert float(y) < edge - 2  # its baseline above the top stones
    for x, _y in re.findall(r'<text class="label" data-coord="row" x="([\d.]+)" y="([\d.]+)"',
                            picture):
        assert float(x) < edge  # right-aligned, left of the first column's stones
    assert picture.count('data-coord="col"') == picture.count('data-coord="row"') == 9


def test_resign_ends_a_two_player_game_and_undo_takes_it_back(client: TestClient) -> None:
    v = client.post("/api/play", json={"game": "go:size=9", "agents": ["human", "random"]},
                    params={"seat": 0}).json()
    r = client.post(f"/api/play/{v['id']}/resign", json={"ply": v["ply"]}, params={"seat": 0})
    assert r.status_code == 200
    over = r.json()
    assert over["terminal"] and over["legal"] == [] and over["returns"][0] < 0
    assert over["result"] == "player 2 wins by resignation (player 1 resigned)"
    assert client.post(f"/api/play/{v['id']}/move", json={"move": "E5", "ply": v["ply"]},
                       params={"seat": 0}).status_code == 409
    back = client.post(f"/api/play/{v['id']}/undo", json={"ply": v["ply"]},
                       params={"seat": 0}).json()
    assert not back["terminal"] and back["resigned"] is None
    three = client.post("/api/play", json={"game": "ohhell", "agents": ["human", "random",
                                                                        "random"]},
                        params={"seat": 0}).json()
    assert client.post(f"/api/play/{three['id']}/resign", json={"ply": three["ply"]},
                       params={"seat": 0}).status_code == 400


def test_connect4_quick_scores_are_what_the_book_knows_at_once(client: TestClient) -> None:
    start = time.process_time()
    data = client.get("/api/scores", params={"game": "connect4", "quick": "1"}).json()
    assert time.process_time() - start < 1.0
    said = {s["move"]: s["score"] if s["score"] is not None else s.get("result")
            for s in data["scores"]}
    # the empty board: Pons's -2 -1 0 1 0 -1 -2, or at least their signs
    expected = {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    words = {-2: "loss", -1: "loss", 0: "draw", 1: "win"}
    for move, score in expected.items():
        assert said[move] in (score, words[score]), said


def test_gallery_draws_every_game_without_a_secret(client: TestClient) -> None:
    games = client.get("/api/gallery").json()["games"]
    listed = {g["name"] for g in client.get("/api/games").json()["games"]}
    assert {g["name"] for g in games} == listed
    for g in games:
        assert g["svg"].startswith("<svg") and "viewBox" in g["svg"], g["name"]
        assert "data-move" not in g["svg"]  # a picture, not a board to play on
        assert g["play"].startswith(f"/play?game={g['name']}&agent=human")


def test_a_web_tournament_is_bounded_and_from_this_machine(tmp_path: Path) -> None:
    # a request that is not from the loopback address may not start one
    assert TestClient(create_app()).post(
        "/api/tournaments/run", json={"game": "tictactoe", "agents": ["random", "id"]}
    ).status_code == 403
    c = TestClient(create_app(runs="anyone", runs_folder=tmp_path,
                              run_caps=RunCaps(agents=3, games_per_pair=4, games=12)))

    def start(**body: Any) -> Any:
        return c.post("/api/tournaments/run", json={"game": "tictactoe", **body})

    assert "2 to 3" in start(agents=["random"]).json()["error"]
    assert "2 to 3" in start(agents=["random"] * 4).json()["error"]
    assert "human" in start(agents=["random", "human"]).json()["error"]
    assert "games per pair 5" in start(agents=["random", "id"], games_per_pair=5).json()["error"]
    assert "seconds per move" in start(agents=["random", "id"], move_time=60).json()["error"]
    assert start(agents=["random", "alphabeta:depth=99999"]).status_code == 400
    r = start(agents=["random:seed=1", "alphabeta:depth=2"], games_per_pair=2, move_time=0.1)
    assert r.status_code == 201, r.json()
    run = r.json()["run"]
    second = start(agents=["random", "id"])  # one at a time
    assert second.status_code == 409 or not c.get("/api/tournaments/run").json()["run"][
        "running"]
    deadline = time.time() + 60
    while c.get("/api/tournaments/run").json()["run"]["running"] and time.time() < deadline:
        time.sleep(0.2)
    done = c.get(f"/api/tournaments/{run['file']}/{run['id']}").json()
    assert done["games"] == done["scheduled"] == 2
    assert (tmp_path / run["file"]).is_file()
    assert c.post("/api/tournaments/run/stop").status_code == 409  # nothing runs now
