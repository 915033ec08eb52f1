"""Every game's notation against arbitrary text (issue 13): ``parse_state`` and
``parse_action`` either give a state or an action the game accepts, or raise a
:class:`~gamesearch.errors.GameError` whose message is one line of bounded length.

What a parse gives is checked too: a parsed state formats and parses back to itself, and a
parsed action is one of the legal actions.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import examples, texts
from gamesearch.errors import MAX_MESSAGE_CHARS, GameError
from gamesearch.game import CHANCE
from gamesearch.games import available_games, get_game

#: A parse of any text finishes within this many seconds.
PARSE_SECONDS = 2.0


def reachable_states(game: Any, count: int = 6, seed: int = 1) -> list[Any]:
    """The initial state and a few states along random lines of play."""
    rng = random.Random(seed)
    state, found = game.initial_state(), [game.initial_state()]
    while len(found) < count and not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.result(state, rng.choices([o for o, _ in outcomes],
                                                   [p for _, p in outcomes])[0])
        else:
            state = game.result(state, rng.choice(list(game.actions(state))))
        found.append(state)
    return found


def notation_texts(samples: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, the game's own strings, and those strings edited or repeated."""
    base = st.sampled_from(samples)
    return st.one_of(
        texts(60), base,
        st.tuples(base, st.integers(0, 100), texts(4)).map(
            lambda t: t[0][:t[1]] + t[2] + t[0][t[1] + 1:]),
        st.tuples(base, st.integers(2, 50)).map(lambda t: " ".join([t[0]] * t[1])),
        st.text(st.sampled_from(sorted({c for s in samples for c in s} | {" ", "-"})),
                max_size=80),
        st.just("1" * 5000),
    )


def assert_bounded(exc: GameError) -> None:
    text = str(exc)
    assert "\n" not in text and len(text) <= MAX_MESSAGE_CHARS, text[:2000]


@pytest.mark.parametrize("name", sorted(available_games()))
def test_parse_state_accepts_or_refuses_cleanly(name: str) -> None:
    game = get_game(name)
    samples = [game.format_state(s) for s in reachable_states(game)]

    @examples(60)
    @given(text=notation_texts(samples))
    def check(text: str) -> None:
        start = time.monotonic()
        try:
            state = game.parse_state(text)
        except GameError as exc:
            assert_bounded(exc)
        else:
            assert game.parse_state(game.format_state(state)) == state
        assert time.monotonic() - start < PARSE_SECONDS

    check()


@pytest.mark.parametrize("name", sorted(available_games()))
def test_parse_action_accepts_or_refuses_cleanly(name: str) -> None:
    game = get_game(name)
    states = [s for s in reachable_states(game) if not game.is_terminal(s)]
    samples = sorted({t for s in states if game.to_move(s) != CHANCE
                      for t in game.legal_action_strings(s)}) or ["a1"]

    @examples(60)
    @given(index=st.integers(0, len(states) - 1), text=notation_texts(samples))
    def check(index: int, text: str) -> None:
        state = states[index]
        if game.to_move(state) == CHANCE:
            return
        start = time.monotonic()
        try:
            action = game.parse_action(state, text)
        except GameError as exc:
            assert_bounded(exc)
        else:
            assert action in list(game.actions(state))
        assert time.monotonic() - start < PARSE_SECONDS

    check()


#: Texts that libraries read as something (python-chess: "--" and "Z0" are SAN's null move).
SPECIAL = ["--", "Z0", "0000", "null", "pass", "@", "-", "+", "#", "O-O-O-O", "e2e4e4",
           "a1", "0", "-1", "99", "٣", "１", "x", "\u202e", ""]


@pytest.mark.parametrize("name", sorted(available_games()))
def test_special_texts_are_refused_or_legal(name: str) -> None:
    game = get_game(name)
    for state in reachable_states(game):
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            continue
        for text in SPECIAL:
            try:
                action = game.parse_action(state, text)
            except GameError as exc:
                assert_bounded(exc)
            else:
                assert action in list(game.actions(state)), (text, action)
