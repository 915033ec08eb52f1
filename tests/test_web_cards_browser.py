"""Bridge and Oh Hell on the play page, in a real browser (Debian's Chromium driven by
Playwright, as ``tests/test_web_nplayer_browser.py``): a bridge ending and an Oh Hell deal
played to the end by clicks (bids too), the agents' reasoning shown, and every answer the
page received from ``/api/play`` (recorded by a wrapper around ``fetch``, SSE streams
included) checked for cards the person's seat may not see."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from gamesearch.games import get_game  # noqa: E402
from gamesearch.games.bridge.cards import RANKS, SUIT_SYMBOLS, card_name, cards_of  # noqa: E402
from gamesearch.games.ohhell import DECK as OH_DECK  # noqa: E402
from gamesearch.games.ohhell.svg import SUIT_SYMBOL as OH_SYMBOL  # noqa: E402
from test_web_cards import BRIDGE_START  # noqa: E402
from web_server import skip_without_browser  # noqa: E402

skip_without_browser()

#: every /api/play answer the page reads, its text once whole (an SSE stream at its end)
RECORD = """() => { window.apiBodies = []; const plain = window.fetch;
  window.fetch = async (...args) => { const r = await plain(...args);
    const url = String(args[0]);
    if (url.includes('/api/play')) r.clone().text().then((t) => window.apiBodies.push(t));
    return r; }; }"""


def play_by_clicks(page: Any, url: str, limit: int = 40) -> str:
    page.add_init_script(f"({RECORD})();")
    page.goto(url)
    for _ in range(limit):
        page.wait_for_function(
            "() => /human\\) to move|game over|could not/.test("
            "document.querySelector('#status').textContent)", timeout=60_000)
        status = str(page.text_content("#status"))
        if "game over" in status or "could not" in status:
            break
        before = page.locator("#movelist [data-ply]").count()
        page.locator("#board [data-move]").first.click()  # the person's first legal card
        page.wait_for_function(
            "(n) => document.querySelectorAll('#movelist [data-ply]').length > n",
            arg=before, timeout=60_000)
    assert "game over" in status, (status, page.text_content("#error"))
    return status


def views(body: str) -> list[dict[str, Any]]:
    """The views in one answer: a JSON view, or the ``move`` event's view of a stream."""
    if body.startswith("event:"):
        out = []
        for block in body.strip().split("\n\n"):
            kind, _, data = block.partition("\n")
            if kind == "event: move":
                out.append(json.loads(data.removeprefix("data: "))["view"])
        return out
    data = json.loads(body)
    return [data] if "moves" in data else []


def assert_unseen(blob: str, secret: list[int], played: set[str], ply: int) -> None:
    """No card of ``secret`` but those already ``played`` is named or drawn in ``blob``."""
    for c in secret:
        if card_name(c) in played:
            continue
        assert f'"{card_name(c)}"' not in blob and \
            SUIT_SYMBOLS[c // 13] + RANKS[c % 13] not in blob, (ply, card_name(c))


def test_a_bridge_ending_by_clicks_never_shows_a_defender_card(server: str, page: Any) -> None:
    """South, the person, declares and plays dummy's cards too; East and West are ISMCTS.
    Mutation caught: the bridge drawing ignoring ``seat`` (East's cards drawn face up)."""
    agents = ["random", "ismcts:iterations=30,seed=1", "human", "ismcts:iterations=30,seed=2"]
    url = (f"{server}/play?game=bridge&position={quote(BRIDGE_START)}&time=5&"
           + "&".join(f"agent={quote(a)}" for a in agents))
    status = play_by_clicks(page, url)
    assert "1NT" in (page.inner_html("#board")) and "score" in page.inner_html("#board")
    assert "player" in status
    reasoning = str(page.text_content("#reasoning"))
    assert "ismcts, 30 iterations sampled" in reasoning
    assert page.locator("#reasoning table").count() == 6  # every agent card, at the end
    # the defenders' cards at the start of the ending, each secret until it is played
    game = get_game("bridge")
    start = game.parse_state(BRIDGE_START)
    secret = [c for seat in (1, 3) for c in cards_of(start.hands[seat])]
    bodies = page.evaluate("() => window.apiBodies")
    assert len(bodies) > 10
    checked = 0
    for body in bodies:
        for v in views(body):
            played = {m["move"] for m in v["moves"]}
            if v["terminal"]:
                continue
            assert_unseen(json.dumps(v, ensure_ascii=False), secret, played, v["ply"])
            checked += 1
    assert checked >= 6


def test_an_oh_hell_deal_by_clicks_bids_and_cards(server: str, page: Any) -> None:
    """Seat 0 bids and plays by clicks against PIMC and ISMCTS; the reasoning panel shows
    PIMC's worlds; every face-up card the page was sent is the person's own, the trump
    card, or a card already played."""
    agents = ["human", "pimc:worlds=3,seed=1", "ismcts:iterations=40,seed=2"]
    url = f"{server}/play?game=ohhell&time=5&" + "&".join(f"agent={quote(a)}" for a in agents)
    play_by_clicks(page, url)
    reasoning = str(page.text_content("#reasoning"))
    assert "pimc, 3 worlds sampled" in reasoning and "ismcts, 40 iterations" in reasoning
    moves = page.eval_on_selector_all("#movelist [data-ply]",
                                      "els => els.map(e => e.dataset.notation)")
    assert sum(m.startswith("bid") for m in moves) == 3
    bodies = page.evaluate("() => window.apiBodies")
    checked = 0
    for body in bodies:
        for v in views(body):
            if v["terminal"] or "your hand: " not in v["text"]:
                assert v["terminal"] or v["seat"] is None
                continue
            own = set(OH_DECK.parse_hand(v["text"].split("your hand: ")[1].split()[0]))
            trump = re.search(r"trump card: (\w\w)", v["text"])
            allowed = own | {OH_DECK.parse_card(m["move"]) for m in v["moves"]
                             if m["move"] not in ("deal",) and not m["move"].startswith("bid")}
            if trump:
                allowed.add(OH_DECK.parse_card(trump.group(1)))
            for card in OH_DECK.cards:
                if card in allowed:
                    continue
                name = OH_DECK.name(card)
                assert f"{name[1]}{OH_SYMBOL[name[0]]}" not in v["svg"], (v["ply"], name)
                assert f'"{name}"' not in json.dumps(v), (v["ply"], name)
            checked += 1
    assert checked >= 3


def test_a_full_bridge_deal_by_clicks_as_one_seat(server: str, page: Any) -> None:
    """A new game of bridge (no position: the server deals it by chance), South the person
    declaring 3NT and playing dummy, ISMCTS East and West: all 13 tricks by clicks. Every
    answer and event the page received is logged and checked against the deal read from
    the final view: before the end, no card of East's or West's hand that is not yet played
    is ever sent, nor dummy's before the opening lead."""
    agents = ["random", "ismcts:iterations=20,seed=1", "human",
              "ismcts:iterations=20,seed=2"]
    url = (f"{server}/play?game={quote('bridge:contract=3N,declarer=S')}&time=5&"
           + "&".join(f"agent={quote(a)}" for a in agents))
    play_by_clicks(page, url, limit=30)
    bodies = page.evaluate("() => window.apiBodies")
    final = [v for body in bodies for v in views(body) if v["terminal"]]
    assert final, "no final view"
    game = get_game("bridge:contract=3N,declarer=S")
    dealt = game.parse_state(final[-1]["position"])
    hands = game.original_hands(dealt)
    checked = 0
    for body in bodies:
        for v in views(body):
            if v["terminal"]:
                continue
            played = {m["move"] for m in v["moves"] if m["move"] != "deal"}
            secret = [c for seat in (1, 3) for c in cards_of(hands[seat])]
            if not played:  # before the opening lead dummy (North) is hidden too
                secret += cards_of(hands[0])
            # a stream is checked whole (start, info and move events: the card it played
            # is among ``played`` in the view after it)
            blob = body if body.startswith("event:") else json.dumps(v, ensure_ascii=False)
            assert_unseen(blob, secret, played, v["ply"])
            checked += 1
    assert checked >= 13
    assert len([b for b in bodies if b.startswith("event:")]) >= 26  # every agent card
