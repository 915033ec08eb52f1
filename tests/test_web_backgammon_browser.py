"""Backgammon in the web app, in a real browser (Debian's Chromium driven by Playwright, as
``tests/test_web_browser.py``): the board with its dice, a move typed in the move box in
gnubg's notation (another spelling than the list's), the agent's reply after the server
rolls its dice."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from web_server import skip_without_browser  # noqa: E402

skip_without_browser()


def test_a_typed_move_then_the_agents_reply(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=backgammon&agent=human&agent=expectiminimax:depth=1"
              "&position=4HPwATDgc/ABMA:0:31")
    page.wait_for_function("() => /human\\) to move/.test(document.querySelector('#status')"
                           ".textContent)", timeout=30_000)
    assert page.locator("#board .die").count() == 2
    assert page.locator('#board [data-move="8/5 6/5"]').count() == 1
    page.fill("#movebox", "6/5 8/5")  # the list writes 8/5 6/5: the server reads either
    page.click("#moveboxgo")
    page.wait_for_function(
        "() => document.querySelectorAll('#movelist [data-ply]').length >= 3",
        timeout=30_000)  # our move, the roll, the agent's move
    moves = page.eval_on_selector_all("#movelist [data-ply]", "els => els.map(e => e.textContent)")
    assert moves[0].strip().endswith("8/5 6/5"), moves
    assert page.text_content("#error") == ""
