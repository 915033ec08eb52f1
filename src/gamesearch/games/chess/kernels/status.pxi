# The terminal test (included by compiled.pyx): the twins of status.py's compute_status,
# terminal_utility, in_check and repeated, movegen.has_legal_move and movegen.noisy_actions.

cdef enum:
    S_UNKNOWN = -1
    S_ONGOING = 0
    S_MATED = 1
    S_DRAW = 2

cdef object _state_moves = None
cdef object MATE_WIN = None, MATE_LOSS = None
cdef object ZERO = 0.0


def init_status(state_moves, mate):
    """Take ``state_moves`` (the cached full move lists over this module's move generator,
    ``movegen.cached_moves``) and the mate utility."""
    global _state_moves, MATE_WIN, MATE_LOSS
    _state_moves = state_moves
    MATE_WIN = mate
    MATE_LOSS = -mate


cdef bint _has_legal_move(object s, Pos* p) except -1:
    """``movegen.has_legal_move(board, state)``: also records the check and the pins."""
    cdef int ksq
    cdef u64 checkers, pinned
    _checkers_pinned(p, &ksq, &checkers, &pinned)
    s._check = 1 if checkers else 0
    cp = (ksq, checkers, pinned)
    s._cp = cp
    if not checkers and _free_move(p, pinned):
        return True
    return len(_state_moves(s, cp)) > 0


cdef bint _in_check(object s, Pos* p) except -1:
    cdef int c = s._check
    if c == -1:
        c = 1 if _attackers(p, gs_msb(p.kings & p.us), p.occ, p.them, p.turn) else 0
        s._check = c
    return c == 1


cdef bint _repeated(object s, long left) except -1:
    """``status.repeated``: repeated twice before since the last capture or pawn move, or
    once after the search root."""
    cdef u64 key = s.key
    cdef int count = 0
    cdef long i = 1
    par = s.parent
    while par is not None and i <= left:
        if i >= 4 and <u64>par.key == key:
            if par.ply >= 0:
                return True
            count += 1
            if count >= 2:
                return True
        par = par.parent
        i += 1
    return False


cdef int _status(object s) except -2:
    b = s.board
    cdef Pos p
    _read(b, &p)
    cdef long halfmove = b.halfmove_clock
    cdef int st
    if not (p.pawns | p.rooks | p.queens) and b.is_insufficient_material():
        st = S_DRAW  # no mate is possible, so this is no mate either
    elif halfmove >= 4 and s.parent is not None and _repeated(s, halfmove):
        st = S_DRAW  # a repeated position was not a mate the first time
    else:
        moves = s._moves
        if moves is not None:
            any_move = len(moves) > 0
        else:
            any_move = _has_legal_move(s, &p)
        if not any_move:
            st = S_MATED if _in_check(s, &p) else S_DRAW
        elif halfmove >= 100:
            st = S_DRAW
        else:
            st = S_ONGOING
    s._status = st
    return st


def compute_status(s):
    """``status.compute_status``: -1 unknown, 0 ongoing, 1 mated, 2 drawn."""
    return _status(s)


def terminal_utility(state, int player):
    """``status.terminal_utility``: None while the game goes on."""
    cdef int st = state._status
    if st == S_UNKNOWN:
        st = _status(state)
    if st == S_ONGOING:
        return None
    if st == S_MATED:
        return MATE_LOSS if state.player == player else MATE_WIN
    return ZERO


def in_check(state):
    """``status.in_check``."""
    cdef Pos p
    if state._check == -1:
        _read(state.board, &p)
        return _in_check(state, &p)
    return state._check == 1


def noisy_actions(state):
    """``movegen.noisy_actions`` as a list: every evasion when in check, else the
    captures and queen/knight promotions without the losing captures (``noisy_moves``)."""
    moves = state._moves
    if moves is not None and state._check == 1:
        return moves
    cdef Pos p
    cdef int ksq
    cdef u64 checkers, pinned
    _read(state.board, &p)
    cp = state._cp
    if cp is None:
        _checkers_pinned(&p, &ksq, &checkers, &pinned)
        cp = (ksq, checkers, pinned)
        state._cp = cp
    else:
        ksq, checkers, pinned = cp
    if checkers:
        return _state_moves(state, cp)
    state._check = 0
    return _noisy_list(&p, ksq, pinned)
