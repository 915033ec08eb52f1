"""Checkers in the web app, in a real browser (Debian's Chromium driven by Playwright, as
``tests/test_web_browser.py``): a move by two clicks (the piece, then its square), a jump
chain by its last square, and a choice between two chains that join the same squares."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from web_server import skip_without_browser, web_server  # noqa: E402

skip_without_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with web_server(tmp_path_factory.mktemp("results")) as (base, _proc):
        yield base


def wait_turn(page: Any) -> str:
    page.wait_for_function(
        "() => /human\\) to move|game over/.test(document.querySelector('#status').textContent)",
        timeout=30_000)
    return str(page.text_content("#status"))


def wait_moves(page: Any, pattern: str) -> None:
    page.wait_for_function(
        "(p) => new RegExp(p).test(Array.from(document.querySelectorAll("
        "'#movelist [data-ply]')).map(e => e.dataset.notation).join(' '))", arg=pattern,
        timeout=30_000)


def test_a_move_by_two_clicks_then_the_engine_replies(server: str, page: Any) -> None:
    page.goto(f"{server}/play?game=checkers&agent=human&agent=id&time=0.3")
    wait_turn(page)
    assert page.locator("#board circle.piece").count() == 24
    page.click('#board [data-square="11"]')
    assert "selected" in str(page.get_attribute('#board [data-square="11"]', "class"))
    page.click('#board [data-square="15"]')
    wait_moves(page, r"^11-15 \d+-\d+")  # the engine's reply follows
    wait_turn(page)


def test_a_chain_by_its_last_square(server: str, page: Any) -> None:
    fen = quote("B:W14,22,23,K6,32:B9,1")
    page.goto(f"{server}/play?game=checkers&agent=human&agent=random&position={fen}")
    wait_turn(page)
    page.click('#board [data-square="1"]')
    page.click('#board [data-square="26"]')
    wait_moves(page, "^1x10x17x26")


def test_two_chains_between_the_same_squares_are_asked_for(server: str, page: Any) -> None:
    """Mutation caught: ``squareClick`` without the chain chooser (it played the first)."""
    fen = quote("B:W9,10,17,18:BK6")
    page.goto(f"{server}/play?game=checkers&agent=human&agent=random&position={fen}")
    wait_turn(page)
    page.click('#board [data-square="6"]')
    page.click('#board [data-square="6"]')
    page.click("#promotion >> text=6x15x22x13x6")
    wait_moves(page, "^6x15x22x13x6$")
    assert "game over" in wait_turn(page)
