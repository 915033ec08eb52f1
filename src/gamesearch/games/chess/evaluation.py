"""The evaluation (centipawns, side to move's view): tapered middlegame/endgame PeSTO
piece-square tables including material (kept up to date by the state, :mod:`.pst`), mobility
of knights, bishops, rooks and queens, pawn structure (doubled, isolated, passed; cached by
the pawn bitboards), king safety (the pawn shield in the middlegame), the bishop pair and a
small tempo bonus. Always within ``±EVAL_LIMIT``.

:func:`evaluate` is ``ChessGame.evaluate`` (with the game's evaluation cache),
:func:`quick_evaluate` the estimate for the engine's lazy evaluation in quiescence. Each
function here is the pure-Python reference of a compiled kernel (``kernels/evaluation.pxi``;
see :mod:`.backend`).
"""

from __future__ import annotations

import chess
from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_A,
    BB_FILE_ATTACKS,
    BB_FILE_H,
    BB_FILE_MASKS,
    BB_KNIGHT_ATTACKS,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_SQUARES,
    BISHOP,
    KNIGHT,
    QUEEN,
    ROOK,
)

from .board import BB_ALL, ChessState

#: The evaluation never leaves ``(-EVAL_LIMIT, EVAL_LIMIT)`` (far below mate scores).
EVAL_LIMIT = 30000
#: entries of the evaluation cache before it starts afresh
EVAL_CACHE_SIZE = 1 << 18

FILES = tuple(chess.BB_FILES)
ADJACENT_FILES = tuple(
    (FILES[f - 1] if f > 0 else 0) | (FILES[f + 1] if f < 7 else 0) for f in range(8)
)
PASSED_MG = (0, 5, 10, 15, 25, 40, 60, 0)  # by rank from the pawn's own side (0 = 1st)
PASSED_EG = (0, 10, 20, 35, 60, 100, 150, 0)
DOUBLED_MG, DOUBLED_EG = 10, 20
ISOLATED_MG, ISOLATED_EG = 10, 15
#: mobility weights (mg, eg) per safe target square, and the count taken as neutral
#: (evaluate_board and the compiled kernel write these numbers out)
MOBILITY = {KNIGHT: (4, 4, 4), BISHOP: (5, 5, 6), ROOK: (2, 4, 7), QUEEN: (1, 2, 13)}
BISHOP_PAIR = (30, 50)
TEMPO = 10
#: The evaluation's mobility and bishop-pair terms stay within this (``quick_evaluate``):
#: on 5,916 positions (20-ply random walks from the 300 WAC positions) they ranged over
#: -98..+110, 98 % of them within ±65.
LAZY_MARGIN = 150.0
SHIELD_BONUS = 12  # per pawn in front of a castled king (middlegame)
OPEN_FILE_NEAR_KING = 15


def _north_fill(bb: int) -> int:
    bb |= bb << 8
    bb |= bb << 16
    bb |= bb << 32
    return bb & BB_ALL


def _south_fill(bb: int) -> int:
    bb |= bb >> 8
    bb |= bb >> 16
    bb |= bb >> 32
    return bb


def _sides(bb: int) -> int:
    """``bb`` with its squares' neighbours on the adjacent files (same rank) added."""
    return bb | ((bb & ~BB_FILE_A) >> 1) | ((bb & ~BB_FILE_H) << 1)


def pawn_structure(white_pawns: int, black_pawns: int) -> tuple[int, int]:
    """Doubled, isolated and passed pawns: ``(mg, eg)`` from White's view (set-wise)."""
    wp, bp = white_pawns, black_pawns
    # files holding a pawn, as full files
    w_files = _south_fill(_north_fill(wp))
    b_files = _south_fill(_north_fill(bp))
    # doubled: on a file with n pawns, n - 1 of them have another one behind
    w_doubled = (wp & (_north_fill(wp) << 8)).bit_count()
    b_doubled = (bp & (_north_fill(bp) << 8)).bit_count()
    # isolated: no own pawn on an adjacent file
    w_iso = (wp & ~(((w_files & ~BB_FILE_A) >> 1) | ((w_files & ~BB_FILE_H) << 1))).bit_count()
    b_iso = (bp & ~(((b_files & ~BB_FILE_A) >> 1) | ((b_files & ~BB_FILE_H) << 1))).bit_count()
    mg = (b_doubled - w_doubled) * DOUBLED_MG + (b_iso - w_iso) * ISOLATED_MG
    eg = (b_doubled - w_doubled) * DOUBLED_EG + (b_iso - w_iso) * ISOLATED_EG
    # passed: no enemy pawn in front on the own or an adjacent file
    passed = wp & ~_sides(_south_fill(bp >> 8))
    while passed:
        sq = passed.bit_length() - 1
        passed ^= BB_SQUARES[sq]
        mg += PASSED_MG[sq >> 3]
        eg += PASSED_EG[sq >> 3]
    passed = bp & ~_sides(_north_fill(wp << 8))
    while passed:
        sq = passed.bit_length() - 1
        passed ^= BB_SQUARES[sq]
        mg -= PASSED_MG[7 - (sq >> 3)]
        eg -= PASSED_EG[7 - (sq >> 3)]
    return mg, eg


def king_shield(white_pawns: int, black_pawns: int, wk: int, bk: int) -> int:
    """Middlegame king safety from White's view: own pawns in front of a king on the wing
    (one or two ranks ahead, on its file and the adjacent ones), open files next to it."""
    score = 0
    for sign, ksq, own, white in ((1, wk, white_pawns, True), (-1, bk, black_pawns, False)):
        f, r = ksq & 7, ksq >> 3
        if 2 < f < 5:
            continue  # the king in the centre: the tables already judge it
        files = FILES[f] | ADJACENT_FILES[f]
        if white:
            near = files & ((0xFF << 8 * (r + 1)) | (0xFF << 8 * (r + 2))) & BB_ALL if r < 6 else 0
        else:
            near = files & ((0xFF << 8 * (r - 1)) | (0xFF << 8 * (r - 2))) if r > 1 else 0
        score += sign * SHIELD_BONUS * min((own & near).bit_count(), 3)
        for ff in (f - 1, f, f + 1):
            if 0 <= ff < 8 and not own & FILES[ff]:
                score -= sign * OPEN_FILE_NEAR_KING
    return score


#: pawn structure by the two pawn bitboards; with the king shield by pawns and king squares
_PAWN_CACHE: dict[tuple[int, int], tuple[int, int]] = {}
_PAWN_KING_CACHE: dict[tuple[int, int, int, int], tuple[int, int]] = {}


def pawn_king_terms(s: ChessState) -> tuple[int, int]:
    """The pawn-structure and king-shield terms ``(mg, eg)`` of ``s`` from White's view
    (cached in the state and by pawns and king squares)."""
    pk = s._pk
    if pk is not None:
        return pk
    b = s.board
    wp = b.pawns & b.occupied_co[1]
    bp = b.pawns & b.occupied_co[0]
    kings = b.kings
    wk = (kings & b.occupied_co[1]).bit_length() - 1
    bk = (kings & b.occupied_co[0]).bit_length() - 1
    k = (wp, bp, wk, bk)
    v = _PAWN_KING_CACHE.get(k)
    if v is None:
        pk = (wp, bp)
        ps = _PAWN_CACHE.get(pk)
        if ps is None:
            ps = pawn_structure(wp, bp)
            if len(_PAWN_CACHE) > 200_000:
                _PAWN_CACHE.clear()
            _PAWN_CACHE[pk] = ps
        v = (ps[0] + king_shield(wp, bp, wk, bk), ps[1])
        if len(_PAWN_KING_CACHE) > 200_000:
            _PAWN_KING_CACHE.clear()
        _PAWN_KING_CACHE[k] = v
    s._pk = v
    return v


def evaluate_board(s: ChessState) -> int:
    """The evaluation from White's view, in centipawns (before the tempo bonus).

    The mobility loops are written out per piece kind and colour on purpose: a single
    loop over the kinds (as ``_mobility`` in the compiled twin) executed ~20 % more
    instructions per call (callgrind, 300 WAC positions), some 2.5 % of a pure-Python
    search."""
    b = s.board
    pk = s._pk
    pmg, peg = pk if pk is not None else pawn_king_terms(s)
    occ = b.occupied
    black, white = b.occupied_co
    pawns = b.pawns
    wp = pawns & white
    bp = pawns & black
    knights, bishops, rooks, queens = b.knights, b.bishops, b.rooks, b.queens
    diag_att, diag_mask = BB_DIAG_ATTACKS, BB_DIAG_MASKS
    rank_att, rank_mask = BB_RANK_ATTACKS, BB_RANK_MASKS
    file_att, file_mask = BB_FILE_ATTACKS, BB_FILE_MASKS
    BB = BB_SQUARES
    # Mobility: attacked squares holding no own piece and not attacked by an enemy pawn,
    # counted from a neutral number per piece type (see MOBILITY). The counts are summed
    # per piece type (White minus Black) and weighted at the end.
    w_free = ~(white | ((bp & ~BB_FILE_A) >> 9) | ((bp & ~BB_FILE_H) >> 7))
    b_free = ~(black | (((wp & ~BB_FILE_A) << 7) | ((wp & ~BB_FILE_H) << 9)) & BB_ALL)
    wn, bn = knights & white, knights & black
    nk = 4 * (bn.bit_count() - wn.bit_count())
    while wn:
        sq = wn.bit_length() - 1
        wn ^= BB[sq]
        nk += (BB_KNIGHT_ATTACKS[sq] & w_free).bit_count()
    while bn:
        sq = bn.bit_length() - 1
        bn ^= BB[sq]
        nk -= (BB_KNIGHT_ATTACKS[sq] & b_free).bit_count()
    wb, bb = bishops & white, bishops & black
    mg = s.mg + pmg + 4 * nk
    eg = s.eg + peg + 4 * nk
    if wb & (wb - 1):
        mg += BISHOP_PAIR[0]
        eg += BISHOP_PAIR[1]
    if bb & (bb - 1):
        mg -= BISHOP_PAIR[0]
        eg -= BISHOP_PAIR[1]
    nb = 6 * (bb.bit_count() - wb.bit_count())
    while wb:
        sq = wb.bit_length() - 1
        wb ^= BB[sq]
        nb += (diag_att[sq][diag_mask[sq] & occ] & w_free).bit_count()
    while bb:
        sq = bb.bit_length() - 1
        bb ^= BB[sq]
        nb -= (diag_att[sq][diag_mask[sq] & occ] & b_free).bit_count()
    wr, br = rooks & white, rooks & black
    nr = 7 * (br.bit_count() - wr.bit_count())
    while wr:
        sq = wr.bit_length() - 1
        wr ^= BB[sq]
        nr += ((rank_att[sq][rank_mask[sq] & occ] | file_att[sq][file_mask[sq] & occ])
               & w_free).bit_count()
    while br:
        sq = br.bit_length() - 1
        br ^= BB[sq]
        nr -= ((rank_att[sq][rank_mask[sq] & occ] | file_att[sq][file_mask[sq] & occ])
               & b_free).bit_count()
    wq, bq = queens & white, queens & black
    nq = 13 * (bq.bit_count() - wq.bit_count())
    while wq:
        sq = wq.bit_length() - 1
        wq ^= BB[sq]
        nq += ((diag_att[sq][diag_mask[sq] & occ] | rank_att[sq][rank_mask[sq] & occ]
                | file_att[sq][file_mask[sq] & occ]) & w_free).bit_count()
    while bq:
        sq = bq.bit_length() - 1
        bq ^= BB[sq]
        nq -= ((diag_att[sq][diag_mask[sq] & occ] | rank_att[sq][rank_mask[sq] & occ]
                | file_att[sq][file_mask[sq] & occ]) & b_free).bit_count()
    mg += 5 * nb + 2 * nr + nq
    eg += 5 * nb + 4 * nr + 2 * nq
    phase = s.phase if s.phase < 24 else 24
    v = mg * phase + eg * (24 - phase)
    return v // 24 if v >= 0 else -(-v // 24)  # rounded towards zero: colour-symmetric


def evaluate(cache: dict[int, int], state: ChessState, player: int) -> float:
    """``ChessGame.evaluate``: centipawns for ``player``, within ±EVAL_LIMIT, kept in
    ``cache`` (the game's; by Zobrist key, the side to move's view: iterative deepening
    meets the same quiescence leaves again and again)."""
    v = cache.get(state.key)
    if v is None:
        v = evaluate_board(state)
        v = v + TEMPO if state.board.turn else -v + TEMPO
        if v >= EVAL_LIMIT:
            v = EVAL_LIMIT - 1
        elif v <= -EVAL_LIMIT:
            v = 1 - EVAL_LIMIT
        if len(cache) >= EVAL_CACHE_SIZE:
            cache.clear()
        cache[state.key] = v
    return v if player == state.player else -v


def quick_evaluate(
    cache: dict[int, int], state: ChessState, player: int
) -> tuple[float, float]:
    """``ChessGame.quick_evaluate``: ``(estimate, margin)`` with ``evaluate`` within
    ``estimate ± margin``: the cached evaluation (margin 0), else material, piece-square
    tables, pawn structure and king shield without mobility and the bishop pair (margin
    :data:`LAZY_MARGIN`). For the engine's lazy evaluation in quiescence: it runs at
    nearly every quiescence node, so the tapering and the clamp are written out here
    rather than shared with ``evaluate`` (two calls cost ~4 % of the pure-Python
    engine's nodes per second, measured)."""
    v = cache.get(state.key)
    if v is not None:
        return (v if player == state.player else -v), 0.0
    b = state.board
    pk = state._pk
    pmg, peg = pk if pk is not None else pawn_king_terms(state)
    phase = state.phase if state.phase < 24 else 24
    w = (state.mg + pmg) * phase + (state.eg + peg) * (24 - phase)
    w = w // 24 if w >= 0 else -(-w // 24)
    q = w + TEMPO if b.turn else -w + TEMPO
    if q >= EVAL_LIMIT:
        q = EVAL_LIMIT - 1
    elif q <= -EVAL_LIMIT:
        q = 1 - EVAL_LIMIT
    return (q if player == state.player else -q), LAZY_MARGIN
