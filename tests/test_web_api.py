"""The web app's JSON API with FastAPI's test client: every endpoint, every bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament
from gamesearch.interfaces.cli import main
from gamesearch.interfaces.web import create_app
from gamesearch.interfaces.web.gate import Busy, SearchGate
from gamesearch.interfaces.web.validation import Caps
from gamesearch.search import Limit
from gamesearch.search.control import allocate_time


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("results")
    config = TournamentConfig("tictactoe", tuple(parse_agents(
        ["alphabeta:depth=2", "random:seed=1", "minimax:depth=1"])), games_per_pair=2)
    run_tournament(config, RunOptions(db=str(folder / "t.sqlite")))
    (folder / "notes.txt").write_text("not a results file")
    return folder


@pytest.fixture(scope="module")
def client(results: Path) -> TestClient:
    return TestClient(create_app(results))


def cli_json(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return dict(json.loads(out.getvalue().splitlines()[-1]))


def test_pages_and_openapi(client: TestClient) -> None:
    for path in ("/", "/play", "/analyse", "/analyze", "/learn", "/tournaments"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text
    assert client.get("/static/play.js").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/analyze" in schema["paths"] and "/api/solve" in schema["paths"]
    assert client.get("/docs").status_code == 200


def test_games_lists_every_game(client: TestClient) -> None:
    data = client.get("/api/games").json()
    names = {g["name"] for g in data["games"]}
    assert {"tictactoe", "connect4", "pig", "fig6.2", "fig6.4", "coinflip"} <= names
    assert "alphabeta" in data["algorithms"] and "solver" in data["agents"]


@pytest.mark.parametrize(("game", "moves"), [
    ("tictactoe", "5 1"), ("connect4", "4 4 5"), ("pig", "roll 4 hold"), ("fig6.2", "a1"),
    ("fig6.4", "a2 b3"), ("coinflip", "a1 heads"), ("chess", "e4 e5 Nf3"), ("nim", "1-2"),
])
def test_position_draws_every_game(client: TestClient, game: str, moves: str) -> None:
    r = client.get("/api/position", params={"game": game, "moves": moves})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["svg"].startswith("<svg") and data["svg"].rstrip().endswith("</svg>")
    if data["legal"]:
        marker = "data-square" if game == "chess" else "data-move"
        assert marker in data["svg"]


def test_every_game_of_the_library_is_drawn(client: TestClient) -> None:
    """Games that land later appear too: each is drawn by its render_svg hook, and each
    legal move of the start position is clickable (chess: its squares)."""
    for g in client.get("/api/games").json()["games"]:
        data = client.get("/api/position", params={"game": g["name"]}).json()
        assert data["svg"], f"{g['name']} has no drawing (the page falls back to buttons)"
        # chess, Chinese Checkers and checkers take two clicks: their squares (holes)
        marker = ("data-square" if g["name"] in ("chess", "chinese_checkers", "checkers")
                  else "data-move")
        assert data["svg"].count(marker) >= min(len(data["legal"]), 1), g["name"]


def test_position_of_a_finished_game(client: TestClient) -> None:
    data = client.get("/api/position", params={"game": "tictactoe",
                                               "moves": "1 4 2 5 3"}).json()
    assert data["terminal"] and data["result"] == "player 1 wins" and data["legal"] == []


def test_roll_only_at_chance_nodes(client: TestClient) -> None:
    r = client.get("/api/roll", params={"game": "pig", "moves": "roll"})
    assert r.status_code == 200 and r.json()["move"] in list("123456")
    assert client.get("/api/roll", params={"game": "pig"}).status_code == 400


def test_analyze_is_the_cli_object(client: TestClient) -> None:
    args = {"game": "tictactoe", "position": "x...o....", "algorithm": "alphabeta", "depth": "4"}
    web = client.get("/api/analyze", params=args).json()
    cli = cli_json("analyze", "tictactoe", "--position", "x...o....", "--algorithm",
                   "alphabeta:depth=4", "--json")
    # a pure depth limit runs under the time cap (iterative deepening): effort differs
    for key in ("seconds", "nps", "algorithm", "nodes_per_depth", "nodes", "cutoffs"):
        web.pop(key), cli.pop(key)
    assert web["depth"] == cli["depth"] == 4
    assert web.pop("score_text") == str(web["value"])  # the web's words for the value
    # the moves as people write them, beside the notation (tic-tac-toe: the same)
    assert web["move_text"] == web["move"] and web["pv_text"] == web["pv"]
    assert web == cli


def test_analyze_and_solve_say_chess_moves_in_san(client: TestClient) -> None:
    """Issue 36 item 5: the Analyse page and /api/analyze gave ``d1d8``; people read SAN
    (the game's ``describe_action``), beside the UCI the command line's JSON keeps."""
    pytest.importorskip("chess")
    mate = "6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1"
    data = client.get("/api/analyze", params={"game": "chess", "position": mate,
                                              "depth": "2"}).json()
    assert data["move"] == "d1d8" and data["move_text"] == "Qd8#"
    assert data["pv_text"][0] == "Qd8#"
    assert "Qd8#" in data.get("root_values_text", {"Qd8#": 0})


def test_analyze_with_time_matches_cli_keys(client: TestClient) -> None:
    web = client.get("/api/analyze", params={"game": "coinflip", "algorithm":
                                             "expectiminimax", "time": "0.5"}).json()
    cli = cli_json("analyze", "coinflip", "--algorithm", "expectiminimax", "--time", "0.5",
                   "--json")
    assert set(web) == set(cli) | {"score_text"}
    assert web["value"] == cli["value"] == 3 and web["root_values"] == {"a1": 3, "a2": -1}


def test_analyze_connect4_book_like_cli(client: TestClient) -> None:
    web = client.get("/api/analyze", params={"game": "connect4", "position": "44"}).json()
    cli = cli_json("analyze", "connect4", "--position", "44", "--json")
    assert web == cli and web["algorithm"] == "book"


@pytest.mark.parametrize(("game", "position"), [
    ("tictactoe", "x...o...."), ("connect4", "4455443"), ("fig6.2", "A"), ("coinflip", "A"),
])
def test_solve_is_the_cli_object(client: TestClient, game: str, position: str) -> None:
    web = client.get("/api/solve", params={"game": game, "position": position}).json()
    cli = cli_json("solve", game, "--position", position, "--json")
    web.pop("seconds"), cli.pop("seconds")
    if game == "coinflip":  # chance: a full-depth search, iterated under the server's cap
        assert web.pop("nodes") >= cli.pop("nodes")
    assert web == cli


def test_solve_weak_and_refusals(client: TestClient) -> None:
    data = client.get("/api/solve", params={"game": "tictactoe", "weak": "1"}).json()
    assert data["value"] == 0
    r = client.get("/api/solve", params={"game": "pig", "weak": "1"})
    assert r.status_code == 400 and "two-player zero-sum" in r.json()["error"]


def test_solve_too_hard_is_422() -> None:
    c = TestClient(create_app(caps=Caps(time=0.2, nodes=20_000)))
    r = c.get("/api/solve", params={"game": "connect4", "position": "4"})
    assert r.status_code == 422 and "limits" in r.json()["error"]


def test_scores_for_the_seven_columns(client: TestClient) -> None:
    data = client.get("/api/scores", params={"game": "connect4", "position": "4455443"}).json()
    assert [s["move"] for s in data["scores"]] == list("1234567")
    scores = {s["move"]: s["score"] for s in data["scores"]}
    best = cli_json("solve", "connect4", "--position", "4455443", "--json")
    assert max(v for v in scores.values() if v is not None) == best["value"]
    ttt = client.get("/api/scores", params={"game": "tictactoe", "position": "xx.oo...."}).json()
    assert {s["move"]: s["score"] for s in ttt["scores"]}["3"] > 0


def test_think_streams_iterations_then_a_move(client: TestClient) -> None:
    with client.stream("GET", "/api/think", params={"game": "tictactoe", "moves": "5",
                                                    "agent": "minimax", "time": "2"}) as r:
        assert r.status_code == 200
        text = "".join(r.iter_text())
    events = [block.split("\n") for block in text.strip().split("\n\n")]
    kinds = [e[0].removeprefix("event: ") for e in events]
    assert kinds[0] == "start" and kinds[-1] == "move" and "info" in kinds
    info = json.loads(events[1][1].removeprefix("data: "))
    assert {"depth", "value", "pv", "nodes", "nps", "svg"} <= set(info)
    move = json.loads(events[-1][1].removeprefix("data: "))
    assert move["move"] in list("12346789") and move["source"] == "search"


def test_think_with_a_clock_and_the_solver(client: TestClient) -> None:
    with client.stream("GET", "/api/think", params={
            "game": "connect4", "position": "4455443", "agent": "solver", "clock": "5",
            "increment": "0.1"}) as r:
        text = "".join(r.iter_text())
    assert "event: move" in text
    move = json.loads(text.strip().split("\n\n")[-1].split("\n")[1].removeprefix("data: "))
    assert move["budget"] == round(allocate_time(5, 0.1)[1], 4)  # the library's one rule
    assert move["source"] in ("solver", "book", "search")


@pytest.mark.parametrize(("path", "params", "needle"), [
    ("/api/position", {"game": "nosuchgame"}, "unknown game"),
    ("/api/position", {}, "game: missing"),
    ("/api/position", {"game": "tictactoe", "position": "xxxxxxxxx"}, "X has 9 marks"),
    ("/api/position", {"game": "connect4", "position": "44444444"}, "7th stone"),
    ("/api/position", {"game": "tictactoe", "moves": "5 5"}, "illegal move '5'"),
    ("/api/position", {"game": "tictactoe", "moves": "1 4 2 5 3 6"}, "already over"),
    ("/api/position", {"game": "chess", "position": "not a fen"}, "chess position"),
    ("/api/position", {"game": "tictactoe", "position": "x" * 5000}, "at most 4000"),
    ("/api/position", {"game": "tictactoe", "moves": "1\x00"}, "control characters"),
    ("/api/analyze", {"game": "tictactoe", "time": "-1"}, "positive number"),
    ("/api/analyze", {"game": "tictactoe", "time": "nan"}, "positive number"),
    ("/api/analyze", {"game": "tictactoe", "time": "inf"}, "positive number"),
    ("/api/analyze", {"game": "tictactoe", "time": "1e9"}, "at most 10 s"),
    ("/api/analyze", {"game": "tictactoe", "time": "1e20"}, "at most 10 s"),  # not "positive"
    ("/api/think", {"game": "tictactoe", "agent": "minimax", "time": "1e20"}, "at most 10 s"),
    ("/api/analyze", {"game": "tictactoe", "time": "soon"}, "positive number"),
    ("/api/analyze", {"game": "tictactoe", "nodes": "0"}, "whole number"),
    ("/api/analyze", {"game": "tictactoe", "nodes": "999999999999"}, "at most"),
    ("/api/analyze", {"game": "tictactoe", "depth": "1000"}, "at most 100"),
    ("/api/analyze", {"game": "tictactoe", "time": "1", "depth": "2"}, "at most one"),
    ("/api/analyze", {"game": "tictactoe", "algorithm": "nosuch"}, "unknown algorithm"),
    ("/api/analyze", {"game": "tictactoe", "algorithm": "id:time=99"}, "at most 10 s"),
    ("/api/analyze", {"game": "tictactoe", "algorithm": "id:tt=1G"}, "tt at most"),
    ("/api/analyze", {"game": "tictactoe", "algorithm": "id:bogus=1"}, "unknown option"),
    ("/api/analyze", {"game": "tictactoe", "algorithm": "__import__('os')"}, "unknown"),
    ("/api/analyze", {"game": "connect4", "book": "/etc/passwd"}, "only book=off"),
    ("/api/analyze", {"game": "fig6.4", "algorithm": "alphabeta"}, "two-player"),
    ("/api/solve", {"game": "tictactoe", "position": "xxx"}, "expected nine"),
    ("/api/think", {"game": "tictactoe", "agent": "nosuch"}, "unknown agent"),
    ("/api/think", {"game": "tictactoe", "agent": "human"}, "clicking"),
    ("/api/think", {"game": "tictactoe", "agent": "solver:time=60"}, "at most 10 s"),
    ("/api/think", {"game": "tictactoe", "agent": "minimax", "time": "0"}, "positive"),
    ("/api/think", {"game": "tictactoe", "moves": "1 4 2 5 3"}, "game is over"),
    ("/api/think", {"game": "pig", "moves": "roll"}, "chance node"),
    ("/api/learn", {"tree": "nosuch"}, "unknown example tree"),
    ("/api/learn", {"tree": "random", "branching": "9", "depth": "9"}, "between 1 and 6"),
    ("/api/learn", {"tree": "random", "branching": "5", "depth": "5"}, "at most 400"),
    ("/api/learn", {"tree": "fig6.2", "ordering": "sideways"}, "ordering"),
    ("/api/learn", {"tree": "fig6.2", "algorithm": "eval"}, "algorithm"),
    ("/api/learn", {"tree": "fig6.4", "algorithm": "alphabeta"}, "two-player"),
    ("/api/tournaments/t.sqlite/x", {}, "tid"),
])
def test_bad_input_is_400_with_one_line(client: TestClient, path: str,
                                        params: dict[str, str], needle: str) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 400, (r.status_code, r.text)
    error = r.json()["error"]
    assert needle in error and "\n" not in error and "Traceback" not in error


def test_learn_fig62_alphabeta(client: TestClient) -> None:
    data = client.get("/api/learn", params={"tree": "fig6.2", "algorithm": "alphabeta"}).json()
    assert data["value"] == "3" and data["move"] == "a1" and data["pruned"] == ["c2", "c3"]
    kinds = {s["type"] for s in data["steps"]}
    assert kinds == {"visit", "leaf", "backup", "done", "prune"}
    visit_c = next(s for s in data["steps"] if s["type"] == "visit" and s["node"] == "C")
    assert (visit_c["alpha"], visit_c["beta"]) == ("3", "+∞")


def test_learn_other_algorithms_and_orderings(client: TestClient) -> None:
    for tree, algorithm, value in (("fig6.4", "maxn", "(1, 2, 6)"), ("coinflip",
                                   "expectiminimax", "3"), ("comp3200", "minimax", "7")):
        data = client.get("/api/learn", params={"tree": tree, "algorithm": algorithm}).json()
        assert data["value"] == value and data["pruned"] == []
    nodes = {o: client.get("/api/learn", params={
        "tree": "random", "branching": "3", "depth": "4", "seed": "7", "ordering": o,
    }).json()["nodes"] for o in ("best", "given", "worst")}
    assert nodes["best"] <= nodes["given"] <= nodes["worst"]
    assert client.get("/api/trees").json()["trees"][0]["name"] == "fig6.2"


def test_tournaments_read_only(client: TestClient, results: Path) -> None:
    before = (results / "t.sqlite").read_bytes()
    files = client.get("/api/tournaments").json()["files"]
    assert [f["file"] for f in files] == ["t.sqlite"]
    t = files[0]["tournaments"][0]
    assert t["games"] == t["scheduled"] == 6
    data = client.get(f"/api/tournaments/t.sqlite/{t['id']}").json()
    assert data["standings"][0]["agent"] == "alphabeta:depth=2"
    assert data["plot"].startswith("<svg") and len(data["table"]) == 3
    assert {"elo", "margin", "elo_text"} <= set(data["standings"][0])
    game = client.get(f"/api/tournaments/t.sqlite/{t['id']}/games/0").json()
    assert game["moves"] and game["game"] == "tictactoe"
    with client.stream("GET", f"/api/tournaments/t.sqlite/{t['id']}/live") as r:
        text = "".join(r.iter_text())
    assert "event: update" in text and "event: end" in text
    assert (results / "t.sqlite").read_bytes() == before


@pytest.mark.parametrize("path", [
    "/api/tournaments/..%2F..%2Fetc%2Fpasswd/1", "/api/tournaments/notes.txt/1",
    "/api/tournaments/t.sqlite/99", "/api/tournaments/t.sqlite/1/games/99",
])
def test_tournament_paths_never_leave_the_library(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert (r.status_code in (400, 404) and "error" in r.json()) or r.status_code == 404


def test_gate_refuses_beyond_the_queue() -> None:
    gate = SearchGate(active=1, queue=1)
    gate.reserve()
    gate.reserve()
    with pytest.raises(Busy):
        gate.reserve()
    assert gate.refused == 1


def test_busy_server_answers_429() -> None:
    app = create_app(active=1, queue=0)
    c = TestClient(app)
    app.state.gate.reserve()  # the only place is taken
    r = c.get("/api/analyze", params={"game": "tictactoe", "time": "0.1"})
    assert r.status_code == 429 and r.headers["retry-after"] == "1"
    app.state.gate.release_reservation()
    assert c.get("/api/analyze", params={"game": "tictactoe", "time": "0.1"}).status_code == 200
    assert c.get("/api/status").json()["refused"] == 1


def test_web_command_warns_off_loopback() -> None:
    from gamesearch.interfaces.web.serve import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    out = io.StringIO()
    assert main(["web", "--db", "/no/such/path"], out) == 2


def test_a_running_tournament_updates_live(tmp_path: Path) -> None:
    """Games written by another connection while the page listens come in as updates."""
    import threading
    import time

    from gamesearch.arena import Store

    config = TournamentConfig("tictactoe", tuple(parse_agents(
        ["alphabeta:depth=2", "random:seed=5"])), games_per_pair=4)
    records = run_tournament(config).records  # in memory; replayed into a file below
    path = tmp_path / "running.sqlite"
    with Store(str(path)) as store:
        tid = store.tournament(config)
        store.add_game(tid, records[0])
    c = TestClient(create_app(tmp_path))

    def writer() -> None:
        with Store(str(path)) as store:
            for r in records[1:]:
                time.sleep(0.4)
                store.add_game(tid, r)

    thread = threading.Thread(target=writer)
    thread.start()
    with c.stream("GET", f"/api/tournaments/running.sqlite/{tid}/live",
                  params={"interval": "0.2", "seconds": "10"}) as r:
        text = "".join(r.iter_text())
    thread.join()
    counts = [json.loads(block.split("\n")[1].removeprefix("data: "))["games"]
              for block in text.strip().split("\n\n") if block.startswith("event: update")]
    assert counts[0] == 1 and counts[-1] == 4 and counts == sorted(counts) and len(counts) >= 3


def test_docs_and_redoc_use_the_servers_own_scripts(client: TestClient) -> None:
    """Item 12: the pages load Swagger UI and ReDoc from this server, not from a CDN."""
    for path, script in (("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc.standalone.js")):
        html = client.get(path).text
        assert f"/static-docs/{script}" in html and "cdn" not in html.lower(), path
        r = client.get(f"/static-docs/{script}")
        assert r.status_code == 200 and len(r.content) > 100_000


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/api/nosuch", 404), ("GET", "/nosuch/page", 404), ("POST", "/api/games", 405),
    ("DELETE", "/api/position", 405), ("GET", "/api/tournaments/t.sqlite/x", 400),
])
def test_unknown_routes_answer_in_the_one_error_shape(client: TestClient, method: str,
                                                      path: str, status: int) -> None:
    r = client.request(method, path)
    assert r.status_code == status
    data = r.json()
    assert set(data) == {"error"} and data["error"] and "\n" not in data["error"]


def test_unsolvable_games_are_refused_before_any_search() -> None:
    """Item 14: /api/solve refuses at once what /api/games marks as not solvable (Pig used
    to search for the whole time cap first); the gate never admits the request."""
    c = TestClient(create_app(caps=Caps(time=0.5)))
    games = c.get("/api/games").json()["games"]
    marked = {g["name"]: g["solvable"] for g in games}
    assert marked["pig"] is False and marked["connect4"] is True
    assert marked["coinflip"] is True  # a textbook tree: its whole tree is searched
    for name, ok in marked.items():
        if ok:
            continue
        for path in ("/api/solve", "/api/scores"):
            r = c.get(path, params={"game": name})
            assert r.status_code == 400 and "solvable" in r.json()["error"], (name, r.text)
    status = c.get("/api/status").json()
    assert status["served"] == 0 and status["running"] == 0


@pytest.mark.parametrize(("params", "needles"), [
    ({"game": "connect4", "position": "4455443x"}, ["start position", "is not a column"]),
    ({"game": "chess", "position": "not a fen"}, ["start position", "chess position"]),
    ({"game": "tictactoe", "agent": ["human", "alphabeta:bogus=1"]},
     ["player 2's agent", "alphabeta:bogus=1", "unknown option"]),
    ({"game": "tictactoe", "agent": ["nosuch", "human"]},
     ["player 1's agent", "nosuch", "unknown"]),
    ({"game": "tictactoe", "agent": ["human", "solver:time=60"]},
     ["player 2's agent", "at most 10 s"]),
    ({"game": "tictactoe", "agent": ["human", "random:seed=x"]}, ["player 2's agent", "random"]),
    ({"game": "tictactoe", "agent": ["human", "human", "human"]}, ["3 agents", "2 players"]),
])
def test_a_new_game_is_checked_before_its_first_move(client: TestClient,
                                                     params: dict[str, object],
                                                     needles: list[str]) -> None:
    """Item 14: a bad start position says what is wrong with it, a bad agent spec is refused
    when the game starts (naming its seat and spec), not after the first move."""
    r = client.get("/api/start", params=params)  # type: ignore[arg-type]
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert all(n in error for n in needles), error


def test_a_good_new_game_is_answered_with_its_seats(client: TestClient) -> None:
    data = client.get("/api/start", params={"game": "connect4", "position": "44",
                                            "agent": ["human"]}).json()
    assert data == {"game": "connect4", "position": "44", "agents": ["human", "solver"],
                    "to_move": 0}


@pytest.mark.parametrize(("fen", "value", "text"), [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 99900, "mate in 1 (White to move)"),
    ("1k6/ppp5/8/8/8/8/8/6K1 w - - 0 1", None, "(White to move)"),
    ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 99900, "mate in 1 (Black to move)"),
])
def test_chess_values_in_words(client: TestClient, fen: str, value: int | None,
                               text: str) -> None:
    """Item 13: a mate is "mate in N" and other values pawns, for the side to move, in
    ``score_text``; ``value`` stays the search's number."""
    data = client.get("/api/analyze", params={"game": "chess", "position": fen,
                                              "depth": "3"}).json()
    if value is not None:
        assert data["value"] == value
    else:  # three pawns down: the number over 100, with its sign
        assert data["score_text"] == f"{data['value'] / 100:+.2f} (White to move)"
        assert data["value"] < -200
    assert data["score_text"].endswith(text)


def test_format_score_reads_the_search_mate_convention() -> None:
    from gamesearch.games import get_game
    from gamesearch.search.common import win_step

    chess = get_game("chess")
    step = win_step(chess.max_utility)
    white = chess.parse_state("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    black = chess.parse_state("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    m = chess.max_utility
    assert chess.format_score(white, m - 3 * step) == "mate in 2 (White to move)"
    assert chess.format_score(black, -(m - 2 * step)) == "mated in 1 (Black to move)"
    assert chess.format_score(black, -(m - 4 * step)) == "mated in 2 (Black to move)"
    assert chess.format_score(white, 35) == "+0.35 (White to move)"
    assert chess.format_score(white, -120.0) == "-1.20 (White to move)"
    ttt = get_game("tictactoe")  # the default: the plain number
    assert ttt.format_score(ttt.initial_state(), 0.0) == "0"
    assert ttt.format_score(ttt.initial_state(), 0.991) == "0.991"


def test_think_reports_values_in_words(client: TestClient) -> None:
    with client.stream("GET", "/api/think", params={
            "game": "chess", "position": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "agent": "id:depth=3"}) as r:
        text = "".join(r.iter_text())
    events = [block.split("\n") for block in text.strip().split("\n\n")]
    infos = [json.loads(e[1].removeprefix("data: ")) for e in events if e[0] == "event: info"]
    move = json.loads(events[-1][1].removeprefix("data: "))
    assert move["move"] == "a1a8" and move["value"] == 99900
    assert move["score_text"] == "mate in 1 (White to move)"
    assert infos and all("score_text" in i for i in infos)


def _reference_scores(game_name: str, position: str) -> dict[str, int | None]:
    """Each move's score as minus the compiled solver's cold solve of the position after
    it (``None`` for a move that ends the game)."""
    from gamesearch.games import get_game

    g = get_game(game_name)
    fast = g.fast_solver()
    assert fast is not None
    s = g.parse_state(position)
    out: dict[str, int | None] = {}
    for a in g.actions(s):
        child = g.result(s, a)
        out[g.format_action(s, a)] = None if g.is_terminal(child) else -int(
            fast.solve(child)["value"])
    return out


def test_scores_use_the_solve_time_not_a_node_cap(client: TestClient) -> None:
    """Item 13: at ply 12 off the book's lines every column gets its exact score (the old
    1.4 M-node cap per move left most of them "?"), equal to a cold solve of each child."""
    pytest.importorskip("numba")
    position = "367251311165"
    data = client.get("/api/scores", params={"game": "connect4", "position": position}).json()
    got = {s["move"]: s["score"] for s in data["scores"]}
    assert None not in got.values(), data
    assert got == _reference_scores("connect4", position)
    assert {s["source"] for s in data["scores"]} == {"solver"}


def test_scores_one_ply_over_the_book() -> None:
    """A move off the book's stored positions whose every reply the book holds exactly is
    scored from the book (0 nodes), and the score is the solver's."""
    pytest.importorskip("numba")
    from gamesearch.games import get_game
    from gamesearch.interfaces.analysis import move_scores

    g = get_game("connect4")
    position = "444667454462"
    s = g.parse_state(position)
    book = g.opening_book(None)
    assert book is not None
    child = g.result(s, g.parse_action(s, "5"))
    entry = book.lookup(child)
    assert entry is None or not entry.exact  # not in the book itself
    items = {i["move"]: i for i in move_scores(g, s, fast=g.fast_solver(), book="on",
                                               limit=Limit(time=20.0))}
    assert items["5"]["source"] == "book" and items["5"]["nodes"] == 0
    ref = _reference_scores("connect4", position)
    assert {m: i["score"] for m, i in items.items()} == ref


def test_scores_agree_with_the_python_solver_and_the_book_sign() -> None:
    from gamesearch.games import get_game
    from gamesearch.interfaces.analysis import move_scores
    from gamesearch.search.solve import solve

    g = get_game("connect4")
    s = g.parse_state("42674462356776314661")  # ply 20: column 5 wins at once
    items = move_scores(g, s, fast=g.fast_solver(), book="on", limit=Limit(time=10.0))
    for a, item in zip(g.actions(s), items, strict=True):
        child = g.result(s, a)
        if g.is_terminal(child):
            assert item["source"] == "end" and item["score"] == g.exact_score(
                s, g.max_utility - g.max_utility / 1000)
        else:
            assert item["score"] == -solve(g, child).value
    # the empty board: the book's exact scores, Pons's -2 -1 0 1 0 -1 -2 (Allis (1988): only
    # the centre wins), in a tiny budget
    empty = move_scores(g, g.initial_state(), fast=g.fast_solver(), book="on",
                        limit=Limit(time=0.05))
    assert [(i["score"], i["source"]) for i in empty] == [
        (-2, "book"), (-1, "book"), (0, "book"), (1, "book"), (0, "book"), (-1, "book"),
        (-2, "book")]


def test_scores_fall_back_on_a_weak_entrys_sign(tmp_path: Path) -> None:
    """Where the book has only a position's sign, what is known at once is win/draw/loss."""
    from gamesearch.games import get_game
    from gamesearch.games.connect4.book import OpeningBook, canonical
    from gamesearch.interfaces.analysis import move_scores
    from gamesearch.search.solve import solve

    g = get_game("connect4")
    s = g.parse_state("122435527534575161761")  # Test_L2_R1: wins, a draw and losses
    entries, truth = {}, []
    for a in g.actions(s):
        child = g.result(s, a)
        assert not g.is_terminal(child)
        score = int(solve(g, child).value)
        truth.append("win" if score < 0 else "loss" if score > 0 else "draw")  # the mover's
        key, _ = canonical(child)
        entries[key] = ((score > 0) - (score < 0), g.actions(child)[0], False)
    OpeningBook.from_entries(entries).save(tmp_path / "weak.bin")
    items = move_scores(g, s, book=str(tmp_path / "weak.bin"), solve=False)
    assert [i["result"] for i in items] == truth
    assert all(i["score"] is None for i in items)
