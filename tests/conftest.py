"""Fixtures shared by the browser tests (``test_web_*browser.py``): Debian's Chromium driven
by Playwright, one browser a module, one page a test that fails on any script error of the
page, and the web app on a free port (``server``; a module that needs results or packages
of its own defines its own)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from web_server import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
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


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from web_server import web_server

    with web_server() as (base, _proc):
        yield base
