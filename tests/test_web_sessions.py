"""Games the server holds (``/api/play``): ids, seat views, ply-checked moves (a stale one is
409 and changes nothing), the engine's move streamed and played by the server, undo, the
bounded store; and what people read: SAN, draw reasons, Pig's die, the move order."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from gamesearch.games import get_game
from gamesearch.interfaces.web import create_app
from gamesearch.interfaces.web.sessions import Session, SessionStore, UnknownGame


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/play", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def think(client: TestClient, game_id: str, ply: int) -> tuple[int, list[tuple[str, Any]]]:
    with client.stream("GET", f"/api/play/{game_id}/think", params={"ply": ply}) as r:
        status = r.status_code
        text = "".join(r.iter_text())
    if status != 200:
        return status, [("error", json.loads(text))]
    events = []
    for block in text.strip().split("\n\n"):
        kind, data = block.split("\n", 1)
        events.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return status, events


def test_a_game_by_its_id(client: TestClient) -> None:
    g = new(client, game="tictactoe", agents=["human", "minimax"], time="1")
    assert g["ply"] == 0 and g["agents"] == ["human", "minimax"] and g["to_move"] == 0
    assert len(g["id"]) >= 12 and "svg" in g and g["legal"] == [str(i) for i in range(1, 10)]
    again = client.get(f"/api/play/{g['id']}").json()
    assert again["id"] == g["id"] and again["ply"] == 0 and again["time"] == 1


def test_a_stale_move_is_409_and_changes_nothing(client: TestClient) -> None:
    g = new(client, game="connect4", agents=["human", "alphabeta:depth=2"])
    r = client.post(f"/api/play/{g['id']}/move", json={"move": "4", "ply": 0})
    assert r.status_code == 200 and r.json()["ply"] == 1
    # a double click: the same ply again, then the engine's turn taken by a person
    for body in ({"move": "4", "ply": 0}, {"move": "3", "ply": 1}):
        r = client.post(f"/api/play/{g['id']}/move", json=body)
        assert r.status_code == 409, r.text
        assert "stale" in r.json()["error"] or "engine moves" in r.json()["error"]
    now = client.get(f"/api/play/{g['id']}").json()
    assert now["ply"] == 1 and [m["move"] for m in now["moves"]] == ["4"]
    assert client.post(f"/api/play/{g['id']}/move", json={"move": "4"}).status_code == 400
    # the engine moves, played by the server; a stale think is refused
    assert think(client, g["id"], 0)[0] == 409
    status, events = think(client, g["id"], 1)
    assert status == 200 and events[-1][0] == "move"
    after = events[-1][1]["view"]
    assert after["ply"] == 2 and after["moves"][1]["player"] == 1 and after["to_move"] == 0


def test_undo_takes_back_to_the_persons_move(client: TestClient) -> None:
    g = new(client, game="tictactoe", agents=["human", "alphabeta"])
    client.post(f"/api/play/{g['id']}/move", json={"move": "5", "ply": 0})
    think(client, g["id"], 1)
    assert client.post(f"/api/play/{g['id']}/undo", json={"ply": 1}).status_code == 409
    r = client.post(f"/api/play/{g['id']}/undo", json={"ply": 2})
    assert r.status_code == 200 and r.json()["ply"] == 0


def test_an_earlier_ply_is_shown_not_played_on(client: TestClient) -> None:
    g = new(client, game="tictactoe", agents=["human", "human"])
    for ply, move in enumerate("519"):
        client.post(f"/api/play/{g['id']}/move", json={"move": move, "ply": ply})
    back = client.get(f"/api/play/{g['id']}", params={"ply": 1}).json()
    assert back["shown"] == 1 and back["ply"] == 3 and back["legal"] == []
    assert back["position"] == get_game("tictactoe").format_state(
        get_game("tictactoe").play(get_game("tictactoe").initial_state(), "5"))
    assert client.get(f"/api/play/{g['id']}", params={"ply": 4}).status_code == 400


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "tictactoe", "agents": ["human", "nosuchagent"]}, "player 2's agent"),
    ({"game": "tictactoe", "agents": ["human", "alphabeta:bogus=1"]}, "unknown option"),
    ({"game": "tictactoe", "agents": ["human", "human", "human"]}, "2 players"),
    ({"game": "tictactoe", "position": "xxxxxxxxx"}, "X has 9 marks"),
    ({"game": "connect4", "position": "4444444"}, "7th stone"),
    ({"game": "tictactoe", "time": "-1"}, "positive number"),
    ({"game": "tictactoe", "clock": "soon"}, "BASE+INC"),
    ({"game": "nosuchgame"}, "unknown game"),
])
def test_bad_settings_are_refused_when_the_game_starts(client: TestClient, body: dict[str, Any],
                                                       fragment: str) -> None:
    r = client.post("/api/play", json=body)
    assert r.status_code == 400, r.text
    assert fragment in r.json()["error"]
    if "agents" in body and len(body["agents"]) == 2:
        assert r.json()["error"].startswith("player 2's agent")


def test_unknown_and_forgotten_games_are_404(client: TestClient) -> None:
    r = client.get("/api/play/nosuchid")
    assert r.status_code == 404 and "start a new one" in r.json()["error"]
    store = SessionStore(limit=2)
    g = get_game("tictactoe")
    for name in ("a", "b", "c"):
        store.add(Session(name, "tictactoe", g, "", g.initial_state(), ["human"] * 2, None,
                          None))
    assert len(store) == 2
    with pytest.raises(UnknownGame):
        store.get("a")
    store.get("b")  # used: now the newest
    store.add(Session("d", "tictactoe", g, "", g.initial_state(), ["human"] * 2, None, None))
    assert store.get("b") and len(store) == 2
    expired = SessionStore(ttl=0.0)
    expired.add(Session("e", "tictactoe", g, "", g.initial_state(), ["human"] * 2, None, None))
    with pytest.raises(UnknownGame):
        expired.get("e")


def test_chess_moves_in_san_and_a_draw_with_its_reason(client: TestClient) -> None:
    g = new(client, game="chess", agents=["human", "human"])
    for ply, move in enumerate(["e2e4", "e7e5", "g1f3"]):
        r = client.post(f"/api/play/{g['id']}/move", json={"move": move, "ply": ply})
    assert [m["text"] for m in r.json()["moves"]] == ["e4", "e5", "Nf3"]
    assert [m["move"] for m in r.json()["moves"]] == ["e2e4", "e7e5", "g1f3"]
    assert r.json()["time"] is None
    engine = new(client, game="chess", agents=["id", "human"], time=0.3)  # a number, too
    status, events = think(client, engine["id"], 0)
    move = events[-1][1]
    assert status == 200 and move["text"] == move["view"]["moves"][0]["text"]
    assert move["pv_text"][0] == move["text"] and len(move["pv_text"]) == len(move["pv"])
    assert all(e[1]["pv_text"] for e in events if e[0] == "info")
    stalemate = new(client, game="chess", agents=["human", "human"],
                    position="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate["terminal"] and stalemate["result"] == "draw by stalemate"
    bare = client.get("/api/position", params={"game": "chess",
                                               "position": "8/8/4k3/8/8/4K3/8/8 w - - 0 1"})
    assert bare.json()["result"] == "draw by insufficient material"


def test_pig_the_server_rolls_and_a_one_ends_the_turn(client: TestClient) -> None:
    g = new(client, game="pig", agents=["human", "human"])
    ply = 0
    seen_one = False
    for _ in range(200):  # roll until a 1 comes up
        r = client.post(f"/api/play/{g['id']}/move", json={"move": "roll", "ply": ply}).json()
        ply = r["ply"]
        last = r["moves"][-1]
        assert last["player"] == -1 and last["text"].startswith("rolled ")
        if last["move"] == "1":
            assert last["text"] == "rolled 1: turn over" and r["to_move"] == 1
            seen_one = True
            break
        assert r["to_move"] == 0
    assert seen_one
    assert "player 1" in r["text"] and "player 2" in r["text"] and "player 0" not in r["text"]
    assert "player 0" not in (r["svg"] or "")


def test_the_position_keeps_the_moves_in_the_order_played(client: TestClient) -> None:
    moves = "4 4 4 4 4 4 3 3 5 1 2"
    r = client.get("/api/position", params={"game": "connect4", "moves": moves}).json()
    assert r["position"] == moves.replace(" ", "")
    g = new(client, game="connect4", agents=["human", "human"], position="444444")
    for ply, move in enumerate("33512"):
        v = client.post(f"/api/play/{g['id']}/move", json={"move": move, "ply": ply}).json()
    assert v["line"] == "44444433512"


def test_undo_without_people_goes_back_to_a_choice(client: TestClient) -> None:
    g = new(client, game="pig", agents=["random", "random"])
    ply, last = 0, 0
    for _ in range(50):  # engine moves until the last is the server's die (after a roll)
        status, events = think(client, g["id"], ply)
        assert status == 200 and events[-1][0] == "move", events[-1]
        ply, last = events[-1][1]["view"]["ply"], events[-1][1]["view"]["moves"][-1]["player"]
        if last == -1:
            break
    assert last == -1
    r = client.post(f"/api/play/{g['id']}/undo", json={"ply": ply}).json()
    assert r["to_move"] in (0, 1) and r["ply"] == ply - 2  # the roll and its die
