"""Chess on python-chess: the rules, FEN/SAN/UCI notation, draw rules and an evaluation.

python-chess (the ``[chess]`` extra) supplies the board (:class:`chess.Board`), the
notations, FEN parsing and validation; this module adds what a search needs at every node,
written against python-chess's own bitboards and attack tables:

* **State**: a :class:`ChessState`, an immutable value holding a :class:`chess.Board` (never
  changed once the state exists), its Polyglot Zobrist key, the material + piece-square
  score, the game phase and a link to the previous state (for repetitions). ``result``
  builds the child board directly from the parent's bitboards and updates key and score
  incrementally (the key always equals ``chess.polyglot.zobrist_hash``; the tests check it).
  Measured per ``result`` on a middlegame position (CPython 3.11): ``Board.copy(stack=False)``
  + ``push`` 12.2 µs, a FEN string state (``Board(fen)`` + ``push`` + ``fen()``) > 100 µs,
  this lean make-move with key and score ~6 µs.
* **Actions**: :class:`chess.Move`, one shared object per (from, to, promotion), written in
  UCI (``e2e4``, ``e7e8q``). ``parse_action`` also accepts SAN (``Nf3``, ``O-O``).
  ``actions`` lists the legal moves generated here (python-chess's ``generate_legal_moves``
  costs ~86 µs on a middlegame position, this generator ~30 µs), checked against
  python-chess by perft and random play in the tests. The order is already the search
  order: captures by MVV-LVA, then promotions, castling and quiet moves.
* **Terminal**: checkmate (the side to move loses), stalemate, insufficient material
  (python-chess's definition: no sequence of legal moves can mate), the fifty-move rule and
  threefold repetition. The last two are *claimable* draws in the FIDE laws; the game (and
  so the search) treats them as drawn at once, as if the player always claims. On a state
  marked as a search root (:meth:`ChessGame.search_root`), a position repeated *after the
  root* is already a draw the first time it recurs (the usual engine convention: the side
  that can repeat once can repeat again), while repetitions of positions from before the
  root still need three occurrences.
* **Utility** ``±100000`` (:data:`MATE`) for mate, 0 for draws: with the search's win
  discount of 100 per ply a mate in ``n`` moves is worth ``100000 - 100 * (2n - 1)``.
* **Evaluation** (centipawns, side to move's view): tapered middlegame/endgame
  piece-square tables (Rofchade's PeSTO values, the standard public numbers) including
  material, mobility of knights, bishops, rooks and queens, pawn structure (doubled,
  isolated, passed; cached by the pawn bitboards), king safety (the pawn shield in the
  middlegame), the bishop pair and a small tempo bonus. Always within ``±30000``.
* **Key**: the Polyglot Zobrist hash (an int, 64 bits) updated in ``result``; computing it
  from scratch with ``chess.polyglot.zobrist_hash`` costs ~37 µs, python-chess's
  ``_transposition_key()`` tuple ~1.6 µs plus a tuple hash at every probe.
* **Quiescence**: ``noisy_actions`` are captures and queen/knight promotions in MVV-LVA
  order, without captures that lose material by static exchange evaluation; in check, all
  evasions.
* **Compiled kernels**: the functions a search calls at every node (make-move, terminal
  test, move generation, checks and pins, SEE, the evaluation) have Cython twins in
  ``_chess_kernels.pyx``, compiled by ``pip install`` where a C compiler is found. They read
  the python-chess board's bitboards into C integers and give exactly what the Python
  functions here give (same moves in the same order, same values, same states: the tests
  compare them on thousands of positions and a search node for node); the Python functions
  stay the reference and the fallback (``KERNELS`` says which serve; the environment
  variable ``GAMESEARCH_PURE_PYTHON`` forces Python). Measured (``benchmarks/chess_nps.py``):
  3.1x the nodes per second of the pure-Python functions, and the state stays a
  python-chess board, so notation, FEN and draw rules are python-chess's own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import pairwise
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from ..errors import GameError, IllegalMoveError, InvalidLimitError, InvalidPositionError
from ..game import Game, GameType

try:
    import chess
    import chess.polyglot
except ImportError:  # pragma: no cover - depends on the environment
    raise GameError(
        "the chess game needs python-chess: pip install 'gamesearch[chess]' (or pip install chess)"
    ) from None

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
    Board,
    Move,
)

#: Utility of a checkmate (for the winner); the search discounts it by 100 per ply.
MATE = 100000.0
#: The evaluation never leaves ``(-EVAL_LIMIT, EVAL_LIMIT)`` (far below mate scores).
EVAL_LIMIT = 30000
BB_ALL = (1 << 64) - 1
#: entries of the evaluation cache before it starts afresh
EVAL_CACHE_SIZE = 1 << 18

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
# terminal status of a state
_UNKNOWN, _ONGOING, _MATED, _DRAW = -1, 0, 1, 2

# ----- interned moves: one Move object per (from, to[, promotion]) ---------------------
class _Move(Move):
    """The moves this module hands out: a :class:`chess.Move` (equal to, and hashing like,
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


# ----- PeSTO piece values and piece-square tables (a8 first, as published) ------------
MG_VALUE = (0, 82, 337, 365, 477, 1025, 0)
EG_VALUE = (0, 94, 281, 297, 512, 936, 0)
#: Phase weight of each piece type (24 = all pieces on the board: the middlegame).
PHASE = (0, 0, 1, 1, 2, 4, 0)

_MG_PST_A8: dict[int, tuple[int, ...]] = {
    PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0,
        98, 134, 61, 95, 68, 126, 34, -11,
        -6, 7, 26, 31, 65, 56, 25, -20,
        -14, 13, 6, 21, 23, 12, 17, -23,
        -27, -2, -5, 12, 17, 6, 10, -25,
        -26, -4, -4, -10, 3, 3, 33, -12,
        -35, -1, -20, -23, -15, 24, 38, -22,
        0, 0, 0, 0, 0, 0, 0, 0,
    ),
    KNIGHT: (
        -167, -89, -34, -49, 61, -97, -15, -107,
        -73, -41, 72, 36, 23, 62, 7, -17,
        -47, 60, 37, 65, 84, 129, 73, 44,
        -9, 17, 19, 53, 37, 69, 18, 22,
        -13, 4, 16, 13, 28, 19, 21, -8,
        -23, -9, 12, 10, 19, 17, 25, -16,
        -29, -53, -12, -3, -1, 18, -14, -19,
        -105, -21, -58, -33, -17, -28, -19, -23,
    ),
    BISHOP: (
        -29, 4, -82, -37, -25, -42, 7, -8,
        -26, 16, -18, -13, 30, 59, 18, -47,
        -16, 37, 43, 40, 35, 50, 37, -2,
        -4, 5, 19, 50, 37, 37, 7, -2,
        -6, 13, 13, 26, 34, 12, 10, 4,
        0, 15, 15, 15, 14, 27, 18, 10,
        4, 15, 16, 0, 7, 21, 33, 1,
        -33, -3, -14, -21, -13, -12, -39, -21,
    ),
    ROOK: (
        32, 42, 32, 51, 63, 9, 31, 43,
        27, 32, 58, 62, 80, 67, 26, 44,
        -5, 19, 26, 36, 17, 45, 61, 16,
        -24, -11, 7, 26, 24, 35, -8, -20,
        -36, -26, -12, -1, 9, -7, 6, -23,
        -45, -25, -16, -17, 3, 0, -5, -33,
        -44, -16, -20, -9, -1, 11, -6, -71,
        -19, -13, 1, 17, 16, 7, -37, -26,
    ),
    QUEEN: (
        -28, 0, 29, 12, 59, 44, 43, 45,
        -24, -39, -5, 1, -16, 57, 28, 54,
        -13, -17, 7, 8, 29, 56, 47, 57,
        -27, -27, -16, -16, -1, 17, -2, 1,
        -9, -26, -9, -10, -2, -4, 3, -3,
        -14, 2, -11, -2, -5, 2, 14, 5,
        -35, -8, 11, 2, 8, 15, -3, 1,
        -1, -18, -9, 10, -15, -25, -31, -50,
    ),
    KING: (
        -65, 23, 16, -15, -56, -34, 2, 13,
        29, -1, -20, -7, -8, -4, -38, -29,
        -9, 24, 2, -16, -20, 6, 22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49, -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
        1, 7, -8, -64, -43, -16, 9, 8,
        -15, 36, 12, -54, 8, -28, 24, 14,
    ),
}
_EG_PST_A8: dict[int, tuple[int, ...]] = {
    PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0,
        178, 173, 158, 134, 147, 132, 165, 187,
        94, 100, 85, 67, 56, 53, 82, 84,
        32, 24, 13, 5, -2, 4, 17, 17,
        13, 9, -3, -7, -7, -8, 3, -1,
        4, 7, -6, 1, 0, -5, -1, -8,
        13, 8, 8, 10, 13, 0, 2, -7,
        0, 0, 0, 0, 0, 0, 0, 0,
    ),
    KNIGHT: (
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25, -8, -25, -2, -9, -25, -24, -52,
        -24, -20, 10, 9, -1, -9, -19, -41,
        -17, 3, 22, 22, 22, 11, 8, -18,
        -18, -6, 16, 25, 16, 17, 4, -18,
        -23, -3, -1, 15, 10, -3, -20, -22,
        -42, -20, -10, -5, -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ),
    BISHOP: (
        -14, -21, -11, -8, -7, -9, -17, -24,
        -8, -4, 7, -12, -3, -13, -4, -14,
        2, -8, 0, -1, -2, 6, 0, 4,
        -3, 9, 12, 9, 14, 10, 3, 2,
        -6, 3, 13, 19, 7, 10, -3, -9,
        -12, -3, 8, 10, 13, 3, -7, -15,
        -14, -18, -7, -1, 4, -9, -15, -27,
        -23, -9, -23, -5, -9, -16, -5, -17,
    ),
    ROOK: (
        13, 10, 18, 15, 12, 12, 8, 5,
        11, 13, 13, 11, -3, 3, 8, 3,
        7, 7, 7, 5, 4, -3, -5, -3,
        4, 3, 13, 1, 2, 1, -1, 2,
        3, 5, 8, 4, -5, -6, -8, -11,
        -4, 0, -5, -1, -7, -12, -8, -16,
        -6, -6, 0, 2, -9, -9, -11, -3,
        -9, 2, 3, -1, -5, -13, 4, -20,
    ),
    QUEEN: (
        -9, 22, 22, 27, 27, 19, 10, 20,
        -17, 20, 32, 41, 58, 25, 30, 0,
        -20, 6, 9, 49, 47, 35, 19, 9,
        3, 22, 24, 45, 57, 40, 57, 36,
        -18, 28, 19, 47, 31, 34, 39, 23,
        -16, -27, 15, 6, 9, 17, 10, 5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43, -5, -32, -20, -41,
    ),
    KING: (
        -74, -35, -18, -18, -11, 15, 4, -17,
        -12, 17, 14, 17, 17, 38, 23, 11,
        10, 17, 23, 15, 20, 45, 44, 13,
        -8, 22, 24, 27, 26, 33, 26, 3,
        -18, -4, 21, 24, 27, 23, 9, -11,
        -19, -3, 11, 21, 23, 16, 7, -9,
        -27, -11, 4, 13, 14, 4, -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ),
}


def _signed_tables(
    values: tuple[int, ...], pst: dict[int, tuple[int, ...]]
) -> list[list[list[int]]]:
    """``T[color][piece_type][square]``: value + table, positive for White, negative for
    Black (python-chess squares, a1 = 0; White reads the a8-first table flipped)."""
    out: list[list[list[int]]] = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    for pt in range(PAWN, KING + 1):
        for sq in range(64):
            out[1][pt][sq] = values[pt] + pst[pt][sq ^ 56]
            out[0][pt][sq] = -(values[pt] + pst[pt][sq])
    return out


#: ``MG[color][piece_type][square]`` (color 1 = White), signed: White's view.
MG = _signed_tables(MG_VALUE, _MG_PST_A8)
EG = _signed_tables(EG_VALUE, _EG_PST_A8)

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
Z_CASTLING: dict[int, int] = {}
for _mask in range(16):
    _rights = sum(c for i, c in enumerate(_CORNERS) if _mask >> i & 1)
    Z_CASTLING[_rights] = _castling_z(_rights)


def _ep_z(board: Board) -> int:
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
        self._moves: list[Move] | None = None
        self._status = _UNKNOWN
        self._check: int = -1
        #: ``_checkers_and_pinned(board)`` once computed (the status and the noisy moves
        #: both need it)
        self._cp: tuple[int, int, int] | None = None
        #: the pawn-structure and king-shield terms (``_pawn_king_terms``) once known;
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


_new_board = object.__new__


def _king_attacked(b: Board, sq: int, occ: int, them: int, turn: bool) -> int:
    """Pieces of ``them`` attacking ``sq`` with ``occ`` as the occupancy (``turn``: the
    colour of the attacked side, for the pawn table)."""
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


def _checkers_and_pinned(b: Board) -> tuple[int, int, int]:
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


_first = itemgetter(0)


def _safe_king_steps(b: Board, ksq: int, steps: int, occ: int, them: int, turn: bool) -> int:
    """The squares of ``steps`` (king steps from ``ksq``) that no piece of ``them`` attacks
    once the king has left ``ksq`` (so a slider's ray through it counts)."""
    occ_k = occ ^ BB_SQUARES[ksq]
    qr = (b.queens | b.rooks) & them
    qb = (b.queens | b.bishops) & them
    kn = b.knights & them
    pw = b.pawns & them
    kk = b.kings & them
    pawn_att = BB_PAWN_ATTACKS[turn]
    safe = 0
    t = steps
    while t:
        to = t.bit_length() - 1
        tbb = BB_SQUARES[to]
        t ^= tbb
        if not (
            BB_KNIGHT_ATTACKS[to] & kn
            or BB_KING_ATTACKS[to] & kk
            or pawn_att[to] & pw
            or BB_DIAG_ATTACKS[to][BB_DIAG_MASKS[to] & occ_k] & qb
            or (BB_RANK_ATTACKS[to][BB_RANK_MASKS[to] & occ_k]
                | BB_FILE_ATTACKS[to][BB_FILE_MASKS[to] & occ_k]) & qr
        ):
            safe |= tbb
    return safe


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
            if not _king_attacked(b, ksq, occ2, them & ~cbb, b.turn):
                add((9, MOVES[frm][ep]))


def generate_moves(
    b: Board, noisy: bool = False, cp: tuple[int, int, int] | None = None
) -> tuple[list[Move], bool]:
    """The legal moves of ``b`` and whether the side to move is in check.

    Order: captures by MVV-LVA (most valuable victim first, then least valuable attacker),
    promotions, castling, quiet moves. ``noisy=True``: only captures and queen/knight
    promotions, unless in check (then every evasion). Standard chess only (no Chess960).
    ``cp``: ``_checkers_and_pinned(b)`` if already known.
    """
    turn = b.turn
    occ_co = b.occupied_co
    us = occ_co[turn]
    them = occ_co[not turn]
    occ = b.occupied
    pawns, knights, bishops, rooks, queens = b.pawns, b.knights, b.bishops, b.rooks, b.queens
    minors = knights | bishops
    ksq, checkers, pinned = cp if cp is not None else _checkers_and_pinned(b)
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
    # victim values (MVV-LVA: victim - attacker): pawn 10, minor 30, rook 50, queen 90

    if targets:
        # knights (a pinned knight never moves)
        bb = knights & us & ~pinned
        while bb:
            sq = bb.bit_length() - 1
            bb ^= BB[sq]
            row = MOVES[sq]
            att = BB_KNIGHT_ATTACKS[sq]
            t = att & cap_targets
            while t:
                to = t.bit_length() - 1
                tbb = BB[to]
                t ^= tbb
                cadd((7 if pawns & tbb else 27 if minors & tbb else 47 if rooks & tbb else 87,
                      row[to]))
            t = att & quiet_targets
            while t:
                to = t.bit_length() - 1
                t ^= BB[to]
                qadd(row[to])
        # sliders: bishops, rooks, queens
        diag_att, diag_mask = BB_DIAG_ATTACKS, BB_DIAG_MASKS
        rank_att, rank_mask = BB_RANK_ATTACKS, BB_RANK_MASKS
        file_att, file_mask = BB_FILE_ATTACKS, BB_FILE_MASKS
        bb = bishops & us
        while bb:
            sq = bb.bit_length() - 1
            sbb = BB[sq]
            bb ^= sbb
            att = diag_att[sq][diag_mask[sq] & occ]
            if pinned & sbb:
                att &= BB_RAYS[ksq][sq]
            row = MOVES[sq]
            t = att & cap_targets
            while t:
                to = t.bit_length() - 1
                tbb = BB[to]
                t ^= tbb
                cadd((7 if pawns & tbb else 27 if minors & tbb else 47 if rooks & tbb else 87,
                      row[to]))
            t = att & quiet_targets
            while t:
                to = t.bit_length() - 1
                t ^= BB[to]
                qadd(row[to])
        bb = rooks & us
        while bb:
            sq = bb.bit_length() - 1
            sbb = BB[sq]
            bb ^= sbb
            att = rank_att[sq][rank_mask[sq] & occ] | file_att[sq][file_mask[sq] & occ]
            if pinned & sbb:
                att &= BB_RAYS[ksq][sq]
            row = MOVES[sq]
            t = att & cap_targets
            while t:
                to = t.bit_length() - 1
                tbb = BB[to]
                t ^= tbb
                cadd((5 if pawns & tbb else 25 if minors & tbb else 45 if rooks & tbb else 85,
                      row[to]))
            t = att & quiet_targets
            while t:
                to = t.bit_length() - 1
                t ^= BB[to]
                qadd(row[to])
        bb = queens & us
        while bb:
            sq = bb.bit_length() - 1
            sbb = BB[sq]
            bb ^= sbb
            att = (diag_att[sq][diag_mask[sq] & occ] | rank_att[sq][rank_mask[sq] & occ]
                   | file_att[sq][file_mask[sq] & occ])
            if pinned & sbb:
                att &= BB_RAYS[ksq][sq]
            row = MOVES[sq]
            t = att & cap_targets
            while t:
                to = t.bit_length() - 1
                tbb = BB[to]
                t ^= tbb
                cadd((1 if pawns & tbb else 21 if minors & tbb else 41 if rooks & tbb else 81,
                      row[to]))
            t = att & quiet_targets
            while t:
                to = t.bit_length() - 1
                t ^= BB[to]
                qadd(row[to])
        # pawns, set-wise
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
            for caps_bb, delta in ((left & targets, dl), (right & targets, dr)):
                while caps_bb:
                    to = caps_bb.bit_length() - 1
                    tbb = BB[to]
                    caps_bb ^= tbb
                    frm = to - delta
                    if pinned & BB[frm] and not BB_RAYS[ksq][frm] & tbb:
                        continue
                    v = 10 if pawns & tbb else 30 if minors & tbb else 50 if rooks & tbb else 90
                    if tbb & last_rank:
                        cadd((v + 80, PROMOTIONS[(frm, to, QUEEN)]))
                        cadd((v - 1, PROMOTIONS[(frm, to, KNIGHT)]))
                        if not noisy:
                            promos.append((-10, PROMOTIONS[(frm, to, ROOK)]))
                            promos.append((-10, PROMOTIONS[(frm, to, BISHOP)]))
                    else:
                        cadd((v - 1, MOVES[frm][to]))
            pushes = single & targets
            if noisy:
                pushes &= last_rank
            while pushes:
                to = pushes.bit_length() - 1
                tbb = BB[to]
                pushes ^= tbb
                frm = to - up
                if pinned & BB[frm] and not BB_RAYS[ksq][frm] & tbb:
                    continue
                if tbb & last_rank:
                    promos.append((80, PROMOTIONS[(frm, to, QUEEN)]))
                    promos.append((0, PROMOTIONS[(frm, to, KNIGHT)]))
                    if not noisy:
                        promos.append((-10, PROMOTIONS[(frm, to, ROOK)]))
                        promos.append((-10, PROMOTIONS[(frm, to, BISHOP)]))
                else:
                    qadd(MOVES[frm][to])
            if not noisy:
                pushes = double & targets
                while pushes:
                    to = pushes.bit_length() - 1
                    tbb = BB[to]
                    pushes ^= tbb
                    frm = to - 2 * up
                    if pinned & BB[frm] and not BB_RAYS[ksq][frm] & tbb:
                        continue
                    qadd(MOVES[frm][to])
            if b.ep_square is not None:
                _add_en_passant(b, own, up, ksq, occ, them, cadd)
    # king moves
    t = BB_KING_ATTACKS[ksq] & ~us
    if noisy:
        t &= them
    if t:
        t = _safe_king_steps(b, ksq, t, occ, them, turn)
        row = MOVES[ksq]
        while t:
            to = t.bit_length() - 1
            tbb = BB[to]
            t ^= tbb
            if tbb & them:
                cadd((-10 if pawns & tbb else 10 if minors & tbb else 30 if rooks & tbb
                      else 70, row[to]))
            else:
                qadd(row[to])
        # castling (the rights are kept clean: king and rook on their home squares)
        if not checkers and not noisy:
            rights = b.castling_rights & (BB_RANK_1 if turn else BB_RANK_8)
            if rights:
                for rook_sq, empty, safe, to in (
                    (ksq + 3, (BB[ksq + 1] | BB[ksq + 2]), (ksq + 1, ksq + 2), ksq + 2),
                    (ksq - 4, (BB[ksq - 1] | BB[ksq - 2] | BB[ksq - 3]), (ksq - 1, ksq - 2),
                     ksq - 2),
                ):
                    if rights & BB[rook_sq] and not occ & empty and not any(
                        _king_attacked(b, s, occ, them, turn) for s in safe
                    ):
                        qadd(row[to])
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


#: (capturer, victim) piece types of the captures whose capturer is worth more than its
#: victim, not counting pawn captures and promotions: N/B/R/Q/K takes a pawn, R/Q/K takes a
#: minor, Q takes a rook. (The compiled kernel reads the same from the MVV-LVA value.)
_SEE_NEEDED = frozenset(
    [(pt, PAWN) for pt in (KNIGHT, BISHOP, ROOK, QUEEN, KING)]
    + [(pt, minor) for pt in (ROOK, QUEEN, KING) for minor in (KNIGHT, BISHOP)]
    + [(QUEEN, ROOK)]
)


def _noisy_moves(b: Board, ksq: int, pinned: int) -> Iterator[Move]:
    """The quiescence moves of a side not in check (``ksq``, ``pinned``: its king square and
    pinned pieces): captures and queen/knight promotions in MVV-LVA order (``generate_moves``
    with ``noisy``), without the captures that lose material by static exchange. The
    exchange is worked out only when the caller gets to the capture (after a cut-off,
    never)."""
    their_pawns = b.pawns & b.occupied_co[not b.turn]
    pawn_attacks = BB_PAWN_ATTACKS[b.turn]
    need = _SEE_NEEDED
    for m in generate_moves(b, True, (ksq, 0, pinned))[0]:
        # Cheap cases: pawn captures, promotions and a victim worth at least the capturer.
        # Otherwise the capturer is worth over a pawn more than the victim, so a target a
        # pawn defends loses material (what ``see`` finds, without running it).
        to = m.to_square
        if (
            not m.promotion
            and (_piece_type(b, BB_SQUARES[m.from_square]), _piece_type(b, BB_SQUARES[to]))
            in need
            and (pawn_attacks[to] & their_pawns or see(b, m) < 0)
        ):
            continue
        yield m


#: legal moves by Zobrist key, with the occupancy as a check against a collision:
#: iterative deepening generates the moves of the same positions again and again
_MOVE_CACHE: dict[int, tuple[int, list[Move], bool]] = {}
#: entries of the move cache before it starts afresh
MOVE_CACHE_SIZE = 1 << 17


def _state_moves(state: ChessState, cp: tuple[int, int, int] | None = None) -> list[Move]:
    """``generate_moves`` for ``state`` (cached by key; the list is shared: never change
    it), recorded in the state with whether the side to move is in check."""
    b = state.board
    key = state.key
    e = _MOVE_CACHE.get(key)
    if e is not None and e[0] == b.occupied:
        moves, check = e[1], e[2]
    else:
        moves, check = generate_moves(b, False, cp if cp is not None else state._cp)
        if len(_MOVE_CACHE) >= MOVE_CACHE_SIZE:
            _MOVE_CACHE.clear()
        _MOVE_CACHE[key] = (b.occupied, moves, check)
    state._moves = moves
    state._check = 1 if check else 0
    return moves


def _has_free_move(b: Board, pinned: int) -> bool:
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
    cp = _checkers_and_pinned(b)
    _, checkers, pinned = cp
    if state is not None:
        state._check = 1 if checkers else 0
        state._cp = cp
        if checkers:
            return bool(_state_moves(state, cp))
    if not checkers and _has_free_move(b, pinned):
        return True
    if state is not None:
        return bool(_state_moves(state, cp))
    return bool(generate_moves(b, False, cp)[0])


# ----- static exchange evaluation -------------------------------------------------------
SEE_VALUE = (0, 100, 320, 330, 500, 900, 20000)


def _piece_type(b: Board, bb: int) -> int:
    if b.pawns & bb:
        return PAWN
    if b.knights & bb:
        return KNIGHT
    if b.bishops & bb:
        return BISHOP
    if b.rooks & bb:
        return ROOK
    if b.queens & bb:
        return QUEEN
    if b.kings & bb:
        return KING
    return 0


def see(b: Board, move: Move) -> int:
    """Static exchange evaluation of a capture (centipawns won by the side to move when both
    sides keep capturing on the target square with their least valuable attacker)."""
    frm, to = move.from_square, move.to_square
    tbb = BB_SQUARES[to]
    victim = _piece_type(b, tbb)
    if victim == 0:  # en passant
        victim = PAWN
    occ = b.occupied ^ BB_SQUARES[frm]
    gain = [SEE_VALUE[victim]]
    attacker = _piece_type(b, BB_SQUARES[frm])
    if move.promotion:
        gain[0] += SEE_VALUE[move.promotion] - SEE_VALUE[PAWN]
        attacker = move.promotion
    side = not b.turn
    qb = b.queens | b.bishops
    qr = b.queens | b.rooks
    diag_mask, rank_mask, file_mask = BB_DIAG_MASKS[to], BB_RANK_MASKS[to], BB_FILE_MASKS[to]
    by_type = (0, b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings)
    occ_co = b.occupied_co
    while True:
        attackers = (
            (BB_KNIGHT_ATTACKS[to] & b.knights)
            | (BB_KING_ATTACKS[to] & b.kings)
            | (BB_PAWN_ATTACKS[not side][to] & b.pawns)
            | (BB_DIAG_ATTACKS[to][diag_mask & occ] & qb)
            | ((BB_RANK_ATTACKS[to][rank_mask & occ] | BB_FILE_ATTACKS[to][file_mask & occ])
               & qr)
        ) & occ & occ_co[side]
        if not attackers:
            break
        for pt in range(PAWN, KING + 1):
            found = attackers & by_type[pt]
            if found:
                break
        if pt == KING and (
            (BB_KNIGHT_ATTACKS[to] & b.knights) | (BB_KING_ATTACKS[to] & b.kings)
            | (BB_PAWN_ATTACKS[side][to] & b.pawns)
            | (BB_DIAG_ATTACKS[to][diag_mask & occ] & qb)
            | ((BB_RANK_ATTACKS[to][rank_mask & occ] | BB_FILE_ATTACKS[to][file_mask & occ])
               & qr)
        ) & occ & occ_co[not side]:
            break  # the king may not capture into a defended square
        gain.append(SEE_VALUE[attacker] - gain[-1])
        attacker = pt
        occ ^= found & -found
        side = not side
    while len(gain) > 1:
        last = gain.pop()
        if -last < gain[-1]:
            gain[-1] = -last
    return gain[0]


# ----- evaluation terms ----------------------------------------------------------------
FILES = tuple(chess.BB_FILES)
ADJACENT_FILES = tuple(
    (FILES[f - 1] if f > 0 else 0) | (FILES[f + 1] if f < 7 else 0) for f in range(8)
)


def _front_span(sq: int, white: bool) -> int:
    """Squares in front of ``sq`` on its file and the two adjacent files."""
    f, r = sq & 7, sq >> 3
    files = FILES[f] | ADJACENT_FILES[f]
    if white:
        ranks = BB_ALL << (8 * (r + 1)) & BB_ALL if r < 7 else 0
    else:
        ranks = (1 << (8 * r)) - 1
    return files & ranks


PASSED_SPAN = ((tuple(_front_span(s, False) for s in range(64))),
               (tuple(_front_span(s, True) for s in range(64))))
PASSED_MG = (0, 5, 10, 15, 25, 40, 60, 0)  # by rank from the pawn's own side (0 = 1st)
PASSED_EG = (0, 10, 20, 35, 60, 100, 150, 0)
DOUBLED_MG, DOUBLED_EG = 10, 20
ISOLATED_MG, ISOLATED_EG = 10, 15
#: mobility weights (mg, eg) per safe target square, and the count taken as neutral
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


def _pawn_king_terms(s: ChessState) -> tuple[int, int]:
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
    """The evaluation from White's view, in centipawns (before the tempo bonus)."""
    b = s.board
    pk = s._pk
    pmg, peg = pk if pk is not None else _pawn_king_terms(s)
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


def _pawn_attacks(pawns: int, white: bool) -> int:
    if white:
        return (((pawns & ~BB_FILE_A) << 7) | ((pawns & ~BB_FILE_H) << 9)) & BB_ALL
    return ((pawns & ~BB_FILE_A) >> 9) | ((pawns & ~BB_FILE_H) >> 7)


# ----- the game ------------------------------------------------------------------------
STARTPOS = chess.STARTING_FEN

_STATUS_PROBLEMS = (
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or eighth rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "the castling rights do not match the kings and rooks"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en-passant square is impossible"),
    (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the king is attacked by more pieces than possible"),
    (chess.STATUS_RACE_CHECK, "the position is not a standard chess position"),
    (chess.STATUS_RACE_OVER, "the position is not a standard chess position"),
    (chess.STATUS_RACE_MATERIAL, "the position is not a standard chess position"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "the checks cannot have come from the last move"),
)


class ChessGame(Game[ChessState, Move]):
    """Chess (standard rules, White = player 0, Black = player 1)."""

    name = "chess"
    description = "chess on python-chess: UCI/SAN moves, FEN positions"
    num_players = 2
    game_type = GameType(num_players=2)
    max_utility = MATE
    state_notation = (
        "FEN (e.g. 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') or "
        "'startpos', optionally followed by 'moves' and moves in UCI or SAN"
    )

    # ----- what the arena asks the game (gamesearch.game's interface hooks) -----------
    #: Positions in FEN and moves in UCI: the arena can export chess games as PGN.
    pgn_notation = True
    perft_conventions = MappingProxyType({
        "perft": "leaves exactly D plies deep; a game over earlier counts 0 (standard chess "
                 "perft)"})

    def perft(self, state: ChessState, depth: int, convention: str | None = None) -> int:
        if convention not in (None, "perft"):
            raise InvalidLimitError(f"chess perft convention {convention!r}; allowed: perft")
        return perft(state, depth)

    def arena_openings(self) -> list[str]:
        """The openings of matches that name none: 50 balanced book lines in SAN, each
        played with both colours (``gamesearch/data/chess_openings.txt``; its header
        says how they were chosen)."""
        from importlib import resources

        path = resources.files("gamesearch") / "data" / "chess_openings.txt"
        return path.read_text(encoding="utf-8").splitlines()

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> ChessState:
        return ChessState.from_board(Board())

    def to_move(self, state: ChessState) -> int:
        return state.player

    def actions(self, state: ChessState) -> Sequence[Move]:
        moves = state._moves
        if moves is None:
            moves = _state_moves(state)
        return moves

    def result(self, state: ChessState, action: Move) -> ChessState:
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
        if bbs[1] & fbb:
            pt = PAWN
        elif bbs[2] & fbb:
            pt = KNIGHT
        elif bbs[3] & fbb:
            pt = BISHOP
        elif bbs[4] & fbb:
            pt = ROOK
        elif bbs[5] & fbb:
            pt = QUEEN
        else:
            pt = KING
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
            if bbs[1] & tbb:
                cpt = PAWN
                same_pawns_kings = False
            elif bbs[2] & tbb:
                cpt = KNIGHT
            elif bbs[3] & tbb:
                cpt = BISHOP
            elif bbs[4] & tbb:
                cpt = ROOK
            else:
                cpt = QUEEN
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
            key ^= _ep_z(b)
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

    def is_terminal(self, state: ChessState) -> bool:
        st = state._status
        if st == _UNKNOWN:
            st = self._compute_status(state)
        return st != _ONGOING

    def utility(self, state: ChessState, player: int) -> float:
        st = state._status
        if st == _UNKNOWN:
            st = self._compute_status(state)
        if st == _MATED:
            return -MATE if state.player == player else MATE
        return 0.0

    def terminal_utility(self, state: ChessState, player: int) -> float | None:
        st = state._status
        if st == _UNKNOWN:
            st = self._compute_status(state)
        if st == _ONGOING:
            return None
        if st == _MATED:
            return -MATE if state.player == player else MATE
        return 0.0

    def returns(self, state: ChessState) -> tuple[float, float]:
        u = self.utility(state, 0)
        return (u, -u)

    def _compute_status(self, s: ChessState) -> int:
        b = s.board
        if not (b.pawns | b.rooks | b.queens) and b.is_insufficient_material():
            st = _DRAW  # no mate is possible, so this is no mate either
        elif b.halfmove_clock >= 4 and s.parent is not None and _repeated(s):
            st = _DRAW  # a repeated position was not a mate the first time
        else:
            moves = s._moves
            if moves is not None:
                any_move = bool(moves)
            else:
                any_move = has_legal_move(b, s)
            if not any_move:
                st = _MATED if self.in_check(s) else _DRAW
            elif b.halfmove_clock >= 100:
                st = _DRAW
            else:
                st = _ONGOING
        s._status = st
        return st

    # ----- null move (for the engine's null-move pruning) ----------------------------
    has_null_move = True

    def null_result(self, state: ChessState) -> ChessState:
        """The side to move passes: the turn flips and the en-passant square goes."""
        b = state.board.copy(stack=False)
        key = state.key ^ Z_TURN ^ _ep_z(b)
        b.turn = not b.turn
        b.ep_square = None
        return ChessState(b, key, state.mg, state.eg, state.phase, parent=None,
                          ply=state.ply + 1 if state.ply >= 0 else -1)

    def null_move_allowed(self, state: ChessState) -> bool:
        """Not in check, and the mover has a piece besides pawns (zugzwang is rare then)."""
        if self.in_check(state):
            return False
        b = state.board
        return bool((b.knights | b.bishops | b.rooks | b.queens) & b.occupied_co[b.turn])

    # ----- what the engine should use (read by gamesearch.search.negamax) -------------
    #: engine policy for chess: late-move reductions in the ``id`` engine (captures,
    #: promotions and checks are never reduced: ``noisy_actions`` and ``in_check``);
    #: futility margins by remaining depth (centipawns): at depth 1 a quiet move must gain
    #: over two pawns to matter, at depth 2 four; under a time limit, no new iteration
    #: after half of it
    engine_defaults = MappingProxyType(
        {"lmr": True, "futility_margins": (0.0, 200.0, 400.0), "soft_share": 0.5})

    # ----- chess queries -------------------------------------------------------------
    has_in_check = True

    def in_check(self, state: ChessState) -> bool:
        c = state._check
        if c == -1:
            b = state.board
            us = b.occupied_co[b.turn]
            ksq = (b.kings & us).bit_length() - 1
            c = state._check = 1 if _king_attacked(
                b, ksq, b.occupied, b.occupied_co[not b.turn], b.turn) else 0
        return c == 1

    def termination(self, state: ChessState) -> str | None:
        """Why the game is over (``"checkmate"``, ``"stalemate"``, ...), or ``None``."""
        if not self.is_terminal(state):
            return None
        b = state.board
        if state._status == _MATED:
            return "checkmate"
        if not (b.pawns | b.rooks | b.queens) and b.is_insufficient_material():
            return "insufficient material"
        if not self.actions(state):
            return "stalemate"
        if b.halfmove_clock >= 4 and state.parent is not None and _repeated(state):
            return "repetition"
        return "fifty-move rule"

    def search_root(self, state: ChessState) -> ChessState:
        """The same position marked as the root of a search: below it, a position that
        recurs after the root is scored as a draw at its first repetition.

        A root that is itself a (claimable) draw but still has moves — a GUI may ask for
        a move there — loses the claim: its history and fifty-move count are dropped.
        """
        b = state.board
        root = ChessState(b, state.key, state.mg, state.eg, state.phase, state.parent, 0)
        if self.is_terminal(root) and self.actions(state):
            nb = b.copy(stack=False)
            nb.halfmove_clock = 0
            root = ChessState(nb, state.key, state.mg, state.eg, state.phase, None, 0)
        return root

    # ----- optional hooks ------------------------------------------------------------
    has_evaluate = True

    def __init__(self) -> None:
        #: evaluations by Zobrist key (side to move's view): iterative deepening meets the
        #: same quiescence leaves again and again
        self._eval_cache: dict[int, int] = {}
        if _compiled is not None:
            # the compiled twins of the hot methods (see "the compiled kernels" below)
            for name, kernel in _METHOD_KERNELS.items():
                fn = getattr(_compiled, kernel)
                setattr(self, name, partial(fn, self._eval_cache)
                        if name in _CACHED_METHODS else fn)

    def evaluate(self, state: ChessState, player: int) -> float:
        """Centipawns for ``player`` (see the module docstring), within ±EVAL_LIMIT."""
        cache = self._eval_cache
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

    has_quick_evaluate = True

    def quick_evaluate(self, state: ChessState, player: int) -> tuple[float, float]:
        """``(estimate, margin)`` with ``evaluate`` within ``estimate ± margin``: the
        cached evaluation (margin 0), else material, piece-square tables, pawn structure
        and king shield without mobility and the bishop pair (margin :data:`LAZY_MARGIN`).
        For the engine's lazy evaluation in quiescence."""
        v = self._eval_cache.get(state.key)
        if v is not None:
            return (v if player == state.player else -v), 0.0
        b = state.board
        pk = state._pk
        pmg, peg = pk if pk is not None else _pawn_king_terms(state)
        phase = state.phase if state.phase < 24 else 24
        w = (state.mg + pmg) * phase + (state.eg + peg) * (24 - phase)
        w = w // 24 if w >= 0 else -(-w // 24)
        q = w + TEMPO if b.turn else -w + TEMPO
        if q >= EVAL_LIMIT:
            q = EVAL_LIMIT - 1
        elif q <= -EVAL_LIMIT:
            q = 1 - EVAL_LIMIT
        return (q if player == state.player else -q), LAZY_MARGIN


    def key(self, state: ChessState) -> int:
        return state.key

    has_noisy_actions = True

    def noisy_actions(self, state: ChessState) -> Sequence[Move]:
        """Captures and queen/knight promotions, MVV-LVA first, without captures that
        lose material by SEE (those where the capturer is worth more than the victim);
        every evasion when in check."""
        return list(self.iter_noisy_actions(state))

    def iter_noisy_actions(self, state: ChessState) -> Iterator[Move]:
        """``noisy_actions`` one at a time: the static exchange of a capture is worked out
        only when the search gets to it (after a cut-off, never). The engine's quiescence
        uses this when a game has it."""
        if state._moves is not None and state._check == 1:
            yield from state._moves
            return
        b = state.board
        cp = state._cp
        if cp is None:
            cp = state._cp = _checkers_and_pinned(b)
        if cp[1]:
            yield from _state_moves(state, cp)
            return
        state._check = 0
        yield from _noisy_moves(b, cp[0], cp[2])

    has_is_noisy = True

    def is_noisy(self, state: ChessState, action: Move) -> bool:
        """A capture (en passant included) or a promotion: never reduced or pruned as quiet
        by the engine, whether or not its static exchange wins material."""
        if action.promotion:
            return True
        b = state.board
        to = action.to_square
        if b.occupied_co[not b.turn] & BB_SQUARES[to]:
            return True
        return to == b.ep_square and bool(b.pawns & BB_SQUARES[action.from_square])

    has_order_actions = True

    def order_actions(self, state: ChessState, actions: Sequence[Move]) -> Sequence[Move]:
        """MVV-LVA captures, promotions, then quiet moves: the order ``actions`` already
        has (other sequences are re-sorted the same way)."""
        if actions is state._moves:
            return actions
        legal = self.actions(state)
        rank = {m: i for i, m in enumerate(legal)}
        return sorted(actions, key=lambda m: rank.get(m, len(rank)))

    # ----- notation ------------------------------------------------------------------
    def format_action(self, state: ChessState, action: Move) -> str:
        return action.uci()

    def format_san(self, state: ChessState, action: Move) -> str:
        return state.board.san(action)

    def parse_action(self, state: ChessState, text: str) -> Move:
        """A move in UCI (``e2e4``, ``e7e8q``) or SAN (``e4``, ``Nf3``, ``O-O``, ``exd5``)."""
        text = text.strip()
        legal = list(self.actions(state))
        if self.is_terminal(state):
            raise IllegalMoveError(text, [], reason="the game is over")
        b = state.board
        try:
            move: Move | None = chess.Move.from_uci(text)
        except chess.InvalidMoveError:
            move = None
        if move is not None:
            if move in legal:
                return intern_move(move)
            # python-chess writes castling as e1g1; accept the king-takes-rook form too
            try:
                move = b.parse_uci(text)
            except ValueError:
                move = None
            if move is not None and move in legal:
                return intern_move(move)
            raise IllegalMoveError(
                text, [m.uci() for m in legal], reason="not legal in this position"
            )
        try:
            move = b.parse_san(text)
        except chess.AmbiguousMoveError:
            raise IllegalMoveError(
                text, [m.uci() for m in legal], reason="ambiguous: say which piece moves"
            ) from None
        except ValueError:
            raise IllegalMoveError(
                text,
                [m.uci() for m in legal],
                reason="neither a legal UCI move (e2e4, e7e8q) nor legal SAN (e4, Nf3, O-O)",
            ) from None
        return intern_move(move)

    def format_state(self, state: ChessState) -> str:
        """The FEN (the history behind the position, for repetitions, is not part of it)."""
        return state.board.fen()

    def parse_state(self, text: str) -> ChessState:
        """A FEN or ``startpos``, optionally followed by ``moves`` and UCI/SAN moves."""
        text = " ".join(text.split())
        head, sep, tail = text.partition(" moves")
        if sep and tail and not tail.startswith(" "):
            head, tail, sep = text, "", ""
        head = head.strip()
        if head.lower() in ("startpos", "start", ""):
            board = Board()
        else:
            fields = head.split(" ")
            if len(fields) < 2 or len(fields) > 6:
                raise InvalidPositionError(
                    f"chess position {head!r}: a FEN has 6 fields (board, side to move, "
                    f"castling, en passant, half-move clock, move number), got {len(fields)}; "
                    f"allowed: {self.state_notation}"
                )
            try:
                board = Board(head)
            except ValueError as exc:
                raise InvalidPositionError(f"chess position {head!r}: {exc}") from None
            problems = [why for flag, why in _STATUS_PROBLEMS if board.status() & flag]
            if problems:
                raise InvalidPositionError(
                    f"chess position {head!r} is impossible: " + "; ".join(problems)
                )
        state = ChessState.from_board(board)
        for i, word in enumerate(tail.split()):
            try:
                move = self.parse_action(state, word)
            except IllegalMoveError as exc:
                raise InvalidPositionError(
                    f"chess position {text!r}: move {i + 1} ({word!r}) is illegal: {exc}"
                ) from None
            state = self.result(state, move)
        return state

    def render(self, state: ChessState) -> str:
        """The board, White at the bottom (upper case), then who moves and the FEN."""
        b = state.board
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = b.piece_at(rank * 8 + file)
                cells.append(piece.symbol() if piece else ".")
            rows.append(f"{rank + 1}  " + " ".join(cells))
        rows.append("   a b c d e f g h")
        side = "White" if b.turn else "Black"
        status = self.termination(state)
        line = f"{side} to move" + (" (check)" if self.in_check(state) else "")
        if status is not None:
            line = f"game over: {status}"
        rows.append(line)
        rows.append(f"FEN {b.fen()}")
        return "\n".join(rows)


def _repeated(s: ChessState) -> bool:
    """Draw by repetition (see the module docstring): the position occurred twice before
    since the last capture or pawn move, or once after the search root."""
    key = s.key
    count = 0
    left = s.board.halfmove_clock
    p = s.parent
    i = 1
    while p is not None and i <= left:
        if p.key == key and i >= 4:
            if p.ply >= 0:  # at or after the search root: the first repetition counts
                return True
            count += 1
            if count >= 2:
                return True
        p = p.parent
        i += 1
    return False


# ----- perft -----------------------------------------------------------------------------
def perft(position: ChessState | Board | str, depth: int) -> int:
    """The number of leaf nodes of the legal-move tree of ``depth`` plies (perft), by this
    module's move generator and ``result``."""
    game = ChessGame()
    if isinstance(position, str):
        state = game.parse_state(position)
    elif isinstance(position, Board):
        state = ChessState.from_board(position)
    else:
        state = position
    if depth < 0:
        raise ValueError(f"perft depth {depth}: must be >= 0")
    if depth == 0:
        return 1
    return _perft(game, state, depth)


def _perft(game: ChessGame, s: ChessState, depth: int) -> int:
    moves = generate_moves(s.board)[0]
    if depth == 1:
        return len(moves)
    result = game.result
    total = 0
    for m in moves:
        total += _perft(game, result(s, m), depth - 1)
    return total


def divide(position: ChessState | Board | str, depth: int) -> Iterator[tuple[str, int]]:
    """Perft split by the first move: ``(uci, count)`` pairs."""
    game = ChessGame()
    state = perft_state(position)
    for m in generate_moves(state.board)[0]:
        yield m.uci(), perft(game.result(state, m), depth - 1)


def perft_state(position: ChessState | Board | str) -> ChessState:
    if isinstance(position, str):
        return ChessGame().parse_state(position)
    if isinstance(position, Board):
        return ChessState.from_board(position)
    return position


def board_of(state: ChessState) -> Board:
    """A python-chess Board of the state with its move history on the stack (a copy)."""
    history = state.history()
    board = history[0].board.copy(stack=False)
    for prev, nxt in pairwise(history):
        board.push(_move_between(prev, nxt))
    return board


def _move_between(a: ChessState, b: ChessState) -> Move:
    for m in generate_moves(a.board)[0]:
        if ChessGame().result(a, m).key == b.key:
            return m
    raise GameError("no move leads from one state to the next")  # pragma: no cover


# ----- the compiled kernels ----------------------------------------------------------------
#: The module functions that compiled kernels replace: name here -> name in _chess_kernels.
_FUNCTION_KERNELS = {
    "_king_attacked": "king_attacked", "_checkers_and_pinned": "checkers_and_pinned",
    "generate_moves": "generate_moves", "_noisy_moves": "noisy_moves",
    "_has_free_move": "has_free_move", "see": "see", "evaluate_board": "evaluate_board",
    "pawn_structure": "pawn_structure", "king_shield": "king_shield",
    "_pawn_king_terms": "pawn_king_terms",
}
#: The ChessGame methods that compiled kernels replace on each instance (``__init__``);
#: ``evaluate`` and ``quick_evaluate`` also take the game's evaluation cache.
_METHOD_KERNELS = {
    "result": "result", "evaluate": "evaluate", "quick_evaluate": "quick_evaluate",
    "_compute_status": "compute_status", "terminal_utility": "terminal_utility",
    "in_check": "in_check", "iter_noisy_actions": "noisy_actions",
}
_CACHED_METHODS = ("evaluate", "quick_evaluate")
#: The pure-Python functions and methods that the compiled kernels replace (the reference:
#: the tests compare the two; methods unbound, called with the game first).
PURE_PYTHON_KERNELS: dict[str, Callable[..., object]] = {
    **{name: globals()[name] for name in _FUNCTION_KERNELS},
    **{name: getattr(ChessGame, name) for name in _METHOD_KERNELS},
}
#: ``"compiled"`` when the Cython kernels (``_chess_kernels``, built by ``pip install``
#: where a C compiler is found) serve the hot functions, else ``"python"``. Setting the
#: environment variable ``GAMESEARCH_PURE_PYTHON`` keeps the pure-Python functions.
KERNELS = "python"
#: the compiled kernels module when in use (a game instance takes its methods'
#: twins in ``__init__``), or None
_compiled: Any = None


def _use_compiled_kernels() -> bool:
    if os.environ.get("GAMESEARCH_PURE_PYTHON"):
        return False
    try:
        from . import _chess_kernels as kernels
    except ImportError:  # not built (no C compiler at install time): pure Python
        return False
    kernels.init(MOVES, PROMOTIONS)
    kernels.init_eval({
        "BISHOP_PAIR": BISHOP_PAIR, "DOUBLED_MG": DOUBLED_MG, "DOUBLED_EG": DOUBLED_EG,
        "ISOLATED_MG": ISOLATED_MG, "ISOLATED_EG": ISOLATED_EG, "PASSED_MG": PASSED_MG,
        "PASSED_EG": PASSED_EG, "SHIELD_BONUS": SHIELD_BONUS,
        "OPEN_FILE_NEAR_KING": OPEN_FILE_NEAR_KING, "TEMPO": TEMPO, "EVAL_LIMIT": EVAL_LIMIT,
        "EVAL_CACHE_SIZE": EVAL_CACHE_SIZE, "LAZY_MARGIN": LAZY_MARGIN,
    })
    kernels.init_status(_state_moves, MATE)
    kernels.init_result(ChessState, Board, ZOBRIST, MG, EG, PHASE, Z_TURN, Z_EP, Z_CASTLING)
    g = globals()
    for name, kernel in _FUNCTION_KERNELS.items():
        g[name] = getattr(kernels, kernel)
    g["_compiled"] = kernels
    return True


if _use_compiled_kernels():
    KERNELS = "compiled"


__all__ = [
    "MATE",
    "ChessGame",
    "ChessState",
    "Move",
    "evaluate_board",
    "generate_moves",
    "has_legal_move",
    "perft",
    "see",
]

