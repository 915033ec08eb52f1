"""Backgammon's move generation against gnubg and OpenSpiel, and its speed.

    .venv/bin/python benchmarks/backgammon_rules.py                  # 10,000 positions each
    .venv/bin/python benchmarks/backgammon_rules.py --positions 2000
    .venv/bin/python benchmarks/backgammon_rules.py --write-sample tests/data/backgammon

gnubg: the decision nodes (position and roll) of random games played by our rules (seeded),
each compared with gnubg's ``moves(board, d1, d2)`` from the PyPI package ``gnubg-nn``: the
set of resulting positions must be equal. OpenSpiel: the decision nodes of random games
played by OpenSpiel's ``backgammon``, its resulting positions (a double's two OpenSpiel
turns followed) against ours. Prints the positions, the mismatches, and the positions per
second of each generator (resulting-position sets per second, the same positions); exit 1
on any mismatch. ``--write-sample DIR`` writes the test sample (``gnubg_moves.txt``,
``openspiel_moves.txt``: a position, then the sorted position IDs of its results).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from gamesearch.games.backgammon import Backgammon, position_id

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.backgammon import (
    gnubg_results,
    openspiel_positions,
    our_results,
    random_decisions,
)


def ids(boards: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[str]:
    return sorted(position_id(b) for b in boards)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write-sample", metavar="DIR", help="write the tests' sample and stop")
    ap.add_argument("--sample", type=int, default=300, help="positions in each sample file")
    args = ap.parse_args()
    game = Backgammon()
    if args.write_sample:
        out = Path(args.write_sample)
        out.mkdir(parents=True, exist_ok=True)
        lines = [f"{game.format_state(s)} {' '.join(ids(gnubg_results(s)))}"
                 for s in random_decisions(args.sample, random.Random(args.seed))]
        (out / "gnubg_moves.txt").write_text("\n".join(lines) + "\n")
        lines = []
        for s, res in openspiel_positions(10_000, args.seed):
            lines.append(f"{game.format_state(s)} {' '.join(ids(res))}")
            if len(lines) == args.sample:
                break
        (out / "openspiel_moves.txt").write_text("\n".join(lines) + "\n")
        print(f"wrote {args.sample} positions to each of {out}/gnubg_moves.txt and "
              "openspiel_moves.txt")
        return 0
    failures = 0
    print(f"{'referee':<10} {'positions':>9} {'mismatches':>10} {'results':>9} "
          f"{'ours pos/s':>11} {'peer pos/s':>11} {'ratio':>6}")
    states = random_decisions(args.positions, random.Random(args.seed))
    t0 = time.perf_counter()
    ours = [our_results(s) for s in states]
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = [gnubg_results(s) for s in states]
    t_gnubg = time.perf_counter() - t0
    bad = sum(a != b for a, b in zip(ours, theirs, strict=True))
    failures += bad
    results = sum(len(a) for a in ours)
    print(f"{'gnubg':<10} {len(states):>9} {bad:>10} {results:>9} {len(states) / t_ours:>11.0f} "
          f"{len(states) / t_gnubg:>11.0f} {t_gnubg / t_ours:>6.2f}", flush=True)
    # OpenSpiel: its positions, its generator timed inside the walk, ours after it
    pairs = []
    t0 = time.perf_counter()
    for s, res in openspiel_positions(100_000, args.seed):
        pairs.append((s, res))
        if len(pairs) == args.positions:
            break
    t_spiel = time.perf_counter() - t0  # includes playing the games
    t0 = time.perf_counter()
    ours = [our_results(s) for s, _ in pairs]
    t_ours = time.perf_counter() - t0
    bad = sum(a != res for a, (_, res) in zip(ours, pairs, strict=True))
    failures += bad
    results = sum(len(a) for a in ours)
    print(f"{'openspiel':<10} {len(pairs):>9} {bad:>10} {results:>9} {len(pairs) / t_ours:>11.0f} "
          f"{len(pairs) / t_spiel:>11.0f} {t_spiel / t_ours:>6.2f}")
    print("(openspiel pos/s includes playing its random games and reading its boards back "
          "from its text; ratio: peer seconds / our seconds)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
