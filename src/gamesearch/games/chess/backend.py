"""Which functions serve the chess hot paths: :class:`Kernels`, one set of them, and its
two instances, :data:`PURE_PYTHON` and :data:`COMPILED`.

The functions a search calls at every node (make-move, terminal test, move generation,
checks and pins, SEE, the evaluation) exist twice: in Python in this package (the reference
and the fallback) and as Cython twins in ``kernels/compiled.pyx``, compiled by ``pip
install`` where a C compiler is found. The twins read the python-chess board's bitboards into
C integers and give exactly what the Python functions give (same moves in the same order,
same values, same states: ``tests/test_chess_kernels.py`` compares them on thousands of
positions and a search node for node). Measured (``benchmarks/chess_nps.py``): 3.1x the
nodes per second of the pure-Python functions.

A :class:`~.game.ChessGame` is given its kernels (``ChessGame(kernels=PURE_PYTHON)``, or
``"python"``/``"compiled"``); by default :func:`default_kernels`: the compiled ones when the
extension is built, unless the environment variable ``GAMESEARCH_PURE_PYTHON`` is set.
Each set of kernels calls only its own functions (a Python kernel never calls a compiled one,
nor the other way round), so the two can run side by side in one process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any

from chess import Board, Move

from ...errors import GameError, UnknownNameError
from . import board, evaluation, movegen, see, status
from .board import MATE, MOVES, PROMOTIONS, Z_CASTLING, Z_EP, Z_TURN, ZOBRIST, ChessState
from .pst import EG, MG, PHASE

CheckersPinned = tuple[int, int, int]


@dataclass(frozen=True, eq=False)
class Kernels:
    """One set of the chess kernels: the functions the search reaches at every node.

    The fields are the kernels (each has a pure-Python and a compiled twin; the tests
    compare the two field by field, see :data:`KERNEL_NAMES`), plus ``name`` and the
    cached move lists built on this set's move generator (``state_moves``)."""

    name: str
    # ----- board queries and move generation (board.py, movegen.py, see.py)
    king_attacked: Callable[[Board, int, int, int, bool], int]
    checkers_and_pinned: Callable[[Board], CheckersPinned]
    generate_moves: Callable[[Board, bool, CheckersPinned | None], tuple[list[Move], bool]]
    noisy_moves: Callable[[Board, int, int], Iterable[Move]]
    has_free_move: Callable[[Board, int], bool]
    see: Callable[[Board, Move], int]
    # ----- the evaluation (evaluation.py)
    evaluate_board: Callable[[ChessState], int]
    pawn_structure: Callable[[int, int], tuple[int, int]]
    king_shield: Callable[[int, int, int, int], int]
    pawn_king_terms: Callable[[ChessState], tuple[int, int]]
    # ----- what ChessGame's per-node methods are (board.py, evaluation.py, status.py,
    # movegen.py); evaluate and quick_evaluate take the game's evaluation cache first
    result: Callable[[ChessState, Move], ChessState]
    evaluate: Callable[[dict[int, int], ChessState, int], float]
    quick_evaluate: Callable[[dict[int, int], ChessState, int], tuple[float, float]]
    compute_status: Callable[[ChessState], int]
    terminal_utility: Callable[[ChessState, int], float | None]
    in_check: Callable[[ChessState], bool]
    noisy_actions: Callable[[ChessState], Iterable[Move]]
    # ----- built on the kernels (not a kernel)
    #: ``state_moves(state, cp=None)``: the state's legal moves, cached (movegen.cached_moves)
    state_moves: Callable[..., list[Move]]

    def __repr__(self) -> str:
        return f"<chess kernels {self.name!r}>"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pickled by name: the receiving process uses its own instance
        return (kernels_named, (self.name,))


#: the fields of :class:`Kernels` that are kernels (compiled twin of a Python reference)
KERNEL_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(Kernels) if f.name not in ("name", "state_moves"))

#: The pure-Python functions: the reference the compiled ones are checked against.
PURE_PYTHON = Kernels(
    name="python",
    king_attacked=board.king_attacked,
    checkers_and_pinned=board.checkers_and_pinned,
    generate_moves=movegen.generate_moves,
    noisy_moves=movegen.noisy_moves,
    has_free_move=movegen.has_free_move,
    see=see.see,
    evaluate_board=evaluation.evaluate_board,
    pawn_structure=evaluation.pawn_structure,
    king_shield=evaluation.king_shield,
    pawn_king_terms=evaluation.pawn_king_terms,
    result=board.result,
    evaluate=evaluation.evaluate,
    quick_evaluate=evaluation.quick_evaluate,
    compute_status=status.compute_status,
    terminal_utility=status.terminal_utility,
    in_check=status.in_check,
    noisy_actions=movegen.noisy_actions,
    state_moves=movegen.state_moves,
)


def _eval_weights() -> dict[str, Any]:
    """The evaluation's weights (``evaluation.py``'s constants), as the compiled
    evaluations read them at init."""
    e = evaluation
    return {
        "BISHOP_PAIR": e.BISHOP_PAIR, "DOUBLED_MG": e.DOUBLED_MG, "DOUBLED_EG": e.DOUBLED_EG,
        "ISOLATED_MG": e.ISOLATED_MG, "ISOLATED_EG": e.ISOLATED_EG, "PASSED_MG": e.PASSED_MG,
        "PASSED_EG": e.PASSED_EG, "SHIELD_BONUS": e.SHIELD_BONUS,
        "OPEN_FILE_NEAR_KING": e.OPEN_FILE_NEAR_KING, "TEMPO": e.TEMPO,
        "EVAL_LIMIT": e.EVAL_LIMIT, "EVAL_CACHE_SIZE": e.EVAL_CACHE_SIZE,
        "LAZY_MARGIN": e.LAZY_MARGIN,
    }


def _init_tables(module: Any) -> None:
    """Hand a compiled module (the kernels, the engine) this package's interned moves,
    evaluation weights, key and score tables."""
    module.init(MOVES, PROMOTIONS)
    _init_weights(module)


def _init_weights(module: Any) -> None:
    """Give a compiled module the evaluation's weights, read from the Python modules
    (:mod:`.evaluation`, :mod:`.pst`): at start-up, and again after
    :func:`.weights.apply_weights`."""
    module.init_eval(_eval_weights())
    module.init_result(ChessState, Board, ZOBRIST, MG, EG, PHASE, Z_TURN, Z_EP, Z_CASTLING)


def init_compiled_weights() -> None:
    """Initialise the compiled modules' weights again from the Python modules: the kernels
    and the compiled search, each of which holds its own copy of the tables (nothing to do
    for one that was not built)."""
    if COMPILED is not None:
        from .kernels import compiled

        _init_weights(compiled)
    if ENGINE is not None:
        _init_weights(ENGINE)
        ENGINE.init_engine()


def _compiled_kernels() -> Kernels | None:
    """The compiled kernels, initialised with this package's tables, or None when the
    extension was not built (no C compiler at install time)."""
    try:
        from .kernels import compiled
    except ImportError:
        return None
    _init_tables(compiled)
    state_moves = movegen.cached_moves(compiled.generate_moves)
    compiled.init_status(state_moves, MATE)
    # each kernel has the name of its field in the extension
    return Kernels(name="compiled", state_moves=state_moves,
                   **{name: getattr(compiled, name) for name in KERNEL_NAMES})


#: The compiled twins (Cython), or None when the extension was not built.
COMPILED: Kernels | None = _compiled_kernels()


def _compiled_engine() -> Any:
    """The compiled twin of the chess search (``kernels/engine.pyx``), initialised with the
    same tables as the kernels, or None when it was not built (or the kernels were not)."""
    if COMPILED is None:
        return None
    try:
        from .kernels import engine
    except ImportError:
        return None
    _init_tables(engine)
    engine.init_engine()
    return engine


#: The compiled search's module (``Engine``, ``EvalCache``), or None when not built.
ENGINE: Any = _compiled_engine()


def default_kernels() -> Kernels:
    """:data:`COMPILED` when built, unless the environment variable
    ``GAMESEARCH_PURE_PYTHON`` is set (to anything but the empty string); else
    :data:`PURE_PYTHON`."""
    if COMPILED is not None and not os.environ.get("GAMESEARCH_PURE_PYTHON"):
        return COMPILED
    return PURE_PYTHON


def kernels_named(name: str) -> Kernels:
    """The kernels called ``name``: ``"python"`` or ``"compiled"`` (an error when the
    compiled ones were not built)."""
    if name == PURE_PYTHON.name:
        return PURE_PYTHON
    if name != "compiled":
        raise UnknownNameError("chess kernels", name, ("python", "compiled"))
    if COMPILED is None:
        raise GameError("the compiled chess kernels were not built (no C compiler at "
                        "install time): use 'python'")
    return COMPILED
