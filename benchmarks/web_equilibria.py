"""What the Equilibria page's live run costs beside the command line's solve, in the same
run: the page's run (:class:`gamesearch.interfaces.web.equilibria.SolveRun`: one iteration
at a time, the exploitability at the log-spaced checkpoints 1, 2, 3, 5, 10, ... and the
last) against :func:`gamesearch.search.equilibrium.solve_equilibrium` (all iterations at
once, the exploitability once), both in CPU seconds (``time.process_time``).

    .venv/bin/python benchmarks/web_equilibria.py
    .venv/bin/python benchmarks/web_equilibria.py --games leduc_poker --iterations 1000 10000

The machine is shared: the load (``os.getloadavg``) is printed before and after; compare
the ratio within one run.
"""

from __future__ import annotations

import argparse
import os
import time

from gamesearch.games import get_game
from gamesearch.interfaces.web.equilibria import SolveRun
from gamesearch.search.equilibrium import solve_equilibrium


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["kuhn_poker", "leduc_poker"])
    parser.add_argument("--algorithm", default="cfr+")
    parser.add_argument("--iterations", nargs="+", type=int, default=[1000])
    args = parser.parse_args()
    print(f"load before: {load()}")
    print("| game | algorithm | iterations | histories | page: evaluations | page: solver CPU s "
          "| page: exploitability CPU s | page: total CPU s | command line CPU s | ratio "
          "| exploitability (equal) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.games:
        game = get_game(name)
        for n in args.iterations:
            start = time.process_time()
            done = SolveRun(game, args.algorithm, n, 3600.0).run(lambda kind, data: None)
            page = time.process_time() - start
            start = time.process_time()
            cli = solve_equilibrium(game, args.algorithm, n)
            line = time.process_time() - start
            same = abs(done["exploitability"] - cli.exploitability) < 1e-12
            print(f"| {name} | {args.algorithm} | {n:,} | {cli.nodes // (2 * n):,} | "
                  f"{done['evaluations']} | {done['solver_cpu']:.3f} | "
                  f"{done['exploitability_cpu']:.3f} | {page:.3f} | {line:.3f} | "
                  f"{page / line:.2f}x | {done['exploitability']:.4e} "
                  f"({'yes' if same else 'NO'}) |")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
