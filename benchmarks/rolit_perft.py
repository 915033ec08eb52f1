"""Rolit perft from the start for 2, 3 and 4 players, and random playouts (what MCTS's
simulations cost), on the bitboard rules of ``gamesearch.games.rolit``.

    .venv/bin/python benchmarks/rolit_perft.py                 # depths 1-7, 2/3/4 players
    .venv/bin/python benchmarks/rolit_perft.py --depth 8 --players 3
    .venv/bin/python benchmarks/rolit_perft.py --playouts 2000

Prints per seat count and depth the leaf count (checked against the table that
``tests/test_rolit.py`` pins to depth 7 and checks against its own square-by-square
generator), the seconds and the leaves per second; then, per seat count, random games
played to the full board per second. Exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from gamesearch.game import random_playout
from gamesearch.games.rolit import Rolit

#: The pinned counts (``tests/test_rolit.py``'s ``PERFT``), depths 0-7.
PERFT = {
    2: [1, 3, 20, 93, 572, 2914, 20327, 112000],
    3: [1, 3, 20, 136, 630, 3956, 27778, 161368],
    4: [1, 3, 20, 136, 1366, 7427, 44154, 343639],
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=7, help="deepest depth (default 7)")
    ap.add_argument("--min-depth", type=int, default=1)
    ap.add_argument("--players", default="2,3,4", help="seat counts, comma-separated")
    ap.add_argument("--playouts", type=int, default=500,
                    help="random games per seat count (default 500; 0: none)")
    args = ap.parse_args()
    failures = 0
    counts = [int(x) for x in args.players.split(",")]
    print(f"{'players':>7} {'depth':>5} {'leaves':>12} {'check':<10} {'seconds':>9} "
          f"{'leaves/s':>12}")
    for n in counts:
        game = Rolit(players=n)
        state = game.initial_state()
        for depth in range(args.min_depth, args.depth + 1):
            start = time.perf_counter()
            count = game.count_perft(state, depth)
            seconds = time.perf_counter() - start
            table = PERFT.get(n, [])
            expected = table[depth] if depth < len(table) else None
            ok = expected is None or count == expected
            failures += not ok
            verdict = "ok" if expected is not None and ok else (
                "(no ref)" if expected is None else f"MISMATCH {expected}")
            print(f"{n:>7} {depth:>5} {count:>12} {verdict:<10} {seconds:9.3f} "
                  f"{count / seconds if seconds else 0:>12.0f}", flush=True)
    if args.playouts:
        print(f"\n{'players':>7} {'games':>6} {'seconds':>9} {'games/s':>9} {'moves/s':>9}")
        for n in counts:
            game = Rolit(players=n)
            rng = random.Random(1)
            start = time.perf_counter()
            for _ in range(args.playouts):
                random_playout(game, game.initial_state(), rng)
            seconds = time.perf_counter() - start
            print(f"{n:>7} {args.playouts:>6} {seconds:9.3f} {args.playouts / seconds:9.0f} "
                  f"{60 * args.playouts / seconds:9.0f}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
