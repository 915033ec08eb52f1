"""Othello perft from the start position against ``../shared/data/othello/perft.txt``, in both
counting conventions (a pass is a ply in both; ``perft`` counts a game over before depth D as
one leaf, ``full_depth`` counts only positions exactly D plies deep, OEIS A124004).

    .venv/bin/python benchmarks/othello_perft.py                 # compiled, depths 1-11
    .venv/bin/python benchmarks/othello_perft.py --depth 12
    .venv/bin/python benchmarks/othello_perft.py --python --depth 9   # the plain Python counter

Prints per depth and convention the count, the reference, the time and leaves per second
(the compiled code is loaded before the clock starts); exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gamesearch.games.othello import compiled
from gamesearch.games.othello.rules import Othello, perft

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "othello" / "perft.txt"


def reference(path: Path) -> dict[int, tuple[int, int]]:
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            out[int(f[0])] = (int(f[1]), int(f[2]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=11, help="deepest depth (default 11)")
    ap.add_argument("--min-depth", type=int, default=1)
    ap.add_argument("--python", action="store_true", help="the plain Python counter")
    ap.add_argument("--file", default=str(DATA))
    args = ap.parse_args()
    ref = reference(Path(args.file))
    state = Othello().initial_state()
    count_fn = perft if args.python else compiled.perft
    count_fn(state, 1)  # load (or compile) the kernel before timing
    failures = 0
    total = 0.0
    for depth in range(args.min_depth, args.depth + 1):
        for i, name in enumerate(("perft", "full_depth")):
            start = time.perf_counter()
            count = count_fn(state, depth, name == "full_depth")
            seconds = time.perf_counter() - start
            total += seconds
            expected = ref.get(depth, (None, None))[i]
            ok = expected is None or count == expected
            failures += not ok
            verdict = "ok" if expected is not None and ok else (
                "(no ref)" if expected is None else f"MISMATCH {expected}")
            print(f"D{depth:<3} {name:<10} {count:>15} {verdict:<10} {seconds:9.3f} s "
                  f"{count / seconds if seconds else 0:>13.0f} leaves/s", flush=True)
    print(f"{'compiled' if not args.python else 'python'}: {total:.2f} s in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
