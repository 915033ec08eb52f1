"""Connect Four's column scores on the empty board come at once from the opening book
(issue 36, web item 2), in a real browser (Debian's Chromium driven by Playwright; the
fixtures of ``tests/conftest.py``).

Before: the book knew only the sign after one move, so the page showed win/draw/loss until
the solver (minutes for these positions) finished, and "?" when it ran out. After: Pons's
scores of the seven first moves (-2 -1 0 1 0 -1 -2, "Solving Connect 4", part 12) from the
quick answer alone: the page's request to the solver is refused here, so nothing else can
have drawn them."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from web_server import skip_without_browser

skip_without_browser()

#: Pons's scores of the empty board's moves, columns 1 to 7, for the player who moves.
PONS_FIRST_MOVES = (-2, -1, 0, 1, 0, -1, -2)


def test_the_empty_boards_scores_are_pons_from_the_book_alone(server: str, page: Any) -> None:
    asked: list[str] = []

    def only_quick(route: Any) -> None:  # the solver's answer never comes
        asked.append(route.request.url)
        if "quick=1" in route.request.url:
            route.continue_()
        else:
            route.abort()

    page.route("**/api/scores?*", only_quick)
    page.goto(f"{server}/play?game=connect4&agent=human&agent=solver")
    page.wait_for_function("() => /human\\) to move/.test("
                           "document.querySelector('#status').textContent)", timeout=60_000)
    page.check("#scores")
    page.wait_for_function(
        "() => /^scores/.test(document.querySelector('#scoresline').textContent)",
        timeout=30_000)
    line = str(page.text_content("#scoresline"))
    expected = ", ".join(f"{c}: {s}" for c, s in enumerate(PONS_FIRST_MOVES, 1))
    assert line == f"scores: {expected}", line
    assert page.get_attribute("#scoresline", "data-final") == "1"  # complete at once
    labels = page.eval_on_selector_all(
        "#board svg text.label", "els => els.map(e => [e.getAttribute('data-col'), "
        "e.textContent])")
    assert sorted((int(c), int(t)) for c, t in labels) == [
        (c, s) for c, s in enumerate(PONS_FIRST_MOVES, 1)], json.dumps(labels)
    assert asked and all("quick=1" in url for url in asked), asked
