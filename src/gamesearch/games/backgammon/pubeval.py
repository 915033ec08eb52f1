"""Tesauro's *pubeval*: the public linear evaluation of backgammon positions (a fixed baseline).

Source: Gerald Tesauro, ``pubeval.c`` (IBM Research, 1993, placed in the public domain "as a
public service to the backgammon programming community"); the weights below are the two
published vectors of 122 numbers, ``wr`` for races and ``wc`` for contact positions, as
carried by OpenBSD's ``games/backgammon/teachgammon/pubeval.c`` (rev. 1.3) and GNU
Backgammon's ``pub_eval.c``. The code here is our own, over gnubg's TanBoard.

The score is ``W . X`` for the position *after* a move, seen by the side that just moved;
the weight set is chosen by the position *before* the move (race when no contact is left).
Inputs, per point from the mover's 24-point down to its 1-point (five each): an opponent's
blot there, exactly one own checker, at least two, exactly three, ``(n - 3) / 2`` for
``n >= 4``; then the opponent's checkers on the bar / 2 and the mover's checkers off / 15.
A position with all 15 checkers off scores 99999999 (the best possible move), as in
Tesauro's code.

The score ranks moves; it is not an equity. :func:`evaluate` (the shape of the game's
``evaluation()`` capability: a value for the side on roll) returns minus the score of the
side that has just moved, so that the side on roll's best move is its opponent's worst
position, as the search needs it. :func:`pubeval_score` is the plain reference;
:func:`.compiled.pubeval_score` is the compiled twin, tested equal to it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamesearch.errors import InvalidPositionError

__all__ = ["WEIGHTS_CONTACT", "WEIGHTS_RACE", "best_position", "evaluate", "pubeval_score"]

WEIGHTS_CONTACT = np.array([
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
])

WEIGHTS_RACE = np.array([
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
])

TanBoard = Sequence[Sequence[int]]


def check_board(board: TanBoard) -> np.ndarray:
    """``board`` as a ``(2, 25)`` int8 array, or :class:`InvalidPositionError` in one line."""
    try:
        arr = np.asarray(board, dtype=np.int64)
    except (TypeError, ValueError) as exc:
        raise InvalidPositionError(f"a backgammon board is two rows of 25 counts: {exc}") from None
    if arr.shape != (2, 25):
        raise InvalidPositionError(
            f"a backgammon board is two rows of 25 counts, got shape {arr.shape}")
    if (arr < 0).any() or (arr.sum(axis=1) > 15).any():
        raise InvalidPositionError("each side has 0 to 15 checkers, none negative")
    for j in range(24):
        if arr[1, j] > 0 and arr[0, 23 - j] > 0:
            raise InvalidPositionError(f"both sides have checkers on the point {j + 1}")
    return arr.astype(np.int8)


def is_race(board: TanBoard) -> bool:
    """True when no contact is left (plain twin of :func:`.compiled.is_race`)."""
    own, opp = board[1], board[0]
    if own[24] or opp[24]:
        return False
    own_back = max((i for i in range(24) if own[i]), default=-1)
    opp_back = max((i for i in range(24) if opp[i]), default=-1)
    return own_back < 0 or opp_back < 0 or own_back < 23 - opp_back


def inputs(board: TanBoard) -> list[float]:
    """The 122 inputs of pubeval for the side in row 1 (which has just moved)."""
    own, opp = board[1], board[0]
    x = [0.0] * 122
    for block in range(24):
        point = 23 - block
        n = own[point]
        if n == 0 and opp[23 - point] == 1:
            x[5 * block] = 1.0
        if n == 1:
            x[5 * block + 1] = 1.0
        if n >= 2:
            x[5 * block + 2] = 1.0
        if n == 3:
            x[5 * block + 3] = 1.0
        if n >= 4:
            x[5 * block + 4] = (n - 3) / 2.0
    x[120] = opp[24] / 2.0
    x[121] = (15 - sum(own)) / 15.0
    return x


def pubeval_score(race: bool, board: TanBoard) -> float:
    """Tesauro's score of ``board`` for the side in row 1, which has just moved; ``race``
    says whether the position before the move was a race."""
    if sum(board[1]) == 0:
        return 99999999.0
    weights = WEIGHTS_RACE if race else WEIGHTS_CONTACT
    return float(sum(w * xi for w, xi in zip(weights, inputs(board), strict=True)))


def evaluate(board: TanBoard) -> float:
    """A value for the side on roll of ``board`` (row 1): minus pubeval's score of the
    side that has just moved (row 0), so higher is better for the side on roll. A ranking
    score, not an equity (it is not bounded by the points of a game)."""
    arr = check_board(board)
    moved = [list(arr[1]), list(arr[0])]
    return -pubeval_score(is_race(moved), moved)


def best_position(board: TanBoard, d1: int, d2: int) -> np.ndarray:
    """The position pubeval plays to for the side on roll of ``board`` with ``d1``-``d2``
    (the first best of the kernel's list on ties), from the mover's point of view."""
    from gamesearch.games.backgammon import compiled

    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidPositionError(f"dice are 1 to 6, got {d1}-{d2}")
    return np.asarray(compiled.pubeval_choose(check_board(board), d1, d2, WEIGHTS_RACE,
                                              WEIGHTS_CONTACT))
