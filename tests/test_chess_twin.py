"""The compiled twin of the chess search (``games/chess/kernels/engine.pyx``) against the
Python ``id`` search it mirrors (``search/negamax.py`` over the chess kernels): its C board
against the kernels (perft, moves in order, quiescence moves, evaluation and its lazy
estimate, terminal status with repetitions, make-move), then whole searches at fixed depth
on a few hundred positions (EPD suites, perft positions, random walks, games with
repetitions): value, best move, principal variation and node count of every iteration,
the search's statistics, and the same partial result under a node limit."""

from __future__ import annotations

import random
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

chess = pytest.importorskip("chess")

from gamesearch.errors import UnsupportedGameError  # noqa: E402
from gamesearch.games.chess import ChessGame, ChessState, intern_move  # noqa: E402
from gamesearch.games.chess.backend import COMPILED, ENGINE, PURE_PYTHON  # noqa: E402
from gamesearch.games.chess.board import result as py_result  # noqa: E402
from gamesearch.games.chess.evaluation import LAZY_MARGIN  # noqa: E402
from gamesearch.search import Limit, make_searcher  # noqa: E402
from gamesearch.search.common import SearchResult  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "chess"
SEED = 2026
#: games with a history: repetitions before and after the root, the fifty-move rule
HISTORY_LINES = [
    ("startpos", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"),
    ("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 30", "e1f1 e8d8 f1e1 d8e8 e1f1"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 93 80", "a1a2 e6f6 a2a3"),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d2 g8h8 d2d1 h8g8"),
]
#: mates and stalemates close to the root, perpetual checks, under-promotions
HAND_PICKED = [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "6k1/6p1/6Pp/8/8/8/q7/6K1 b - - 0 1",
    "3r2k1/p4ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 1",
    "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "8/8/8/8/8/6k1/4q3/7K b - - 0 1",
    "8/8/4k3/8/8/3K4/8/6B1 w - - 0 1",
]
#: game ends: mates, stalemate, insufficient material (the C board's status only)
ENDS = [
    "R6k/6pp/8/8/8/8/8/K7 b - - 0 1",
    "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/8/3K4/8/6n1 w - - 0 1",
    "8/8/4k3/8/8/3KB3/8/6B1 w - - 0 1",
]


def _require_twin() -> None:
    if ENGINE is not None:
        return
    if shutil.which("cc") or shutil.which("gcc"):
        pytest.fail("the compiled chess search is missing although a C compiler is installed:"
                    " the Cython extension gamesearch.games.chess.kernels.engine was not built")
    pytest.skip("COMPILED CHESS SEARCH NOT TESTED: no C compiler, so it was not built")


def _epd_fens(name: str, n: int | None = None) -> list[str]:
    lines = [line for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [chess.Board.from_epd(line)[0].fen() for line in lines[:n]]


def _walk(game: ChessGame, start: ChessState, rng: random.Random, plies: int) -> ChessState:
    s = start
    for _ in range(plies):
        if game.is_terminal(s):
            break
        s = game.result(s, rng.choice(list(game.actions(s))))
    return s


def _positions() -> list[ChessState]:
    """The positions of the tests: WAC and Bratko-Kopec, the perft positions, random walks
    from them, the hand-picked ones and the games with a history (every state on the way,
    with and without a marked root)."""
    game = ChessGame()
    rng = random.Random(SEED)
    out: list[ChessState] = []
    fens = (_epd_fens("wac.epd", 150) + _epd_fens("bk.epd") + _epd_fens("perft.epd")
            + HAND_PICKED)
    for fen in fens:
        start = game.parse_state(fen)
        out.append(start)
        walked = _walk(game, start, rng, rng.randint(4, 30))
        if not game.is_terminal(walked):
            out.append(walked)
    out.extend(game.parse_state(fen) for fen in ENDS)
    for fen, line in HISTORY_LINES:
        for root in (False, True):
            s = game.parse_state(fen)
            if root:
                s = game.search_start(s)
            for uci in line.split():
                s = game.result(s, intern_move(chess.Move.from_uci(uci)))
                out.append(s)
    return out


POSITIONS = _positions()


# ----- the C board against the kernels ---------------------------------------------------
@pytest.mark.parametrize("fen,counts", [
    (line.split(";")[0].rsplit(" hmvc", 1)[0],
     [int(w.split()[1]) for w in line.split(";") if w.strip().startswith("D")][:4])
    for line in (DATA / "perft.epd").read_text().splitlines() if line.strip()
])
def test_perft(fen: str, counts: list[int]) -> None:
    _require_twin()
    game = ChessGame()
    engine = make_searcher(game, "id")._twin
    state = game.parse_state(fen)
    depths = [d for d, n in enumerate(counts, 1) if n <= 200_000]
    assert [engine.perft(state, d) for d in depths] == counts[:len(depths)]


def _python_facts(state: ChessState) -> dict[str, Any]:
    """What the pure-Python kernels say of ``state`` (the twin's ``facts``)."""
    game = ChessGame(PURE_PYTHON)
    s = ChessState(state.board, state.key, state.mg, state.eg, state.phase, state.parent,
                   state.ply)
    u = game.terminal_utility(s, s.player)
    status = 0 if u is None else 1 if u < 0 else 2
    moves, check = PURE_PYTHON.generate_moves(s.board, False, None)
    children = []
    for m in moves:
        c = py_result(s, m)
        children.append((c.key, c.mg, c.eg, c.phase, c.board.halfmove_clock,
                         c.board.ep_square))
    return {"status": status, "check": check, "moves": moves,
            "noisy": list(PURE_PYTHON.noisy_actions(s)),
            "evaluate": PURE_PYTHON.evaluate({}, s, s.player),
            "quick": PURE_PYTHON.quick_evaluate({}, s, s.player), "cached": True,
            "children": children}


def test_board_matches_the_kernels() -> None:
    """Per position: status (mate, stalemate, insufficient material, fifty moves,
    repetition with the root rule), check, legal moves in order, quiescence moves in order,
    evaluation, lazy estimate, and each child's key, scores, phase, clock and en passant."""
    _require_twin()
    engine = make_searcher(ChessGame(), "id")._twin
    seen = {"mated": 0, "drawn": 0, "check": 0, "margin": 0}
    for s in POSITIONS:
        twin = engine.facts(s)
        python = _python_facts(s)
        for name in python:
            assert twin[name] == python[name], (s.board.fen(), name, twin[name], python[name])
        seen["mated"] += twin["status"] == 1
        seen["drawn"] += twin["status"] == 2
        seen["check"] += twin["check"]
        seen["margin"] += twin["quick"][1] == LAZY_MARGIN
    assert seen["mated"] and seen["drawn"] >= 3 and seen["check"] >= 10, seen
    assert seen["margin"] == len(POSITIONS)


# ----- whole searches --------------------------------------------------------------------
def _search(state: ChessState, compiled: bool, limit: Limit) -> tuple[Any, ...]:
    """A fresh game and ``id`` searcher's result: each iteration's value, move, PV and
    nodes, then the search's statistics."""
    game = ChessGame(COMPILED)
    searcher = make_searcher(game, "id", compiled=compiled)
    assert searcher.compiled == compiled
    iterations: list[tuple[Any, ...]] = []

    def record(r: SearchResult) -> None:
        iterations.append((r.value, r.action, tuple(r.pv), r.nodes, r.depth))

    r = searcher.search(game.search_start(state), limit, record)
    stats = (r.value, r.action, tuple(r.pv), r.nodes, r.depth, r.completed,
             tuple(r.nodes_per_depth), r.tt_hits, r.cutoffs, r.seldepth,
             searcher.reductions, searcher.re_searches, searcher.futility_prunes,
             searcher.reverse_futility_prunes, searcher.late_move_prunes,
             searcher.exchange_prunes, r.extra.get("partial"))
    return tuple(iterations), stats


def _depths() -> list[tuple[int, int]]:
    """(position index, depth): depth 3, 4 for every fourth position, 5 for a few."""
    playable = [i for i, s in enumerate(POSITIONS) if not ChessGame().is_terminal(s)]
    out = []
    for k, i in enumerate(playable):
        out.append((i, 5 if k % 60 == 7 else 4 if k % 4 == 0 else 3))
    return out


def test_search_is_the_same_node_for_node() -> None:
    """Every iteration's value, move, PV and node count, and the statistics, equal to the
    Python search's on every position; the searches between them cover the pruning rules,
    mates and repetitions."""
    _require_twin()
    total = {"nodes": 0, "mates": 0, "draws": 0}
    for i, depth in _depths():
        s = POSITIONS[i]
        python = _search(s, False, Limit(depth=depth))
        twin = _search(s, True, Limit(depth=depth))
        assert twin == python, (s.board.fen(), depth, twin, python)
        total["nodes"] += twin[1][3]
        total["mates"] += abs(twin[1][0]) > 90000
        total["draws"] += twin[1][0] == 0
    assert total["mates"] >= 5 and total["draws"] >= 2, total
    assert len(_depths()) >= 300


def test_root_margin_is_the_same() -> None:
    """The best move's proven lead (``Iteration.margin``, read by the time rule) is the
    same from the twin's root as from the Python root, on positions where it exists."""
    from gamesearch.search.control import Clock

    _require_twin()
    known = 0
    for s in POSITIONS[:80]:
        game = ChessGame(COMPILED)
        if game.is_terminal(s):
            continue
        its = [make_searcher(ChessGame(COMPILED), "id", compiled=c).iteration(
            game.search_start(s), 2, Clock()) for c in (False, True)]
        assert its[1].margin == its[0].margin, s.board.fen()
        known += its[0].margin is not None
    assert known >= 40


def test_node_limit_gives_the_same_partial_result() -> None:
    """Under a node limit both stop at the same node, with the same partial iteration."""
    _require_twin()
    partial = 0
    for i, nodes in ((0, 700), (3, 2000), (11, 5000), (40, 1234), (57, 3333), (80, 64)):
        s = POSITIONS[i]
        python = _search(s, False, Limit(nodes=nodes))
        twin = _search(s, True, Limit(nodes=nodes))
        assert twin == python, (s.board.fen(), nodes, twin, python)
        assert not twin[1][5]  # (not completed)
        partial += bool(twin[1][-1])
    assert partial >= 2


def test_stop_event_and_time() -> None:
    """A stop event set before the search ends it at the first clock check, with a legal
    move; a short time limit ends it with a completed iteration's move."""
    _require_twin()
    game = ChessGame(COMPILED)
    s = game.search_start(game.parse_state(_epd_fens("wac.epd", 1)[0]))
    stop = threading.Event()
    stop.set()
    r = make_searcher(game, "id").search(s, Limit(stop=stop))
    assert r.action in game.actions(s) and r.nodes == 64 and not r.completed
    r = make_searcher(game, "id").search(s, Limit(time=0.2))
    assert r.action in game.actions(s) and r.depth >= 3


def test_option_choice() -> None:
    """On by default with the compiled kernels; off with the Python kernels and for an
    option it does not implement; asked for with such an option: a clear error."""
    _require_twin()
    assert make_searcher(ChessGame(COMPILED), "id").compiled
    assert not make_searcher(ChessGame(PURE_PYTHON), "id").compiled
    assert not make_searcher(ChessGame(COMPILED), "id", tt=0).compiled
    assert not make_searcher(ChessGame(COMPILED), "id", quiescence=False).compiled
    assert make_searcher(ChessGame(COMPILED), "id", lmr=False, null_move=False).compiled
    with pytest.raises(UnsupportedGameError, match="does not implement tt"):
        make_searcher(ChessGame(COMPILED), "id", tt=0, compiled=True)
    with pytest.raises(UnsupportedGameError, match="no compiled search"):
        make_searcher(ChessGame(PURE_PYTHON), "id", compiled=True)


@pytest.mark.parametrize("options", [
    {"lmr": False}, {"null_move": False}, {"futility": False}, {"killers": False},
    {"history": False}, {"check_extension": False}, {"aspiration": 30.0},
    {"ordering": False}, {"discount": False}, {"tt": 512},
])
def test_options_are_the_same(options: dict[str, Any]) -> None:
    """The options the twin implements, each turned off (or aspiration on, or a table of
    512 entries, emptied many times a search), still give the Python search's
    iterations."""
    _require_twin()
    for i in (1, 20, 45):
        s = POSITIONS[i]
        out: list[list[tuple[Any, ...]]] = [[], []]
        for compiled in (False, True):
            game = ChessGame(COMPILED)
            searcher = make_searcher(game, "id", compiled=compiled, **options)
            add = out[compiled].append
            searcher.search(game.search_start(s), Limit(depth=4),
                            lambda r, add=add: add((r.value, r.action, tuple(r.pv), r.nodes)))
        assert out[0] == out[1], (options, s.board.fen())


# ----- search knowledge: each rule in both searches ----------------------------------------
KNOWLEDGE = [{"lmr_table": True}, {"lmp": True}, {"iir": True}, {"see_pruning": True},
             {"noisy_first": True},
             {"lmr_table": True, "lmp": True, "iir": True, "see_pruning": True,
              "noisy_first": True}]


@pytest.mark.parametrize("options", KNOWLEDGE)
def test_knowledge_is_the_same(options: dict[str, Any]) -> None:
    """Late-move reductions from the table, late-move pruning, internal iterative
    reductions, static exchange pruning and the noisy-first order, each on (and all
    together): the twin gives the Python search's iterations and
    statistics on every 8th position at depth 5, the rule acting (its statistic, or the node
    count, differs from the search without it)."""
    _require_twin()
    off = {name: False for name in options}
    changed = acted = 0
    for i in range(0, len(POSITIONS), 8):
        s = POSITIONS[i]
        if ChessGame().is_terminal(s):
            continue
        results = []
        for compiled in (False, True):
            game = ChessGame(COMPILED)
            searcher = make_searcher(game, "id", compiled=compiled, **options)
            r = searcher.search(game.search_start(s), Limit(depth=5))
            results.append((r.value, r.action, tuple(r.pv), r.nodes,
                            tuple(r.nodes_per_depth), r.tt_hits, r.cutoffs, r.seldepth,
                            searcher.reductions, searcher.re_searches,
                            searcher.futility_prunes, searcher.late_move_prunes,
                            searcher.exchange_prunes))
        assert results[0] == results[1], (options, s.board.fen(), results)
        game = ChessGame(COMPILED)
        base = make_searcher(game, "id", **off)
        r0 = base.search(game.search_start(s), Limit(depth=5))
        changed += r0.nodes != results[1][3]
        acted += (results[1][-2] > 0 if "lmp" in options
                  else results[1][-1] > 0 if "see_pruning" in options else 1)
    assert changed >= 5 and acted >= 20, (changed, acted)


def test_lmr_table() -> None:
    """The reduction table: floor(0.75 + ln(d) ln(n) / 2.25); none in row or column 0."""
    from gamesearch.search.negamax import LMR_TABLE_SIZE, lmr_reductions
    t = lmr_reductions()
    n = LMR_TABLE_SIZE

    def r(d: int, m: int) -> int:
        return t[d * n + m]
    assert len(t) == n * n
    assert r(0, 10) == r(10, 0) == 0 and r(1, 40) == r(40, 1) == 0
    # (by hand: ln 2 ln 3 / 2.25 = 0.34, + 0.75 -> 1; ln 4 ln 8 / 2.25 = 1.28 -> 2; ...)
    assert [r(2, 2), r(2, 3), r(3, 8), r(3, 20), r(4, 8), r(6, 6), r(8, 4), r(20, 40)] == [
        0, 1, 1, 2, 2, 2, 2, 5]
    assert all(r(d, m) <= r(d + 1, m) and r(d, m) <= r(d, m + 1)
               for d in range(1, n - 1) for m in range(1, n - 1))


def test_late_move_pruning_prunes_the_late_quiet_moves_only() -> None:
    """At depth 1 in a zero window that every move fails low, late-move pruning skips
    exactly the quiet moves (no capture, promotion or check) after the first 3 + d*d = 4
    moves searched, and no other; in a full window (a PV node), or off, none."""
    from math import nextafter

    from gamesearch.search.common import INF
    from gamesearch.search.control import Clock
    game = ChessGame(PURE_PYTHON)
    tactics = game.tactics()
    assert tactics is not None and tactics.is_noisy and tactics.in_check
    s = game.parse_state("1k6/1p6/8/8/8/8/6R1/1Q4K1 w - - 0 1")
    moves = list(game.actions(s))
    quiet = {m for m in moves if not tactics.is_noisy(s, m)
             and not tactics.in_check(game.result(s, m))}
    assert len(quiet) > 20 and len(quiet) < len(moves)
    alpha = 5000.0  # far above the position's value: no move reaches it, none cuts off
    for zero_window, lmp in ((True, True), (False, True), (True, False)):
        searcher = make_searcher(game, "id", compiled=False, lmp=lmp, lmr=False,
                                 futility=False, null_move=False, ordering=False)
        kernel = searcher._kernel(Clock())
        beta = nextafter(alpha, INF) if zero_window else INF
        kernel.negamax(s, alpha, beta, 1, 1, game.to_move(s))
        kernel.flush(0)
        expected = sum(1 for i, m in enumerate(moves) if i >= 4 and m in quiet)
        want = expected if lmp and zero_window else 0
        assert searcher.late_move_prunes == want, (zero_window, lmp,
                                                   searcher.late_move_prunes)
    assert expected > 15


@pytest.mark.parametrize("kernels", [PURE_PYTHON, COMPILED])
def test_exchange_values(kernels: Any) -> None:
    """``ChessGame.exchange`` (static exchange pruning's values, the twin's ``_exchange``
    through the searches above): a quiet move to a safe square 0, one that hangs a knight
    to a pawn -320, a pawn push that hangs the pawn -100, a capture of an undefended knight
    +320, en passant +100, a king step 0."""
    game = ChessGame(kernels)
    t = game.tactics()
    assert t is not None and t.exchange is not None

    def x(fen: str, uci: str) -> float:
        s = game.parse_state(fen)
        return t.exchange(s, intern_move(chess.Move.from_uci(uci)))  # type: ignore[misc]
    w = "4k3/8/3p4/2pn4/p3Pp2/8/3N4/4K3 w - - 0 1"
    assert [x(w, m) for m in ("d2c4", "d2b3", "e4e5", "e4d5")] == [0, -320, -100, 320]
    b = "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1"
    assert [x(b, m) for m in ("f4e3", "e8e7")] == [100, 0]


def test_knowledge_defaults() -> None:
    """Chess's engine settings turn static exchange pruning (with its margins) and the
    noisy-first order on (their SPRTs passed), and ``see_pruning=0``, ``noisy_first=0``
    turn them off; the other three rules stay off, each asked for by name; a game without
    exchange margins refuses ``see_pruning=1``, one without ``is_noisy``
    ``noisy_first=1``, with a clear error."""
    from gamesearch.games import get_game
    assert make_searcher(ChessGame(), "id").see_pruning == (64.0, 20.0)
    assert make_searcher(ChessGame(), "id").noisy_first
    assert not make_searcher(ChessGame(), "id", noisy_first=False).noisy_first
    assert not make_searcher(ChessGame(), "negamax").noisy_first  # (no iterations)
    assert make_searcher(ChessGame(), "id", see_pruning=False).see_pruning is None
    assert make_searcher(ChessGame(), "id", see_pruning=True).see_pruning == (64.0, 20.0)
    assert make_searcher(ChessGame(), "negamax").see_pruning is None  # (no iterations)
    assert make_searcher(ChessGame(), "id", lmp=True, iir=True, lmr_table=True).lmp
    with pytest.raises(UnsupportedGameError, match="exchange"):
        make_searcher(get_game("connect4"), "id", see_pruning=True)
    with pytest.raises(UnsupportedGameError, match="is_noisy"):
        make_searcher(get_game("connect4"), "id", noisy_first=True)
