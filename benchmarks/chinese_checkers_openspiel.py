"""Chinese Checkers against OpenSpiel's ``chinese_checkers``: whole moves compared state by
state over random games, for 2, 3, 4 and 6 players.

For each player count, plays ``--games`` games (1,000 by default) in both libraries side by
side (:func:`referees.chinese_checkers_openspiel.compare_games`): at every turn our
moves must be exactly OpenSpiel's whole moves (the distinct start and end holes of every
action sequence of one turn, found by walking OpenSpiel's jump chains action by action),
the boards must be equal after our move is played there as OpenSpiel's actions
(``to_actions``: the jumps of a shortest chain, then the pass 726 when the chain could go
on), and at the end both must stop at the same turn with the same winner (OpenSpiel's
returns ``n-1`` for the winner and ``-1`` for the others, or all 0 at the move limit, where
we name no winner). Half the games are forward games (moves drawn among the most forward
ones nine times in ten) so that players finish; the others are uniformly random and reach
the move limit. Our returns are not compared: they rank every player by distance left and
OpenSpiel's do not (see :mod:`gamesearch.games.chinese_checkers.rules`).

    .venv/bin/python benchmarks/chinese_checkers_openspiel.py            # 1,000 games each
    .venv/bin/python benchmarks/chinese_checkers_openspiel.py --games 50 --players 3

Exit status 1 at the first difference (the message names the game and turn).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.chinese_checkers_openspiel import compare_games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 6])
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel (the dev extra)")
        return 2
    print(f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, max_moves {args.max_moves}, "
          f"seed {args.seed}")
    head = ("players", "games", "turns", "whole moves", "chain moves", "longest seq",
            "wins", "move limit", "seconds")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for n in args.players:
        t0 = time.perf_counter()
        try:
            s = compare_games(n, args.games, seed=args.seed + n, max_moves=args.max_moves)
        except AssertionError as exc:
            print(f"DIFFERENCE: {exc}")
            return 1
        row = (n, s["games"], s["turns"], s["moves"], s["chains"], s["longest"], s["wins"],
               s["limit"], f"{time.perf_counter() - t0:.0f}")
        print("| " + " | ".join(map(str, row)) + " |", flush=True)
    print("every turn: the same whole moves and the same board; every game: the same end "
          "turn and winner")
    return 0


if __name__ == "__main__":
    sys.exit(main())
