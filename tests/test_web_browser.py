"""The web app in a real browser: Debian's Chromium driven by Playwright (``make test``
installs it; Playwright's own browser download is not used)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament  # noqa: E402
from gamesearch.games import get_game  # noqa: E402
from gamesearch.search import Limit, search  # noqa: E402
from web_server import CHROMIUM, CHROMIUM_ARGS, web_server  # noqa: E402

if not os.path.exists(CHROMIUM):  # pragma: no cover - make test installs it
    pytest.skip(f"SKIPPED LOUDLY: no browser at {CHROMIUM}; install Debian's chromium "
                "(apt-get install chromium, as `make test` does) to run the browser tests",
                allow_module_level=True)

SHOTS = Path(os.environ.get("GAMESEARCH_SHOTS", "")) if os.environ.get("GAMESEARCH_SHOTS") else None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("results")
    config = TournamentConfig("tictactoe", tuple(parse_agents(
        ["perfect=alphabeta", "random:seed=3", "shallow=minimax:depth=1"])), games_per_pair=2)
    run_tournament(config, RunOptions(db=str(folder / "browser.sqlite")))
    with web_server(folder) as (base, _proc):
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def wait_turn(page: Any) -> str:
    page.wait_for_function(
        "() => /human\\) to move|game over/.test(document.querySelector('#status').textContent)",
        timeout=30_000)
    return str(page.text_content("#status"))


def moves_played(page: Any) -> int:
    return len(str(page.text_content("#movelist")).removeprefix("moves:").split())


def wait_reply(page: Any, before: int) -> None:
    """After a click: the person's move and the engine's reply (or the end) are in."""
    page.wait_for_function(
        "(n) => document.querySelector('#movelist').textContent.replace('moves:', '')"
        ".trim().split(/\\s+/).filter(Boolean).length >= n || "
        "/game over/.test(document.querySelector('#status').textContent)", arg=before + 2,
        timeout=30_000)


def test_tictactoe_to_a_draw_against_minimax(server: str, page: Any) -> None:
    game = get_game("tictactoe")
    page.goto(f"{server}/play?game=tictactoe&agent=human&agent=minimax")
    for _ in range(5):
        status = wait_turn(page)
        if "game over" in status:
            break
        state = game.parse_state(page.input_value("#position"))
        best = search(game, state, "alphabeta", Limit()).action  # perfect play for X
        before = moves_played(page)
        page.click(f'#board [data-move="{game.format_action(state, best)}"]')
        wait_reply(page, before)
    status = wait_turn(page)
    shot(page, "play_tictactoe")
    assert status == "game over: draw"
    assert page.locator("#iterations tbody tr").count() >= 1  # minimax's last iterations


def test_connect4_against_the_solver_with_scores(server: str, page: Any) -> None:
    # 7 stones (column 4 full): the second player, the human, to move; the book knows it
    page.goto(f"{server}/play?game=connect4&position=4444443&agent=solver&agent=human")
    page.check("#scores")
    for rnd in range(2):
        wait_turn(page)
        legal = page.locator("#board [data-move]").count()
        page.wait_for_function(f"() => document.querySelectorAll('#board text.label').length"
                               f" == {legal}", timeout=30_000)
        labels = page.locator("#board text.label")
        scores = {str(labels.nth(i).get_attribute("data-col")): labels.nth(i).text_content()
                  for i in range(labels.count())}
        numeric = {c: int(t) for c, t in scores.items() if t and t.lstrip("-").isdigit()}
        if rnd == 0:  # Pons's scores of the six playable columns, from the solver
            assert "4" not in scores and len(scores) == 6
            assert numeric == {"1": -16, "2": -1, "3": -16, "5": -2, "6": -16, "7": -16}
        best = max(numeric, key=lambda c: numeric[c]) if numeric else next(iter(scores))
        shot(page, f"play_connect4_{rnd}")
        before = moves_played(page)
        page.click(f'#board [data-move="{best}"]')
        wait_reply(page, before)
    wait_turn(page)
    assert "solver played" in str(page.text_content("#engine"))


def test_chess_by_two_clicks(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=chess&agent=human&agent=random")
    wait_turn(page)
    page.click('#board [data-square="e2"]')
    assert "selected" in str(page.get_attribute('#board [data-square="e2"]', "class"))
    page.click('#board [data-square="e4"]')
    page.wait_for_function(  # the random agent's reply follows
        "() => /^moves: e2e4 \\S+/.test(document.querySelector('#movelist').textContent)")
    wait_turn(page)
    shot(page, "play_chess")


def test_chess_promotion_queen_by_default_or_chosen(server: str, page: Any) -> None:
    from urllib.parse import quote

    fen = quote("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    page.goto(f"{server}/play?game=chess&agent=human&agent=random&position={fen}")
    wait_turn(page)
    page.click('#board [data-square="a7"]')
    page.click('#board [data-square="a8"]')
    page.wait_for_function("() => /^moves: a7a8q /.test("
                           "document.querySelector('#movelist').textContent)")
    page.click("#undo")
    page.wait_for_function("() => document.querySelector('#movelist').textContent === ''")
    page.check("#choosepromo")
    page.click('#board [data-square="a7"]')
    page.click('#board [data-square="a8"]')
    page.click("#promotion >> text=rook")
    page.wait_for_function("() => /^moves: a7a8r /.test("
                           "document.querySelector('#movelist').textContent)")


def test_nim_by_clicking_a_counter(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=nim&agent=human&agent=alphabeta")
    wait_turn(page)
    page.click('#board [data-move="1-1"]')  # take the last counter of heap 1 (3 4 5 -> 2 4 5)
    page.wait_for_function(
        "() => /^moves: 1-1 \\S+/.test(document.querySelector('#movelist').textContent)")
    wait_turn(page)
    assert page.locator("#board .counter.target").count() >= 1


def test_alphabeta_on_fig62_step_by_step(server: str, page: Any) -> None:
    page.goto(f"{server}/learn?tree=fig6.2&algorithm=alphabeta")
    page.wait_for_function("() => Number(document.querySelector('#steps').textContent) > 0")
    total = int(str(page.text_content("#steps")))
    for k in range(1, total + 1):
        page.click("#forward")
        assert page.text_content("#stepno") == str(k)
        if k == 11:  # C is entered with the window alpha = 3
            assert "α=3" in str(page.text_content('#board [data-node="C"] .ab'))
    final = str(page.text_content("#final"))
    shot(page, "learn_fig62")
    assert "value 3" in final and "pruned: c2, c3" in final
    assert page.text_content('#board [data-node="A"] .val') == "3"
    for leaf in ("a2/c2", "a2/c3"):
        assert "pruned" in str(page.get_attribute(f'#board [data-node="{leaf}"]', "class"))
    page.click("#back")
    assert page.text_content("#final") == ""


def test_tournament_standings(server: str, page: Any) -> None:
    page.goto(f"{server}/tournaments")
    page.click("text=perfect")
    page.wait_for_selector("#standings tr.standing")
    rows = page.locator("#standings tr.standing")
    assert rows.count() == 3
    assert "perfect" in str(rows.nth(0).text_content())
    assert "6" in str(page.text_content("#count"))
    page.click(".replay >> nth=0")
    page.click("#r-last")
    page.wait_for_function("() => /—/.test(document.querySelector('#r-info').textContent)")
    shot(page, "tournaments")


def test_a_bad_position_shows_the_error(server: str, page: Any) -> None:
    page.goto(f"{server}/analyse?game=connect4&position=4455443x")
    page.click("#analyse")
    page.wait_for_selector("#error.show")
    assert "is not a column" in str(page.text_content("#error"))
    page.fill("#position", "4455443")
    page.click("#scores")
    page.wait_for_function("() => document.querySelectorAll('#scorerow td').length == 8",
                           timeout=30_000)
    assert not page.is_visible("#error")
    shot(page, "analyse_connect4")


def test_docs_and_redoc_offline(server: str, browser: Any) -> None:
    """Item 12: with every request outside this server aborted (no internet), /docs lists
    the operations (Swagger UI) and so does /redoc (ReDoc): their scripts come from the
    installed package, not from a CDN."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    outside: list[tuple[str, str]] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(server):
            r.continue_()
        else:
            outside.append((r.request.resource_type, r.request.url))
            r.abort()

    try:
        page.route("**/*", route)
        page.goto(f"{server}/docs")
        page.wait_for_selector(".opblock-summary-path", timeout=30_000)
        paths = page.locator(".opblock-summary-path").all_text_contents()
        assert {"/api/analyze", "/api/solve", "/api/games"} <= {p.strip() for p in paths}
        shot(page, "docs")
        page.goto(f"{server}/redoc")
        page.wait_for_selector("text=search a position", timeout=30_000)
        page.wait_for_function("() => document.body.innerText.includes('/api/solve')",
                               timeout=30_000)
        assert "solve a position exactly" in page.inner_text("body")
        shot(page, "redoc")
    finally:
        page.close()
    # nothing the pages need came from outside (ReDoc's footer asks for its logo image:
    # aborted, and nothing is missing but that picture)
    assert all(kind == "image" for kind, _url in outside), outside


def test_chess_engine_mate_in_words(server: str, page: Any) -> None:
    """Item 13: the engine's line says "mate in 1 (White to move)", not "value 99900"."""
    from urllib.parse import quote

    fen = quote("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    page.goto(f"{server}/play?game=chess&agent=id:depth%3D3&agent=human&position={fen}")
    page.wait_for_function(
        "() => /played/.test(document.querySelector('#engine').textContent)", timeout=30_000)
    engine = str(page.text_content("#engine"))
    assert "a1a8" in engine and "value mate in 1 (White to move)" in engine, engine
    assert "99900" not in engine
