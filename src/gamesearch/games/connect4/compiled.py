"""The compiled fast path of the Connect Four solver (numba over Pons's bitboards).

This is a compiled specialisation of exactly the algorithm of :mod:`gamesearch.search.solve`
(:class:`~gamesearch.search.solve.Solver`) driving :class:`gamesearch.search.negamax.Negamax`
in its solver configuration (transposition table on, the game's ``order_actions``
only, no killers, no history, no TT move, no PVS, ``safe`` on), for bitboard Connect Four
(:mod:`gamesearch.games.connect4`). The plain Python path is the reference: for every
position both give the identical score AND the identical node count, and the tests check
it position by position. Nothing here is a new idea; each piece is the
Python path's own, written once more over machine integers:

* the root narrowing of ``Solver._score``: Pons's initial window, his bias of the pivot
  towards zero, the game's ``score_threshold``/``exact_score`` conversions, weak mode, and
  a win at once found before any search (0 nodes);
* ``Negamax.search_root`` as ``Solver._probe`` calls it: one node; ``winning_action``;
  ``safe_actions`` (none left: the opponent wins next ply); then ``Solver.root_bounds``
  (the draw shortcut, the ``lo`` clamp, the table probe, the ``hi`` clamp), where an early
  end is a bound that reports no move and stores nothing. Otherwise ordering, the fail-soft loop,
  and the root's result stored in the table (emptied first when full), its flag judged
  against the narrowed root window. ``root_moves=[a]`` (the best-move probes) skips all of
  that and stores nothing, as in the engine;
* every other node in ``Negamax``'s order: count the node, the terminal test, the safe
  moves (none: a loss next ply), the draw shortcut (two plies left), the ``lo`` clamp, the
  table probe narrowing the window (an exact value or crossed bounds end the node), the
  ``hi`` clamp (after the table, as in Pons's solver), ordering (threats created,
  descending; ties centre first), the fail-soft loop, and the store with the
  LOWER/UPPER/EXACT flag judged against the narrowed window. The recursion is unrolled onto
  an explicit stack: numba cannot safely cache a recursive function (numba issue #6061,
  a segfault when the cached code is loaded);
* the values of the engine: a win ``ply`` plies below the root is ``1000 - ply``, a loss
  ``-(1000 - ply)``, stored relative to the node (``to_table``/``from_table``);
* ``Solver.solve``'s ``bounds`` (the narrowing starts from a window already known) and
  ``Solver.null_window`` (one probe of that narrowing alone: :func:`null_window_fast`).

Integers instead of floats. In solver mode every value the Python path returns or stores is
a whole number (the step is 1.0, the clamps and wins are whole, a draw is 0). Only window
bounds are not: ``score_threshold`` gives ``b = k + 0.5`` for scores >= 0 (a whole ``b`` for
scores < 0) and the root window is ``(b, nextafter(b))``. For a whole value ``v``,
``v > a  <=>  v > floor(a)`` and ``v >= c  <=>  v >= ceil(c)``, so a node here keeps
``A = floor(alpha)`` and ``B = ceil(beta)``; the child window ``(-beta, -alpha)`` maps to
``(-B, -A)``; every assignment the engine makes to ``alpha``/``beta`` is a whole value (a
clamp, a table value, a child value), which keeps the invariant; and the one comparison of
two bounds, ``alpha >= beta``, agrees too (when neither was reassigned, ``alpha < beta`` and
``A <= alpha < beta <= B``). The root window is ``(floor(b), floor(b) + 1)`` in both
cases, and ``value <= b`` is ``value <= floor(b)``.

The table behaves like the engine's dict, operation for operation: exact keys (Pons's
``current + mask``, open addressing in a numpy array with at most half the slots in use,
so nothing is ever lost to a collision), ``capacity`` entries (rounded up to a power of
two, like :func:`gamesearch.search.tt.parse_size`), emptied when a key that the node's
probe did not find is stored into a full table; a key the probe did find is stored back
without that check (even if a subtree emptied the table meanwhile, as the engine does);
the root empties a full table before it stores, found or not. Every entry is
``UNLIMITED`` deep in solver mode, so a stored key is always replaced. A fresh (empty)
table per position, like ``solve`` without a ``solver`` (``keep_table=True`` keeps it, like
one ``solver`` engine reused for a sequence of positions). Moves are not stored: nothing in
the solver configuration reads them.

Without numba the module still imports; :func:`available` says False and
:func:`solve_fast` raises :class:`~gamesearch.errors.UnsupportedGameError`. Install with
``pip install 'gamesearch[fast]'``. The compiled code is cached on disk (``cache=True``).
The rest of the library reaches this solver through the game's capability,
``ConnectFour().fast_solver()`` (:data:`SOLVER` when numba is there, else ``None``).
"""

from __future__ import annotations

import importlib
import threading
import time
from typing import Any

from ...errors import (
    GameError,
    InvalidLimitError,
    InvalidPositionError,
    SearchTimeout,
    UnsupportedGameError,
)
from ..numba_support import NUMBA_ERROR as _NUMBA_ERROR
from ..numba_support import available, njit, np
from ..numba_support import jit as _jit
from .rules import C4State, ConnectFour

__all__ = [
    "SOLVER",
    "CompiledSolver",
    "available",
    "last_table_stats",
    "null_window_fast",
    "solve_fast",
]


# ----- constants (Pons's layout, see gamesearch.games.connect4) -----------------------
# Plain ints: numba freezes module-level ints into the compiled code.
_BOTTOM_ALL = 0x40810204081  # the bottom cell of every column
_BOARD = 0xFDFBF7EFDFBF  # the 42 cells, no sentinels
_COL_MASK0 = 0x3F  # the six cells of column 0; column c is this << 7c
_WIN = 1000  # Connect Four's max utility; step 1 per ply
_WIN_THRESHOLD = 500  # common.win_threshold(1000): beyond it a value is a discounted win
_NEG_INF = -(1 << 40)  # below any value ("-INF" of the engine's ``best``)
_EXACT, _LOWER, _UPPER = 0, 1, 2  # tt.EXACT, tt.LOWER, tt.UPPER
# One table word: key << 14 | 1 << 13 (in use) | flag << 11 | (value + 1024).
_VALUE_BITS = 11
_VALUE_BIAS = 1024
_USED_BIT = 1 << 13
_KEY_SHIFT = 14
_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer
# Stats slots: nodes, entries in the table, times the table was emptied, the node budget
# (the search stops once ``nodes`` exceeds it; see ``solve_fast``'s ``max_nodes``).
_NODES, _COUNT, _RESETS, _LIMIT = 0, 1, 2, 3
_NO_LIMIT = 1 << 62
#: Slack over the capacity: a found key stored back after a subtree emptied the table
#: is not checked against the capacity (see the module docstring); at most one per ply.
_SLACK = 64


#: The action order of the ConnectFour() the wrapper uses (its best moves are probed and
#: listed in it): the ``k``-th column in 4 bits at 4k. A plain int: frozen into the code.
_ORDER_CODE = sum(c << (4 * k) for k, c in enumerate(ConnectFour()._order))


# ----- bitboard helpers --------------------------------------------------------------
@_jit
def _winning_cells(position: int, mask: int) -> int:
    """``connect4.winning_cells``: empty cells that complete a four for ``position``."""
    r = (position << 1) & (position << 2) & (position << 3)
    p = (position << 7) & (position << 14)
    r |= (p & (position << 21)) | (p & (position >> 7))
    p = (position >> 7) & (position >> 14)
    r |= (p & (position << 7)) | (p & (position >> 21))
    p = (position << 6) & (position << 12)
    r |= (p & (position << 18)) | (p & (position >> 6))
    p = (position >> 6) & (position >> 12)
    r |= (p & (position << 6)) | (p & (position >> 18))
    p = (position << 8) & (position << 16)
    r |= (p & (position << 24)) | (p & (position >> 8))
    p = (position >> 8) & (position >> 16)
    r |= (p & (position << 8)) | (p & (position >> 24))
    return r & (_BOARD ^ mask)


@_jit
def _has_four(p: int) -> bool:
    m = p & (p >> 7)
    if m & (m >> 14):
        return True
    m = p & (p >> 1)
    if m & (m >> 2):
        return True
    m = p & (p >> 6)
    if m & (m >> 12):
        return True
    m = p & (p >> 8)
    return (m & (m >> 16)) != 0


def _make_popcount() -> Any:
    """The CPU's population count (LLVM ``ctpop``) as a numba intrinsic."""
    if njit is None:  # pragma: no cover - depends on the environment
        return lambda x: bin(x).count("1")
    numba = importlib.import_module("numba")
    extending = importlib.import_module("numba.extending")

    def popcount(typingctx: Any, x: Any) -> Any:
        sig = numba.types.int64(numba.types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return sig, codegen

    return extending.intrinsic(popcount)


_popcount = _make_popcount()


@_jit
def _non_losing(cur: int, mask: int) -> int:
    """``ConnectFour.non_losing_moves_mask``: playable cells that leave no win at once."""
    moves = (mask + _BOTTOM_ALL) & _BOARD
    threats = _winning_cells(cur ^ mask, mask)
    forced = moves & threats
    if forced:
        if forced & (forced - 1):
            return 0
        moves = forced
    return moves & ~(threats >> 1)


@_jit
def _winning_column(cur: int, mask: int) -> int:
    """``ConnectFour.winning_action``: a column that wins at once, centre first; -1 if none."""
    wins = _winning_cells(cur, mask) & ((mask + _BOTTOM_ALL) & _BOARD)
    if wins == 0:
        return -1
    for i in range(7):
        c = 3 + (i + 1) // 2 if i % 2 == 0 else 3 - (i + 1) // 2  # 3, 2, 4, 1, 5, 0, 6
        if wins & (_COL_MASK0 << (7 * c)):
            return c
    return -1  # pragma: no cover


@_jit
def _order(cur: int, mask: int, moves: int, row: Any) -> int:
    """``ConnectFour.order_actions`` over the playable cells ``moves``: writes the cells to
    ``row`` by threats created (descending), ties centre first; returns how many."""
    k = 0
    for i in range(7):
        c = 3 + (i + 1) // 2 if i % 2 == 0 else 3 - (i + 1) // 2  # centre rank i
        cell = moves & (_COL_MASK0 << (7 * c))
        if cell:
            score = _popcount(_winning_cells(cur | cell, mask))
            # key: threats first, then the centre rank (smaller key = later in the order)
            key = (score << 3) | (7 - i)
            j = k
            while j > 0 and (row[j - 1] >> 48) < key:
                row[j] = row[j - 1]
                j -= 1
            row[j] = (key << 48) | cell
            k += 1
    return k


# ----- the transposition table -------------------------------------------------------
@_jit
def _tt_clear(table: Any, used: Any, st: Any) -> None:
    for i in range(st[_COUNT]):
        table[used[i]] = 0
    st[_COUNT] = 0


@_jit
def _tt_find(table: Any, key: int) -> int:
    """The word stored for ``key``, or 0."""
    m = table.shape[0] - 1
    i = ((key * _HASH_MUL) >> 29) & m
    while True:
        w = table[i]
        if w == 0:
            return 0
        if (w >> _KEY_SHIFT) == key:
            return int(w)
        i = (i + 1) & m


@_jit
def _tt_put(table: Any, used: Any, st: Any, key: int, flag: int, value: int) -> None:
    """Store (replace, or add) the entry of ``key``."""
    m = table.shape[0] - 1
    word = (key << _KEY_SHIFT) | _USED_BIT | (flag << _VALUE_BITS) | (value + _VALUE_BIAS)
    i = ((key * _HASH_MUL) >> 29) & m
    while True:
        w = table[i]
        if w == 0:
            break
        if (w >> _KEY_SHIFT) == key:
            table[i] = word
            return
        i = (i + 1) & m
    n = st[_COUNT]
    if n >= used.shape[0]:
        raise RuntimeError("compiled connect4 table: over its slack (cannot happen)")
    table[i] = word
    used[n] = i
    st[_COUNT] = n + 1


@_jit
def _to_table(v: int, ply: int) -> int:
    if v > _WIN_THRESHOLD:
        return v + ply
    if v < -_WIN_THRESHOLD:
        return v - ply
    return v


@_jit
def _from_table(v: int, ply: int) -> int:
    if v > _WIN_THRESHOLD:
        return v - ply
    if v < -_WIN_THRESHOLD:
        return v + ply
    return v


@_jit
def _tt_narrow(table: Any, key: int, ply: int, alpha: int, beta: int) -> tuple[int, int, int, int]:
    """Probe the table for ``key``: (found, value, alpha, beta) with the window narrowed by
    the stored bound (the value read back from the distance-independent form at ``ply``)."""
    w = _tt_find(table, key)
    if w == 0:
        return 0, 0, alpha, beta
    v = _from_table((w & ((1 << _VALUE_BITS) - 1)) - _VALUE_BIAS, ply)
    flag = (w >> _VALUE_BITS) & 3
    if flag == _EXACT:
        return 1, v, v, v
    if flag == _LOWER:
        return 1, v, max(alpha, v), beta
    return 1, v, alpha, min(beta, v)


# ----- the search --------------------------------------------------------------------
# One row of ``work`` per ply: the node's ordered moves in columns 0-6, then its frame on the
# explicit stack: its bitboards, its window (alpha as narrowed so far), alpha_orig, best,
# "the probe found the key", the index of the move being searched, the number of moves.
_F_CUR, _F_MASK, _F_ALPHA, _F_BETA, _F_AORIG, _F_BEST, _F_FOUND, _F_I, _F_K = range(8, 17)


@_jit
def _negamax(
    cur: int, mask: int, n: int, alpha: int, beta: int, ply: int,
    table: Any, used: Any, st: Any, cap: int, work: Any,
) -> int:
    """The engine's ``negamax`` kernel in solver mode; ``alpha``/``beta`` are floor/ceil
    bounds.

    The engine's recursion, unrolled onto an explicit stack (numba cannot cache a recursive
    function safely: numba issue #6061). The order of operations is the engine's.
    """
    base = n - ply  # stones on the board at the root
    top = ply
    while True:
        # ----- enter the node (cur, mask) at ply with the window (alpha, beta) -----------
        st[_NODES] += 1
        if st[_NODES] > st[_LIMIT]:  # out of budget: unwind at once, storing nothing
            return 0
        n = base + ply
        val = 0
        leaf = True
        moves = 0
        if _has_four(cur ^ mask):  # the player who just moved has won
            val = -_WIN + ply
        elif n == 42:
            val = 0
        else:
            moves = _non_losing(cur, mask)
            if moves == 0:  # the opponent wins with its next move
                val = -_WIN + ply + 2
            elif 42 - n <= 2:  # nobody can win any more
                val = 0
            else:
                leaf = False
        if not leaf:
            lo = -_WIN + ply + 4  # no loss before the opponent's next-but-one move
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    val = alpha
                    leaf = True
        found = 0
        if not leaf:
            found, v, alpha, beta = _tt_narrow(table, cur + mask, ply, alpha, beta)
            if found and alpha >= beta:
                val = v
                leaf = True
        if not leaf:
            hi = _WIN - (ply + 3)  # no win before our next move; after the table, as Pons
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    val = beta
                    leaf = True
        if not leaf:
            f = work[ply]
            f[_F_CUR] = cur
            f[_F_MASK] = mask
            f[_F_ALPHA] = alpha
            f[_F_BETA] = beta
            f[_F_AORIG] = alpha
            f[_F_BEST] = _NEG_INF
            f[_F_FOUND] = found
            f[_F_I] = 0
            f[_F_K] = _order(cur, mask, moves, work[ply])
            cell = work[ply, 0] & _BOARD  # the first child
            cur, mask, alpha, beta = cur ^ mask, mask | cell, -beta, -alpha
            ply += 1
            continue
        # ----- ``val`` is the value of the node at ply: hand it up the stack -------------
        # (Othello's endgame kernel unwinds its own stack alike: each frame layout is its own)
        while True:
            if ply == top:
                return val
            ply -= 1
            f = work[ply]
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
                pcur = f[_F_CUR]
                pmask = f[_F_MASK]
                cell = work[ply, i] & _BOARD
                cur, mask, alpha, beta = pcur ^ pmask, pmask | cell, -beta, -alpha
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
                _tt_clear(table, used, st)
                st[_RESETS] += 1
            _tt_put(table, used, st, f[_F_CUR] + f[_F_MASK], flag, _to_table(best, ply))
            val = best


@_jit
def _column_of(cell: int) -> int:
    c = 0
    while not cell & (_COL_MASK0 << (7 * c)):
        c += 1
    return c


@_jit
def _root(
    cur: int, mask: int, n: int, alpha0: int, beta0: int, only: int,
    table: Any, used: Any, st: Any, cap: int, work: Any,
) -> tuple[int, int]:
    """``Negamax.search_root`` in solver mode: (value, move). ``only`` >= 0 is
    ``root_moves=[only]``."""
    st[_NODES] += 1
    if only < 0:
        win = _winning_column(cur, mask)
        if win >= 0:
            return _WIN - 1, win
        moves = _non_losing(cur, mask)
        if moves == 0:  # every move loses at once; the first legal column, no store
            return -_WIN + 2, _column_of((mask + _BOTTOM_ALL) & _BOARD)
        # Solver.root_bounds: the bounds of any node; an early end is a bound, not
        # a searched move: it reports no move (-1) and stores nothing.
        if 42 - n <= 2:
            return 0, -1
        lo = -_WIN + 4
        if alpha0 < lo:
            alpha0 = lo
            if alpha0 >= beta0:
                return alpha0, -1
        found, v, alpha0, beta0 = _tt_narrow(table, cur + mask, 0, alpha0, beta0)
        if found and alpha0 >= beta0:
            return v, -1
        hi = _WIN - 3
        if beta0 > hi:
            beta0 = hi
            if alpha0 >= beta0:
                return beta0, -1
    else:
        moves = ((mask + _BOTTOM_ALL) & _BOARD) & (_COL_MASK0 << (7 * only))
    row = work[0]
    k = _order(cur, mask, moves, row)
    alpha = alpha0
    beta = beta0
    best = _NEG_INF
    best_cell = 0
    opp = cur ^ mask
    for i in range(k):
        cell = row[i] & _BOARD
        v = -_negamax(opp, mask | cell, n + 1, -beta, -alpha, 1, table, used, st, cap, work)
        if st[_NODES] > st[_LIMIT]:  # out of budget: no result, nothing stored
            return 0, -1
        # the fail-soft root of every compiled solver (bridge's _probe too)
        if v > best:
            best = v
            best_cell = cell
            if v > alpha:
                alpha = v
            if v >= beta:
                break
    if best >= beta0:
        flag = _LOWER
    elif best <= alpha0:
        flag = _UPPER
    else:
        flag = _EXACT
    if only < 0:  # a root restricted to one move is no bound on the position: no store
        if st[_COUNT] >= cap:  # the root empties a full table, whether its key is there
            _tt_clear(table, used, st)
            st[_RESETS] += 1
        _tt_put(table, used, st, cur + mask, flag, _to_table(best, 0))
    return best, _column_of(best_cell)


@_jit
def _exact_score(n: int, value: int) -> int:
    """``ConnectFour.exact_score`` for a whole value."""
    if abs(value) < _WIN // 2:
        return value
    end_ply = n + (_WIN - abs(value))
    score = (44 - end_ply) // 2
    return score if value > 0 else -score


@_jit
def _threshold_floor(n: int, s: int) -> int:
    """``floor(ConnectFour.score_threshold(state, s))``."""
    left = 42 - n
    if s >= 0:
        return _WIN - (left - 2 * s) - 1  # floor(WIN - (left - 2s) - 0.5)
    return -(_WIN - (left + 2 + 2 * s))


@_jit
def _trunc_half(x: int) -> int:
    return x // 2 if x >= 0 else -((-x) // 2)  # C's division, as solve._trunc_half


@_jit
def _status(cur: int, mask: int, n: int) -> int:
    """0: a position to solve; 1: not a position (``state_from_bitboards``'s checks: the
    search would run off its stack on one); 2: the game is over."""
    if mask & ~_BOARD or cur & ~mask or _popcount(mask) != n or _popcount(cur) != n // 2:
        return 1
    for c in range(7):
        col = (mask >> (7 * c)) & 0x7F
        if col & (col + 1):  # a gap under a stone
            return 1
    if _has_four(cur):
        return 1
    if _has_four(cur ^ mask) or n == 42:
        return 2
    return 0


@_jit
def _solve(
    cur: int, mask: int, n: int, weak: bool, keep: bool, lo_known: int, hi_known: int,
    table: Any, used: Any, st: Any, cap: int, work: Any,
) -> tuple[int, int, int]:
    """``Solver._score``: (score, move or -1, status).

    Empties the table first unless ``keep``. ``status`` is :func:`_status`'s; nothing is
    searched unless 0; 3 when the node budget ``st[_LIMIT]`` ran out. The search narrows
    from the window ``[lo_known, hi_known]`` within Pons's initial one (``bounds``).
    """
    status = _status(cur, mask, n)
    if status != 0:
        return 0, -1, status
    if not keep:
        _tt_clear(table, used, st)
    st[_NODES] = 0
    st[_RESETS] = 0
    win = _winning_column(cur, mask)
    if win >= 0:  # found before any search: 0 nodes
        return _exact_score(n, _WIN - 1), win, 0
    move = -1
    lo = max(_exact_score(n, -_WIN + 2), lo_known)
    hi = min(_exact_score(n, _WIN - 1), hi_known)
    if weak:
        lo = max(lo, -1)
        hi = min(hi, 1)
    # search/solve.py's Solver._score line by line (games/ may not import search/)
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _trunc_half(lo) < med:
            med = _trunc_half(lo)
        elif med >= 0 and _trunc_half(hi) > med:
            med = _trunc_half(hi)
        fb = _threshold_floor(n, med)
        value, action = _root(cur, mask, n, fb, fb + 1, -1, table, used, st, cap, work)
        if st[_NODES] > st[_LIMIT]:
            return 0, -1, 3
        r = _exact_score(n, value)
        if weak:
            r = max(-1, min(1, r))
        if value <= fb:
            hi = r
        else:
            lo = r
            if action >= 0:
                move = action
    return lo, move, 0


@_jit
def _best_columns(
    cur: int, mask: int, n: int, score: int, weak: bool, order: int,
    table: Any, used: Any, st: Any, cap: int, work: Any,
) -> int:
    """``Solver._best_moves`` as a set of column bits: one zero-window probe per safe move,
    warm table, probed in the game's action ``order`` (7 columns, 4 bits each, first in
    the low bits) as the Python path probes them."""
    playable = (mask + _BOTTOM_ALL) & _BOARD
    wins = _winning_cells(cur, mask) & playable
    safe = _non_losing(cur, mask)  # ``safe_actions``
    cells = wins if wins else safe if safe else playable
    out = 0
    for c in range(7):
        if cells & (_COL_MASK0 << (7 * c)):
            out |= 1 << c
    if wins or not safe:  # the winning moves; or every move loses at once: all of them
        return out
    s = score - 1 if not weak else min(score, 1) - 1
    fb = _threshold_floor(n, s)
    best = 0
    for i in range(7):
        c = (order >> (4 * i)) & 15
        if out & (1 << c):
            value, _ = _root(cur, mask, n, fb, fb + 1, c, table, used, st, cap, work)
            if st[_NODES] > st[_LIMIT]:
                return 0
            if value > fb:
                best |= 1 << c
    return best


@_jit
def _test(
    cur: int, mask: int, n: int, score: int, keep: bool,
    table: Any, used: Any, st: Any, cap: int, work: Any,
) -> tuple[int, int, int, int]:
    """``Solver.test``: one null-window test of the whole position, "is its score above
    ``score``?": (1 if above else 0, the bound the test proved as a score (at least it
    when above, at most it when not), the move that proved an "above" or -1, status)."""
    status = _status(cur, mask, n)
    if status != 0:
        return 0, 0, -1, status
    if not keep:
        _tt_clear(table, used, st)
    st[_NODES] = 0
    st[_RESETS] = 0
    win = _winning_column(cur, mask)
    if win >= 0:  # the exact score, found before any search: 0 nodes
        exact = _exact_score(n, _WIN - 1)
        return (1 if exact > score else 0), exact, win, 0
    fb = _threshold_floor(n, score)
    value, action = _root(cur, mask, n, fb, fb + 1, -1, table, used, st, cap, work)
    if st[_NODES] > st[_LIMIT]:
        return 0, 0, -1, 3
    if value > fb:
        return 1, _exact_score(n, value), action, 0
    return 0, _exact_score(n, value), -1, 0


@_jit
def _run_test(
    cur: int, mask: int, n: int, score: int, keep: bool, limit: int,
    table: Any, used: Any, st: Any, work: Any,
) -> tuple[int, int, int, int, int]:
    """:func:`_test` in one call from Python, as :func:`_run` for a solve: (above, bound,
    move or -1, status, nodes)."""
    cap = used.shape[0] - _SLACK
    st[_LIMIT] = limit
    above, bound, move, status = _test(cur, mask, n, score, keep, table, used, st, cap, work)
    return above, bound, move, status, st[_NODES]


#: ``_run``'s flags.
_WEAK, _KEEP, _ALL_MOVES = 1, 2, 4


@_jit
def _run(
    cur: int, mask: int, n: int, flags: int, limit: int, lo_known: int, hi_known: int,
    table: Any, used: Any, st: Any, work: Any,
) -> tuple[int, int, int, int, int]:
    """One call for all of :func:`solve_fast` (a call from Python costs about a
    microsecond, as much as a small endgame's whole search, and more with every argument):
    :func:`_solve`, then, when ``flags`` asks for all the best moves or when no probe gave
    a move, :func:`_best_columns`. The capacity is the one :func:`_arrays` sized ``used``
    for; ``limit`` the node budget. (score, move or -1, status, nodes of the solve alone,
    best columns as bits or 0)."""
    cap = used.shape[0] - _SLACK
    st[_LIMIT] = limit
    weak = (flags & _WEAK) != 0
    score, move, status = _solve(cur, mask, n, weak, (flags & _KEEP) != 0, lo_known,
                                 hi_known, table, used, st, cap, work)
    if status != 0:
        return 0, -1, status, 0, 0
    nodes = st[_NODES]
    best = 0
    if (flags & _ALL_MOVES) != 0 or move < 0:
        best = _best_columns(cur, mask, n, score, weak, _ORDER_CODE, table, used, st, cap,
                             work)
        if st[_NODES] > st[_LIMIT]:
            return 0, -1, 3, 0, 0
    return score, move, 0, nodes, best


# ----- the Python side ---------------------------------------------------------------
_GAME = ConnectFour()
#: The arrays of the last capacity used (the table is emptied at the start of each solve).
_tables: dict[int, tuple[Any, Any, Any, Any]] = {}
_lock = threading.Lock()


def _arrays(cap: int) -> tuple[Any, Any, Any, Any]:
    arrays = _tables.get(cap)
    if arrays is None:
        _tables.clear()  # keep one table at most
        slots = 1 << (cap + _SLACK - 1).bit_length()  # >= 2x the entries: load <= 0.5
        arrays = (
            np.zeros(slots, dtype=np.int64),  # table
            np.zeros(cap + _SLACK, dtype=np.int64),  # used slots, to empty the table
            np.zeros(4, dtype=np.int64),  # nodes, entries, resets, node budget
            np.zeros((64, 17), dtype=np.int64),  # per ply: moves and the stack frame
        )
        arrays[0].fill(0)  # touch every page now, not one page fault per early entry
        _tables[cap] = arrays
    return arrays


def last_table_stats() -> dict[str, int]:
    """The table after the last :func:`solve_fast`: ``entries`` in it, ``resets`` (times a
    full table was emptied during that solve), ``capacity``; all 0 before any solve."""
    for cap, (_, _, st, _) in _tables.items():
        return {"entries": int(st[_COUNT]), "resets": int(st[_RESETS]), "capacity": cap}
    return {"entries": 0, "resets": 0, "capacity": 0}


def _state(state_or_moves: str | C4State) -> C4State:
    if isinstance(state_or_moves, str):
        return _GAME.parse_state(state_or_moves)
    state = state_or_moves
    if not (type(state) is tuple and len(state) == 4
            and all(isinstance(x, int) and 0 <= x < 1 << 49 for x in state[:3])):
        raise GameError(f"connect4 position {state!r}: expected a move string like '4455' "
                        "or a ConnectFour state (current, mask, moves, score)")
    return state


#: The columns of a set of column bits, in the game's action order.
_COLUMNS = tuple(tuple(c for c in _GAME._order if bits >> c & 1) for bits in range(128))
_DEFAULT_CAPACITY = 1 << 22


def _capacity(entries: int) -> int:
    """``entries`` rounded up to a power of two, as the engine sizes its tables
    (:func:`gamesearch.search.tt.parse_size` on a number)."""
    if entries < 1:
        raise InvalidLimitError("a transposition table needs at least one entry")
    return 1 << (entries - 1).bit_length()


def solve_fast(
    state_or_moves: str | C4State,
    *,
    weak: bool = False,
    tt_capacity: int = _DEFAULT_CAPACITY,
    best_moves: bool = False,
    keep_table: bool = False,
    max_nodes: int | None = None,
    bounds: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Solve a Connect Four position with the compiled path.

    The same result as ``gamesearch.search.solve.solve(ConnectFour(), state,
    weak=weak, solver=make_solver(game, tt_capacity), best_moves=best_moves)``, as plain
    data: ``{"value", "move", "moves", "nodes", "seconds"}`` are that result's ``value``
    (Pons's score; the sign only with ``weak``), ``action``, ``best_actions``, ``nodes``
    (the identical count) and ``seconds``. ``state_or_moves`` is a Pons
    move string (``"4455"``) or a :class:`~gamesearch.games.connect4.ConnectFour` state.

    The table starts empty, unless ``keep_table``: then it keeps what the previous call
    (with the same ``tt_capacity``) left in it, like one ``solver`` engine passed to
    ``solve`` for a sequence of positions (the same sequence gives the same node counts,
    and the same results: a warm table inherits the engine's behaviour, bound for bound,
    including after best-move probes). One table per process; calls from several threads
    take turns.

    ``max_nodes``: a node budget for the whole call (best-move probes included); past it
    the search stops and :class:`~gamesearch.errors.SearchTimeout` is raised. What
    the table holds then is still sound (only finished nodes store), so a retry with
    ``keep_table`` goes on from there. Node counts are unchanged when the budget suffices.

    ``bounds=(lo, hi)``: what is already known of the score (``lo <= score <= hi``, e.g.
    ``(1, 21)`` after a weak solve found a win): the null-window tests narrow from there,
    as ``solve(..., bounds=...)`` does. Bounds that are wrong give a wrong score.
    """
    start = time.perf_counter()
    # (no call when there are no bounds: a small endgame's whole solve is a few microseconds)
    lo_known, hi_known = (-_SCORE_SPAN, _SCORE_SPAN) if bounds is None else _bounds(bounds)
    if not available():
        raise UnsupportedGameError(
            f"the compiled Connect Four solver needs numba ({_NUMBA_ERROR}); "
            "install it with: pip install 'gamesearch[fast]' (or use gamesearch.search.solve)"
        )
    # The per-call work in Python is kept small: a small endgame's whole search takes a few
    # microseconds (Pons's End-Easy set: about 50 nodes), so a microsecond here is 20 %.
    if type(state_or_moves) is tuple and len(state_or_moves) == 4:
        state = state_or_moves
        cur, mask, n = state[0], state[1], state[2]
        if not (type(cur) is int and type(mask) is int and type(n) is int
                and 0 <= cur < 1 << 49 and 0 <= mask < 1 << 49 and 0 <= n < 1 << 49):
            state = _state(state_or_moves)  # raises GameError
    else:
        state = _state(state_or_moves)
        cur, mask, n = state[0], state[1], state[2]
    cap = _DEFAULT_CAPACITY if tt_capacity == _DEFAULT_CAPACITY else _capacity(tt_capacity)
    with _lock:  # one table per process: one solve at a time
        arrays = _tables.get(cap) or _arrays(cap)
        flags = (_WEAK if weak else 0) | (_KEEP if keep_table else 0)
        score, move, status, nodes, best = _run(
            cur, mask, n, flags | _ALL_MOVES if best_moves else flags,
            _NO_LIMIT if max_nodes is None else max_nodes, lo_known, hi_known,
            arrays[0], arrays[1], arrays[2], arrays[3])
    _raise_status(status, state, max_nodes)
    moves = _COLUMNS[best]
    if move < 0:  # (no probe failed high with a move: the first best one)
        move = moves[0] if moves else _GAME.actions(state)[0]
    return {
        "value": score,
        "move": move,
        "moves": list(moves) if best_moves and moves else [move],
        "nodes": nodes,
        "seconds": time.perf_counter() - start,
    }


def _raise_status(status: int, state: Any, max_nodes: int | None) -> None:
    if status == 3:
        raise SearchTimeout(f"connect4: the node budget ({max_nodes}) ran out")
    if status == 1:
        raise InvalidPositionError(
            f"connect4 state {state!r}: not a position (stones must stack from the bottom "
            "of each column, the side to move has as many stones as the other player or "
            "one fewer, the counts must match, and the side to move has no four)")
    if status:
        raise GameError(f"{_GAME.name}: the position is already over; nothing to solve")


#: No known bound on a score (Pons's scores lie within -21..21).
_SCORE_SPAN = 64


def _bounds(bounds: tuple[int, int] | None) -> tuple[int, int]:
    """``solve_fast``'s ``bounds`` checked: (lo, hi) as the kernel takes them."""
    if bounds is None:
        return -_SCORE_SPAN, _SCORE_SPAN
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise InvalidLimitError(f"connect4 score bounds {bounds!r}: expected (lo, hi)"
                                ) from None
    if not (type(lo) is int and type(hi) is int and -_SCORE_SPAN <= lo <= hi <= _SCORE_SPAN):
        raise InvalidLimitError(f"connect4 score bounds {bounds!r}: two whole scores, lo <= hi "
                                f"(within +-{_SCORE_SPAN})")
    return lo, hi


def null_window_fast(
    state_or_moves: str | C4State,
    score: int,
    *,
    tt_capacity: int = _DEFAULT_CAPACITY,
    keep_table: bool = False,
    max_nodes: int | None = None,
) -> dict[str, Any]:
    """One null-window test of the compiled path: is the position's score (Pons's) above
    ``score``? The same as :meth:`gamesearch.search.solve.Solver.null_window`, node for
    node: ``{"above", "bound", "move", "nodes", "seconds"}``: ``above`` the answer, ``bound``
    the score the test proved (``score >= bound > score`` when above, else ``bound <=
    score``: the fail-soft value may prove more than asked), ``move`` the column that
    proved an "above" (else None), ``nodes`` the test's. The table is the one of
    :func:`solve_fast` (``keep_table`` keeps it between tests and solves; ``max_nodes``
    raises :class:`~gamesearch.errors.SearchTimeout`). A sequence of these tests is how a
    score is narrowed one proven bound at a time (the opening book's upgrade journals each).
    """
    start = time.perf_counter()
    if not available():
        raise UnsupportedGameError(
            f"the compiled Connect Four solver needs numba ({_NUMBA_ERROR}); "
            "install it with: pip install 'gamesearch[fast]' (or use gamesearch.search.solve)")
    state = _state(state_or_moves)
    if type(score) is not int or not -_SCORE_SPAN <= score <= _SCORE_SPAN:
        raise InvalidLimitError(f"connect4 null-window test at {score!r}: a whole score "
                                f"within +-{_SCORE_SPAN}")
    cap = _capacity(tt_capacity)
    with _lock:
        arrays = _tables.get(cap) or _arrays(cap)
        above, bound, move, status, nodes = _run_test(
            state[0], state[1], state[2], score, keep_table,
            _NO_LIMIT if max_nodes is None else max_nodes,
            arrays[0], arrays[1], arrays[2], arrays[3])
    _raise_status(status, state, max_nodes)
    return {"above": bool(above), "bound": int(bound), "move": None if move < 0 else int(move),
            "nodes": int(nodes), "seconds": time.perf_counter() - start}


class CompiledSolver:
    """:func:`solve_fast` as the game's ``fast_solver()`` offers it (a
    :class:`gamesearch.game.FastSolver`). ``solve`` is the function itself, not a wrapper
    around it: a small endgame's whole solve takes a few microseconds, and so does a call."""

    solve = staticmethod(solve_fast)


#: What ``ConnectFour.fast_solver()`` returns when numba is installed.
SOLVER = CompiledSolver()
