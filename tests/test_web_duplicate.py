"""The web app's view of a duplicate bridge tournament (issue 22): the JSON API and the
Tournaments page in a real browser (Debian's Chromium driven by Playwright, as
``tests/test_web_browser.py``) show what the command line shows -- each pair's IMPs, total
and per board with the 95 % interval, the head to head, every board's two tables -- and no
per-game win table or Elo plot; a table's replay is played on its board's deal.

The store is made here: three random pairs, two boards (12 tables of 52 cards, a second or
two). The IMPs are recomputed from the stored returns with the Laws' table
(``tests/data/bridge/imp_scale.tsv``), not with the library's scale. Each test names the
mutation (a line broken by hand) it was seen to catch.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from cli_runner import cli
from gamesearch.arena import (
    RunOptions,
    TournamentConfig,
    parse_agents,
    run_tournament,
)
from gamesearch.arena.schedule import load_game
from gamesearch.interfaces.web import create_app

TESTS = Path(__file__).resolve().parent
GAME = "bridge:contract=3N,declarer=S"
AGENTS = ["r1=random:seed=1", "r2=random:seed=2", "r3=random:seed=3"]
BOARDS = 2
SEED = 5


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("duplicate")
    config = TournamentConfig(GAME, tuple(parse_agents(AGENTS)), games_per_pair=2 * BOARDS,
                              seed=SEED, duplicate=True)
    run_tournament(config, RunOptions(db=str(folder / "dup.sqlite")))
    return folder


@pytest.fixture(scope="module")
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder))


def law_imps(diff: float) -> int:
    """The IMPs of a difference by the Laws' table in tests/data (Law 78B)."""
    for line in (TESTS / "data" / "bridge" / "imp_scale.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            low, high, points = (int(x) for x in line.split())
            if low <= abs(diff) <= high:
                return points if diff >= 0 else -points
    raise AssertionError(diff)


def expected(records: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Each agent's IMPs per board, from the stored tables: ``(pair, board)``'s two tables;
    the North-South agent of table 0 is the first, its score there (seat 0's return) plus
    its score as East-West at table 1 (seat 1's) is the board's difference."""
    tables = {(r["pair"], r["game_no"]): r for r in records}
    out: dict[str, list[int]] = {}
    for (pair, game_no), t0 in sorted(tables.items()):
        if game_no % 2:
            continue
        t1 = tables[(pair, game_no + 1)]
        first, second = t0["agents"][0], t0["agents"][1]
        assert t0["agents"] == [first, second] * 2 and t1["agents"] == [second, first] * 2
        assert t0["teams"] == [first, second] and t1["teams"] == [second, first]
        assert t0["team_returns"] == t0["returns"][:2]
        diff = t0["returns"][0] + t1["returns"][1]
        out.setdefault(first, []).append(law_imps(diff))
        out.setdefault(second, []).append(-law_imps(diff))
    return out


def test_the_api_shows_a_duplicate_tournament_in_imps(client: TestClient) -> None:
    """The IMPs of every pair (total, mean, 95 % margin, boards won), the head to head and
    the boards, recomputed from the stored returns; no win table, no Elo plot; and the same
    figures as ``gamesearch tournament --duplicate --json``. Mutation caught: the
    ``_duplicate_config`` branch of ``Library.tournament`` dropped (the per-game win table
    comes back, no ``duplicate``); ``t0 + t1`` as ``t0 - t1`` in ``board_results``."""
    t = client.get("/api/tournaments").json()["files"][0]["tournaments"][0]
    assert t["games"] == t["scheduled"] == 3 * 2 * BOARDS
    data = client.get(f"/api/tournaments/dup.sqlite/{t['id']}").json()
    dup = data["duplicate"]
    assert dup is not None and dup["unit"] == "IMPs" and dup["boards"] == BOARDS
    assert data["standings"] == [] and data["table"] == [] and data["plot"] == ""
    imps = expected(data["records"])
    assert sorted(imps) == ["r1", "r2", "r3"]
    assert any(x for v in imps.values() for x in v)  # (random play: some board not a push)
    for p in dup["pairs"]:
        mine = imps[p["agent"]]
        assert p["boards"] == len(mine) == 2 * BOARDS and p["unscored"] == 0
        assert p["total"] == sum(mine)
        assert p["mean"] == pytest.approx(statistics.mean(mine))
        assert p["margin"] == pytest.approx(1.96 * statistics.stdev(mine) / math.sqrt(len(mine)))
        assert p["boards_won"] == sum(x > 0 for x in mine)
    means = [p["mean"] for p in dup["pairs"]]
    assert means == sorted(means, reverse=True)  # best first
    assert [(h["first"], h["second"]) for h in dup["head_to_head"]] == [
        ("r1", "r2"), ("r1", "r3"), ("r2", "r3")]
    boards = dup["board_results"]
    assert len(boards) == 3 * BOARDS and all(b["points"] == law_imps(b["difference"])
                                             for b in boards)
    for h in dup["head_to_head"]:
        mine = [b["points"] for b in boards if (b["first"], b["second"]) == (h["first"],
                                                                             h["second"])]
        assert h["boards"] == BOARDS and h["total"] == pytest.approx(sum(mine))
    assert {(r["board"], r["table"]) for r in data["records"]} == {
        (b, t) for b in range(BOARDS) for t in (0, 1)}
    code, out, err = cli(["tournament", GAME, "--agents", *AGENTS, "--duplicate", "--boards",
                          str(BOARDS), "--seed", str(SEED), "--json", "--quiet"])
    assert code == 0, err
    shown = json.loads(out)
    assert shown["pairs"] == dup["pairs"] and shown["head_to_head"] == dup["head_to_head"]
    # (each board's two tables' outcomes too: contract, declarer, tricks, score)
    assert shown["board_results"] == boards
    assert all(len(b["outcomes"]) == 2 for b in boards)


def test_a_duplicate_table_replays_on_its_boards_deal(client: TestClient) -> None:
    """The game of a stored table is the tournament's (no ``deal=``: the deal is chance's,
    drawn from the board's seed, the table's first 52 moves): its moves replay legally to
    the stored returns, and both tables of a board hold one deal."""
    records = client.get("/api/tournaments/dup.sqlite/1").json()["records"]
    deals = {}
    for r in records:
        g = client.get(f"/api/tournaments/dup.sqlite/1/games/{r['index']}").json()
        assert "deal=" not in g["game"]
        game = load_game(g["game"])
        state = game.initial_state()
        for move in g["moves"]:
            state = game.play(state, move)
        assert game.is_terminal(state) and list(game.returns(state)) == g["returns"]
        deals.setdefault((r["pair"], r["board"]), set()).add(" ".join(g["moves"][:52]))
        pos = client.get("/api/position", params={"game": g["game"],
                                                  "moves": " ".join(g["moves"][:5])})
        assert pos.status_code == 200, pos.text
    assert all(len(d) == 1 for d in deals.values())
    boards = {next(iter(d)) for (_, b), d in deals.items() if b == 0}
    assert len(boards) == 1  # (every pair of agents plays the same board 1)


def referee_tricks(cards: list[str], declarer: int) -> int:
    """The declaring side's tricks in no trump (cards as ``D6``: suit, rank): the highest
    card of the suit led wins; the declarer's left-hand opponent leads first."""
    leader, won = (declarer + 1) % 4, 0
    for first in range(0, len(cards), 4):
        trick = cards[first:first + 4]
        best = max(range(4), key=lambda k: (trick[k][0] == trick[0][0],
                                            "23456789TJQKA".index(trick[k][1])))
        leader = (leader + best) % 4
        won += leader % 2 == declarer % 2
    return won


def test_each_table_ends_on_its_contract_score_and_the_boards_imps(client: TestClient
                                                                  ) -> None:
    """Every table in the list and in its replay says how it ended as a bridge reader
    expects -- 3NT by South, the tricks (counted again here from the cards), the score to
    the side that earned it (endplay's, the referee's) -- and each team's IMPs on the
    board (the Laws' table on the two tables' scores); the replay gives no ranks and no
    rank-style result. Mutations caught: ``result=view["outcome"]["text"]`` dropped in
    ``Library.game`` (the replay's result is the ranks ``1-3-1-3``); ``0.0 - points`` as
    ``points`` in ``table_views``."""
    endplay = pytest.importorskip("endplay.types", reason="ENDPLAY NOT INSTALLED: the "
                                  "referee of the contract scores (pip install endplay)")
    data = client.get("/api/tournaments/dup.sqlite/1").json()
    assert data["duplicate"]["team_names"] == ["N-S", "E-W"]
    records = data["records"]
    tables = {(r["pair"], r["game_no"]): r for r in records}
    for r in records:
        g = client.get(f"/api/tournaments/dup.sqlite/1/games/{r['index']}").json()
        view = g["duplicate"]
        assert view is not None and "ranks" not in g and "ranks" not in r
        tricks = referee_tricks(g["moves"][52:], 2)  # (after the deal)
        score = int(endplay.Contract(
            level=3, denom=endplay.Denom.nt, declarer=endplay.Player.south,
            penalty=endplay.Penalty.passed, result=tricks - 9).score(endplay.Vul.none))
        over = "=" if tricks == 9 else f"{tricks - 9:+d}"
        text = (f"3NT by South, {tricks} tricks ({over}), "
                f"{'N-S' if score > 0 else 'E-W'} +{abs(score)}")
        assert view["outcome"] == r["outcome"] == {
            "text": text, "contract": "3NT", "declarer": "S", "tricks": tricks,
            "score": score}
        assert g["result"] == r["result"] == text
        other = tables[(r["pair"], r["game_no"] ^ 1)]
        imps = law_imps(r["returns"][0] + other["returns"][1])  # (this N-S agent's)
        assert [(t["name"], t["agent"], t["score"], t["points"]) for t in view["teams"]] == [
            ("N-S", r["teams"][0], score, imps), ("E-W", r["teams"][1], -score, -imps)]
        assert r["team_points"] == [imps, -imps]
        assert (view["board"], view["table"]) == (r["board"], r["table"])
        assert view["board_game"] == g["game"]


# -- the page, in a browser ------------------------------------------------------------


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    pytest.importorskip("playwright.sync_api")
    from web_server import skip_without_browser, web_server

    skip_without_browser()
    with web_server(folder) as (base, _proc):
        yield base


def test_the_tournaments_page_shows_duplicate_standings(server: str, page: Any,
                                                       client: TestClient) -> None:
    """The page's tables are the API's IMPs: each pair's total and ``mean ± margin`` per
    board, the head to head, every board; no Elo plot; the games list names board and
    table with its outcome (contract, tricks, score) and the board's IMPs, the boards list
    each table's outcome, and a table's replay draws its deal to the end and ends on its
    outcome and each team's IMPs (no ranks). Mutations caught: ``perBoard`` without its
    margin (no ``±``); the ``dup ?`` branch of ``show`` dropped (the win table's W/D/L
    columns); ``v ? ... tableResult(v)`` as the ranks' ``r.g.result`` in ``step``."""
    dup = client.get("/api/tournaments/dup.sqlite/1").json()["duplicate"]
    page.goto(f"{server}/tournaments?file=dup.sqlite&id=1")
    page.wait_for_selector("#standings tr.standing")
    head = page.text_content("#standings tr") or ""
    for column in ("pair", "boards", "IMPs total", "IMPs/board (95 %)", "boards won"):
        assert column in head, head
    assert "W" not in head.split() and "Elo" not in head
    rows = page.locator("#standings tr.standing")
    assert rows.count() == 3
    for k, p in enumerate(dup["pairs"]):
        cells = rows.nth(k).locator("td").all_text_contents()
        assert cells[1] == p["agent"] and cells[2] == str(p["boards"])
        assert int(cells[3]) == p["total"], cells
        m = re.fullmatch(r"([+-]\d+\.\d\d) ± (\d+\.\d\d)", cells[4])
        assert m, cells
        assert float(m.group(1)) == pytest.approx(p["mean"], abs=0.006)
        assert float(m.group(2)) == pytest.approx(p["margin"], abs=0.006)
    assert page.locator("#pairs tr.h2h").count() == 3
    assert "first pair's IMPs per board" in (page.text_content("#pairs-title") or "")
    assert page.locator("#boards tr.board").count() == 3 * BOARDS
    assert page.is_hidden("#plot")
    assert "2 boards, each at two tables" in (page.text_content("#head") or "")
    games_head = page.text_content("#games tr") or ""
    assert "board" in games_head and "outcome" in games_head and "IMPs" in games_head
    assert page.text_content("#games-title") == "Tables"
    records = client.get("/api/tournaments/dup.sqlite/1").json()["records"]
    second = page.locator("#games tr").nth(2).locator("td").all_text_contents()
    r = records[1]  # board 1 at table 2: the pairs turned
    assert second[1:5] == ["1", "2", r["teams"][0], r["teams"][1]], second
    assert second[5] == r["outcome"]["text"], second  # (3NT by South, ...; no ranks)
    assert int(second[6]) == r["team_points"][0], second
    board = page.locator("#boards tr.board").first.locator("td").all_text_contents()
    assert board[3] == records[0]["outcome"]["text"] and board[5] == r["outcome"]["text"]
    page.click("#games .replay >> nth=1")
    page.wait_for_selector("#r-board svg")
    page.click("#r-last")
    page.wait_for_function(  # (the deal's 52 chance moves, then the play's 52)
        "() => /ply 104 of 104/.test(document.querySelector('#r-info').textContent)",
        timeout=30_000)
    info = page.text_content("#r-info") or ""
    ns, ew = r["team_points"]
    svg = page.inner_html("#r-board")
    assert "#34495e" not in svg  # (a finished table is drawn whole: no card face down)
    assert info == (f"board 1, table 2: {r['teams'][0]} N-S vs {r['teams'][1]} E-W, ply 104 "
                    f"of 104 — {r['outcome']['text']}; board 1: {r['teams'][0]} (N-S) "
                    f"{ns:+.0f}, {r['teams'][1]} (E-W) {ew:+.0f} IMPs"), info


def test_concurrent_reads_of_a_tournament_whose_contracts_come_from_dds(
        tmp_path: Path) -> None:
    """The page reads a tournament twice at once (its first request and the live updates'
    first), and without a contract in the spec each board's contract comes from DDS's
    table: DDS (endplay) is not safe to call from two threads at once and crashed the
    server. Four reads at once of three boards, in the real server: every read answers
    with the same outcomes, and the server lives. Mutation caught: the ``_DDS_LOCK`` of
    ``bridge/rules.py: _dds_table`` dropped (the server died: connection refused)."""
    pytest.importorskip("endplay.dds", reason="ENDPLAY NOT INSTALLED: no DDS to call")
    from concurrent.futures import ThreadPoolExecutor
    from urllib.request import urlopen

    from web_server import web_server

    config = TournamentConfig("bridge", tuple(parse_agents(AGENTS[:2])), games_per_pair=6,
                              seed=SEED, duplicate=True)
    run_tournament(config, RunOptions(db=str(tmp_path / "dds.sqlite")))
    with web_server(tmp_path) as (base, proc):
        def read(_: int) -> list[Any]:
            with urlopen(f"{base}/api/tournaments/dds.sqlite/1", timeout=120) as answer:
                return [r["outcome"] for r in json.loads(answer.read())["records"]]

        with ThreadPoolExecutor(4) as pool:
            seen = list(pool.map(read, range(4)))
        assert proc.poll() is None
    assert len(seen[0]) == 6 and all(s == seen[0] for s in seen)
    assert all(o["contract"] and o["declarer"] in "NESW" for o in seen[0])
