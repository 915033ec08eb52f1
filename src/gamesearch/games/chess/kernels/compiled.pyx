# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Compiled twins of the hot functions of :mod:`gamesearch.games.chess` (Cython).

Each function here gives exactly what the pure-Python function of the same name in the
package gives (``board.py``, ``movegen.py``, ``see.py``; the included ``.pxi`` files:
``evaluation.py``, ``board.result``, ``status.py``): the same moves in the same order, the
same values. Those stay the reference, and the tests compare the two on thousands of
positions. The state is still a
python-chess :class:`chess.Board`; these functions read its bitboards into C integers once
and do the bit work in C (the Python versions spend most of their time on big-int
operations and table look-ups). Slider attacks use direction rays and a bit scan (the
"classical approach" of the Chess Programming Wiki) instead of python-chess's occupancy
dictionaries.

``backend.py`` calls :func:`init` (and ``init_eval``, ``init_result``, ``init_status``)
once with the package's interned moves and tables, and offers these functions as its
``COMPILED`` kernels.
"""

cdef extern from *:
    """
    static inline int gs_msb(unsigned long long x) { return 63 - __builtin_clzll(x); }
    static inline int gs_lsb(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int gs_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    """
    int gs_msb(unsigned long long x) nogil
    int gs_lsb(unsigned long long x) nogil
    int gs_popcount(unsigned long long x) nogil

ctypedef unsigned long long u64

import chess as _chess

cdef enum:
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    MAX_MOVES = 256

cdef u64 ALL = 0xFFFFFFFFFFFFFFFF
cdef u64 FILE_A = 0x0101010101010101
cdef u64 FILE_H = FILE_A << 7
cdef u64 RANK_1 = 0xFF
cdef u64 RANK_3 = RANK_1 << 16
cdef u64 RANK_6 = RANK_1 << 40
cdef u64 RANK_8 = RANK_1 << 56

cdef u64 KNIGHT_ATT[64]
cdef u64 KING_ATT[64]
cdef u64 PAWN_ATT[2][64]  # [colour][square], colour 1 = White (python-chess's BB_PAWN_ATTACKS)
cdef u64 LINE[64][64]     # python-chess's BB_RAYS: the whole line through two squares, or 0
cdef u64 DIR_RAY[8][64]   # the squares from a square in one direction (the square excluded)
cdef int DIR_DF[8]
cdef int DIR_DR[8]
# directions 0-3 go towards higher squares (N, E, NE, NW), 4-7 towards lower (S, W, SW, SE)
DIR_DF[:] = [0, 1, 1, -1, 0, -1, -1, 1]
DIR_DR[:] = [1, 0, 1, 1, -1, 0, -1, -1]


cdef void _init_tables():
    cdef int sq, d, f, r
    cdef u64 ray
    for sq in range(64):
        KNIGHT_ATT[sq] = _chess.BB_KNIGHT_ATTACKS[sq]
        KING_ATT[sq] = _chess.BB_KING_ATTACKS[sq]
        PAWN_ATT[0][sq] = _chess.BB_PAWN_ATTACKS[0][sq]
        PAWN_ATT[1][sq] = _chess.BB_PAWN_ATTACKS[1][sq]
        for d in range(64):
            LINE[sq][d] = _chess.BB_RAYS[sq][d]
        for d in range(8):
            ray = 0
            f = (sq & 7) + DIR_DF[d]
            r = (sq >> 3) + DIR_DR[d]
            while 0 <= f < 8 and 0 <= r < 8:
                ray |= (<u64>1) << (r * 8 + f)
                f += DIR_DF[d]
                r += DIR_DR[d]
            DIR_RAY[d][sq] = ray


_init_tables()


cdef inline u64 _ray_up(int d, int sq, u64 occ) noexcept nogil:
    cdef u64 ray = DIR_RAY[d][sq]
    cdef u64 blockers = ray & occ
    if blockers:
        return ray ^ DIR_RAY[d][gs_lsb(blockers)]
    return ray


cdef inline u64 _ray_down(int d, int sq, u64 occ) noexcept nogil:
    cdef u64 ray = DIR_RAY[d][sq]
    cdef u64 blockers = ray & occ
    if blockers:
        return ray ^ DIR_RAY[d][gs_msb(blockers)]
    return ray


cdef inline u64 bishop_attacks(int sq, u64 occ) noexcept nogil:
    return _ray_up(2, sq, occ) | _ray_up(3, sq, occ) | _ray_down(6, sq, occ) | _ray_down(7, sq, occ)


cdef inline u64 rook_attacks(int sq, u64 occ) noexcept nogil:
    return _ray_up(0, sq, occ) | _ray_up(1, sq, occ) | _ray_down(4, sq, occ) | _ray_down(5, sq, occ)


cdef inline u64 bit(int sq) noexcept nogil:
    return (<u64>1) << sq


cdef inline u64 between(int a, int b) noexcept nogil:
    """The squares strictly between ``a`` and ``b`` on their line (0 if not aligned)."""
    cdef u64 lo, hi
    cdef u64 line = LINE[a][b]
    if a < b:
        lo = bit(a)
        hi = bit(b)
    else:
        lo = bit(b)
        hi = bit(a)
    # squares above lo and below hi: (hi - 1) & ~(lo | (lo - 1))
    return line & (hi - 1) & ~((lo << 1) - 1)


# ----- the board, read once ------------------------------------------------------------
cdef struct Pos:
    u64 pawns, knights, bishops, rooks, queens, kings
    u64 us, them, occ
    int turn        # 1: White to move
    int ep          # en-passant square, or -1
    u64 castling


cdef inline void _read(object b, Pos* p) except *:
    p.pawns = b.pawns
    p.knights = b.knights
    p.bishops = b.bishops
    p.rooks = b.rooks
    p.queens = b.queens
    p.kings = b.kings
    p.turn = 1 if b.turn else 0
    occ_co = b.occupied_co
    if p.turn:
        p.us = occ_co[1]
        p.them = occ_co[0]
    else:
        p.us = occ_co[0]
        p.them = occ_co[1]
    p.occ = p.us | p.them
    ep = b.ep_square
    p.ep = -1 if ep is None else ep
    p.castling = b.castling_rights


cdef inline u64 _attackers(Pos* p, int sq, u64 occ, u64 by, int turn) noexcept nogil:
    """Pieces in ``by`` attacking ``sq`` with ``occ`` as the occupancy (``turn``: the colour
    of the attacked side, for the pawn table)."""
    return (
        (KNIGHT_ATT[sq] & p.knights & by)
        | (KING_ATT[sq] & p.kings & by)
        | (PAWN_ATT[turn][sq] & p.pawns & by)
        | (bishop_attacks(sq, occ) & (p.queens | p.bishops) & by)
        | (rook_attacks(sq, occ) & (p.queens | p.rooks) & by)
    )


cdef inline void _checkers_pinned(Pos* p, int* ksq, u64* checkers, u64* pinned) noexcept nogil:
    cdef int k = gs_msb(p.kings & p.us)
    cdef u64 qb = (p.queens | p.bishops) & p.them
    cdef u64 qr = (p.queens | p.rooks) & p.them
    cdef u64 snipers, blockers, pins = 0
    cdef int s
    ksq[0] = k
    checkers[0] = (
        (KNIGHT_ATT[k] & p.knights & p.them)
        | (PAWN_ATT[p.turn][k] & p.pawns & p.them)
        | (bishop_attacks(k, p.occ) & qb)
        | (rook_attacks(k, p.occ) & qr)
    )
    snipers = (bishop_attacks(k, 0) & qb) | (rook_attacks(k, 0) & qr)
    while snipers:
        s = gs_msb(snipers)
        snipers ^= bit(s)
        blockers = between(k, s) & p.occ
        if blockers and (blockers & (blockers - 1)) == 0:
            pins |= blockers
    pinned[0] = pins & p.us


cdef list MOVE_AT = []      # MOVE_AT[from * 64 + to]: the interned Move
cdef list PROMO_AT = []     # PROMO_AT[(from * 64 + to) * 8 + piece]: interned promotions


def init(moves, promotions):
    """Take ``board.py``'s interned moves: ``moves[from][to]`` and the promotion dict."""
    global MOVE_AT, PROMO_AT
    MOVE_AT = [moves[f][t] for f in range(64) for t in range(64)]
    table = [None] * (64 * 64 * 8)
    for (f, t, piece), m in promotions.items():
        table[(f * 64 + t) * 8 + piece] = m
    PROMO_AT = table


def king_attacked(b, int sq, u64 occ, u64 them, turn):
    """``board.king_attacked``."""
    cdef Pos p
    _read(b, &p)
    return _attackers(&p, sq, occ, them, 1 if turn else 0)


def checkers_and_pinned(b):
    """``board.checkers_and_pinned``: ``(king square, checkers, pinned pieces)``."""
    cdef Pos p
    cdef int ksq
    cdef u64 checkers, pinned
    _read(b, &p)
    _checkers_pinned(&p, &ksq, &checkers, &pinned)
    return ksq, checkers, pinned


# ----- move generation ------------------------------------------------------------------
cdef struct MoveList:
    int n
    int value[MAX_MOVES]
    int code[MAX_MOVES]   # from * 64 + to, plus 4096 * promotion piece


cdef inline void _push(MoveList* ml, int value, int code) noexcept nogil:
    ml.value[ml.n] = value
    ml.code[ml.n] = code
    ml.n += 1


cdef inline void _promotions(MoveList* qn, int vq, int vn, MoveList* promos, bint noisy,
                             int code) noexcept nogil:
    """The promotions of one pawn move (``code``: from * 64 + to): queen and knight into
    ``qn`` with the values ``vq`` and ``vn``, rook and bishop (not when ``noisy``) into
    ``promos`` at -10, after the quiet moves."""
    _push(qn, vq, code + 4096 * QUEEN)
    _push(qn, vn, code + 4096 * KNIGHT)
    if not noisy:
        _push(promos, -10, code + 4096 * ROOK)
        _push(promos, -10, code + 4096 * BISHOP)


cdef inline int _victim(Pos* p, u64 tbb, int pawn, int minor, int rook, int queen) noexcept nogil:
    if p.pawns & tbb:
        return pawn
    if (p.knights | p.bishops) & tbb:
        return minor
    if p.rooks & tbb:
        return rook
    return queen


cdef void _sort_desc(MoveList* ml) noexcept nogil:
    """Stable insertion sort by value, highest first (as Python's ``sort(reverse=True)``)."""
    cdef int i, j, v, c
    for i in range(1, ml.n):
        v = ml.value[i]
        c = ml.code[i]
        j = i - 1
        while j >= 0 and ml.value[j] < v:
            ml.value[j + 1] = ml.value[j]
            ml.code[j + 1] = ml.code[j]
            j -= 1
        ml.value[j + 1] = v
        ml.code[j + 1] = c


cdef inline object _move(int code):
    if code >= 4096:
        return PROMO_AT[(code & 4095) * 8 + (code >> 12)]
    return MOVE_AT[code]


cdef inline void _piece_moves(
    MoveList* caps, MoveList* quiet, Pos* p, int sq, u64 att, u64 cap_targets,
    u64 quiet_targets, int vp, int vm, int vr, int vq,
) noexcept nogil:
    cdef u64 t = att & cap_targets
    cdef int to
    cdef u64 tbb
    while t:
        to = gs_msb(t)
        tbb = bit(to)
        t ^= tbb
        _push(caps, _victim(p, tbb, vp, vm, vr, vq), sq * 64 + to)
    t = att & quiet_targets
    while t:
        to = gs_msb(t)
        t ^= bit(to)
        _push(quiet, 0, sq * 64 + to)


cdef inline u64 slider_attacks(int kind, int sq, u64 occ) noexcept nogil:
    """The attacks of a bishop, rook or queen (``kind``) on ``sq``."""
    if kind == BISHOP:
        return bishop_attacks(sq, occ)
    if kind == ROOK:
        return rook_attacks(sq, occ)
    return bishop_attacks(sq, occ) | rook_attacks(sq, occ)


cdef inline u64 _attacks(int kind, int sq, u64 occ) noexcept nogil:
    """The squares a knight, bishop, rook or queen (``kind``) on ``sq`` attacks."""
    if kind == KNIGHT:
        return KNIGHT_ATT[sq]
    return slider_attacks(kind, sq, occ)


cdef inline void _slider_moves(
    MoveList* caps, MoveList* quiet, Pos* p, u64 pieces, int kind, int ksq, u64 pinned,
    u64 cap_targets, u64 quiet_targets, int vp, int vm, int vr, int vq,
) noexcept nogil:
    """The moves of the sliders ``pieces`` of one ``kind`` (a pinned one along its pin)."""
    cdef int sq
    cdef u64 att
    while pieces:
        sq = gs_msb(pieces)
        pieces ^= bit(sq)
        att = slider_attacks(kind, sq, p.occ)
        if pinned & bit(sq):
            att &= LINE[ksq][sq]
        _piece_moves(caps, quiet, p, sq, att, cap_targets, quiet_targets, vp, vm, vr, vq)


cdef inline u64 _safe_king_steps(Pos* p, int ksq, u64 steps) noexcept nogil:
    cdef u64 occ_k = p.occ ^ bit(ksq)
    cdef u64 safe = 0
    cdef u64 t = steps
    cdef int to
    while t:
        to = gs_msb(t)
        t ^= bit(to)
        if not _attackers(p, to, occ_k, p.them, p.turn):
            safe |= bit(to)
    return safe


cdef inline void _en_passant(MoveList* caps, Pos* p, u64 own, int up, int ksq) noexcept nogil:
    cdef int ep = p.ep
    cdef u64 capturers = PAWN_ATT[1 - p.turn][ep] & own
    cdef u64 cbb, occ2, saved
    cdef int frm
    if not capturers:
        return
    cbb = bit(ep - up)
    while capturers:
        frm = gs_msb(capturers)
        capturers ^= bit(frm)
        occ2 = (p.occ ^ bit(frm) ^ cbb) | bit(ep)
        if not _attackers(p, ksq, occ2, p.them & ~cbb, p.turn):
            _push(caps, 9, frm * 64 + ep)


cdef void _generate(Pos* p, bint noisy, int ksq, u64 checkers, u64 pinned,
                    MoveList* caps, MoveList* quiet, MoveList* promos) noexcept nogil:
    """The moves of ``movegen.generate_moves`` in three lists (see there for the order)."""
    cdef u64 us = p.us, them = p.them, occ = p.occ
    cdef u64 targets, cap_targets, quiet_targets, bb, att, sbb, tbb, own, single, double
    cdef u64 left, right, last_rank, t, rights, empty
    cdef int sq, to, frm, up, dl, dr, c, v, group, delta, rook_sq
    caps.n = quiet.n = promos.n = 0
    if checkers:
        noisy = False
        if checkers & (checkers - 1):
            targets = 0
        else:
            c = gs_msb(checkers)
            targets = between(ksq, c) | checkers
    else:
        targets = ~us
    cap_targets = targets & them
    quiet_targets = 0 if noisy else targets & ~occ
    if targets:
        bb = p.knights & us & ~pinned
        while bb:
            sq = gs_msb(bb)
            bb ^= bit(sq)
            _piece_moves(caps, quiet, p, sq, KNIGHT_ATT[sq], cap_targets, quiet_targets,
                         7, 27, 47, 87)
        _slider_moves(caps, quiet, p, p.bishops & us, BISHOP, ksq, pinned, cap_targets,
                      quiet_targets, 7, 27, 47, 87)
        _slider_moves(caps, quiet, p, p.rooks & us, ROOK, ksq, pinned, cap_targets,
                      quiet_targets, 5, 25, 45, 85)
        _slider_moves(caps, quiet, p, p.queens & us, QUEEN, ksq, pinned, cap_targets,
                      quiet_targets, 1, 21, 41, 81)
        own = p.pawns & us
        if own:
            if p.turn:
                up = 8
                last_rank = RANK_8
                single = (own << 8) & ~occ
                double = ((single & RANK_3) << 8) & ~occ
                left = ((own & ~FILE_A) << 7) & them
                right = ((own & ~FILE_H) << 9) & them
                dl = 7
                dr = 9
            else:
                up = -8
                last_rank = RANK_1
                single = (own >> 8) & ~occ
                double = ((single & RANK_6) >> 8) & ~occ
                left = ((own & ~FILE_A) >> 9) & them
                right = ((own & ~FILE_H) >> 7) & them
                dl = -9
                dr = -7
            # captures towards the a-file, towards the h-file, single steps (only
            # promotions when noisy), double steps (as in movegen.generate_moves)
            for group in range(4):
                if group == 0:
                    t = left & targets
                    delta = dl
                elif group == 1:
                    t = right & targets
                    delta = dr
                elif group == 2:
                    t = single & targets
                    if noisy:
                        t &= last_rank
                    delta = up
                else:
                    t = 0 if noisy else double & targets
                    delta = 2 * up
                while t:
                    to = gs_msb(t)
                    tbb = bit(to)
                    t ^= tbb
                    frm = to - delta
                    if pinned & bit(frm) and not LINE[ksq][frm] & tbb:
                        continue
                    if group < 2:
                        v = _victim(p, tbb, 10, 30, 50, 90)
                        if tbb & last_rank:
                            _promotions(caps, v + 80, v - 1, promos, noisy, frm * 64 + to)
                        else:
                            _push(caps, v - 1, frm * 64 + to)
                    elif tbb & last_rank:
                        _promotions(promos, 80, 0, promos, noisy, frm * 64 + to)
                    else:
                        _push(quiet, 0, frm * 64 + to)
            if p.ep >= 0:
                _en_passant(caps, p, own, up, ksq)
    t = KING_ATT[ksq] & ~us
    if noisy:
        t &= them
    if t:
        t = _safe_king_steps(p, ksq, t)
        while t:
            to = gs_msb(t)
            tbb = bit(to)
            t ^= tbb
            if tbb & them:
                _push(caps, _victim(p, tbb, -10, 10, 30, 70), ksq * 64 + to)
            else:
                _push(quiet, 0, ksq * 64 + to)
        if not checkers and not noisy:
            rights = p.castling & (RANK_1 if p.turn else RANK_8)
            if rights:
                # king side, then queen side (the order of movegen.generate_moves)
                rook_sq = ksq + 3
                empty = bit(ksq + 1) | bit(ksq + 2)
                if (rook_sq < 64 and rights & bit(rook_sq) and not occ & empty
                        and not _attackers(p, ksq + 1, occ, them, p.turn)
                        and not _attackers(p, ksq + 2, occ, them, p.turn)):
                    _push(quiet, 0, ksq * 64 + ksq + 2)
                rook_sq = ksq - 4
                if rook_sq >= 0:
                    empty = bit(ksq - 1) | bit(ksq - 2) | bit(ksq - 3)
                    if (rights & bit(rook_sq) and not occ & empty
                            and not _attackers(p, ksq - 1, occ, them, p.turn)
                            and not _attackers(p, ksq - 2, occ, them, p.turn)):
                        _push(quiet, 0, ksq * 64 + ksq - 2)


def generate_moves(b, bint noisy=False, cp=None):
    """``movegen.generate_moves``: ``(legal moves, in check)``."""
    cdef Pos p
    cdef int ksq, i
    cdef u64 checkers, pinned
    cdef MoveList caps, quiet, promos
    _read(b, &p)
    if cp is None:
        _checkers_pinned(&p, &ksq, &checkers, &pinned)
    else:
        ksq, checkers, pinned = cp
    _generate(&p, noisy, ksq, checkers, pinned, &caps, &quiet, &promos)
    cdef list out = []
    if caps.n > 1:
        _sort_desc(&caps)
    for i in range(caps.n):
        out.append(_move(caps.code[i]))
    if promos.n:
        _sort_desc(&promos)
        for i in range(promos.n):
            if promos.value[i] >= 0:
                out.append(_move(promos.code[i]))
    for i in range(quiet.n):
        out.append(_move(quiet.code[i]))
    for i in range(promos.n):
        if promos.value[i] < 0:
            out.append(_move(promos.code[i]))
    return out, checkers != 0


# ----- static exchange evaluation -------------------------------------------------------
cdef int SEE_VALUE[7]
SEE_VALUE[:] = [0, 100, 320, 330, 500, 900, 20000]


cdef inline int _piece_at(Pos* p, u64 bb) noexcept nogil:
    if p.pawns & bb:
        return PAWN
    if p.knights & bb:
        return KNIGHT
    if p.bishops & bb:
        return BISHOP
    if p.rooks & bb:
        return ROOK
    if p.queens & bb:
        return QUEEN
    if p.kings & bb:
        return KING
    return 0


cdef int _see(Pos* p, u64 white, int frm, int to, int promotion) noexcept nogil:
    cdef int gain[40]
    cdef int n = 1, victim, attacker, pt, side
    cdef u64 occ, attackers, found, by_colour, other
    cdef u64 qb = p.queens | p.bishops
    cdef u64 qr = p.queens | p.rooks
    cdef u64 black = p.occ & ~white
    victim = _piece_at(p, bit(to))
    if victim == 0:
        victim = PAWN
    occ = p.occ ^ bit(frm)
    gain[0] = SEE_VALUE[victim]
    attacker = _piece_at(p, bit(frm))
    if promotion:
        gain[0] += SEE_VALUE[promotion] - SEE_VALUE[PAWN]
        attacker = promotion
    side = 1 - p.turn
    while n < 40:
        by_colour = white if side else black
        attackers = (
            (KNIGHT_ATT[to] & p.knights) | (KING_ATT[to] & p.kings)
            | (PAWN_ATT[1 - side][to] & p.pawns)
            | (bishop_attacks(to, occ) & qb) | (rook_attacks(to, occ) & qr)
        ) & occ & by_colour
        if not attackers:
            break
        found = 0
        pt = PAWN
        while pt <= KING:
            if pt == PAWN:
                found = attackers & p.pawns
            elif pt == KNIGHT:
                found = attackers & p.knights
            elif pt == BISHOP:
                found = attackers & p.bishops
            elif pt == ROOK:
                found = attackers & p.rooks
            elif pt == QUEEN:
                found = attackers & p.queens
            else:
                found = attackers & p.kings
            if found:
                break
            pt += 1
        if pt == KING:
            other = black if side else white
            if (
                (KNIGHT_ATT[to] & p.knights) | (KING_ATT[to] & p.kings)
                | (PAWN_ATT[side][to] & p.pawns)
                | (bishop_attacks(to, occ) & qb) | (rook_attacks(to, occ) & qr)
            ) & occ & other:
                break
        gain[n] = SEE_VALUE[attacker] - gain[n - 1]
        n += 1
        attacker = pt
        occ ^= found & (~found + 1)
        side = 1 - side
    while n > 1:
        n -= 1
        if -gain[n] < gain[n - 1]:
            gain[n - 1] = -gain[n]
    return gain[0]


cdef inline u64 _white(Pos* p) noexcept nogil:
    return p.us if p.turn else p.them


def see(b, move):
    """``see.see``: static exchange evaluation of a capture (centipawns)."""
    cdef Pos p
    _read(b, &p)
    promotion = move.promotion
    return _see(&p, _white(&p), move.from_square, move.to_square,
                0 if promotion is None else promotion)


# ----- the quiescence moves ---------------------------------------------------------------
cdef inline bint _see_needed(int v) noexcept nogil:
    # the MVV-LVA values of see.SEE_NEEDED's captures: the capturer is worth more
    # than its victim (not a pawn capture, not a promotion)
    return v == 7 or v == 5 or v == 1 or v == -10 or v == 25 or v == 21 or v == 10 or v == 41


def noisy_moves(b, int ksq, u64 pinned):
    """``movegen.noisy_moves``: captures and queen/knight promotions of a side not in check,
    MVV-LVA first, without the captures that lose material by static exchange."""
    cdef Pos p
    _read(b, &p)
    return _noisy_list(&p, ksq, pinned)


cdef list _noisy_list(Pos* p, int ksq, u64 pinned):
    cdef MoveList caps, quiet, promos
    cdef int i, v, code, to
    cdef u64 their_pawns, white
    _generate(p, True, ksq, 0, pinned, &caps, &quiet, &promos)
    if caps.n > 1:
        _sort_desc(&caps)
    if promos.n > 1:
        _sort_desc(&promos)
    their_pawns = p.pawns & p.them
    white = _white(p)
    cdef list out = []
    for i in range(caps.n):
        v = caps.value[i]
        code = caps.code[i]
        if _see_needed(v):
            to = code & 63
            if PAWN_ATT[p.turn][to] & their_pawns:
                continue
            if _see(p, white, (code & 4095) >> 6, to, code >> 12) < 0:
                continue
        out.append(_move(code))
    for i in range(promos.n):
        out.append(_move(promos.code[i]))
    return out


cdef bint _free_move(Pos* p, u64 pinned) noexcept nogil:
    cdef u64 free, occ = p.occ, us = p.us
    cdef int sq, kind
    # knights; bishops and queens along the diagonals; rooks and queens along the lines
    for kind in range(KNIGHT, ROOK + 1):
        if kind == KNIGHT:
            free = p.knights
        elif kind == BISHOP:
            free = p.bishops | p.queens
        else:
            free = p.rooks | p.queens
        free &= us & ~pinned
        while free:
            sq = gs_msb(free)
            free ^= bit(sq)
            if _attacks(kind, sq, occ) & ~us:
                return True
    free = p.pawns & us & ~pinned
    return free != 0 and (((free << 8) if p.turn else (free >> 8)) & ~occ) != 0


def has_free_move(b, u64 pinned):
    """``movegen.has_free_move``: the quick test of ``has_legal_move`` for a side not in
    check: an unpinned knight, bishop, rook or queen with a square to go to, or an unpinned
    pawn that can step forward (False means: look at all the moves)."""
    cdef Pos p
    _read(b, &p)
    return _free_move(&p, pinned)


include "evaluation.pxi"
include "result.pxi"
include "status.pxi"
