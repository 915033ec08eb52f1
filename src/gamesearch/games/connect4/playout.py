"""Compiled random playouts for Connect Four (numba): the game's ``playouts()`` capability.

:func:`gamesearch.game.random_playout` plays uniformly random legal moves to the end of the
game (or for ``max_plies`` plies) with Python calls per ply; Monte Carlo tree search spends
most of its time there. This kernel plays the same policy over Pons's bitboards in machine
code: from ``(current, mask, moves, score)`` it picks a uniformly random open column, plays
it exactly as :meth:`ConnectFour.result` does (the side to move's stones become
``current ^ mask``, the evaluation E is carried for the side to move), and stops at a four,
a full board or after ``max_plies`` plies. It returns the state reached, a state of the
game like any other.

Random numbers come from a xorshift64* generator seeded with 63 bits drawn from the
caller's ``random.Random``: the same seed gives the same playouts, but not the same moves as
the Python path (another generator), only the same distribution; the tests compare the two
statistically. The plain path stays the reference (``random_playout(..., fast=False)``).

Without numba the module still imports and :data:`PLAYOUT` is ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..numba_support import available, np
from ..numba_support import jit as _jit
from .compiled import _has_four
from .rules import H1, HEIGHT, NUM_CELLS, WEIGHT, WIDTH, C4State

__all__ = ["PLAYOUT", "fast_playout"]

#: The weight of every bit of the board (0 for the sentinels), as machine integers.
_WEIGHTS = tuple(
    WEIGHT[bit // H1][bit % H1] if bit % H1 < HEIGHT else 0 for bit in range(WIDTH * H1))
_NO_LIMIT = 1 << 62


@_jit
def _playout(current: int, mask: int, moves: int, score: int, seed: int,
             max_plies: int) -> tuple[int, int, int, int]:
    weights = np.array(_WEIGHTS, dtype=np.int64)
    x = np.uint64(seed) | np.uint64(1)
    plies = 0
    while plies < max_plies and moves < NUM_CELLS and not _has_four(current ^ mask):
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
        open_cols = 0
        for c in range(WIDTH):
            if not (mask >> (c * H1 + HEIGHT - 1)) & 1:
                open_cols += 1
        k = int(r % np.uint64(open_cols))
        for c in range(WIDTH):
            if not (mask >> (c * H1 + HEIGHT - 1)) & 1:
                if k == 0:
                    new_mask = mask | (mask + (1 << (c * H1)))
                    bit = new_mask ^ mask
                    cell = 0
                    while (bit >> cell) != 1:
                        cell += 1
                    current ^= mask
                    mask = new_mask
                    score = -weights[cell] - score
                    break
                k -= 1
        moves += 1
        plies += 1
    return current, mask, moves, score


def fast_playout(state: C4State, rng: random.Random, max_plies: int | None = None) -> C4State:
    """A uniformly random playout from ``state`` in compiled code (see the module docstring)."""
    current, mask, moves, score = _playout(
        state[0], state[1], state[2], int(state[3]), rng.getrandbits(63),
        _NO_LIMIT if max_plies is None else max_plies)
    return (current, mask, moves, float(score))


#: The game's compiled playout: :func:`fast_playout` when numba is installed, else ``None``.
PLAYOUT: Callable[[Any, random.Random, int | None], Any] | None = (
    fast_playout if available() else None)
