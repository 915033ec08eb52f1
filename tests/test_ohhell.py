"""Oh Hell against OpenSpiel's ``oh_hell`` (players=3, 4 suits x 4 ranks, 3 tricks): the
same deals replayed in both, legal actions and returns compared at every step; the seat's
view and the sampler."""

from __future__ import annotations

import random

import pytest

from gamesearch.errors import GameError
from gamesearch.game import CHANCE
from gamesearch.games import get_game
from gamesearch.games.cards import revealed_voids
from gamesearch.games.ohhell import (
    BID,
    DECK,
    OhHell,
    from_openspiel_card,
    openspiel_chance_actions,
    random_deal,
    to_openspiel_action,
)

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel (the dev extra) is the referee")

PARAMS = {"players": 3, "num_suits": 4, "num_cards_per_suit": 4, "num_tricks_fixed": 3}


def replay(seed: int) -> int:
    """One deal played at random in both games; returns the steps compared."""
    rng = random.Random(seed)
    game = OhHell()
    ours = random_deal(rng)
    theirs = pyspiel.load_game("oh_hell", PARAMS).new_initial_state()
    for a in openspiel_chance_actions(ours):
        theirs.apply_action(a)
    steps = 0
    while not game.is_terminal(ours):
        assert not theirs.is_terminal()
        assert theirs.current_player() == game.to_move(ours)
        legal = game.actions(ours)
        assert sorted(to_openspiel_action(ours, a) for a in legal) == \
            sorted(theirs.legal_actions())
        a = rng.choice(legal)
        theirs.apply_action(to_openspiel_action(ours, a))
        ours = game.result(ours, a)
        steps += 1
    assert theirs.is_terminal()
    assert list(game.returns(ours)) == list(theirs.returns())
    return steps


def test_same_deals_same_legal_actions_and_returns_as_openspiel():
    assert sum(replay(seed) for seed in range(300)) == 300 * 12


def test_card_mapping_and_the_dealers_restriction():
    assert DECK.name(from_openspiel_card(0)) == "C2"
    assert DECK.name(from_openspiel_card(13)) == "D5"
    state = random_deal(random.Random(1))
    game = OhHell()
    bids = [BID + 1, BID + 1]
    for b in bids:
        state = game.result(state, b)
    assert BID + 1 not in game.actions(state)  # 1 + 1 + 1 = 3 tricks: the dealer may not


def test_view_hides_other_hands_and_samples_keep_voids():
    game = get_game("ohhell")
    obs = game.observation()
    rng = random.Random(5)
    checked = 0
    for seed in range(200):
        r = random.Random(seed)
        state = random_deal(r)
        while not game.is_terminal(state):
            seat = game.to_move(state)
            view = obs.observe(state, seat)
            assert view.hand == frozenset(state.hand(seat))
            assert obs.actions(view) == game.actions(state)
            # the view is the same whatever the other hands hold
            world = obs.sample(view, rng)
            assert obs.observe(world, seat) == view
            voids = revealed_voids(DECK, world.tricks(), 3)
            for s in range(3):
                assert not any(DECK.suit(c) in voids[s] for c in world.hand(s))
            checked += 1
            state = game.result(state, r.choice(game.actions(state)))
    assert checked == 200 * 12


def test_notation_round_trip_and_bad_input():
    game = OhHell()
    state = random_deal(random.Random(2))
    for _ in range(5):
        state = game.result(state, game.actions(state)[0])
    again = game.parse_state(game.format_state(state))
    assert game.format_state(again) == game.format_state(state)
    assert again.hand(0) == state.hand(0) and again.plays == state.plays
    for bad in ("", "5 2.3.45.- 2.3.45.- 2.3.45.- S5", "0 2.3.4.- 5.3.4.- 2.2.4.- S5"):
        with pytest.raises(GameError):
            game.parse_state(bad)
    assert game.to_move(game.initial_state()) == CHANCE
