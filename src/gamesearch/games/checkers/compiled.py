"""Compiled (numba) kernels of the checkers endgame databases: move generation on 32-bit
bitboards, the perfect index of a database slice, and the retrograde solver of one slice.

Every function here is plain Python that numba compiles (:func:`~..numba_support.jit`); its
``py_func`` runs the same source interpreted. The plain reference the kernels are tested
against is elsewhere: the generic level-by-level retrograde analysis of
:mod:`gamesearch.search.retrograde` over the successors this module generates, and the move
generator is checked against ``pydraughts`` (variant ``english``) in the tests.

Board (the standard numbering of English draughts): bit ``i - 1`` is square ``i``; row
``(i - 1) // 4`` counts from Black's side; Black's men move towards 32 (directions 0, 1),
White's towards 1 (directions 2, 3). A position is four bitboards ``bm, bk, wm, wk`` (black
men, black kings, white men, white kings) and the side to move (0 Black, 1 White).
The move generator works for Black; White's moves are Black's on the mirrored position
(:func:`mirror`: the board turned half a turn, colours swapped).

Slice (material and the most advanced man of each side, as Chinook split its databases):
``(nbm, nbk, nwm, nwk, lead_b, lead_w)``: the counts of black men, black kings, white men,
white kings; ``lead_b`` the row of Black's most advanced man counted from Black's back row
(0-6; -1 without men), ``lead_w`` the same for White from White's back row.

Index of a slice (a bijection onto ``0 .. n - 1``, by combinatorial (colex) ranking):
``((men * C(32 - m, nbk)) + black kings) * C(32 - m - nbk, nwk) + white kings`` where
``m = nbm + nwm``, the kings ranked among the squares the men leave free, and
``men = offset[black men rank] + white men rank``: Black's men ranked among the squares of
rows ``0 .. lead_b`` with one on row ``lead_b``; White's ranked among the squares of White's
rows ``0 .. lead_w`` that Black's men leave free, with one on its row ``lead_w``;
``offset`` (per slice, :func:`men_offsets`) counts the White placements of each Black one,
so that the index has no holes. Each side to move is a half of the slice: position
``stm * n + index``.
"""

from __future__ import annotations

import numpy as np

from ..numba_support import jit

#: Black's men move in directions 0 and 1 (towards 32).
DOWN = (0, 1)
BLACK_CROWN = 0xF0000000
FULL = 0xFFFFFFFF
#: No value yet (the solver's winext).
NONE16 = 0xFFFF
#: Index version: bump whenever the index or the file layout changes.
INDEX_VERSION = 1
#: Room for the successors of one position (a king chain branches; 8 pieces need far less).
MAX_MOVES = 128
#: The index of the loaded slices, which :func:`lookup` reads (``SliceArena.index`` of
#: :mod:`.egdb`): ``(table, base, half, off_base, off_len, offsets)``, a slice's id by its
#: key, where its codes start, its half (one side to move), where its men offsets start and
#: how many, and all the offsets.
LoadedIndex = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NEIGHBOUR[d, sq] and JUMP[d, sq] (the square beyond) or -1; BINOM[n, k]."""
    deltas = ((1, -1), (1, 1), (-1, -1), (-1, 1))
    neighbour = np.full((4, 32), -1, dtype=np.int64)
    jump = np.full((4, 32), -1, dtype=np.int64)

    def square(row: int, col: int) -> int:
        if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
            return -1
        return 4 * row + col // 2

    for sq in range(32):
        row = sq // 4
        col = 2 * (sq % 4) + (1 if row % 2 == 0 else 0)
        for d, (dr, dc) in enumerate(deltas):
            neighbour[d, sq] = square(row + dr, col + dc)
            jump[d, sq] = square(row + 2 * dr, col + 2 * dc)
            if neighbour[d, sq] < 0:
                jump[d, sq] = -1
    binom = np.zeros((40, 40), dtype=np.int64)
    for n in range(40):
        binom[n, 0] = 1
        for k in range(1, n + 1):
            binom[n, k] = binom[n - 1, k - 1] + binom[n - 1, k]
    return neighbour, jump, binom


NEIGHBOUR, JUMP, BINOM = _tables()


@jit
def popcount(x: int) -> int:
    """Set bits of a 32-bit board (SWAR: no loop)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return int(((x * 0x01010101) & 0xFFFFFFFF) >> 24)


@jit
def lowest_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


@jit
def reverse32(x: int) -> int:
    """Square ``i`` to square ``33 - i``: the board turned half a turn (bit swaps)."""
    x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1)
    x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2)
    x = ((x >> 4) & 0x0F0F0F0F) | ((x & 0x0F0F0F0F) << 4)
    x = ((x >> 8) & 0x00FF00FF) | ((x & 0x00FF00FF) << 8)
    return ((x >> 16) & 0xFFFF) | ((x & 0xFFFF) << 16)


@jit
def mirror(bm: int, bk: int, wm: int, wk: int) -> tuple[int, int, int, int]:
    """The same position with the colours swapped and the board turned: White's move on the
    original board is Black's on the mirror."""
    return reverse32(wm), reverse32(wk), reverse32(bm), reverse32(bk)


@jit
def lead_black(bm: int) -> int:
    """The row of Black's most advanced man (from Black's side), -1 without men."""
    if bm == 0:
        return -1
    top = 31
    while not (bm >> top) & 1:
        top -= 1
    return top // 4


@jit
def lead_white(wm: int) -> int:
    if wm == 0:
        return -1
    return (31 - lowest_bit(wm)) // 4


# ----- move generation (Black to move) ---------------------------------------------------


@jit
def _black_moved(bm: int, bk: int, from_bit: int, to_bit: int, king: int) -> tuple[int, int]:
    """Black's men and kings after its piece on ``from_bit`` (a king when ``king``) ends its
    move on ``to_bit``: a man that reaches White's back row is crowned."""
    if king:
        return bm, (bk & ~from_bit) | to_bit
    if to_bit & BLACK_CROWN:
        return bm & ~from_bit, bk | to_bit
    return (bm & ~from_bit) | to_bit, bk


@jit
def black_successors(bm: int, bk: int, wm: int, wk: int, out: np.ndarray) -> tuple[int, bool]:
    """Black's legal moves as successor positions ``out[i] = (bm, bk, wm, wk)`` (White to
    move next). Returns (count, whether they are captures). Captures are compulsory; a chain
    goes on while the same piece can jump; a man crowned ends its move; a jumped piece stays
    on the board (unjumpable) until the chain ends."""
    n = 0
    occupied = bm | bk | wm | wk
    opponents = wm | wk
    # Captures: a depth-first search per piece over (square, captured set).
    stack_sq = np.empty(64, dtype=np.int64)
    stack_cap = np.empty(64, dtype=np.int64)
    for king in range(2):
        pieces = bk if king else bm
        while pieces:
            origin = lowest_bit(pieces)
            pieces &= pieces - 1
            top = 0
            stack_sq[0] = origin
            stack_cap[0] = 0
            top = 1
            while top:
                top -= 1
                sq = stack_sq[top]
                cap = stack_cap[top]
                extended = False
                crowned = (not king) and ((1 << sq) & BLACK_CROWN) != 0 and cap != 0
                if not crowned:
                    for d in range(4 if king else 2):  # a man: forwards only
                        over = NEIGHBOUR[d, sq]
                        land = JUMP[d, sq]
                        if land < 0:
                            continue
                        ob = 1 << over
                        lb = 1 << land
                        if (opponents & ob) and not (cap & ob) and (
                                not (occupied & lb) or land == origin):
                            stack_sq[top] = land
                            stack_cap[top] = cap | ob
                            top += 1
                            extended = True
                if not extended and cap:
                    nbm, nbk = _black_moved(bm, bk, 1 << origin, 1 << sq, king)
                    out[n, 0] = nbm
                    out[n, 1] = nbk
                    out[n, 2] = wm & ~cap
                    out[n, 3] = wk & ~cap
                    n += 1
    if n:
        return n, True
    # Quiet moves: the walk over Black's men, then kings, and their directions that the
    # captures above and black_can_capture make too, each with its own body.
    for king in range(2):
        pieces = bk if king else bm
        while pieces:
            sq = lowest_bit(pieces)
            pieces &= pieces - 1
            for d in range(4 if king else 2):  # a man: forwards only
                to = NEIGHBOUR[d, sq]
                if to < 0 or (occupied >> to) & 1:
                    continue
                nbm, nbk = _black_moved(bm, bk, 1 << sq, 1 << to, king)
                out[n, 0] = nbm
                out[n, 1] = nbk
                out[n, 2] = wm
                out[n, 3] = wk
                n += 1
    return n, False


@jit
def black_can_capture(bm: int, bk: int, wm: int, wk: int) -> bool:
    occupied = bm | bk | wm | wk
    opponents = wm | wk
    # (black_successors' walk over the pieces and their directions; a jump is enough here)
    for king in range(2):
        pieces = bk if king else bm
        while pieces:
            sq = lowest_bit(pieces)
            pieces &= pieces - 1
            for d in range(4 if king else 2):  # a man: forwards only
                land = JUMP[d, sq]
                if land >= 0 and (opponents >> NEIGHBOUR[d, sq]) & 1 and not (
                        occupied >> land) & 1:
                    return True
    return False


@jit
def successors(bm: int, bk: int, wm: int, wk: int, stm: int,
               out: np.ndarray) -> tuple[int, bool]:
    """The successors of a position with ``stm`` to move (absolute colours), like
    :func:`black_successors`."""
    if stm == 0:
        return black_successors(bm, bk, wm, wk, out)
    a, b, c, d = mirror(bm, bk, wm, wk)
    n, capture = black_successors(a, b, c, d, out)
    for i in range(n):
        a, b, c, d = mirror(out[i, 0], out[i, 1], out[i, 2], out[i, 3])
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
        out[i, 3] = d
    return n, capture


# ----- the index of a slice ---------------------------------------------------------------


@jit
def colex_rank(squares: int) -> int:
    """The colex rank of a set of (compressed) squares: sum of C(s_i, i + 1)."""
    r = 0
    i = 0
    while squares:
        s = lowest_bit(squares)
        squares &= squares - 1
        i += 1
        r += BINOM[s, i]
    return int(r)


@jit
def colex_unrank(rank: int, k: int) -> int:
    out = 0
    for i in range(k, 0, -1):
        s = i - 1
        while BINOM[s + 1, i] <= rank:
            s += 1
        rank -= BINOM[s, i]
        out |= 1 << s
    return out


@jit
def compress(squares: int, free: int) -> int:
    """``squares`` (a subset of ``free``) as positions among the set bits of ``free``."""
    out = 0
    while squares:
        s = lowest_bit(squares)
        squares &= squares - 1
        out |= 1 << popcount(free & ((1 << s) - 1))
    return out


@jit
def expand(compressed: int, free: int) -> int:
    """The inverse of :func:`compress`."""
    out = 0
    i = 0
    while free:
        s = lowest_bit(free)
        free &= free - 1
        if (compressed >> i) & 1:
            out |= 1 << s
        i += 1
    return out


@jit
def black_men_count(nbm: int, lead: int) -> int:
    if nbm == 0:
        return 1
    return int(BINOM[4 * lead + 4, nbm] - BINOM[4 * lead, nbm])


@jit
def white_men_free(bm: int, lead_w: int) -> tuple[int, int]:
    """White's region (White's own frame: bit ``31 - i``) left free by Black's men: the
    squares of White's rows ``0 .. lead_w`` and of rows ``0 .. lead_w - 1``."""
    blocked = reverse32(bm)
    hi = ((1 << (4 * lead_w + 4)) - 1) & ~blocked
    lo = ((1 << (4 * lead_w)) - 1) & ~blocked
    return hi, lo


@jit
def men_offsets(nbm: int, nwm: int, lead_b: int, lead_w: int) -> np.ndarray:
    """offset[j]: the number of men placements whose Black rank is below ``j``."""
    nb = black_men_count(nbm, lead_b)
    out = np.zeros(nb + 1, dtype=np.int64)
    base = BINOM[4 * lead_b, nbm] if nbm else 0
    for j in range(nb):
        bm = colex_unrank(base + j, nbm) if nbm else 0
        if nwm == 0:
            count = 1
        else:
            hi, lo = white_men_free(bm, lead_w)
            count = BINOM[popcount(hi), nwm] - BINOM[popcount(lo), nwm]
        out[j + 1] = out[j] + count
    return out


@jit
def slice_size(nbm: int, nbk: int, nwm: int, nwk: int, offsets: np.ndarray) -> int:
    """Positions of one side to move (half the slice)."""
    free = 32 - nbm - nwm
    return int(offsets[len(offsets) - 1] * BINOM[free, nbk] * BINOM[free - nbk, nwk])


@jit
def rank(bm: int, bk: int, wm: int, wk: int, nbk: int, nwk: int, lead_b: int, lead_w: int,
         offsets: np.ndarray) -> int:
    """The index of a position in its slice (one side to move)."""
    nbm = popcount(bm)
    nwm = popcount(wm)
    rb = colex_rank(bm) - BINOM[4 * lead_b, nbm] if nbm else 0
    if nwm:
        hi, lo = white_men_free(bm, lead_w)
        rw = colex_rank(compress(reverse32(wm), hi)) - BINOM[popcount(lo), nwm]
    else:
        rw = 0
    men = offsets[rb] + rw
    free = FULL & ~(bm | wm)
    nfree = 32 - nbm - nwm
    kb = colex_rank(compress(bk, free))
    free2 = free & ~bk
    kw = colex_rank(compress(wk, free2))
    return int((men * BINOM[nfree, nbk] + kb) * BINOM[nfree - nbk, nwk] + kw)


@jit
def unrank(index: int, nbm: int, nbk: int, nwm: int, nwk: int, lead_b: int, lead_w: int,
           offsets: np.ndarray) -> tuple[int, int, int, int]:
    nfree = 32 - nbm - nwm
    ckw = BINOM[nfree - nbk, nwk]
    ckb = BINOM[nfree, nbk]
    kw = index % ckw
    index //= ckw
    kb = index % ckb
    men = index // ckb
    # the Black rank: the last j with offsets[j] <= men (binary search)
    lo, hi = 0, len(offsets) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if offsets[mid] <= men:
            lo = mid
        else:
            hi = mid
    rb = lo
    rw = men - offsets[rb]
    bm = colex_unrank(rb + BINOM[4 * lead_b, nbm], nbm) if nbm else 0
    wm = 0
    if nwm:
        free_hi, free_lo = white_men_free(bm, lead_w)
        wm = reverse32(expand(colex_unrank(rw + BINOM[popcount(free_lo), nwm], nwm), free_hi))
    free = FULL & ~(bm | wm)
    bk = expand(colex_unrank(kb, nbk), free)
    wk = expand(colex_unrank(kw, nwk), free & ~bk)
    return bm, bk, wm, wk


# ----- slices: keys, canonical form, lookups ------------------------------------------------


@jit
def position_key(bm: int, bk: int, wm: int, wk: int) -> tuple[int, int, int, int, int, int]:
    return (popcount(bm), popcount(bk), popcount(wm), popcount(wk), lead_black(bm),
            lead_white(wm))


@jit
def is_canonical(nbm: int, nbk: int, nwm: int, nwk: int, lb: int, lw: int) -> bool:
    """A slice and its mirror (colours swapped) hold the same positions; the database stores
    the one whose (Black's) key is the larger."""
    return (nbm, nbk, lb) >= (nwm, nwk, lw)


@jit
def lookup(bm: int, bk: int, wm: int, wk: int, stm: int, loaded: LoadedIndex) -> int:
    """The position's place in the concatenated codes of the loaded slices, -1 when its
    slice is not loaded (``loaded``: their index, :data:`LoadedIndex`)."""
    table, base, half, off_base, off_len, offsets = loaded
    nbm, nbk, nwm, nwk, lb, lw = position_key(bm, bk, wm, wk)
    if not is_canonical(nbm, nbk, nwm, nwk, lb, lw):
        bm, bk, wm, wk = mirror(bm, bk, wm, wk)
        stm = 1 - stm
        nbm, nbk, nwm, nwk, lb, lw = nwm, nwk, nbm, nbk, lw, lb
    sid = table[nbm, nbk, nwm, nwk, lb + 1, lw + 1]
    if sid < 0:
        return -1
    offs = offsets[off_base[sid]:off_base[sid] + off_len[sid]]
    return int(base[sid] + stm * half[sid] + rank(bm, bk, wm, wk, nbk, nwk, lb, lw, offs))


# ----- the retrograde solver of one slice ---------------------------------------------------


@jit
def predecessors(bm: int, bk: int, wm: int, wk: int, stm: int,
                 out: np.ndarray) -> int:
    """The positions one quiet move (no capture, no crowning) before this one: the side not
    to move here steps a piece back (a man backwards, a king any way). Whether the move was
    legal there (no capture on) is the caller's check."""
    if stm == 1:  # Black moved last: Black's frame
        a, b, c, d = bm, bk, wm, wk
    else:
        a, b, c, d = mirror(bm, bk, wm, wk)
    occupied = a | b | c | d
    n = 0
    for king in range(2):
        pieces = b if king else a
        while pieces:
            sq = lowest_bit(pieces)
            pieces &= pieces - 1
            for dirn in range(4):
                if not king and dirn < 2:
                    continue  # a man came from behind: directions 2, 3 seen from it
                src = NEIGHBOUR[dirn, sq]
                if src < 0 or (occupied >> src) & 1:
                    continue
                if king:
                    na, nb = a, (b & ~(1 << sq)) | (1 << src)
                else:
                    na, nb = (a & ~(1 << sq)) | (1 << src), b
                if stm == 1:
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = na, nb, c, d
                else:
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = mirror(na, nb, c, d)
                n += 1
    return n


@jit
def solve_slice(nbm: int, nbk: int, nwm: int, nwk: int, lb: int, lw: int,
                offsets: np.ndarray, loaded: LoadedIndex, ext_codes: np.ndarray) -> np.ndarray:
    """Retrograde analysis of one slice, both sides to move, by counting (Thompson's
    method, as Lake, Schaeffer and Lu built Chinook's databases), level by level so that
    distances are exact: ``code[i]`` is 0 for a draw, else ``plies + 1`` (odd plies: the
    side to move wins; even: it loses). Captures, crownings and advances of the leading man
    lead into other slices, read from ``ext_codes`` (the loaded, finished ones); quiet moves
    inside the slice are propagated backwards by :func:`predecessors`. Measured (README,
    benchmarks/checkers_egdb.py): about a million positions a CPU second, 4 and 5 pieces."""
    n = slice_size(nbm, nbk, nwm, nwk, offsets)
    total = 2 * n
    code = np.zeros(total, dtype=np.uint16)
    count = np.zeros(total, dtype=np.uint8)
    capture = np.zeros(total, dtype=np.bool_)
    has_draw = np.zeros(total, dtype=np.bool_)
    win_at = np.full(total, NONE16, dtype=np.uint16)
    loss_at = np.zeros(total, dtype=np.uint16)
    moves = np.empty((MAX_MOVES, 4), dtype=np.int64)
    max_level = 0
    for i in range(total):
        stm = 1 if i >= n else 0
        bm, bk, wm, wk = unrank(i - stm * n, nbm, nbk, nwm, nwk, lb, lw, offsets)
        k, is_capture = successors(bm, bk, wm, wk, stm, moves)
        capture[i] = is_capture
        for m in range(k):
            a, b, c, d = moves[m, 0], moves[m, 1], moves[m, 2], moves[m, 3]
            if not is_capture and position_key(a, b, c, d) == (nbm, nbk, nwm, nwk, lb, lw):
                count[i] += 1
                continue
            j = lookup(a, b, c, d, 1 - stm, loaded)
            if j < 0:
                return np.zeros(0, dtype=np.uint16)  # a slice it needs is missing
            v = ext_codes[j]
            if v == 0:
                has_draw[i] = True
            elif (v - 1) % 2 == 0:  # the successor's side to move loses in v - 1 plies
                win_at[i] = min(win_at[i], v)
            else:
                loss_at[i] = max(loss_at[i], v)
        if count[i] == 0:
            max_level = max(max_level, loss_at[i])
        if win_at[i] != NONE16:
            max_level = max(max_level, win_at[i])
    level = 0
    while level <= max_level:
        for i in range(total):  # positions decided at this level
            if code[i] != 0:
                continue
            if win_at[i] == level or (win_at[i] == NONE16 and count[i] == 0 and not has_draw[i]
                  and loss_at[i] == level):
                code[i] = level + 1
        for i in range(total):  # their predecessors in the slice
            if code[i] != level + 1:
                continue
            stm = 1 if i >= n else 0
            bm, bk, wm, wk = unrank(i - stm * n, nbm, nbk, nwm, nwk, lb, lw, offsets)
            k = predecessors(bm, bk, wm, wk, stm, moves)
            for m in range(k):
                a, b, c, d = moves[m, 0], moves[m, 1], moves[m, 2], moves[m, 3]
                if position_key(a, b, c, d) != (nbm, nbk, nwm, nwk, lb, lw):
                    continue
                j = (1 - stm) * n + rank(a, b, c, d, nbk, nwk, lb, lw, offsets)
                if code[j] != 0 or capture[j]:
                    continue
                if level % 2 == 0:
                    if level + 1 < win_at[j]:
                        win_at[j] = level + 1
                    max_level = max(max_level, level + 1)
                else:
                    count[j] -= 1
                    loss_at[j] = max(loss_at[j], level + 1)
                    if count[j] == 0:
                        max_level = max(max_level, loss_at[j])
        level += 1
    return code


@jit
def verify_codes(nbm: int, nbk: int, nwm: int, nwk: int, lb: int, lw: int,
                 offsets: np.ndarray, loaded: LoadedIndex, codes: np.ndarray, start: int
                 ) -> int:
    """Chinook's consistency check of a slice whose codes start at ``codes[start]``: a win
    in ``w`` plies has a successor lost in ``w - 1`` and none lost sooner; a loss in ``l``
    has only won successors, the slowest won in ``l - 1`` (no move: ``l = 0``); a draw has
    no lost successor and a drawn one. Returns the number of positions that fail."""
    n = slice_size(nbm, nbk, nwm, nwk, offsets)
    moves = np.empty((MAX_MOVES, 4), dtype=np.int64)
    bad = 0
    for i in range(2 * n):
        stm = 1 if i >= n else 0
        bm, bk, wm, wk = unrank(i - stm * n, nbm, nbk, nwm, nwk, lb, lw, offsets)
        k, _ = successors(bm, bk, wm, wk, stm, moves)
        fastest_loss = NONE16  # the successors' codes: the least lost, the most won
        slowest_win = 0
        draws = 0
        missing = False
        for m in range(k):
            j = lookup(moves[m, 0], moves[m, 1], moves[m, 2], moves[m, 3], 1 - stm, loaded)
            if j < 0:
                missing = True
                break
            v = codes[j]
            if v == 0:
                draws += 1
            elif (v - 1) % 2 == 0:
                fastest_loss = min(fastest_loss, v)
            else:
                slowest_win = max(slowest_win, v)
        c = codes[start + i]
        if missing:
            ok = False
        elif c == 0:
            ok = fastest_loss == NONE16 and draws > 0
        elif (c - 1) % 2 == 1:
            ok = fastest_loss == c - 1
        else:
            ok = fastest_loss == NONE16 and draws == 0 and slowest_win == c - 1
        if not ok:
            bad += 1
    return bad
