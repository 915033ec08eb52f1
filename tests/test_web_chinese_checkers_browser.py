"""Three-player Chinese Checkers in the web app, in a real browser (Debian's Chromium driven by
Playwright, the fixtures of ``tests/conftest.py``): a person in seat 1 plays by clicking a
piece and then a hole on the star board — a chain of three jumps as one move, then a step —
and the two agents in seats 2 and 3 (max^n and best-reply search) answer each time, max^n
with its value for every player. The truth is the library's rules: every move the page lists
is replayed with ``parse_action`` from the start position (an illegal one raises) and must
give the position the page shows; the chain is checked to need three of OpenSpiel's jump
actions (``openspiel.to_actions``)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from gamesearch.games import get_game
from gamesearch.games.chinese_checkers import board as B
from referees.chinese_checkers_openspiel import OS_PASS, to_actions
from web_server import skip_without_browser

skip_without_browser()

GAME = "chinese_checkers:players=3"
#: Ply 9 of a seeded, mostly forward random game (``random.Random(5)``, the most forward move
#: with chance 0.8): player 1 to move, whose a1 can jump three times to g7.
START = ("1/11/.11/1111/............./......1...../.........../........../3......../"
         ".3......22/.33.....22./333......222/.333.....222./..../.../../. 1 9")
AGENTS = ("human", "maxn:depth=2", "brs:depth=2")


def wait_for_person(page: Any) -> str:
    page.wait_for_function(
        "() => /human\\) to move|game over/.test(document.querySelector('#status').textContent)",
        timeout=60_000)
    return str(page.text_content("#status"))


def listed_moves(page: Any) -> list[str]:
    return [str(m) for m in page.eval_on_selector_all(
        "#movelist [data-ply]", "els => els.map(e => e.dataset.notation)")]


def click_move(page: Any, start: str, end: str) -> None:
    """Select the piece on ``start`` (the page marks it and its destinations), click ``end``."""
    page.click(f'#board rect.sq[data-square="{start}"]')
    assert "selected" in (page.get_attribute(
        f'#board rect.sq[data-square="{start}"]', "class") or "")
    assert "dest" in (page.get_attribute(f'#board rect.sq[data-square="{end}"]', "class") or "")
    page.click(f'#board rect.sq[data-square="{end}"]')


def replay(moves: list[str]) -> Any:
    """The position after ``moves`` from ``START`` by the library's rules (an illegal move
    raises)."""
    game = get_game(GAME)
    state = game.parse_state(START)
    for text in moves:
        state = game.result(state, game.parse_action(state, text))
    return state


def test_the_start_position_has_a_three_jump_chain() -> None:
    game = get_game(GAME)
    state = game.parse_state(START)
    chain = game.parse_action(state, "a1-g7")
    assert chain in game.actions(state)
    assert len([a for a in to_actions(state, chain) if a != OS_PASS]) == 3


def test_a_person_plays_a_jump_chain_and_a_step_and_the_agents_answer(
        server: str, page: Any) -> None:
    """Mutations caught: ``moveEnds`` (common.js) splitting ``a1-g7`` like chess (``a1``,
    ``-g``: the piece is not selected); the page's ``advance`` not asking seat 3's agent to
    move (the wait for three plies times out)."""
    game = get_game(GAME)
    query = "&".join(f"agent={quote(a)}" for a in AGENTS)
    page.goto(f"{server}/play?game={quote(GAME)}&{query}&position={quote(START)}")
    assert "human) to move" in wait_for_person(page)
    assert page.locator(".agent").count() == 3
    assert page.input_value("#position") == START
    page.evaluate("""() => { window.engineLines = [];  // every text the panel showed
        new MutationObserver((records) => { for (const m of records) for (const n of
            m.addedNodes) window.engineLines.push(n.textContent); }).observe(
            document.querySelector('#engine'), {childList: true, subtree: true}); }""")

    # a hole that is no destination of the selected piece plays nothing: it only reselects
    page.click('#board rect.sq[data-square="a1"]')
    page.click('#board rect.sq[data-square="i5"]')
    assert listed_moves(page) == []

    # the chain a1-g7 (three jumps), then both agents answer
    click_move(page, "a1", "g7")
    page.wait_for_function("() => document.querySelectorAll('#movelist [data-ply]').length >= 3",
                           timeout=60_000)
    wait_for_person(page)
    moves = listed_moves(page)
    assert moves[0] == "a1-g7" and len(moves) == 3, moves
    state = replay(moves)
    assert game.to_move(state) == 0
    assert page.input_value("#position") == game.format_state(state)

    # a step of the person's, chosen by the rules from the position the agents left
    steps = [a for a in game.actions(state) if a // B.HOLES != a % B.HOLES
             and a % B.HOLES in B.NEIGHBOUR[a // B.HOLES]]
    assert steps, "no step for player 1"
    start, end = game.format_action(state, steps[0]).split("-")
    click_move(page, start, end)
    page.wait_for_function("() => document.querySelectorAll('#movelist [data-ply]').length >= 6",
                           timeout=60_000)
    wait_for_person(page)
    moves = listed_moves(page)
    assert len(moves) == 6 and moves[3] == f"{start}-{end}", moves
    assert page.input_value("#position") == game.format_state(replay(moves))

    lines = page.evaluate("() => window.engineLines")
    assert any(re.search(r"maxn:depth=2 played .*P1 -?\d.* · P2 .* · P3 ", t)
               for t in lines), [t for t in lines if "played" in t]
    assert any(re.search(r"brs:depth=2 played ", t) for t in lines), lines

