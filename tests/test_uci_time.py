"""The UCI engine never loses on time, at any time control, in a GUI-like client
(python-chess's engine module): a whole game at 1 s + 0, a clock nearly gone, one move to
the control, big increments, ``movetime``, ``nodes``, ``depth``, ``infinite`` + ``stop``,
ponder off; and the ``Move Overhead`` option.

The checks are clock arithmetic: the time the engine reports (``info time``) against the
clock it was given, with generous margins; the only wall-clock check is the bound a GUI
applies, "never more than the remaining clock"."""

from __future__ import annotations

import io
import sys
import time

import chess
import chess.engine
import pytest

from gamesearch.interfaces.uci_engine import MAX_OVERHEAD_MS, UCIEngine
from gamesearch.search.control import LAST_MOVE_SHARE, MOVE_OVERHEAD, allocate_time

UCI_COMMAND = [sys.executable, "-c", "from gamesearch.interfaces.uci_engine import main; main()"]
#: what the engine may report beyond its hard limit: the last clock check's interval, the
#: final report, a busy machine (generous: a loaded CI machine must not flake)
SLACK_MS = 25


@pytest.fixture(scope="module")
def engine() -> chess.engine.SimpleEngine:
    with chess.engine.SimpleEngine.popen_uci(UCI_COMMAND) as eng:
        yield eng


def middlegame() -> chess.Board:
    return chess.Board("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10")


def long_game() -> chess.Board:
    """A board with 160 plies of history (the position command grows with the game)."""
    board = chess.Board()
    moves = ["g1f3", "g8f6", "b1c3", "b8c6", "f3g1", "f6g8", "c3b1", "c6b8"]
    while board.ply() < 160:
        for m in moves:
            board.push_uci(m)  # (repetitions: the root of a search drops its claim)
    return board


def play(engine: chess.engine.SimpleEngine, board: chess.Board,
         limit: chess.engine.Limit) -> tuple[chess.engine.PlayResult, float]:
    start = time.perf_counter()
    result = engine.play(board, limit, info=chess.engine.INFO_ALL, ponder=False)
    elapsed = time.perf_counter() - start
    assert result.move in board.legal_moves
    return result, elapsed


def reported_ms(result: chess.engine.PlayResult) -> float:
    t = result.info.get("time")
    assert t is not None, "the engine reports the time it used"
    return float(t) * 1000


def test_a_whole_game_at_one_second_without_increment(engine: chess.engine.SimpleEngine
                                                      ) -> None:
    """The engine plays both sides of a game at 1 s + 0, ponder off; the test keeps the
    clocks as a GUI does (wall time from ``position``/``go`` to ``bestmove``): neither
    flag falls, and every move's reported time stays within its clock."""
    board = chess.Board()
    clocks = [1.0, 1.0]
    # a reply's latency on a busy machine: what the option is for (Stockfish's advice too)
    engine.configure({"Hash": 16, "Move Overhead": 30})
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < 160:
            side = 0 if board.turn == chess.WHITE else 1
            limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1],
                                       white_inc=0, black_inc=0)
            result, elapsed = play(engine, board, limit)
            assert reported_ms(result) <= clocks[side] * 1000
            clocks[side] -= elapsed
            assert clocks[side] > 0, f"lost on time at ply {board.ply()}"
            board.push(result.move)
    finally:
        engine.configure({"Move Overhead": round(MOVE_OVERHEAD * 1000)})
    assert board.ply() >= 40 or board.is_game_over(claim_draw=True)


@pytest.mark.parametrize("board", [chess.Board(), middlegame(), long_game()],
                         ids=["start", "middlegame", "160 plies"])
def test_a_clock_nearly_gone(engine: chess.engine.SimpleEngine, board: chess.Board) -> None:
    """0.05 s left, no increment: the hard limit is a small share of it (1 ms); the reply
    reports well within the clock, and a GUI's clock does not fall."""
    for _ in range(3):
        result, elapsed = play(engine, board, chess.engine.Limit(
            white_clock=0.05, black_clock=0.05, white_inc=0, black_inc=0))
        _, hard = allocate_time(0.05, 0.0, None, MOVE_OVERHEAD)
        assert reported_ms(result) <= hard * 1000 + SLACK_MS <= 50
        assert elapsed < 0.05 + 0.2  # the bound a GUI applies, with room for a busy machine


def test_one_move_to_the_control_and_big_increments(engine: chess.engine.SimpleEngine
                                                    ) -> None:
    board = middlegame()
    # movestogo 1: at most 80 % of the clock (and all but the overhead)
    result, elapsed = play(engine, board, chess.engine.Limit(
        white_clock=1.0, black_clock=1.0, remaining_moves=1))
    assert reported_ms(result) <= 1000 * LAST_MOVE_SHARE + SLACK_MS
    assert elapsed < 1.0
    # an increment far larger than the clock: still at most half the clock
    result, elapsed = play(engine, board, chess.engine.Limit(
        white_clock=0.4, black_clock=0.4, white_inc=30, black_inc=30))
    assert reported_ms(result) <= 200 + SLACK_MS
    assert elapsed < 0.4


def test_movetime_nodes_depth(engine: chess.engine.SimpleEngine) -> None:
    board = middlegame()
    result, _ = play(engine, board, chess.engine.Limit(time=0.010))  # go movetime 10
    assert reported_ms(result) <= 10 + SLACK_MS
    result, _ = play(engine, board, chess.engine.Limit(nodes=500))
    assert result.info["nodes"] <= 500
    result, _ = play(engine, board, chess.engine.Limit(depth=3))
    assert result.info["depth"] == 3


def test_infinite_then_stop(engine: chess.engine.SimpleEngine) -> None:
    board = middlegame()
    with engine.analysis(board) as analysis:  # go infinite
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_move_overhead_is_an_option_and_enters_the_allocation() -> None:
    out = io.StringIO()
    uci = UCIEngine(out)
    uci.handle("uci")
    assert f"option name Move Overhead type spin default {round(MOVE_OVERHEAD * 1000)} " \
        f"min 0 max {MAX_OVERHEAD_MS}" in out.getvalue()

    def hard(go: str) -> float:
        params, infinite, bad = uci._go_params(go.split()[1:])
        assert bad is None
        return uci._limit(params, infinite).plan(0).hard

    assert hard("go wtime 1000 btime 1000 movestogo 1") == pytest.approx(LAST_MOVE_SHARE)
    uci.handle("setoption name Move Overhead value 300")
    assert uci.overhead == pytest.approx(0.3)
    assert hard("go wtime 1000 btime 1000 movestogo 1") == pytest.approx(0.7)
    assert hard("go movetime 1000") == pytest.approx(0.7)
    assert hard("go wtime 500 btime 500 winc 1000 binc 1000") == pytest.approx(0.2)  # all but 0.3
    # bad values are refused in one line, the option unchanged
    for bad in ("-1", "5001", "fast"):
        uci.handle(f"setoption name Move Overhead value {bad}")
        assert out.getvalue().splitlines()[-1].startswith("info string setoption Move Overhead")
    assert uci.overhead == pytest.approx(0.3)


def test_a_position_that_extends_the_last_plays_only_the_new_moves() -> None:
    uci = UCIEngine(io.StringIO())
    uci.handle("position startpos moves e2e4 e7e5")
    first = uci.state
    uci.handle("position startpos moves e2e4 e7e5 g1f3")
    assert uci.state.parent is first  # built on the previous state, not from scratch
    assert uci.state.board.fen() == chess.Board(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").fen()
    uci.handle("position startpos moves d2d4")  # not an extension: from scratch
    assert uci.state.board.fen() == chess.Board(
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").fen()
