"""Go in the web app, in a real browser (Debian's Chromium driven by Playwright, as
``tests/test_web_browser.py``): a stone placed by a click and MCTS's reply; the pass
button; after two passes the territory drawn on the board; MCTS's visit counts written on
the points of the thinking board (:func:`visit_labels`)."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from gamesearch.games import get_game  # noqa: E402
from gamesearch.interfaces.web.thinking import info_event, visit_labels  # noqa: E402
from gamesearch.search import search  # noqa: E402
from web_server import skip_without_browser  # noqa: E402

skip_without_browser()


def wait_status(page: Any, pattern: str) -> str:
    page.wait_for_function(
        "(p) => new RegExp(p).test(document.querySelector('#status').textContent)",
        arg=pattern, timeout=60_000)
    return str(page.text_content("#status"))


def moves(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#movelist [data-ply]",
                                          "els => els.map(e => e.dataset.notation)"))


def test_click_a_stone_and_mcts_replies(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=go:size=5&agent=human&agent=mcts:iterations=300,rave=1")
    wait_status(page, "human\\) to move")
    page.click('#board [data-move="C3"]')
    page.wait_for_function("() => document.querySelectorAll('#movelist [data-ply]').length"
                           " >= 2", timeout=60_000)
    wait_status(page, "human\\) to move")
    played = moves(page)
    assert played[0] == "C3" and len(played) == 2
    assert page.locator("#board .stone-b").count() == 1
    assert page.locator("#board .stone-w").count() == (0 if played[1] == "pass" else 1)
    assert page.locator('#board [data-move="C3"]').count() == 0  # occupied now


def test_two_passes_end_the_game_with_territory(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=go:size=5&agent=human&agent=human")
    wait_status(page, "to move")
    page.click('#board [data-move="C3"]')
    page.wait_for_function("() => document.querySelectorAll('#movelist [data-ply]').length"
                           " >= 1")
    page.click('#board [data-move="pass"]')  # White passes: the button under the board
    page.wait_for_function("() => document.querySelectorAll('#movelist [data-ply]').length"
                           " >= 2")
    page.click('#board [data-move="pass"]')
    status = wait_status(page, "game over")
    assert "game over" in status
    assert page.locator("#board .territory-b").count() == 24  # every empty point is Black's
    assert page.locator("#board .territory-w").count() == 0


def test_visit_counts_are_written_on_the_board() -> None:
    g = get_game("go:size=5")
    s = g.initial_state()
    r = search(g, s, "mcts:iterations=200,seed=1,rave=1")
    labels = visit_labels(r)
    assert labels and all(v.isdigit() for v in labels.values())
    best = max(labels, key=lambda m: int(labels[m]))
    assert best == g.vertex(r.action)
    svg = info_event(g, s, r, None)["svg"]
    assert f">{labels[best]}</text>" in svg
