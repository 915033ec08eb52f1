"""Chess perft: the move generator and make-move of ``gamesearch.games.chess`` against the
reference counts of ``../shared/data/chess/perft.epd``, deeper than the tests go.

    .venv/bin/python benchmarks/chess_perft.py                  # every position to depth 5
    .venv/bin/python benchmarks/chess_perft.py --depth 6 --only startpos,position3
    .venv/bin/python benchmarks/chess_perft.py --python-chess   # python-chess's own, to compare

Prints per position and depth the count, the reference, the time and leaves per second; exit
status 1 on any mismatch. Depth 5 of all seven positions takes about 10 minutes in CPython
(kiwipete 5: 193,690,690 leaves, ~3 minutes; position6 5: ~2 minutes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

from gamesearch.games.chess import perft

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "chess" / "perft.epd"


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=5, help="deepest depth (default 5)")
    ap.add_argument("--min-depth", type=int, default=1)
    ap.add_argument("--only", help="comma-separated ids (startpos, kiwipete, position3, ...)")
    ap.add_argument("--file", default=str(DATA))
    ap.add_argument("--python-chess", action="store_true",
                    help="count with python-chess's generator instead (for comparison)")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    failures = 0
    for line in Path(args.file).read_text().splitlines():
        board, ops = chess.Board.from_epd(line)
        name = str(ops.get("id"))
        if only and name not in only:
            continue
        for key in sorted((k for k in ops if k[0] == "D" and k[1:].isdigit()),
                          key=lambda k: int(k[1:])):
            depth = int(key[1:])
            if not args.min_depth <= depth <= args.depth:
                continue
            expected = int(str(ops[key]))
            start = time.perf_counter()
            if args.python_chess:
                count = python_chess_perft(board.copy(), depth)
            else:
                count = perft(board, depth)
            seconds = time.perf_counter() - start
            ok = count == expected
            failures += not ok
            print(f"{name:<20} D{depth} {count:>12} {'ok' if ok else f'MISMATCH {expected}':<8}"
                  f" {seconds:9.2f} s {count / seconds if seconds else 0:>11.0f} leaves/s",
                  flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
