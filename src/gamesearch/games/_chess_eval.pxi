# The evaluation (included by _chess_kernels.pyx): the twin of chess.evaluate_board.

cdef object _pawn_king_terms = None
cdef int BISHOP_PAIR_MG = 0, BISHOP_PAIR_EG = 0


def init_eval(pawn_king_terms, bishop_pair):
    """Take ``chess._pawn_king_terms`` (cached pawn structure and king shield) and the
    bishop-pair bonus ``(mg, eg)``."""
    global _pawn_king_terms, BISHOP_PAIR_MG, BISHOP_PAIR_EG
    _pawn_king_terms = pawn_king_terms
    BISHOP_PAIR_MG, BISHOP_PAIR_EG = bishop_pair


def evaluate_board(s):
    """``chess.evaluate_board``: the evaluation from White's view, in centipawns (before the
    tempo bonus)."""
    b = s.board
    pk = s._pk
    if pk is None:
        pk = _pawn_king_terms(s)
    cdef long pmg = pk[0], peg = pk[1]
    cdef long smg = s.mg, seg = s.eg
    cdef int phase = s.phase
    cdef Pos p
    _read(b, &p)
    cdef u64 white = _white(&p)
    cdef u64 black = p.occ & ~white
    cdef u64 occ = p.occ
    cdef u64 wp = p.pawns & white, bp = p.pawns & black
    # mobility: attacked squares holding no own piece and not attacked by an enemy pawn,
    # from a neutral count per piece type (chess.MOBILITY), White minus Black
    cdef u64 w_free = ~(white | ((bp & ~FILE_A) >> 9) | ((bp & ~FILE_H) >> 7))
    cdef u64 b_free = ~(black | ((wp & ~FILE_A) << 7) | ((wp & ~FILE_H) << 9))
    cdef u64 w, k
    cdef int sq
    cdef long nk, nb, nr, nq, mg, eg, v
    w = p.knights & white
    k = p.knights & black
    nk = 4 * (gs_popcount(k) - gs_popcount(w))
    while w:
        sq = gs_msb(w)
        w ^= bit(sq)
        nk += gs_popcount(KNIGHT_ATT[sq] & w_free)
    while k:
        sq = gs_msb(k)
        k ^= bit(sq)
        nk -= gs_popcount(KNIGHT_ATT[sq] & b_free)
    mg = smg + pmg + 4 * nk
    eg = seg + peg + 4 * nk
    w = p.bishops & white
    k = p.bishops & black
    if w & (w - 1):
        mg += BISHOP_PAIR_MG
        eg += BISHOP_PAIR_EG
    if k & (k - 1):
        mg -= BISHOP_PAIR_MG
        eg -= BISHOP_PAIR_EG
    nb = 6 * (gs_popcount(k) - gs_popcount(w))
    while w:
        sq = gs_msb(w)
        w ^= bit(sq)
        nb += gs_popcount(bishop_attacks(sq, occ) & w_free)
    while k:
        sq = gs_msb(k)
        k ^= bit(sq)
        nb -= gs_popcount(bishop_attacks(sq, occ) & b_free)
    w = p.rooks & white
    k = p.rooks & black
    nr = 7 * (gs_popcount(k) - gs_popcount(w))
    while w:
        sq = gs_msb(w)
        w ^= bit(sq)
        nr += gs_popcount(rook_attacks(sq, occ) & w_free)
    while k:
        sq = gs_msb(k)
        k ^= bit(sq)
        nr -= gs_popcount(rook_attacks(sq, occ) & b_free)
    w = p.queens & white
    k = p.queens & black
    nq = 13 * (gs_popcount(k) - gs_popcount(w))
    while w:
        sq = gs_msb(w)
        w ^= bit(sq)
        nq += gs_popcount((bishop_attacks(sq, occ) | rook_attacks(sq, occ)) & w_free)
    while k:
        sq = gs_msb(k)
        k ^= bit(sq)
        nq -= gs_popcount((bishop_attacks(sq, occ) | rook_attacks(sq, occ)) & b_free)
    mg += 5 * nb + 2 * nr + nq
    eg += 5 * nb + 4 * nr + 2 * nq
    if phase > 24:
        phase = 24
    v = mg * phase + eg * (24 - phase)
    return v // 24 if v >= 0 else -((-v) // 24)  # rounded towards zero: colour-symmetric
