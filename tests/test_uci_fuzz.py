"""The UCI engine through real pipes under hostile input (issue 13, class 5).

Invariants: every ``go`` gets exactly one ``bestmove``, and it is legal in the position the
engine holds (``0000`` only when there is no legal move); ``isready`` answers ``readyok``
within 2 s whatever came before; the engine survives everything but ``quit``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import subprocess
import sys
import threading
import time

import pytest

chess = pytest.importorskip("chess")

ENGINE = [sys.executable, "-c", "from gamesearch.interfaces.uci_engine import main; main()"]


class Pipe:
    """The engine as a child process; lines read by a thread into a queue."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))

    def send(self, data: bytes | str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data if isinstance(data, bytes) else data.encode() + b"\n")
        self.proc.stdin.flush()

    def until(self, prefix: str, timeout: float) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout} s; got {got[-5:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            got.append(line)
            if line.startswith(prefix):
                return got

    def close(self) -> int:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.send("quit")
        try:
            return self.proc.wait(10)
        finally:
            self.proc.kill()


GARBAGE = [
    "go movetime abc", "go movetime", "go depth", "go wtime nan", "go depth -3",
    "go movetime 0", "go movetime -1", "go nodes 0", "go wtime -5000 btime -5000",
    "go wtime 99999999999999999999 btime 1", "go mate 0", "go searchmoves e2e4 depth 1",
    "go depth 1 frobnicate", "position moves e2e4", "position", "position fen",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position startpos moves e2e5",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "setoption name Hash value 99999999999999", "setoption name Hash value -1",
    "setoption", "setoption name", "ucinewgame", "stop", "isready", "debug on",
    "register later", "ponderhit", "\x00\x01\x02", "uci", "   ", "x" * 5000,
]


def legal_in(board: chess.Board, move_text: str) -> bool:
    if move_text == "0000":
        return not any(board.legal_moves)
    try:
        return chess.Move.from_uci(move_text) in board.legal_moves
    except ValueError:
        return False


def test_every_go_gets_one_legal_bestmove_and_isready_always_answers() -> None:
    rng = random.Random(13)
    engine = Pipe()
    board = chess.Board()
    gos = 0
    try:
        engine.send("uci")
        engine.until("uciok", 20)
        for step in range(150):
            if rng.random() < 0.3:  # a real position the engine must then hold
                plies = rng.randrange(0, 12)
                b = chess.Board()
                moves = []
                for _ in range(plies):
                    legal = list(b.legal_moves)
                    if not legal:
                        break
                    m = rng.choice(legal)
                    moves.append(m.uci())
                    b.push(m)
                engine.send("position startpos" + (" moves " + " ".join(moves) if moves
                                                   else ""))
                board = b
            line = rng.choice(GARBAGE)
            if line.startswith("position"):
                # malformed positions leave the engine's position as it was (or apply the
                # legal prefix of the moves): follow it by re-sending a known one
                engine.send(line)
                engine.send(f"position fen {board.fen()}")
            elif line.startswith("go"):
                engine.send(line)
                got = engine.until("bestmove", 30)
                gos += 1
                best = [g for g in got if g.startswith("bestmove")]
                assert len(best) == 1, got
                assert legal_in(board, best[0].split()[1]), (line, board.fen(), best)
            else:
                engine.send(line)
                if line == "ucinewgame":  # a new game starts from the initial position
                    board = chess.Board()
            if step % 10 == 0:
                start = time.monotonic()
                engine.send("isready")
                engine.until("readyok", 2)
                assert time.monotonic() - start < 2
        # go infinite waits for stop, then answers once
        engine.send(f"position fen {board.fen()}")
        engine.send("go infinite")
        time.sleep(0.3)
        engine.send("stop")
        got = engine.until("bestmove", 10)
        assert sum(g.startswith("bestmove") for g in got) == 1
        assert engine.proc.poll() is None  # survived everything
    finally:
        code = engine.close()
    assert code == 0
    assert gos >= 20


def test_a_huge_position_line_and_stray_bytes_do_not_stall_or_kill_it() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    engine = Pipe(env)
    try:
        engine.send("uci")
        engine.until("uciok", 20)
        engine.send("position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 60_000))
        start = time.monotonic()
        engine.send("isready")
        engine.until("readyok", 2)
        assert time.monotonic() - start < 2
        engine.send(b"\xff\xfe garbage \xff\n")
        engine.send("isready")
        engine.until("readyok", 2)
        engine.send("position startpos")
        engine.send("go depth 2")
        got = engine.until("bestmove", 30)
        assert legal_in(chess.Board(), got[-1].split()[1])
    finally:
        assert engine.close() == 0
