"""The double-dummy solver's probes compiled with numba: node for node the generic engine.

:class:`CompiledSolver` is :class:`gamesearch.search.solve.Solver` on the double-dummy
view (:class:`.dd.DoubleDummy`) with one method replaced: ``_probe``, the null-window
search of the whole game, runs here over machine integers instead of through
:class:`gamesearch.search.negamax.Negamax`. The root narrowing (Pons's binary search of
probes) and the best-move probes follow the Solver's step for step
(:meth:`CompiledSolver.solve`; a game may not import ``search/``). The probe is the
engine in the solver's configuration (transposition table, the game's ordering only, no
killers, history, table move or PVS; the game's value bounds on), step for step:

* the root: counted as a node; its moves (``actions``, or the one ``root_moves`` move)
  ordered by the game's ordering; the fail-soft loop; its result stored (a full table
  emptied first), flagged against the probe's window, unless the root was restricted;
* every other node: counted; the terminal test (the declaring side's tricks less the
  defenders', no discount: the values stay far below the win threshold); the table probe
  narrowing the window (an exact value or crossed bounds end the node); the value bounds
  (quick tricks at the start of a trick; a bound outside the window ends the node,
  fail-soft; equal bounds end it too); ordering when more than one move; the fail-soft loop
  (the same side moving again keeps the window, the other side's is negated); the store,
  flagged LOWER/UPPER/EXACT against the narrowed window;
* the game's functions, each translated line by line from :mod:`.dd`: equivalent-card
  merging (``actions``), the relative-rank key at the start of a trick (no table
  within one), :func:`.dd.quick_tricks`, :func:`.dd.order_key` (a stable insertion sort,
  as Python's sort is stable), :func:`.dd.trick_winner`.

Integers instead of floats: every value is a whole number of tricks and every window
bound of a probe is ``(b, nextafter(b))`` with whole ``b``; as in Connect Four's compiled
solver (:mod:`..connect4.compiled`), a node keeps ``A = floor(alpha)`` and
``B = ceil(beta)``, and every comparison the engine makes agrees.

The table behaves like the engine's dict: exact keys (open addressing over twice the
capacity, so no key is ever lost to a collision), emptied (a new generation, O(1)) when
a key that the node's probe did not find is stored into a full table. The recursion is
plain recursion, so the compiled code is not cached on disk (numba issue #6061); the
first call compiles it (a few seconds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...errors import InvalidPositionError, UnsupportedGameError
from ..numba_support import NUMBA_ERROR, available, np
from ..numba_support import njit as _njit
from .dd import DDState, DoubleDummy, tricks_left

#: table capacity (entries) of the compiled solver by default
DEFAULT_CAPACITY = 1 << 20

__all__ = ["CompiledSolver", "available", "dd_table", "solve", "solve_state", "solve_table"]


def _jit(fn: Any) -> Any:
    return _njit(cache=False)(fn) if _njit is not None else fn


@_jit
def _popcount(x: int) -> Any:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@_jit
def _suit_mask(s: int) -> int:
    return 0x1FFF << (13 * s)


@_jit
def _top_run(H: Any, seat: int, suit: int) -> int:
    # compiled twin of .dd.top_run on the hands array (numba cannot call the Python one on
    # a DDState); tests/test_bridge.py holds the two solvers node for node
    hand = H[seat]
    others = (H[0] | H[1] | H[2] | H[3]) & ~hand
    base = 13 * suit
    n = 0
    for r in range(12, -1, -1):
        bit = 1 << (base + r)
        if hand & bit:
            n += 1
        elif others & bit:
            break
    return n


@_jit
def _winner(T: Any, leader: int, strain: int) -> Any:
    best = 0
    best_card = T[0]
    for i in range(1, 4):
        c = T[i]
        if c // 13 == best_card // 13:
            if c > best_card:
                best = i
                best_card = c
        elif c // 13 == strain:
            best = i
            best_card = c
    return (leader + best) % 4


@_jit
def _gen_moves(H: Any, T: Any, tlen: int, leader: int, out: Any) -> int:
    seat = (leader + tlen) % 4
    hand = H[seat]
    legal = hand
    on_table = 0
    for i in range(tlen):
        on_table |= 1 << T[i]
    if tlen > 0:
        follow = hand & _suit_mask(T[0] // 13)
        if follow:
            legal = follow
    live = H[0] | H[1] | H[2] | H[3] | on_table
    n = 0
    for s in range(4):
        m = legal & _suit_mask(s)
        if m == 0:
            continue
        base = 13 * s
        in_run = False
        for r in range(12, -1, -1):
            bit = 1 << (base + r)
            if m & bit:
                if not in_run:
                    out[n] = base + r
                    n += 1
                    in_run = True
            elif live & bit:
                in_run = False
    return n


@_jit
def _order_key(H: Any, T: Any, tlen: int, leader: int, card: int, strain: int) -> Any:
    rank = card % 13
    if tlen == 0:
        return 12 - rank
    win_i = 0
    win_card = T[0]
    for i in range(1, tlen):
        c = T[i]
        if c // 13 == win_card // 13:
            if c > win_card:
                win_i = i
                win_card = c
        elif c // 13 == strain:
            win_i = i
            win_card = c
    seat = (leader + tlen) % 4
    partner_wins = ((((leader + win_i) % 4) - seat) & 1) == 0
    beats = (card // 13 == win_card // 13 and card > win_card) or (
        card // 13 == strain and win_card // 13 != strain)
    if partner_wins or not beats:
        extra = 13 if (card // 13 == strain and card // 13 != T[0] // 13) else 0
        return 20 + rank + extra
    return rank


@_jit
def _order(H: Any, T: Any, tlen: int, leader: int, moves: Any, n: int, strain: int) -> None:
    keys = np.empty(13, np.int64)
    for i in range(n):
        keys[i] = _order_key(H, T, tlen, leader, moves[i], strain)
    _sort_by_keys(keys, moves, n)


@_jit
def _sort_by_keys(keys: Any, moves: Any, n: int) -> None:
    """The first ``n`` moves sorted by their keys, lowest first; a stable insertion sort,
    as Python's sorted (a handful of cards)."""
    for i in range(1, n):
        k = keys[i]
        m = moves[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            moves[j + 1] = moves[j]
            j -= 1
        keys[j + 1] = k
        moves[j + 1] = m


@_jit
def _top_cards(alive: int, suit: int, k: int) -> int:
    """The mask of the ``k`` highest cards of ``suit`` in ``alive``."""
    out = 0
    base = 13 * suit
    r = 12
    while k > 0 and r >= 0:
        bit = 1 << (base + r)
        if alive & bit:
            out |= bit
            k -= 1
        r -= 1
    return out


@_jit
def _quick(H: Any, leader: int, strain: int) -> tuple[int, int, int, int]:
    """:func:`.dd.quick_tricks` with the cards each bound counted: ``(q, q_cards, qo,
    qo_cards)``."""
    alive = H[0] | H[1] | H[2] | H[3]
    rem = _popcount(alive) // 4
    q = 0
    q_cards = 0
    for s in range(4):
        k = _top_run(H, leader, s)
        if k == 0:
            continue
        if strain != 4 and s != strain:
            trumps = _suit_mask(strain)
            suit = _suit_mask(s)
            for o in range(1, 4):
                h = H[(leader + o) % 4]
                if h & trumps:
                    n = _popcount(h & suit)
                    if n < k:
                        k = n
        q += k
        q_cards |= _top_cards(alive, s, k)
    if q > rem:
        q = rem
    qo = 0
    qo_cards = 0
    if strain != 4:
        for o in (1, 3):
            r = _top_run(H, (leader + o) % 4, strain)
            if r > qo:
                qo = r
                qo_cards = _top_cards(alive, strain, r)
    return q, q_cards, qo, qo_cards


@_jit
def _holders(H: Any, s: int) -> tuple[int, int]:
    """The holders of suit ``s``'s cards still in the hands, from the top: their seats, 2
    bits a card (the highest card in the highest bits), and how many cards."""
    code = 0
    n = 0
    base = 13 * s
    for r in range(12, -1, -1):
        bit = 1 << (base + r)
        for seat in range(4):
            if H[seat] & bit:
                code = code * 4 + seat
                n += 1
                break
    return code, n


@_jit
def _make_key(H: Any, T: Any, tlen: int, leader: int, taken: int, key: Any) -> None:
    """The view's key at the start of a trick (``tlen`` is 0), as 5 integers."""
    k01 = 0
    k23 = 0
    for s in range(4):
        holders, n = _holders(H, s)
        code = (1 << (2 * n)) | holders  # a leading 1: the suit's length is in the key
        if s < 2:
            k01 = (k01 << 27) | code
        else:
            k23 = (k23 << 27) | code
    key[0] = k01
    key[1] = k23
    key[2] = leader
    key[3] = 0
    key[4] = -1


@_jit
def _slot(keys: Any, gen: Any, g: int, key: Any, mask: int) -> Any:
    """The slot of ``key`` or the empty slot where it goes (linear probing)."""
    h = (key[0] * 0x1E3779B97F4A7C15) ^ (key[1] * 0x42B2AE3D27D4EB4F) ^ (
        key[2] * 0x165667B19E3779F9) ^ (key[3] * 0x27D4EB2F165667C5) ^ (key[4] * 0x85EBCA77)
    i = (h ^ (h >> 29)) & mask
    while gen[i] == g:
        if (keys[i, 0] == key[0] and keys[i, 1] == key[1] and keys[i, 2] == key[2]
                and keys[i, 3] == key[3] and keys[i, 4] == key[4]):
            return i
        i = (i + 1) & mask
    return i


# table meta: [0] generation, [1] entries in this generation, [2] capacity, [3] nodes
@_jit
def _store(keys: Any, vals: Any, gen: Any, meta: Any, key: Any, value: int, flag: int,
           found: bool) -> None:
    mask = keys.shape[0] - 1
    if not found and meta[1] >= meta[2]:
        meta[0] += 1  # a full table is emptied when a new key comes
        meta[1] = 0
    i = _slot(keys, gen, meta[0], key, mask)
    if gen[i] != meta[0]:
        meta[1] += 1
        gen[i] = meta[0]
        for j in range(5):
            keys[i, j] = key[j]
    vals[i, 0] = value
    vals[i, 1] = flag


@_jit
def _play(H: Any, T: Any, st: Any, seat: int, c: int, tlen: int, leader: int, strain: int,
          decl: int) -> int:
    """Play card ``c`` of ``seat`` as the trick's card ``tlen``; the trick's winner when it
    completes the trick (the score and the leader updated), else -1."""
    H[seat] &= ~(1 << c)
    T[tlen] = c
    if tlen == 3:
        w: int = _winner(T, leader, strain)
        st[0] = 0
        st[1] = w
        if (w - decl) & 1:
            st[3] += 1
        else:
            st[2] += 1
        return w
    st[0] = tlen + 1
    return -1


@_jit
def _unplay(H: Any, T: Any, st: Any, seat: int, c: int, tlen: int, leader: int, decl: int,
            t0: int, t1: int, t2: int) -> None:
    """Undo :func:`_play` (the next trick wrote over the cards of this one: ``t0-t2``)."""
    if tlen == 3:
        T[0] = t0
        T[1] = t1
        T[2] = t2
        if (st[1] - decl) & 1:
            st[3] -= 1
        else:
            st[2] -= 1
        st[1] = leader
    st[0] = tlen
    H[seat] |= 1 << c


@_jit
def _negamax(H: Any, T: Any, st: Any, A: int, B: int, strain: int, decl: int,
             keys: Any, vals: Any, gen: Any, meta: Any) -> Any:
    """One node (``st``: trick length, leader, tricks taken, lost); the module docstring."""
    meta[3] += 1
    tlen = st[0]
    leader = st[1]
    p = ((leader + tlen) - decl) & 1
    if tlen == 0 and (H[0] | H[1] | H[2] | H[3]) == 0:
        d = st[2] - st[3]
        return d if p == 0 else -d
    moves = np.empty(13, np.int64)
    n = _gen_moves(H, T, tlen, leader, moves)
    key = np.empty(5, np.int64)
    slot = -1
    found = False
    if tlen == 0:  # (within a trick: no table, as the view's key says)
        _make_key(H, T, tlen, leader, st[2], key)
        slot = _slot(keys, gen, meta[0], key, keys.shape[0] - 1)
        found = gen[slot] == meta[0]
    own = st[2] if p == 0 else st[3]
    opp = st[3] if p == 0 else st[2]
    banked = own - opp  # the table keeps the tricks still to come (the view's banked)
    if found:
        v = vals[slot, 0] + banked
        flag = vals[slot, 1]
        if flag == 0:
            A = v
            B = v
        elif flag == 1:
            if v > A:
                A = v
        elif v < B:
            B = v
        if A >= B:
            return v
    rem = (_popcount(H[0] | H[1] | H[2] | H[3]) + tlen) // 4
    if tlen > 0:
        lo = own - opp - rem
        hi = own - opp + rem
    else:
        q, _q_cards, qo, _qo_cards = _quick(H, leader, strain)
        lo = own + q - opp - rem + q
        hi = own + rem - qo - opp - qo
    if lo >= B:
        return lo
    if hi <= A:
        return hi
    if lo > A:
        A = lo
    if hi < B:
        B = hi
        if A >= B:
            return B
    a_orig = A
    if n > 1:
        _order(H, T, tlen, leader, moves, n, strain)
    best = -(1 << 30)
    seat = (leader + tlen) % 4
    t0, t1, t2 = T[0], T[1], T[2]
    for i in range(n):
        c = moves[i]
        _play(H, T, st, seat, c, tlen, leader, strain, decl)
        cp = ((st[1] + st[0]) - decl) & 1
        if cp == p:
            v = _negamax(H, T, st, A, B, strain, decl, keys, vals, gen, meta)
        else:
            v = -_negamax(H, T, st, -B, -A, strain, decl, keys, vals, gen, meta)
        _unplay(H, T, st, seat, c, tlen, leader, decl, t0, t1, t2)
        if v > best:
            best = v
            if v > A:
                A = v
            if v >= B:
                break
    if tlen > 0:
        return best
    flag = 1 if best >= B else (2 if best <= a_orig else 0)
    if found:
        vals[slot, 0] = best - banked  # (the probe found it: stored back, no full check)
        vals[slot, 1] = flag
        if gen[slot] != meta[0]:  # a subtree emptied the table meanwhile
            _store(keys, vals, gen, meta, key, best - banked, flag, True)
    else:
        _store(keys, vals, gen, meta, key, best - banked, flag, False)
    return best


@_jit
def _probe(H: Any, T: Any, st: Any, b: int, root_move: int, strain: int, decl: int,
           keys: Any, vals: Any, gen: Any, meta: Any) -> tuple[int, int]:
    """``Negamax.search_root`` in the window ``(b, nextafter(b))``: (value, best card)."""
    meta[3] += 1
    A = b
    B = b + 1
    tlen = st[0]
    leader = st[1]
    p = ((leader + tlen) - decl) & 1
    moves = np.empty(13, np.int64)
    if root_move >= 0:
        moves[0] = root_move
        n = 1
    else:
        n = _gen_moves(H, T, tlen, leader, moves)
    _order(H, T, tlen, leader, moves, n, strain)
    best = -(1 << 30)
    best_move = -1
    a = A
    seat = (leader + tlen) % 4
    t0, t1, t2 = T[0], T[1], T[2]
    # _negamax's loop over the children, kept beside it as the engine keeps search_root
    # beside negamax: the root also keeps the best card, stores with the probe's window
    # and counts no table probe
    for i in range(n):
        c = moves[i]
        _play(H, T, st, seat, c, tlen, leader, strain, decl)
        cp = ((st[1] + st[0]) - decl) & 1
        if cp == p:
            v = _negamax(H, T, st, a, B, strain, decl, keys, vals, gen, meta)
        else:
            v = -_negamax(H, T, st, -B, -a, strain, decl, keys, vals, gen, meta)
        _unplay(H, T, st, seat, c, tlen, leader, decl, t0, t1, t2)
        if v > best:
            best = v
            best_move = c
            if v > a:
                a = v
            if v >= B:
                break
    if root_move < 0 and tlen == 0:
        key = np.empty(5, np.int64)
        _make_key(H, T, tlen, leader, st[2], key)
        flag = 1 if best >= B else (2 if best <= A else 0)
        own = st[2] if p == 0 else st[3]
        opp = st[3] if p == 0 else st[2]
        _store(keys, vals, gen, meta, key, best - (own - opp), flag, False)
    return best, best_move


def _trunc_half(x: float) -> int:
    return int(x / 2)  # C's integer division, as the generic solver's


class CompiledSolver:
    """The double-dummy solve of a view (:class:`.dd.DoubleDummy`) with the compiled probe
    (the module docstring): the same scores, best cards and node counts as
    :class:`gamesearch.search.solve.Solver`. The table persists between solves, as the
    generic solver's does (:meth:`clear` for a cold start)."""

    def __init__(self, game: DoubleDummy, tt: int = DEFAULT_CAPACITY) -> None:
        if not available():
            raise UnsupportedGameError(f"the compiled double-dummy solver needs numba "
                                       f"(pip install 'gamesearch[fast]'): {NUMBA_ERROR}")
        self.game = game
        cap = 1 << max(0, int(tt) - 1).bit_length()
        self.keys = np.zeros((2 * cap, 5), np.int64)
        self.vals = np.zeros((2 * cap, 2), np.int64)
        self.gen = np.zeros(2 * cap, np.int64)
        self.meta = np.array([1, 0, cap, 0], np.int64)
        self.nodes = 0

    def clear(self) -> None:
        """Empty the table (a cold start)."""
        self.meta[0] += 1
        self.meta[1] = 0

    def probe(self, state: DDState, b: float, root_move: int = -1) -> tuple[float, int | None]:
        """``Negamax.search_root`` in the window ``(b, nextafter(b))`` as ``Solver._probe``
        calls it: the value, and the best card (``None``: none)."""
        H = np.array(state[:4], np.int64)
        T = np.zeros(4, np.int64)
        for i, c in enumerate(state[5]):
            T[i] = c
        st = np.array([len(state[5]), state[4], state[6], state[7]], np.int64)
        self.meta[3] = 0
        value, move = _probe(H, T, st, math.floor(b), root_move, self.game.strain,
                             self.game.declarer, self.keys, self.vals, self.gen, self.meta)
        self.nodes += int(self.meta[3])
        return float(value), None if move < 0 else int(move)

    def solve(self, state: DDState, best_moves: bool = True) -> dict[str, Any]:
        """``Solver.solve`` (its ``_score`` and ``_best_moves``, the same steps):
        ``{"score"`` (tricks of the side to move from here), ``"tricks"`` (the declaring
        side's), ``"moves"`` (the best cards: every one with ``best_moves``),
        ``"nodes"}``."""
        game = self.game
        if game.is_terminal(state):
            raise InvalidPositionError("bridge: the play is over; nothing to solve")
        self.nodes = 0
        score, move = self._score(state)
        nodes = self.nodes
        moves: list[int] = []
        if best_moves or move is None:
            b = game.score_threshold(state, score - 1)
            moves = [a for a in game.actions(state) if self.probe(state, b, a)[0] > b]
            if move is None and moves:
                move = moves[0]
        if move is None:
            move = game.actions(state)[0]
        s = int(score)
        n = tricks_left(state)
        return {"score": s, "tricks": s if game.to_move(state) == 0 else n - s,
                "moves": moves if best_moves and moves else [move], "nodes": nodes}

    def _score(self, state: DDState) -> tuple[float, int | None]:
        """``Solver._score``: Pons's narrowing of the window by null-window probes."""
        # search/solve.py's loop line by line: games/ may not import search/
        # (docs/architecture.md); tests/test_bridge.py holds the two node for node
        game = self.game
        maxu = game.max_utility
        step = maxu / 1000.0
        move: int | None = None
        lo = game.exact_score(state, -maxu + 2 * step)
        hi = game.exact_score(state, maxu - step)
        while lo < hi:
            med = lo + (hi - lo) // 2
            if med <= 0 and _trunc_half(lo) < med:
                med = _trunc_half(lo)
            elif med >= 0 and _trunc_half(hi) > med:
                med = _trunc_half(hi)
            b = game.score_threshold(state, med)
            value, best = self.probe(state, b)
            r = game.exact_score(state, value)
            if value <= b:
                hi = r
            else:
                lo = r
                if best is not None:
                    move = best
        return lo, move


def solve(strain: int, declarer: int, hands: Sequence[int], leader: int | None = None,
          trick: Sequence[int] = (), best_moves: bool = False,
          max_nodes: int | None = None, seconds: float | None = None) -> dict[str, Any]:
    """Solve ``hands`` for (strain, declarer), ``leader`` on lead (default: declarer's
    left-hand opponent) with ``trick`` on the table, by partition search
    (:class:`.partition.Solver`, the process's table): ``{"score", "tricks", "moves",
    "nodes"}`` as :meth:`CompiledSolver.solve`. ``max_nodes`` / ``seconds`` bound the solve
    (past them :class:`~gamesearch.errors.SearchTimeout`)."""
    from . import partition

    game = DoubleDummy(strain, declarer)
    return partition.Solver(strain, declarer, max_nodes=max_nodes, seconds=seconds).solve(
        game.start(hands, leader, trick), best_moves)


def solve_state(state: Any, best_moves: bool = True, max_nodes: int | None = None,
                seconds: float | None = None) -> dict[str, Any]:
    """:class:`~gamesearch.capabilities.PerfectView`'s ``solve`` for a bridge state, by
    partition search on the process's one table (:func:`solve`)."""
    from . import partition

    view = (*state.hands, state.leader, state.trick, 0, 0)
    return partition.Solver(state.strain, state.declarer, max_nodes=max_nodes,
                            seconds=seconds).solve(view, best_moves)


def solve_table(hands: Sequence[int]) -> tuple[list[list[int]], int]:
    """``(table, nodes)``: ``table[strain][declarer]`` the declaring side's tricks, each
    declarer's left-hand opponent on lead, and the nodes of the 20 solves, by partition
    search on the process's table (:func:`.partition.solve_table`)."""
    from . import partition

    return partition.solve_table(hands)


def dd_table(hands: Sequence[int]) -> list[list[int]]:
    """``table[strain][declarer]``: the declaring side's tricks, each declarer's left-hand
    opponent on lead (:func:`solve_table`)."""
    return solve_table(hands)[0]
