# The make-move (included by compiled.pyx): the twin of board.result (ChessGame.result).

cdef u64 ZOB[2][7][64]     # board.ZOBRIST[colour][piece][square]
cdef long MGT[2][7][64]    # pst.MG
cdef long EGT[2][7][64]    # pst.EG
cdef int PHASE_W[7]        # pst.PHASE
cdef u64 Z_TURN_C
cdef u64 Z_EP_C[8]
cdef u64 ZCAST[16]         # board.Z_CASTLING by corner bits: a1, h1, a8, h8
cdef object _State = None
cdef object _Board = None
cdef object _new = object.__new__
cdef u64 BB_A1 = 1, BB_H1 = (<u64>1) << 7, BB_A8 = (<u64>1) << 56, BB_H8 = (<u64>1) << 63


cdef inline int _corner_index(u64 rights) noexcept nogil:
    return ((rights & BB_A1) != 0) | (((rights & BB_H1) != 0) << 1) \
        | (((rights & BB_A8) != 0) << 2) | (((rights & BB_H8) != 0) << 3)


def init_result(state_cls, board_cls, zobrist, mg, eg, phase, z_turn, z_ep, z_castling):
    """Take ``board.py``'s state and board classes and the key and score tables."""
    global _State, _Board, Z_TURN_C
    cdef int c, pt, sq, mask
    cdef u64 rights
    _State = state_cls
    _Board = board_cls
    for c in range(2):
        for pt in range(7):
            for sq in range(64):
                ZOB[c][pt][sq] = zobrist[c][pt][sq]
                MGT[c][pt][sq] = mg[c][pt][sq]
                EGT[c][pt][sq] = eg[c][pt][sq]
    for pt in range(7):
        PHASE_W[pt] = phase[pt]
    Z_TURN_C = z_turn
    for sq in range(8):
        Z_EP_C[sq] = z_ep[sq]
    for rights_obj, z in z_castling.items():
        rights = rights_obj
        ZCAST[_corner_index(rights)] = z


def result(state, action):
    """``board.result``: the child state (see there), built from the parent's bitboards
    with the key and the scores updated incrementally."""
    b = state.board
    cdef Pos p
    _read(b, &p)
    cdef int turn = p.turn
    cdef int frm = action.from_square
    cdef int to = action.to_square
    promotion_obj = action.promotion
    cdef int promotion = 0 if promotion_obj is None else promotion_obj
    cdef u64 fbb = bit(frm), tbb = bit(to)
    cdef int ci = turn, oc = 1 - turn
    cdef u64 us = p.us, them = p.them
    cdef u64 bbs[7]
    bbs[0] = 0
    bbs[1] = p.pawns
    bbs[2] = p.knights
    bbs[3] = p.bishops
    bbs[4] = p.rooks
    bbs[5] = p.queens
    bbs[6] = p.kings
    cdef int pt = _piece_at(&p, fbb)
    cdef int newpt = promotion if promotion else pt
    cdef u64 key = <u64>state.key ^ ZOB[ci][pt][frm] ^ ZOB[ci][newpt][to] ^ Z_TURN_C
    cdef long mg = <long>state.mg - MGT[ci][pt][frm] + MGT[ci][newpt][to]
    cdef long eg = <long>state.eg - EGT[ci][pt][frm] + EGT[ci][newpt][to]
    cdef int phase = state.phase
    cdef long halfmove = b.halfmove_clock + 1
    cdef bint same_pawns_kings = pt != PAWN and pt != KING
    cdef int cpt, cap, rf, rt, ep
    cdef u64 cbb, rbb, rights, new_rights, promoted, moved
    if them & tbb:
        cpt = _piece_at(&p, tbb)
        if cpt == PAWN:
            same_pawns_kings = False
        bbs[cpt] ^= tbb
        them ^= tbb
        key ^= ZOB[oc][cpt][to]
        mg -= MGT[oc][cpt][to]
        eg -= EGT[oc][cpt][to]
        phase -= PHASE_W[cpt]
        halfmove = 0
    elif pt == PAWN and to == p.ep and (to - frm) & 7:
        cap = to - 8 if turn else to + 8
        cbb = bit(cap)
        bbs[PAWN] ^= cbb
        them ^= cbb
        key ^= ZOB[oc][PAWN][cap]
        mg -= MGT[oc][PAWN][cap]
        eg -= EGT[oc][PAWN][cap]
    bbs[pt] ^= fbb
    bbs[newpt] |= tbb
    us = (us ^ fbb) | tbb
    if pt == PAWN:
        halfmove = 0
        if newpt != PAWN:
            phase += PHASE_W[newpt]
    elif pt == KING and (to - frm == 2 or frm - to == 2):
        if to > frm:
            rf = frm + 3
            rt = frm + 1
        else:
            rf = frm - 4
            rt = frm - 1
        rbb = bit(rf) | bit(rt)
        bbs[ROOK] ^= rbb
        us ^= rbb
        key ^= ZOB[ci][ROOK][rf] ^ ZOB[ci][ROOK][rt]
        mg += MGT[ci][ROOK][rt] - MGT[ci][ROOK][rf]
        eg += EGT[ci][ROOK][rt] - EGT[ci][ROOK][rf]
    rights = p.castling
    if rights:
        new_rights = rights & ~(fbb | tbb)
        if pt == KING:
            new_rights &= ~(RANK_1 if turn else RANK_8)
        if new_rights != rights:
            key ^= ZCAST[_corner_index(rights)] ^ ZCAST[_corner_index(new_rights)]
        rights = new_rights
    if p.ep >= 0 and PAWN_ATT[1 - turn][p.ep] & p.pawns & p.us:
        key ^= Z_EP_C[p.ep & 7]  # the parent's en-passant file (board.ep_z)
    ep = -1
    if pt == PAWN and (to - frm == 16 or frm - to == 16):
        ep = (frm + to) >> 1
        if PAWN_ATT[turn][ep] & bbs[PAWN] & them:
            key ^= Z_EP_C[ep & 7]
    n = _new(_Board)
    n.pawns = bbs[1]
    n.knights = bbs[2]
    n.bishops = bbs[3]
    n.rooks = bbs[4]
    n.queens = bbs[5]
    n.kings = bbs[6]
    n.occupied_co = [them, us] if turn else [us, them]
    n.occupied = us | them
    promoted = b.promoted
    if promoted or promotion:
        moved = promoted & fbb
        promoted &= ~(fbb | tbb)
        if moved or promotion:
            promoted |= tbb
    n.promoted = promoted
    n.chess960 = False
    n.turn = not turn
    n.castling_rights = rights
    n.ep_square = None if ep < 0 else ep
    n.halfmove_clock = halfmove
    n.fullmove_number = b.fullmove_number + (0 if turn else 1)
    n.move_stack = []
    n._stack = []
    # ChessState.__init__, field by field (the tests compare every field with the
    # pure-Python result)
    child = _new(_State)
    child.board = n
    child.key = key
    child.mg = mg
    child.eg = eg
    child.phase = phase
    child.parent = state
    ply = state.ply
    child.ply = ply + 1 if ply >= 0 else -1
    child.player = 1 if turn else 0
    child._moves = None
    child._status = -1
    child._check = -1
    child._cp = None
    child._pk = state._pk if same_pawns_kings else None
    return child
