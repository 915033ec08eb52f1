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

from gamesearch.errors import InvalidLimitError, InvalidPositionError
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
    # an expert net from scratch, and the raw one widened to it
    expert = tmp_path / "expert.npz"
    assert td.main(["train", "--seed", "3", "--games", "10", "--hidden", "5", "--expert",
                    "--eval-every", "10", "--eval-games", "2", "--out", str(expert)]) == 0
    assert td.Net.load(expert).w1.shape == (5, compiled.NUM_EXPERT_INPUTS)
    wide = tmp_path / "wide.npz"
    assert td.main(["train", "--seed", "4", "--games", "10", "--init", str(out), "--hidden",
                    "7", "--expert", "--eval-every", "10", "--eval-games", "2", "--out",
                    str(wide)]) == 0
    assert td.Net.load(wide).w1.shape == (7, compiled.NUM_EXPERT_INPUTS)
    assert json.loads(wide.with_suffix(".log.json").read_text())["expert"] is True
    with pytest.raises(SystemExit):  # a net cannot shrink
        td.main(["train", "--games", "10", "--init", str(wide), "--hidden", "3", "--out",
                 str(tmp_path / "x.npz")])


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


# The published count of rolls (of 36) that hit a lone blot at each distance, no point
# between blocked (Magriel, "Backgammon", 1976, the table of hitting chances).
SHOTS_AT_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3,
                     11: 2, 12: 3, 13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1,
                     21: 0, 22: 0, 23: 0, 24: 1}


@pytest.mark.parametrize("distance", sorted(SHOTS_AT_DISTANCE))
def test_shot_rolls_equal_the_published_hitting_table(distance: int) -> None:
    # a checker of the side on roll ``distance`` pips (its point distance + 1, the bar for
    # 24) behind a blot on its 1-point (the other side's 24-point)
    board = _board({distance + 1: 1}, {24: 1})
    assert compiled.shot_rolls(board, 1) == SHOTS_AT_DISTANCE[distance]
    assert td._shot_rolls(board, 1) == SHOTS_AT_DISTANCE[distance]
    # and the same from the other side's row
    assert compiled.shot_rolls(board[::-1].copy(), 0) == SHOTS_AT_DISTANCE[distance]
    # two checkers at different distances: the rolls that hit either, counted once
    both = _board({distance + 1: 1, 7: 2}, {24: 1})
    union = compiled.shot_rolls(both, 1)
    assert max(SHOTS_AT_DISTANCE[distance], 17) <= union <= SHOTS_AT_DISTANCE[distance] + 17


def test_expert_features_by_hand_and_plain_equals_compiled() -> None:
    start = compiled.opening_board()
    # pips 167 each, contact, no blot, longest prime 1 point, one home point (the 6)
    assert np.allclose(td.expert_features(start),
                       [1.0, 1.0, 0.0, 0.0, 0.0, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
    race = _board({1: 5, 2: 5, 3: 5}, {4: 3, 5: 3, 6: 3, 7: 3, 8: 3})
    f = td.expert_features(race)
    assert f[2] == 1.0 and f[0] == pytest.approx(30 / 167) and f[1] == pytest.approx(90 / 167)
    assert f[5] == pytest.approx(3 / 6) and f[6] == pytest.approx(5 / 6)  # primes of 3, 5
    assert f[7] == pytest.approx(3 / 6) and f[8] == pytest.approx(3 / 6)  # home points
    net = td.Net.random(8, seed=5, expert=True)
    x = np.zeros(compiled.NUM_EXPERT_INPUTS)
    for board in _positions(150, seed=21):
        compiled.encode(board, x)
        assert np.array_equal(x, td.encode(board, expert=True))
        assert np.allclose(td.net_outputs(net, board),
                           compiled.evaluate_board(board, net.w1, net.b1, net.w2, net.b2),
                           atol=1e-12)


def test_a_grown_net_keeps_its_outputs_then_learns_with_its_new_units() -> None:
    small = td.Net.random(6, seed=2)
    big = small.grown(9, expert=True, seed=3)
    assert big.w1.shape == (9, compiled.NUM_EXPERT_INPUTS) and big.expert
    for board in _positions(40, seed=4):
        assert np.allclose(td.net_outputs(big, board), td.net_outputs(small, board),
                           atol=1e-12)
    td.train(big, 5, seed=1)
    assert np.any(big.w2[:, 6:] != 0.0) and np.any(big.w1[:6, compiled.NUM_INPUTS:] != 0.0)
    with pytest.raises(InvalidLimitError, match="cannot shrink"):
        big.grown(8, expert=True, seed=1)
    with pytest.raises(InvalidLimitError, match="cannot shrink"):
        big.grown(9, expert=False, seed=1)


def _plain_td_game(net: td.Net, alpha: float, lam: float, rng: np.ndarray) -> None:
    """One self-play game of TD(lambda) in plain numpy (the compiled move choice, itself
    tested above, picks the moves): the reference of :func:`compiled.train_games`."""
    params = ("w1", "b1", "w2", "b2")
    traces = {p: np.zeros((5, *getattr(net, p).shape)) for p in params}
    board = compiled.opening_board()
    d1, d2 = compiled.opening_roll(rng)
    side_a = True
    while True:
        x = td.encode(board, net.expert)
        hidden = 1 / (1 + np.exp(-(net.w1 @ x + net.b1)))
        out = 1 / (1 + np.exp(-(net.w2 @ hidden + net.b2)))
        for k in range(5):
            src = k if side_a else int(compiled.FLIP_SOURCE[k])
            sign = -1.0 if (not side_a and k == 0) else 1.0
            g_out = sign * out[src] * (1 - out[src])
            g_hidden = g_out * net.w2[src] * hidden * (1 - hidden)
            grad = {"w1": np.outer(g_hidden, x), "b1": g_hidden,
                    "w2": np.zeros_like(net.w2), "b2": np.zeros(5)}
            grad["w2"][src] = g_out * hidden
            grad["b2"][src] = g_out
            for p in params:
                traces[p][k] = lam * traces[p][k] + grad[p]
        current = out if side_a else np.array([1 - out[0], out[3], out[4], out[1], out[2]])
        values = np.empty(5)
        after = compiled.net_choose(board, d1, d2, net.w1, net.b1, net.w2, net.b2, values)
        target = values if side_a else np.array(
            [1 - values[0], values[3], values[4], values[1], values[2]])
        delta = target - current
        for p in params:
            getattr(net, p)[...] += alpha * np.tensordot(delta, traces[p], axes=1)
        if compiled.game_points(after):
            return
        board = compiled.swap_sides(after)
        side_a = not side_a
        d1, d2 = compiled.roll_die(rng), compiled.roll_die(rng)


@pytest.mark.parametrize("expert", [False, True])
def test_compiled_training_equals_a_plain_td_lambda_game(expert: bool) -> None:
    plain = td.Net.random(7, seed=6, expert=expert)
    fast = plain.copy()
    for seed in (1, 2):
        _plain_td_game(plain, 0.1, 0.7, np.array([seed * 7919], dtype=np.uint64))
        compiled.train_games(fast.w1, fast.b1, fast.w2, fast.b2, 1, 0.1, 0.7,
                             np.array([seed * 7919], dtype=np.uint64))
        for a, b in zip((plain.w1, plain.b1, plain.w2, plain.b2),
                        (fast.w1, fast.b1, fast.w2, fast.b2), strict=True):
            assert np.allclose(a, b, atol=1e-9)


@pytest.mark.parametrize("name", sorted(td.NETS))
def test_every_shipped_net_loads_plays_legal_moves_and_beats_pubeval(name: str) -> None:
    net = td.shipped_net(name)
    assert net.w1.shape[0] == int(name.removeprefix("td"))
    start = compiled.opening_board()
    for d1, d2 in ((3, 1), (6, 5), (2, 2)):
        after = td.best_position(start, d1, d2, net)
        assert _as_set(after[None]) <= _gnubg_moves(start, d1, d2)
    assert Path(str(td.__file__)).with_name("data").joinpath(
        td.NETS[name]).with_suffix(".log.json").is_file()
    # 200 seeded games at 0 ply: the net wins more than half against pubeval
    wins = td.interval(td.versus_pubeval(net, 200, seed=77))[0]
    assert wins > 0.5, wins
    with pytest.raises(InvalidLimitError, match="no shipped backgammon net"):
        td.shipped_net("td7")


def test_the_td_evaluator_is_the_strongest_net_and_td40_stays_available() -> None:
    from gamesearch.games.backgammon.rules import EVALUATORS

    board = _positions(1, seed=3)[0]
    assert EVALUATORS["td"]()(board.tolist()) == pytest.approx(
        td.evaluate(board, td.shipped_net(td.DEFAULT_NET)))
    assert EVALUATORS["td40"]()(board.tolist()) == pytest.approx(
        td.evaluate(board, td.shipped_net("td40")))
    assert td.default_net() is td.shipped_net("td80")
