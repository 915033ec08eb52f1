"""The terminal test: checkmate, stalemate, insufficient material, the fifty-move rule and
repetition, and whether the side to move is in check.

Checkmate: the side to move loses. Insufficient material follows python-chess's definition
(no sequence of legal moves can mate). The fifty-move rule and threefold repetition are
*claimable* draws in the FIDE laws; the game (and so the search) treats them as drawn at
once, as if the player always claims. On a state marked as a search root (its ``ply`` is 0,
``ChessGame.search_start``, which every search driver calls), a position repeated *after the
root* is already a draw the first time it recurs (the usual engine convention: the side that
can repeat once can repeat again), while repetitions of positions from before the root still
need three occurrences.

:func:`compute_status`, :func:`terminal_utility` and :func:`in_check` are the pure-Python
references of compiled kernels (``kernels/status.pxi``; see :mod:`.backend`).
"""

from __future__ import annotations

from .board import DRAWN, MATE, MATED, ONGOING, UNKNOWN, ChessState, king_attacked
from .movegen import has_legal_move


def repeated(s: ChessState) -> bool:
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


def insufficient_material(s: ChessState) -> bool:
    """No sequence of legal moves can mate (python-chess's test, asked only when neither
    side has a pawn, rook or queen)."""
    b = s.board
    return not (b.pawns | b.rooks | b.queens) and b.is_insufficient_material()


def compute_status(s: ChessState) -> int:
    """The terminal status of ``s`` (ONGOING, MATED or DRAWN), recorded in the state."""
    b = s.board
    if not (b.pawns | b.rooks | b.queens) and b.is_insufficient_material():
        st = DRAWN  # no mate is possible, so this is no mate either (insufficient_material)
    elif b.halfmove_clock >= 4 and s.parent is not None and repeated(s):
        st = DRAWN  # a repeated position was not a mate the first time
    else:
        moves = s._moves
        if moves is not None:
            any_move = bool(moves)
        else:
            any_move = has_legal_move(b, s)
        if not any_move:
            st = MATED if in_check(s) else DRAWN
        elif b.halfmove_clock >= 100:
            st = DRAWN
        else:
            st = ONGOING
    s._status = st
    return st


def terminal_utility(state: ChessState, player: int) -> float | None:
    """``ChessGame.terminal_utility``: ``±MATE`` for ``player`` after a mate, 0 for a draw,
    None while the game goes on."""
    st = state._status
    if st == UNKNOWN:
        st = compute_status(state)
    if st == ONGOING:
        return None
    if st == MATED:
        return -MATE if state.player == player else MATE
    return 0.0


def in_check(state: ChessState) -> bool:
    """``ChessGame.in_check``: the side to move is in check (recorded in the state)."""
    c = state._check
    if c == -1:
        b = state.board
        us = b.occupied_co[b.turn]
        ksq = (b.kings & us).bit_length() - 1
        c = state._check = 1 if king_attacked(
            b, ksq, b.occupied, b.occupied_co[not b.turn], b.turn) else 0
    return c == 1
