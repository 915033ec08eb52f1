"""Go's rules against OpenSpiel's ``go`` and GNU Go, the full counts
(:mod:`referees.go`; ``tests/test_go_referees.py`` runs samples).

    .venv/bin/python benchmarks/go_referees.py                   # 1,000 games, 9x9
    .venv/bin/python benchmarks/go_referees.py --games 200 --size 5 --gnugo-games 20

Prints one table: games, positions compared, moves OpenSpiel allows that positional
superko forbids (each checked to repeat an earlier board), games that reached OpenSpiel's
length cap, and the mismatches (0 when the referee agrees). Exit status 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.go import (
    compare_gnugo_legal,
    compare_gnugo_scores,
    compare_openspiel,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--legal-games", type=int, default=100,
                        help="of the OpenSpiel games, how many GNU Go's is_legal checks")
    parser.add_argument("--every", type=int, default=10, help="is_legal every N plies")
    parser.add_argument("--gnugo-games", type=int, default=50,
                        help="GNU Go self-play games for final_score (--capture-all-dead)")
    parser.add_argument("--level", type=int, default=1, help="GNU Go's level for them")
    args = parser.parse_args(argv)
    gnugo = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    rows = []
    lines: list[list[int]] = []
    t = time.perf_counter()
    r = compare_openspiel(args.games, args.size, args.seed, keep=lines)
    rows.append(("OpenSpiel go: legal moves, boards, returns", r.games, r.positions,
                 r.superko, r.cap_ends, len(r.mismatches), time.perf_counter() - t))
    bad = list(r.mismatches)
    if gnugo is None:
        print("gnugo not found: the GNU Go rows are not run", file=sys.stderr)
    else:
        t = time.perf_counter()
        r = compare_gnugo_legal(gnugo, lines[:args.legal_games], args.size, args.every)
        rows.append(("GNU Go is_legal, every empty point", r.games, r.positions, 0, 0,
                     len(r.mismatches), time.perf_counter() - t))
        bad += r.mismatches
        t = time.perf_counter()
        r = compare_gnugo_scores(gnugo, args.gnugo_games, args.size, args.seed, args.level)
        rows.append(("GNU Go final_score (capture-all-dead)", r.games, r.positions, 0, 0,
                     len(r.mismatches), time.perf_counter() - t))
        bad += r.mismatches
    print(f"{'referee':45} {'games':>6} {'positions':>10} {'superko':>8} {'cap ends':>9} "
          f"{'mismatch':>9} {'seconds':>8}")
    for name, games, positions, superko, caps, mism, secs in rows:
        print(f"{name:45} {games:6d} {positions:10d} {superko:8d} {caps:9d} {mism:9d} "
              f"{secs:8.1f}")
    for line in bad[:20]:
        print("MISMATCH", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
