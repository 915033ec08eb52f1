"""Compiled (numba) playouts and priors of Go, for Monte Carlo tree search.

The board of a playout keeps its groups as Fuego and libego do: each stone points to its
group's root and to the next stone of the group (a circular list; merging relabels the
smaller group), and each root holds *pseudo-liberties*: the count of (stone, empty
neighbour) pairs, with the sum and the sum of squares of those points. A group has no
liberty when the count is 0, and exactly one (atari) when ``count * sum_sq == sum ** 2``
(every pseudo-liberty is the same point, which is then ``sum / count``): atari tests cost
no search.

**The playout policy** (``playout=patterns``, the default), MoGo's (Gelly, Wang, Munos and
Teytaud 2006, INRIA RR-6062, section 3.2), looking at the last move only:

1. if the last move's group is in atari, capture it;
2. if the last move put a group of the mover in atari, play its liberty when that leaves
   the group at least two liberties (an estimate: the new stone's empty neighbours, one
   for each other own group it joins that is not in atari, one for each capture);
3. among the eight points around the last move, the empty legal ones that match one of
   MoGo's 3x3 patterns (:func:`.patterns.mogo_table`), one at random;
4. else a uniformly random legal move that does not fill the mover's own eye (an empty
   point whose four neighbours are the mover's stones or the edge, with at most one
   opponent stone on its diagonals, none on the edge); a pass when there is none.

``playout=captures`` keeps steps 1, 2 and 4; ``playout=random`` step 4 only (the plain
Monte Carlo Go of Bruegmann 1993 and Bouzy).

**Refinements** (each a game option, **on by default** since they were measured to win
more games against GNU Go; ``=0`` switches one off and gives the policy above as it was,
for the ablations; docs/results/go.md measures them):

* ``no_self_atari=1`` (Fuego, Pachi, libego): steps 2-4 never play a stone that leaves
  its group, of two stones or more, with exactly one liberty unless it captures
  (counted exactly by walking the groups it joins); a single stone may still self-atari
  (throw-ins, nakade). The old policy plays such a move about once in 22 stones.
* ``capture_any=1`` (MoGo's third step, RR-6062 section 3.2): after the patterns and
  before the random move, capture a group in atari anywhere on the board (one at random).
* ``uniform_random=1``: step 4 draws uniformly among the empty points, dropping each
  refused one, instead of taking the first allowed point after a random start, which
  favours a point after a run of occupied or refused ones (beside a wall of stones, up
  to 19 times the others' chance: ``tests/test_go_playout_policy.py``).
* ``answer_last=1``: the playout starts from the tree's last move (``GoState.last``), so
  steps 1-3 answer it, and it knows the simple ko that move made (taking back the lone
  stone would repeat a board of the history); before, a playout's first move ignored the
  tree's last move and could retake a ko the rules forbid.

Departure from the rules: a playout knows only the simple ko (the point of a single-stone
capture may not be retaken at once), not positional superko, and ends after two passes in
a row or at its ply limit (3 x points). Its end state is scored by the game's area count.

**The priors** (``Playouts.priors``): each legal move's weight from the learned pattern
table (:mod:`.patterns`, features computed here), normalised to sum to 1. The pass gets
:data:`PASS_WEIGHT`, not the table's: GNU Go passes only when its game is over (the
learned weight, 5.3, counts those passes), which no 3x3 feature can tell from the middle
of a game; with the learned weight the first matches against GNU Go saw our program pass
at move 43 of a lost game and let GNU Go take the board. The pass is ``untraced`` for
RAVE (:class:`~gamesearch.capabilities.Playouts`): the playouts never report it, so MCTS
keeps no AMAF statistics for it and judges it by its own visits once tried (with the
prior as AMAF, washed out only by those visits, the pass won the ties of every lost
position in the 5 s match against GNU Go). A pass that ends the game is worth its exact
value before its first visit, so the search tries it at once when it wins (MCTS-Solver
then proves it). A playout from a state after a pass ends at the playout's first pass.

The plain Python rules are the playout's referee: ``tests/test_go_fast.py`` replays
playouts move by move with :class:`.rules.Go` and checks every move legal (simple ko) and
every board equal, and the priors' features against a plain-Python computation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ...capabilities import Playouts
from ...errors import InvalidLimitError
from ..numba_support import available, np
from ..numba_support import jit as _jit
from .patterns import CAPTURE_BIT, SAVE_BIT, canonical_codes, load_weights, mogo_table
from .rules import GoState

if TYPE_CHECKING:
    from .rules import Go

__all__ = ["POLICIES", "GoKernels", "available", "go_playouts"]

#: The prior weight of the pass (the mean feature weighs 1; see the module docstring).
PASS_WEIGHT = 0.2
#: The playout policies (``go:...,playout=NAME``): name -> the steps above it plays.
POLICIES = {"patterns": 3, "captures": 2, "random": 0}


def ring_table(size: int) -> Any:
    """``ring[p, i]``: the neighbour of point ``p`` in ring direction ``i`` (N, NE, E, SE,
    S, SW, W, NW; north is the next row up), -1 off the board.

    The kernels walk the four orthogonal neighbours (``for k in range(0, 8, 2)``) inline,
    each walk with its own body (legality, liberties after a move, self-atari, captures):
    the walk itself is the few lines they share, not a piece of logic to factor out."""
    ring = np.full((size * size, 8), -1, dtype=np.int32)
    steps = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
    for p in range(size * size):
        r, c = divmod(p, size)
        for i, (dr, dc) in enumerate(steps):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                ring[p, i] = rr * size + cc
    return ring


# ----- the board: groups with pseudo-liberties ------------------------------------------
@_jit
def _add_lib(g: int, q: int, plib: Any, lsum: Any, lsq: Any) -> None:
    plib[g] += 1
    lsum[g] += q
    lsq[g] += q * q


@_jit
def _del_lib(g: int, q: int, plib: Any, lsum: Any, lsq: Any) -> None:
    plib[g] -= 1
    lsum[g] -= q
    lsq[g] -= q * q


@_jit
def _atari(g: int, plib: Any, lsum: Any, lsq: Any) -> bool:
    return bool(plib[g] > 0 and plib[g] * lsq[g] == lsum[g] * lsum[g])


@_jit
def _new_group(p: int, gid: Any, nxt: Any, size_: Any, plib: Any, lsum: Any, lsq: Any
               ) -> None:
    """The stone on ``p`` a group of its own (its root, its list), no liberty counted."""
    gid[p] = p
    nxt[p] = p
    size_[p] = 1
    plib[p] = 0
    lsum[p] = 0
    lsq[p] = 0


@_jit
def _setup(board: Any, ring: Any, gid: Any, nxt: Any, size_: Any, plib: Any, lsum: Any,
           lsq: Any, stack: Any) -> None:
    """The group structures of ``board`` (each stone's root, the circular lists, the
    pseudo-liberties)."""
    n = board.shape[0]
    for p in range(n):
        gid[p] = -1
    for p in range(n):
        if board[p] == 0 or gid[p] >= 0:
            continue
        c = board[p]
        _new_group(p, gid, nxt, size_, plib, lsum, lsq)
        top = 0
        stack[top] = p
        top += 1
        while top > 0:
            top -= 1
            s = stack[top]
            for k in range(0, 8, 2):
                q = ring[s, k]
                if q >= 0 and board[q] == c and gid[q] < 0:
                    gid[q] = p
                    nxt[q] = nxt[p]
                    nxt[p] = q
                    size_[p] += 1
                    stack[top] = q
                    top += 1
    for p in range(n):
        if board[p] == 0:
            for k in range(0, 8, 2):
                q = ring[p, k]
                if q >= 0 and board[q] != 0:
                    _add_lib(gid[q], p, plib, lsum, lsq)


@_jit
def _merge(a: int, b: int, gid: Any, nxt: Any, size_: Any, plib: Any, lsum: Any,
           lsq: Any) -> int:
    if size_[a] < size_[b]:
        a, b = b, a
    s = b
    while True:
        gid[s] = a
        s = nxt[s]
        if s == b:
            break
    t = nxt[a]
    nxt[a] = nxt[b]
    nxt[b] = t
    size_[a] += size_[b]
    plib[a] += plib[b]
    lsum[a] += lsum[b]
    lsq[a] += lsq[b]
    return a


@_jit
def _remove(g: int, board: Any, ring: Any, gid: Any, nxt: Any, plib: Any, lsum: Any,
            lsq: Any) -> int:
    """Take the group ``g`` off the board; its points become liberties of the groups
    around. Returns the stones removed."""
    count = 0
    s = g
    while True:
        board[s] = 0
        count += 1
        s = nxt[s]
        if s == g:
            break
    s = g
    while True:
        for k in range(0, 8, 2):
            t = ring[s, k]
            if t >= 0 and board[t] != 0:
                _add_lib(gid[t], s, plib, lsum, lsq)
        s = nxt[s]
        if s == g:
            break
    return count


@_jit
def _place(p: int, c: int, board: Any, ring: Any, gid: Any, nxt: Any, size_: Any,
           plib: Any, lsum: Any, lsq: Any) -> int:
    """Play a legal stone of colour ``c`` on ``p``; returns the new simple-ko point (-1:
    none)."""
    board[p] = c
    _new_group(p, gid, nxt, size_, plib, lsum, lsq)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0:
            continue
        if board[q] == 0:
            _add_lib(p, q, plib, lsum, lsq)
        else:
            _del_lib(gid[q], p, plib, lsum, lsq)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q >= 0 and board[q] == c and gid[q] != gid[p]:
            _merge(gid[p], gid[q], gid, nxt, size_, plib, lsum, lsq)
    captured = 0
    where = -1
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q >= 0 and board[q] == 3 - c and plib[gid[q]] == 0:
            captured += _remove(gid[q], board, ring, gid, nxt, plib, lsum, lsq)
            where = q
    g = gid[p]
    if captured == 1 and size_[g] == 1 and plib[g] == 1:
        return where
    return -1


@_jit
def _legal(p: int, c: int, ko: int, board: Any, ring: Any, gid: Any, plib: Any, lsum: Any,
           lsq: Any) -> bool:
    """An empty ``p`` is legal for ``c`` (simple ko, no suicide)."""
    if board[p] != 0 or p == ko:
        return False
    # the four neighbours, walked inline as in every kernel here (ring_table says why)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0:
            continue
        x = board[q]
        if x == 0:
            return True
        if (x == c) != _atari(gid[q], plib, lsum, lsq):
            return True
    return False


@_jit
def _own_eye(p: int, c: int, board: Any, ring: Any) -> bool:
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q >= 0 and board[q] != c:
            return False
    bad = 0
    edge = 0
    for k in range(1, 8, 2):
        q = ring[p, k]
        if q < 0:
            edge = 1
        elif board[q] == 3 - c:
            bad += 1
    return bad + edge < 2


@_jit
def _code(p: int, c: int, board: Any, ring: Any) -> int:
    code = 0
    for i in range(8):
        q = ring[p, i]
        if q < 0:
            v = 3
        elif board[q] == 0:
            v = 0
        elif board[q] == c:
            v = 1
        else:
            v = 2
        code |= v << (2 * i)
    return code


@_jit
def _liberties_after(p: int, c: int, board: Any, ring: Any, gid: Any, plib: Any,
                     lsum: Any, lsq: Any) -> int:
    n = 0
    # the four neighbours, walked inline as in every kernel here (ring_table says why)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0:
            continue
        x = board[q]
        if x == 0:
            n += 1
        elif x == c:
            if not _atari(gid[q], plib, lsum, lsq):
                n += 1
        elif _atari(gid[q], plib, lsum, lsq):
            n += 1
    return n


@_jit
def _next_random(x: Any) -> Any:
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


@_jit
def _draw(x: Any, k: int) -> int:
    """A number in ``[0, k)`` from the generator's state ``x``."""
    return int(((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)) % np.uint64(k))


#: The playout's refinements (bits of ``flags``; the game's options of the same names).
NO_SELF_ATARI = 1
CAPTURE_ANY = 2
UNIFORM_RANDOM = 4


@_jit
def _self_atari(p: int, c: int, board: Any, ring: Any, gid: Any, nxt: Any, size_: Any,
                plib: Any, lsum: Any, lsq: Any) -> bool:
    """``c``'s stone on the empty point ``p`` would leave its group, of two stones or
    more, with exactly one liberty, capturing nothing (the liberties counted exactly by a
    walk of the groups it joins; a single stone's self-atari, a throw-in, is allowed)."""
    lib = -1
    # the four neighbours, walked inline as in every kernel here (ring_table says why)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0:
            continue
        x = board[q]
        if x == 0:
            if lib < 0:
                lib = q
            elif q != lib:
                return False
        elif x != c and _atari(gid[q], plib, lsum, lsq):
            return False  # it captures
    stones = 1
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0 or board[q] != c:
            continue
        g = gid[q]
        seen = False
        for j in range(0, k, 2):
            r = ring[p, j]
            if r >= 0 and board[r] == c and gid[r] == g:
                seen = True
        if seen:
            continue
        stones += size_[g]
        s = g
        while True:
            for i in range(0, 8, 2):
                t = ring[s, i]
                if t >= 0 and board[t] == 0 and t != p:
                    if lib < 0:
                        lib = t
                    elif t != lib:
                        return False
            s = nxt[s]
            if s == g:
                break
    return stones >= 2


@_jit
def _allowed(p: int, c: int, ko: int, board: Any, ring: Any, gid: Any, nxt: Any,
             size_: Any, plib: Any, lsum: Any, lsq: Any, flags: int) -> bool:
    """A pattern or random move of the policy: legal, not filling an own eye, and (with
    :data:`NO_SELF_ATARI`) no self-atari of two stones or more."""
    if not _legal(p, c, ko, board, ring, gid, plib, lsum, lsq) or _own_eye(p, c, board, ring):
        return False
    return not (flags & NO_SELF_ATARI and _self_atari(p, c, board, ring, gid, nxt, size_,
                                                       plib, lsum, lsq))


@_jit
def _playout(board: Any, colour: int, ko: int, last: int, ring: Any, pattern: Any,
             level: int, seed: int, max_plies: int, moves: Any, passes: int, flags: int = 0
             ) -> tuple[int, int, int]:
    """Play from ``board`` (modified in place) with ``colour`` (1 black, 2 white) to move,
    by the policy of the module docstring (``level``: 3 patterns, 2 captures, 0 random;
    ``flags``: the refinements :data:`NO_SELF_ATARI`, :data:`CAPTURE_ANY`,
    :data:`UNIFORM_RANDOM`), until two passes in a row (``passes``: those made before the
    playout) or ``max_plies``. ``moves`` receives the points played (``n``: a pass).
    Returns (plies, colour to move, passes in a row at the end)."""
    n = board.shape[0]
    gid, nxt, size_, plib, lsum, lsq, _ = _groups(board, ring)
    cand = np.empty(n, dtype=np.int32)
    x = np.uint64(seed) | np.uint64(1)
    plies = 0
    while plies < max_plies and passes < 2:
        c = colour
        m = -1
        if level > 0 and last >= 0:
            # 1. capture the last move's group in atari
            if board[last] == 3 - c and _atari(gid[last], plib, lsum, lsq):
                g = gid[last]
                lib = lsum[g] // plib[g]
                if _legal(lib, c, ko, board, ring, gid, plib, lsum, lsq):
                    m = lib
            # 2. save an own group the last move put in atari
            if m < 0:
                for k in range(0, 8, 2):
                    q = ring[last, k]
                    if q >= 0 and board[q] == c and _atari(gid[q], plib, lsum, lsq):
                        g = gid[q]
                        lib = lsum[g] // plib[g]
                        if _legal(lib, c, ko, board, ring, gid, plib, lsum, lsq) and \
                                _liberties_after(lib, c, board, ring, gid, plib, lsum,
                                                 lsq) >= 2 and not (
                                    flags & NO_SELF_ATARI and _self_atari(
                                        lib, c, board, ring, gid, nxt, size_, plib, lsum,
                                        lsq)):
                            m = lib
                            break
            # 3. MoGo's patterns around the last move
            if m < 0 and level >= 3:
                found = 0
                for k in range(8):
                    q = ring[last, k]
                    if q >= 0 and board[q] == 0 and pattern[_code(q, c, board, ring)] and \
                            _allowed(q, c, ko, board, ring, gid, nxt, size_, plib, lsum,
                                     lsq, flags):
                        cand[found] = q
                        found += 1
                if found:
                    x = _next_random(x)
                    m = cand[_draw(x, found)]
        if m < 0 and level > 0 and flags & CAPTURE_ANY:
            # 3b. MoGo: capture any opposing group in atari (one at random)
            found = 0
            for p in range(n):
                if board[p] == 3 - c and gid[p] == p and _atari(p, plib, lsum, lsq):
                    lib = lsum[p] // plib[p]
                    if _legal(lib, c, ko, board, ring, gid, plib, lsum, lsq):
                        cand[found] = lib
                        found += 1
            if found:
                x = _next_random(x)
                m = cand[_draw(x, found)]
        if m < 0 and flags & UNIFORM_RANDOM:
            # 4. uniform over the allowed points: draw among the empty ones, dropping
            # each point refused
            found = 0
            for p in range(n):
                if board[p] == 0:
                    cand[found] = p
                    found += 1
            while found > 0:
                x = _next_random(x)
                i = _draw(x, found)
                p = cand[i]
                if _allowed(p, c, ko, board, ring, gid, nxt, size_, plib, lsum, lsq, flags):
                    m = p
                    break
                found -= 1
                cand[i] = cand[found]
        elif m < 0:  # 4. a random legal move that fills no own eye (the first from a
            # random start: a point after a run of refused ones is favoured)
            x = _next_random(x)
            start = _draw(x, n)
            for i in range(n):
                p = start + i
                if p >= n:
                    p -= n
                if board[p] == 0 and _allowed(p, c, ko, board, ring, gid, nxt, size_, plib,
                                              lsum, lsq, flags):
                    m = p
                    break
        if m < 0:
            passes += 1
            ko = -1
            moves[plies] = n
        else:
            passes = 0
            ko = _place(m, c, board, ring, gid, nxt, size_, plib, lsum, lsq)
            moves[plies] = m
        last = m
        plies += 1
        colour = 3 - c
    return plies, colour, passes


@_jit
def _ko_candidate(board: Any, last: int, ring: Any, zobrist: Any, hash_: Any
                  ) -> tuple[int, Any]:
    """The simple ko after the stone on ``last``: when it stands alone with one
    liberty, that liberty and the hash of the board after the opponent takes it there
    (the caller looks it up in the history: a repeated board is the ko the playout must
    not retake at once); ``(-1, 0)`` otherwise."""
    none = (-1, np.uint64(0))
    if last < 0 or board[last] == 0:
        return none
    c = board[last]
    lib = -1
    for k in range(0, 8, 2):
        q = ring[last, k]
        if q < 0:
            continue
        if board[q] == c:
            return none  # not a single stone
        if board[q] == 0:
            if lib >= 0:
                return none  # two liberties
            lib = q
    if lib < 0:
        return none
    return lib, hash_ ^ zobrist[lib, 3 - c] ^ zobrist[last, c]


@_jit
def _groups(board: Any, ring: Any) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
    """:func:`_setup`'s structures of ``board``, made: (roots, circular lists, sizes,
    pseudo-liberties, their sums and sums of squares, a work stack)."""
    n = board.shape[0]
    gid = np.empty(n, dtype=np.int32)
    nxt = np.empty(n, dtype=np.int32)
    size_ = np.empty(n, dtype=np.int32)
    plib = np.empty(n, dtype=np.int64)
    lsum = np.empty(n, dtype=np.int64)
    lsq = np.empty(n, dtype=np.int64)
    stack = np.empty(n, dtype=np.int32)
    _setup(board, ring, gid, nxt, size_, plib, lsum, lsq, stack)
    return gid, nxt, size_, plib, lsum, lsq, stack


@_jit
def _stone_effects(p: int, colour: int, board: Any, ring: Any, gid: Any, plib: Any,
                   lsum: Any, lsq: Any, taken: Any) -> tuple[bool, int]:
    """What ``colour``'s stone on the empty point ``p`` would do: whether it keeps a
    liberty (an empty neighbour, or a friendly group not in atari), and the opposing
    groups it captures (those in atari: their one liberty is ``p``), their roots into
    ``taken``; returns (keeps a liberty, groups captured)."""
    alive = False
    found = 0
    # the four neighbours, walked inline as in every kernel here (ring_table says why)
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q < 0:
            continue
        x = board[q]
        if x == 0:
            alive = True
        elif x == colour:
            if not _atari(gid[q], plib, lsum, lsq):
                alive = True
        elif _atari(gid[q], plib, lsum, lsq):
            g = gid[q]
            new = True
            for j in range(found):
                if taken[j] == g:
                    new = False
            if new:
                taken[found] = g
                found += 1
    return alive, found


@_jit
def _features(board: Any, colour: int, ring: Any, canon: Any, legal: Any, out: Any) -> None:
    """The prior feature (:mod:`.patterns`) of each legal point (``legal[p]`` != 0) into
    ``out[p]`` (-1 elsewhere)."""
    n = board.shape[0]
    gid, _, _, plib, lsum, lsq, _ = _groups(board, ring)
    for p in range(n):
        if not legal[p]:
            out[p] = -1
            continue
        f = canon[_code(p, colour, board, ring)]
        for k in range(0, 8, 2):
            q = ring[p, k]
            if q >= 0 and board[q] != 0 and _atari(gid[q], plib, lsum, lsq):
                f |= SAVE_BIT if board[q] == colour else CAPTURE_BIT
        out[p] = f


@_jit
def _legal_hashes(board: Any, colour: int, ring: Any, zobrist: Any, hash_: Any,
                  points: Any, hashes: Any) -> int:
    """The stones ``colour`` may place on ``board`` under the rules without superko
    (suicide illegal), each with the Zobrist hash of the board after it (captures
    removed), into ``points`` and ``hashes``; returns how many. The rules' positional
    superko is the caller's (:meth:`GoKernels.legal_points`): a hash in the history."""
    n = board.shape[0]
    gid, nxt, _, plib, lsum, lsq, _ = _groups(board, ring)
    taken = np.empty(4, dtype=np.int32)
    other = 3 - colour
    count = 0
    for p in range(n):
        if board[p] != 0:
            continue
        alive, found = _stone_effects(p, colour, board, ring, gid, plib, lsum, lsq, taken)
        if not alive and found == 0:
            continue  # suicide
        h = hash_ ^ zobrist[p, colour]
        for j in range(found):
            s = taken[j]
            while True:
                h ^= zobrist[s, other]
                s = nxt[s]
                if s == taken[j]:
                    break
        points[count] = p
        hashes[count] = h
        count += 1
    return count


@_jit
def _play_stone(board: Any, p: int, colour: int, ring: Any, zobrist: Any, hash_: Any
                ) -> tuple[Any, Any, bool]:
    """:meth:`.rules.Go._play` with suicide illegal: the board after ``colour``'s stone on
    the empty point ``p`` (a new array, captures removed), its Zobrist hash, and False
    when the move is suicide (the board is then meaningless)."""
    new = board.copy()
    gid, nxt, _, plib, lsum, lsq, _ = _groups(new, ring)
    alive, found = _stone_effects(p, colour, board, ring, gid, plib, lsum, lsq,
                                  np.empty(4, dtype=np.int32))
    if not alive and found == 0:
        return new, hash_, False
    h = hash_ ^ zobrist[p, colour]
    other = 3 - colour
    new[p] = colour
    for k in range(0, 8, 2):
        q = ring[p, k]
        if q >= 0 and new[q] == other and _atari(gid[q], plib, lsum, lsq):
            g = gid[q]
            s = g
            while True:  # (a group next to p twice is emptied the first time)
                new[s] = 0
                h ^= zobrist[s, other]
                s = nxt[s]
                if s == g:
                    break
    return new, h, True


@_jit
def _stones_played(moves: Any, plies: int, first: int, pass_point: int) -> tuple[Any, Any]:
    """The first ``plies`` of a playout's ``moves`` without its passes, as two ``int64``
    arrays: who played (``first`` moved first, then they alternate) and where."""
    players = np.empty(plies, dtype=np.int64)
    points = np.empty(plies, dtype=np.int64)
    count = 0
    player = first
    for i in range(plies):
        if moves[i] != pass_point:
            players[count] = player
            points[count] = moves[i]
            count += 1
        player ^= 1
    return players[:count], points[:count]


@_jit
def _area(board: Any, ring: Any) -> tuple[int, int]:
    """Black's and White's area (:meth:`.rules.Go.area`: stones plus the empty points
    that reach only their colour)."""
    n = board.shape[0]
    black = 0
    white = 0
    seen = np.zeros(n, dtype=np.bool_)
    region = np.empty(n, dtype=np.int32)
    for p in range(n):
        if board[p] == 1:
            black += 1
        elif board[p] == 2:
            white += 1
    for p in range(n):
        if board[p] != 0 or seen[p]:
            continue
        seen[p] = True
        region[0] = p
        size = 1
        reach = 0
        i = 0
        while i < size:
            for k in range(0, 8, 2):
                q = ring[region[i], k]
                if q < 0:
                    continue
                c = board[q]
                if c != 0:
                    reach |= c
                elif not seen[q]:
                    seen[q] = True
                    region[size] = q
                    size += 1
            i += 1
        if reach == 1:
            black += size
        elif reach == 2:
            white += size
    return black, white


@_jit
def _prior_weights(board: Any, colour: int, ring: Any, canon: Any, weights: Any,
                   actions: Any, pass_weight: float) -> Any:
    """The learned weight of each of ``actions`` (its feature's, :func:`_features`; the
    pass, ``board.shape[0]``, gets ``pass_weight``)."""
    n = board.shape[0]
    legal = np.zeros(n, dtype=np.int8)
    for a in actions:
        if a < n:
            legal[a] = 1
    out = np.empty(n, dtype=np.int64)
    _features(board, colour, ring, canon, legal, out)
    raw = np.empty(actions.shape[0])
    for i in range(actions.shape[0]):
        a = actions[i]
        raw[i] = pass_weight if a >= n else weights[out[a]]
    return raw


class GoKernels:
    """The compiled playout and priors of one board size (tables built once)."""

    def __init__(self, game: Go, policy: str = "patterns", priors_file: str | None = None
                 ) -> None:
        if policy not in POLICIES:
            raise InvalidLimitError(f"go playout={policy!r}; allowed: {', '.join(POLICIES)}")
        self.game = game
        self.level = POLICIES[policy]
        #: the refinements (the game's options ``no_self_atari``, ``capture_any``,
        #: ``uniform_random``, ``answer_last``)
        self.flags = ((NO_SELF_ATARI if getattr(game, "no_self_atari", False) else 0)
                      | (CAPTURE_ANY if getattr(game, "capture_any", False) else 0)
                      | (UNIFORM_RANDOM if getattr(game, "uniform_random", False) else 0))
        self.answer_last = bool(getattr(game, "answer_last", False))
        self.ring = ring_table(game.size)
        self.pattern = mogo_table()
        self.canon = canonical_codes()
        self.priors_file = priors_file
        self._weights: tuple[Any, float, dict[str, Any]] | None = None
        self.max_plies = 3 * game.points
        self.zobrist = np.array(game.zobrist, dtype=np.uint64)

    # -- the rules' legal moves -----------------------------------------------------------
    def legal_points(self, state: GoState) -> list[int]:
        """:meth:`.rules.Go._legal_points` compiled (suicide illegal): the stones legal
        without superko from :func:`_legal_hashes`, less those whose board is in the
        history, then the pass."""
        board = np.frombuffer(state.board, dtype=np.int8)
        n = board.shape[0]
        points = np.empty(n, dtype=np.int64)
        hashes = np.empty(n, dtype=np.uint64)
        count = _legal_hashes(board, state.to_move + 1, self.ring, self.zobrist,
                              np.uint64(state.hash), points, hashes)
        history = state.history
        out = [p for p, h in zip(points[:count].tolist(), hashes[:count].tolist(),
                                 strict=True) if h not in history]
        out.append(n)
        return out

    def play(self, state: GoState, p: int) -> tuple[bytes, int, bool] | None:
        """:meth:`.rules.Go._play` compiled (suicide illegal): ``(board, hash, False)``
        after the mover's stone on the empty point ``p``, or ``None`` for a suicide."""
        new, h, ok = _play_stone(np.frombuffer(state.board, dtype=np.int8), p,
                                 state.to_move + 1, self.ring, self.zobrist,
                                 np.uint64(state.hash))
        return (new.tobytes(), int(h), False) if ok else None

    def area(self, board: bytes) -> tuple[int, int]:
        """:meth:`.rules.Go.area` compiled."""
        return _area(np.frombuffer(board, dtype=np.int8), self.ring)

    # -- playouts ---------------------------------------------------------------------
    def run(self, state: GoState, rng: random.Random, max_plies: int | None
            ) -> tuple[GoState, Any, int]:
        """(the end state, the points played, how many)."""
        game = self.game
        cap = self.max_plies if max_plies is None else min(max_plies, self.max_plies)
        if game.max_moves:
            cap = min(cap, max(game.max_moves - state.moves, 0))
        if state.passes >= 2:
            cap = 0
        board = np.frombuffer(state.board, dtype=np.int8).copy()
        moves = np.empty(max(cap, 1), dtype=np.int32)
        last = ko = -1
        if self.answer_last and state.passes == 0 and state.last >= 0:
            last = state.last
            lib, h = _ko_candidate(board, last, self.ring, self.zobrist,
                                   np.uint64(state.hash))
            if lib >= 0 and int(h) in state.history:
                ko = lib
        plies, colour, passes = _playout(board, state.to_move + 1, ko, last, self.ring,
                                         self.pattern, self.level, rng.getrandbits(63), cap,
                                         moves, state.passes, self.flags)
        moved = state.moves + plies
        if plies == 0:
            passes = state.passes
        if passes >= 2 or (game.max_moves and moved >= game.max_moves) or max_plies is None \
                or plies < max_plies:
            # over, or stopped by the playout's own cap (3 x points): scored as over
            end = GoState(board.tobytes(), colour - 1, max(passes, 2), moved, 0, frozenset())
            end._area = _area(board, self.ring)
        else:  # cut by the caller's max_plies: a real position, to evaluate
            stones = [(p, int(c)) for p, c in enumerate(board.tolist()) if c]
            end = game.position(stones, colour - 1)
            end = GoState(end.board, end.to_move, passes, moved, end.hash, end.history)
        return end, moves, plies

    def playout(self, state: GoState, rng: random.Random, max_plies: int | None = None
                ) -> GoState:
        return self.run(state, rng, max_plies)[0]

    def traced(self, state: GoState, rng: random.Random, max_plies: int | None = None
               ) -> tuple[GoState, list[tuple[int, int]]]:
        """The playout and the stones it played, ``(player, point)`` (RAVE's input). The
        passes are left out: every playout ends with two, so their all-moves-as-first
        value would be the mean of the node, not the worth of passing."""
        end, moves, plies = self.run(state, rng, max_plies)
        p = state.to_move
        n = self.game.points
        out = []
        for a in moves[:plies].tolist():
            if a != n:
                out.append((p, a))
            p ^= 1
        return end, out

    def traced_codes(self, state: GoState, rng: random.Random, max_plies: int | None = None
                     ) -> tuple[GoState, Any, Any]:
        """:meth:`traced` with the stones as two ``int64`` arrays, the players and the
        points (``Playouts.traced_codes``, for MCTS's compact RAVE tree): the same
        playout, no Python list."""
        end, moves, plies = self.run(state, rng, max_plies)
        players, points = _stones_played(moves, plies, state.to_move, self.game.points)
        return end, players, points

    def margin(self, state: GoState) -> float:
        """Black's margin of a finished game (MCTS's ``margin`` option): the area
        score (:meth:`.rules.Go.score`, komi included) over the number of points, within
        [-1, 1]."""
        game = self.game
        return max(-1.0, min(1.0, game.score(state) / game.points))

    # -- priors -------------------------------------------------------------------------
    def features(self, state: GoState, actions: Sequence[int]) -> list[int]:
        """The pattern feature of each action (-1 for the pass)."""
        n = self.game.points
        legal = np.zeros(n, dtype=np.int8)
        for a in actions:
            if a < n:
                legal[a] = 1
        out = np.empty(n, dtype=np.int64)
        board = np.frombuffer(state.board, dtype=np.int8)
        _features(board, state.to_move + 1, self.ring, self.canon, legal, out)
        return [int(out[a]) if a < n else -1 for a in actions]

    def priors(self, state: GoState) -> Any:
        """The prior of each of ``game.actions(state)``: the learned weights, normalised
        (an array; the sum taken in the actions' order, as a Python loop does)."""
        actions = np.array(self.game.actions(state), dtype=np.int64)
        if self._weights is None:
            self._weights = load_weights(self.priors_file)
        raw = _prior_weights(np.frombuffer(state.board, dtype=np.int8), state.to_move + 1,
                             self.ring, self.canon, self._weights[0], actions, PASS_WEIGHT)
        return raw / sum(raw.tolist())


_KERNELS: dict[str, GoKernels] = {}


def kernels(game: Go) -> GoKernels:
    """The kernels of ``game``'s size and playout policy (made once per process)."""
    key = game.spec
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = GoKernels(game, game.playout)
    return k


def go_playouts(game: Go) -> Playouts[GoState]:
    """The :class:`Playouts` of ``game``: the compiled policy playout (with its trace for
    RAVE) and the learned priors (``go:...,priors=0`` leaves them out: uniform)."""
    k = kernels(game)
    return Playouts(priors=k.priors if game.priors else None,
                    compiled=partial(GoKernels.playout, k),
                    traced=partial(GoKernels.traced, k),
                    margin=partial(GoKernels.margin, k),
                    untraced=frozenset((game.pass_action,)),
                    action_codes=game.points + 1,
                    traced_codes=partial(GoKernels.traced_codes, k))

