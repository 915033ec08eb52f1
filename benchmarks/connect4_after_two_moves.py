"""What an exact score costs after two moves: the price of an opening book that holds every
position after two moves (issue 36, web item 2), measured on a sample.

The package's book is exact after one move and after the centre opening and any reply
(``gamesearch book connect4 --upgrade``: weak entries made exact by null-window tests next
to the weak bound). The other positions after two moves are not in the policy book at all,
so each would need a whole solve. This script solves a sample of them strongly with the
compiled solver (Pons's null-window narrowing from his full window; no prior knowledge),
one table of ``--tt`` entries kept from position to position as the book build keeps it,
and prints per position: the score, the nodes, CPU seconds (``time.process_time``), wall
seconds, and the load average before and after (``os.getloadavg``). The peer is the same
run's cost of the book's own upgrade of one position after two moves, read from the
package book's header (nodes and CPU seconds of its tests, measured when it was built):
``ratio`` is this solve's CPU seconds over that.

    .venv/bin/python benchmarks/connect4_after_two_moves.py 14 33 --tt 134217728
"""

from __future__ import annotations

import argparse
import os
import time

from gamesearch.games.connect4 import compiled as cc
from gamesearch.games.connect4.book import default_book


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", nargs="*", default=["14", "33"],
                    help="move strings of positions after two moves (default 14 33)")
    ap.add_argument("--tt", type=int, default=1 << 27, help="table entries (default 2^27)")
    args = ap.parse_args()
    if not cc.available():
        raise SystemExit("this benchmark needs the compiled solver: pip install 'gamesearch[fast]'")
    upgraded = default_book().meta.get("upgrade", {}).get("positions", {})
    peers = [p["cpu_seconds"] for p in upgraded.values() if p.get("cpu_seconds")]
    peer = sum(peers) / len(peers) if peers else None
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print("| position | score | nodes | CPU s | wall s | ratio to a book upgrade |")
    print("|---|---:|---:|---:|---:|---:|", flush=True)
    first = True
    for moves in args.positions:
        c0, t0 = time.process_time(), time.perf_counter()
        r = cc.solve_fast(moves, tt_capacity=args.tt, keep_table=not first)
        first = False
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        ratio = f"{cpu / peer:.1f}" if peer else "-"
        print(f"| {moves} | {r['value']} | {r['nodes']} | {cpu:.1f} | {wall:.1f} | {ratio} |",
              flush=True)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if peer:
        print(f"(a book upgrade: {peer:.1f} CPU s a position on average, over {len(peers)} "
              "positions of the package book's header)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
