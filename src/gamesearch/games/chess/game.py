"""The chess game: :class:`ChessGame`, the library's :class:`~gamesearch.game.Game` for
standard chess on python-chess boards, with FEN/SAN/UCI notation.

The textbook functions and the engine's capabilities are thin: what the search calls at
every node (``result``, ``terminal_utility``, and in the capabilities ``in_check``,
``evaluate``, ``quick_evaluate``, ``iter_noisy_actions``) are the functions of the game's
kernels (:mod:`.backend`), and the rest reads what those recorded in the state. The
capability objects (:mod:`gamesearch.capabilities`) hold those very functions, so the
search calls the kernels with nothing in between. Actions are :class:`chess.Move` objects, one
shared object per (from, to, promotion) (:func:`.board.intern_move`), written in UCI
(``e2e4``, ``e7e8q``); ``parse_action`` also accepts SAN (``Nf3``, ``O-O``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import pairwise
from types import MappingProxyType
from typing import Any

import chess
from chess import BB_SQUARES, Board, Move

from ...capabilities import (
    CompiledSearch,
    Drawing,
    EngineSettings,
    Evaluation,
    MatchHooks,
    MoveOrdering,
    NullMove,
    Perft,
    Tactics,
)
from ...errors import GameError, IllegalMoveError, InvalidLimitError, InvalidPositionError
from ...game import Game, GameType, win_distance
from . import board as _board
from .backend import COMPILED, ENGINE, Kernels, default_kernels, kernels_named
from .board import MATE, MATED, ChessState, intern_move
from .evaluation import EVAL_CACHE_SIZE
from .movegen import generate_moves
from .see import SEE_VALUE
from .status import insufficient_material, repeated

STARTPOS = chess.STARTING_FEN

#: The FEN fields after the board, each as it may be written (a positions-file line is
#: split where they end: see ``split_position_line``).
_FEN_TAIL: tuple[Callable[[str], bool], ...] = (
    lambda w: w in ("w", "b"),
    lambda w: w == "-" or (len(w) <= 4 and all(c in "KQkqABCDEFGHabcdefgh" for c in w)),
    lambda w: w == "-" or (len(w) == 2 and w[0] in "abcdefgh" and w[1] in "36"),
    lambda w: w.isascii() and w.isdigit(),
    lambda w: w.isascii() and w.isdigit(),
)

#: A move word after ``moves``: UCI or SAN (a score such as ``1`` or ``1/2`` is neither).
_MOVE_WORD = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?|(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8]"
                        r"(?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)[+#]?", re.ASCII)

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


#: How :meth:`ChessGame.count_perft` counts (the only convention).
PERFT_CONVENTIONS = MappingProxyType({
    "perft": "leaves exactly D plies deep; a game over earlier counts 0 (standard chess perft)"})

SEE_PAWN = SEE_VALUE[1]
#: What chess asks of the engine (see :meth:`ChessGame.engine_settings`).
ENGINE_SETTINGS = EngineSettings(lmr=True, futility_margins=(0.0, 200.0, 400.0), soft_share=0.5,
                                 score_unit=100.0, exchange_margins=(64.0, 20.0),
                                 see_pruning=True, noisy_first=True)


class ChessGame(Game[ChessState, Move]):
    """Chess (standard rules, White = player 0, Black = player 1).

    ``kernels``: the functions that serve the hot paths (:mod:`.backend`): a
    :class:`~.backend.Kernels`, its name (``"python"``, ``"compiled"``) or None for
    :func:`~.backend.default_kernels`.
    """

    name = "chess"
    description = "chess on python-chess: UCI/SAN moves, FEN positions"
    num_players = 2
    game_type = GameType(num_players=2)
    max_utility = MATE
    state_notation = (
        "FEN (e.g. 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') or "
        "'startpos', optionally followed by 'moves' and moves in UCI or SAN"
    )

    # ----- what the interfaces and the arena ask (capabilities) ---------------------------
    def match_hooks(self) -> MatchHooks:
        """Positions in FEN and moves in UCI (the arena can export chess games as PGN), and
        the arena's openings (:meth:`arena_openings`)."""
        return MatchHooks(arena_openings=self.arena_openings, pgn_notation=True)

    def perft(self) -> Perft[ChessState]:
        """``gamesearch perft chess``: the standard count (see :mod:`.perft`), by this
        game's kernels."""
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def drawing(self) -> Drawing[ChessState]:
        """The position as SVG, legal moves clickable (see :mod:`gamesearch.games.chess_svg`)."""
        from ..chess_svg import render

        return Drawing(partial(render, self))

    def count_perft(self, state: ChessState, depth: int, convention: str | None = None) -> int:
        """The standard perft count (:data:`PERFT_CONVENTIONS`)."""
        if convention not in (None, "perft"):
            raise InvalidLimitError(f"chess perft convention {convention!r}; allowed: perft")
        from .perft import perft

        return perft(state, depth, self.kernels)

    def arena_openings(self) -> list[str]:
        """The openings of matches that name none: 50 balanced book lines in SAN, each
        played with both colours (``gamesearch/data/chess_openings.txt``; its header
        says how they were chosen)."""
        from importlib import resources

        path = resources.files("gamesearch") / "data" / "chess_openings.txt"
        return path.read_text(encoding="utf-8").splitlines()

    # ----- the per-node operations: the kernels' own functions ----------------------------
    # The search calls these at every node. They are not methods but the functions of the
    # game's kernels, set in __init__, so that no Python call stands between the search and
    # the kernel (methods calling them cost 12 % of the compiled engine's nodes per second:
    # chess_nps.py's four positions at depth 5, best of 5). Their documentation is
    # the pure-Python references': board.result, status.terminal_utility, status.in_check,
    # evaluation.evaluate and quick_evaluate (with the game's evaluation cache bound), and
    # movegen.noisy_actions.
    result: Callable[[ChessState, Move], ChessState]  # type: ignore[assignment]
    terminal_utility: Callable[[ChessState, int], float | None]  # type: ignore[assignment]
    in_check: Callable[[ChessState], bool]
    evaluate: Callable[[ChessState, int], float]
    quick_evaluate: Callable[[ChessState, int], tuple[float, float]]
    iter_noisy_actions: Callable[[ChessState], Iterable[Move]]

    def __init__(self, kernels: Kernels | str | None = None) -> None:
        if kernels is None:
            kernels = default_kernels()
        elif isinstance(kernels, str):
            kernels = kernels_named(kernels)
        self.kernels = kernels
        #: evaluations by Zobrist key (side to move's view): iterative deepening meets the
        #: same quiescence leaves again and again
        self._eval_cache: dict[int, int] = {}
        self._state_moves = kernels.state_moves
        self.result = kernels.result
        self.terminal_utility = kernels.terminal_utility
        self.in_check = kernels.in_check
        self.evaluate = partial(kernels.evaluate, self._eval_cache)
        self.quick_evaluate = partial(kernels.quick_evaluate, self._eval_cache)
        self.iter_noisy_actions = kernels.noisy_actions
        #: the compiled search's evaluation cache (its twin of ``_eval_cache``), made when
        #: a search first asks for it
        self._twin_cache: Any = None

    def __reduce__(self) -> tuple[Any, tuple[Kernels]]:
        # a copy (or another process) gets the same kernels and a fresh evaluation cache
        return (ChessGame, (self.kernels,))

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> ChessState:
        return ChessState.from_board(Board())

    def to_move(self, state: ChessState) -> int:
        return state.player

    def format_score(self, state: ChessState, value: Any) -> str:
        """``+0.35 (White to move)`` (pawns: centipawns / 100), ``mate in 2 (Black to
        move)`` or ``mated in 2 (...)`` (full moves, read from the search's win discount):
        always for the side to move."""
        side = "White" if state.player == 0 else "Black"
        if not isinstance(value, int | float):
            return f"{value} ({side} to move)"
        plies = win_distance(value, MATE)
        if plies is not None:
            moves = (plies + 1) // 2  # the mating side's moves
            return f"{'mate' if value > 0 else 'mated'} in {moves} ({side} to move)"
        return f"{value / 100:+.2f} ({side} to move)"

    def actions(self, state: ChessState) -> Sequence[Move]:
        moves = state._moves
        if moves is None:
            moves = self._state_moves(state)
        return moves

    def is_terminal(self, state: ChessState) -> bool:
        return self.terminal_utility(state, 0) is not None

    def utility(self, state: ChessState, player: int) -> float:
        u = self.terminal_utility(state, player)
        return 0.0 if u is None else u

    def returns(self, state: ChessState) -> tuple[float, float]:
        u = self.utility(state, 0)
        return (u, -u)

    # ----- the engine's capabilities ----------------------------------------------------
    def evaluation(self, name: str | None = None) -> Evaluation[ChessState] | None:
        """Material and piece-square tables with pawn structure and king safety
        (:mod:`.evaluation`), and its cheap estimate for lazy evaluation."""
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate, self.quick_evaluate)

    def move_ordering(self) -> MoveOrdering[ChessState, Move]:
        return MoveOrdering(self.order_actions)

    def tactics(self) -> Tactics[ChessState, Move]:
        """Captures and promotions for quiescence (one at a time: the static exchange is
        computed only when reached), which moves are captures or promotions, check."""
        return Tactics(self.iter_noisy_actions, self.is_noisy, self.in_check, self.exchange)

    def compiled_search(self) -> CompiledSearch | None:
        """The compiled twin of the ``id`` search (``kernels/engine.pyx``) when it is built
        and this game runs on the compiled kernels (``GAMESEARCH_PURE_PYTHON`` or
        ``kernels="python"``: none, the Python search). Not for a subclass: the twin has
        this class's rules and hooks built in, and would bypass an override."""
        if ENGINE is None or self.kernels is not COMPILED or type(self) is not ChessGame:
            return None
        if self._twin_cache is None:
            self._twin_cache = ENGINE.EvalCache(EVAL_CACHE_SIZE)
        return CompiledSearch(partial(ENGINE.Engine, cache=self._twin_cache),
                              table_entries=ENGINE.table_entries)

    def null_move(self) -> NullMove[ChessState]:
        return NullMove(self.null_result, self.null_move_allowed)

    def engine_settings(self) -> EngineSettings:
        """Engine policy for chess: late-move reductions in the ``id`` engine (captures,
        promotions and checks are never reduced: ``is_noisy`` and ``in_check``); futility
        margins by remaining depth (centipawns): at depth 1 a quiet move must gain over two
        pawns to matter, at depth 2 four; under a time limit, no new iteration after half
        of it. Static exchange pruning is on (at depth <= 5, quiet moves losing over 64 cp a
        ply of depth, captures losing over 20 cp times the depth squared; never a move that
        gives check): its SPRT on distinct openings at 100k nodes a move passed, +31.7 ±
        18.8 Elo in 999 games, and WAC at 1 s stays at 273 (docs/games/chess.md);
        ``id:see_pruning=0`` turns it off. The move order puts captures and promotions
        (MVV-LVA) before the killers and sorts only the quiet moves by history
        (``noisy_first``; its SPRT at 100k nodes passed, +118.7 ± 42.4 Elo in 228 games,
        and WAC at 1 s rose to 286; ``id:noisy_first=0`` gives the library's first order).
        The table of late-move reductions, late-move pruning and internal iterative
        reductions stay off: measured, not kept (the same document)."""
        return ENGINE_SETTINGS

    # ----- null move (for the engine's null-move pruning) ----------------------------
    def null_result(self, state: ChessState) -> ChessState:
        """The side to move passes: the turn flips and the en-passant square goes."""
        return _board.null_result(state)

    def null_move_allowed(self, state: ChessState) -> bool:
        """Not in check, and the mover has a piece besides pawns (zugzwang is rare then)."""
        if self.in_check(state):
            return False
        b = state.board
        return bool((b.knights | b.bishops | b.rooks | b.queens) & b.occupied_co[b.turn])

    # ----- chess queries -------------------------------------------------------------
    def termination(self, state: ChessState) -> str | None:
        """Why the game is over (``"checkmate"``, ``"stalemate"``, ...), or ``None``."""
        if not self.is_terminal(state):
            return None
        b = state.board
        if state._status == MATED:
            return "checkmate"
        if insufficient_material(state):
            return "insufficient material"
        if not self.actions(state):
            return "stalemate"
        if b.halfmove_clock >= 4 and state.parent is not None and repeated(state):
            return "repetition"
        return "fifty-move rule"

    def search_start(self, state: ChessState) -> ChessState:
        """The same position marked as the root of a search (every search driver calls
        this): below it, a position that recurs after the root is scored as a draw at its
        first repetition.

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

    # ----- the table key and the engine's helpers ------------------------------------------
    def key(self, state: ChessState) -> int:
        return state.key

    def noisy_actions(self, state: ChessState) -> Sequence[Move]:
        """Captures and queen/knight promotions, MVV-LVA first, without captures that
        lose material by SEE (those where the capturer is worth more than the victim);
        every evasion when in check. (``iter_noisy_actions`` gives them one at a time:
        the engine's quiescence uses that.)"""
        return list(self.iter_noisy_actions(state))

    def exchange(self, state: ChessState, action: Move) -> float:
        """The static exchange value of ``action`` (centipawns; the kernels' ``see``): a
        move to an empty square (not en passant) is valued as what it then loses."""
        b = state.board
        v = self.kernels.see(b, action)
        to = action.to_square
        if not b.occupied & BB_SQUARES[to] and not (
                to == b.ep_square and b.pawns & BB_SQUARES[action.from_square]):
            v -= SEE_PAWN  # (``see`` counts a pawn won on the empty square, as if en passant)
        return float(v)

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

    def describe_action(self, state: ChessState, action: Move) -> str:
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
        if move not in legal:  # python-chess reads "--" and "Z0" as SAN's null move
            raise IllegalMoveError(text, [m.uci() for m in legal], reason="a null move")
        return intern_move(move)

    def format_state(self, state: ChessState) -> str:
        """The FEN (the history behind the position, for repetitions, is not part of it)."""
        return state.board.fen()

    def split_position_line(self, line: str) -> tuple[str, str]:
        """A FEN's fields (4 to 6: the clocks are optional, as in EPD) or ``startpos``, and
        ``moves`` with the UCI/SAN moves after it, are the position; what follows (a score,
        a comment) is not."""
        words = line.split()
        n = 1 if words and words[0].lower() in ("startpos", "start") else 0
        if not n and words:
            n = 1
            for check in _FEN_TAIL:
                if n < len(words) and check(words[n]):
                    n += 1
                else:
                    break
        if n < len(words) and words[n] == "moves":
            n += 1
            while n < len(words) and _MOVE_WORD.fullmatch(words[n]):
                n += 1
        return " ".join(words[:n]), " ".join(words[n:])

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


def board_of(state: ChessState) -> Board:
    """A python-chess Board of the state with its move history on the stack (a copy)."""
    history = state.history()
    board = history[0].board.copy(stack=False)
    for prev, nxt in pairwise(history):
        board.push(_move_between(prev, nxt))
    return board


def _move_between(a: ChessState, b: ChessState) -> Move:
    for m in generate_moves(a.board)[0]:
        if _board.result(a, m).key == b.key:
            return m
    raise GameError("no move leads from one state to the next")  # pragma: no cover
