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
from web_server import skip_without_browser, web_server  # noqa: E402

skip_without_browser()

SHOTS = Path(os.environ.get("GAMESEARCH_SHOTS", "")) if os.environ.get("GAMESEARCH_SHOTS") else None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("results")
    config = TournamentConfig("tictactoe", tuple(parse_agents(
        ["perfect=alphabeta", "random:seed=3", "shallow=minimax:depth=1"])), games_per_pair=2)
    run_tournament(config, RunOptions(db=str(folder / "browser.sqlite")))
    with web_server(folder) as (base, _proc):
        yield base


#: ``GAMESEARCH_README_SHOTS=1``: the README's pictures (docs/web_desktop.png,
#: docs/web_phone.png) are written by the tests that make them
README_SHOTS = (Path(__file__).resolve().parents[1] / "docs"
                if os.environ.get("GAMESEARCH_README_SHOTS") else None)


def shot(page: Any, name: str, *, full_page: bool = True, readme: bool = False) -> None:
    """A screenshot into ``$GAMESEARCH_SHOTS`` (and, for the README's, into docs/)."""
    for folder in (SHOTS, README_SHOTS if readme else None):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)


def wait_turn(page: Any) -> str:
    page.wait_for_function(
        "() => /human\\) to move|game over/.test(document.querySelector('#status').textContent)",
        timeout=30_000)
    return str(page.text_content("#status"))


def moves_played(page: Any) -> int:
    return int(page.locator("#movelist [data-ply]").count())


def notations(page: Any) -> list[str]:
    """The moves of the move list in the game's notation (the list shows SAN for chess)."""
    return list(page.eval_on_selector_all("#movelist [data-ply]",
                                          "els => els.map(e => e.dataset.notation)"))


def wait_moves(page: Any, pattern: str) -> None:
    """Until the moves, in the game's notation and joined by spaces, match ``pattern``."""
    page.wait_for_function(
        "(p) => new RegExp(p).test(Array.from(document.querySelectorAll("
        "'#movelist [data-ply]')).map(e => e.dataset.notation).join(' '))", arg=pattern,
        timeout=30_000)


def wait_reply(page: Any, before: int) -> None:
    """After a click: the person's move and the engine's reply (or the end) are in."""
    page.wait_for_function(
        "(n) => document.querySelectorAll('#movelist [data-ply]').length >= n || "
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
    page.goto(f"{server}/play?game=chess&agent=human&agent=id&time=0.5")
    wait_turn(page)
    page.click('#board [data-square="e2"]')
    assert "selected" in str(page.get_attribute('#board [data-square="e2"]', "class"))
    page.click('#board [data-square="e4"]')
    wait_moves(page, "^e2e4 \\S+")  # the engine's reply follows
    wait_turn(page)
    assert str(page.text_content("#movelist [data-ply='1']")) == "e4"  # SAN in the list
    page.click('#board [data-square="g1"]')
    page.click('#board [data-square="f3"]')
    wait_moves(page, "^e2e4 \\S+ g1f3 \\S+")
    wait_turn(page)
    assert str(page.text_content("#movelist [data-ply='3']")) == "Nf3"
    assert page.locator("#iterations tbody tr").count() >= 1
    shot(page, "play_chess")
    shot(page, "web_desktop", readme=True)  # the README's desktop picture


def test_chess_promotion_queen_by_default_or_chosen(server: str, page: Any) -> None:
    from urllib.parse import quote

    fen = quote("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    page.goto(f"{server}/play?game=chess&agent=human&agent=random&position={fen}")
    wait_turn(page)
    page.click('#board [data-square="a7"]')
    page.click('#board [data-square="a8"]')
    wait_moves(page, "^a7a8q ")
    wait_turn(page)
    page.click("#undo")
    page.wait_for_function("() => document.querySelector('#movelist').textContent === ''")
    page.check("#choosepromo")
    page.click('#board [data-square="a7"]')
    page.click('#board [data-square="a8"]')
    page.click("#promotion >> text=rook")
    wait_moves(page, "^a7a8r ")


def test_nim_by_clicking_a_counter(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=nim&agent=human&agent=alphabeta")
    wait_turn(page)
    page.click('#board [data-move="1-1"]')  # take the last counter of heap 1 (3 4 5 -> 2 4 5)
    wait_moves(page, "^1-1 \\S+")
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


def game_now(server: str, page: Any) -> dict[str, Any]:
    """The game the page plays, as the server holds it (the id is in the address bar)."""
    import json
    from urllib.parse import parse_qs, urlparse
    from urllib.request import urlopen

    game_id = parse_qs(urlparse(page.url).query)["id"][0]
    with urlopen(f"{server}/api/play/{game_id}", timeout=10) as r:
        return dict(json.loads(r.read()))


def click_column(page: Any, col: int) -> None:
    """A mouse click on Connect Four's column ``col`` (1-7), wherever the board is drawn
    (also while the engine's thinking has replaced the clickable board)."""
    # read at once in the page: the engine's thinking redraws the board many times a second
    box = page.evaluate("() => { const r = document.querySelector('#board > svg')"
                        ".getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, "
                        "height: r.height}; }")
    # the holes span x 10-430 of the drawing's 440
    x = box["x"] + box["width"] * (10 + 60 * (col - 0.5)) / 440
    page.mouse.click(x, box["y"] + box["height"] * 0.6)


def test_a_double_click_and_clicks_while_the_engine_thinks_play_one_move(
        server: str, page: Any) -> None:
    # issue 20 item 10: the double click used to play column 4 for both players, and the
    # engine never moved. Mutation check: without the page's guard (play() while busy)
    # and the server's ply check (Session.expect) this test fails.
    page.goto(f"{server}/play?game=connect4&agent=human&agent=id&time=2")
    wait_turn(page)
    page.dblclick('#board [data-move="4"]')
    page.wait_for_function("() => /thinking/.test(document.querySelector('#status')"
                           ".textContent)")
    for col in (3, 5, 3):  # during the engine's turn: all ignored
        click_column(page, col)
    assert "thinking" in str(page.text_content("#engine"))  # the clicks came in its turn
    wait_reply(page, 0)
    wait_turn(page)
    g = game_now(server, page)
    assert g["ply"] == 2 and [m["player"] for m in g["moves"]] == [0, 1]
    assert g["moves"][0]["move"] == "4" and "played" in str(page.text_content("#engine"))
    assert page.input_value("#position") == "4" + g["moves"][1]["move"]
    # two quick clicks on two columns: the first is played, then the engine answers
    click_column(page, 1)
    click_column(page, 7)
    wait_reply(page, 2)
    wait_turn(page)
    g = game_now(server, page)
    assert g["ply"] == 4 and [m["player"] for m in g["moves"]] == [0, 1, 0, 1]
    assert g["moves"][2]["move"] == "1"
    assert notations(page) == [m["move"] for m in g["moves"]]


def test_the_address_restores_the_game_and_the_move_list_steps(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=chess&agent=human&agent=human")
    wait_turn(page)
    for a, b in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        before = moves_played(page)
        page.click(f'#board [data-square="{a}"]')
        page.click(f'#board [data-square="{b}"]')
        page.wait_for_function("(n) => document.querySelectorAll('#movelist [data-ply]')"
                               ".length > n", arg=before)
    assert [page.text_content(f"#movelist [data-ply='{k}']") for k in (1, 2, 3)] == [
        "e4", "e5", "Nf3"]
    url = page.url
    assert "id=" in url and "game=chess" in url and url.count("agent=human") == 2
    page.goto(url)  # a reload: the same game
    page.wait_for_selector("#movelist [data-ply='3']")
    assert notations(page) == ["e2e4", "e7e5", "g1f3"]
    fen_now = page.input_value("#position")
    page.keyboard.press("ArrowLeft")  # one move back: the position after 1...e5
    page.wait_for_function("(f) => document.querySelector('#position').value !== f",
                           arg=fen_now)
    assert page.input_value("#position").startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/")
    assert "current" in str(page.get_attribute("#movelist [data-ply='2']", "class"))
    page.click('#board [data-square="b1"]')  # the board is inert back there
    assert "selected" not in str(page.get_attribute('#board [data-square="b1"]', "class"))
    page.click("#movelist [data-ply='1']")
    page.wait_for_function("() => document.querySelector('#position').value"
                           ".startsWith('rnbqkbnr/pppppppp/8/8/4P3/')")
    page.keyboard.press("End")
    page.wait_for_function("(f) => document.querySelector('#position').value === f",
                           arg=fen_now)


def test_a_bad_start_or_agent_is_refused_at_once_and_clears_the_board(
        server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=connect4&agent=human&agent=solver")
    wait_turn(page)
    assert page.locator("#board svg").count() == 1
    page.fill("#start", "44444444")
    page.click("#new")
    page.wait_for_selector("#error.show")
    assert "7th stone" in str(page.text_content("#error"))
    assert page.locator("#board svg").count() == 0 and page.input_value("#position") == ""
    page.fill("#start", "")
    page.fill("#agent1", "alphabeta:bogus=1")
    page.click("#new")
    page.wait_for_function("() => /player 2's agent/.test("
                           "document.querySelector('#error').textContent)")
    assert "unknown option" in str(page.text_content("#error"))
    assert page.locator("#board svg").count() == 0


def test_pig_says_whose_turn_a_one_ended(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=pig&agent=human&agent=human")
    for _ in range(100):  # roll until the die shows 1
        wait_turn(page)
        before = moves_played(page)
        page.click('#board [data-move="roll"]')
        page.wait_for_function("(n) => document.querySelectorAll('#movelist [data-ply]')"
                               ".length >= n + 2", arg=before)
        if "turn over" in str(page.text_content("#status")):
            break
    status = str(page.text_content("#status"))
    # the choice, then chance: neither credited to the other (issue 36: backgammon)
    assert "player 1 (human) played roll; then chance: rolled 1: turn over. player 2 (human) " \
        "to move" in status
    assert "player 0" not in str(page.text_content("#board"))


def test_a_phone_sees_the_board_first_without_sideways_scrolling(
        server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for path in ("/", "/analyse?game=connect4", "/learn", "/tournaments",
                     "/play?game=connect4&agent=human&agent=solver"):
            page.goto(server + path)
            page.wait_for_load_state("networkidle")
            width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            # the viewport tag: a phone lays the page out at its own width (without the
            # tag it uses 980 px and shrinks everything), and nothing scrolls sideways
            assert width[1] == 390 and width[0] <= width[1], (path, width)
        page.goto(f"{server}/play?game=chess&agent=human&agent=random")
        wait_turn(page)
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        board = page.locator("#board").bounding_box()
        controls = page.locator(".controls").bounding_box()
        assert board["y"] + board["height"] <= controls["y"]  # the board first
        square = page.locator('#board rect.sq[data-square="e2"]').bounding_box()
        assert square["width"] >= 40 and square["height"] >= 40  # a finger's tap
        page.tap('#board [data-square="e2"]')
        page.tap('#board [data-square="e4"]')
        wait_moves(page, "^e2e4 \\S+")
        wait_turn(page)
        shot(page, "web_phone", full_page=False, readme=True)  # what the phone's screen shows
    finally:
        context.close()
    assert not errors, errors


def test_the_analysis_board_plays_the_moves_clicked(server: str, page: Any) -> None:
    page.goto(f"{server}/analyse?game=connect4&position=4455")
    page.wait_for_selector('#board [data-move="3"]')
    page.click('#board [data-move="3"]')
    page.wait_for_function("() => document.querySelector('#position').value === '44553' "
                           "&& location.search.includes('position=44553')")
    page.click("#analyse")
    page.wait_for_selector("#bestmove", timeout=30_000)
    page.goto(page.url)  # a reload keeps the game and the position
    page.wait_for_selector('#board [data-move="1"]')
    assert page.input_value("#position") == "44553"
    page.goto(f"{server}/analyse?game=chess")
    page.wait_for_selector('#board [data-square="e2"]')
    start = page.input_value("#position")
    page.click('#board [data-square="e2"]')
    page.click('#board [data-square="e4"]')
    page.wait_for_function("() => document.querySelector('#position').value"
                           ".startsWith('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b')")
    page.click("#takeback")
    page.wait_for_function("(s) => document.querySelector('#position').value === s",
                           arg=start)


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
    assert "Ra8#" in engine and "value mate in 1 (White to move)" in engine, engine
    assert "99900" not in engine
