"""Chess nodes per second: the library's ``id`` engine against a minimal python-chess
alpha-beta with quiescence, on the same middlegame positions in the same run.

The baseline is the textbook program a Python chess programmer writes first: negamax
alpha-beta on ``chess.Board`` with ``push``/``pop``, captures tried first, iterative
deepening, quiescence over ``generate_legal_captures`` with stand-pat, and a material count
at every leaf ("minimal": the searcher behind the issue's ~46k nodes/s and peers.md's
46-57k). A second row gives the same searcher with PeSTO middlegame piece-square tables
recomputed at every leaf ("minimal+PST", about half as fast): ratios are printed against
both, the issue's target is against the first. Both count a node for every position
generated (the root and each ``push``/``result``). For node efficiency the table also gives
the nodes each needed to complete a fixed depth. Rates are nodes per CPU second of this
process (``time.process_time``), so that other load on a shared machine does not favour
whichever engine happened to run in a quiet moment; the time limits are wall-clock.

The ``id`` row is the engine as it runs by default: the compiled twin of its search
(``games/chess/kernels/engine.pyx``, the same search node for node) when it is built. The
"id (python)" row runs the Python search (``compiled=False``) on the compiled chess kernels
(``KERNELS`` is printed); the "id (pure)" row the Python search in a child process with
``GAMESEARCH_PURE_PYTHON=1`` (the pure-Python functions the kernels are checked against), at
the same time per position.

The same run ends with Stockfish's own ``bench`` (its 50 built-in positions, one thread, a
16 MB hash, to ``--stockfish-depth``) in a child process, for scale rather than like for
like: a C++ engine with a different node count and different positions. Its nodes/s is
given both as Stockfish reports it (nodes / wall time) and per CPU second of the child
(``resource.getrusage(RUSAGE_CHILDREN)`` around it), the latter comparable with the rows
above. The load average is printed before and after the run.

    .venv/bin/python benchmarks/chess_nps.py                # 5 s per position and engine
    .venv/bin/python benchmarks/chess_nps.py --time 2 --depth 4 --fixed-cap 60
    .venv/bin/python benchmarks/chess_nps.py --no-stockfish  # without Stockfish's bench
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

import chess

from gamesearch.games.chess import KERNELS, MG, ChessGame
from gamesearch.search import Limit, make_searcher

POSITIONS = {
    "qgd": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "italian": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "hedgehog": "2rq1rk1/pb2bppp/1pn1pn2/2pp4/3P4/1PN1PN2/PBQ1BPPP/2RR2K1 w - - 0 12",
}


class Timeout(Exception):
    pass


class Baseline:
    """Minimal alpha-beta + quiescence on python-chess (see the module docstring)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.deadline = float("inf")

    def evaluate(self, board: chess.Board) -> int:
        black, white = board.occupied_co  # indexed by colour: False (black), True (white)
        score = 0
        for bb, value in ((board.pawns, 100), (board.knights, 320), (board.bishops, 330),
                          (board.rooks, 500), (board.queens, 900)):
            score += value * ((bb & white).bit_count() - (bb & black).bit_count())
        return score if board.turn else -score


    def quiesce(self, board: chess.Board, alpha: int, beta: int) -> int:
        stand = self.evaluate(board)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        for move in board.generate_legal_captures():
            self._count()
            board.push(move)
            v = -self.quiesce(board, -beta, -alpha)
            board.pop()
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return alpha

    def negamax(self, board: chess.Board, depth: int, alpha: int, beta: int) -> int:
        if board.is_checkmate():
            return -100000
        if board.is_stalemate() or board.is_insufficient_material():
            return 0
        if depth == 0:
            return self.quiesce(board, alpha, beta)
        moves = sorted(board.legal_moves, key=lambda m: not board.is_capture(m))
        best = -1000000
        for move in moves:
            self._count()
            board.push(move)
            v = -self.negamax(board, depth - 1, -beta, -alpha)
            board.pop()
            if v > best:
                best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise Timeout

    def search(self, fen: str, seconds: float | None, depth: int | None) -> tuple[int, int]:
        """(deepest completed depth, nodes)."""
        board = chess.Board(fen)
        self.nodes = 1
        self.deadline = time.perf_counter() + seconds if seconds else float("inf")
        done = 0
        for d in range(1, (depth or 64) + 1):
            try:
                self.negamax(board, d, -1000000, 1000000)
            except Timeout:
                break
            done = d
        return done, self.nodes


class PstBaseline(Baseline):
    """The minimal searcher with PeSTO middlegame piece-square tables at every leaf."""

    def evaluate(self, board: chess.Board) -> int:
        score = 0
        for sq, piece in board.piece_map().items():
            score += MG[1 if piece.color else 0][piece.piece_type][sq]
        return score if board.turn else -score


def run_id(game: ChessGame, fen: str, seconds: float,
           compiled: bool | None = None) -> tuple[int, float, int]:
    """(nodes, CPU seconds, depth) of the ``id`` engine on ``fen`` for ``seconds``
    (``compiled``: the searcher's option, None its default)."""
    state = game.search_start(game.parse_state(fen))
    # the whole time, as the baseline
    searcher = make_searcher(game, "id", soft_share=1.0, compiled=compiled)
    t0 = time.process_time()
    r = searcher.search(state, Limit(time=seconds))
    return r.nodes, time.process_time() - t0, r.depth


def run_pure(seconds: float) -> dict[str, tuple[int, float, int]]:
    """``run_id`` on every position in a child process on the pure-Python kernels."""
    env = dict(os.environ, GAMESEARCH_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, __file__, "--id-only", "--time", str(seconds)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return {k: tuple(v) for k, v in json.loads(out).items()}  # type: ignore[misc]


STOCKFISH_PATHS = ("/usr/games/stockfish",)  # Debian installs it outside the usual PATH


def find_stockfish() -> str | None:
    """The Stockfish binary on PATH or where Debian puts it, or None."""
    found = shutil.which("stockfish")
    if found:
        return found
    return next((p for p in STOCKFISH_PATHS if os.access(p, os.X_OK)), None)


def child_cpu(command: list[str], stdin: str | None = None) -> tuple[str, float]:
    """(stderr + stdout, CPU seconds, user + system) of ``command`` run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, input=stdin, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.stderr + proc.stdout, cpu


def run_stockfish_bench(binary: str, depth: int) -> tuple[int, float, float, float]:
    """(nodes, wall seconds as Stockfish reports them, CPU seconds of the child, CPU seconds
    of starting and quitting Stockfish alone) of ``stockfish bench 16 1 <depth> default
    depth``: one thread, 16 MB hash. The start-up (loading its network) is measured apart,
    the least of three runs (it varies by a few tenths of a second on a loaded machine), so
    that it can be taken out of the search's CPU time."""
    startup = min(child_cpu([binary], stdin="quit\n")[1] for _ in range(3))
    report, cpu = child_cpu([binary, "bench", "16", "1", str(depth), "default", "depth"])
    nodes = re.search(r"Nodes searched\s*:\s*(\d+)", report)
    wall_ms = re.search(r"Total time \(ms\)\s*:\s*(\d+)", report)
    if not nodes or not wall_ms:
        raise SystemExit(f"stockfish bench: no node count or time in its output: {report[-300:]!r}")
    return int(nodes.group(1)), int(wall_ms.group(1)) / 1000, cpu, startup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=float, default=5.0, help="seconds per position and engine")
    ap.add_argument("--depth", type=int, default=3, help="fixed depth for node efficiency")
    ap.add_argument("--fixed-cap", type=float, default=30.0,
                    help="seconds allowed to the baseline's fixed-depth search")
    ap.add_argument("--no-pure", action="store_true",
                    help="skip the id engine on the pure-Python kernels")
    ap.add_argument("--stockfish-depth", type=int, default=13,
                    help="depth of Stockfish's bench (its default is 13)")
    ap.add_argument("--no-stockfish", action="store_true", help="skip Stockfish's bench")
    ap.add_argument("--id-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.stockfish_depth < 1:
        ap.error("--stockfish-depth must be at least 1")
    game = ChessGame()
    if args.id_only:  # the child of run_pure
        print(json.dumps({name: run_id(game, fen, args.time) for name, fen in POSITIONS.items()}))
        return
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"chess kernels: {KERNELS}")
    twin = bool(getattr(make_searcher(game, "id"), "compiled", False))
    print(f"id runs the compiled twin of its search: {'yes' if twin else 'no (not built)'}")
    pure = {} if args.no_pure else run_pure(args.time)
    print(f"{'position':<10} {'engine':<12} {'nodes/s':>9} {'depth':>5}   "
          f"nodes to depth {args.depth}")
    baselines = {"minimal": Baseline, "minimal+PST": PstBaseline}
    python_row = ["id (python)"] if twin else []
    totals = {name: [0, 0.0] for name in (
        "id", *python_row, *(["id (pure)"] if pure else []), *baselines)}
    for name, fen in POSITIONS.items():
        nodes, dt, depth = run_id(game, fen, args.time)
        state = game.search_start(game.parse_state(fen))
        fixed = make_searcher(ChessGame(), "id").search(state, Limit(depth=args.depth)).nodes
        totals["id"][0] += nodes
        totals["id"][1] += dt
        print(f"{name:<10} {'id':<12} {nodes / dt:>9.0f} {depth:>5}   {fixed}")
        if twin:
            nodes, dt, depth = run_id(ChessGame(), fen, args.time, compiled=False)
            totals["id (python)"][0] += nodes
            totals["id (python)"][1] += dt
            print(f"{'':<10} {'id (python)':<12} {nodes / dt:>9.0f} {depth:>5}   {fixed}")
        if pure:
            nodes, dt, depth = pure[name]
            totals["id (pure)"][0] += nodes
            totals["id (pure)"][1] += dt
            print(f"{'':<10} {'id (pure)':<12} {nodes / dt:>9.0f} {depth:>5}   {fixed}")
        for label, cls in baselines.items():
            base = cls()
            t0 = time.process_time()
            depth, nodes = base.search(fen, args.time, None)
            dt = time.process_time() - t0
            done, fixed_nodes = cls().search(fen, args.fixed_cap, args.depth)
            fixed_b = str(fixed_nodes) if done == args.depth else f"> {fixed_nodes} (stopped)"
            totals[label][0] += nodes
            totals[label][1] += dt
            print(f"{'':<10} {label:<12} {nodes / dt:>9.0f} {depth:>5}   {fixed_b}")
    rate = {name: n / t for name, (n, t) in totals.items()}
    print("overall nodes per CPU second: " + ", ".join(f"{k} {v:.0f}" for k, v in rate.items()))
    print("totals, nodes / CPU s: "
          + ", ".join(f"{k} {n} / {t:.2f}" for k, (n, t) in totals.items()))
    for label in (*python_row, "id (pure)", *baselines):
        if label in rate:
            print(f"ratio id / {label}: {rate['id'] / rate[label]:.2f}")
    if python_row:
        print(f"ratio id (python) / minimal: {rate['id (python)'] / rate['minimal']:.2f}")
    if pure:
        print(f"ratio id (pure) / minimal: {rate['id (pure)'] / rate['minimal']:.2f}")
    stockfish = None if args.no_stockfish else find_stockfish()
    if args.no_stockfish:
        print("stockfish bench: skipped (--no-stockfish)")
    elif stockfish is None:
        print("stockfish bench: skipped (no stockfish on PATH or at /usr/games/stockfish)")
    else:
        nodes, wall, cpu, startup = run_stockfish_bench(stockfish, args.stockfish_depth)
        search_cpu = max(cpu - startup, 1e-9)
        print(f"stockfish bench 16 1 {args.stockfish_depth} default depth ({stockfish}): "
              f"{nodes} nodes, {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"(of which start-up about {startup:.2f} s, measured apart)")
        print(f"stockfish nodes per CPU second: {nodes / search_cpu:.0f} without start-up, "
              f"{nodes / cpu:.0f} with it (per wall second, as it reports: {nodes / wall:.0f})")
        for label in ("id", *python_row, "id (pure)", "minimal"):
            if label in rate:
                ratio = rate[label] * search_cpu / nodes
                print(f"ratio {label} / stockfish (CPU): {ratio:.4f} (stockfish {1 / ratio:.1f}x)")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
