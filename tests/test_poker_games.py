"""The small hidden-information games (kuhn_poker, leduc_poker, liars_dice) against
OpenSpiel's: random games replayed move for move (legal actions, chance outcomes and their
probabilities, returns, information-state strings), every history walked for the number
of information sets. Games listed from the registry: every registered game whose state is
a history (:class:`~gamesearch.games.history.HistoryGame`) is checked."""

from __future__ import annotations

import random

import pytest

from gamesearch.game import CHANCE
from gamesearch.games import GAMES, get_game
from gamesearch.games.history import HistoryGame

pyspiel = pytest.importorskip("pyspiel")

HISTORY_GAMES = sorted(n for n in GAMES if isinstance(get_game(n), HistoryGame))
#: OpenSpiel's parameters of our games (its defaults where not named)
OPENSPIEL_SPEC = {"liars_dice": "liars_dice(numdice=1)",
                  "goofspiel": "goofspiel(num_cards=4,imp_info=True)"}
#: OpenSpiel's simultaneous-move games, played through its convert_to_turn_based
TURN_BASED = {"goofspiel"}
INFO_SETS = {"kuhn_poker": 12, "leduc_poker": 936, "liars_dice": 24_576, "goofspiel": 3608}
#: games small enough to walk every history of OpenSpiel's tree in a test (the others:
#: our count against the published one, and the strings compared along random games)
FULL_WALK = {"kuhn_poker", "leduc_poker", "goofspiel"}


def test_the_history_games_are_registered():
    assert {"kuhn_poker", "leduc_poker", "liars_dice", "goofspiel"} <= set(HISTORY_GAMES)


def load(name: str):
    game = pyspiel.load_game(OPENSPIEL_SPEC.get(name, name))
    return pyspiel.convert_to_turn_based(game) if name in TURN_BASED else game


@pytest.mark.parametrize("name", HISTORY_GAMES)
def test_random_games_replay_move_for_move(name):
    game, theirs = get_game(name), load(name)
    obs = game.observation()
    rng = random.Random(1)
    for _ in range(300):
        ours, s = game.initial_state(), theirs.new_initial_state()
        while not s.is_terminal():
            assert not game.is_terminal(ours)
            if s.is_chance_node():
                assert game.to_move(ours) == CHANCE
                expected = s.chance_outcomes()
                got = list(game.chance_outcomes(ours))
                assert [a for a, _ in got] == [a for a, _ in expected]
                assert [p for _, p in got] == pytest.approx([p for _, p in expected], abs=1e-15)
                assert list(game.actions(ours)) == [a for a, _ in expected]
            else:
                player = s.current_player()
                assert game.to_move(ours) == player
                assert list(game.actions(ours)) == s.legal_actions()
                for seat in range(2):
                    view = obs.observe(ours, seat)
                    assert str(view) == s.information_state_string(seat)
                view = obs.observe(ours, player)
                assert obs.actions(view) == s.legal_actions()
                assert obs.actions(obs.observe(ours, 1 - player)) == []
                sampled = obs.sample(view, rng)
                assert obs.observe(sampled, player) == view
            action = rng.choice(s.legal_actions())
            text = game.format_action(ours, action)
            assert game.parse_action(ours, text) == action
            ours = game.result(ours, action)
            s.apply_action(action)
            assert list(ours) == s.history()
        assert game.is_terminal(ours)
        assert game.returns(ours) == pytest.approx(s.returns(), abs=1e-12)
        assert game.parse_state(game.format_state(ours)) == ours


@pytest.mark.parametrize("name", HISTORY_GAMES)
def test_the_same_information_sets(name):
    game, theirs = get_game(name), load(name)
    if name not in FULL_WALK:
        from gamesearch.search.cfr_fast import flatten

        assert len(flatten(game).keys) == INFO_SETS[name]
        return
    ours_keys: set = set()
    their_keys: set = set()

    def walk(state, s):
        if s.is_terminal():
            return
        if not s.is_chance_node():
            p = s.current_player()
            ours_keys.add(game.observation().observe(state, p))
            their_keys.add(s.information_state_string(p))
        for a in s.legal_actions():
            walk(game.result(state, a), s.child(a))

    walk(game.initial_state(), theirs.new_initial_state())
    assert len(ours_keys) == len(their_keys)
    assert {str(k) for k in ours_keys} == their_keys
    if name in INFO_SETS:
        assert len(ours_keys) == INFO_SETS[name]
