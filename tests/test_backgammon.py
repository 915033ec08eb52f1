"""Backgammon: each rule on a hand-picked position, notation, position IDs, utilities, and the
move generator against gnubg (``gnubg-nn``) and OpenSpiel (recorded samples in
``tests/data/backgammon/``, made by ``benchmarks/backgammon_rules.py --write-sample``, plus a
live check of fresh positions when the referees are installed)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.game import CHANCE
from gamesearch.games import get_game
from gamesearch.games.backgammon import (
    Backgammon,
    board_from_position_id,
    from_tanboard,
    position_id,
    to_tanboard,
)
from gamesearch.games.backgammon.rules import BAR, START_BOARD, BGState
from referees.backgammon import our_results, random_decisions

DATA = Path(__file__).parent / "data" / "backgammon"
game = Backgammon()


def board(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A side from its own point of view: {point 1-24: checkers}, plus the bar."""
    side = [0] * 25
    for p, n in points.items():
        side[p - 1] = n
    side[BAR] = bar
    return tuple(side)


def state(own: dict[int, int], opp: dict[int, int], dice: tuple[int, int], *, own_bar: int = 0,
          opp_bar: int = 0, seat: int = 0) -> BGState:
    return (board(own, own_bar), board(opp, opp_bar), seat, dice[0], dice[1])


def moves(s: BGState) -> set[str]:
    return {game.format_action(s, a) for a in game.actions(s)}


# ----- the start, chance, the opening roll --------------------------------------------------
def test_start_and_opening_roll() -> None:
    s = game.initial_state()
    assert game.format_state(s) == "4HPwATDgc/ABMA:opening"
    assert game.to_move(s) == CHANCE
    outcomes = game.chance_outcomes(s)
    assert len(outcomes) == 30 and math.isclose(sum(p for _, p in outcomes), 1.0)
    assert all(hi > lo for (_, hi, lo), _ in outcomes)  # never a double first
    s1 = game.result(s, (1, 3, 1))
    assert game.to_move(s1) == 1 and game.format_state(s1) == "4HPwATDgc/ABMA:1:31"
    assert "8/5 6/5" in moves(s1) and len(moves(s1)) == 16


def test_rolls_are_21_outcomes_with_their_odds() -> None:
    s = game.result(game.result(game.initial_state(), (0, 3, 1)), ((7, 4), (5, 4)))
    assert game.to_move(s) == CHANCE and game.format_state(s).endswith(":1:--")
    outcomes = game.chance_outcomes(s)
    assert len(outcomes) == 21 and math.isclose(sum(p for _, p in outcomes), 1.0)
    probs = dict(outcomes)
    assert probs[(6, 6)] == pytest.approx(1 / 36) and probs[(6, 5)] == pytest.approx(2 / 36)


# ----- each rule on a position --------------------------------------------------------------
def test_bar_first_and_entering() -> None:
    # the opponent holds its points 1-5 (our 24-20): only the 6 enters, then the 3 is free
    s = state({13: 5, 6: 5, 19: 4}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, (6, 3), own_bar=1)
    assert moves(s) == {"bar/16", "bar/19 13/10", "bar/19 6/3"}
    closed = state({13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, (6, 3), own_bar=1)
    assert moves(closed) == {"pass"}  # a closed board: no entry, so no move at all
    assert game.parse_action(closed, "pass") == ()
    after = game.result(closed, ())
    assert after[:2] == (closed[1], closed[0]) and game.to_move(after) == CHANCE


def test_hitting_sends_a_blot_to_the_bar() -> None:
    s = state({13: 2}, {19: 1, 1: 14}, (6, 1))  # the opponent's blot on our 6-point
    assert moves(s) == {"13/7 13/12", "13/6*"}
    after = game.result(s, game.parse_action(s, "13/7/6*"))
    assert game.result(s, game.parse_action(s, "13/7 7/6")) == after  # the star is optional
    assert after[0][BAR] == 1 and after[0][18] == 0  # the blot is on its owner's bar
    middle = state({13: 1, 1: 14}, {16: 1, 1: 14}, (4, 2))  # a blot on our 9-point
    assert moves(middle) == {"13/9*/7", "13/7"}


def test_blocked_point_cannot_be_landed_on() -> None:
    s = state({8: 1}, {19: 2, 1: 13}, (2, 2))  # the opponent's point on our 6
    assert moves(s) == {"pass"}


def test_both_dice_when_possible_else_the_larger() -> None:
    # a lone checker on 13 (the rest on the 1-point, not all home so none bears off)
    only_order = state({13: 1, 1: 14}, {18: 2, 1: 13}, (6, 2))  # our 7 blocked
    assert moves(only_order) == {"13/5"}  # the 2 first makes both dice playable: must
    either = state({13: 1, 1: 14}, {20: 2, 1: 13}, (6, 2))  # our 5 blocked: one die only
    assert moves(either) == {"13/7"}  # the larger
    smaller = state({13: 1, 1: 14}, {18: 2, 20: 2, 1: 11}, (6, 2))  # our 7 and 5 blocked
    assert moves(smaller) == {"13/11"}  # the larger cannot be played: the smaller must


def test_bear_off_rules() -> None:
    s = state({6: 1, 4: 1, 1: 13}, {1: 15}, (5, 3))
    # the 5 cannot bear off from 4 while a checker stands on 6; after 6/3 it can
    assert moves(s) == {"6/1 4/1", "6/3 4/off"}
    high = state({4: 1, 2: 1, 1: 13}, {1: 15}, (6, 5))
    assert moves(high) == {"4/off 2/off"}  # none on 6 or 5 nor higher: from the top
    not_home = state({7: 1, 1: 14}, {1: 15}, (6, 1))
    assert moves(not_home) == {"7/off"}  # the 1-point checkers may not bear off before
    exact = state({6: 2, 1: 13}, {1: 15}, (6, 6))
    assert moves(exact) == {"6/off(2) 1/off(2)"}


def test_doubles_are_played_four_times() -> None:
    s = from_tanboard((START_BOARD, START_BOARD), 0, (4, 4))
    assert "24/20(2) 13/9(2)" in moves(s)
    a = game.parse_action(s, "13/9(2) 24/20(2)")
    after = game.result(s, a)
    assert after[1][19] == 2 and after[1][8] == 2 and after[1][12] == 3
    assert all(sum(n for n in game.result(s, a)[1]) == 15 for a in game.actions(s))
    pips = [sum((i + 1) * n for i, n in enumerate(game.result(s, a)[1]))
            for a in game.actions(s)]
    assert set(pips) == {167 - 16}  # every move plays all four 4s


def test_actions_list_each_resulting_position_once() -> None:
    rng = random.Random(5)
    for s in random_decisions(200, rng):
        results = [game.result(s, a)[:2] for a in game.actions(s)]
        assert len(results) == len(set(results))


def test_utilities_single_gammon_backgammon() -> None:
    # seat 0 bears off its last checker; seat 1 is on roll (the loser) when the game ends
    def finish(loser: tuple[int, ...]) -> BGState:
        s = (board({1: 1}), loser, 0, 2, 1)
        end = game.result(s, game.parse_action(s, "1/off"))
        assert game.is_terminal(end) and end[2] == 1  # the loser had the turn
        return end

    single = finish(board({24: 14}))  # one of seat 1's checkers is off
    assert game.returns(single) == (1.0, -1.0) and game.points(single) == 1
    gammon = finish(board({12: 15}))
    assert game.returns(gammon) == (2.0, -2.0) and game.termination(gammon) == "gammon"
    in_home = finish(board({20: 15}))  # seat 1's 20-point is seat 0's 5-point: a backgammon
    assert game.returns(in_home) == (3.0, -3.0)
    on_bar = finish(board({12: 14}, bar=1))
    assert game.returns(on_bar) == (3.0, -3.0) and game.termination(on_bar) == "backgammon"
    assert game.utility(on_bar, 1) == -3.0 and game.terminal_utility(on_bar, 0) == 3.0


# ----- notation -----------------------------------------------------------------------------
def test_move_notation_round_trips_and_variants() -> None:
    s = from_tanboard((START_BOARD, START_BOARD), 0, (3, 1))
    a = game.parse_action(s, "8/5 6/5")
    assert game.format_action(s, a) == "8/5 6/5"
    assert game.parse_action(s, "6/5, 8/5") == a
    run = from_tanboard((START_BOARD, START_BOARD), 0, (6, 5))
    assert game.format_action(run, game.parse_action(run, "24/18 18/13")) == "24/13"
    for s in random_decisions(300, random.Random(11)):
        for act in game.actions(s):
            text = game.format_action(s, act)
            assert game.result(s, game.parse_action(s, text)) == game.result(s, act), text


def test_illegal_moves_one_line_errors() -> None:
    s = from_tanboard((START_BOARD, START_BOARD), 0, (3, 1))
    for text, words in [("8/3", "legal"), ("7/4 6/5", "no checker"), ("8/5 6/50", "point"),
                        ("hello", "is not a move"), ("5/8", "lower"), ("pass", "possible"),
                        ("bar/22", "no checker")]:
        with pytest.raises(IllegalMoveError) as err:
            game.parse_action(s, text)
        message = str(err.value)
        assert "\n" not in message and words in message, message
    with pytest.raises(IllegalMoveError) as err:
        game.parse_action(s, "8/3")
    assert "8/5 6/5, " in str(err.value)  # the legal list


def test_position_ids_round_trip_and_match_gnubg_examples() -> None:
    assert position_id((START_BOARD, START_BOARD)) == "4HPwATDgc/ABMA"
    assert board_from_position_id("4HPwATDgc/ABMA") == (START_BOARD, START_BOARD)
    for s in random_decisions(300, random.Random(3)):
        text = game.format_state(s)
        assert game.parse_state(text) == s
        assert board_from_position_id(text[:14]) == to_tanboard(s)


@pytest.mark.parametrize("text, words", [
    ("4HPwATDgc/ABM", "expected"),
    ("4HPwATDgc/AB!A:0:31", "14 base64"),
    ("4HPwATDgc/ABMA:2:31", "seat"),
    ("4HPwATDgc/ABMA:0:71", "dice"),
    ("4HPwATDgc/ABMA:0", "expected"),
    ("//////////////:0:31", "25 places"),
    ("4HPwATDgc/ABMA:0:3", "dice"),
])
def test_bad_positions_one_line_errors(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        game.parse_state(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_bad_rolls_and_boards() -> None:
    with pytest.raises(InvalidPositionError, match="dice"):
        from_tanboard((START_BOARD, START_BOARD), 0, (7, 1))
    clash = list(START_BOARD)
    clash[0], clash[5] = 1, 4  # on roll's 1-point, where the other side has its 24-point pair
    with pytest.raises(InvalidPositionError, match="both sides"):
        from_tanboard((START_BOARD, tuple(clash)), 0, (3, 1))
    s = game.result(game.result(game.initial_state(), (0, 3, 1)), ((7, 4), (5, 4)))
    with pytest.raises(IllegalMoveError, match="roll"):
        game.parse_action(s, "77")
    assert game.parse_action(s, "6-6") == (6, 6)


def test_registered_and_rendered() -> None:
    g = get_game("backgammon")
    s = from_tanboard((START_BOARD, START_BOARD), 0, (3, 1))
    text = g.render(s)
    assert "BAR" in text and "dice 31" in text and "4HPwATDgc/ABMA:0:31" in text
    assert text.count("X") >= 5 and text.count("O") >= 5


def test_evaluation_takes_a_tanboard_evaluator() -> None:
    seen = []

    def evaluator(tb: tuple[tuple[int, ...], tuple[int, ...]]) -> float:
        seen.append(tb)
        return 0.25

    g = Backgammon("const", evaluator)
    s = from_tanboard((START_BOARD, START_BOARD), 1, None)
    ev = g.evaluation()
    assert ev is not None and ev.at_chance and ev.name == "const"
    assert ev.evaluate(s, 1) == 0.25 and ev.evaluate(s, 0) == -0.25
    assert seen[0] == to_tanboard(s)
    assert get_game("backgammon").evaluation().name == "pips"  # type: ignore[union-attr]
    with pytest.raises(InvalidLimitError, match="known evaluators: pips"):
        get_game("backgammon:evaluator=nonesuch")


# ----- against the referees -----------------------------------------------------------------
def _sample(name: str) -> list[tuple[str, list[str]]]:
    rows = []
    for line in (DATA / name).read_text().splitlines():
        pos, *results = line.split()
        rows.append((pos, results))
    return rows


@pytest.mark.parametrize("name", ["gnubg_moves.txt", "openspiel_moves.txt"])
def test_recorded_referee_samples(name: str) -> None:
    rows = _sample(name)
    assert len(rows) == 300
    for pos, results in rows:
        s = game.parse_state(pos)
        assert sorted(position_id(b) for b in our_results(s)) == results, pos


def test_gnubg_live_on_fresh_positions() -> None:
    pytest.importorskip("gnubg_nn", reason="gnubg-nn (the dev extra) is not installed")
    from referees.backgammon import gnubg_results

    for s in random_decisions(400, random.Random(99)):
        assert our_results(s) == gnubg_results(s), game.format_state(s)


def test_openspiel_live_on_fresh_positions() -> None:
    pytest.importorskip("pyspiel", reason="open_spiel (the dev extra) is not installed")
    from referees.backgammon import openspiel_positions

    count = 0
    for s, res in openspiel_positions(20, 77):
        assert our_results(s) == res, game.format_state(s)
        count += 1
        if count == 400:
            break
    assert count == 400


def test_compiled_kernel_equals_the_plain_rules() -> None:
    """The numba move generator (``compiled.legal_positions``, what TD training and the
    evaluations' benchmarks use) gives exactly the plain rules' resulting positions."""
    import numpy as np

    from gamesearch.games.backgammon import compiled

    for s in random_decisions(500, random.Random(7)):
        board = np.array(to_tanboard(s), dtype=np.int8)
        found = compiled.legal_positions(board, s[3], s[4])
        kernel = {(tuple(int(x) for x in b[0]), tuple(int(x) for x in b[1])) for b in found}
        assert kernel == our_results(s), game.format_state(s)


@pytest.mark.parametrize("name", ["pubeval", "td"])
def test_the_learned_evaluations_are_named_evaluators(name: str) -> None:
    """``backgammon:evaluator=pubeval`` / ``=td`` build, stay inside the game's bounds, and
    an expectiminimax agent with either plays the textbook opening 31."""
    from gamesearch.search import Limit, search

    g = get_game(f"backgammon:evaluator={name}")
    s = g.parse_state("4HPwATDgc/ABMA:0:31")
    value = g.board_evaluator(to_tanboard(s))
    assert -3.0 <= value <= 3.0
    r = search(g, s, "expectiminimax", Limit(depth=1))
    assert r.move == "8/5 6/5"  # the opening 31 of every strong player (making the 5-point)
