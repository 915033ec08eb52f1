"""Legal move generation in search order, the quiescence moves and the legal-move test.

:func:`generate_moves` gives the legal moves of a board (python-chess's
``generate_legal_moves`` costs ~86 µs on a middlegame position, this generator ~30 µs),
checked against python-chess by perft and random play in the tests, in the order the search
tries them: captures by MVV-LVA (most valuable victim first, then least valuable attacker),
promotions, castling and quiet moves. Knights, bishops, rooks and queens share one routine
(:func:`_add_piece_moves`), as in the compiled twin. Standard chess only (no Chess960).

The functions here are the pure-Python references of compiled kernels (``kernels/``; see
:mod:`.backend`), except :func:`cached_moves` and :func:`has_legal_move`, which serve both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import itemgetter

from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_A,
    BB_FILE_ATTACKS,
    BB_FILE_H,
    BB_FILE_MASKS,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANK_1,
    BB_RANK_3,
    BB_RANK_6,
    BB_RANK_8,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_RAYS,
    BB_SQUARES,
    BISHOP,
    KING,
    KNIGHT,
    QUEEN,
    ROOK,
    Board,
    Move,
)

from .board import (
    BB_ALL,
    MOVES,
    PROMOTIONS,
    ChessState,
    checkers_and_pinned,
    king_attacked,
)
from .see import SEE_NEEDED, piece_type, see

#: the sort key of the (value, move) pairs
_first = itemgetter(0)
#: The least-valuable-attacker part of a capture's MVV-LVA value, by the capturing piece's
#: type: the value is the victim's (pawn 10, knight or bishop 30, rook 50, queen 90) minus
#: this (en passant: 9).
LVA = (0, 1, 3, 3, 5, 9, 20)


def _add_promotions(
    frm: int, to: int, queen: int, knight: int, noisy: bool,
    qn_add: Callable[[tuple[int, Move]], None], promos: list[tuple[int, Move]],
) -> None:
    """The promotions of one pawn move: to a queen and a knight with the values ``queen``
    and ``knight`` through ``qn_add``; to a rook and a bishop (not when ``noisy``) into
    ``promos`` at -10, after the quiet moves."""
    qn_add((queen, PROMOTIONS[(frm, to, QUEEN)]))
    qn_add((knight, PROMOTIONS[(frm, to, KNIGHT)]))
    if not noisy:
        promos.append((-10, PROMOTIONS[(frm, to, ROOK)]))
        promos.append((-10, PROMOTIONS[(frm, to, BISHOP)]))


def _add_en_passant(
    b: Board, own: int, up: int, ksq: int, occ: int, them: int,
    add: Callable[[tuple[int, Move]], None],
) -> None:
    """Add the legal en-passant captures of the pawns ``own`` (MVV-LVA value 9) with
    ``add``; ``up`` is the pawns' step (+8 for White, -8 for Black)."""
    ep = b.ep_square
    assert ep is not None
    capturers = BB_PAWN_ATTACKS[not b.turn][ep] & own
    if capturers:
        cbb = BB_SQUARES[ep - up]  # the captured pawn
        while capturers:
            frm = capturers.bit_length() - 1
            capturers ^= BB_SQUARES[frm]
            # simulate: the king must not be attacked afterwards
            occ2 = (occ ^ BB_SQUARES[frm] ^ cbb) | BB_SQUARES[ep]
            if not king_attacked(b, ksq, occ2, them & ~cbb, b.turn):
                add((9, MOVES[frm][ep]))


def _add_castling(b: Board, ksq: int, add: Callable[[Move], None]) -> None:
    """Castling king side, then queen side, for a side not in check: the rook's right (the
    rights are kept clean: king and rook on their home squares), empty squares between
    them, and no attack on the squares the king crosses."""
    turn = b.turn
    rights = b.castling_rights & (BB_RANK_1 if turn else BB_RANK_8)
    if not rights:
        return
    occ = b.occupied
    them = b.occupied_co[not turn]
    BB = BB_SQUARES
    for rook_sq, empty, crossed, to in (
        (ksq + 3, (BB[ksq + 1] | BB[ksq + 2]), (ksq + 1, ksq + 2), ksq + 2),
        (ksq - 4, (BB[ksq - 1] | BB[ksq - 2] | BB[ksq - 3]), (ksq - 1, ksq - 2), ksq - 2),
    ):
        if rights & BB[rook_sq] and not occ & empty and not any(
            king_attacked(b, s, occ, them, turn) for s in crossed
        ):
            add(MOVES[ksq][to])


def generate_moves(
    b: Board, noisy: bool = False, cp: tuple[int, int, int] | None = None
) -> tuple[list[Move], bool]:
    """The legal moves of ``b`` and whether the side to move is in check.

    Order: captures by MVV-LVA (most valuable victim first, then least valuable attacker),
    promotions, castling, quiet moves. ``noisy=True``: only captures and queen/knight
    promotions, unless in check (then every evasion). Standard chess only (no Chess960).
    ``cp``: ``checkers_and_pinned(b)`` if already known.

    One loop serves knights, bishops, rooks and queens (the compiled twin's
    ``_piece_moves``/``_slider_moves``); the pawns go set-wise; then the king. Kept in one
    function on purpose: the pure-Python quiescence search generates moves at nearly every
    node, and with the piece loop, the pawns and the king in a function each, a noisy call
    took ~0.9 µs (12 %) longer (best of 7 over the 300 WAC positions).
    """
    turn = b.turn
    occ_co = b.occupied_co
    us = occ_co[turn]
    them = occ_co[not turn]
    occ = b.occupied
    pawns, knights, bishops, rooks, queens = b.pawns, b.knights, b.bishops, b.rooks, b.queens
    minors = knights | bishops
    ksq, checkers, pinned = cp if cp is not None else checkers_and_pinned(b)
    caps: list[tuple[int, Move]] = []
    quiet: list[Move] = []
    promos: list[tuple[int, Move]] = []
    cadd = caps.append
    qadd = quiet.append
    BB = BB_SQUARES
    if checkers:
        noisy = False
        if checkers & (checkers - 1):
            targets = 0  # double check: only the king moves
        else:
            c = checkers.bit_length() - 1
            between = BB_RAYS[ksq][c] & ((BB_ALL << ksq) ^ (BB_ALL << c))
            targets = (between & (between - 1)) | checkers
    else:
        targets = BB_ALL & ~us
    cap_targets = targets & them
    quiet_targets = 0 if noisy else targets & ~occ
    if targets:
        # knights (a pinned knight never moves), bishops, rooks, queens (a pinned slider
        # moves along its pin): one loop, each piece's moves in square order from h8 down
        diag_att, diag_mask = BB_DIAG_ATTACKS, BB_DIAG_MASKS
        rank_att, rank_mask = BB_RANK_ATTACKS, BB_RANK_MASKS
        file_att, file_mask = BB_FILE_ATTACKS, BB_FILE_MASKS
        for bb, lva, knight, diagonal, straight in (
            (knights & ~pinned & us, 3, True, False, False), (bishops & us, 3, False, True, False),
            (rooks & us, 5, False, False, True), (queens & us, 9, False, True, True),
        ):
            while bb:
                sq = bb.bit_length() - 1
                sbb = BB[sq]
                bb ^= sbb
                if knight:
                    att = BB_KNIGHT_ATTACKS[sq]
                else:
                    if straight:
                        att = (rank_att[sq][rank_mask[sq] & occ]
                               | file_att[sq][file_mask[sq] & occ])
                        if diagonal:
                            att |= diag_att[sq][diag_mask[sq] & occ]
                    else:
                        att = diag_att[sq][diag_mask[sq] & occ]
                    if pinned & sbb:  # a pinned slider moves along its pin
                        att &= BB_RAYS[ksq][sq]
                row = MOVES[sq]
                t = att & cap_targets
                while t:
                    to = t.bit_length() - 1
                    tbb = BB[to]
                    t ^= tbb
                    cadd(((10 if pawns & tbb else 30 if minors & tbb else 50 if rooks & tbb
                           else 90) - lva, row[to]))
                t = att & quiet_targets
                while t:
                    to = t.bit_length() - 1
                    t ^= BB[to]
                    qadd(row[to])
        # pawns, set-wise, then en passant
        own = pawns & us
        if own:
            if turn:
                up, last_rank, third = 8, BB_RANK_8, BB_RANK_3
                single = (own << 8) & ~occ
                double = ((single & third) << 8) & ~occ
                left = ((own & ~BB_FILE_A) << 7) & them  # towards the a-file
                right = ((own & ~BB_FILE_H) << 9) & them
                dl, dr = 7, 9
            else:
                up, last_rank, third = -8, BB_RANK_1, BB_RANK_6
                single = (own >> 8) & ~occ
                double = ((single & third) >> 8) & ~occ
                left = ((own & ~BB_FILE_A) >> 9) & them
                right = ((own & ~BB_FILE_H) >> 7) & them
                dl, dr = -9, -7
            # captures towards the a-file, towards the h-file (MVV-LVA value: the victim's
            # - 1), single steps (only promotions when noisy), double steps
            for tos, delta, capture in (
                (left & targets, dl, True), (right & targets, dr, True),
                (single & targets & (last_rank if noisy else BB_ALL), up, False),
                (0 if noisy else double & targets, 2 * up, False),
            ):
                while tos:
                    to = tos.bit_length() - 1
                    tbb = BB[to]
                    tos ^= tbb
                    frm = to - delta
                    if pinned & BB[frm] and not BB_RAYS[ksq][frm] & tbb:
                        continue  # pinned, and not along the pin
                    if capture:
                        v = 10 if pawns & tbb else 30 if minors & tbb else 50 if rooks & tbb else 90
                        if tbb & last_rank:
                            _add_promotions(frm, to, v + 80, v - 1, noisy, cadd, promos)
                        else:
                            cadd((v - 1, MOVES[frm][to]))
                    elif tbb & last_rank:
                        _add_promotions(frm, to, 80, 0, noisy, promos.append, promos)
                    else:
                        qadd(MOVES[frm][to])
            if b.ep_square is not None:
                _add_en_passant(b, own, up, ksq, occ, them, cadd)
    # the king: steps to squares no enemy piece attacks once it has left ``ksq`` (so a
    # slider's ray through it counts), then castling
    t = BB_KING_ATTACKS[ksq] & ~us
    if noisy:
        t &= them
    if t:
        occ_k = occ ^ BB[ksq]
        row = MOVES[ksq]
        while t:
            to = t.bit_length() - 1
            tbb = BB[to]
            t ^= tbb
            if king_attacked(b, to, occ_k, them, turn):
                continue
            if tbb & them:
                cadd(((10 if pawns & tbb else 30 if minors & tbb else 50 if rooks & tbb
                       else 90) - LVA[KING], row[to]))
            else:
                qadd(row[to])
        if not checkers and not noisy:
            _add_castling(b, ksq, qadd)
    if caps:
        caps.sort(key=_first, reverse=True)
        out = [m for _, m in caps]
    else:
        out = []
    if promos:
        promos.sort(key=_first, reverse=True)
        out += [m for v, m in promos if v >= 0]
        out += quiet
        out += [m for v, m in promos if v < 0]
    else:
        out += quiet
    return out, bool(checkers)


# ----- the moves of a state: cached, and the quiescence moves ------------------------------
#: entries of a move cache before it starts afresh
MOVE_CACHE_SIZE = 1 << 17


def cached_moves(
    generate: Callable[[Board, bool, tuple[int, int, int] | None], tuple[list[Move], bool]],
) -> Callable[..., list[Move]]:
    """A ``state_moves(state, cp=None)`` function over the move generator ``generate``:
    its legal moves (the list is shared: never change it), recorded in the state with
    whether the side to move is in check, and kept by Zobrist key, with the occupancy as a
    check against a collision (iterative deepening generates the moves of the same
    positions again and again). Each set of kernels has its own."""
    cache: dict[int, tuple[int, list[Move], bool]] = {}

    def state_moves(state: ChessState, cp: tuple[int, int, int] | None = None) -> list[Move]:
        b = state.board
        key = state.key
        e = cache.get(key)
        if e is not None and e[0] == b.occupied:
            moves, check = e[1], e[2]
        else:
            moves, check = generate(b, False, cp if cp is not None else state._cp)
            if len(cache) >= MOVE_CACHE_SIZE:
                cache.clear()
            cache[key] = (b.occupied, moves, check)
        state._moves = moves
        state._check = 1 if check else 0
        return moves

    return state_moves


#: the pure-Python kernels' cached move lists
state_moves = cached_moves(generate_moves)


def noisy_moves(b: Board, ksq: int, pinned: int) -> Iterator[Move]:
    """The quiescence moves of a side not in check (``ksq``, ``pinned``: its king square and
    pinned pieces): captures and queen/knight promotions in MVV-LVA order (``generate_moves``
    with ``noisy``), without the captures that lose material by static exchange. The
    exchange is worked out only when the caller gets to the capture (after a cut-off,
    never)."""
    their_pawns = b.pawns & b.occupied_co[not b.turn]
    pawn_attacks = BB_PAWN_ATTACKS[b.turn]
    need = SEE_NEEDED
    for m in generate_moves(b, True, (ksq, 0, pinned))[0]:
        # Cheap cases: pawn captures, promotions and a victim worth at least the capturer.
        # Otherwise the capturer is worth over a pawn more than the victim, so a target a
        # pawn defends loses material (what ``see`` finds, without running it).
        to = m.to_square
        if (
            not m.promotion
            and (piece_type(b, BB_SQUARES[m.from_square]), piece_type(b, BB_SQUARES[to]))
            in need
            and (pawn_attacks[to] & their_pawns or see(b, m) < 0)
        ):
            continue
        yield m


def noisy_actions(state: ChessState) -> Iterator[Move]:
    """``ChessGame.iter_noisy_actions``: every evasion when in check, else
    :func:`noisy_moves` (the static exchange of a capture is worked out only when the search
    gets to it)."""
    if state._moves is not None and state._check == 1:
        yield from state._moves
        return
    b = state.board
    cp = state._cp
    if cp is None:
        cp = state._cp = checkers_and_pinned(b)
    if cp[1]:
        yield from state_moves(state, cp)
        return
    state._check = 0
    yield from noisy_moves(b, cp[0], cp[2])


# ----- is there a legal move? ---------------------------------------------------------------
def has_free_move(b: Board, pinned: int) -> bool:
    """The quick test of ``has_legal_move`` for a side not in check: an unpinned knight,
    bishop, rook or queen with a square to go to, or an unpinned pawn that can step forward
    (False: look at all the moves)."""
    us = b.occupied_co[b.turn]
    occ = b.occupied
    free = b.knights & us & ~pinned
    while free:
        sq = free.bit_length() - 1
        free ^= BB_SQUARES[sq]
        if BB_KNIGHT_ATTACKS[sq] & ~us:
            return True
    free = (b.bishops | b.queens) & us & ~pinned
    while free:
        sq = free.bit_length() - 1
        free ^= BB_SQUARES[sq]
        if BB_DIAG_ATTACKS[sq][BB_DIAG_MASKS[sq] & occ] & ~us:
            return True
    free = (b.rooks | b.queens) & us & ~pinned
    while free:
        sq = free.bit_length() - 1
        free ^= BB_SQUARES[sq]
        if (BB_RANK_ATTACKS[sq][BB_RANK_MASKS[sq] & occ]
                | BB_FILE_ATTACKS[sq][BB_FILE_MASKS[sq] & occ]) & ~us:
            return True
    own = b.pawns & us & ~pinned
    return bool(own and ((own << 8 if b.turn else own >> 8) & ~occ))


def has_legal_move(b: Board, state: ChessState | None = None) -> bool:
    """True when the side to move has a legal move (fast for the usual case). Given the
    ``state`` of ``b``, it also records whether the side to move is in check and, when
    it is, the evasions."""
    cp = checkers_and_pinned(b)
    _, checkers, pinned = cp
    if state is not None:
        state._check = 1 if checkers else 0
        state._cp = cp
        if checkers:
            return bool(state_moves(state, cp))
    if not checkers and has_free_move(b, pinned):
        return True
    if state is not None:
        return bool(state_moves(state, cp))
    return bool(generate_moves(b, False, cp)[0])
