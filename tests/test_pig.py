"""Pig: chance nodes, the turn rules, notation."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.game import CHANCE, random_playout
from gamesearch.games.pig import Pig, PigState

game = Pig()


def test_defaults() -> None:
    assert game.goal == 20 and game.sides == 6
    assert game.game_type.chance and game.game_type.num_players == 2
    assert game.max_utility == 1.0 and game.evaluation() is not None
    assert game.initial_state() == (0, 0, 0, 0, 0)
    assert game.to_move(game.initial_state()) == 0
    assert list(game.actions(game.initial_state())) == ["roll", "hold"]


def test_random_playouts_chance_nodes_and_ends() -> None:
    rng = random.Random(7)
    chance_nodes = 0
    for goal in (5, 20, 50):
        g = Pig(goal=goal)
        for _ in range(100):
            state = g.initial_state()
            while not g.is_terminal(state):
                if g.to_move(state) == CHANCE:
                    chance_nodes += 1
                    outcomes = g.chance_outcomes(state)
                    assert [o for o, _ in outcomes] == [1, 2, 3, 4, 5, 6]
                    assert list(g.actions(state)) == [1, 2, 3, 4, 5, 6]
                    assert all(p > 0 for _, p in outcomes)
                    assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    assert g.to_move(state) == state[3]
                    assert g.terminal_utility(state, 0) is None
                    for player in (0, 1):
                        assert -1.0 < g.evaluate(state, player) < 1.0
                        assert g.evaluate(state, player) == -g.evaluate(state, 1 - player)
                    action = rng.choice(list(g.actions(state)))
                state = g.result(state, action)
            winner = 0 if state[0] >= goal else 1
            assert state[1 - winner] < goal
            assert g.returns(state) == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
            assert g.terminal_utility(state, winner) == 1.0
            assert g.terminal_utility(state, 1 - winner) == -1.0
            assert g.actions(state) == ()
            assert g.parse_state(g.format_state(state)) == state
    assert chance_nodes > 1000


def test_random_playout_helper() -> None:
    end = random_playout(game, game.initial_state(), random.Random(1))
    assert game.is_terminal(end)


def test_rolling_builds_the_turn_total_and_a_one_passes() -> None:
    state = game.result(game.initial_state(), "roll")
    assert state == (0, 0, 0, 0, 1) and game.to_move(state) == CHANCE
    state = game.result(state, 5)
    assert state == (0, 0, 5, 0, 0) and game.to_move(state) == 0
    state = game.result(game.result(state, "roll"), 3)
    assert state == (0, 0, 8, 0, 0)
    lost = game.result(game.result(state, "roll"), 1)
    assert lost == (0, 0, 0, 1, 0) and game.to_move(lost) == 1


def test_holding_banks_the_total_and_passes() -> None:
    state = game.parse_state("12-7-5-0")
    assert game.result(state, "hold") == (17, 7, 0, 1, 0)
    state = game.parse_state("12-7-6-1")
    assert game.result(state, "hold") == (12, 13, 0, 0, 0)
    # holding with nothing on the turn just passes it
    assert game.result(game.initial_state(), "hold") == (0, 0, 0, 1, 0)


def test_reaching_the_goal_ends_the_game() -> None:
    state = game.parse_state("15-18-5-0")
    assert not game.is_terminal(state)
    end = game.result(state, "hold")
    assert end == (20, 18, 0, 1, 0)
    assert game.is_terminal(end) and game.terminal_utility(end, 0) == 1.0
    assert game.utility(end, 1) == -1.0
    # the turn total alone does not win: the player must hold
    state = game.parse_state("15-18-9-1")
    assert not game.is_terminal(state)
    end = game.result(state, "hold")
    assert end == (15, 27, 0, 0, 0) and game.returns(end) == (-1.0, 1.0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(end, "roll")


def test_illegal_actions() -> None:
    with pytest.raises(IllegalMoveError):
        game.result(game.initial_state(), 3)  # no die is rolling
    rolling = game.result(game.initial_state(), "roll")
    with pytest.raises(IllegalMoveError):
        game.result(rolling, "hold")
    with pytest.raises(IllegalMoveError):
        game.result(rolling, 7)
    with pytest.raises(IllegalMoveError, match="not a chance node"):
        game.chance_outcomes(game.initial_state())


def test_action_notation() -> None:
    start = game.initial_state()
    assert game.parse_action(start, " Roll ") == "roll"
    assert game.parse_action(start, "h") == "hold"
    with pytest.raises(IllegalMoveError, match="legal moves: roll hold"):
        game.parse_action(start, "pass")
    rolling = game.result(start, "roll")
    assert game.parse_action(rolling, "4") == 4
    assert game.format_action(rolling, 4) == "4"
    with pytest.raises(IllegalMoveError, match="give a face"):
        game.parse_action(rolling, "roll")
    state = game.play(start, "roll")
    state = game.play(state, "6")
    assert state == (0, 0, 6, 0, 0)


# ----- notation -------------------------------------------------------------------------
def reachable_states() -> st.SearchStrategy[PigState]:
    score = st.integers(0, 19).filter(lambda s: s != 1)
    total = st.integers(0, 60).filter(lambda t: t != 1)
    live = st.tuples(score, score, total, st.integers(0, 1), st.integers(0, 1))
    finished = st.tuples(st.integers(20, 80), score, st.booleans()).map(
        lambda t: (t[0], t[1], 0, 1, 0) if t[2] else (t[1], t[0], 0, 0, 0)
    )
    return st.one_of(live, finished)


@settings(max_examples=300, deadline=None)
@given(reachable_states())
def test_parse_format_round_trip(state: PigState) -> None:
    text = game.format_state(state)
    assert game.parse_state(text) == state
    assert game.format_state(game.parse_state(text)) == text


def test_notation_examples() -> None:
    assert game.format_state(game.initial_state()) == "0-0-0-0"
    assert game.parse_state(" 12-7-5-1r ") == (12, 7, 5, 1, 1)
    assert game.format_state((12, 7, 5, 1, 1)) == "12-7-5-1r"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "four whole numbers"),
        ("1-2-3", "four whole numbers"),
        ("12-7-5-0-1", "four whole numbers"),
        ("12-x-5-0", "four whole numbers"),
        ("12--5-0", "four whole numbers"),
        ("-3-7-5-0", "four whole numbers"),
        ("12-7-5-2", "player field must be 0 or 1"),
        ("12-7-1-0", "turn total of 1"),
        ("1-7-0-0", "player 1 cannot have banked 1"),
        ("20-25-0-0", "both players"),
        ("20-7-4-1", "game is over"),
        ("20-7-0-0", "write 20-7-0-1"),
        ("3-20-0-1r", "game is over"),
    ],
)
def test_bad_position_strings(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        game.parse_state(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


def test_options() -> None:
    g = Pig(goal=50, sides=4)
    assert [o for o, _ in g.chance_outcomes(g.result(g.initial_state(), "roll"))] == [1, 2, 3, 4]
    assert g.is_terminal(g.parse_state("50-0-0-1"))
    assert not g.is_terminal(g.parse_state("49-0-0-0"))
    for bad in ({"goal": 0}, {"goal": 2.5}, {"sides": 1}, {"goal": True}):
        with pytest.raises(InvalidLimitError):
            Pig(**bad)


def test_evaluate_prefers_the_leader() -> None:
    assert game.evaluate(game.initial_state(), 0) == 0.0
    ahead = game.parse_state("15-5-0-1")
    assert 0.0 < game.evaluate(ahead, 0) < 1.0
    assert game.evaluate(ahead, 1) == -game.evaluate(ahead, 0)
    # the turn total counts for the player whose turn it is
    assert game.evaluate(game.parse_state("5-5-10-0"), 0) > 0.0
    assert game.evaluate(game.parse_state("5-5-10-1"), 0) < 0.0
    # strictly inside (-1, 1) even when the turn total passes the goal
    assert game.evaluate(game.parse_state("19-0-60-0"), 0) < 1.0


def test_render() -> None:
    picture = game.render(game.parse_state("12-7-5-1r"))
    assert "Pig to 20" in picture
    assert "player 2:   7  to move, turn total 5 (rolling...)" in picture
    assert "wins" in game.render(game.parse_state("20-7-0-1"))
