"""Checkers perft from the start position beside the peers, measured in the same run:
our plain Python move generator (a jump chain one move, checked against Aart Bik's published
counts in ``tests/data/checkers/perft.txt``), OpenSpiel's ``checkers`` through its Python API
(each jump of a chain one action: our ``openspiel`` convention is counted beside it) and
``pydraughts`` (variant ``english``, push/pop).

    nice -n 10 .venv/bin/python benchmarks/checkers_perft.py              # depths 1-10
    nice -n 10 .venv/bin/python benchmarks/checkers_perft.py --min-depth 10 --depth 10 \
        --counters ours,openspiel --budget 600

Each counter goes one depth deeper while its previous depth took less than ``--budget``
seconds (the next one takes about five times longer), so the slow peers stop early. Prints a
table per depth: the count, seconds and leaves per second of each, and our rate over the
peer's in the same convention; exit status 1 on a count that differs from the reference
(published, or the peer's in its convention).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamesearch.games.checkers import Checkers

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "checkers" / "perft.txt"


def published() -> dict[int, int]:
    out = {}
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            depth, count = line.split()
            out[int(depth)] = int(count)
    return out


def spiel_counter() -> Callable[[int], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    root = pyspiel.load_game("checkers").new_initial_state()

    def count(state: Any, depth: int) -> int:
        if depth == 0 or state.is_terminal():
            return 1
        actions = state.legal_actions()
        if depth == 1:
            return len(actions)
        return sum(count(state.child(a), depth - 1) for a in actions)

    return lambda depth: count(root, depth)


def draughts_counter() -> Callable[[int], int] | None:
    try:
        import draughts  # type: ignore[import-not-found]
    except ImportError:
        return None
    board = draughts.Board(variant="english")

    def count(depth: int) -> int:
        moves = board.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            board.push(m)
            total += count(depth - 1)
            board.pop()
        return total

    return count


def timed(fn: Callable[[int], int], depth: int) -> tuple[int, float]:
    start = time.perf_counter()
    n = fn(depth)
    return n, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=10, help="deepest depth (default 10)")
    ap.add_argument("--min-depth", type=int, default=1, help="first depth (default 1)")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="a counter stops after a depth that took longer (default 30 s)")
    ap.add_argument("--counters", default="ours,ours_os,openspiel,pydraughts",
                    help="which to run, comma-separated (default all four)")
    args = ap.parse_args()
    ref = published()
    game = Checkers()
    start = game.initial_state()
    counters: dict[str, Callable[[int], int] | None] = {
        "ours": lambda d: game.count_perft(start, d, "moves"),
        "ours_os": lambda d: game.count_perft(start, d, "openspiel"),
        "openspiel": spiel_counter(),
        "pydraughts": draughts_counter(),
    }
    for name, fn in counters.items():
        if fn is None:
            print(f"# {name}: not installed (pip install '.[bench]'), left out")
    wanted = set(args.counters.split(","))
    alive = {name for name, fn in counters.items() if fn is not None and name in wanted}
    failures = 0
    print(f"{'D':>2} {'ours (chain = 1 move)':>22} {'s':>8} {'leaves/s':>10} "
          f"{'pydraughts s':>12} {'ratio':>6} | {'openspiel conv.':>15} {'ours s':>8} "
          f"{'leaves/s':>10} {'OpenSpiel s':>11} {'leaves/s':>10} {'ratio':>6}")
    for depth in range(args.min_depth, args.depth + 1):
        row: dict[str, tuple[int, float]] = {}
        for name in list(alive):
            fn = counters[name]
            assert fn is not None
            row[name] = timed(fn, depth)
            if row[name][1] > args.budget:
                alive.discard(name)
        if not row:
            break

        def cell(name: str, row: dict[str, tuple[int, float]] = row) -> tuple[
                str, str, float | None]:
            if name not in row:
                return "-", "-", None
            n, s = row[name]
            return f"{s:.3f}", f"{n / s:,.0f}" if s else "-", (n / s if s else None)

        ours_n = row["ours"][0] if "ours" in row else None
        if ours_n is not None and depth in ref and ours_n != ref[depth]:
            failures += 1
            print(f"# MISMATCH depth {depth}: ours {ours_n}, published {ref[depth]}")
        if "pydraughts" in row and ours_n is not None and row["pydraughts"][0] != ours_n:
            failures += 1
            print(f"# MISMATCH depth {depth}: pydraughts {row['pydraughts'][0]}")
        if "openspiel" in row and "ours_os" in row and row["openspiel"][0] != row["ours_os"][0]:
            failures += 1
            print(f"# MISMATCH depth {depth}: OpenSpiel {row['openspiel'][0]}, ours "
                  f"{row['ours_os'][0]} in its convention")
        o_s, o_r, o_rate = cell("ours")
        d_s, _, d_rate = cell("pydraughts")
        oo_s, oo_r, oo_rate = cell("ours_os")
        s_s, s_r, s_rate = cell("openspiel")
        ratio_d = f"{o_rate / d_rate:.1f}" if o_rate and d_rate else "-"
        ratio_s = f"{oo_rate / s_rate:.2f}" if oo_rate and s_rate else "-"
        count = f"{ours_n:,}" if ours_n is not None else "-"
        os_count = f"{row['ours_os'][0]:,}" if "ours_os" in row else "-"
        print(f"{depth:>2} {count:>22} {o_s:>8} {o_r:>10} {d_s:>12} {ratio_d:>6} | "
              f"{os_count:>15} {oo_s:>8} {oo_r:>10} {s_s:>11} {s_r:>10} {ratio_s:>6}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
