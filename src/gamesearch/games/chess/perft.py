"""Perft: the number of leaf nodes of the legal-move tree to a depth, the standard check of a
move generator and make-move (``gamesearch perft chess``, ``benchmarks/chess_perft.py``).

The counts come from the game's kernels (:mod:`.backend`): their move generator and
``result``.
"""

from __future__ import annotations

from collections.abc import Iterator

from chess import Board

from .backend import Kernels
from .board import ChessState
from .game import ChessGame


def perft_state(position: ChessState | Board | str) -> ChessState:
    """The state of a position given as a state, a python-chess board, or a FEN (or
    ``startpos``, optionally followed by moves)."""
    if isinstance(position, str):
        return ChessGame().parse_state(position)
    if isinstance(position, Board):
        return ChessState.from_board(position)
    return position


def perft(
    position: ChessState | Board | str, depth: int, kernels: Kernels | str | None = None
) -> int:
    """The number of leaf nodes of the legal-move tree of ``depth`` plies (perft), by the
    move generator and ``result`` of ``kernels`` (default: the game's default)."""
    game = ChessGame(kernels)
    state = perft_state(position)
    if depth < 0:
        raise ValueError(f"perft depth {depth}: must be >= 0")
    if depth == 0:
        return 1
    return _perft(game, state, depth)


def _perft(game: ChessGame, s: ChessState, depth: int) -> int:
    moves = game.kernels.generate_moves(s.board, False, None)[0]
    if depth == 1:
        return len(moves)
    result = game.result
    total = 0
    for m in moves:
        total += _perft(game, result(s, m), depth - 1)
    return total


def divide(
    position: ChessState | Board | str, depth: int, kernels: Kernels | str | None = None
) -> Iterator[tuple[str, int]]:
    """Perft split by the first move: ``(uci, count)`` pairs."""
    game = ChessGame(kernels)
    state = perft_state(position)
    for m in game.kernels.generate_moves(state.board, False, None)[0]:
        yield m.uci(), perft(game.result(state, m), depth - 1, game.kernels)
