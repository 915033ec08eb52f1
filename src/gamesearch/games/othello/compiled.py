"""The compiled fast path of Othello: perft and the exact endgame solver (numba).

The solver is a compiled specialisation of exactly the algorithm of
:mod:`gamesearch.search.solve` (:class:`~gamesearch.search.solve.Solver` driving
:class:`~gamesearch.search.negamax.Negamax` in its solver configuration: transposition
table on, the game's ``order_actions`` hook only, no killers, no history, no table move, no
PVS; Othello has no ``safe_actions``) for the bitboards of :mod:`.rules`. The plain Python
path is the reference: for every position both give the same score, the same move(s) AND
the same node count, and the tests check it position by position. Each piece is the Python
path's own, written once more over machine integers:

* ``Solver._score``: the initial window (the game's ``exact_score`` clamps ``+-max_utility``
  to -64..64), Pons's binary search of null-window probes with his bias of the pivot
  towards zero, weak mode, the move of the last probe that failed high;
* ``Negamax.search_root``: one node; the moves (``pass`` alone when the mover has none) in
  the game's order; the fail-soft loop; the root's result stored in the table (emptied
  first when full), its flag judged against the probe's window. ``root_moves=[a]`` (the
  best-move probes of ``Solver._best_moves``) stores nothing;
* every other node in the engine's order: count the node, the terminal test (the final
  disc difference, empty squares to the winner), the table probe narrowing the window (an
  exact value or crossed bounds end the node), the ordering of :func:`.rules.order_score`
  (best first, ties in square order), the fail-soft loop, and the store with the
  LOWER/UPPER/EXACT flag judged against the narrowed window. The recursion is unrolled
  onto an explicit stack (numba cannot safely cache a recursive function, numba issue
  #6061); the ordering step keeps the children it made for the loop.

Integers instead of floats: every value the Python path returns or stores is a disc
difference (a whole, even number; ``max_utility`` is 128, so nothing is ever discounted or
shifted by ply in the table). The probe's window ``(b, nextafter(b))`` with a whole ``b`` is
``(b, b + 1)`` here: for whole values ``v > b`` and ``v >= nextafter(b)`` agree with
``v > b`` and ``v >= b + 1``, and the negated child windows keep that correspondence.

The table behaves like the engine's dict, operation for operation: exact keys (both
bitboards and the side to move), open addressing with at most half the slots in use,
``capacity`` entries (a power of two, like :func:`gamesearch.search.tt.parse_size`),
emptied when a key the node's probe did not find is stored into a full table; a key the
probe found is stored back without that check; the root empties a full table before it
stores. Every entry is ``UNLIMITED`` deep in solver mode, so a stored key is always
replaced. A fresh table per position unless ``keep_table`` (one ``Solver`` reused).

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
from ..numba_support import jit as _jit
from ..numba_support import njit, np
from .rules import (
    CORNERS,
    INNER,
    PASS,
    PASS_BIT,
    QUADRANT_OF,
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


def available() -> bool:
    """True when numba imports, so that the compiled solver, perft and playouts can run."""
    return njit is not None


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
_EXACT, _LOWER, _UPPER = 0, 1, 2  # tt.EXACT, tt.LOWER, tt.UPPER
_NEG_INF = -(1 << 20)  # below any value ("-INF" of the engine's ``best``)
_MAX_PLY = 128  # 60 moves and the passes between them
_MAX_MOVES = 40  # Othello positions have at most 33 legal moves
# Stats slots: nodes, entries in the table, times the table was emptied, the node budget.
_NODES, _COUNT, _RESETS, _LIMIT = 0, 1, 2, 3
_NO_LIMIT = 1 << 62
#: Slack over the capacity: a found key stored back after a subtree emptied the table is
#: not checked against the capacity; at most one per ply.
_SLACK = _MAX_PLY


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


@_jit
def _neighbours(x: Any) -> Any:
    h = x | ((x << 1) & _NOT_A) | ((x >> 1) & _NOT_H)
    return h | (h << 8) | (h >> 8)


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


@_jit
def _order(p: Any, o: Any, moves: Any, cu: Any, ci: Any) -> int:
    """The moves of ``p`` in the game's order (:func:`.rules.order_score`, highest first,
    ties in square order): square ``ci[_SQ + i]``, child position (mover first)
    ``cu[3 + 3i]``, ``cu[4 + 3i]`` and its legal moves ``cu[5 + 3i]``. Returns how many."""
    k = 0
    while moves != _ZERO:
        bit = moves & (moves ^ (moves - _ONE))
        moves ^= bit
        sq = 63 - _clz(bit)
        f = _flips(p, o, sq)
        p2 = p | f | bit
        o2 = o ^ f
        replies = _legal(o2, p2)
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


# ----- the transposition table -------------------------------------------------------------
# Row i of ``tt`` is one slot: the keys (the mover's discs, the other player's) and the word
# 1 (in use) | side << 1 | flag << 2 | (value + 128) << 4; a word 0 is an empty slot. One row
# is 24 bytes: a probe reads one cache line.
@_jit
def _slot0(p: Any, o: Any, side: int, shift: Any) -> Any:
    h = p * _HASH_P ^ o * _HASH_O ^ np.uint64(side)
    h ^= h >> np.uint64(29)
    h *= _HASH_P
    return np.int64(h >> shift)


@_jit
def _tt_find(tt: Any, p: Any, o: Any, side: int, shift: Any) -> Any:
    """The slot of the key, or ``-1 - slot`` of the empty slot where it would go."""
    m = tt.shape[0] - 1
    i = _slot0(p, o, side, shift)
    s = np.uint64(side)
    while True:
        w = tt[i, 2]
        if w == _ZERO:
            return -1 - i
        if tt[i, 0] == p and tt[i, 1] == o and ((w >> np.uint64(1)) & _ONE) == s:
            return i
        i = (i + 1) & m


@_jit
def _tt_clear(tt: Any, used: Any, st: Any) -> None:
    for j in range(st[_COUNT]):
        tt[used[j], 2] = _ZERO
    st[_COUNT] = 0
    st[_RESETS] += 1


@_jit
def _tt_put(tt: Any, used: Any, st: Any, p: Any, o: Any, side: int, flag: int, value: int,
            shift: Any) -> None:
    """Store (replace, or add) the entry of the key."""
    i = _tt_find(tt, p, o, side, shift)
    word = np.uint64(1 | (side << 1) | (flag << 2) | ((value + 128) << 4))
    if i >= 0:
        tt[i, 2] = word
        return
    i = -1 - i
    n = st[_COUNT]
    if n >= used.shape[0]:
        raise RuntimeError("compiled othello table: over its slack (cannot happen)")
    tt[i, 0] = p
    tt[i, 1] = o
    tt[i, 2] = word
    used[n] = i
    st[_COUNT] = n + 1


# ----- the search ---------------------------------------------------------------------------
# Per ply: ``wu[ply]`` the node's bitboards (0, 1) and its children (3 + 3i, 4 + 3i) with
# their moves (5 + 3i);
# ``wi[ply]`` its frame on the explicit stack, then the squares and scores of its moves.
_F_SIDE, _F_ALPHA, _F_BETA, _F_AORIG, _F_BEST, _F_FOUND, _F_I, _F_K = range(8)
_SQ = 8
_SCORE = _SQ + _MAX_MOVES
_WI = _SCORE + _MAX_MOVES
_WU = 3 + 3 * _MAX_MOVES


@_jit
def _children(p: Any, o: Any, moves: Any, cu: Any, ci: Any) -> int:
    """The node's ``moves`` in search order with their children (see :func:`_order`); the
    one move ``pass`` when there are none (the caller knows the game is not over)."""
    if moves == _ZERO:
        ci[_SQ] = PASS
        cu[3] = o
        cu[4] = p
        cu[5] = _legal(o, p)
        return 1
    return _order(p, o, moves, cu, ci)


@_jit
def _negamax(p: Any, o: Any, moves: Any, side: int, alpha: int, beta: int, ply: int,
             tt: Any, used: Any, st: Any, cap: int, shift: Any, wu: Any, wi: Any) -> int:
    """``Negamax``'s node function in solver mode, unrolled onto an explicit stack; the
    order of operations is the engine's. ``moves``: the legal moves of ``p``."""
    top = ply
    while True:
        # ----- enter the node (p, o, side) at ply with the window (alpha, beta) ----------
        st[_NODES] += 1
        if st[_NODES] > st[_LIMIT]:  # out of budget: unwind at once, storing nothing
            return 0
        val = 0
        leaf = False
        if moves == _ZERO and _legal(o, p) == _ZERO:  # the game is over
            val = _final(p, o)
            leaf = True
        found = 0
        if not leaf:
            i = _tt_find(tt, p, o, side, shift)
            if i >= 0:
                found = 1
                w = np.int64(tt[i, 2])
                v = (w >> 4) - 128
                flag = (w >> 2) & 3
                if flag == _EXACT:
                    alpha = v
                    beta = v
                elif flag == _LOWER:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    val = v
                    leaf = True
        if not leaf:
            cu = wu[ply]
            cu[0] = p
            cu[1] = o
            f = wi[ply]
            f[_F_SIDE] = side
            f[_F_ALPHA] = alpha
            f[_F_BETA] = beta
            f[_F_AORIG] = alpha
            f[_F_BEST] = _NEG_INF
            f[_F_FOUND] = found
            f[_F_I] = 0
            f[_F_K] = _children(p, o, moves, cu, f)
            p = cu[3]
            o = cu[4]
            moves = cu[5]
            side ^= 1
            alpha, beta = -beta, -alpha
            ply += 1
            continue
        # ----- ``val`` is the value of the node at ply: hand it up the stack -------------
        while True:
            if ply == top:
                return val
            ply -= 1
            f = wi[ply]
            v = -val
            best = f[_F_BEST]
            alpha = f[_F_ALPHA]
            beta = f[_F_BETA]
            cut = False
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                if v >= beta:
                    cut = True
            i = f[_F_I] + 1
            if not cut and i < f[_F_K]:  # the next child
                f[_F_ALPHA] = alpha
                f[_F_BEST] = best
                f[_F_I] = i
                cu = wu[ply]
                p = cu[3 + 3 * i]
                o = cu[4 + 3 * i]
                moves = cu[5 + 3 * i]
                side = f[_F_SIDE] ^ 1
                alpha, beta = -beta, -alpha
                ply += 1
                break
            # the node is done: store its fail-soft bound and return it
            if best >= beta:
                flag = _LOWER
            elif best <= f[_F_AORIG]:
                flag = _UPPER
            else:
                flag = _EXACT
            if f[_F_FOUND] == 0 and st[_COUNT] >= cap:  # a new key into a full table
                _tt_clear(tt, used, st)
            _tt_put(tt, used, st, wu[ply, 0], wu[ply, 1], f[_F_SIDE], flag, best, shift)
            val = best


@_jit
def _root(p: Any, o: Any, side: int, alpha0: int, beta0: int, only: int, tt: Any,
          used: Any, st: Any, cap: int, shift: Any, wu: Any, wi: Any) -> tuple[int, int]:
    """``Negamax.search_root`` in solver mode: (value, move). ``only`` >= 0 is
    ``root_moves=[only]``."""
    st[_NODES] += 1
    cu = wu[0]
    ci = wi[0]
    if only < 0:
        k = _children(p, o, _legal(p, o), cu, ci)
    else:
        k = 1
        ci[_SQ] = only
        if only == PASS:
            cu[3] = o
            cu[4] = p
        else:
            bit = _ONE << np.uint64(only)
            f = _flips(p, o, only)
            cu[3] = o ^ f
            cu[4] = p | f | bit
        cu[5] = _legal(cu[3], cu[4])
    alpha = alpha0
    beta = beta0
    best = _NEG_INF
    best_sq = -1
    for i in range(k):
        v = -_negamax(cu[3 + 3 * i], cu[4 + 3 * i], cu[5 + 3 * i], side ^ 1, -beta, -alpha, 1,
                      tt, used, st, cap, shift, wu, wi)
        if st[_NODES] > st[_LIMIT]:  # out of budget: no result, nothing stored
            return 0, -1
        if v > best:
            best = v
            best_sq = ci[_SQ + i]
            if v > alpha:
                alpha = v
            if v >= beta:
                break
    if only < 0:  # a root restricted to one move is no bound on the position: no store
        if best >= beta0:
            flag = _LOWER
        elif best <= alpha0:
            flag = _UPPER
        else:
            flag = _EXACT
        if st[_COUNT] >= cap:  # the root empties a full table, whether its key is there
            _tt_clear(tt, used, st)
        _tt_put(tt, used, st, p, o, side, flag, best, shift)
    return best, best_sq


@_jit
def _trunc_half(x: int) -> int:
    return x // 2 if x >= 0 else -((-x) // 2)  # C's division, as solve._trunc_half


@_jit
def _score(p: Any, o: Any, side: int, weak: bool, tt: Any, used: Any,
           st: Any, cap: int, shift: Any, wu: Any, wi: Any) -> tuple[int, int]:
    """``Solver._score``: (score, move or -1); (0, -2) when the node budget ran out."""
    move = -1
    lo = -64  # Othello.exact_score of the initial window -+max_utility
    hi = 64
    if weak:
        lo = -1
        hi = 1
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _trunc_half(lo) < med:
            med = _trunc_half(lo)
        elif med >= 0 and _trunc_half(hi) > med:
            med = _trunc_half(hi)
        value, action = _root(p, o, side, med, med + 1, -1, tt, used, st, cap,
                              shift, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return 0, -2
        r = max(-64, min(64, value))
        if weak:
            r = max(-1, min(1, r))
        if value <= med:
            hi = r
        else:
            lo = r
            if action >= 0:
                move = action
    return lo, move


@_jit
def _best_moves(p: Any, o: Any, side: int, score: int, weak: bool, tt: Any, used: Any,
                st: Any, cap: int, shift: Any, wu: Any, wi: Any) -> tuple[Any, bool]:
    """``Solver._best_moves``: one zero-window probe per legal move in square order, warm
    table. (the best squares as a bitboard, "the pass is best": the one move of a node
    without any other)."""
    b = score - 1 if not weak else min(score, 1) - 1
    moves = _legal(p, o)
    if moves == _ZERO:
        value, _ = _root(p, o, side, b, b + 1, PASS, tt, used, st, cap, shift,
                         wu, wi)
        return _ZERO, value > b
    best = _ZERO
    rest = moves
    while rest != _ZERO:
        bit = rest & (rest ^ (rest - _ONE))
        rest ^= bit
        value, _ = _root(p, o, side, b, b + 1, 63 - _clz(bit), tt, used, st, cap,
                         shift, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return _ZERO, False
        if value > b:
            best |= bit
    return best, False


#: ``_run``'s flags.
_WEAK, _KEEP, _ALL_MOVES = 1, 2, 4


@_jit
def _run(p: Any, o: Any, side: int, flags: int, limit: int, tt: Any,
         used: Any, st: Any, shift: Any, wu: Any, wi: Any) -> tuple[int, int, int, Any, bool]:
    """One call for a whole solve: :func:`_score`, then :func:`_best_moves` when asked or
    when no probe gave a move. (score, move or -1, nodes of the solve alone or -1 when the
    budget ran out, best moves as a bitboard, "the best move is the pass")."""
    cap = used.shape[0] - _SLACK
    st[_LIMIT] = limit
    if (flags & _KEEP) == 0 and st[_COUNT] > 0:
        _tt_clear(tt, used, st)
    st[_NODES] = 0
    st[_RESETS] = 0
    weak = (flags & _WEAK) != 0
    score, move = _score(p, o, side, weak, tt, used, st, cap, shift, wu, wi)
    if move == -2:
        return 0, -1, -1, _ZERO, False
    nodes = st[_NODES]
    best = _ZERO
    passing = False
    if (flags & _ALL_MOVES) != 0 or move < 0:
        best, passing = _best_moves(p, o, side, score, weak, tt, used, st, cap,
                                    shift, wu, wi)
        if st[_NODES] > st[_LIMIT]:
            return 0, -1, -1, _ZERO, False
    return score, move, nodes, best, passing


# ----- random playouts (the game's fast_playout hook, for Monte Carlo tree search) ---------
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


class CompiledSolver:
    """The compiled exact solver (:class:`~gamesearch.game.FastSolver`): the answers of
    ``gamesearch.search.solve.solve(Othello(), state, solver=Solver(game, tt_capacity))``,
    as plain data, node count included. One table per capacity in use; calls from several
    threads take turns."""

    def __init__(self) -> None:
        self._arrays: dict[int, tuple[Any, ...]] = {}
        self._lock = threading.Lock()

    def _tables(self, cap: int) -> tuple[Any, ...]:
        arrays = self._arrays.get(cap)
        if arrays is None:
            self._arrays.clear()  # keep one table at most
            slots = 2 * cap  # (a power of two) load <= 0.5, a little over with the slack
            arrays = (
                np.zeros((slots, 3), dtype=np.uint64),  # keys and words (see _tt_find)
                np.zeros(cap + _SLACK, dtype=np.int64),  # the slots in use, to empty them
                np.zeros(4, dtype=np.int64),  # nodes, entries, resets, node budget
                np.uint64(64 - (slots.bit_length() - 1)),  # hash shift
                np.zeros((_MAX_PLY, _WU), dtype=np.uint64),
                np.zeros((_MAX_PLY, _WI), dtype=np.int64),
            )
            arrays[0].fill(0)  # touch every page now, not one page fault per early entry
            self._arrays[cap] = arrays
        return arrays

    def table_stats(self) -> dict[str, int]:
        """The table after the last solve: ``entries``, ``resets`` (times a full table was
        emptied during that solve), ``capacity``; all 0 before any solve."""
        for cap, arrays in self._arrays.items():
            st = arrays[2]
            return {"entries": int(st[_COUNT]), "resets": int(st[_RESETS]), "capacity": cap}
        return {"entries": 0, "resets": 0, "capacity": 0}

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
        with self._lock:
            tt, used, st, shift, wu, wi = self._tables(cap)
            score, move, nodes, best, passing = _run(
                np.uint64(s[0]), np.uint64(s[1]), s[2], flags,
                _NO_LIMIT if max_nodes is None else max_nodes,
                tt, used, st, shift, wu, wi)
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


#: The solver the game's ``fast_solver`` hook hands out.
SOLVER = CompiledSolver()
