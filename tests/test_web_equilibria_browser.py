"""The Equilibria page in a real browser (Debian's Chromium driven by Playwright): CFR+ on
Kuhn poker drawn live on log-log axes, its policy against the library's own solve and
Kuhn's family of equilibria, the play button's game against the solved policy, Leduc's 936
sets filtered, a stopped run, a matrix game against nashpy, bad input, all offline and at a
phone's width (375 px) without sideways scrolling.

``GAMESEARCH_README_SHOTS=1`` writes docs/web_equilibria.png (the manual's picture)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import urlopen

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")
nashpy = pytest.importorskip("nashpy")

import numpy as np  # noqa: E402

from gamesearch.games import get_game  # noqa: E402
from gamesearch.interfaces.web.equilibria import checkpoints  # noqa: E402
from gamesearch.search.equilibrium import solve_equilibrium  # noqa: E402
from web_server import skip_without_browser, web_server  # noqa: E402

skip_without_browser()

PHONE = {"width": 375, "height": 740}
DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with web_server() as (base, _proc):
        yield base


def offline(page: Any, server: str) -> list[str]:
    """Abort every request that does not go to ``server``; the list of those tried."""
    outside: list[str] = []
    host = urlparse(server).netloc

    def route(r: Any) -> None:
        if urlparse(r.request.url).netloc == host:
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return outside


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[tuple[Any, list[str]]]:
    """A page at a phone's width, offline but for the server, failing on a script error."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                            has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    outside = offline(page, server)
    yield page, outside
    page.close()
    assert not errors, errors
    assert not outside, outside


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"


def run(page: Any, game: str, algorithm: str, iterations: str) -> None:
    page.select_option("#game", game)
    page.select_option("#algorithm", algorithm)
    page.fill("#iterations", iterations)
    page.click("#run")


def plotted(page: Any) -> list[tuple[int, float]]:
    return [(int(i), float(e)) for i, e in page.eval_on_selector_all(
        "#plot circle.pt", "els => els.map(e => [e.dataset.iteration, e.dataset.exploitability])")]


def test_kuhn_cfr_plus_live_plot_policy_family_and_play(server: str, page: Any) -> None:
    """1,000 iterations of CFR+ on Kuhn poker: a point at each checkpoint, falling to the
    library's own exploitability; the jack's bet alpha in [0, 1/3] and the king's 3 alpha,
    equal to the library's solve; then the solved policy plays on the play page."""
    outside = offline(page, server)
    page.goto(server + "/")
    page.click("#equilibria")
    page.wait_for_url(re.compile(r"/equilibria$"))
    page.wait_for_selector("#algorithm option[value='cfr+']", state="attached")
    run(page, "kuhn_poker", "cfr+", "1000")
    page.wait_for_selector("#exploitability", timeout=60_000)
    points = plotted(page)
    expected = solve_equilibrium(get_game("kuhn_poker"), "cfr+", 1000)
    assert [i for i, _ in points] == checkpoints(1000)
    # falling: each decade's point below the last one's, the end far below the start
    decades = dict(points)
    assert decades[1] > decades[10] > decades[100] > decades[1000]
    assert points[-1][1] < points[0][1] / 1000
    final = float(page.get_attribute("#exploitability", "data-value") or "nan")
    assert final == pytest.approx(expected.exploitability, rel=1e-9, abs=1e-15)
    assert final < 1e-3
    # the family: alpha (player 1 bets the jack) in [0, 1/3], the king 3 alpha
    alpha = float(page.get_attribute("#alpha", "data-value") or "nan")
    king = float(page.get_attribute("#kingbet", "data-value") or "nan")
    assert alpha == pytest.approx(expected.table["0"][1], abs=1e-12)
    assert king == pytest.approx(expected.table["2"][1], abs=1e-12)
    assert -1e-9 <= alpha <= 1 / 3 + 1e-3
    assert king == pytest.approx(3 * alpha, abs=0.01)
    jack_row = page.get_attribute('tr.set[data-key="0"] .prob[data-action="bet"]', "data-p")
    assert float(jack_row or "nan") == pytest.approx(alpha)
    assert page.locator("#strategy tr.set").count() == 12
    assert page.locator("#strategy tr.set.family").count() == 2
    if os.environ.get("GAMESEARCH_README_SHOTS"):  # the manual's picture, small in bytes
        page.set_viewport_size({"width": 980, "height": 760})
        page.screenshot(path=str(DOCS / "web_equilibria.png"), full_page=False)
        from PIL import Image  # (matplotlib's, in the dev extra): a palette, a third the bytes

        shot = Image.open(DOCS / "web_equilibria.png").convert("RGB")
        shot.quantize(colors=96).save(DOCS / "web_equilibria.png", optimize=True)
        page.set_viewport_size({"width": 1400, "height": 1000})
    # play it: the solved policy is player 1 (it moves first), the person player 2
    href = page.get_attribute("#play2", "href") or ""
    assert "cfr%3Aiterations%3D1000%2Calgorithm%3Dcfr%2B" in href
    page.click("#play2")
    page.wait_for_url(re.compile(r"/play\?"))
    page.wait_for_function(
        "() => /player 2 \\(human\\) to move/.test(document.querySelector('#status')"
        ".textContent)", timeout=30_000)
    agents = page.eval_on_selector_all(".agent", "els => els.map(e => e.value)")
    assert agents == ["cfr:iterations=1000,algorithm=cfr+", "human"]
    played = page.eval_on_selector_all("#movelist [data-ply]", "els => els.map(e => "
                                       "e.textContent.trim())")
    assert sum(m in ("pass", "bet") for m in played) == 1, played  # the policy's first bet
    assert not (page.text_content("#error") or "").strip()
    assert not outside, outside


def test_leduc_filtered_by_round_and_card_at_phone_width(phone: tuple[Any, list[str]],
                                                         server: str) -> None:
    """Leduc's 936 sets: one round at a time, a filter, at most 60 rows; no sideways
    scroll at 375 px."""
    page, _ = phone
    page.goto(server + "/equilibria")
    page.wait_for_selector("#algorithm option[value='cfr']", state="attached")
    run(page, "leduc_poker", "cfr", "30")
    page.wait_for_selector("#exploitability", timeout=60_000)
    assert [i for i, _ in plotted(page)] == checkpoints(30)
    from gamesearch.search.cfr_fast import flatten

    tree = flatten(get_game("leduc_poker"))
    first_round = [k for k in tree.keys if k.public < 0]
    assert (page.text_content("#shown") or "").startswith(
        f"{len(first_round)} of {len(tree.keys)} information sets")
    assert page.locator("#strategy tr.set").count() == min(60, len(first_round))
    page.select_option("#round", "2")
    page.select_option("#player", "1")
    page.fill("#filter", "Ks Kh")  # player 1 with a king, the other one turned up
    rows = page.eval_on_selector_all(
        "#strategy tr.set", "els => els.map(e => Array.from(e.cells).map(c => c.textContent))")
    # as many as the solver's own sets of player 1 in round 2 with those two cards
    expected = [k for k in tree.keys if k.seat == 0 and {k.card, k.public} == {4, 5}]
    assert len(rows) == len(expected) > 0
    assert all({r[1], r[2]} == {"Ks", "Kh"} and r[0] == "1" for r in rows)
    no_sideways_scroll(page)


def test_stop_ends_a_run_with_its_policy_so_far(phone: tuple[Any, list[str]],
                                               server: str) -> None:
    """Stop: the run ends early and still reports its last policy, measured."""
    page, _ = phone
    page.goto(server + "/equilibria")
    page.wait_for_selector("#algorithm option[value='cfr']", state="attached")
    run(page, "leduc_poker", "cfr+", "100000")
    page.wait_for_function("() => document.querySelectorAll('#plot circle.pt').length >= 5",
                           timeout=60_000)
    page.click("#stop")
    page.wait_for_selector("#exploitability", timeout=60_000)
    status = page.text_content("#status") or ""
    assert "(asked to stop)" in status, status
    done = int(re.sub(r"\D", "", status.split("iterations")[0]))
    assert 5 <= done < 100_000
    assert plotted(page)[-1][0] == done  # the last policy measured too
    no_sideways_scroll(page)


def test_a_client_leaving_stops_its_run(browser: Any, server: str) -> None:
    page = browser.new_page()
    page.goto(server + "/equilibria")
    page.wait_for_selector("#algorithm option[value='cfr']", state="attached")
    run(page, "leduc_poker", "cfr", "100000")
    page.wait_for_function("() => document.querySelectorAll('#plot circle.pt').length >= 3",
                           timeout=60_000)
    page.close()
    for _ in range(200):  # the server's search slot frees again (waits up to 20 s; no
        with urlopen(server + "/api/status") as answer:  # timing asserted)
            if json.load(answer)["running"] == 0:
                break
        time.sleep(0.1)
    with urlopen(server + "/api/status") as answer:
        assert json.load(answer)["running"] == 0


def test_matrix_games_against_nashpy_and_bad_input(phone: tuple[Any, list[str]],
                                                   server: str) -> None:
    """Rock-paper-scissors: value 0, a third each (nashpy's); the battle of the sexes:
    nashpy's three equilibria; a ragged matrix and bad iterations: one-line errors."""
    page, _ = phone
    page.goto(server + "/equilibria")
    page.wait_for_selector("#preset option", state="attached")
    page.select_option("#preset", "rock-paper-scissors")
    page.click("#solve")
    page.wait_for_selector("#value")
    a = np.array(json.loads(page.input_value("#matrix-a")), dtype=float)
    (row, col), = list(nashpy.Game(a).support_enumeration())
    assert float(page.get_attribute("#value", "data-value") or "nan") == pytest.approx(
        float(row @ a @ col), abs=1e-9)
    shown_row = [float(x) for x in page.eval_on_selector_all(
        ".rowstrat .prob", "els => els.map(e => e.dataset.p)")]
    shown_col = [float(x) for x in page.eval_on_selector_all(
        ".colstrat .prob", "els => els.map(e => e.dataset.p)")]
    assert shown_row == pytest.approx(list(row), abs=1e-9)
    assert shown_col == pytest.approx(list(col), abs=1e-9)
    no_sideways_scroll(page)

    page.select_option("#preset", "battle of the sexes (general-sum)")
    page.click("#solve")
    page.wait_for_function("() => /general-sum/.test(document.querySelector('#matrixtitle')"
                           ".textContent)")
    a = np.array(json.loads(page.input_value("#matrix-a")), dtype=float)
    b = np.array(json.loads(page.input_value("#matrix-b")), dtype=float)
    truth = sorted(tuple(np.round(np.concatenate(e), 9)) for e in
                   nashpy.Game(a, b).support_enumeration())
    shown = page.eval_on_selector_all("#equilibria tr.eq", "els => els.map(e => "
                                      "Array.from(e.querySelectorAll('.prob')).map(p => "
                                      "Number(p.dataset.p)))")
    assert sorted(tuple(np.round(s, 9)) for s in shown) == truth
    no_sideways_scroll(page)

    page.fill("#matrix-a", "[[1, 2], [3]]")
    page.fill("#matrix-b", "")
    page.click("#solve")
    page.wait_for_selector("#error.show")
    error = page.text_content("#error") or ""
    assert "ragged" in error and "\n" not in error
    page.fill("#iterations", "-5")
    page.click("#run")
    page.wait_for_function("() => /iterations '-5'/.test(document.querySelector('#error')"
                           ".textContent)")
    with urlopen(server + "/api/status") as answer:
        assert json.load(answer)["running"] == 0
