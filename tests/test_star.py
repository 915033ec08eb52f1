"""*-minimax (Star1, Star2) returns exactly expectiminimax's value and move: on random
bounded chance trees (hypothesis) and on random backgammon positions; and it prunes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import UnsupportedGameError
from gamesearch.games import get_game
from gamesearch.games.backgammon.rules import BGState
from gamesearch.games.trees import TreeGame
from gamesearch.search import Limit, make_searcher, search
from referees import backgammon as referees


def same(game: object, state: object, depth: int | None) -> tuple[int, int, int]:
    """Search with the three; assert equal values and moves; return their node counts."""
    limit = Limit(depth=depth)
    ref = make_searcher(game, "expectiminimax").search(state, limit)  # type: ignore[arg-type]
    counts = [ref.nodes]
    for name in ("star1", "star2"):
        r = make_searcher(game, name).search(state, limit)  # type: ignore[arg-type]
        assert r.value == ref.value, (name, r.value, ref.value)
        assert r.action == ref.action, (name, r.move, ref.move)
        counts.append(r.nodes)
    return counts[0], counts[1], counts[2]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), branching=st.sampled_from([(1, 3), (2, 4), (2, 5)]),
       depth=st.integers(2, 6), chance=st.sampled_from([0.3, 0.5, 0.8]),
       players=st.sampled_from(["alternate", "random"]),
       values=st.sampled_from([range(-9, 10), range(0, 3), [-1.5, 0.25, 2.0]]))
def test_star_equals_expectiminimax_on_random_chance_trees(
        seed: int, branching: tuple[int, int], depth: int, chance: float, players: str,
        values: range) -> None:
    game = TreeGame.random(branching, depth, seed, chance=chance, players=players,
                           values=values, early_leaf=0.1)
    same(game, game.initial_state(), None)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), depth=st.integers(1, 3))
def test_star_equals_expectiminimax_depth_limited_with_heuristics(seed: int, depth: int) -> None:
    game = TreeGame.random((2, 4), 5, seed, chance=0.5, heuristics=True)
    if game.evaluation() is None:
        pytest.skip("this tree has no evaluation")
    same(game, game.initial_state(), depth)


def random_decisions(count: int, seed: int) -> list[BGState]:
    return referees.random_decisions(count, random.Random(seed), keep=0.08)


def test_star_equals_expectiminimax_on_backgammon_positions() -> None:
    game = get_game("backgammon")
    totals = [0, 0, 0]
    for s in random_decisions(12, 2024):
        for k, n in enumerate(same(game, s, 2)):
            totals[k] += n
    # both prune: Star1 a little, Star2 (probing) much more (benchmarks/backgammon_search.py)
    assert totals[1] < totals[0] and totals[2] < totals[1], totals


def test_star_on_a_bearoff_race_to_the_end() -> None:
    # a short bear-off: searched to the end of the game, wins and gammons included
    game = get_game("backgammon")
    s = game.parse_state(game.format_state(
        ((1, 1, 0, 0, 0, 0, *([0] * 19)), (0, 2, *([0] * 23)), 0, 2, 1)))
    same(game, s, 3)


def test_star_needs_value_bounds() -> None:
    with pytest.raises(UnsupportedGameError, match="value bounds"):
        make_searcher(get_game("pig"), "star1")


def test_named_in_specs_and_depth_one_is_the_evaluation() -> None:
    game = get_game("backgammon")
    s = game.parse_state("4HPwATDgc/ABMA:0:31")
    r = search(game, s, "star2:depth=1")
    ev = game.evaluation()
    assert ev is not None
    best = max(ev.evaluate(game.result(s, a), 0) for a in game.actions(s))
    assert r.value == best  # gnubg's 0-ply: the evaluation of the position each move leaves


def test_expectiminimax_stops_at_the_chance_node_the_evaluation_scores() -> None:
    # gnubg's 0-ply: the root and one chance node a move, each evaluated (no 21 rolls)
    game = get_game("backgammon")
    s = game.parse_state("4HPwATDgc/ABMA:0:31")
    moves = len(game.actions(s))
    for name in ("expectiminimax", "star1", "star2"):
        r = search(game, s, f"{name}:depth=1")
        assert r.nodes == 1 + moves, (name, r.nodes)
    r2 = search(game, s, "expectiminimax:depth=2")  # each move, 21 rolls, each reply
    assert r2.nodes > 21 * moves
