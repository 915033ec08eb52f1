"""Nim, the example game: every search agrees with Bouton's theorem (an independent truth)."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest

from gamesearch.errors import IllegalMoveError, InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.nim import Nim, NimState
from gamesearch.search import Limit, search
from gamesearch.search.solve import solve

GAME = Nim()


def bouton_wins(heaps: tuple[int, ...]) -> bool:
    return reduce(xor, heaps, 0) != 0


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax", "id", "pvs"])
def test_every_algorithm_agrees_with_bouton(algorithm: str) -> None:
    for heaps in itertools.product(range(4), repeat=3):
        if not any(heaps):
            continue
        state = NimState(heaps, 0)
        r = search(GAME, state, algorithm)
        assert (r.value > 0) == bouton_wins(heaps), (heaps, r.value)
        if bouton_wins(heaps):  # a winning move leaves a nim-sum of 0
            assert not bouton_wins(GAME.result(state, r.action).heaps), heaps


def test_the_solver_and_a_depth_limited_search_with_the_evaluation() -> None:
    state = GAME.initial_state()  # 3 4 5: nim-sum 2, the first player wins
    r = solve(GAME, state)
    assert r.value > 0 and all(not bouton_wins(GAME.result(state, a).heaps)
                               for a in r.best_actions)
    assert search(GAME, state, "id", Limit(depth=2)).value > 0  # evaluate() is exact in sign


def test_notation_and_bad_input() -> None:
    game = get_game("nim")
    s = game.parse_state("1, 2 ,3 /2")
    assert s == NimState((1, 2, 3), 1) and game.format_state(s) == "1 2 3 /2"
    assert game.parse_state(game.format_state(s)) == s
    assert game.parse_action(s, "3-2") == (2, 2) and game.format_action(s, (2, 2)) == "3-2"
    for bad in ("", "x", "1 2 /3", "100", "1 2 3 4 5 6 7 8 9", "٣"):
        with pytest.raises(InvalidPositionError):
            game.parse_state(bad)
    for bad in ("3-4", "0-1", "4-1", "a-b", "3", "٣-1"):
        with pytest.raises(IllegalMoveError):
            game.parse_action(s, bad)
