"""gamesearch against its peers: the same searches, in one process, in one run.

Run from the repository root (the peers are the ``[bench]`` extra)::

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/peers.py                 # ~1 minute on 2 cores
    .venv/bin/python benchmarks/peers.py --quick         # 1 sample per row, ~30 s
    .venv/bin/python benchmarks/peers.py --deep --markdown --json results.json

Works (from the empty board, actions in the natural order: squares 0..8, columns 0..6 left
to right):

1. tic-tac-toe, full minimax (549,946 nodes);
2. tic-tac-toe, alpha-beta to the end, ±1 utilities, no depth discount (18,297 nodes);
3. Connect Four, alpha-beta to depth 8 (10 with ``--deep``) with the evaluation E of
   ``shared/docs/peers.md`` (own minus opponent sum of cell weights; a win is ±1000).

Implementations: gamesearch; OpenSpiel's Python ``minimax`` module over C++ pyspiel states;
easyAI's ``Negamax`` (2.0.12) on the TwoPlayerGame subclasses below; aima-python's textbook
functions from the ``aima3`` snapshot on the Game subclasses below; and a lean hand-written
pure-Python negamax as a calibration row (what Python itself can do).

Node count, for every row: the root plus every child position the search generates
(terminal and horizon leaves included). gamesearch reports it itself (``SearchResult.nodes``,
so its timed runs include its own counting). The peers do not count: each peer's count comes
from one extra, instrumented run (counting ``result()`` / ``make_move()`` calls, or calls of
OpenSpiel's recursive function), and its timed runs are the uninstrumented code. The notes
under the table say which instrument each row used.

Times are CPU seconds (``time.process_time``) of one search, the median of ``--repeat``
samples; a search shorter than ``MIN_SAMPLE`` (0.2 s) is looped inside each sample, as timeit
does. The samples are interleaved (every implementation once, then again), so the machine's
noise hits all rows alike. Compare ratios, never an absolute time from another run. Before a
peer's Connect Four search, a probe at depth - 2 estimates its time; a row whose runs (the
count run and the repeats) are estimated above ``--max-seconds`` is skipped, the estimate
printed.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import itertools
import json
import math
import platform
import statistics
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

INF = float("inf")

# ---------------------------------------------------------------------------------------
# Game knowledge the peer adapters share (written here so that no peer uses gamesearch code)
# ---------------------------------------------------------------------------------------

# Tic-tac-toe: a side's squares as a 9-bit mask, squares 0..8 in reading order.
TTT_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
TTT_FULL = 0x1FF
TTT_WON = [any(all(m >> i & 1 for i in line) for line in TTT_LINES) for m in range(512)]
#: TTT_MOVES[occupied] = the empty squares, 0..8.
TTT_MOVES = [tuple(i for i in range(9) if not occ >> i & 1) for occ in range(512)]

# Connect Four: Pons's bitboards, bit ``col * 7 + row`` (row 0 at the bottom, row 6 a sentinel).
C4_WIDTH, C4_HEIGHT = 7, 6
C4_WIN = 1000
C4_BOTTOM = tuple(1 << (7 * c) for c in range(C4_WIDTH))
C4_TOP = tuple(1 << (7 * c + C4_HEIGHT - 1) for c in range(C4_WIDTH))
C4_TOP_ALL = sum(C4_TOP)
C4_COLUMN = tuple(0x3F << (7 * c) for c in range(C4_WIDTH))
C4_BOARD = sum(C4_COLUMN)
#: C4_MOVES[mask & C4_TOP_ALL] = the open columns, left to right.
C4_MOVES = {
    sum(C4_TOP[c] for c in range(C4_WIDTH) if full >> c & 1): tuple(
        c for c in range(C4_WIDTH) if not full >> c & 1
    )
    for full in range(1 << C4_WIDTH)
}


def _c4_weights() -> tuple[tuple[int, ...], ...]:
    """WEIGHT[row][col]: how many four-in-a-row windows pass through the cell."""
    count = [[0] * C4_WIDTH for _ in range(C4_HEIGHT)]
    for c, r, (dc, dr) in itertools.product(
        range(C4_WIDTH), range(C4_HEIGHT), ((1, 0), (0, 1), (1, 1), (1, -1))
    ):
        cells = [(c + k * dc, r + k * dr) for k in range(4)]
        if all(0 <= cc < C4_WIDTH and 0 <= rr < C4_HEIGHT for cc, rr in cells):
            for cc, rr in cells:
                count[rr][cc] += 1
    return tuple(tuple(row) for row in count)


C4_WEIGHT = _c4_weights()
# The table of peers.md, E's definition: check the derivation against it.
assert C4_WEIGHT == (
    (3, 4, 5, 7, 5, 4, 3),
    (4, 6, 8, 10, 8, 6, 4),
    (5, 8, 11, 13, 11, 8, 5),
    (5, 8, 11, 13, 11, 8, 5),
    (4, 6, 8, 10, 8, 6, 4),
    (3, 4, 5, 7, 5, 4, 3),
)
#: The weight of a cell keyed by its one-bit bitboard.
C4_CELL_WEIGHT = {
    1 << (7 * c + r): C4_WEIGHT[r][c] for c in range(C4_WIDTH) for r in range(C4_HEIGHT)
}


def c4_four(p: int) -> bool:
    """True when the bitboard ``p`` holds four in a row."""
    m = p & p >> 7
    if m & m >> 14:
        return True
    m = p & p >> 1
    if m & m >> 2:
        return True
    m = p & p >> 6
    if m & m >> 12:
        return True
    m = p & p >> 8
    return bool(m & m >> 16)


# ---------------------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    key: str
    title: str
    game: str  # "ttt" | "c4"
    algorithm: str  # "minimax" | "alphabeta"
    depth: int | None  # None: to the end of the game


@dataclass
class Answer:
    """What one search returned: value for the root player (None if the API gives none),
    the chosen action, and the node count (None if the implementation does not count)."""

    value: float | None
    action: Any
    nodes: int | None = None


@dataclass
class Impl:
    label: str
    peer: str
    run: Callable[[], Answer]  # the timed, uninstrumented search
    convention: str  # how ``nodes`` was obtained
    count: Callable[[], Answer] | None = None  # the instrumented search (peers)
    baseline: str | None = None  # label of the gamesearch row this row is compared with
    probe: Callable[[], Answer] | None = None  # the same search at depth - 2 (Connect Four)


@dataclass
class Row:
    work: str
    label: str
    peer: str
    nodes: int | None = None
    seconds: float | None = None
    runs: list[float] = field(default_factory=list)  # CPU s of one search, per sample
    inner: int = 1  # searches per timed sample
    nodes_per_second: float | None = None
    ratio: float | None = None
    baseline: str | None = None
    value: float | None = None
    action: Any = None
    convention: str = ""
    skipped: str | None = None


class Skip(Exception):
    """An implementation that cannot run this work (the message says why)."""


#: A timed sample shorter than this repeats the search in a loop (like timeit) and reports
#: the time of one search: a 4 ms search alone is mostly timer and scheduler noise.
MIN_SAMPLE = 0.2


def cpu(fn: Callable[[], Answer], inner: int = 1) -> tuple[float, Answer]:
    """CPU seconds of one call of ``fn`` (the mean of ``inner`` calls in a row)."""
    gc.collect()
    t0 = time.process_time()
    for _ in range(inner):
        out = fn()
    return (time.process_time() - t0) / inner, out


def counting_subclass(cls: type, method: str) -> type:
    """``cls`` whose ``method`` counts its calls; ``instance.nodes`` = 1 (the root) + the calls
    since the instance was built. The counter lives outside the instance, so the deep copies
    easyAI makes of a game count into it too."""
    calls = [0]
    original = getattr(cls, method)

    def counted(self: Any, *args: Any) -> Any:
        calls[0] += 1
        return original(self, *args)

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, *args, **kwargs)
        calls[0] = 0

    def nodes(self: Any) -> int:
        return 1 + calls[0]

    namespace = {method: counted, "__init__": init, "nodes": property(nodes)}
    return type(f"Counting{cls.__name__}", (cls,), namespace)


# ---------------------------------------------------------------------------------------
# gamesearch
# ---------------------------------------------------------------------------------------


def gamesearch_game(work: Work) -> Any:
    from gamesearch.games import GAMES, get_game

    if work.game == "ttt":
        return get_game("tictactoe")
    if "connect4" in GAMES:
        return get_game("connect4")
    try:  # written, not registered yet
        from gamesearch.games.connect4 import ConnectFour
    except ImportError as exc:
        raise Skip(f"gamesearch has no Connect Four yet ({exc})") from None
    return ConnectFour()


#: Negamax options that add pruning the peers do not have, each turned off for the plain
#: algorithm (``safe``: Pons's "drop the moves that lose at once", on by default for games
#: with ``safe_moves()``, such as Connect Four).
PLAIN_NEGAMAX = {"safe": False, "quiescence": False, "ordering": False, "tt": 0, "pvs": False}


def plain_options(algorithm: str) -> dict[str, Any]:
    """The options that make ``algorithm`` plain alpha-beta, among those it accepts."""
    if algorithm != "negamax":
        return {}
    from gamesearch.search import ALGORITHMS

    accepted = inspect.signature(ALGORITHMS[algorithm].cls.__init__).parameters
    return {k: v for k, v in PLAIN_NEGAMAX.items() if k in accepted}


def gamesearch_impls(work: Work) -> list[Impl]:
    from gamesearch.search import Limit, make_searcher

    game = gamesearch_game(work)
    limit = Limit(depth=work.depth) if work.depth else Limit()
    conv = "SearchResult.nodes (root + every generated child, counted by the search itself)"

    def searcher(algorithm: str, discount: bool) -> Callable[[], Answer]:
        options = plain_options(algorithm)

        def run() -> Answer:
            r = make_searcher(game, algorithm, discount=discount, **options).search(
                game.initial_state(), limit
            )
            return Answer(r.value, r.action, r.nodes)

        return run

    if work.algorithm == "minimax":
        specs = [("minimax", False)]
    else:  # alphabeta is the baseline; negamax must visit the same nodes
        specs = [("alphabeta", False), ("negamax", False), ("alphabeta", True)]
    out = []
    for algorithm, discount in specs:
        label = f"gamesearch {algorithm}" + (" (plain)" if plain_options(algorithm) else "")
        label += " discount=True" if discount else ""
        out.append(Impl(label, "gamesearch", searcher(algorithm, discount), conv))
    return out


GS_BASE = {  # the gamesearch row each peer is compared with
    "ttt-minimax": "gamesearch minimax",
    "plain": "gamesearch alphabeta",
    "discounted": "gamesearch alphabeta discount=True",
}


def baseline_for(work: Work, discounted: bool = False) -> str:
    if work.algorithm == "minimax":
        return GS_BASE["ttt-minimax"]
    return GS_BASE["discounted" if discounted else "plain"]


# ---------------------------------------------------------------------------------------
# OpenSpiel: open_spiel.python.algorithms.minimax over pyspiel (C++) states
# ---------------------------------------------------------------------------------------


def _os_row_values() -> list[dict[str, int]]:
    """For each row of ``str(state)`` (6 lines of 7 cells), E of every possible line for x.

    E from a pyspiel Connect Four state's string is then 6 dict look-ups. The weight table is
    symmetric top/bottom and left/right, so the orientation of the string does not matter.
    """
    tables = []
    for r in range(C4_HEIGHT):
        w = C4_WEIGHT[r]
        table = {}
        for cells in itertools.product(".xo", repeat=C4_WIDTH):
            table["".join(cells)] = sum(
                w[c] if ch == "x" else -w[c] if ch == "o" else 0 for c, ch in enumerate(cells)
            )
        tables.append(table)
    return tables


def _counting_call(module: Any, name: str, fn: Callable[[], Any]) -> tuple[Any, int]:
    """Run ``fn`` with ``module.name`` (a recursive function) wrapped to count its calls."""
    original = getattr(module, name)
    calls = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    setattr(module, name, counted)
    try:
        out = fn()
    finally:
        setattr(module, name, original)
    return out, calls


def open_spiel_impls(work: Work) -> list[Impl]:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError as exc:
        raise Skip(f"open_spiel not importable ({exc})") from None

    if work.game == "ttt":
        game = pyspiel.load_game("tic_tac_toe")
        if work.algorithm == "minimax":
            label = "OpenSpiel expectiminimax"

            def search(depth: int | None = None) -> Answer:
                # ttt ends within 9 plies, so depth 9 never cuts off.
                v, a = minimax.expectiminimax(game.new_initial_state(), 9, None, 0)
                return Answer(v, a)

            fn_name = "expectiminimax"
        else:
            label = "OpenSpiel alpha_beta_search"

            def search(depth: int | None = None) -> Answer:
                v, a = minimax.alpha_beta_search(game, maximum_depth=30)
                return Answer(v, a)

            fn_name = "_alpha_beta"
        probe = None
    else:
        game = pyspiel.load_game("connect_four")
        rows = _os_row_values()
        root_player = 0

        def value_function(state: Any) -> float:
            # E (for player 0 = 'x') from the state's string, scaled by 1/1000 because
            # pyspiel's returns are ±1: the same order as integer E with wins of ±1000.
            lines = str(state).split()
            e = (
                rows[0][lines[0]]
                + rows[1][lines[1]]
                + rows[2][lines[2]]
                + rows[3][lines[3]]
                + rows[4][lines[4]]
                + rows[5][lines[5]]
            )
            return (e if root_player == 0 else -e) / C4_WIN

        def search(depth: int | None = None) -> Answer:
            v, a = minimax.alpha_beta_search(
                game, value_function=value_function, maximum_depth=depth or work.depth
            )
            return Answer(round(v * C4_WIN, 9), a)

        label = "OpenSpiel alpha_beta_search"
        fn_name = "_alpha_beta"
        assert work.depth is not None
        probe_depth = work.depth - 2

        def probe() -> Answer:
            return search(probe_depth)

    def count() -> Answer:
        ans, calls = _counting_call(minimax, fn_name, search)
        ans.nodes = calls
        return ans

    conv = (
        f"calls of minimax.{fn_name} (one per state: the root and each child it clones and "
        "applies an action to), counted by wrapping the module function in an extra run"
    )
    if work.game == "c4":
        conv += "; E read from str(state) (6 dict look-ups), divided by 1000 (returns are ±1)"
    return [Impl(label, "open_spiel", search, conv, count, baseline_for(work), probe)]


# ---------------------------------------------------------------------------------------
# aima-python (the aima3 snapshot): minimax_decision, alphabeta_search, alphabeta_cutoff_search
# ---------------------------------------------------------------------------------------


def aima_impls(work: Work) -> list[Impl]:
    try:
        from aima3 import games as aima
    except ImportError as exc:
        raise Skip(f"aima3 not importable ({exc})") from None

    class AimaTicTacToe(aima.Game):  # type: ignore[misc]
        """State: (X's squares, O's squares, player to move: 0 = X)."""

        initial = (0, 0, 0)

        def actions(self, state: tuple[int, int, int]) -> tuple[int, ...]:
            return TTT_MOVES[state[0] | state[1]]

        def result(self, state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
            x, o, p = state
            return (x | 1 << move, o, 1) if p == 0 else (x, o | 1 << move, 0)

        def terminal_test(self, state: tuple[int, int, int]) -> bool:
            x, o, _ = state
            return TTT_WON[x] or TTT_WON[o] or x | o == TTT_FULL

        def utility(self, state: tuple[int, int, int], player: int) -> int:
            u = 1 if TTT_WON[state[0]] else -1 if TTT_WON[state[1]] else 0
            return -u if player else u

        def to_move(self, state: tuple[int, int, int]) -> int:
            return state[2]

    class AimaConnectFour(aima.Game):  # type: ignore[misc]
        """State: (stones of the side to move, all stones, moves played, E for the side to
        move), E kept up to date by ``result``."""

        initial = (0, 0, 0, 0)

        def actions(self, state: tuple[int, int, int, int]) -> tuple[int, ...]:
            return C4_MOVES[state[1] & C4_TOP_ALL]

        def result(self, state: tuple[int, int, int, int], col: int) -> tuple[int, ...]:
            cur, mask, n, e = state
            new = mask | (mask + C4_BOTTOM[col])
            return (cur ^ mask, new, n + 1, -e - C4_CELL_WEIGHT[new ^ mask])

        def terminal_test(self, state: tuple[int, int, int, int]) -> bool:
            return state[2] == 42 or c4_four(state[0] ^ state[1])

        def utility(self, state: tuple[int, int, int, int], player: int) -> int:
            if c4_four(state[0] ^ state[1]):  # the player who just moved has won
                return C4_WIN if (state[2] ^ player) & 1 else -C4_WIN
            return 0

        def to_move(self, state: tuple[int, int, int, int]) -> int:
            return state[2] & 1

        def eval_fn(self, player: int) -> Callable[[tuple[int, int, int, int]], int]:
            def e(state: tuple[int, int, int, int]) -> int:
                if c4_four(state[0] ^ state[1]):
                    return C4_WIN if (state[2] ^ player) & 1 else -C4_WIN
                if state[2] == 42:
                    return 0
                return state[3] if state[2] & 1 == player else -state[3]

            return e

    class ShippedTicTacToe(aima.TicTacToe):  # type: ignore[misc]
        """aima3's own TicTacToe (dict board, GameState). Its move order is column-major,
        the reading order rotated by 90 degrees: an isomorphic tree, the same counts."""

        def answer(self, action: Any) -> Any:
            return self.initial.moves.index(action)  # rank in the move order

    class ShippedConnectFour(aima.ConnectFour):  # type: ignore[misc]
        """aima3's own ConnectFour (dict board; x = column 1..7, y = row 1..6 from the
        bottom; actions left to right), with E added as the cut-off evaluation."""

        def eval_fn(self, player: str) -> Callable[[Any], int]:
            weight = {
                (c + 1, r + 1): C4_WEIGHT[r][c] for c in range(C4_WIDTH) for r in range(C4_HEIGHT)
            }

            def e(state: Any) -> int:
                if state.utility:  # ±1 for X: a win
                    return C4_WIN * self.utility(state, player)
                if not state.moves:
                    return 0
                v = sum(
                    weight[cell] if p == "X" else -weight[cell] for cell, p in state.board.items()
                )
                return v if player == "X" else -v

            return e

        def answer(self, action: Any) -> Any:
            return action[0] - 1  # the column, 0..6

    def decide(game: Any, depth: int | None) -> Any:
        state = game.initial
        if work.game == "c4":
            # aima's cut-off test is ``depth > d`` with the root's children at depth 1, so
            # d - 1 searches d plies (the off-by-one of the snapshot).
            assert depth is not None
            e = game.eval_fn(game.to_move(state))
            return aima.alphabeta_cutoff_search(state, game, d=depth - 1, eval_fn=e)
        if work.algorithm == "minimax":
            return aima.minimax_decision(state, game)
        return aima.alphabeta_search(state, game)

    def make_search(game_cls: type, depth: int | None) -> Callable[[], Answer]:
        def search() -> Answer:
            g = game_cls()
            a = decide(g, depth)
            if hasattr(g, "answer"):
                a = g.answer(a)
            return Answer(None, a, getattr(g, "nodes", None))

        return search

    function = (
        "alphabeta_cutoff_search"
        if work.game == "c4"
        else "minimax_decision"
        if work.algorithm == "minimax"
        else "alphabeta_search"
    )
    conv = "1 + calls of Game.result (counting subclass of the game class, extra run)"
    out = []
    for cls, game_text in (
        (
            (AimaTicTacToe, "bitboard Game"),
            (ShippedTicTacToe, "aima3 TicTacToe"),
        )
        if work.game == "ttt"
        else (
            (AimaConnectFour, "bitboard Game"),
            (ShippedConnectFour, "aima3 ConnectFour"),
        )
    ):
        probe = make_search(cls, work.depth - 2) if work.depth else None
        out.append(
            Impl(
                f"aima3 {function} ({game_text})",
                "aima3",
                make_search(cls, work.depth),
                conv,
                make_search(counting_subclass(cls, "result"), work.depth),
                baseline_for(work),
                probe,
            )
        )
    return out


# ---------------------------------------------------------------------------------------
# easyAI 2.0.12: Negamax on TwoPlayerGame subclasses (with unmake_move, easyAI's fast path)
# ---------------------------------------------------------------------------------------


def easyai_impls(work: Work) -> list[Impl]:
    if work.algorithm == "minimax":
        raise Skip("easyAI has no plain minimax (its Negamax always prunes)")
    try:
        from easyAI import Negamax, TwoPlayerGame
    except ImportError as exc:
        raise Skip(f"easyAI not importable ({exc})") from None

    # Without unmake_move easyAI deep-copies the game for every child (its default path);
    # with it, it plays and takes back moves on one object (its documented fast path).
    class EasyTicTacToeCopying(TwoPlayerGame):  # type: ignore[misc]
        def __init__(self) -> None:
            self.players = [None, None]
            self.current_player = 1
            self.boards = [0, 0]
            self.won = False

        def possible_moves(self) -> list[int]:
            return list(TTT_MOVES[self.boards[0] | self.boards[1]])

        def make_move(self, move: int) -> None:
            i = self.current_player - 1
            b = self.boards[i] | 1 << move
            self.boards[i] = b
            self.won = TTT_WON[b]

        def is_over(self) -> bool:
            return self.won or self.boards[0] | self.boards[1] == TTT_FULL

        def scoring(self) -> int:
            return -1 if self.won else 0  # for the side to move; the mover just won

    class EasyTicTacToe(EasyTicTacToeCopying):
        def unmake_move(self, move: int) -> None:
            self.boards[self.current_player - 1] ^= 1 << move
            self.won = False  # a won position is never expanded

    class EasyConnectFourCopying(TwoPlayerGame):  # type: ignore[misc]
        def __init__(self) -> None:
            self.players = [None, None]
            self.current_player = 1
            self.boards = [0, 0]
            self.mask = 0
            self.e = 0  # E for player 1, kept up to date
            self.won = False

        def possible_moves(self) -> list[int]:
            return list(C4_MOVES[self.mask & C4_TOP_ALL])

        def make_move(self, col: int) -> None:
            mask = self.mask
            new = mask | (mask + C4_BOTTOM[col])
            bit = new ^ mask
            i = self.current_player - 1
            b = self.boards[i] | bit
            self.boards[i] = b
            self.mask = new
            self.e += -C4_CELL_WEIGHT[bit] if i else C4_CELL_WEIGHT[bit]
            self.won = c4_four(b)

        def is_over(self) -> bool:
            return self.won or self.mask == C4_BOARD

        def scoring(self) -> int:
            if self.won:
                return -C4_WIN
            if self.mask == C4_BOARD:
                return 0
            return self.e if self.current_player == 1 else -self.e

    class EasyConnectFour(EasyConnectFourCopying):
        def unmake_move(self, col: int) -> None:
            bit = 1 << ((self.mask & C4_COLUMN[col]).bit_length() - 1)  # the top stone
            i = self.current_player - 1
            self.boards[i] ^= bit
            self.mask ^= bit
            self.e -= -C4_CELL_WEIGHT[bit] if i else C4_CELL_WEIGHT[bit]
            self.won = False

    if work.game == "ttt":
        fast: type = EasyTicTacToe
        copying: type = EasyTicTacToeCopying
    else:
        fast, copying = EasyConnectFour, EasyConnectFourCopying
    full_depth = work.depth or 9

    def make_search(game_cls: type, depth: int) -> Callable[[], Answer]:
        def search() -> Answer:
            g = game_cls()
            ai = Negamax(depth)
            move = ai(g)
            return Answer(ai.alpha + 0.0, move, getattr(g, "nodes", None))  # no -0.0

        return search

    out = []
    for cls, how in ((fast, "unmake_move"), (copying, "deepcopy")):
        probe = make_search(cls, work.depth - 2) if work.depth else None
        out.append(
            Impl(
                f"easyAI Negamax ({how})",
                "easyAI",
                make_search(cls, full_depth),
                "1 + calls of make_move (counting subclass, extra run)",
                make_search(counting_subclass(cls, "make_move"), full_depth),
                baseline_for(work, discounted=True),
                probe,
            )
        )
    return out


# ---------------------------------------------------------------------------------------
# Lean hand-written pure Python: negamax alpha-beta, the calibration row
# ---------------------------------------------------------------------------------------

# The move tables the lean searches read. The counting run swaps them for tables whose
# iteration counts the moves it hands out (= the children generated): no twin code.
_LEAN = {"ttt": TTT_MOVES, "c4": C4_MOVES}
_LEAN_NODES = [0]


class _CountingMoves:
    __slots__ = ("moves",)

    def __init__(self, moves: tuple[int, ...]) -> None:
        self.moves = moves

    def __iter__(self) -> Iterator[int]:
        for m in self.moves:
            _LEAN_NODES[0] += 1
            yield m


def _lean_ttt_minimax(me: int, opp: int) -> int:
    """Minimax (negamax form) value for the side to move, owning ``me``."""
    best = -2
    for sq in _LEAN["ttt"][me | opp]:
        m = me | 1 << sq
        if TTT_WON[m]:
            v = 1
        elif m | opp == TTT_FULL:
            v = 0
        else:
            v = -_lean_ttt_minimax(opp, m)
        if v > best:
            best = v
    return best


def _lean_ttt_ab(me: int, opp: int, alpha: int, beta: int) -> int:
    best = -2
    for sq in _LEAN["ttt"][me | opp]:
        m = me | 1 << sq
        if TTT_WON[m]:
            v = 1
        elif m | opp == TTT_FULL:
            v = 0
        else:
            v = -_lean_ttt_ab(opp, m, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    return best
    return best


def lean_ttt(alphabeta: bool) -> Answer:
    best, best_sq, alpha = -2, None, -2
    for sq in _LEAN["ttt"][0]:
        m = 1 << sq
        v = -_lean_ttt_ab(0, m, -2, -alpha) if alphabeta else -_lean_ttt_minimax(0, m)
        if v > best:
            best, best_sq, alpha = v, sq, max(alpha, v)
    return Answer(best, best_sq)


def _lean_c4(cur: int, mask: int, e: int, depth: int, alpha: float, beta: float) -> float:
    """Negamax alpha-beta value for the side to move (stones ``cur``, E ``e``)."""
    best = -INF
    other = cur ^ mask
    for c in _LEAN["c4"][mask & C4_TOP_ALL]:
        new = mask | (mask + C4_BOTTOM[c])
        bit = new ^ mask
        p = cur | bit
        if (
            (m := p & p >> 7) & m >> 14
            or (m := p & p >> 1) & m >> 2
            or (m := p & p >> 6) & m >> 12
            or (m := p & p >> 8) & m >> 16
        ):
            v: float = C4_WIN
        elif new == C4_BOARD:
            v = 0
        elif depth == 1:
            v = e + C4_CELL_WEIGHT[bit]
        else:
            v = -_lean_c4(other, new, -e - C4_CELL_WEIGHT[bit], depth - 1, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    return best
    return best


def lean_c4(depth: int) -> Answer:
    best, best_col, alpha = -INF, None, -INF
    for c in _LEAN["c4"][0]:
        bit = C4_BOTTOM[c]
        # The first stone neither wins nor fills the board.
        if depth == 1:
            v = float(C4_CELL_WEIGHT[bit])
        else:
            v = -_lean_c4(0, bit, -C4_CELL_WEIGHT[bit], depth - 1, -INF, -alpha)
        if v > best:
            best, best_col, alpha = v, c, max(alpha, v)
    return Answer(best, best_col)


def _lean_counted(search: Callable[[], Answer]) -> Answer:
    saved = dict(_LEAN)
    _LEAN["ttt"] = [_CountingMoves(m) for m in TTT_MOVES]
    _LEAN["c4"] = {k: _CountingMoves(m) for k, m in C4_MOVES.items()}
    _LEAN_NODES[0] = 1  # the root
    try:
        ans = search()
    finally:
        _LEAN.update(saved)
    ans.nodes = _LEAN_NODES[0]
    return ans


def lean_impls(work: Work) -> list[Impl]:
    if work.game == "ttt":
        alphabeta = work.algorithm == "alphabeta"
        label = "lean pure Python " + ("negamax alpha-beta" if alphabeta else "negamax minimax")

        def search() -> Answer:
            return lean_ttt(alphabeta)

        probe = None
    else:
        assert work.depth is not None
        depth = work.depth
        label = "lean pure Python negamax alpha-beta"

        def search() -> Answer:
            return lean_c4(depth)

        def probe() -> Answer:
            return lean_c4(depth - 2)

    conv = "1 + moves handed out by its move table (counting table swapped in, extra run)"
    return [
        Impl(label, "lean", search, conv, lambda: _lean_counted(search), baseline_for(work), probe)
    ]


PEERS: dict[str, Callable[[Work], list[Impl]]] = {
    "gamesearch": gamesearch_impls,
    "open_spiel": open_spiel_impls,
    "easyAI": easyai_impls,
    "aima3": aima_impls,
    "lean": lean_impls,
}


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------


def works(deep: bool) -> list[Work]:
    out = [
        Work("ttt-minimax", "tic-tac-toe full minimax", "ttt", "minimax", None),
        Work("ttt-alphabeta", "tic-tac-toe alpha-beta, ±1, no discount", "ttt", "alphabeta", None),
        Work("c4-d8", "Connect Four alpha-beta depth 8, E", "c4", "alphabeta", 8),
    ]
    if deep:
        out.append(Work("c4-d10", "Connect Four alpha-beta depth 10, E", "c4", "alphabeta", 10))
    return out


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def same_answer(a: Row, b: Row) -> bool:
    if a.action != b.action:
        return False
    if a.value is None or b.value is None:
        return True
    return abs(a.value - b.value) < 1e-6


def run_work(work: Work, peers: list[str], repeat: int, max_seconds: float) -> list[Row]:
    impls: list[Impl] = []
    rows: dict[str, Row] = {}
    order: list[str] = []
    for peer in peers:
        try:
            found = PEERS[peer](work)
        except Skip as exc:
            rows[peer] = Row(work.title, peer, peer, skipped=str(exc))
            order.append(peer)
            log(f"  skip {peer}: {exc}")
            continue
        for impl in found:
            impls.append(impl)
            rows[impl.label] = Row(
                work.title, impl.label, peer, baseline=impl.baseline, convention=impl.convention
            )
            order.append(impl.label)

    # Count (and record the answer): gamesearch counts in its timed runs; peers get one extra
    # instrumented run. Connect Four peers are first probed at depth - 2 to estimate their time.
    gs_probe_nodes: int | None = None
    if work.depth and any(i.probe for i in impls):
        from gamesearch.search import Limit, make_searcher

        try:
            game = gamesearch_game(work)
        except Skip:
            pass  # no baseline to estimate from: the peers run unprobed
        else:
            gs_probe_nodes = (
                make_searcher(game, "alphabeta", discount=False)
                .search(game.initial_state(), Limit(depth=work.depth - 2))
                .nodes
            )
    active: list[Impl] = []
    for impl in impls:
        row = rows[impl.label]
        if impl.probe is not None and gs_probe_nodes:
            base = rows.get(impl.baseline or "")
            full_nodes = base.nodes if base and base.nodes else None
            secs, _ = cpu(impl.probe)
            if full_nodes:
                estimate = secs * full_nodes / gs_probe_nodes
                if estimate * (repeat + 1) > max_seconds:
                    row.skipped = (
                        f"estimated {estimate:.0f} s a run, {estimate * (repeat + 1):.0f} s "
                        f"for its {repeat + 1} runs > --max-seconds {max_seconds:g} (depth "
                        f"{work.depth - 2} probe: {secs:.2f} s for {gs_probe_nodes:,} nodes)"
                    )
                    log(f"  skip {impl.label}: {row.skipped}")
                    continue
        try:
            secs, ans = cpu(impl.count or impl.run)
        except Exception as exc:  # a peer that breaks must not stop the others
            row.skipped = f"failed: {type(exc).__name__}: {exc}"
            log(f"  skip {impl.label}: {row.skipped}")
            continue
        row.nodes, row.value, row.action = ans.nodes, ans.value, ans.action
        row.inner = max(1, math.ceil(MIN_SAMPLE / max(secs, 1e-6)))
        log(f"  counted {impl.label}: {row.nodes:,} nodes")
        active.append(impl)

    # Timed runs, interleaved.
    for rep in range(repeat):
        for impl in active:
            row = rows[impl.label]
            secs, _ = cpu(impl.run, row.inner)
            row.runs.append(secs)
        log(f"  repeat {rep + 1}/{repeat} done")
    for impl in active:
        row = rows[impl.label]
        row.seconds = statistics.median(row.runs)
        if row.nodes and row.seconds > 0:
            row.nodes_per_second = row.nodes / row.seconds
    for impl in active:
        row = rows[impl.label]
        base = rows.get(impl.baseline or "")
        if base is not None and base.nodes_per_second and row.nodes_per_second:
            row.ratio = base.nodes_per_second / row.nodes_per_second
    return [rows[k] for k in order]


PEER_NOTES = {
    "gamesearch": (
        "gamesearch: nodes = SearchResult.nodes, counted by the search itself inside the "
        "timed runs. alphabeta (discount=False) is the baseline of the ratios; negamax, run "
        "plain (safe=False, no quiescence, ordering, TT or PVS; its default on Connect Four "
        "also drops moves that lose at once), must visit the same nodes; alphabeta "
        "discount=True is easyAI's baseline."
    ),
    "open_spiel": (
        "OpenSpiel (open_spiel.python.algorithms.minimax over C++ pyspiel states): nodes = "
        "calls of the recursive module function (expectiminimax / _alpha_beta), one per state "
        "it visits (the root and every child it clones and applies an action to), counted in "
        "an extra run by wrapping the module attribute. Its Python module has no plain "
        "minimax: expectiminimax on a game without chance nodes is minimax (depth 9: no "
        "cut-off). Connect Four: value_function = E read from str(state) (6 dict look-ups, "
        "one per 7-cell row) divided by 1000, because pyspiel's returns are ±1: the same "
        "order as integer E with wins of ±1000, hence the same tree."
    ),
    "easyAI": (
        "easyAI Negamax: nodes = 1 + calls of make_move, counted in an extra run (counting "
        "subclass of the TwoPlayerGame in this file). Negamax multiplies every leaf score by "
        "(1 + 0.001 * depth left), a built-in win discount, so it is compared with gamesearch "
        "alphabeta discount=True (20,866 nodes in tic-tac-toe, the same 204,037 in Connect "
        "Four depth 8). (unmake_move): the game defines unmake_move, easyAI's fast path; "
        "(deepcopy): it does not, and easyAI deep-copies the game for every child (its "
        "default). easyAI has no plain minimax."
    ),
    "aima3": (
        "aima3 (aima-python snapshot): nodes = 1 + calls of Game.result, counted in an extra "
        "run (counting subclass). (bitboard Game): the Game subclass in this file; (aima3 "
        "TicTacToe / ConnectFour): the snapshot's own classes (dict board), whose tic-tac-toe "
        "moves are column-major, the reading order turned by 90 degrees (an isomorphic tree), "
        "with E as eval_fn for Connect Four. alphabeta_cutoff_search cuts at depth > d with "
        "the root's children at depth 1, so d = depth - 1 searches depth plies."
    ),
    "lean": (
        "lean pure Python: a hand-written negamax (alpha-beta) over bitboards, the "
        "calibration row (what CPython does with no framework); nodes = 1 + moves handed out "
        "by its move table, counted in an extra run with a counting table swapped in."
    ),
}


def notes(all_rows: list[Row], checks: list[str]) -> list[str]:
    out = []
    peers_run = {r.peer for r in all_rows if not r.skipped}
    out.append(
        "Every count is the root plus every child position generated (terminal and horizon "
        "leaves included). Timed runs of the peers are uninstrumented."
    )
    out.extend(text for peer, text in PEER_NOTES.items() if peer in peers_run)
    out.append(
        "gamesearch ÷ peer = nodes/s of the peer's baseline gamesearch row ÷ the peer's "
        "nodes/s (both search the same tree): above 1, gamesearch is faster."
    )
    by_work: dict[str, dict[str, Row]] = {}
    for r in all_rows:
        by_work.setdefault(r.work, {})[r.label] = r
    problems = 0
    compared = 0
    for r in all_rows:
        if r.skipped:
            out.append(f"not run: {r.work} / {r.label}: {r.skipped}")
            continue
        base = by_work[r.work].get(r.baseline or "")
        if base is None or base.skipped:
            continue
        compared += 1
        if r.nodes != base.nodes:
            problems += 1
            out.append(
                f"NODE COUNT DIFFERS: {r.work} / {r.label}: {r.nodes:,} nodes, "
                f"{base.label} {base.nodes:,}"
            )
        if not same_answer(r, base):
            problems += 1
            out.append(
                f"ANSWER DIFFERS: {r.work} / {r.label}: value {r.value}, action {r.action}; "
                f"{base.label}: value {base.value}, action {base.action}"
            )
    if compared and not problems:
        out.append(
            f"Checked: each of the {compared} peer rows searched as many nodes as its baseline "
            "and chose the same move (and, where its API returns one, the same value)."
        )
    out.extend(checks)
    return out


REFERENCE_COUNTS = [  # peers.md's counts, from the empty board
    ("tictactoe", {}, "minimax", False, None, 549_946),
    ("tictactoe", {}, "alphabeta", False, None, 18_297),
    ("tictactoe", {}, "alphabeta", True, None, 20_866),
    ("tictactoe", {"order": "center"}, "alphabeta", False, None, 7_275),
    ("connect4", {}, "alphabeta", False, 2, 42),
    ("connect4", {}, "alphabeta", False, 6, 11_767),
    ("connect4", {}, "negamax", False, 2, 42),
    ("connect4", {}, "negamax", False, 6, 11_767),
]


def reference_checks(all_rows: list[Row]) -> list[str]:
    """gamesearch's node counts against peers.md's (depth 8 is checked by the table)."""
    from gamesearch.games import get_game
    from gamesearch.search import Limit, make_searcher

    bad, good = [], 0
    for name, options, algorithm, discount, depth, expected in REFERENCE_COUNTS:
        try:
            if name == "connect4":
                game = gamesearch_game(Work("", "", "c4", "alphabeta", depth))
            else:
                game = get_game(name, **options)
        except Skip as exc:
            bad.append(f"{name}: {exc}")
            continue
        r = make_searcher(game, algorithm, discount=discount, **plain_options(algorithm)).search(
            game.initial_state(), Limit(depth=depth) if depth else Limit()
        )
        if r.nodes == expected:
            good += 1
        else:
            bad.append(
                f"{name} {options or ''} {algorithm} discount={discount} depth={depth}: "
                f"{r.nodes:,} nodes, peers.md says {expected:,}"
            )
    for r in all_rows:
        if r.peer == "gamesearch" and r.work.startswith("Connect Four alpha-beta depth 8"):
            if r.nodes == 204_037:
                good += 1
            elif r.nodes is not None:
                bad.append(f"{r.label} depth 8: {r.nodes:,} nodes, peers.md says 204,037")
    head = f"gamesearch vs peers.md node counts: {good} agree"
    return [head + (", MISMATCH: " + "; ".join(bad) if bad else " (all)")]


BASELINES = set(GS_BASE.values())


def fmt_row(r: Row, first_of_work: bool) -> list[str]:
    work = r.work if first_of_work else ""
    if r.skipped:
        return [work, r.label, "—", "—", "—", "not run"]
    if r.ratio is not None:
        ratio = f"{r.ratio:.2f}"
    elif r.peer == "gamesearch":
        ratio = "baseline" if r.label in BASELINES else "—"
    else:
        ratio = "?"
    return [
        work,
        r.label,
        f"{r.nodes:,}" if r.nodes is not None else "?",
        f"{r.seconds:.3f}" if r.seconds is not None else "?",
        f"{r.nodes_per_second / 1000:,.0f}k" if r.nodes_per_second else "?",
        ratio,
    ]


HEADER = ["work", "implementation", "nodes", "CPU s", "nodes/s", "gamesearch ÷ peer"]


def table_rows(all_rows: list[Row]) -> list[list[str]]:
    return [fmt_row(r, i == 0 or all_rows[i - 1].work != r.work) for i, r in enumerate(all_rows)]


def print_text(all_rows: list[Row], note_lines: list[str]) -> None:
    table = [HEADER, *table_rows(all_rows)]
    widths = [max(len(t[i]) for t in table) for i in range(len(HEADER))]
    right = {2, 3, 4, 5}
    for n, t in enumerate(table):
        if n > 1 and t[0]:
            print()
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(t, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    print()
    for line in note_lines:
        print(textwrap.fill(line, 100, initial_indent="* ", subsequent_indent="  "))


def print_markdown(all_rows: list[Row], note_lines: list[str]) -> None:
    print("| " + " | ".join(HEADER) + " |")
    print("| " + " | ".join(["---", "---", "---:", "---:", "---:", "---:"]) + " |")
    for t in table_rows(all_rows):
        print("| " + " | ".join(t) + " |")
    print()
    for line in note_lines:
        print(f"- {line}")


def environment() -> dict[str, Any]:
    versions = {}
    for dist in ("gamesearch", "open_spiel", "easyAI", "aima3"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "versions": versions,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per row (median)")
    ap.add_argument("--quick", action="store_true", help="one repeat; --max-seconds 60")
    ap.add_argument("--deep", action="store_true", help="add Connect Four depth 10")
    ap.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help="skip a Connect Four peer row whose runs (count + repeats), estimated from a "
        "depth - 2 probe, would take longer (default 120; 60 with --quick)",
    )
    ap.add_argument("--only", help="comma-separated work keys: ttt-minimax,ttt-alphabeta,c4-d8,...")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated, default all")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    max_seconds = args.max_seconds or (60.0 if args.quick else 120.0)
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = [p for p in peers if p not in PEERS]
    if unknown or repeat < 1:
        ap.error(f"unknown peers {unknown}; known: {', '.join(PEERS)}" if unknown else "repeat")
    if "gamesearch" not in peers:
        peers.insert(0, "gamesearch")  # the baseline of every ratio
    selected = works(args.deep)
    if args.only:
        keys = {k.strip() for k in args.only.split(",")}
        selected = [w for w in selected if w.key in keys]

    started = time.process_time()
    wall = time.perf_counter()
    all_rows: list[Row] = []
    for work in selected:
        log(f"{work.title} ...")
        all_rows.extend(run_work(work, peers, repeat, max_seconds))
    checks = reference_checks(all_rows)
    note_lines = notes(all_rows, checks)
    env = environment()
    note_lines.append(
        "Versions: "
        + ", ".join(f"{k} {v}" for k, v in env["versions"].items() if v)
        + f"; CPython {env['python']} on {env['machine']}."
    )
    note_lines.append(
        f"CPU seconds (time.process_time) of one search, median of {repeat} interleaved "
        f"sample(s); a search shorter than {MIN_SAMPLE} s is looped inside each sample; whole "
        f"benchmark {time.process_time() - started:.0f} s CPU, "
        f"{time.perf_counter() - wall:.0f} s wall."
    )
    (print_markdown if args.markdown else print_text)(all_rows, note_lines)
    if args.json:
        payload = {
            "argv": sys.argv[1:] if argv is None else argv,
            "repeat": repeat,
            "environment": env,
            "rows": [r.__dict__ for r in all_rows],
            "notes": note_lines,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
