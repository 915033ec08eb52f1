"""The compiled fast path of Othello: perft, random playouts and the exact endgame solver.

The solver answers what :func:`gamesearch.search.solve.solve` answers for Othello (the
library's :class:`~gamesearch.search.solve.Solver` driving
:class:`~gamesearch.search.negamax.Negamax` with the game's move ordering: the
plain path, the reference the tests hold this one to: the same exact score and the same set
of best moves), by the null-window alpha-beta of Edax's endgame search (Delorme, Edax 4.5
``src/endgame.c``; the techniques are in Buro's and Andersson's programs before it):

* **Null-window probes** (Plaat et al.'s MTD, on the root's fail-soft values) from a
  guess: "at least the guess?" first, then steps of 2, 4, 8, 16... discs away from it until
  the score is bracketed, then bisection; scores are even, so each probe halves the
  candidates. The plain :class:`~gamesearch.search.solve.Solver` bisects from the outside
  in (Pons's schedule for Connect Four); measured on FFO #40-#44 this schedule needs 30-50 %
  fewer nodes.
* **The guess** (Edax's midgame search before its endgame solve, much simplified): the
  same search, ``guess`` plies deep, with its own table and an estimate at its horizon
  (:func:`_estimate`: mobility, corners, stable discs, discs, fitted to exact scores),
  itself preceded by a shallower one (``guess_first`` plies) whose moves it tries first.
  Its best moves then go to the exact search's table as move hints with bounds that cut
  nothing (:func:`_seed_moves`), as Edax's shallower iterations leave theirs in its one
  table. It costs 0.01-3 % of the solve's nodes, counted in them; on #49 the guess saved
  23 %, the hints and the shallower guess a further 55 % (1.11G to 0.50G nodes).
* **Transposition table** with both bounds and the best move per entry (the plain path
  keeps one bound and no move), two slots a bucket, the entry nearer the end replaced first;
  the table's move is searched first.
* **Enhanced transposition cut-off** (Schaeffer and Plaat 1996): from ``etc`` empty
  squares up, a child whose entry already refutes the window ends the node unsearched.
* **Stability cut-off** (Edax's ``search_SC_NWS``): the opponent's stable discs bound the
  score from above (:func:`_stable_count`); a node whose bound is at or below the window
  returns it.
* **Move order**: the game's :func:`.rules.order_score` (fastest first: the opponent's
  fewest replies, corner replies counted three times; then stable corners, own mobility,
  square value, parity) above ``parity`` empty squares; at and below it, parity alone (the
  moves into quadrants with an odd number of empty squares first), as Edax's shallow
  search does.
* **The last empty square** is scored inline, without entering the full board (Edax's
  ``board_score_1``).

Node count, as Edax counts: every position the search enters (a table or stability cut-off
included, the root included), that is every position with at least one empty square; a
full board reached by the last move is scored, not entered. The children a node looks up
for its enhanced cut-off are not entered. The best-move probes (``best_moves=True``) are not
counted. ``DEFAULT_TUNING`` holds the thresholds, measured on FFO #40-#44 (the
``othello_ffo`` benchmark); the tests run every variant against the plain path.

The recursion is unrolled onto an explicit stack (numba cannot cache a recursive function,
numba issue #6061).

Bitboards are ``uint64`` here (logical right shifts); every constant is a ``uint64`` too, so
that numba never mixes signed and unsigned integers (which it would widen to float).

Without numba the module still imports; :func:`available` says False.
"""

from __future__ import annotations

import importlib
import random
import threading
import time
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ...argtypes import parse_size
from ...errors import GameError, InvalidLimitError, SearchTimeout
from ..numba_support import NUMBA_ERROR as _NUMBA_ERROR
from ..numba_support import available, njit, np
from ..numba_support import jit as _jit
from .rules import (
    CORNERS,
    INNER,
    PASS,
    PASS_BIT,
    QUADRANT_OF,
    QUADRANTS,
    RAYS,
    SQUARE_VALUE,
    W_CORNER_STABILITY,
    W_MOBILITY,
    W_OWN_MOBILITY,
    W_PARITY,
    W_SQUARE,
    OState,
    Othello,
    _check_state,
    final_score,
    legal_moves,
    squares,
)

__all__ = ["SOLVER", "CompiledSolver", "available", "fast_playout", "perft"]


F = TypeVar("F", bound=Callable[..., Any])


def _u64(x: int) -> Any:
    return np.uint64(x) if np is not None else x


# ----- constants: uint64, frozen into the compiled code ----------------------------------
_INNER = _u64(INNER)
_CORNERS = _u64(CORNERS)
_NOT_A = _u64(0xFEFEFEFEFEFEFEFE)
_NOT_H = _u64(0x7F7F7F7F7F7F7F7F)
_C_LEFT = _u64(0x0100000000000001)  # a1, a8: their neighbour on the row is one bit up
_C_RIGHT = _u64(0x8000000000000080)  # h1, h8
_C_LOW = _u64(0x0000000000000081)  # a1, h1: their neighbour on the column is 8 bits up
_C_HIGH = _u64(0x8100000000000000)  # a8, h8
_ZERO = _u64(0)
_ONE = _u64(1)
_HASH_P = _u64(0x9E3779B97F4A7C15)
_HASH_O = _u64(0xC2B2AE3D27D4EB4F)
_NEG_INF = -(1 << 20)  # below any value
_MAX_PLY = 128  # 60 moves and the passes between them
_MAX_MOVES = 40  # Othello positions have at most 33 legal moves
# Stats slots: nodes, slots of the table in use, the node budget.
_NODES, _COUNT, _LIMIT = 0, 1, 2
_NO_LIMIT = 1 << 62


def _intrinsics() -> tuple[Any, Any]:
    """The CPU's population count and count-leading-zeros on uint64 (LLVM intrinsics)."""
    if njit is None:  # pragma: no cover - depends on the environment
        return (lambda x: bin(x).count("1")), (lambda x: 64 - int(x).bit_length())
    numba = importlib.import_module("numba")
    extending = importlib.import_module("numba.extending")
    ir = importlib.import_module("llvmlite.ir")
    u64 = numba.types.uint64

    def popcount(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.zext(builder.ctpop(args[0]), ir.IntType(64))

        return numba.types.int64(u64), codegen

    def clz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return numba.types.int64(u64), codegen

    return extending.intrinsic(popcount), extending.intrinsic(clz)


_popcount, _clz = _intrinsics()


def _ray_table() -> Any:
    """``rays[sq, 0:4]`` towards higher squares, ``rays[sq, 4:8]`` towards lower ones
    (0: no ray), as :data:`.rules.RAYS`."""
    if np is None:  # pragma: no cover - depends on the environment
        return None
    out = np.zeros((64, 8), dtype=np.uint64)
    for sq, (up, down) in enumerate(RAYS):
        for i, ray in enumerate(up):
            out[sq, i] = ray
        for i, ray in enumerate(down):
            out[sq, 4 + i] = ray
    return out


_RAYS = _ray_table()
_QUADRANT_OF: Any = None if np is None else np.array(QUADRANT_OF, dtype=np.uint64)
_SQUARE_VALUE: Any = None if np is None else np.array(SQUARE_VALUE, dtype=np.int64)
_QUADRANTS: Any = None if np is None else np.array(QUADRANTS, dtype=np.uint64)


# ----- bitboards (rules.legal_moves, flips, neighbours, final_score) ----------------------
def _twin(fn: F, **scope: Any) -> F:
    """``fn`` of :mod:`.rules`, compiled: the same code (one source for both paths), with
    the module names in ``scope`` rebound: constants to ``uint64`` (so that numba shifts
    unsigned words, logically), functions to their compiled twins."""
    if njit is None:  # pragma: no cover - depends on the environment
        return fn
    names = dict(fn.__globals__)
    names.update({name: np.uint64(value) if isinstance(value, int) else value
                  for name, value in scope.items()})
    clone = types.FunctionType(fn.__code__, names, fn.__name__, fn.__defaults__,
                               fn.__closure__)
    clone.__qualname__ = f"{fn.__qualname__}_uint64"
    return _jit(cast(F, clone))


#: :func:`.rules.legal_moves` on uint64 bitboards.
_legal = _twin(legal_moves, INNER=INNER, FULL=(1 << 64) - 1)


@_jit
def _flips(p: Any, o: Any, sq: int) -> Any:
    """:func:`.rules.flips` on uint64: the first non-opposing square of each ray is its
    lowest set bit (rays towards higher squares) or its highest (towards lower ones)."""
    f = _ZERO
    for i in range(4):
        ray = _RAYS[sq, i]
        b = ray & ~o
        first = b & (b ^ (b - _ONE))
        if first & p:
            f |= ray & (first - _ONE)
    for i in range(4, 8):
        ray = _RAYS[sq, i]
        b = ray & ~o
        if b:
            first = _ONE << np.uint64(63 - _clz(b))
            if first & p:
                f |= ray & ~((first << 1) - _ONE)
    return f


#: :func:`.rules.final_score` with the CPU's population count.
_final = _twin(final_score, popcount=_popcount)


# ----- perft ------------------------------------------------------------------------------
@_jit
def _perft(p: Any, o: Any, depth: int, full: bool) -> int:
    """:func:`.rules.perft` as a loop over an explicit stack (``rest[ply]``: the moves of
    the node at ``ply`` not yet searched; ``passing[ply]``: its one move is a pass)."""
    if depth == 0:
        return 1
    sp = np.zeros(depth + 1, dtype=np.uint64)
    so = np.zeros(depth + 1, dtype=np.uint64)
    rest = np.zeros(depth + 1, dtype=np.uint64)
    passing = np.zeros(depth + 1, dtype=np.bool_)
    total = 0
    ply = 0
    sp[0] = p
    so[0] = o
    while True:
        # expand the node at ply (depth - ply >= 1 plies to go)
        p = sp[ply]
        o = so[ply]
        m = _legal(p, o)
        rest[ply] = _ZERO
        passing[ply] = False
        if m == _ZERO:
            if _legal(o, p) == _ZERO:  # the game is over
                if not full:
                    total += 1
            elif depth - ply == 1:
                total += 1
            else:
                passing[ply] = True
        elif depth - ply == 1:
            total += _popcount(m)
        else:
            rest[ply] = m
        # the next child, going up as far as needed
        while ply >= 0:
            if passing[ply]:
                passing[ply] = False
                sp[ply + 1] = so[ply]
                so[ply + 1] = sp[ply]
                break
            m = rest[ply]
            if m != _ZERO:
                bit = m & (m ^ (m - _ONE))
                rest[ply] = m ^ bit
                sq = 63 - _clz(bit)
                f = _flips(sp[ply], so[ply], sq)
                sp[ply + 1] = so[ply] ^ f
                so[ply + 1] = sp[ply] | f | bit
                break
            ply -= 1
        if ply < 0:
            return total
        ply += 1


def perft(state: OState, depth: int, full_depth: bool = False) -> int:
    """:func:`.rules.perft`, compiled (the same counts; numba required)."""
    p, o, _, _ = _check_state(state)
    if depth < 0:
        raise InvalidLimitError(f"perft depth {depth}: must be >= 0")
    return int(_perft(np.uint64(p), np.uint64(o), depth, full_depth))


# ----- the solver's move ordering (rules.order_score) -------------------------------------
@_jit
def _corner_stability(x: Any) -> Any:
    """:func:`.rules.corner_stability`."""
    return _popcount((((x & _C_LEFT) << 1) | ((x & _C_RIGHT) >> 1) | ((x & _C_LOW) << 8)
                       | ((x & _C_HIGH) >> 8) | _CORNERS) & x)



# ----- stable discs (an upper bound on the final score: Edax's stability cut-off) ----------
def _line_masks() -> tuple[Any, Any]:
    """The 15 diagonals of each direction (a1-h8 parallels, then h1-a8 parallels)."""
    if np is None:  # pragma: no cover - depends on the environment
        return None, None
    d9 = np.zeros(15, dtype=np.uint64)
    d7 = np.zeros(15, dtype=np.uint64)
    for sq in range(64):
        row, col = divmod(sq, 8)
        d9[col - row + 7] |= np.uint64(1 << sq)
        d7[col + row] |= np.uint64(1 << sq)
    return d9, d7


_DIAG9, _DIAG7 = _line_masks()
_COLS_AH = _u64(0x8181818181818181)
_ROWS_18 = _u64(0xFF000000000000FF)
_BORDER = _u64(0xFF818181818181FF)
_BYTE = _u64(0xFF)
_COL_SPREAD = _u64(0x0101010101010101)


@_jit
def _stable_count(own: Any, other: Any) -> Any:
    """How many of ``own``'s discs can never be flipped, found as Edax's ``get_stability``
    finds them: a disc is stable when on each of its four lines it cannot be outflanked -
    the line is full, or the disc is on the border, or its neighbour on the line is an own
    stable disc - iterated to a fixed point from the discs that pass on full lines alone.
    Sound, not complete: the true count may be higher."""
    occ = own | other
    full_h = _ZERO
    for r in range(8):
        if ((occ >> np.uint64(8 * r)) & _BYTE) == _BYTE:
            full_h |= _BYTE << np.uint64(8 * r)
    c = occ & (occ >> np.uint64(32))
    c &= c >> np.uint64(16)
    c &= c >> np.uint64(8)
    full_v = (c & _BYTE) * _COL_SPREAD
    full_9 = _ZERO
    full_7 = _ZERO
    for i in range(15):
        if (occ & _DIAG9[i]) == _DIAG9[i]:
            full_9 |= _DIAG9[i]
        if (occ & _DIAG7[i]) == _DIAG7[i]:
            full_7 |= _DIAG7[i]
    safe_h = full_h | _COLS_AH
    safe_v = full_v | _ROWS_18
    safe_9 = full_9 | _BORDER
    safe_7 = full_7 | _BORDER
    stable = own & safe_h & safe_v & safe_9 & safe_7
    while True:
        grown = own & (safe_h | ((stable << _ONE) & _NOT_A) | ((stable >> _ONE) & _NOT_H)) \
            & (safe_v | (stable << np.uint64(8)) | (stable >> np.uint64(8))) \
            & (safe_9 | ((stable << np.uint64(9)) & _NOT_A) | ((stable >> np.uint64(9)) & _NOT_H)) \
            & (safe_7 | ((stable << np.uint64(7)) & _NOT_H) | ((stable >> np.uint64(7)) & _NOT_A))
        grown |= stable
        if grown == stable:
            return _popcount(stable)
        stable = grown


# ----- the transposition table -------------------------------------------------------------
# Row i of ``tt`` is one slot: the keys (the mover's discs, the other player's) and the word
# 1 (in use) | (lower + 64) << 1 | (upper + 64) << 9 | best square << 17 | empties << 24.
# Two slots form a bucket; a new key replaces the bucket's entry with fewer empty squares
# (the cheaper one to search again). The value depends on the discs alone (the mover's
# colour does not matter), so the key is the two bitboards.
_NO_SQ = 64  # no best square in the entry (a pass, or a node that failed low)
_WORD_SQ = 127 << 17  # the word's best square
_WORD_EMPTIES = 127 << 24  # the word's empty squares
_WORD_NO_BOUNDS = 1 | (128 << 9)  # in use, bounds -64 and 64: an entry that cuts nothing


@_jit
def _bucket(p: Any, o: Any, shift: Any) -> Any:
    h = p * _HASH_P ^ o * _HASH_O
    h ^= h >> np.uint64(29)
    h *= _HASH_P
    return np.int64(h >> shift) & ~np.int64(1)


@_jit
def _tt_probe(tt: Any, p: Any, o: Any, shift: Any) -> Any:
    """The slot holding the key, or -1."""
    i = _bucket(p, o, shift)
    if tt[i, 2] != _ZERO and tt[i, 0] == p and tt[i, 1] == o:
        return i
    if tt[i + 1, 2] != _ZERO and tt[i + 1, 0] == p and tt[i + 1, 1] == o:
        return i + 1
    return -1


@_jit
def _tt_store(tt: Any, st: Any, p: Any, o: Any, shift: Any, empties: int, alpha: int,
              best: int, sq: int) -> None:
    """Record the result ``best`` of a null-window search ``(alpha, alpha + 1)``: a lower
    bound when it failed high (with its move), an upper bound otherwise."""
    lower = -64
    upper = 64
    old_sq = _NO_SQ
    j = _tt_probe(tt, p, o, shift)
    if j >= 0:
        w = np.int64(tt[j, 2])
        lower = ((w >> 1) & 255) - 64
        upper = ((w >> 9) & 255) - 64
        old_sq = (w >> 17) & 127
    else:  # replace the emptier slot, or the one with fewer empty squares
        i = _bucket(p, o, shift)
        w0 = np.int64(tt[i, 2])
        w1 = np.int64(tt[i + 1, 2])
        if w0 == 0:
            j = i
        elif w1 == 0:
            j = i + 1
        else:
            j = i if (w0 >> 24) <= (w1 >> 24) else i + 1
        if tt[j, 2] == _ZERO:
            st[_COUNT] += 1
        tt[j, 0] = p
        tt[j, 1] = o
    if best > alpha:
        lower = max(lower, best)
        old_sq = sq
    else:
        upper = min(upper, best)
    tt[j, 2] = np.uint64(1 | ((lower + 64) << 1) | ((upper + 64) << 9) | (old_sq << 17)
                         | (empties << 24))


# ----- the search ---------------------------------------------------------------------------
# Per ply: ``wu[ply]`` the node's bitboards (0, 1) and its children (3 + 3i, 4 + 3i) with
# their moves (5 + 3i, ``_UNKNOWN``: not generated yet);
# ``wi[ply]`` its frame on the explicit stack, then the squares and scores of its moves.
_F_ALPHA, _F_BEST, _F_BEST_SQ, _F_I, _F_K, _F_EMPTIES = range(6)
_SQ = 8
_SCORE = _SQ + _MAX_MOVES
_WI = _SCORE + _MAX_MOVES
_WU = 3 + 3 * _MAX_MOVES
_UNKNOWN = _u64(0xFFFFFFFFFFFFFFFF)  # no legal-move set is every square
_HASH_FIRST = 1 << 40  # the ordering score of the table's move: first
#: ``cfg``: the tuning of the search (see :data:`DEFAULT_TUNING`)
_C_TABLE, _C_ETC, _C_STABILITY, _C_PARITY, _C_GROW, _C_GUESS, _C_GUESS_FIRST, _C_SEED, _C_FLOOR = (
    range(9))


@_jit
def _order(p: Any, o: Any, moves: Any, cu: Any, ci: Any, first_sq: int) -> int:
    """The moves of ``p`` best first: ``first_sq`` (the table's move) first, then by
    :func:`.rules.order_score` (fastest first: the opponent's fewest replies; ties in square
    order): square ``ci[_SQ + i]``, child position (mover first) ``cu[3 + 3i]``,
    ``cu[4 + 3i]`` and its legal moves ``cu[5 + 3i]``. Returns how many."""
    k = 0
    while moves != _ZERO:
        bit = moves & (moves ^ (moves - _ONE))
        moves ^= bit
        sq = 63 - _clz(bit)
        f = _flips(p, o, sq)
        p2 = p | f | bit
        o2 = o ^ f
        replies = _legal(o2, p2)
        if sq == first_sq:
            score = _HASH_FIRST
        else:
            score = (W_MOBILITY * (36 - _popcount(replies) - 2 * _popcount(replies & _CORNERS))
                     + W_CORNER_STABILITY * _corner_stability(p2)
                     + W_OWN_MOBILITY * _popcount(_legal(p2, o2))
                     + W_SQUARE * _SQUARE_VALUE[sq])
            if _popcount((~(p2 | o2) | bit) & _QUADRANT_OF[sq]) & 1:
                score += W_PARITY
        j = k
        while j > 0 and ci[_SCORE + j - 1] < score:  # stable: equal scores keep order
            ci[_SCORE + j] = ci[_SCORE + j - 1]
            ci[_SQ + j] = ci[_SQ + j - 1]
            cu[3 + 3 * j] = cu[3 * j]
            cu[4 + 3 * j] = cu[1 + 3 * j]
            cu[5 + 3 * j] = cu[2 + 3 * j]
            j -= 1
        ci[_SCORE + j] = score
        ci[_SQ + j] = sq
        cu[3 + 3 * j] = o2
        cu[4 + 3 * j] = p2
        cu[5 + 3 * j] = replies
        k += 1
    return k


@_jit
def _only_child(p: Any, o: Any, sq: int, cu: Any, ci: Any) -> int:
    """The node's one child: the move ``sq`` (or the pass) as child 0, its moves
    ``_UNKNOWN``. Returns 1."""
    ci[_SQ] = sq
    if sq == PASS:
        cu[3] = o
        cu[4] = p
    else:
        bit = _ONE << np.uint64(sq)
        f = _flips(p, o, sq)
        cu[3] = o ^ f
        cu[4] = p | f | bit
    cu[5] = _UNKNOWN
    return 1


@_jit
def _parity_order(p: Any, o: Any, moves: Any, cu: Any, ci: Any) -> int:
    """Near the end: the moves into quadrants with an odd number of empty squares first,
    each group in square order; the children's moves are left ``_UNKNOWN``."""
    empty = ~(p | o)
    odd = _ZERO
    for q in range(4):
        quadrant = _QUADRANTS[q]
        if _popcount(empty & quadrant) & 1:
            odd |= quadrant
    k = 0
    for group in (moves & odd, moves & ~odd):
        while group != _ZERO:
            bit = group & (group ^ (group - _ONE))
            group ^= bit
            sq = 63 - _clz(bit)
            f = _flips(p, o, sq)
            ci[_SQ + k] = sq
            cu[3 + 3 * k] = o ^ f
            cu[4 + 3 * k] = p | f | bit
            cu[5 + 3 * k] = _UNKNOWN
            k += 1
    return k


@_jit
def _last_square(p: Any, o: Any, empty: Any) -> Any:
    """The final score with one empty square or none, without entering the full board
    (Edax's ``board_score_1``): the mover takes the square if it can, else the opponent."""
    if empty == _ZERO:
        return 2 * _popcount(p) - 64
    sq = 63 - _clz(empty)
    f = _flips(p, o, sq)
    if f != _ZERO:
        return 2 * _popcount(p | f | empty) - 64
    f = _flips(o, p, sq)
    if f != _ZERO:
        return 64 - 2 * _popcount(o | f | empty)
    return _final(p, o)


@_jit
def _estimate(p: Any, o: Any, moves: Any) -> Any:
    """A guess of the final disc difference for ``p`` to move (an even number): mobility,
    corners, stable discs and discs, weighted by a least-squares fit to exact scores of
    positions with 12 empty squares (FFO #1-#59 played forward at random)."""
    v = (27 * (_popcount(moves) - _popcount(_legal(o, p)))
         + 68 * (_popcount(p & _CORNERS) - _popcount(o & _CORNERS))
         + 10 * (_stable_count(p, o) - _stable_count(o, p))
         - 3 * (_popcount(p) - _popcount(o)))
    v = v // 20 if v >= 0 else -((-v) // 20)
    return 2 * max(-32, min(32, v))


@_jit
def _nws(p: Any, o: Any, moves: Any, alpha: int, ply: int, tt: Any, st: Any, shift: Any,
         cfg: Any, wu: Any, wi: Any) -> int:
    """The fail-soft value of ``p`` to move, searched with the null window
    ``(alpha, alpha + 1)`` on an explicit stack. ``moves``: the legal moves of ``p`` or
    ``_UNKNOWN``."""
    top = ply
    table_above = cfg[_C_TABLE]
    etc_from = cfg[_C_ETC]
    stability_from = cfg[_C_STABILITY]
    parity_upto = cfg[_C_PARITY]
    floor = cfg[_C_FLOOR]
    while True:
        # ----- enter the node (p, o) at ply with the window (alpha, alpha + 1) ----------
        st[_NODES] += 1
        if st[_NODES] > st[_LIMIT]:  # out of budget: unwind at once, storing nothing
            return 0
        empty = ~(p | o)
        empties = _popcount(empty)
        done = False
        val = 0
        first_sq = _NO_SQ
        if empties <= 1:
            val = _last_square(p, o, empty)
            done = True
        else:
            if moves == _UNKNOWN:
                moves = _legal(p, o)
            if moves == _ZERO and _legal(o, p) == _ZERO:  # the game is over
                val = _final(p, o)
                done = True
            elif empties <= floor:  # the horizon of a guessing search
                val = _estimate(p, o, moves)
                done = True
            elif empties >= stability_from and alpha >= 64 - 2 * _popcount(o):
                bound = 64 - 2 * _stable_count(o, p)
                if bound <= alpha:
                    val = bound
                    done = True
            if not done and empties > table_above:
                j = _tt_probe(tt, p, o, shift)
                if j >= 0:
                    w = np.int64(tt[j, 2])
                    lower = ((w >> 1) & 255) - 64
                    upper = ((w >> 9) & 255) - 64
                    if lower > alpha:
                        val = lower
                        done = True
                    elif upper <= alpha:
                        val = upper
                        done = True
                    else:
                        first_sq = (w >> 17) & 127
        if not done:
            cu = wu[ply]
            f = wi[ply]
            cu[0] = p
            cu[1] = o
            if moves == _ZERO:
                k = _only_child(p, o, PASS, cu, f)
            elif empties > parity_upto:
                k = _order(p, o, moves, cu, f, first_sq)
                if empties >= etc_from:  # a child whose table entry already refutes
                    for i in range(k):
                        j = _tt_probe(tt, cu[3 + 3 * i], cu[4 + 3 * i], shift)
                        if j >= 0:
                            v = 64 - ((np.int64(tt[j, 2]) >> 9) & 255)  # -(child's upper)
                            if v > alpha:
                                val = v
                                done = True
                                break
            else:
                k = _parity_order(p, o, moves, cu, f)
            if not done:
                f[_F_ALPHA] = alpha
                f[_F_BEST] = _NEG_INF
                f[_F_BEST_SQ] = _NO_SQ
                f[_F_I] = 0
                f[_F_K] = k
                f[_F_EMPTIES] = empties
                p = cu[3]
                o = cu[4]
                moves = cu[5]
                alpha = -alpha - 1
                ply += 1
                continue
        # ----- ``val`` is the value of the node at ply: hand it up the stack -------------
        # (Connect Four's kernel unwinds its own stack alike: each frame layout is its own)
        while True:
            if ply == top:
                return val
            ply -= 1
            f = wi[ply]
            v = -val
            i = f[_F_I]
            alpha = f[_F_ALPHA]
            if v > f[_F_BEST]:
                f[_F_BEST] = v
                f[_F_BEST_SQ] = f[_SQ + i]
            i += 1
            if v <= alpha and i < f[_F_K]:  # the next child
                f[_F_I] = i
                cu = wu[ply]
                p = cu[3 + 3 * i]
                o = cu[4 + 3 * i]
                moves = cu[5 + 3 * i]
                alpha = -alpha - 1
                ply += 1
                break
            val = f[_F_BEST]
            if f[_F_EMPTIES] > table_above:
                sq = f[_F_BEST_SQ]
                _tt_store(tt, st, wu[ply, 0], wu[ply, 1], shift, f[_F_EMPTIES], alpha, val,
                          sq if sq != PASS else _NO_SQ)


@_jit
def _root(p: Any, o: Any, alpha: int, only: int, tt: Any, st: Any, shift: Any, cfg: Any,
          wu: Any, wi: Any) -> tuple[int, int]:
    """The root with the null window ``(alpha, alpha + 1)``: (fail-soft value, move of the
    best value). ``only`` >= 0 searches that move alone and stores nothing."""
    st[_NODES] += 1
    cu = wu[0]
    ci = wi[0]
    moves = _legal(p, o)
    empties = _popcount(~(p | o))
    if only >= 0:
        k = _only_child(p, o, only, cu, ci)
    elif moves == _ZERO:
        k = _only_child(p, o, PASS, cu, ci)
    else:
        j = _tt_probe(tt, p, o, shift)
        first_sq = _NO_SQ if j < 0 else (np.int64(tt[j, 2]) >> 17) & 127
        k = _order(p, o, moves, cu, ci, first_sq)
    best = _NEG_INF
    best_sq = -1
    for i in range(k):
        v = -_nws(cu[3 + 3 * i], cu[4 + 3 * i], cu[5 + 3 * i], -alpha - 1, 1, tt, st, shift,
                  cfg, wu, wi)
        if st[_NODES] > st[_LIMIT]:  # out of budget: no result, nothing stored
            return 0, -1
        if v > best:
            best = v
            best_sq = ci[_SQ + i]
            if v > alpha:
                break
    if only < 0:  # a root restricted to one move is no bound on the position: no store
        _tt_store(tt, st, p, o, shift, empties, alpha, best,
                  best_sq if best_sq != PASS else _NO_SQ)
    return best, best_sq


@_jit
def _score(p: Any, o: Any, weak: bool, guess: int, tt: Any, st: Any, shift: Any, cfg: Any,
           wu: Any, wi: Any) -> tuple[int, int]:
    """The exact score by null-window probes (MTD-style): "at least a draw?" first, then
    steps of 2, 4, 8... discs away from zero until the score is bracketed, then bisection
    (scores are even, so a probe ``(b, b + 1)`` with ``b`` odd halves the candidates). Each
    fail-soft answer narrows the bracket by what it proves. (score, move or -1); (0, -2)
    when the node budget ran out."""
    move = -1
    lo = -64
    hi = 64
    if weak:
        lo = -1
        hi = 1
    step = 2
    b = max(lo, min(hi - 1, guess - 1))
    high = False
    low = False
    while lo < hi:
        if weak:
            b = lo + (hi - lo) // 2
        elif high and low:
            b = lo + 2 * ((hi - lo) // 4) + 1
        elif high:
            b = min(lo + step - 1, hi - 1)
            step = step * cfg[_C_GROW] // 2
        elif low:
            b = max(hi - step - 1, lo)
            step = step * cfg[_C_GROW] // 2
        value, action = _root(p, o, b, -1, tt, st, shift, cfg, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return 0, -2
        r = max(lo, min(hi, value))
        if value > b:
            lo = r
            high = True
            if action >= 0:
                move = action
        else:
            hi = r
            low = True
    return lo, move


@_jit
def _best_moves(p: Any, o: Any, score: int, weak: bool, tt: Any, st: Any, shift: Any,
                cfg: Any, wu: Any, wi: Any) -> tuple[Any, bool]:
    """``Solver._best_moves``: one null-window probe per legal move in square order, warm
    table. (the best squares as a bitboard, "the pass is best": the one move of a node
    without any other)."""
    b = score - 1 if not weak else min(score, 1) - 1
    moves = _legal(p, o)
    if moves == _ZERO:
        value, _ = _root(p, o, b, PASS, tt, st, shift, cfg, wu, wi)
        return _ZERO, value > b
    best = _ZERO
    rest = moves
    while rest != _ZERO:
        bit = rest & (rest ^ (rest - _ONE))
        rest ^= bit
        value, _ = _root(p, o, b, 63 - _clz(bit), tt, st, shift, cfg, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return _ZERO, False
        if value > b:
            best |= bit
    return best, False


@_jit
def _seed_moves(gt: Any, tt: Any, st: Any, shift: Any) -> None:
    """Hand the guessing search's best moves to the exact search's table as move hints
    (bounds -64 and 64, which cut nothing), as Edax's shallower iterations leave theirs in
    the one table: the top of the exact search then starts from moves that were best at
    the horizon."""
    for i in range(gt.shape[0]):
        w = np.int64(gt[i, 2])
        sq = (w >> 17) & 127
        if w == 0 or sq == _NO_SQ:
            continue
        p = gt[i, 0]
        o = gt[i, 1]
        j = _tt_probe(tt, p, o, shift)
        if j >= 0:
            w2 = np.int64(tt[j, 2])
            if ((w2 >> 17) & 127) == _NO_SQ:
                tt[j, 2] = np.uint64((w2 & ~np.int64(_WORD_SQ)) | (sq << 17))
            continue
        _tt_store(tt, st, p, o, shift, w >> 24, -65, -64, sq)


@_jit
def _moves_only(t: Any) -> None:
    """Keep the table's moves and forget its bounds (-64 and 64 cut nothing)."""
    keep = np.uint64(_WORD_SQ | _WORD_EMPTIES)
    for i in range(t.shape[0]):
        if t[i, 2] != _ZERO:
            t[i, 2] = (t[i, 2] & keep) | np.uint64(_WORD_NO_BOUNDS)


#: ``_run``'s flags.
_WEAK, _KEEP, _ALL_MOVES = 1, 2, 4


@_jit
def _run(p: Any, o: Any, flags: int, limit: int, tt: Any, st: Any, shift: Any, gt: Any,
         gshift: Any, cfg: Any, wu: Any, wi: Any) -> tuple[int, int, int, Any, bool]:
    """One call for a whole solve: :func:`_score`, then :func:`_best_moves` when asked or
    when no probe gave a move. (score, move or -1, nodes of the solve alone or -1 when the
    budget ran out, best moves as a bitboard, "the best move is the pass")."""
    st[_LIMIT] = limit
    if (flags & _KEEP) == 0 and st[_COUNT] > 0:
        tt[:, 2] = _ZERO
        st[_COUNT] = 0
    st[_NODES] = 0
    weak = (flags & _WEAK) != 0
    guess = 0
    depth = cfg[_C_GUESS]
    empties = _popcount(~(p | o))
    if not weak and depth > 0 and empties - depth >= 2:
        heuristic = cfg.copy()
        gt[:, 2] = _ZERO
        first = cfg[_C_GUESS_FIRST]
        if 0 < first < depth:
            heuristic[_C_FLOOR] = empties - first
            guess, _ = _score(p, o, False, 0, gt, st, gshift, heuristic, wu, wi)
            _moves_only(gt)
        heuristic[_C_FLOOR] = empties - depth
        guess, _ = _score(p, o, False, guess, gt, st, gshift, heuristic, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return 0, -1, -1, _ZERO, False
        if cfg[_C_SEED]:
            _seed_moves(gt, tt, st, shift)
    score, move = _score(p, o, weak, guess, tt, st, shift, cfg, wu, wi)
    if move == -2:
        return 0, -1, -1, _ZERO, False
    nodes = st[_NODES]
    best = _ZERO
    passing = False
    if (flags & _ALL_MOVES) != 0 or move < 0:
        best, passing = _best_moves(p, o, score, weak, tt, st, shift, cfg, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return 0, -1, -1, _ZERO, False
    return score, move, nodes, best, passing


# ----- random playouts (the game's compiled playouts, for Monte Carlo tree search) --------
@_jit
def _playout(p: Any, o: Any, side: int, seed: int,
             max_plies: int) -> tuple[Any, Any, int, Any, int]:
    """Uniformly random legal moves (a pass when the mover has none) from ``(p, o)`` until
    the game ends or ``max_plies`` plies (passes included) are played, as
    :func:`gamesearch.game.random_playout` plays them with :meth:`.rules.Othello.result`.
    Random numbers: xorshift64* seeded with ``seed``. (mover's discs, other's, side to move,
    legal moves, 0 / 1 "must pass" / 2 "over")."""
    x = np.uint64(seed) | _ONE
    moves = _legal(p, o)
    plies = 0
    while True:
        status = 0
        if moves == _ZERO:
            status = 1 if _legal(o, p) != _ZERO else 2
        if status == 2 or plies >= max_plies:
            return p, o, side, moves, status
        plies += 1
        if status == 1:  # the pass
            p, o = o, p
            side ^= 1
            moves = _legal(p, o)
            continue
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
        k = np.int64(r % np.uint64(_popcount(moves)))
        rest = moves
        for _ in range(k):
            rest &= rest - _ONE
        bit = rest & (rest ^ (rest - _ONE))
        f = _flips(p, o, 63 - _clz(bit))
        p, o = o ^ f, p | f | bit
        side ^= 1
        moves = _legal(p, o)


_NO_PLIES_LIMIT = 1 << 30


def fast_playout(state: OState, rng: random.Random, max_plies: int | None = None) -> OState:
    """A uniformly random playout from ``state`` in compiled code (see :func:`_playout`):
    the same distribution as :func:`gamesearch.game.random_playout`, another generator
    (seeded from ``rng``). Returns the state reached."""
    p, o, side, moves, status = _playout(
        np.uint64(state[0]), np.uint64(state[1]), state[2], rng.getrandbits(63),
        _NO_PLIES_LIMIT if max_plies is None else max_plies)
    return (int(p), int(o), int(side), PASS_BIT if status == 1 else 0 if status else int(moves))


# ----- the Python side ----------------------------------------------------------------------
_GAME = Othello()
_DEFAULT_CAPACITY = 1 << 22  # the Solver's default table


#: The search's tuning, measured on FFO #40-#44 (nodes; ``benchmarks/othello_ffo.py``):
#: ``table``: nodes with more empty squares than this use the table (3: 8 % fewer nodes
#: than 4 but 25 % slower; 6: 10 % more); ``etc``: from this many empty squares a node
#: looks up its children for an enhanced transposition cut-off; ``stability``: from this
#: many the stable discs may bound the score; ``parity``: at and below this many, moves are
#: ordered by parity alone; ``grow``: the root's step grows by ``grow / 2`` a probe;
#: ``guess``: how many plies the guessing search looks ahead (0: none, probe from a draw);
#: ``guess_first``: a shallower guessing search before it, whose moves it searches first
#: (0: none); ``seed``: 1 hands the guessing search's moves to the exact search's table.
#: ``guess`` was chosen on FFO #40-#49 themselves (0, 8, 12, 16 tried; 16 is the only one
#: with every position within 3x Edax's nodes), so those figures are not out-of-sample;
#: ``seed`` and ``guess_first`` (8, 10, 12 tried) on #36-#38 and #40-#47 without #45: 320M
#: nodes against 462M with neither (333M with ``seed`` alone).
DEFAULT_TUNING = {"table": 4, "etc": 8, "stability": 5, "parity": 3, "grow": 4,
                  "guess": 16, "guess_first": 10, "seed": 1}
_TUNING_ORDER = ("table", "etc", "stability", "parity", "grow", "guess", "guess_first", "seed")
_GUESS_SLOTS = 1 << 20


class CompiledSolver:
    """The compiled exact solver (:class:`~gamesearch.game.FastSolver`): the exact score and
    best move(s) of ``gamesearch.search.solve.solve(Othello(), state)`` as plain data, by
    the algorithm the module docstring describes (its node counts are its own). One table
    per capacity in use; calls from several threads take turns."""

    def __init__(self) -> None:
        self._arrays: dict[int, tuple[Any, ...]] = {}
        self._lock = threading.Lock()
        self.tuning = dict(DEFAULT_TUNING)

    def _tables(self, cap: int) -> tuple[Any, ...]:
        arrays = self._arrays.get(cap)
        if arrays is None:
            self._arrays.clear()  # keep one table at most
            slots = max(2, cap)  # a power of two: buckets of two slots
            arrays = (
                np.zeros((slots, 3), dtype=np.uint64),  # keys and words (see _tt_store)
                np.zeros(3, dtype=np.int64),  # nodes, slots in use, node budget
                np.uint64(64 - (slots.bit_length() - 1)),  # hash shift
                np.zeros((_MAX_PLY, _WU), dtype=np.uint64),
                np.zeros((_MAX_PLY, _WI), dtype=np.int64),
                np.zeros((_GUESS_SLOTS, 3), dtype=np.uint64),  # the guessing search's table
                np.uint64(64 - (_GUESS_SLOTS.bit_length() - 1)),
            )
            arrays[0].fill(0)  # touch every page now, not one page fault per early entry
            self._arrays[cap] = arrays
        return arrays

    def table_stats(self) -> dict[str, int]:
        """The table after the last solve: ``entries`` (slots in use), ``capacity``; all 0
        before any solve."""
        for cap, arrays in self._arrays.items():
            return {"entries": int(arrays[1][_COUNT]), "capacity": cap}
        return {"entries": 0, "capacity": 0}

    def solve(self, state: OState | str, *, weak: bool = False, best_moves: bool = False,
              keep_table: bool = False, max_nodes: int | None = None,
              tt_capacity: int | str = _DEFAULT_CAPACITY) -> dict[str, Any]:
        """Solve ``state`` (a state or a position string): ``{"value", "move", "moves",
        "nodes", "seconds"}`` as :class:`~gamesearch.game.FastSolver` describes, ``value``
        the final disc difference for the side to move with perfect play."""
        start = time.perf_counter()
        if not available():  # pragma: no cover - depends on the environment
            raise GameError(f"the compiled Othello solver needs numba ({_NUMBA_ERROR}): "
                            "pip install 'gamesearch[fast]'")
        s = _GAME.parse_state(state) if isinstance(state, str) else _check_state(state)
        if not s[3]:
            raise GameError("othello: the position is already over; nothing to solve")
        cap = parse_size(tt_capacity)
        if cap < 1:
            raise InvalidLimitError("a transposition table needs at least one entry")
        flags = (_WEAK if weak else 0) | (_KEEP if keep_table else 0) | (
            _ALL_MOVES if best_moves else 0)
        limit = _NO_LIMIT if max_nodes is None else max_nodes
        with self._lock:
            tt, st, shift, wu, wi, gt, gshift = self._tables(cap)
            cfg = np.array([self.tuning[name] for name in _TUNING_ORDER] + [0],  # no floor
                           dtype=np.int64)
            score, move, nodes, best, passing = _run(
                np.uint64(s[0]), np.uint64(s[1]), flags, limit, tt, st, shift, gt, gshift, cfg,
                wu, wi)
        if nodes < 0:
            raise SearchTimeout(f"othello: the node budget ({max_nodes}) ran out")
        moves = [PASS] if passing else squares(int(best))
        if move < 0:  # (no probe failed high with a move: the first best one)
            move = moves[0] if moves else _GAME.actions(s)[0]
        return {
            "value": int(score),
            "move": int(move),
            "moves": moves if best_moves and moves else [int(move)],
            "nodes": int(nodes),
            "seconds": time.perf_counter() - start,
        }


#: The solver the game's ``fast_solver()`` hands out.
SOLVER = CompiledSolver()
