"""The chess state and its keys: :class:`ChessState`, the interned moves, the Polyglot
Zobrist keys, the attack, check and pin queries on a board, and the make-move
(:func:`result`) that updates key and score incrementally.

A state holds a python-chess :class:`chess.Board` that is never changed once the state
exists, its Polyglot Zobrist key (always equal to ``chess.polyglot.zobrist_hash``; the tests
check it), the material + piece-square score of :mod:`.pst`, the game phase and a link to the
previous state (for repetitions). :func:`result` builds the child board directly from the
parent's bitboards. Measured per ``result`` on a middlegame position (CPython 3.11):
``Board.copy(stack=False)`` + ``push`` 12.2 µs, a FEN string state (``Board(fen)`` + ``push``
+ ``fen()``) > 100 µs, this lean make-move with key and score ~6 µs. Computing the key from
scratch with ``chess.polyglot.zobrist_hash`` costs ~37 µs, python-chess's
``_transposition_key()`` tuple ~1.6 µs plus a tuple hash at every probe.

:func:`result`, :func:`king_attacked` and :func:`checkers_and_pinned` are the pure-Python
references of compiled kernels (``kernels/``; see :mod:`.backend`).
"""

from __future__ import annotations

import chess
import chess.polyglot
from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_ATTACKS,
    BB_FILE_MASKS,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANK_1,
    BB_RANK_8,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_RAYS,
    BB_SQUARES,
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    Board,
    Move,
)

from .pst import EG, MG, PHASE

#: Utility of a checkmate (for the winner); the search discounts it by 100 per ply.
MATE = 100000.0
BB_ALL = (1 << 64) - 1

# terminal status of a state (``ChessState._status``; :mod:`.status` works it out)
UNKNOWN, ONGOING, MATED, DRAWN = -1, 0, 1, 2


# ----- interned moves: one Move object per (from, to[, promotion]) ---------------------
class _Move(Move):
    """The moves this package hands out: a :class:`chess.Move` (equal to, and hashing like,
    the plain ``Move`` of the same squares and promotion) whose hash is computed once and
    whose equality test is cheaper than the dataclass's (the engine hashes and compares
    moves for its history table, killers and table move at every node)."""

    def __init__(
        self, from_square: int, to_square: int, promotion: int | None = None,
        drop: int | None = None,
    ) -> None:
        super().__init__(from_square, to_square, promotion, drop)
        self._hash = hash((from_square, to_square, promotion, drop))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Move):
            return (self.to_square == other.to_square
                    and self.from_square == other.from_square
                    and self.promotion == other.promotion and self.drop == other.drop)
        return NotImplemented

    def __reduce__(self) -> tuple[object, tuple[int, int, int | None]]:
        # unpickled (or copied) as the interned move of the receiving process (the hash of
        # None, in the stored hash, differs between processes)
        return (_interned, (self.from_square, self.to_square, self.promotion))


def _interned(from_square: int, to_square: int, promotion: int | None) -> Move:
    return intern_move(_Move(from_square, to_square, promotion))


MOVES: list[list[Move]] = [[_Move(f, t) for t in range(64)] for f in range(64)]
PROMOTIONS: dict[tuple[int, int, int], Move] = {
    (f, t, p): _Move(f, t, p)
    for f in range(64)
    for t in range(64)
    for p in (KNIGHT, BISHOP, ROOK, QUEEN)
    if abs(f - t) in (7, 8, 9) and (f // 8, t // 8) in ((6, 7), (1, 0))
}


def intern_move(move: Move) -> Move:
    """The shared Move object equal to ``move``."""
    if move.promotion:
        return PROMOTIONS.get((move.from_square, move.to_square, move.promotion), move)
    return MOVES[move.from_square][move.to_square]


# ----- Polyglot Zobrist keys (equal to chess.polyglot.zobrist_hash) ---------------------
_RND = chess.polyglot.POLYGLOT_RANDOM_ARRAY
#: ``ZOBRIST[color][piece_type][square]`` (color 1 = White), Polyglot's piece order.
ZOBRIST: list[list[list[int]]] = [
    [[0] * 64] + [[_RND[64 * ((pt - 1) * 2 + c) + sq] for sq in range(64)] for pt in range(1, 7)]
    for c in (0, 1)
]
Z_EP = tuple(_RND[772 + f] for f in range(8))
Z_TURN = _RND[780]


def _castling_z(rights: int) -> int:
    z = 0
    for bit, index in ((chess.BB_H1, 768), (chess.BB_A1, 769), (chess.BB_H8, 770),
                       (chess.BB_A8, 771)):
        if rights & bit:
            z ^= _RND[index]
    return z


_CORNERS = (chess.BB_A1, chess.BB_H1, chess.BB_A8, chess.BB_H8)
#: the castling part of the key by the castling-rights bitboard (rooks' corners)
Z_CASTLING: dict[int, int] = {}
for _mask in range(16):
    _rights = sum(c for i, c in enumerate(_CORNERS) if _mask >> i & 1)
    Z_CASTLING[_rights] = _castling_z(_rights)


def ep_z(board: Board) -> int:
    """The en-passant part of the Polyglot key: the file, if a pawn of the side to move
    stands next to the pawn that just advanced two squares (legality not considered)."""
    ep = board.ep_square
    if ep is not None and (
        BB_PAWN_ATTACKS[not board.turn][ep] & board.pawns & board.occupied_co[board.turn]
    ):
        return Z_EP[ep & 7]
    return 0


# ----- the state -----------------------------------------------------------------------
class ChessState:
    """A chess position with what the search needs; an immutable value.

    ``board`` must not be changed (copy it first). Two states are equal when their boards
    are (python-chess's ``Board.__eq__``: pieces, side to move, castling, en passant and the
    clocks); the history behind them (``parent``, for repetitions) is not compared.
    """

    __slots__ = (
        "_check", "_cp", "_moves", "_pk", "_status", "board", "eg", "key", "mg", "parent",
        "phase", "player", "ply",
    )

    def __init__(
        self,
        board: Board,
        key: int,
        mg: int,
        eg: int,
        phase: int,
        parent: ChessState | None = None,
        ply: int = -1,
    ) -> None:
        self.board = board
        self.key = key
        self.mg = mg
        self.eg = eg
        self.phase = phase
        self.parent = parent
        #: plies below the search root (0: the root), -1 when no root was marked above
        self.ply = ply
        self.player = 0 if board.turn else 1
        #: the legal moves once generated (a shared list: never change it)
        self._moves: list[Move] | None = None
        #: UNKNOWN until the terminal test has run, then ONGOING, MATED or DRAWN
        self._status = UNKNOWN
        #: -1 unknown, 1 the side to move is in check, 0 it is not
        self._check: int = -1
        #: ``checkers_and_pinned(board)`` once computed (the status and the noisy moves
        #: both need it)
        self._cp: tuple[int, int, int] | None = None
        #: the pawn-structure and king-shield terms (``pawn_king_terms``) once known;
        #: ``result`` passes them on when the move leaves pawns and kings where they are
        self._pk: tuple[int, int] | None = None

    @classmethod
    def from_board(cls, board: Board, parent: ChessState | None = None) -> ChessState:
        """A state for a copy of ``board`` (scores and key computed from scratch)."""
        b = board.copy(stack=False)
        b.castling_rights = b.clean_castling_rights()
        mg = eg = phase = 0
        for color in (0, 1):
            for pt in range(PAWN, KING + 1):
                bb = b.pieces_mask(pt, bool(color))
                while bb:
                    sq = bb.bit_length() - 1
                    bb ^= BB_SQUARES[sq]
                    mg += MG[color][pt][sq]
                    eg += EG[color][pt][sq]
                    phase += PHASE[pt]
        return cls(b, chess.polyglot.zobrist_hash(b), mg, eg, phase, parent)

    def fen(self) -> str:
        return self.board.fen()

    def history(self) -> list[ChessState]:
        """The states that led here, oldest first, ending with this one."""
        out: list[ChessState] = []
        s: ChessState | None = self
        while s is not None:
            out.append(s)
            s = s.parent
        out.reverse()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChessState):
            return NotImplemented
        return self.key == other.key and self.board == other.board

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"


# ----- attacks, checks and pins ----------------------------------------------------------
def king_attacked(b: Board, sq: int, occ: int, them: int, turn: bool) -> int:
    """Pieces of ``them`` attacking ``sq`` with ``occ`` as the occupancy (``turn``: the
    colour of the attacked side, for the pawn table): the king's safety, and
    :func:`.see.see`'s attackers of the exchange's square."""
    qr = (b.queens | b.rooks) & them
    qb = (b.queens | b.bishops) & them
    return (
        (BB_KNIGHT_ATTACKS[sq] & b.knights & them)
        | (BB_KING_ATTACKS[sq] & b.kings & them)
        | (BB_PAWN_ATTACKS[turn][sq] & b.pawns & them)
        | (BB_DIAG_ATTACKS[sq][BB_DIAG_MASKS[sq] & occ] & qb)
        | ((BB_RANK_ATTACKS[sq][BB_RANK_MASKS[sq] & occ]
            | BB_FILE_ATTACKS[sq][BB_FILE_MASKS[sq] & occ]) & qr)
    )


def checkers_and_pinned(b: Board) -> tuple[int, int, int]:
    """``(king square, checkers, pinned pieces)`` of the side to move."""
    turn = b.turn
    occ_co = b.occupied_co
    us = occ_co[turn]
    them = occ_co[not turn]
    occ = b.occupied
    ksq = (b.kings & us).bit_length() - 1
    qb = (b.queens | b.bishops) & them
    qr = (b.queens | b.rooks) & them
    diag = BB_DIAG_ATTACKS[ksq]
    rank = BB_RANK_ATTACKS[ksq]
    file = BB_FILE_ATTACKS[ksq]
    checkers = (
        (BB_KNIGHT_ATTACKS[ksq] & b.knights & them)
        | (BB_PAWN_ATTACKS[turn][ksq] & b.pawns & them)
        | (diag[BB_DIAG_MASKS[ksq] & occ] & qb)
        | ((rank[BB_RANK_MASKS[ksq] & occ] | file[BB_FILE_MASKS[ksq] & occ]) & qr)
    )
    pinned = 0
    snipers = (diag[0] & qb) | ((rank[0] | file[0]) & qr)
    if snipers:
        row = BB_RAYS[ksq]
        low = BB_ALL << ksq
        while snipers:
            s = snipers.bit_length() - 1
            snipers ^= BB_SQUARES[s]
            between = row[s] & (low ^ (BB_ALL << s))
            between &= between - 1
            blockers = between & occ
            if blockers and blockers & (blockers - 1) == 0:
                pinned |= blockers
        pinned &= us
    return ksq, checkers, pinned


_new_board = object.__new__


# ----- make-move ---------------------------------------------------------------------------
def result(state: ChessState, action: Move) -> ChessState:
    """The child state after the legal move ``action`` (``ChessGame.result``): the board built
    from the parent's bitboards, key, scores and phase updated incrementally, the parent's
    pawn-and-king terms passed on when the move leaves pawns and kings where they are.

    Its compiled twin (``kernels/result.pxi``) follows it line by line."""
    b = state.board
    turn = b.turn
    frm = action.from_square
    to = action.to_square
    fbb = BB_SQUARES[frm]
    tbb = BB_SQUARES[to]
    ci = 1 if turn else 0
    oc = ci ^ 1
    occ_co = b.occupied_co
    us = occ_co[turn]
    them = occ_co[not turn]
    bbs = [0, b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings]
    pt = PAWN  # the moving piece's type
    while not bbs[pt] & fbb:
        pt += 1
    zc = ZOBRIST[ci]
    mgc = MG[ci]
    egc = EG[ci]
    newpt = action.promotion or pt
    key = state.key ^ zc[pt][frm] ^ zc[newpt][to] ^ Z_TURN
    mg = state.mg - mgc[pt][frm] + mgc[newpt][to]
    eg = state.eg - egc[pt][frm] + egc[newpt][to]
    phase = state.phase
    halfmove = b.halfmove_clock + 1
    same_pawns_kings = pt != PAWN and pt != KING
    if them & tbb:
        cpt = PAWN  # the captured piece's type
        while not bbs[cpt] & tbb:
            cpt += 1
        if cpt == PAWN:
            same_pawns_kings = False
        bbs[cpt] ^= tbb
        them ^= tbb
        key ^= ZOBRIST[oc][cpt][to]
        mg -= MG[oc][cpt][to]
        eg -= EG[oc][cpt][to]
        phase -= PHASE[cpt]
        halfmove = 0
    elif pt == PAWN and to == b.ep_square and (to - frm) & 7:
        cap = to - 8 if turn else to + 8
        cbb = BB_SQUARES[cap]
        bbs[1] ^= cbb
        them ^= cbb
        key ^= ZOBRIST[oc][PAWN][cap]
        mg -= MG[oc][PAWN][cap]
        eg -= EG[oc][PAWN][cap]
    bbs[pt] ^= fbb
    bbs[newpt] |= tbb
    us = us ^ fbb | tbb
    if pt == PAWN:
        halfmove = 0
        if newpt != PAWN:
            phase += PHASE[newpt]
    elif pt == KING and (to - frm == 2 or frm - to == 2):
        if to > frm:
            rf, rt = frm + 3, frm + 1
        else:
            rf, rt = frm - 4, frm - 1
        rbb = BB_SQUARES[rf] | BB_SQUARES[rt]
        bbs[ROOK] ^= rbb
        us ^= rbb
        key ^= zc[ROOK][rf] ^ zc[ROOK][rt]
        mg += mgc[ROOK][rt] - mgc[ROOK][rf]
        eg += egc[ROOK][rt] - egc[ROOK][rf]
    rights = b.castling_rights
    if rights:
        new_rights = rights & ~(fbb | tbb)
        if pt == KING:
            new_rights &= ~(BB_RANK_1 if turn else BB_RANK_8)
        if new_rights != rights:
            key ^= Z_CASTLING[rights] ^ Z_CASTLING[new_rights]
        rights = new_rights
    if b.ep_square is not None:
        key ^= ep_z(b)
    ep = None
    if pt == PAWN and (to - frm == 16 or frm - to == 16):
        ep = (frm + to) >> 1
        if BB_PAWN_ATTACKS[turn][ep] & bbs[1] & them:
            key ^= Z_EP[ep & 7]
    n: Board = _new_board(Board)
    n.pawns, n.knights, n.bishops, n.rooks, n.queens, n.kings = (
        bbs[1], bbs[2], bbs[3], bbs[4], bbs[5], bbs[6])
    n.occupied_co = [them, us] if turn else [us, them]
    n.occupied = us | them
    promoted = b.promoted
    if promoted or action.promotion:
        moved = promoted & fbb
        promoted &= ~(fbb | tbb)
        if moved or action.promotion:
            promoted |= tbb
    n.promoted = promoted
    n.chess960 = False
    n.turn = not turn
    n.castling_rights = rights
    n.ep_square = ep
    n.halfmove_clock = halfmove
    n.fullmove_number = b.fullmove_number + (0 if turn else 1)
    n.move_stack = []
    n._stack = []
    ply = state.ply
    child = ChessState(n, key, mg, eg, phase, state, ply + 1 if ply >= 0 else -1)
    if same_pawns_kings:
        child._pk = state._pk
    return child


def null_result(state: ChessState) -> ChessState:
    """The side to move passes (``ChessGame.null_result``): the turn flips and the
    en-passant square goes; no parent (a pass breaks the repetition history)."""
    b = state.board.copy(stack=False)
    key = state.key ^ Z_TURN ^ ep_z(b)
    b.turn = not b.turn
    b.ep_square = None
    return ChessState(b, key, state.mg, state.eg, state.phase, parent=None,
                      ply=state.ply + 1 if state.ply >= 0 else -1)
