"""Calibration: what plain CPython does on Pons's solver with no framework at all.

A hand-written, single-function transcription of Pascal Pons's solver (blog.gamesolver.org,
part 12 without the opening book): bitboards, pruning of moves that lose at once, score
bounds, a transposition table of lower/upper bounds (a dict here: no replacement), moves
sorted by the threats they create with centre-first ties, the zero-window binary search at
the root. Everything inlined into one recursive function over local ints: no state objects,
no hooks, no limits, no principal variation. It is *not* part of the library (the library's
solver is the generic negamax configured through the game's hooks, ``benchmarks/connect4.py``);
it measures the ceiling the issue's "pure CPython >= 1M nodes/s" is set against. Nodes are
counted as Pons counts them (one per negamax call); every score is checked against the file.

    .venv/bin/python benchmarks/connect4_lean.py                  # 300 positions per set
    .venv/bin/python benchmarks/connect4_lean.py --limit 1000 --sets Test_L3_R1 Test_L2_R1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Pons's compute_winning_position, unrolled (a plain function over two ints)
from gamesearch.games.connect4 import winning_cells

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"]

WIDTH, HEIGHT, H1 = 7, 6, 7
BOTTOM_ALL = sum(1 << (c * H1) for c in range(WIDTH))
BOARD = BOTTOM_ALL * ((1 << HEIGHT) - 1)
COLUMNS = [((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH)]
CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6]
MIN_SCORE = -(WIDTH * HEIGHT) // 2 + 3
MAX_SCORE = (WIDTH * HEIGHT + 1) // 2 - 3


def solve(moves: str) -> tuple[int, int]:
    """(score, nodes) of the position written as Pons's move string."""
    cur = mask = 0
    for ch in moves:
        cur ^= mask
        mask |= mask + (1 << ((ord(ch) - 49) * H1))
    n0 = len(moves)
    table: dict[int, int] = {}
    nodes = 0

    def negamax(cur: int, mask: int, n: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        possible = (mask + BOTTOM_ALL) & BOARD
        opp_win = winning_cells(cur ^ mask, mask)
        forced = possible & opp_win
        if forced:
            if forced & (forced - 1):
                return -((42 - n) // 2)  # two threats: lost (C division: towards zero)
            possible = forced
        nxt = possible & ~(opp_win >> 1)
        if not nxt:
            return -((42 - n) // 2)
        if n >= 40:
            return 0
        lo = -((40 - n) // 2)
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return alpha
        hi = (41 - n) // 2
        key = cur + mask
        v = table.get(key)
        if v is not None:
            if v > MAX_SCORE - MIN_SCORE + 1:  # a lower bound
                lo = v + 2 * MIN_SCORE - MAX_SCORE - 2
                if alpha < lo:
                    alpha = lo
                    if alpha >= beta:
                        return alpha
            else:  # an upper bound
                hi = v + MIN_SCORE - 1
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return beta
        order = []
        rank = 0
        for c in CENTRE_FIRST:
            move = nxt & COLUMNS[c]
            if move:
                order.append((-winning_cells(cur | move, mask).bit_count(), rank, move))
                rank += 1
        order.sort()
        child_cur = cur ^ mask
        for _, _, move in order:
            score = -negamax(child_cur, mask | move, n + 1, -beta, -alpha)
            if score >= beta:
                table[key] = score + MAX_SCORE - 2 * MIN_SCORE + 2
                return score
            if score > alpha:
                alpha = score
        table[key] = alpha - MIN_SCORE + 1
        return alpha

    if winning_cells(cur, mask) & (mask + BOTTOM_ALL) & BOARD:
        return (43 - n0) // 2, 0
    lo, hi = -((42 - n0) // 2), (43 - n0) // 2
    while lo < hi:  # Pons's binary search of the score with zero windows, biased to 0
        med = lo + (hi - lo) // 2
        if med <= 0 and int(lo / 2) < med:
            med = int(lo / 2)
        elif med >= 0 and int(hi / 2) > med:
            med = int(hi / 2)
        r = negamax(cur, mask, n0, med, med + 1)
        if r <= med:
            hi = r
        else:
            lo = r
    return lo, nodes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="*", default=SETS)
    ap.add_argument("--limit", type=int, default=300, help="positions per set (evenly spaced)")
    args = ap.parse_args()
    pons = {}
    for line in (DATA / "pons_reference.csv").read_text().splitlines()[1:]:
        c = line.split(",")
        pons[c[0]] = float(c[2])
    print(f"{'set':<12} {'positions':>9} {'mean nodes':>11} {'median':>7} {'mean time':>10} "
          f"{'nodes/s':>9} {'nodes/Pons':>10} {'wrong':>5}")
    bad = 0
    for name in args.sets:
        rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
        step = max(1, len(rows) // args.limit)
        rows = rows[::step][: args.limit]
        t = time.process_time()
        got = [solve(moves) for moves, _ in rows]
        secs = time.process_time() - t
        wrong = sum(1 for (_, s), (v, _) in zip(rows, got, strict=True) if v != int(s))
        bad += wrong
        nodes = [k for _, k in got]
        mean = sum(nodes) / len(nodes)
        ratio = f"{mean / pons[name]:.2f}" if name in pons else "-"
        print(f"{name:<12} {len(rows):>9} {mean:>11,.0f} {statistics.median(nodes):>7,.0f} "
              f"{secs / len(rows) * 1e3:>8.2f}ms {sum(nodes) / secs:>9,.0f} {ratio:>10} "
              f"{wrong:>5}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
