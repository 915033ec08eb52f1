"""Backgammon's compiled kernels, pubeval and the TD net.

Referees: gnubg's own move generator and pubeval (PyPI ``gnubg-nn``: ``moves(board, d1,
d2)``, ``pub_eval_score(board)``), on positions reached by random play from a fixed seed;
the plain numpy/Python paths for the compiled ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gamesearch.errors import InvalidPositionError
from gamesearch.games.backgammon import compiled, pubeval, td

gnubg_nn = pytest.importorskip(
    "gnubg_nn", reason="LOUD: PyPI gnubg-nn (dev extra) is the referee of the move generator")


def _positions(count: int, seed: int) -> np.ndarray:
    return compiled.random_positions(count, np.array([seed], dtype=np.uint64))


def _as_set(boards: np.ndarray) -> set[tuple[tuple[int, ...], ...]]:
    return {tuple(tuple(int(v) for v in row) for row in b) for b in boards}


def _gnubg_moves(board: np.ndarray, d1: int, d2: int) -> set[tuple[tuple[int, ...], ...]]:
    as_lists = [list(map(int, board[0])), list(map(int, board[1]))]
    keys = gnubg_nn.moves(as_lists, d1, d2)
    found = {tuple(tuple(r) for r in gnubg_nn.boardfromkey(k)) for k in keys}
    # gnubg lists no move when no checker can move; our kernel gives the board itself
    return found or {tuple(tuple(r) for r in as_lists)}


def _board(mover: dict[int, int], opp: dict[int, int]) -> np.ndarray:
    """A TanBoard from {point (1-24, 25 = bar): count} per side, each in its own view."""
    b = np.zeros((2, 25), dtype=np.int8)
    for row, side in ((1, mover), (0, opp)):
        for point, n in side.items():
            b[row, point - 1] = n
    return b


def _apply_steps(board: np.ndarray, steps: list[int]) -> np.ndarray:
    """gnubg's move (pairs of 0-based from/to indices of the side on roll, to < 0 = off)."""
    after = board.copy()
    for start, end in zip(steps[0::2], steps[1::2], strict=True):
        if start < 0:
            break
        after[1, start] -= 1
        if end >= 0:
            after[1, end] += 1
            if after[0, 23 - end] == 1:
                after[0, 23 - end] = 0
                after[0, 24] += 1
    return after


def test_move_generation_equals_gnubg_on_random_positions() -> None:
    rng = np.array([99], dtype=np.uint64)
    boards = _positions(1500, seed=2026)
    for board in boards:
        d1, d2 = compiled.roll_die(rng), compiled.roll_die(rng)
        ours = compiled.legal_positions(board, d1, d2)
        assert len(_as_set(ours)) == len(ours), "a position listed twice"
        assert _as_set(ours) == _gnubg_moves(board, d1, d2), (board.tolist(), d1, d2)


@pytest.mark.parametrize(("d1", "d2"), [(3, 1), (6, 5), (1, 1), (6, 6)])
def test_opening_moves_equal_gnubg(d1: int, d2: int) -> None:
    start = compiled.opening_board()
    ours = compiled.legal_positions(start, d1, d2)
    assert _as_set(ours) == _gnubg_moves(start, d1, d2)
    if (d1, d2) == (3, 1):
        assert len(ours) == 16


def test_bar_first_and_blocked_entry() -> None:
    # one checker on the bar; the opponent holds its 1..5 points (where we enter with 1..5)
    board = _board({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    only_six = compiled.legal_positions(board, 6, 1)
    # enters with the 6 (bar/19), then a checker plays the 1: never 13/12 13/7 from the bar
    assert len(only_six) >= 2
    assert all(b[1, 24] == 0 and b[1, 18] + b[1, 17] >= 1 for b in only_six)
    assert _as_set(only_six) == _gnubg_moves(board, 6, 1)
    closed = _board({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    (same,) = compiled.legal_positions(closed, 6, 5)
    assert np.array_equal(same, closed)


def test_bear_off_with_higher_die_only_from_the_highest_point() -> None:
    board = _board({2: 1, 4: 1}, {24: 2})
    after = _as_set(compiled.legal_positions(board, 6, 6))
    assert after == {tuple(tuple(r) for r in _board({}, {24: 2}))}
    board = _board({3: 2, 5: 1}, {24: 2})
    for b in compiled.legal_positions(board, 6, 1):
        # the 6 bears off the checker on the 5-point, not one on the 3-point
        assert b[1, 4] == 0
    assert _as_set(compiled.legal_positions(board, 6, 1)) == _gnubg_moves(board, 6, 1)


def test_larger_die_when_only_one_can_be_played() -> None:
    # only the checker on 24 can move (the rest are home, bearing off is not allowed); it
    # can play the 6 (24/18) or the 5 (24/19) but not both: the opponent holds our 13
    board = _board({24: 1, 1: 7, 2: 7}, {12: 2, 3: 13})
    (ours,) = compiled.legal_positions(board, 6, 5)
    assert ours[1, 17] == 1 and ours[1, 23] == 0  # the larger die: 24/18
    assert _as_set(ours[None]) == _gnubg_moves(board, 6, 5)


def test_game_points() -> None:
    assert compiled.game_points(compiled.opening_board()) == 0
    # row 0 has no checker left: it has won; the points depend on the loser (row 1)
    assert compiled.game_points(_board({1: 14}, {})) == 1
    assert compiled.game_points(_board({1: 15}, {})) == 2
    # a gammon with a loser's checker in the winner's home board (the loser's 19..24)
    # or on the bar is a backgammon
    assert compiled.game_points(_board({1: 14, 20: 1}, {})) == 3
    assert compiled.game_points(_board({1: 14, 25: 1}, {})) == 3
    assert compiled.game_points(_board({}, {6: 13, 19: 2})) == 3


def test_pubeval_equals_gnubg_and_compiled() -> None:
    for board in _positions(300, seed=7):
        moved = [list(map(int, board[1])), list(map(int, board[0]))]
        plain = pubeval.pubeval_score(pubeval.is_race(moved), moved)
        assert plain == pytest.approx(gnubg_nn.pub_eval_score(board.tolist()), abs=1e-4)
        fast = compiled.pubeval_score(pubeval.is_race(moved), np.array(moved, dtype=np.int8),
                                      pubeval.WEIGHTS_RACE, pubeval.WEIGHTS_CONTACT)
        assert fast == pytest.approx(plain, abs=1e-9)
        assert pubeval.evaluate(board) == pytest.approx(-plain, abs=1e-9)
        assert pubeval.is_race(board) == compiled.is_race(board)


def test_pubeval_best_move_equals_gnubg() -> None:
    rng = np.array([5], dtype=np.uint64)
    for board in _positions(200, seed=11):
        d1, d2 = compiled.roll_die(rng), compiled.roll_die(rng)
        ours = pubeval.best_position(board, d1, d2)
        theirs = gnubg_nn.pub_best_move(board.tolist(), d1, d2)
        theirs_board = _apply_steps(board, theirs)
        # ties may be broken differently: the two picks must score the same
        race = pubeval.is_race(board)
        score_ours = pubeval.pubeval_score(race, ours)
        score_theirs = pubeval.pubeval_score(race, theirs_board)
        assert score_ours == pytest.approx(score_theirs, abs=1e-4)


def test_td_net_plain_equals_compiled() -> None:
    net = td.Net.random(12, seed=3)
    x = np.zeros(compiled.NUM_INPUTS)
    for board in _positions(100, seed=8):
        compiled.encode(board, x)
        assert np.array_equal(x, td.encode(board))
        plain = td.net_outputs(net, board)
        fast = compiled.evaluate_board(board, net.w1, net.b1, net.w2, net.b2)
        assert np.allclose(plain, fast, atol=1e-12)
        assert td.evaluate(board, net) == pytest.approx(td.evaluate_compiled(board, net))


def test_td_training_is_deterministic_and_lowers_its_error() -> None:
    first = td.Net.random(10, seed=4)
    second = first.copy()
    td.train(first, 60, seed=1, chunk=30)
    td.train(second, 60, seed=1, chunk=60)
    for a, b in zip((first.w1, first.b1, first.w2, first.b2),
                    (second.w1, second.b1, second.w2, second.b2), strict=True):
        assert np.array_equal(a, b)

    def frozen_error(net: td.Net) -> float:
        # the same 150 games' TD error with learning off (alpha 0): a fixed yardstick
        copy = net.copy()
        return td.train(copy, 150, seed=77, alpha=0.0, chunk=150)[0]

    net = td.Net.random(10, seed=5)
    before = frozen_error(net)
    td.train(net, 400, seed=2)
    after = frozen_error(net)
    assert after < 0.8 * before, (before, after)


def test_shipped_net_plays_and_values_finished_games() -> None:
    start = compiled.opening_board()
    assert abs(td.evaluate(start)) < 0.5  # the start is nearly even for the side on roll
    won = _board({}, {1: 15})  # the side on roll has borne all off: gammon won
    assert td.evaluate(won) == 2.0
    assert td.evaluate(won[::-1].copy()) == -2.0
    after = td.best_position(start, 3, 1)
    assert _as_set(after[None]) <= _gnubg_moves(start, 3, 1)


def test_bad_boards_and_dice_get_one_line_errors() -> None:
    with pytest.raises(InvalidPositionError, match="two rows of 25"):
        pubeval.evaluate([[0] * 24, [0] * 25])
    with pytest.raises(InvalidPositionError, match="0 to 15"):
        td.evaluate([[16] + [0] * 24, [0] * 25])
    clash = _board({6: 2}, {19: 1})  # both on our 6-point (its 19-point)
    with pytest.raises(InvalidPositionError, match="point 6"):
        td.evaluate(clash)
    with pytest.raises(InvalidPositionError, match="dice"):
        td.best_position(compiled.opening_board(), 0, 3)


def test_one_ply_value_equals_a_plain_expectiminimax_over_gnubg_moves() -> None:
    net = td.Net.random(8, seed=6)
    for board in _positions(40, seed=12)[::10]:
        after = compiled.legal_positions(board, 4, 2)[0]
        theirs = after[::-1].copy()  # the opponent on roll
        expected = 0.0
        for r1 in range(1, 7):
            for r2 in range(r1, 7):
                replies = [np.array(b, dtype=np.int8) for b in _gnubg_moves(theirs, r1, r2)]
                # the opponent's best reply is the mover's lowest equity
                worst = min(-compiled.game_points(reply) if compiled.game_points(reply)
                            else td.equity(td.net_outputs(net, reply[::-1].tolist()))
                            for reply in replies)
                expected += (1 if r1 == r2 else 2) * worst / 36
        value = compiled.net_value_1ply(after, net.w1, net.b1, net.w2, net.b2)
        assert value == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("side_a", [True, False])
def test_trace_gradients_equal_finite_differences(side_a: bool) -> None:
    net = td.Net.random(6, seed=9)
    board = _positions(5, seed=13)[-1]
    x = td.encode(board)
    hidden = 1 / (1 + np.exp(-(net.w1 @ x + net.b1)))
    out = 1 / (1 + np.exp(-(net.w2 @ hidden + net.b2)))
    e_w1 = np.zeros((5, *net.w1.shape))
    e_b1 = np.zeros((5, *net.b1.shape))
    e_w2 = np.zeros((5, *net.w2.shape))
    e_b2 = np.zeros((5, *net.b2.shape))
    compiled.add_gradients(x, hidden, out, net.w2, side_a, e_w1, e_b1, e_w2, e_b2)

    def seen(n: td.Net) -> np.ndarray:
        outputs = td.net_outputs(n, board.tolist())
        flipped = np.empty(5)
        compiled.flip_outputs(outputs, flipped)
        return outputs if side_a else flipped

    eps = 1e-6
    for name, trace in (("w1", e_w1), ("b1", e_b1), ("w2", e_w2), ("b2", e_b2)):
        weights = getattr(net, name)
        for index in [(0,) * weights.ndim, tuple(d - 1 for d in weights.shape)] + (
                [(2, int(np.flatnonzero(x)[3]))] if name == "w1" else []):
            bumped = net.copy()
            getattr(bumped, name)[index] += eps
            numeric = (seen(bumped) - seen(net)) / eps
            assert np.allclose(trace[(slice(None), *index)], numeric, atol=1e-5), name


def test_training_command_writes_weights_log_and_curve(tmp_path: Path) -> None:
    out = tmp_path / "net.npz"
    assert td.main(["train", "--seed", "3", "--games", "20", "--hidden", "5",
                    "--eval-every", "10", "--eval-games", "4", "--out", str(out)]) == 0
    log = json.loads(out.with_suffix(".log.json").read_text())
    assert [row["games"] for row in log["curve"]] == [0, 10, 20]
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")
    assert td.Net.load(out).w1.shape == (5, compiled.NUM_INPUTS)
    with pytest.raises(SystemExit):
        td.main(["train", "--games", "0", "--out", str(out)])


def test_learning_rate_decays_geometrically_to_its_final_value() -> None:
    assert td.learning_rate(0.1, None, 500, 1000) == 0.1
    assert td.learning_rate(0.1, 0.01, 0, 1000) == pytest.approx(0.1)
    assert td.learning_rate(0.1, 0.01, 500, 1000) == pytest.approx(0.1 * 0.1 ** 0.5)
    assert td.learning_rate(0.1, 0.01, 1000, 1000) == pytest.approx(0.01)


def test_training_continues_from_given_weights(tmp_path: Path) -> None:
    first = tmp_path / "first.npz"
    assert td.main(["train", "--seed", "3", "--games", "10", "--hidden", "5",
                    "--eval-every", "10", "--eval-games", "2", "--out", str(first)]) == 0
    start = td.Net.load(first)
    second = tmp_path / "second.npz"
    assert td.main(["train", "--seed", "4", "--games", "10", "--init", str(first),
                    "--alpha", "0.05", "--alpha-final", "0.01", "--eval-every", "10",
                    "--eval-games", "2", "--out", str(second)]) == 0
    went_on = td.Net.load(second)
    assert went_on.w1.shape == (5, compiled.NUM_INPUTS)  # the hidden size of --init
    assert not np.array_equal(went_on.w1, start.w1)
    # the same continuation from random weights of that size ends elsewhere
    fresh = tmp_path / "fresh.npz"
    assert td.main(["train", "--seed", "4", "--games", "10", "--hidden", "5",
                    "--alpha", "0.05", "--alpha-final", "0.01", "--eval-every", "10",
                    "--eval-games", "2", "--out", str(fresh)]) == 0
    assert not np.allclose(td.Net.load(fresh).w1, went_on.w1)
    log = json.loads(second.with_suffix(".log.json").read_text())
    assert log["init"] == str(first) and log["alpha_final"] == 0.01
    for bad in (["--init", str(tmp_path / "none.npz")], ["--alpha-final", "0"]):
        with pytest.raises(SystemExit):
            td.main(["train", "--games", "10", "--out", str(tmp_path / "x.npz"), *bad])
