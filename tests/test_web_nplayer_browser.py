"""The web app with three seats, in a real browser (Debian's Chromium driven by Playwright,
as ``tests/test_web_browser.py``): the play page seats a person and two agents, shows max^n's
value for every player and every seat's rank at the end, and changes the number of seats;
the tournaments page shows the n-player standings. The game is ``tests/nplayer_game.py``'s
race, installed for the server as an entry point (as a package would declare it)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament  # noqa: E402
from gamesearch.games import GAMES, register  # noqa: E402
from web_server import skip_without_browser, web_server  # noqa: E402

skip_without_browser()

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("site")
    info = site / "race_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gamesearch.games]\nrace = nplayer_game:Race\n")
    folder = tmp_path_factory.mktemp("results")
    register("race", "nplayer_game:Race", "an n-player race (tests)")
    try:
        config = TournamentConfig("race", tuple(parse_agents(
            ["maxn:depth=2", "paranoid:depth=2", "rnd=random:seed=1", "mcts:iterations=20"])),
            games_per_pair=3)
        run_tournament(config, RunOptions(db=str(folder / "race.sqlite")))
    finally:
        GAMES.pop("race", None)
    with web_server(folder, {"PYTHONPATH": os.pathsep.join([str(site), str(TESTS)])}) as (
            base, _proc):
        yield base


def wait_turn(page: Any) -> str:
    page.wait_for_function(
        "() => /human\\) to move|game over/.test(document.querySelector('#status').textContent)",
        timeout=30_000)
    return str(page.text_content("#status"))


def test_a_three_seat_game_with_a_person_and_two_agents(server: str, page: Any) -> None:
    """Mutation caught: ``fmtValue`` printing a vector as one number (no ``P3``)."""
    page.goto(f"{server}/play?game=race:players=3&agent=human&agent=maxn:depth=2"
              "&agent=paranoid:depth=2")
    wait_turn(page)
    assert page.locator(".agent").count() == 3
    assert page.input_value("#seats") == "3"
    values = page.eval_on_selector_all(".agent", "els => els.map(e => e.value)")
    assert values == ["human", "maxn:depth=2", "paranoid:depth=2"]
    page.evaluate("""() => { window.engineLines = [];  // every text the panel showed
        new MutationObserver((records) => { for (const m of records) for (const n of
            m.addedNodes) window.engineLines.push(n.textContent); }).observe(
            document.querySelector('#engine'), {childList: true, subtree: true}); }""")
    for _ in range(40):
        status = wait_turn(page)
        if "game over" in status:
            break
        before = page.locator("#movelist [data-ply]").count()
        page.click('#board [data-move="2"]')  # the person runs
        page.wait_for_function(
            "(n) => document.querySelectorAll('#movelist [data-ply]').length > n",
            arg=before, timeout=30_000)
    status = wait_turn(page)
    lines = page.evaluate("() => window.engineLines")
    saw_vector = any(re.search(r"maxn:depth=2 played .*P1 -?\d.* · P2 .* · P3 ", t)
                     for t in lines)
    assert status.startswith("game over: 1. player"), status
    assert status.count("player ") == 3  # every seat's rank
    assert saw_vector, [t for t in lines if "maxn:depth=2 played" in t]


def test_the_seats_control_reseats_the_game(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=race&agent=maxn:depth=1&agent=random&agent=random")
    page.wait_for_function("() => /game over/.test(document.querySelector('#status')"
                           ".textContent)", timeout=30_000)
    page.select_option("#seats", "5")
    page.wait_for_function("() => document.querySelectorAll('.agent').length === 5 && "
                           "/players=5/.test(decodeURIComponent(location.search))", timeout=30_000)
    assert page.input_value("#game") == "race:players=5"
    assert page.eval_on_selector_all(".agent", "els => els.map(e => e.value)")[:3] == [
        "maxn:depth=1", "random", "random"]


def test_the_tournaments_page_shows_n_player_standings(server: str, page: Any) -> None:
    """Mutation caught: ``standings(agents, records)`` without the seats (two-seat rows: no
    mean score, no rating)."""
    page.goto(f"{server}/tournaments?file=race.sqlite&id=1")
    page.wait_for_selector("#standings tr.standing")
    head = page.text_content("#standings tr") or ""
    for column in ("1st", "mean rank", "score (95 %)", "seat 1", "seat 3", "rating (95 %)"):
        assert column in head, head
    assert page.locator("#standings tr.standing").count() == 4
    cells = page.locator("#standings tr.standing").first.locator("td").all_text_contents()
    assert len(cells) == 6 + 3 + 4 and "n/a" not in cells, cells  # seats 1-3 all filled
    assert re.fullmatch(r"\d+\.\d ± \d+\.\d", cells[9]), cells  # rating ± 95 %
    assert "12 of 12 games" in (page.text_content("#head") or "")
    first = page.locator("#games tr").nth(1).text_content() or ""
    assert re.search(r"\d-\d-\d", first), first  # the ranks of the three seats
