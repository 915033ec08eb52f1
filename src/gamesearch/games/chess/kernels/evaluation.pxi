# The evaluation (included by compiled.pyx): the twins of evaluation.py's evaluate_board,
# pawn_structure, king_shield, pawn_king_terms, evaluate and quick_evaluate.

cdef int BISHOP_PAIR_MG = 0, BISHOP_PAIR_EG = 0
cdef long PASSED_MG_C[8]
cdef long PASSED_EG_C[8]
cdef long DOUBLED_MG_C = 0, DOUBLED_EG_C = 0, ISOLATED_MG_C = 0, ISOLATED_EG_C = 0
cdef long SHIELD_BONUS_C = 0, OPEN_FILE_C = 0, TEMPO_C = 0, EVAL_LIMIT_C = 0
cdef Py_ssize_t EVAL_CACHE_SIZE_C = 0
cdef object LAZY_MARGIN_O = None
cdef u64 FILE_MASK[8]
cdef u64 ADJACENT_MASK[8]


def init_eval(weights):
    """Take the evaluation's weights from ``evaluation.py`` (a dict of its constants)."""
    global BISHOP_PAIR_MG, BISHOP_PAIR_EG, DOUBLED_MG_C, DOUBLED_EG_C, ISOLATED_MG_C
    global ISOLATED_EG_C, SHIELD_BONUS_C, OPEN_FILE_C, TEMPO_C, EVAL_LIMIT_C
    global EVAL_CACHE_SIZE_C, LAZY_MARGIN_O
    cdef int i
    BISHOP_PAIR_MG, BISHOP_PAIR_EG = weights["BISHOP_PAIR"]
    DOUBLED_MG_C, DOUBLED_EG_C = weights["DOUBLED_MG"], weights["DOUBLED_EG"]
    ISOLATED_MG_C, ISOLATED_EG_C = weights["ISOLATED_MG"], weights["ISOLATED_EG"]
    SHIELD_BONUS_C = weights["SHIELD_BONUS"]
    OPEN_FILE_C = weights["OPEN_FILE_NEAR_KING"]
    TEMPO_C = weights["TEMPO"]
    EVAL_LIMIT_C = weights["EVAL_LIMIT"]
    EVAL_CACHE_SIZE_C = weights["EVAL_CACHE_SIZE"]
    LAZY_MARGIN_O = weights["LAZY_MARGIN"]
    for i in range(8):
        PASSED_MG_C[i] = weights["PASSED_MG"][i]
        PASSED_EG_C[i] = weights["PASSED_EG"][i]
        FILE_MASK[i] = FILE_A << i
    for i in range(8):
        ADJACENT_MASK[i] = (FILE_MASK[i - 1] if i > 0 else 0) | (FILE_MASK[i + 1] if i < 7 else 0)
    for i in range(PAWN_TABLE_SIZE):
        PAWN_TABLE[i].wk = -1


cdef inline u64 _north_fill(u64 bb) noexcept nogil:
    bb |= bb << 8
    bb |= bb << 16
    bb |= bb << 32
    return bb


cdef inline u64 _south_fill(u64 bb) noexcept nogil:
    bb |= bb >> 8
    bb |= bb >> 16
    bb |= bb >> 32
    return bb


cdef inline u64 _sides(u64 bb) noexcept nogil:
    return bb | ((bb & ~FILE_A) >> 1) | ((bb & ~FILE_H) << 1)


cdef void _pawn_structure(u64 wp, u64 bp, long* mg_out, long* eg_out) noexcept nogil:
    cdef u64 w_files = _south_fill(_north_fill(wp))
    cdef u64 b_files = _south_fill(_north_fill(bp))
    cdef long w_doubled = gs_popcount(wp & (_north_fill(wp) << 8))
    cdef long b_doubled = gs_popcount(bp & (_north_fill(bp) << 8))
    cdef long w_iso = gs_popcount(wp & ~(((w_files & ~FILE_A) >> 1) | ((w_files & ~FILE_H) << 1)))
    cdef long b_iso = gs_popcount(bp & ~(((b_files & ~FILE_A) >> 1) | ((b_files & ~FILE_H) << 1)))
    cdef long mg = (b_doubled - w_doubled) * DOUBLED_MG_C + (b_iso - w_iso) * ISOLATED_MG_C
    cdef long eg = (b_doubled - w_doubled) * DOUBLED_EG_C + (b_iso - w_iso) * ISOLATED_EG_C
    cdef u64 passed = wp & ~_sides(_south_fill(bp >> 8))
    cdef int sq
    while passed:
        sq = gs_msb(passed)
        passed ^= bit(sq)
        mg += PASSED_MG_C[sq >> 3]
        eg += PASSED_EG_C[sq >> 3]
    passed = bp & ~_sides(_north_fill(wp << 8))
    while passed:
        sq = gs_msb(passed)
        passed ^= bit(sq)
        mg -= PASSED_MG_C[7 - (sq >> 3)]
        eg -= PASSED_EG_C[7 - (sq >> 3)]
    mg_out[0] = mg
    eg_out[0] = eg


cdef long _king_shield(u64 white_pawns, u64 black_pawns, int wk, int bk) noexcept nogil:
    cdef long score = 0, sign
    cdef int side, ksq, f, r, ff, n
    cdef u64 own, files, near
    for side in range(2):
        if side == 0:
            sign, ksq, own = 1, wk, white_pawns
        else:
            sign, ksq, own = -1, bk, black_pawns
        f = ksq & 7
        r = ksq >> 3
        if 2 < f < 5:
            continue  # the king in the centre: the tables already judge it
        files = FILE_MASK[f] | ADJACENT_MASK[f]
        if side == 0:
            near = files & ((RANK_1 << (8 * (r + 1))) | (RANK_1 << (8 * (r + 2)))) if r < 6 else 0
        else:
            near = files & ((RANK_1 << (8 * (r - 1))) | (RANK_1 << (8 * (r - 2)))) if r > 1 else 0
        n = gs_popcount(own & near)
        score += sign * SHIELD_BONUS_C * (n if n < 3 else 3)
        for ff in range(f - 1, f + 2):
            if 0 <= ff < 8 and not own & FILE_MASK[ff]:
                score -= sign * OPEN_FILE_C
    return score


def pawn_structure(u64 white_pawns, u64 black_pawns):
    """``evaluation.pawn_structure``: doubled, isolated and passed pawns, ``(mg, eg)``."""
    cdef long mg, eg
    _pawn_structure(white_pawns, black_pawns, &mg, &eg)
    return mg, eg


def king_shield(u64 white_pawns, u64 black_pawns, int wk, int bk):
    """``evaluation.king_shield``: the middlegame pawn shield and open files near the kings."""
    return _king_shield(white_pawns, black_pawns, wk, bk)


# the pawn-and-king hash table (the engines' "pawn hash"): entries checked in full
cdef enum:
    PAWN_TABLE_SIZE = 1 << 16

cdef struct PawnEntry:
    u64 wp, bp
    int wk, bk
    long mg, eg

cdef PawnEntry PAWN_TABLE[PAWN_TABLE_SIZE]


cdef object _pawn_king_terms(object s, Pos* p):
    """``evaluation.pawn_king_terms``: the state's pawn-structure and king-shield terms."""
    pk = s._pk
    if pk is not None:
        return pk
    cdef u64 white = _white(p)
    cdef u64 wp = p.pawns & white, bp = p.pawns & ~white
    cdef int wk = gs_msb(p.kings & white), bk = gs_msb(p.kings & ~white)
    cdef u64 h = (wp * <u64>0x9E3779B97F4A7C15) ^ (bp * <u64>0xC2B2AE3D27D4EB4F) \
        ^ (<u64>(wk * 64 + bk) * <u64>0x165667B19E3779F9)
    cdef PawnEntry* e = &PAWN_TABLE[(h >> 40) & (PAWN_TABLE_SIZE - 1)]
    cdef long mg, eg
    if not (e.wk == wk and e.bk == bk and e.wp == wp and e.bp == bp):
        _pawn_structure(wp, bp, &mg, &eg)
        e.wp = wp
        e.bp = bp
        e.wk = wk
        e.bk = bk
        e.mg = mg + _king_shield(wp, bp, wk, bk)
        e.eg = eg
    pk = (e.mg, e.eg)
    s._pk = pk
    return pk


def pawn_king_terms(s):
    """``evaluation.pawn_king_terms``."""
    cdef Pos p
    _read(s.board, &p)
    return _pawn_king_terms(s, &p)


def evaluate_board(s):
    """``evaluation.evaluate_board``: the evaluation from White's view, in centipawns (before the
    tempo bonus)."""
    cdef Pos p
    _read(s.board, &p)
    return _evaluate_board(s, &p)


cdef inline long _mobility(u64 pieces, int kind, int neutral, u64 occ, u64 white, u64 black,
                           u64 w_free, u64 b_free) noexcept nogil:
    """White's minus Black's mobility of one piece type: the free squares each piece attacks,
    counted from ``neutral`` a piece."""
    cdef u64 w = pieces & white, k = pieces & black
    cdef long n = neutral * (gs_popcount(k) - gs_popcount(w))
    cdef int sq
    while w:
        sq = gs_msb(w)
        w ^= bit(sq)
        n += gs_popcount(_attacks(kind, sq, occ) & w_free)
    while k:
        sq = gs_msb(k)
        k ^= bit(sq)
        n -= gs_popcount(_attacks(kind, sq, occ) & b_free)
    return n


cdef long _evaluate_board(object s, Pos* p) except? -999999:
    pk = _pawn_king_terms(s, p)
    cdef long pmg = pk[0], peg = pk[1]
    cdef long smg = s.mg, seg = s.eg
    cdef int phase = s.phase
    cdef u64 white = _white(p)
    cdef u64 black = p.occ & ~white
    cdef u64 occ = p.occ
    cdef u64 wp = p.pawns & white, bp = p.pawns & black
    # mobility: attacked squares holding no own piece and not attacked by an enemy pawn,
    # from a neutral count per piece type (evaluation.MOBILITY), White minus Black
    cdef u64 w_free = ~(white | ((bp & ~FILE_A) >> 9) | ((bp & ~FILE_H) >> 7))
    cdef u64 b_free = ~(black | ((wp & ~FILE_A) << 7) | ((wp & ~FILE_H) << 9))
    cdef u64 wb = p.bishops & white, bb = p.bishops & black
    cdef long mg, eg, v
    cdef long nk = _mobility(p.knights, KNIGHT, 4, occ, white, black, w_free, b_free)
    cdef long nb = _mobility(p.bishops, BISHOP, 6, occ, white, black, w_free, b_free)
    cdef long nr = _mobility(p.rooks, ROOK, 7, occ, white, black, w_free, b_free)
    cdef long nq = _mobility(p.queens, QUEEN, 13, occ, white, black, w_free, b_free)
    mg = smg + pmg + 4 * nk
    eg = seg + peg + 4 * nk
    if wb & (wb - 1):
        mg += BISHOP_PAIR_MG
        eg += BISHOP_PAIR_EG
    if bb & (bb - 1):
        mg -= BISHOP_PAIR_MG
        eg -= BISHOP_PAIR_EG
    mg += 5 * nb + 2 * nr + nq
    eg += 5 * nb + 4 * nr + 2 * nq
    if phase > 24:
        phase = 24
    v = mg * phase + eg * (24 - phase)
    return v // 24 if v >= 0 else -((-v) // 24)  # rounded towards zero: colour-symmetric


cdef inline long _clamp(long v) noexcept nogil:
    if v >= EVAL_LIMIT_C:
        return EVAL_LIMIT_C - 1
    if v <= -EVAL_LIMIT_C:
        return 1 - EVAL_LIMIT_C
    return v


def evaluate(dict cache, state, int player):
    """``evaluation.evaluate`` (``ChessGame.evaluate``) with the game's evaluation cache."""
    key = state.key
    v = cache.get(key)
    cdef Pos p
    cdef long w
    if v is None:
        _read(state.board, &p)
        w = _evaluate_board(state, &p)
        w = _clamp(w + TEMPO_C if p.turn else -w + TEMPO_C)
        if len(cache) >= EVAL_CACHE_SIZE_C:
            cache.clear()
        v = w
        cache[key] = v
    return v if player == state.player else -v


def quick_evaluate(dict cache, state, int player):
    """``evaluation.quick_evaluate`` with the game's evaluation cache."""
    v = cache.get(state.key)
    if v is not None:
        return (v if player == state.player else -v), 0.0
    cdef Pos p
    _read(state.board, &p)
    pk = _pawn_king_terms(state, &p)
    cdef long pmg = pk[0], peg = pk[1]
    cdef long phase = state.phase
    if phase > 24:
        phase = 24
    cdef long w = (<long>state.mg + pmg) * phase + (<long>state.eg + peg) * (24 - phase)
    w = w // 24 if w >= 0 else -((-w) // 24)
    cdef long q = _clamp(w + TEMPO_C if p.turn else -w + TEMPO_C)
    return (q if player == state.player else -q), LAZY_MARGIN_O
