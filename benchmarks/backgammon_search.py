"""*-minimax on backgammon: node savings of Star1 and Star2 against expectiminimax, beside
Ballard's 1983 figures, and the speed of move generation and search.

    .venv/bin/python benchmarks/backgammon_search.py                   # 40 positions, depth 2
    .venv/bin/python benchmarks/backgammon_search.py --positions 10 --depth 3

Positions: decision nodes drawn from seeded random games (``--seed``). Each is searched to
``--depth`` decision plies (depth 2: the move, the opponent's 21 rolls, its reply, each
leaf the evaluation of a position before a roll: gnubg's 1-ply) by expectiminimax, Star1
and Star2 with the game's evaluation (pips and exposed blots unless another evaluator
is plugged in) and bounds [-3, 3]; the script checks that the three agree on value and move
and prints the nodes (every node visited, Star2's probes included), the savings against
expectiminimax, the seconds and nodes/s. Ballard (1983) reports 25-30 % fewer leaves for
Star1 and over 50 % for Star2 with random move order on his synthetic trees. Then the move
generator alone: decision nodes' legal move lists per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from gamesearch.games.backgammon import Backgammon
from gamesearch.games.backgammon.rules import BGState, legal_moves
from gamesearch.search import Limit, make_searcher

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.backgammon import random_decisions

BALLARD = {"star1": "25-30 %", "star2": "> 50 %"}


def positions(count: int, seed: int, keep: float = 0.1) -> list[BGState]:
    return random_decisions(count, random.Random(seed), keep)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--movegen", type=int, default=20_000, help="positions for the move-"
                    "generation timing")
    ap.add_argument("--verbose", action="store_true", help="a line per search as it ends")
    args = ap.parse_args()
    game = Backgammon()
    states = positions(args.positions, args.seed)
    nodes = {"expectiminimax": 0, "star1": 0, "star2": 0}
    seconds = dict.fromkeys(nodes, 0.0)
    disagreements = 0
    for s in states:
        ref = None
        for name in nodes:
            searcher = make_searcher(game, name)
            game._moves_cache.clear()  # each algorithm generates its own moves
            r = searcher.search(s, Limit(depth=args.depth))
            nodes[name] += r.nodes
            seconds[name] += r.seconds
            if args.verbose:
                print(f"  {game.format_state(s)} {name}: {r.nodes} nodes, {r.seconds:.1f} s, "
                      f"{r.move} {r.value:.4f}", flush=True)
            if ref is None:
                ref = r
            elif (r.value, r.action) != (ref.value, ref.action):
                disagreements += 1
                print(f"DISAGREE {name} {game.format_state(s)}: {r.move} {r.value} vs "
                      f"{ref.move} {ref.value}")
    base = nodes["expectiminimax"]
    print(f"backgammon, {len(states)} positions (seed {args.seed}), depth {args.depth}, "
          f"evaluation {game.evaluator_name}, bounds [-3, 3]")
    print(f"{'algorithm':<15} {'nodes':>11} {'saved':>7} {'Ballard':>8} {'seconds':>8} "
          f"{'nodes/s':>9}")
    for name, n in nodes.items():
        saved = f"{100 * (1 - n / base):.1f} %" if name != "expectiminimax" else "-"
        print(f"{name:<15} {n:>11} {saved:>7} {BALLARD.get(name, '-'):>8} "
              f"{seconds[name]:>8.2f} {n / seconds[name]:>9.0f}")
    sample = positions(args.movegen, args.seed + 1, keep=0.5)
    t0 = time.perf_counter()
    results = 0
    for s in sample:
        results += len(legal_moves(s[0], s[1], s[3], s[4]))
    t = time.perf_counter() - t0
    print(f"\nmove generation: {len(sample)} positions, {results} resulting positions, "
          f"{t:.2f} s, {len(sample) / t:.0f} positions/s, {results / t:.0f} results/s")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
