"""Backgammon played: the terminal (an illegal move refused with the legal list), agents
by spec, the arena's points per game with their interval, and the web app's board."""

from __future__ import annotations

import io
import json
import math

import pytest

from gamesearch.arena.ratings import points_per_game
from gamesearch.games import get_game
from gamesearch.interfaces.cli import main


def run_inline(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_terminal_play_refuses_an_illegal_move_with_the_legal_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["8/3", "8/5 6/5", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out = run_inline("play", "backgammon", "--position", "4HPwATDgc/ABMA:0:31",
                           "--first", "human", "--second", "star2:depth=1", "--seed", "3")
    assert code == 0
    assert "illegal move '8/3'; legal moves: 24/21 24/23, " in out and "8/5 6/5, " in out
    assert "human (player 1) plays 8/5 6/5" in out
    assert "star2:depth=1 (player 2) plays" in out and "chance plays" in out
    assert "X (player 1) to move, dice 31" in out and "|BAR|" in out


def test_a_whole_game_ends_with_its_points() -> None:
    code, out = run_inline("play", "backgammon", "--first", "expectiminimax:depth=1",
                           "--second", "star1:depth=1", "--seed", "5")
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.startswith("game over: player ") and " wins (" in last
    assert any(f"({kind}, {k} point{'s' if k > 1 else ''})" in last for kind, k in
               (("single game", 1), ("gammon", 2), ("backgammon", 3))), last


def test_points_per_game_interval() -> None:
    p = points_per_game([1, -1, 2, -1, 3, 1, -2, 1])
    assert p.games == 8 and p.mean == pytest.approx(0.5) and p.wins == 5
    sd = math.sqrt(sum((r - 0.5) ** 2 for r in [1, -1, 2, -1, 3, 1, -2, 1]) / 7)
    assert p.margin == pytest.approx(1.96 * sd / math.sqrt(8))
    assert p.win_low < 5 / 8 < p.win_high and p.win_low >= 0 and p.win_high <= 1
    assert "points/game" in p.describe()


def test_arena_match_reports_points_per_game() -> None:
    code, out = run_inline("match", "backgammon", "expectiminimax:depth=1", "random:seed=2",
                           "--games", "4", "--json", "--seed", "11")
    assert code == 0
    data = json.loads(out)
    points = data["points"]
    assert set(points) == {"expectiminimax:depth=1", "random:seed=2"}
    a, b = points.values()
    assert a["games"] == b["games"] == 4
    assert a["mean"] == pytest.approx(-b["mean"])  # zero-sum, per game
    assert a["wins"] + b["wins"] == 4
    assert all(abs(m) <= 3 for m in (a["mean"], b["mean"]))


def test_web_drawing_lists_moves_with_the_agents_labels() -> None:
    game = get_game("backgammon")
    s = game.parse_state("4HPwATDgc/ABMA:0:31")
    svg = game.render_svg(s, labels={"8/5 6/5": "0.215"})
    assert svg is not None
    assert 'data-move="8/5 6/5"' in svg and "8/5 6/5  0.215" in svg
    assert svg.count('class="checker seat0"') >= 4 and 'class="die"' in svg
    # the labelled move comes first
    assert svg.index('data-move="8/5 6/5"') < svg.index('data-move="24/21 24/23"')


def test_web_think_shows_the_agents_equities_for_its_top_moves() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    client = TestClient(create_app())
    pos = client.get("/api/position", params={"game": "backgammon",
                                               "position": "4HPwATDgc/ABMA:0:31"}).json()
    assert "8/5 6/5" in pos["legal"] and 'class="die"' in pos["svg"]
    rolled = client.get("/api/position", params={"game": "backgammon",
                                                  "position": "4HPwATDgc/ABMA:1:--"}).json()
    assert len(rolled["chance"]) == 21 and rolled["legal"] == []
    with client.stream("GET", "/api/think", params={
            "game": "backgammon", "position": "4HPwATDgc/ABMA:0:31",
            "agent": "expectiminimax:depth=1", "time": "5"}) as r:
        assert r.status_code == 200
        text = "".join(r.iter_text())
    events = [block.split("\n") for block in text.strip().split("\n\n")]
    info = next(json.loads(e[1].removeprefix("data: ")) for e in events
                if e[0] == "event: info")
    top = info["top_moves"]
    assert 1 <= len(top) <= 5 and top == sorted(top, key=lambda m: -m["value"])
    game = get_game("backgammon")
    s = game.parse_state("4HPwATDgc/ABMA:0:31")
    ev = game.evaluation()
    assert ev is not None
    best = max(ev.evaluate(game.result(s, a), 0) for a in game.actions(s))
    assert top[0]["value"] == pytest.approx(best, abs=1e-4)
    assert f"{top[0]['move']}  {top[0]['value']:+.3f}" in info["svg"]
    bad = client.get("/api/position", params={"game": "backgammon", "position": "nonsense"})
    assert bad.status_code == 400 and "backgammon position" in bad.json()["error"]
