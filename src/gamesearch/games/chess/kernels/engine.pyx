# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled twin of the library's ``id`` search for chess: :mod:`gamesearch.search.negamax`
(:class:`~gamesearch.search.negamax.Negamax`) with chess's engine settings, over a C board.

What it is the twin of, piece by piece (each follows its Python reference line by line and
gives the same integers, the same moves in the same order, the same node counts):

* the board (:c:type:`Node`): the python-chess bitboards as C integers, side to move,
  castling rights, en-passant square, half-move clock, Polyglot key, the running
  material-and-placement scores and the game phase of ``board.ChessState``; the make-move
  :c:func:`make` is ``board.result`` (copy-make: a child is the parent's struct changed by
  the move, no Python object per node), :c:func:`make_null` is ``board.null_result``;
* the repetition history: the keys of the states the search came through and of the game
  before the root, with whether each is at or after the search root and where its chain of
  parents begins (a null move starts a new chain, as ``null_result``'s state has no
  parent), so that :c:func:`repeated` is ``status.repeated`` exactly, the
  first-repetition-after-root rule and the pre-root history included;
* move generation, SEE, the quiescence moves and the legal-move test are ``compiled.pyx``'s
  C functions (this module includes that source, so that the C compiler inlines them into
  the search; the extension therefore also carries the kernels' Python functions, unused
  here); ``Engine.status`` is ``status.compute_status`` (insufficient material as
  python-chess judges it, repetition, mate, stalemate, the fifty-move rule);
* the evaluation and its lazy estimate: ``evaluation.evaluate`` and ``quick_evaluate``,
  with the weights ``backend.py`` hands to ``init_eval``/``init_result`` (never written
  here), and the game's evaluation cache as :class:`EvalCache`: a table keyed by the whole
  64-bit key, emptied when it holds ``EVAL_CACHE_SIZE`` entries, as the dict is (the lazy
  estimate's margin is 0 for a cached position, so the cache decides nodes);
* the search (:class:`Engine`): ``Negamax.search_root``, ``_root_order``, ``_root_loop``
  and the kernel's ``negamax``, ``quiesce``, ``null_move_cutoff``, ``futility_bound`` and
  ``ordered``: PVS, the transposition table with bounds and the mate-distance adjustment,
  the table move, killers and history (kept between searches, halved by ``new_search``),
  null move, futility and reverse futility, late-move reductions (fixed, or from the
  ``lmr_reductions()`` table with the history adjustment), late-move pruning, static
  exchange pruning (``_exchange`` is ``ChessGame.exchange``), internal iterative
  reductions, the check extension, quiescence with lazy evaluation, the same node counting
  and statistics. The table is an
  open-addressing table keyed by the whole 64-bit key, emptied when a new key finds it
  holding ``size`` entries: it behaves as ``search.tt.TranspositionTable`` (a dict) does.

The iteration driver stays in Python (``Negamax.iteration``: aspiration, the previous best
move); this module searches one root window. The clock is Python's: the search calls
``clock.check(nodes)`` at the same node counts as the Python search, so node limits, the
hard deadline and the stop event act at the same nodes, and its ``SearchTimeout`` ends the
search as it ends the Python one (the root's last improvement is kept for the partial
result).

The search's parameters come from ``Negamax`` when it makes the engine (the win discount,
the futility margins, the late-move-reduction move numbers, the options); only the sizes
of the per-ply arrays are written here (``MAXPLY``, as ``negamax.MAX_PLIES``).

Departures: the values are C doubles, so a value the Python search returns as an int (an
evaluation) comes back as the equal float; the principal variations are copied into a
triangular table instead of shared cons cells (the same moves); a line deeper than
``MAXPLY`` plies ends in quiescence, then stands pat (the Python search would fail on its
per-ply arrays there: no search reaches it). Options the twin does not
implement (no table, ``tt_move=0``, Pons's safe moves, value bounds, an endgame database,
distance bounds, another evaluation) are the Python search's alone: ``Negamax`` uses the
twin only when none of them is asked for.
"""

include "compiled.pyx"

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.math cimport nextafter, INFINITY

cdef enum:
    MAXPLY = 1024          # search.negamax.MAX_PLIES
    MAXHIST = 4096         # keys of the game before the root that repetitions may reach
    NO_MOVE = -1
    CODES = 4096 * 6       # move codes: from * 64 + to + 4096 * promotion
    T_EXACT = 0
    T_LOWER = 1
    T_UPPER = 2
    LMP_DEPTH = 3          # search.negamax.LMP_DEPTH
    IIR_DEPTH = 4          # search.negamax.IIR_DEPTH
    SEE_DEPTH = 5          # search.negamax.SEE_DEPTH
    LMR_N = 64             # search.negamax.LMR_TABLE_SIZE

cdef int UNLIMITED_D = 1 << 30   # a table depth: searched to the end (search.tt.UNLIMITED)
cdef double INF = INFINITY
cdef u64 DARK_SQ = 0, LIGHT_SQ = 0
cdef double LAZY_MARGIN_C = 0.0


def init_engine():
    """Read what the engine needs beyond the kernels' tables (after ``init_eval``)."""
    global DARK_SQ, LIGHT_SQ, LAZY_MARGIN_C
    DARK_SQ = _chess.BB_DARK_SQUARES
    LIGHT_SQ = _chess.BB_LIGHT_SQUARES
    LAZY_MARGIN_C = float(LAZY_MARGIN_O)


# ----- the board ------------------------------------------------------------------------
cdef struct Node:
    Pos pos        # bitboards, us/them (side to move first), occupancy, turn, ep, castling
    u64 key        # Polyglot key (board.ChessState.key)
    long mg, eg    # material + piece-square scores (White's view)
    int phase
    int halfmove
    # the king square, checkers and pinned pieces of the side to move, once known
    bint cp_known
    int ksq
    u64 checkers, pinned


cdef inline void _cp(Node* s) noexcept nogil:
    """Work out the node's king square, checkers and pins (once)."""
    if not s.cp_known:
        _checkers_pinned(&s.pos, &s.ksq, &s.checkers, &s.pinned)
        s.cp_known = True


cdef inline bint _gives_check(Node* c) noexcept nogil:
    """Whether the move into ``c`` gives check (the side to move in ``c`` is checked)."""
    _cp(c)
    return c.checkers != 0


cdef inline u64 _ep_z(Pos* p) noexcept nogil:
    """``board.ep_z``: the en-passant part of the key."""
    if p.ep >= 0 and PAWN_ATT[1 - p.turn][p.ep] & p.pawns & p.us:
        return Z_EP_C[p.ep & 7]
    return 0


cdef inline u64* _bb(Pos* p, int pt) noexcept nogil:
    if pt == PAWN:
        return &p.pawns
    if pt == KNIGHT:
        return &p.knights
    if pt == BISHOP:
        return &p.bishops
    if pt == ROOK:
        return &p.rooks
    if pt == QUEEN:
        return &p.queens
    return &p.kings


cdef void make(Node* s, Node* c, int code) noexcept nogil:
    """``board.result``: ``c`` is ``s`` after the legal move ``code``."""
    cdef Pos* p = &s.pos
    cdef Pos* n = &c.pos
    cdef int turn = p.turn
    cdef int frm = (code >> 6) & 63, to = code & 63, promotion = code >> 12
    cdef u64 fbb = bit(frm), tbb = bit(to)
    cdef int ci = turn, oc = 1 - turn
    cdef u64 us = p.us, them = p.them
    cdef int pt = _piece_at(p, fbb)
    cdef int newpt = promotion if promotion else pt
    cdef int cpt, cap, rf, rt, ep
    cdef u64 cbb, rbb, rights, new_rights
    n[0] = p[0]
    c.key = s.key ^ ZOB[ci][pt][frm] ^ ZOB[ci][newpt][to] ^ Z_TURN_C
    c.mg = s.mg - MGT[ci][pt][frm] + MGT[ci][newpt][to]
    c.eg = s.eg - EGT[ci][pt][frm] + EGT[ci][newpt][to]
    c.phase = s.phase
    c.halfmove = s.halfmove + 1
    if them & tbb:
        cpt = _piece_at(p, tbb)
        _bb(n, cpt)[0] ^= tbb
        them ^= tbb
        c.key ^= ZOB[oc][cpt][to]
        c.mg -= MGT[oc][cpt][to]
        c.eg -= EGT[oc][cpt][to]
        c.phase -= PHASE_W[cpt]
        c.halfmove = 0
    elif pt == PAWN and to == p.ep and (to - frm) & 7:
        cap = to - 8 if turn else to + 8
        cbb = bit(cap)
        n.pawns ^= cbb
        them ^= cbb
        c.key ^= ZOB[oc][PAWN][cap]
        c.mg -= MGT[oc][PAWN][cap]
        c.eg -= EGT[oc][PAWN][cap]
    _bb(n, pt)[0] ^= fbb
    _bb(n, newpt)[0] |= tbb
    us = (us ^ fbb) | tbb
    if pt == PAWN:
        c.halfmove = 0
        if newpt != PAWN:
            c.phase += PHASE_W[newpt]
    elif pt == KING and (to - frm == 2 or frm - to == 2):
        if to > frm:
            rf = frm + 3
            rt = frm + 1
        else:
            rf = frm - 4
            rt = frm - 1
        rbb = bit(rf) | bit(rt)
        n.rooks ^= rbb
        us ^= rbb
        c.key ^= ZOB[ci][ROOK][rf] ^ ZOB[ci][ROOK][rt]
        c.mg += MGT[ci][ROOK][rt] - MGT[ci][ROOK][rf]
        c.eg += EGT[ci][ROOK][rt] - EGT[ci][ROOK][rf]
    rights = p.castling
    if rights:
        new_rights = rights & ~(fbb | tbb)
        if pt == KING:
            new_rights &= ~(RANK_1 if turn else RANK_8)
        if new_rights != rights:
            c.key ^= ZCAST[_corner_index(rights)] ^ ZCAST[_corner_index(new_rights)]
        n.castling = new_rights
    c.key ^= _ep_z(p)  # the parent's en-passant file
    ep = -1
    if pt == PAWN and (to - frm == 16 or frm - to == 16):
        ep = (frm + to) >> 1
        if PAWN_ATT[turn][ep] & n.pawns & them:
            c.key ^= Z_EP_C[ep & 7]
    n.ep = ep
    n.turn = 1 - turn
    n.us = them
    n.them = us
    n.occ = us | them
    c.cp_known = False


cdef inline void make_null(Node* s, Node* c) noexcept nogil:
    """``board.null_result``: the side to move passes."""
    c[0] = s[0]
    c.key = s.key ^ Z_TURN_C ^ _ep_z(&s.pos)
    c.pos.turn = 1 - s.pos.turn
    c.pos.ep = -1
    c.pos.us = s.pos.them
    c.pos.them = s.pos.us
    c.cp_known = False


cdef void read_board(object b, Node* n) except *:
    _read(b, &n.pos)
    n.halfmove = b.halfmove_clock
    n.cp_known = False


# ----- the terminal test ------------------------------------------------------------------
cdef inline bint _side_insufficient(Pos* p, u64 own, u64 other) noexcept nogil:
    """python-chess's ``Board.has_insufficient_material`` for the side ``own``."""
    if own & (p.pawns | p.rooks | p.queens):
        return False
    if own & p.knights:
        return gs_popcount(own) <= 2 and not (other & ~p.kings & ~p.queens)
    if own & p.bishops:
        return ((not (p.bishops & DARK_SQ) or not (p.bishops & LIGHT_SQ))
                and not p.pawns and not p.knights)
    return True


cdef inline bint _checked(Pos* p) noexcept nogil:
    return _attackers(p, gs_msb(p.kings & p.us), p.occ, p.them, p.turn) != 0


cdef int _legal(Pos* p, bint noisy, int ksq, u64 checkers, u64 pinned, int* out) noexcept nogil:
    """``movegen.generate_moves``: the legal moves (all, or the noisy ones) in search
    order as codes; returns their number."""
    cdef MoveList caps, quiet, promos
    cdef int i, n = 0
    _generate(p, noisy, ksq, checkers, pinned, &caps, &quiet, &promos)
    if caps.n > 1:
        _sort_desc(&caps)
    for i in range(caps.n):
        out[n] = caps.code[i]
        n += 1
    if promos.n:
        _sort_desc(&promos)
        for i in range(promos.n):
            if promos.value[i] >= 0:
                out[n] = promos.code[i]
                n += 1
    for i in range(quiet.n):
        out[n] = quiet.code[i]
        n += 1
    for i in range(promos.n):
        if promos.value[i] < 0:
            out[n] = promos.code[i]
            n += 1
    return n


cdef int _noisy(Node* s, int* out) noexcept nogil:
    """``movegen.noisy_actions``: every evasion in check, else the captures and queen and
    knight promotions without those that lose material by SEE (``_noisy_list``)."""
    cdef Pos* p = &s.pos
    cdef int i, v, code, to, n = 0
    cdef u64 their_pawns, white
    cdef MoveList caps, quiet, promos
    _cp(s)
    if s.checkers:
        return _legal(p, False, s.ksq, s.checkers, s.pinned, out)
    _generate(p, True, s.ksq, 0, s.pinned, &caps, &quiet, &promos)
    if caps.n > 1:
        _sort_desc(&caps)
    if promos.n > 1:
        _sort_desc(&promos)
    their_pawns = p.pawns & p.them
    white = _white(p)
    for i in range(caps.n):
        v = caps.value[i]
        code = caps.code[i]
        if _see_needed(v):
            to = code & 63
            if PAWN_ATT[p.turn][to] & their_pawns:
                continue
            if _see(p, white, (code & 4095) >> 6, to, code >> 12) < 0:
                continue
        out[n] = code
        n += 1
    for i in range(promos.n):
        out[n] = promos.code[i]
        n += 1
    return n


cdef inline double _exchange(Pos* p, int code) noexcept nogil:
    """``ChessGame.exchange``: SEE, less the pawn ``_see`` counts on an empty target
    square (not en passant)."""
    cdef int frm = (code & 4095) >> 6, to = code & 63
    cdef int v = _see(p, _white(p), frm, to, code >> 12)
    if not (p.occ & bit(to)) and not (to == p.ep and (p.pawns & bit(frm))):
        v -= SEE_VALUE[PAWN]
    return v


cdef inline bint _is_noisy(Pos* p, int code) noexcept nogil:
    """``ChessGame.is_noisy``: a capture (en passant included) or a promotion."""
    cdef int to = code & 63
    if code >= 4096:
        return True
    if p.them & bit(to):
        return True
    return to == p.ep and (p.pawns & bit((code >> 6) & 63)) != 0


# ----- the evaluation -----------------------------------------------------------------------
cdef long _pawn_king(Pos* p, long* eg_out) noexcept nogil:
    """``evaluation.pawn_king_terms`` (the pawn table of ``_pawn_king_terms``)."""
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
    eg_out[0] = e.eg
    return e.mg


cdef long _eval_white(Node* s) noexcept nogil:
    """``evaluation.evaluate_board``: White's view, before the tempo bonus."""
    cdef Pos* p = &s.pos
    cdef long peg
    cdef long pmg = _pawn_king(p, &peg)
    cdef int phase = s.phase
    cdef u64 white = _white(p)
    cdef u64 black = p.occ & ~white
    cdef u64 occ = p.occ
    cdef u64 wp = p.pawns & white, bp = p.pawns & black
    cdef u64 w_free = ~(white | ((bp & ~FILE_A) >> 9) | ((bp & ~FILE_H) >> 7))
    cdef u64 b_free = ~(black | ((wp & ~FILE_A) << 7) | ((wp & ~FILE_H) << 9))
    cdef u64 wb = p.bishops & white, bb = p.bishops & black
    cdef long mg, eg, v
    cdef long nk = _mobility(p.knights, KNIGHT, 4, occ, white, black, w_free, b_free)
    cdef long nb = _mobility(p.bishops, BISHOP, 6, occ, white, black, w_free, b_free)
    cdef long nr = _mobility(p.rooks, ROOK, 7, occ, white, black, w_free, b_free)
    cdef long nq = _mobility(p.queens, QUEEN, 13, occ, white, black, w_free, b_free)
    mg = s.mg + pmg + 4 * nk
    eg = s.eg + peg + 4 * nk
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
    return v // 24 if v >= 0 else -((-v) // 24)


cdef long _quick_white(Node* s) noexcept nogil:
    """``evaluation.quick_evaluate``'s estimate, White's view, before the tempo bonus."""
    cdef long peg
    cdef long pmg = _pawn_king(&s.pos, &peg)
    cdef long phase = s.phase
    if phase > 24:
        phase = 24
    cdef long w = (s.mg + pmg) * phase + (s.eg + peg) * (24 - phase)
    return w // 24 if w >= 0 else -((-w) // 24)


cdef struct EvalSlot:
    u64 key
    int value
    int used


cdef class EvalCache:
    """The game's evaluation cache (``ChessGame._eval_cache``): evaluations by whole key,
    side to move's view; emptied when it holds ``size`` entries and a new one comes."""
    cdef EvalSlot* slots
    cdef u64 mask
    cdef Py_ssize_t size, count

    def __cinit__(self, Py_ssize_t size):
        cdef u64 cap = 1
        while cap < <u64>(2 * size):
            cap <<= 1
        self.slots = <EvalSlot*>calloc(cap, sizeof(EvalSlot))
        if self.slots == NULL:
            raise MemoryError
        self.mask = cap - 1
        self.size = size
        self.count = 0

    def __dealloc__(self):
        free(self.slots)

    def __len__(self):
        return self.count

    def clear(self):
        self._clear()

    cdef void _clear(self) noexcept nogil:
        memset(self.slots, 0, (self.mask + 1) * sizeof(EvalSlot))
        self.count = 0

    cdef inline EvalSlot* find(self, u64 key) noexcept nogil:
        """The slot of ``key``, or the empty slot where it would go."""
        cdef u64 i = (key ^ (key >> 29)) & self.mask
        cdef EvalSlot* e
        while True:
            e = &self.slots[i]
            if not e.used or e.key == key:
                return e
            i = (i + 1) & self.mask


cdef inline int _evaluate(EvalCache cache, Node* s) noexcept:
    """``evaluation.evaluate`` for the side to move, through the cache."""
    cdef EvalSlot* e = cache.find(s.key)
    cdef long w
    if e.used:
        return e.value
    w = _eval_white(s)
    w = _clamp(w + TEMPO_C if s.pos.turn else -w + TEMPO_C)
    if cache.count >= cache.size:
        cache._clear()
        e = cache.find(s.key)
    e.used = 1
    e.key = s.key
    e.value = <int>w
    cache.count += 1
    return <int>w


cdef inline double _quick(EvalCache cache, Node* s, double* margin) noexcept:
    """``evaluation.quick_evaluate`` for the side to move: the estimate, and its margin."""
    cdef EvalSlot* e = cache.find(s.key)
    cdef long w
    if e.used:
        margin[0] = 0.0
        return e.value
    w = _quick_white(s)
    margin[0] = LAZY_MARGIN_C
    return _clamp(w + TEMPO_C if s.pos.turn else -w + TEMPO_C)


# ----- the transposition table ----------------------------------------------------------------
cdef struct TTSlot:
    u64 key
    double value
    int depth
    int move      # NO_MOVE: none
    signed char flag
    signed char used


cdef Py_ssize_t _table_slots(Py_ssize_t size) noexcept:
    """The slots of a :class:`Table` of ``size`` entries: a power of two, a load of at most
    2/3, with room for the entries that nodes store after the table was emptied under them
    (at most one per ply on the stack) beyond ``size``."""
    cdef Py_ssize_t cap = 1
    while cap < size + size // 2 + 2 * MAXPLY:
        cap <<= 1
    return cap


cdef class Table:
    """``search.tt.TranspositionTable``: ``(depth, flag, value, move)`` by whole key, at
    most ``size`` keys, emptied when a new key comes to a full table."""
    cdef TTSlot* slots
    cdef u64 mask
    cdef readonly Py_ssize_t size, count
    cdef readonly long resets

    def __cinit__(self, Py_ssize_t size):
        cdef u64 cap = _table_slots(size)
        self.slots = <TTSlot*>calloc(cap, sizeof(TTSlot))
        if self.slots == NULL:
            raise MemoryError
        self.mask = cap - 1
        self.size = size
        self.count = 0
        self.resets = 0

    def __dealloc__(self):
        free(self.slots)

    def __len__(self):
        return self.count

    def clear(self):
        self._clear()

    cdef void _clear(self) noexcept nogil:
        memset(self.slots, 0, (self.mask + 1) * sizeof(TTSlot))
        self.count = 0

    def fill(self):
        return self.count / self.size

    @property
    def nbytes(self):
        """The memory of the table's slots, in bytes."""
        return (self.mask + 1) * sizeof(TTSlot)

    cdef inline TTSlot* find(self, u64 key) noexcept nogil:
        cdef u64 i = (key ^ (key >> 31)) & self.mask
        cdef TTSlot* e
        while True:
            e = &self.slots[i]
            if not e.used or e.key == key:
                return e
            i = (i + 1) & self.mask

    cdef inline TTSlot* probe(self, u64 key) noexcept nogil:
        cdef TTSlot* e = self.find(key)
        return e if e.used else NULL

    cdef void store(self, u64 key, int depth, int flag, double value, int move,
                    bint seen, int seen_depth) noexcept:
        """``TranspositionTable.store`` (``seen``: the probe of the node found an entry,
        of ``seen_depth``)."""
        cdef TTSlot* e
        if not seen:
            if self.count >= self.size:
                self._clear()
                self.resets += 1
        elif seen_depth > depth:
            return
        e = self.find(key)
        if not e.used:
            e.used = 1
            e.key = key
            self.count += 1
        e.depth = depth
        e.flag = flag
        e.value = value
        e.move = move


def table_entries(Py_ssize_t nbytes):
    """The largest table size (a power of two, as ``search.tt`` sizes are; at least 1,024)
    whose :class:`Table` fits in ``nbytes`` bytes. UCI's ``Hash`` is a size in bytes:
    this is its number of entries."""
    cdef Py_ssize_t size = 1024
    while _table_slots(2 * size) * <Py_ssize_t>sizeof(TTSlot) <= nbytes:
        size *= 2
    return size


cdef inline double to_table(double v, int ply, double threshold, double step) noexcept nogil:
    if v > threshold:
        return v + ply * step
    if v < -threshold:
        return v - ply * step
    return v


cdef inline double from_table(double v, int ply, double threshold, double step) noexcept nogil:
    if v > threshold:
        return v - ply * step
    if v < -threshold:
        return v + ply * step
    return v


cdef inline int move_code(object m) except -2:
    if m is None:
        return NO_MOVE
    promotion = m.promotion
    return m.from_square * 64 + m.to_square + (0 if promotion is None else 4096 * promotion)


# ----- the search -----------------------------------------------------------------------------
# -7.25e300: returned while a SearchTimeout propagates (never a value)


cdef class Engine:
    """One searcher's compiled search: its transposition table, killers and history (kept
    between searches like ``Negamax``'s), over the game's :class:`EvalCache`.

    ``step``, ``threshold`` and ``maxu``: the win discount per ply, the threshold of win
    scores and the mate utility (``Negamax.win_step``, ``win_threshold``,
    ``max_utility``); ``margins``: the futility margins by depth (empty: off);
    ``lmr_full`` and ``lmr_deep``: ``negamax.LMR_FULL_MOVES`` and ``LMR_DEEP_MOVES``; the
    flags are ``Negamax``'s options of the same names."""

    cdef readonly Table table
    cdef EvalCache cache
    cdef double step, threshold, maxu
    cdef double margins[8]
    cdef int futility_depth, lmr_full, lmr_deep
    cdef bint pvs, use_killers, use_history, use_null, use_lmr, use_check_ext, prunes
    cdef bint use_lmr_table, use_lmp, use_iir, use_see, noisy_first
    cdef double see_quiet, see_noisy     # exchange_margins
    cdef int lmr_r[LMR_N * LMR_N]      # the reduction table (``lmr_reductions()``)
    cdef int killers[MAXPLY][2]
    cdef long long history[2][CODES]
    cdef bint history_used[2]
    # the search's stacks, by ply
    cdef Node nodes[MAXPLY + 2]
    cdef int* moves                    # MAXPLY * MAX_MOVES codes
    cdef int* pv                       # MAXPLY * MAXPLY: pv[ply] the line from ply
    cdef int pvlen[MAXPLY + 2]
    cdef bint nulled[MAXPLY + 2]
    # repetitions: keys by position index (the game before the root, then by ply)
    cdef u64 hkey[MAXHIST + MAXPLY + 2]
    cdef bint hroot[MAXHIST + MAXPLY + 2]
    cdef int hstart[MAXHIST + MAXPLY + 2]
    cdef int base                      # the root's index
    # one root search
    cdef object clock
    cdef long long next_check
    cdef bint horizon
    cdef readonly long long n_nodes, cutoffs, tt_hits, reductions, re_searches
    cdef readonly long long futility_prunes, reverse_futility_prunes, late_move_prunes
    cdef readonly long long exchange_prunes
    cdef readonly int seldepth
    cdef int root_moves[MAX_MOVES]
    cdef int root_line[MAXPLY + 1]
    cdef int root_len, root_move
    cdef double root_best

    def __cinit__(self, Py_ssize_t tt_size, EvalCache cache, double step, double threshold,
                  double maxu, margins, int lmr_full=3, int lmr_deep=8, bint pvs=True,
                  bint killers=True, bint history=True, bint null_move=True, bint lmr=True,
                  bint check_extension=True, lmr_reductions=(), bint lmp=False,
                  bint iir=False, exchange_margins=(), bint noisy_first=False):
        cdef int i
        self.table = Table(tt_size)
        self.cache = cache
        self.step = step
        self.threshold = threshold
        self.maxu = maxu
        margins = tuple(margins)
        if len(margins) > 8:
            raise ValueError("at most 8 futility margins")
        self.futility_depth = len(margins)
        for i in range(len(margins)):
            self.margins[i] = margins[i]
        self.lmr_full = lmr_full
        self.lmr_deep = lmr_deep
        self.pvs = pvs
        self.use_killers = killers
        self.use_history = history
        self.use_null = null_move
        self.use_lmr = lmr
        self.use_check_ext = check_extension
        lmr_reductions = tuple(lmr_reductions)
        if lmr_reductions and len(lmr_reductions) != LMR_N * LMR_N:
            raise ValueError(f"the reduction table has {LMR_N} x {LMR_N} entries")
        self.use_lmr_table = lmr and len(lmr_reductions) > 0
        for i in range(len(lmr_reductions)):
            self.lmr_r[i] = lmr_reductions[i]
        self.use_lmp = lmp
        self.use_iir = iir
        self.noisy_first = noisy_first
        exchange_margins = tuple(exchange_margins)
        if exchange_margins and len(exchange_margins) != 2:
            raise ValueError("exchange_margins: (quiet, noisy)")
        self.use_see = len(exchange_margins) == 2
        self.see_quiet = exchange_margins[0] if self.use_see else 0.0
        self.see_noisy = exchange_margins[1] if self.use_see else 0.0
        self.prunes = null_move or self.futility_depth > 0 or lmr or lmp or self.use_see
        self.moves = <int*>malloc(MAXPLY * MAX_MOVES * sizeof(int))
        self.pv = <int*>malloc(MAXPLY * MAXPLY * sizeof(int))
        if self.moves == NULL or self.pv == NULL:
            raise MemoryError
        for i in range(MAXPLY):
            self.killers[i][0] = self.killers[i][1] = NO_MOVE
        memset(self.history, 0, sizeof(self.history))
        self.history_used[0] = self.history_used[1] = False
        self.n_nodes = 0
        self._zero_stats()

    def __dealloc__(self):
        free(self.moves)
        free(self.pv)

    cdef void _zero_stats(self) noexcept:
        self.n_nodes = self.cutoffs = self.tt_hits = self.reductions = self.re_searches = 0
        self.futility_prunes = self.reverse_futility_prunes = self.late_move_prunes = 0
        self.exchange_prunes = 0
        self.seldepth = 0

    def take_stats(self):
        """``(nodes, cutoffs, tt_hits, reductions, re_searches, futility_prunes,
        reverse_futility_prunes, seldepth, late_move_prunes, exchange_prunes)`` since the
        last call (the kernel's ``flush``)."""
        out = (self.n_nodes, self.cutoffs, self.tt_hits, self.reductions, self.re_searches,
               self.futility_prunes, self.reverse_futility_prunes, self.seldepth,
               self.late_move_prunes, self.exchange_prunes)
        self._zero_stats()
        return out

    def new_search(self):
        """``Negamax.new_search``: the killers forgotten, the history halved."""
        cdef int i, c
        cdef long long h
        for i in range(MAXPLY):
            self.killers[i][0] = self.killers[i][1] = NO_MOVE
        for c in range(2):
            for i in range(CODES):
                h = self.history[c][i]
                if h:
                    self.history[c][i] = -((-h) >> 1)

    def partial(self):
        """The root's last improvement in the search that timed out: ``(value, move,
        pv)``, or None."""
        if self.root_move == NO_MOVE:
            return None
        return (self.root_best, _move(self.root_move),
                [_move(self.root_line[i]) for i in range(self.root_len)])

    # ----- bookkeeping ------------------------------------------------------------------
    cdef inline int count_node(self) except -1:
        self.n_nodes += 1
        if self.n_nodes >= self.next_check:
            self.next_check = self.clock.check(self.n_nodes)
        return 0

    cdef inline void set_line(self, int ply, int move) noexcept nogil:
        """``lines[ply] = (move, lines[ply + 1])``."""
        cdef int n = self.pvlen[ply + 1]
        cdef int* dst = &self.pv[ply * MAXPLY]
        if n > MAXPLY - 1 - ply:
            n = MAXPLY - 1 - ply
        dst[0] = move
        if n > 0:
            memcpy(dst + 1, &self.pv[(ply + 1) * MAXPLY], n * sizeof(int))
        self.pvlen[ply] = n + 1

    cdef bint repeated(self, int idx, int left) noexcept nogil:
        """``status.repeated`` of the position at index ``idx``."""
        cdef u64 key = self.hkey[idx]
        cdef int count = 0, i = 1, j = idx - 1, start = self.hstart[idx]
        while j >= start and i <= left:
            if i >= 4 and self.hkey[j] == key:
                if self.hroot[j]:
                    return True
                count += 1
                if count >= 2:
                    return True
            j -= 1
            i += 1
        return False

    cdef int status(self, int ply, bint* check) noexcept nogil:
        """``status.compute_status`` of the node at ``ply`` (S_ONGOING, S_MATED, S_DRAW);
        ``check`` set when the terminal test found whether the side to move is in check."""
        cdef Node* s = &self.nodes[ply]
        cdef Pos* p = &s.pos
        cdef int idx = self.base + ply
        cdef bint any_move
        cdef int buf[MAX_MOVES]
        if not (p.pawns | p.rooks | p.queens) and _side_insufficient(p, p.us, p.them) \
                and _side_insufficient(p, p.them, p.us):
            return S_DRAW
        if s.halfmove >= 4 and self.hstart[idx] < idx and self.repeated(idx, s.halfmove):
            return S_DRAW
        _cp(s)
        check[0] = s.checkers != 0
        if not s.checkers and _free_move(p, s.pinned):
            any_move = True
        else:
            any_move = _legal(p, False, s.ksq, s.checkers, s.pinned, buf) > 0
        if not any_move:
            return S_MATED if s.checkers else S_DRAW
        if s.halfmove >= 100:
            return S_DRAW
        return S_ONGOING

    cdef inline void push_child(self, int ply, bint null) noexcept nogil:
        """Record the node at ``ply`` (just made) in the repetition history."""
        cdef int idx = self.base + ply
        self.hkey[idx] = self.nodes[ply].key
        self.hroot[idx] = True
        self.hstart[idx] = idx if null else self.hstart[idx - 1]

    cdef int order(self, int ply, int p, int* mv, int n, int tt_move) noexcept nogil:
        """``Negamax._make_order``'s ``ordered``: the game's order (already the generation
        order), the history (stable), then the table move and the killers in front; with
        ``noisy_first`` the noisy moves first (stable), the history on the quiet ones only,
        and the killers after the noisy moves."""
        cdef int i, j, k, m, front = 0, ki, loud = 0, nq = 0
        cdef long long* h
        cdef long long hv
        cdef int quiet[MAX_MOVES]
        cdef Pos* pos = &self.nodes[ply].pos
        if self.noisy_first:
            for i in range(n):  # stable partition: the noisy moves, then the quiet ones
                if _is_noisy(pos, mv[i]):
                    mv[loud] = mv[i]
                    loud += 1
                else:
                    quiet[nq] = mv[i]
                    nq += 1
            for i in range(nq):
                mv[loud + i] = quiet[i]
        if self.use_history and self.history_used[p]:
            h = self.history[p]
            for i in range(loud + 1, n):  # stable insertion sort, lowest (best) first
                m = mv[i]
                hv = h[m]
                j = i - 1
                while j >= loud and h[mv[j]] > hv:
                    mv[j + 1] = mv[j]
                    j -= 1
                mv[j + 1] = m
        if tt_move != NO_MOVE:
            for i in range(n):
                if mv[i] == tt_move:
                    if i < loud:
                        loud -= 1
                    for j in range(i, 0, -1):
                        mv[j] = mv[j - 1]
                    mv[0] = tt_move
                    front = 1
                    break
        front += loud  # (noisy_first: the killers come after the noisy moves)
        if self.use_killers:
            for ki in range(2):
                k = self.killers[ply][ki]
                if k == NO_MOVE or k == tt_move or (self.noisy_first and _is_noisy(pos, k)):
                    continue
                for i in range(n):
                    if mv[i] == k:
                        for j in range(i, front, -1):
                            mv[j] = mv[j - 1]
                        mv[front] = k
                        front += 1
                        break
        return n

    # ----- quiescence -------------------------------------------------------------------
    cdef double quiesce(self, double alpha, double beta, int ply) except? -7.25e300:
        """The kernel's ``quiesce``: stand pat (lazily), then the noisy moves."""
        cdef Node* s = &self.nodes[ply]
        cdef double best, q, m, stand, v, u
        cdef int i, n, a, st
        cdef int* mv
        cdef bint check
        if ply > self.seldepth:
            self.seldepth = ply
        self.pvlen[ply] = 0
        _cp(s)
        if s.checkers:
            best = -INF
        else:
            q = _quick(self.cache, s, &m)
            if q - m >= beta:
                return q - m
            if q + m <= alpha:
                stand = q + m
            elif m:
                stand = _evaluate(self.cache, s)
            else:
                stand = q
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
        if ply + 1 >= MAXPLY:
            return best if best > -INF else 0.0
        mv = &self.moves[ply * MAX_MOVES]
        n = _noisy(s, mv)
        for i in range(n):
            a = mv[i]
            make(s, &self.nodes[ply + 1], a)
            self.push_child(ply + 1, False)
            self.count_node()
            st = self.status(ply + 1, &check)
            if st != S_ONGOING:
                if st == S_MATED:
                    u = -self.maxu + (ply + 1) * self.step  # the child is mated
                    v = -u
                else:
                    v = 0.0
                self.pvlen[ply + 1] = 0
            else:
                v = -self.quiesce(-beta, -alpha, ply + 1)
            if v > best:
                best = v
                self.set_line(ply, a)
                if v > alpha:
                    alpha = v
                if v >= beta:
                    break
        return best

    # ----- the pruning rules ------------------------------------------------------------
    cdef double null_move_cutoff(self, double beta, int d, int ply, bint* cut) except? -7.25e300:
        """The kernel's ``null_move_cutoff``: the node's value when passing still fails
        high on the reduced search (``cut`` set), else nothing."""
        cdef double v
        cdef int r = 3 if d >= 6 else 2
        cdef int dd = d - 1 - r
        make_null(&self.nodes[ply], &self.nodes[ply + 1])
        self.push_child(ply + 1, True)
        self.nulled[ply + 1] = True
        v = -self.negamax(-beta, -nextafter(beta, -INF), dd if dd > 0 else 0, ply + 1)
        self.nulled[ply + 1] = False
        if v >= beta:
            self.horizon = True
            self.pvlen[ply] = 0
            cut[0] = True
            return beta if v > self.threshold else v
        cut[0] = False
        return 0.0

    # ----- the node -----------------------------------------------------------------------
    cdef double negamax(self, double alpha, double beta, int d, int ply) except? -7.25e300:
        """The kernel's ``negamax`` (see its docstring): fail-soft, the node at ``ply``
        (made by the caller) searched ``d`` plies deep."""
        cdef Node* s = &self.nodes[ply]
        cdef Node* c
        cdef int st, n, i, a, searched, r, lmp_count, p = 1 - s.pos.turn
        cdef int tt_move = NO_MOVE, best_move = NO_MOVE, seen_depth = 0, depth_stored, flag
        cdef bint check = False, checked, bounded = False, seen = False, zero_window
        cdef bint futile = False, first = True, lmr_node, outer_horizon, prune, quiet
        cdef bint cut, exact_to_end, late_pruned = False, see_node, see_test, late
        cdef double v, best, alpha_orig, fut_value = -INF, q, m, low, high, margin
        cdef TTSlot* e
        cdef int* mv
        self.count_node()
        st = self.status(ply, &check)
        if st != S_ONGOING:
            self.pvlen[ply] = 0
            if st == S_MATED:
                return -self.maxu + ply * self.step
            return 0.0
        checked = self.use_check_ext and ply < 200 and check
        if checked:
            d += 1
        if d == 0 or ply + 1 >= MAXPLY:
            self.horizon = True
            return self.quiesce(alpha, beta, ply)
        e = self.table.probe(s.key)
        if e != NULL:
            seen = True
            seen_depth = e.depth
            tt_move = e.move
            if e.depth >= d:
                bounded = e.depth < UNLIMITED_D
                v = from_table(e.value, ply, self.threshold, self.step)
                flag = e.flag
                if flag == T_EXACT:
                    alpha = beta = v
                elif flag == T_LOWER:
                    if v > alpha:
                        alpha = v
                elif v < beta:
                    beta = v
                if alpha >= beta:
                    self.tt_hits += 1
                    if e.depth < UNLIMITED_D:
                        self.horizon = True
                    if tt_move != NO_MOVE:
                        self.pv[ply * MAXPLY] = tt_move
                        self.pvlen[ply] = 1
                    else:
                        self.pvlen[ply] = 0
                    return v
        if self.use_iir and tt_move == NO_MOVE and d >= IIR_DEPTH and not checked:
            d -= 1
        zero_window = self.prunes and nextafter(alpha, INF) >= beta
        if (self.use_null and d >= 3 and not checked and not self.nulled[ply] and zero_window
                and -self.threshold < beta < self.threshold
                and (s.pos.knights | s.pos.bishops | s.pos.rooks | s.pos.queens) & s.pos.us):
            # (null_move_allowed: not in check, which ``checked`` says only with the
            # extension on)
            if not check:
                v = self.null_move_cutoff(beta, d, ply, &cut)
                if cut:
                    return v
        if (d < self.futility_depth and not checked and zero_window
                and -self.threshold < alpha and beta < self.threshold):
            margin = self.margins[d]
            q = _quick(self.cache, s, &m)
            low = q - m
            high = q + m
            if low - margin >= beta:
                self.reverse_futility_prunes += 1
                self.horizon = True
                self.pvlen[ply] = 0
                return low - margin
            if high + margin <= alpha:
                futile = True
                fut_value = high + margin
        alpha_orig = alpha
        # the moves (the Python search generates them before the table probe: no
        # difference but the time)
        mv = &self.moves[ply * MAX_MOVES]
        n = self._moves(s, mv)
        if n > 1:
            self.order(ply, p, mv, n, tt_move)
        outer_horizon = self.horizon
        self.horizon = False
        best = -INF
        lmr_node = self.use_lmr and d >= 3 and not checked and zero_window
        if (self.use_lmp and d <= LMP_DEPTH and not checked and zero_window
                and -self.threshold < alpha and beta < self.threshold):
            lmp_count = 3 + d * d
        else:
            lmp_count = MAXPLY * MAXPLY
        see_node = (self.use_see and d <= SEE_DEPTH and not checked and zero_window
                    and -self.threshold < alpha and beta < self.threshold)
        searched = 0
        c = &self.nodes[ply + 1]
        for i in range(n):
            a = mv[i]
            make(s, c, a)
            self.push_child(ply + 1, False)
            searched += 1
            prune = (futile or searched > lmp_count) and not first
            see_test = see_node and not first
            late = (lmr_node and searched > self.lmr_full and a != tt_move
                    and not (self.use_killers and (a == self.killers[ply][0]
                                                   or a == self.killers[ply][1])))
            if prune or see_test or late:
                if _is_noisy(&s.pos, a):
                    quiet = False
                else:
                    _cp(c)  # (the child's own search reuses it)
                    quiet = c.checkers == 0
                if see_test and _exchange(&s.pos, a) < (
                        -self.see_quiet * d if quiet else -self.see_noisy * d * d) and (
                        quiet or not _gives_check(c)):
                    self.exchange_prunes += 1
                    late_pruned = True
                    self.count_node()
                    continue
                if quiet:
                    if prune:
                        if futile:
                            self.futility_prunes += 1
                        else:
                            self.late_move_prunes += 1
                            late_pruned = True
                        self.count_node()
                        continue
                    if not late:
                        r = 0
                    elif not self.use_lmr_table:
                        r = 2 if searched > self.lmr_deep and d >= 6 else 1
                    else:
                        r = self.lmr_r[(d if d < LMR_N else LMR_N - 1) * LMR_N
                                       + (searched if searched < LMR_N else LMR_N - 1)]
                        if self.use_history and -self.history[p][a] > d * d:
                            r -= 1
                        if r > d - 2:
                            r = d - 2
                    if r > 0:
                        self.reductions += 1
                        v = -self.negamax(-nextafter(alpha, INF), -alpha, d - 1 - r, ply + 1)
                        if v <= alpha:
                            first = False
                            if v > best:
                                best = v
                                best_move = a
                                self.set_line(ply, a)
                            continue
                        self.re_searches += 1
            if self.pvs and not first:
                v = -self.negamax(-nextafter(alpha, INF), -alpha, d - 1, ply + 1)
                if alpha < v < beta:
                    v = -self.negamax(-beta, -alpha, d - 1, ply + 1)
            else:
                v = -self.negamax(-beta, -alpha, d - 1, ply + 1)
            first = False
            if v > best:
                best = v
                best_move = a
                self.set_line(ply, a)
                if v > alpha:
                    alpha = v
                if v >= beta:
                    self.cutoffs += 1
                    if self.noisy_first and _is_noisy(&s.pos, a):
                        break  # (noisy_first: a noisy move is neither killer nor history)
                    if self.use_killers and self.killers[ply][0] != a:
                        self.killers[ply][1] = self.killers[ply][0]
                        self.killers[ply][0] = a
                    if self.use_history:
                        self.history[p][a] -= d * d
                        self.history_used[p] = True
                    break
        if futile and best < fut_value:
            best = fut_value
        exact_to_end = not self.horizon and not futile and not bounded and not late_pruned
        self.horizon = self.horizon or outer_horizon or futile or bounded or late_pruned
        flag = T_LOWER if best >= beta else T_UPPER if best <= alpha_orig else T_EXACT
        self.table.store(s.key, UNLIMITED_D if exact_to_end else d, flag,
                         to_table(best, ply, self.threshold, self.step), best_move, seen,
                         seen_depth)
        return best

    cdef inline int _moves(self, Node* s, int* mv) noexcept nogil:
        _cp(s)
        return _legal(&s.pos, False, s.ksq, s.checkers, s.pinned, mv)

    # ----- the root ---------------------------------------------------------------------
    def search_root(self, state, int depth, double alpha, double beta, clock, prev_best,
                    long long first_check):
        """``Negamax.search_root`` for ``state`` (a marked root, ``ChessGame.search_start``)
        to ``depth`` in ``(alpha, beta)``: ``(value, move, pv, hit_horizon, second)``
        (``second``: the largest value, a fail-soft upper bound, of the other moves
        searched, as ``Negamax._root_loop`` gives it; ``-inf`` when none); the clock is
        checked first at ``first_check`` nodes (``clock.begin(nodes so far)``). Raises the
        clock's ``SearchTimeout``; then :meth:`partial` gives the root's last
        improvement."""
        cdef Node* root = &self.nodes[0]
        cdef int n, i, a, prev, j, tt_move = NO_MOVE, flag, d
        cdef double best = -INF, second = -INF, v, alpha0 = alpha
        cdef int best_move = NO_MOVE
        cdef TTSlot* e
        cdef int* mv = self.root_moves
        self.root_move = NO_MOVE
        self._load(state)
        self.clock = clock
        self.next_check = first_check
        self.horizon = False
        memset(self.nulled, 0, sizeof(self.nulled))
        self.count_node()
        e = self.table.probe(root.key)
        if e != NULL:
            tt_move = e.move
        n = self._moves(root, mv)
        self.order(0, 1 - root.pos.turn, mv, n, tt_move)
        prev = move_code(prev_best)
        if prev != NO_MOVE and n and mv[0] != prev:
            for i in range(n):
                if mv[i] == prev:
                    for j in range(i, 0, -1):
                        mv[j] = mv[j - 1]
                    mv[0] = prev
                    break
        try:
            for i in range(n):
                a = mv[i]
                make(root, &self.nodes[1], a)
                self.push_child(1, False)
                if self.pvs and i > 0:
                    v = -self.negamax(-nextafter(alpha, INF), -alpha, depth - 1, 1)
                    if alpha < v < beta:
                        v = -self.negamax(-beta, -alpha, depth - 1, 1)
                else:
                    v = -self.negamax(-beta, -alpha, depth - 1, 1)
                if v > best:
                    second = best
                    best = v
                    best_move = a
                    self.root_best = v
                    self.root_move = a
                    self.root_line[0] = a
                    self.root_len = 1 + self.pvlen[1]
                    if self.root_len > MAXPLY:
                        self.root_len = MAXPLY
                    for j in range(1, self.root_len):
                        self.root_line[j] = self.pv[MAXPLY + j - 1]
                    if v > alpha:
                        alpha = v
                    if v >= beta:
                        self.cutoffs += 1
                        break
                elif v > second:
                    second = v
        finally:
            self.clock = None
        flag = T_LOWER if best >= beta else T_UPPER if best <= alpha0 else T_EXACT
        self.table.store(root.key, depth if self.horizon else UNLIMITED_D, flag, best,
                         best_move, False, 0)
        line = [_move(self.root_line[j]) for j in range(self.root_len)]
        self.root_move = NO_MOVE
        return best, (None if best_move == NO_MOVE else _move(best_move)), line, \
            bool(self.horizon), second

    cdef int _load(self, state) except -1:
        """The root's board and the keys of the game before it (as far as a repetition
        can reach: its half-move clock)."""
        cdef int k = 0, i, left
        cdef list chain = []
        read_board(state.board, &self.nodes[0])
        self.nodes[0].key = state.key
        self.nodes[0].mg = state.mg
        self.nodes[0].eg = state.eg
        self.nodes[0].phase = state.phase
        left = self.nodes[0].halfmove
        par = state.parent
        while par is not None and k < left and k < MAXHIST:
            chain.append(par)
            par = par.parent
            k += 1
        self.base = k
        for i in range(k):
            par = chain[k - 1 - i]
            self.hkey[i] = par.key
            self.hroot[i] = par.ply >= 0
            # the oldest kept has no parent here; a walk stops there in either case (the
            # walk reaches at most ``left`` states back)
            self.hstart[i] = 0
        self.hkey[k] = state.key
        self.hroot[k] = state.ply >= 0
        self.hstart[k] = 0 if state.parent is not None else k
        return 0

    # ----- for the tests: the board's answers, beside the Python kernels' -----------------
    def facts(self, state):
        """What the C board makes of ``state`` (a state with its history), for the tests
        to compare with the pure-Python kernels: ``{"status": 0 ongoing, 1 mated, 2 drawn,
        "check", "moves", "noisy", "evaluate", "quick": (estimate, margin) with an empty
        cache, "children": [(key, mg, eg, phase, halfmove, ep or None) per move]}``."""
        cdef Node* s = &self.nodes[0]
        cdef int n, i, st
        cdef bint check = False
        cdef int buf[MAX_MOVES]
        cdef double m, q
        cdef EvalCache fresh = EvalCache(16)
        self._load(state)
        st = self.status(0, &check)
        n = self._moves(s, buf)
        moves = [_move(buf[i]) for i in range(n)]
        children = []
        for i in range(n):
            make(s, &self.nodes[1], buf[i])
            c = &self.nodes[1]
            children.append((c.key, c.mg, c.eg, c.phase, c.halfmove,
                             None if c.pos.ep < 0 else c.pos.ep))
        q = _quick(fresh, s, &m)
        quick = (q, m)
        evaluation = _evaluate(fresh, s)
        n = _noisy(s, buf)
        return {"status": st, "check": _checked(&s.pos), "moves": moves,
                "noisy": [_move(buf[i]) for i in range(n)], "evaluate": evaluation,
                "quick": quick, "cached": _quick(fresh, s, &m) == evaluation and m == 0.0,
                "children": children}

    def perft(self, state, int depth):
        """The perft count of ``state`` by the C board's move generation and make-move."""
        self._load(state)
        return self._perft(0, depth)

    cdef long long _perft(self, int ply, int depth) noexcept nogil:
        cdef int* mv = &self.moves[ply * MAX_MOVES]
        cdef int n = self._moves(&self.nodes[ply], mv), i
        cdef long long total = 0
        if depth <= 1:
            return n if depth == 1 else 1
        for i in range(n):
            make(&self.nodes[ply], &self.nodes[ply + 1], mv[i])
            total += self._perft(ply + 1, depth - 1)
        return total
