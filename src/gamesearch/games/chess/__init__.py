"""Chess on python-chess: the rules, FEN/SAN/UCI notation, draw rules and an evaluation.

python-chess (the ``[chess]`` extra) supplies the board (:class:`chess.Board`), the
notations, FEN parsing and validation; this package adds what a search needs at every node,
written against python-chess's own bitboards and attack tables. Its modules, by role:

* :mod:`.board` — the state (:class:`ChessState`: an immutable value holding a
  :class:`chess.Board` that is never changed, its Polyglot Zobrist key, the material +
  piece-square score, the game phase and a link to the previous state for repetitions), the
  interned moves, the keys, attack/check/pin queries and the make-move ``result``, which
  updates key and score incrementally; :mod:`.pst` — the PeSTO piece-square tables.
* :mod:`.movegen` — the legal moves in search order (captures by MVV-LVA, then promotions,
  castling and quiet moves; one routine for knights, bishops, rooks and queens), the
  quiescence moves (captures and queen/knight promotions, without those that lose material
  by SEE; in check, all evasions) and the legal-move test; :mod:`.see` — static exchange.
* :mod:`.evaluation` — centipawns, side to move's view: tapered middlegame/endgame PeSTO
  tables including material, mobility, pawn structure, king shield, bishop pair, tempo.
* :mod:`.status` — the terminal test: checkmate (utility ``±100000``, :data:`MATE`, for the
  winner; with the search's win discount of 100 per ply a mate in ``n`` moves is worth
  ``100000 - 100 * (2n - 1)``), stalemate, insufficient material, the fifty-move rule and
  repetition (both claimed at once; after a search root the first repetition is a draw).
* :mod:`.game` — :class:`ChessGame`, the :class:`~gamesearch.game.Game` with notation (UCI
  and SAN moves, FEN positions) and the engine's capabilities; :mod:`.perft` — perft and divide.
* :mod:`.backend` — which functions serve the hot paths: :data:`PURE_PYTHON` (the
  reference) or :data:`COMPILED`, their Cython twins in :mod:`.kernels` (built by ``pip
  install`` where a C compiler is found; 3.1x the nodes per second). ``ChessGame(kernels=...)``
  chooses; the default is compiled when built, unless ``GAMESEARCH_PURE_PYTHON`` is set.
  The state stays a python-chess board either way, so notation, FEN and draw rules are
  python-chess's own.

The module-level functions exported here (``generate_moves``, ``see``, ``evaluate_board``,
``has_legal_move``) are the pure-Python references; a game's own are ``game.kernels``.
"""

from __future__ import annotations

from ...errors import GameError

try:
    import chess
    import chess.polyglot  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    raise GameError(
        "the chess game needs python-chess: pip install 'gamesearch[chess]' (or pip install chess)"
    ) from None

from chess import Move

from .backend import COMPILED, KERNEL_NAMES, PURE_PYTHON, Kernels, default_kernels
from .board import MATE, MOVES, PROMOTIONS, ChessState, intern_move
from .evaluation import EVAL_LIMIT, evaluate_board
from .game import STARTPOS, ChessGame, board_of
from .movegen import generate_moves, has_legal_move
from .perft import divide, perft, perft_state
from .pst import EG, MG
from .see import see

#: The name of the kernels a ``ChessGame()`` used when this package was imported
#: (``"compiled"`` or ``"python"``; :func:`default_kernels` asks again).
KERNELS = default_kernels().name

__all__ = [
    "COMPILED",
    "EG",
    "EVAL_LIMIT",
    "KERNELS",
    "KERNEL_NAMES",
    "MATE",
    "MG",
    "MOVES",
    "PROMOTIONS",
    "PURE_PYTHON",
    "STARTPOS",
    "ChessGame",
    "ChessState",
    "Kernels",
    "Move",
    "board_of",
    "default_kernels",
    "divide",
    "evaluate_board",
    "generate_moves",
    "has_legal_move",
    "intern_move",
    "perft",
    "perft_state",
    "see",
]
