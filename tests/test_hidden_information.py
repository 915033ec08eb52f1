"""Hidden information in the model: whoever holds the game hands an agent its seat's view
only (play_game, the web app's server-held view), PIMC refuses a game without an
observation, and PIMC plays Oh Hell from views."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gamesearch.agents import Agent, make_agent, play_game
from gamesearch.errors import UnsupportedGameError
from gamesearch.games import get_game
from gamesearch.games.ohhell import DECK, SeatView, random_deal
from gamesearch.games.ohhell.svg import SUIT_SYMBOL
from gamesearch.interfaces.web.sessions import seat_view


class Spy(Agent):
    """Records what it is handed, plays the first legal action of its view."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, game, state, limit=None):
        self.seen.append(state)
        return game.observation().actions(state)[0]


def test_play_game_hands_each_agent_its_own_view_only():
    game = get_game("ohhell")
    spies = [Spy(), Spy(), Spy()]
    final, _ = play_game(game, spies, rng=random.Random(4))
    for seat, spy in enumerate(spies):
        assert spy.seen, "every seat moved"
        for view in spy.seen:
            assert isinstance(view, SeatView) and view.seat == seat
            # the view holds its own cards and public ones only
            public = {c for _, c in view.plays} | {view.trump_card}
            others = {c for s in range(3) if s != seat for c in final.hand(s)}
            assert not (set(view.hand) & others)
            assert set(vars_of(view)) <= set(view.hand) | public | set(range(-3, 20))


def vars_of(view: SeatView) -> set[int]:
    """Every int the view carries (cards, seats, bids)."""
    out: set[int] = set(view.hand) | set(view.bids) | set(view.won)
    for s, c in view.plays:
        out |= {s, c}
    return out | {view.seat, view.dealer, view.mover, view.trump_card or 0}


def test_pimc_refuses_a_game_without_an_observation():
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        make_agent(get_game("tictactoe"), "pimc:worlds=2")


def test_pimc_plays_legal_moves_from_views():
    game = get_game("ohhell")
    agents = [make_agent(game, "pimc:worlds=3,seed=1"), make_agent(game, "random:seed=2"),
              make_agent(game, "pimc:worlds=2,search=paranoid,seed=3")]
    final, moves = play_game(game, agents, rng=random.Random(9))
    assert game.is_terminal(final) and len(moves) == 1 + 10 + 3 + 9
    # a bid: every legal bid valued in every world, the best average chosen
    from gamesearch.search.pimc import pimc

    state = random_deal(random.Random(3))
    seat = game.to_move(state)
    view = game.observation().observe(state, seat)
    r = pimc(game, view, seat, worlds=3, rng=random.Random(0))
    assert len(r.worlds) == 3 and set(r.averages) == set(game.actions(state))
    assert r.averages[r.action] == max(r.averages.values())
    for a in r.averages:
        assert r.averages[a] == pytest.approx(sum(w[a] for w in r.worlds) / 3)


def _card_texts(card: int) -> list[str]:
    name = DECK.name(card)
    return [f'"{name}"', f"{name[1]}{SUIT_SYMBOL[name[0]]}"]


@pytest.mark.parametrize("seed", range(5))
def test_web_view_of_a_seat_shows_no_other_hand(seed):
    game = get_game("ohhell")
    rng = random.Random(seed)
    state = random_deal(rng)
    for _ in range(rng.randrange(0, 8)):
        state = game.result(state, rng.choice(game.actions(state)))
    for seat in (0, 1, 2, None):
        shown = seat_view(game, state, seat)
        svg = game.render_svg(state, seat=-1 if seat is None else seat)
        text = json.dumps(shown, ensure_ascii=False) + svg
        for other in range(3):
            if other == seat:
                continue
            for card in state.hand(other):
                for t in _card_texts(card):
                    assert t not in text, (seat, other, t)
        if seat is not None:  # it does see its own hand
            assert DECK.format_hand(state.hand(seat)) in shown["text"]


def test_terminal_play_shows_the_person_their_own_hand_only(tmp_path):
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "gamesearch", "play", "ohhell", "--seed", "3", "--agents",
         "human", "pimc:worlds=2,seed=1", "random:seed=1"],
        input="bid1\nq\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    game = get_game("ohhell")
    # the same deal, dealt again from the same seed: seat 0's hand is shown, no other card
    rng = random.Random(3)
    state = game.initial_state()
    while game.to_move(state) == -1:
        from gamesearch.game import sample_outcome
        state = game.result(state, sample_outcome(game, state, rng))
    assert DECK.format_hand(state.hand(0)) in out.stdout
    # an agent's line is its move alone while a person plays: its worlds, averages and
    # nodes would tell its hand (tests/test_information_sets.py holds every game to it)
    assert "plays " in out.stdout and "worlds; average per move" not in out.stdout
    for other in (1, 2):
        for card in state.hand(other):
            assert f"plays {DECK.name(card)}" in out.stdout or \
                DECK.name(card) not in out.stdout


def test_arena_workers_hand_each_seat_its_own_view():
    """An Oh Hell tournament, three seats rotated, with an agent that crashes (a forfeit)
    on anything but its own seat's view: no forfeit, every game played, results per seat.
    Mutation caught: the arena's choose passing ``s`` instead of ``seat_view(...)``."""
    from gamesearch.arena import TournamentConfig, parse_agents, run_tournament

    cfg = TournamentConfig("ohhell", tuple(parse_agents(
        ["py:arena_agents:SeatViewOnly", "random:seed=1", "ismcts:iterations=20"])),
        games_per_pair=3)
    result = run_tournament(cfg)
    assert len(result.records) == 3
    for r in result.records:
        assert r.termination == "normal", r.detail
    assert sorted(r.seats.index(0) for r in result.records) == [0, 1, 2]


def test_web_api_game_shows_a_seat_its_own_hand_only():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web import create_app

    client = TestClient(create_app())
    r = client.post("/api/play", json={"game": "ohhell", "agents": ["human", "random",
                                                                     "random"], "time": "1"})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    seat0 = client.get(f"/api/play/{game_id}", params={"seat": 0}).json()
    trump = DECK.parse_card(seat0["text"].split("trump card: ")[1].split()[0])  # public
    # an agent's seat is not shown to a page at all (403); a person's and a spectator's are
    assert client.get(f"/api/play/{game_id}", params={"seat": 1}).status_code == 403
    for seat in (0, None):
        params = {} if seat is None else {"seat": seat}
        data = client.get(f"/api/play/{game_id}", params=params).json()
        assert {m["move"] for m in data["moves"] if m["player"] == -1} == {"deal"}
        assert data["position"] == "" and data["line"] == "" and data["start"] == ""
        allowed: set[int] = set()
        if seat is not None:
            hand_text = data["text"].split("your hand: ")[1].split()[0]
            allowed = set(DECK.parse_hand(hand_text))
        blob = json.dumps(data, ensure_ascii=False)
        for card in DECK.cards:
            if card in allowed or card == trump:
                continue
            for t in _card_texts(card):
                if t.startswith('"'):
                    continue  # a bare name may be the trump card in "text"
                assert t not in blob, (seat, t)
