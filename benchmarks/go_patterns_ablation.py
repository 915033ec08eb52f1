"""What MoGo's 3x3 playout patterns buy: the program against itself with the patterns
switched off, at a fixed number of iterations a move (so the machine's load does not change
the games), 9x9, komi 7.5, colours alternating.

    nice -n 10 .venv/bin/python benchmarks/go_patterns_ablation.py --games 40 \
        --iterations 400 --out go_patterns.jsonl

* full: the program (``gamesearch.games.go.PROGRAM``, ``c=0.1`` before 2026-11-27) on
  ``go:size=9`` (MoGo's pattern playouts);
* no patterns: the same search on ``go:size=9,playout=captures`` (captures and ataris
  only; ``--off random`` compares with ``playout=random``, no policy but the eye rule).

The playout policy is an option of the game, not of the agent, so the arena's gauntlet
(one game for both seats) cannot hold this pair: each side here searches its own ``Game``
with the same rules, and the positions pass between them (the rules are the same, only
the playouts differ; the referee of the result is the rules' area count). Each finished
game is appended to ``--out`` (JSON lines); a run with the same ``--out`` goes on from the
games it holds (resume). The result: the full program's score with its 95 % Wilson
interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gamesearch.arena.ratings import wilson_interval
from gamesearch.games.go import PROGRAM
from go_ab import play_one as play_ab  # (the sibling script: its folder is on the path)


def play_one(k: int, iterations: int, off: str) -> dict[str, Any]:
    """Game ``k``: the full program is ``go_ab.py``'s A, the one without patterns its B
    (A is Black when ``k`` is even; seeds ``1000 + k`` and ``2000 + k``)."""
    row = play_ab(k, iterations, {"a_game": "go:size=9", "a_agent": PROGRAM,
                                  "b_game": f"go:size=9,playout={off}", "b_agent": PROGRAM})
    return {"game": k, "full_black": row["a_black"], "score": row["score"],
            "plies": row["plies"], "seconds": row["seconds"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=400, help="iterations a move")
    parser.add_argument("--off", choices=("captures", "random"), default="captures",
                        help="the playout policy of the side without patterns")
    parser.add_argument("--out", default=None, help="JSON lines of the games (resume)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.iterations < 1:
        print("--games and --iterations must be at least 1", file=sys.stderr)
        return 2
    done: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        done = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
        done = [r for r in done if r.get("iterations") == args.iterations
                and r.get("off") == args.off]
    for k in range(len(done), args.games):
        row = play_one(k, args.iterations, args.off)
        row.update(iterations=args.iterations, off=args.off)
        done.append(row)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(json.dumps(row), file=sys.stderr, flush=True)
    points = sum(r["score"] for r in done)
    wins = sum(1 for r in done if r["score"] == 1)
    low, high = wilson_interval(points, len(done))
    plies = sum(r["plies"] for r in done) / max(1, len(done))
    print(f"full (patterns) against playout={args.off}, {PROGRAM}, "
          f"{args.iterations} iterations a move, 9x9, komi 7.5, colours alternating")
    print(f"{'games':>6} {'full W-L':>9} {'full score':>11} {'95 % interval':>14} "
          f"{'plies/game':>11}")
    print(f"{len(done):6} {f'{wins}-{len(done) - wins}':>9} "
          f"{points / max(1, len(done)):11.0%} {f'{low:.0%}-{high:.0%}':>14} {plies:11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
