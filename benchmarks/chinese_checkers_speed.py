"""Chinese Checkers move generation and random playouts, ours beside OpenSpiel's, in the
same run (issue 21's figure "speed of each game's move generation beside OpenSpiel's").

For each player count:

* *whole moves/s*: the moves of one turn, generated at positions sampled from random games
  (the same positions in both libraries): ours ``game.actions`` (every end hole of every
  chain, a list of ints); OpenSpiel's whole moves found by walking its jump chains action
  by action (``openspiel.whole_moves``, applying and undoing actions from Python); and,
  for scale, OpenSpiel's own ``legal_actions()`` of the turn's first action (a step or the
  first jump only, in C++: not whole moves).
* *playouts/s*: uniformly random games from the start to the end (a player finishing, or
  the move limit, 1000 turns by default): ours ``random_playout`` (uniform over whole
  moves), OpenSpiel's uniform over its actions (a chain's further jumps and the pass drawn
  like any action) with ``apply_action`` from Python; turns/s beside each.

    .venv/bin/python benchmarks/chinese_checkers_speed.py
    .venv/bin/python benchmarks/chinese_checkers_speed.py --players 3 --seconds 5

Times are wall-clock, CPython, one core, the fastest of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from gamesearch.game import random_playout
from gamesearch.games.chinese_checkers import ChineseCheckers

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.chinese_checkers_openspiel import load, to_actions, whole_moves


def sample_positions(players: int, count: int, seed: int) -> list[tuple[Any, Any]]:
    """``count`` (our state, OpenSpiel state) pairs from uniformly random games."""
    game, os_game = ChineseCheckers(players), load(players)
    rng = random.Random(seed)
    out: list[tuple[Any, Any]] = []
    while len(out) < count:
        s, o = game.initial_state(), os_game.new_initial_state()
        while not game.is_terminal(s) and len(out) < count:
            if rng.random() < 0.05:
                out.append((s, o.clone()))
            acts = game.actions(s)
            m = acts[int(rng.random() * len(acts))]
            for a in to_actions(s, m):
                o.apply_action(a)
            s = game.result(s, m)
    return out


def best_of(repeat: int, fn: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def measure(n: int, args: argparse.Namespace) -> tuple[Any, ...]:
    """One row of the table: ``n`` players."""
    positions = sample_positions(n, args.positions, args.seed + n)
    game = ChineseCheckers(n, args.max_moves)
    total = sum(len(game.actions(s)) for s, _ in positions)
    first = sum(len(o.legal_actions()) for _, o in positions)
    ours = best_of(args.repeat, lambda: [game.actions(s) for s, _ in positions])
    theirs = best_of(args.repeat, lambda: [whole_moves(o) for _, o in positions])
    raw = best_of(args.repeat, lambda: [o.legal_actions() for _, o in positions])

    turns = [0]

    def our_playouts() -> None:
        rng = random.Random(args.seed)
        turns[0] = 0
        for _ in range(args.playouts):
            end = random_playout(game, game.initial_state(), rng)
            turns[0] += end.moves

    os_game = load(n, args.max_moves)
    actions = [0]

    def os_playouts() -> None:
        rng = random.Random(args.seed)
        actions[0] = 0
        for _ in range(args.playouts):
            o = os_game.new_initial_state()
            while not o.is_terminal():
                legal = o.legal_actions()
                o.apply_action(legal[int(rng.random() * len(legal))])
                actions[0] += 1

    t_ours = best_of(args.repeat, our_playouts)
    t_os = best_of(args.repeat, os_playouts)
    row = (n, f"{total / ours:,.0f}", f"{total / theirs:,.0f}",
           f"{first / raw:,.0f}",
           f"{args.playouts / t_ours:.1f} ({turns[0] / t_ours:,.0f})",
           f"{args.playouts / t_os:.1f} ({actions[0] / t_os:,.0f})")
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 6])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel (the dev extra)")
        return 2
    print(f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, {args.positions} positions, "
          f"{args.playouts} playouts of at most {args.max_moves} turns, best of "
          f"{args.repeat}")
    head = ("players", "ours whole moves/s", "OpenSpiel whole moves/s (Python walk)",
            "OpenSpiel first actions/s (legal_actions(), C++)", "ours playouts/s (turns/s)",
            "OpenSpiel playouts/s (actions/s)")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for n in args.players:
        row = measure(n, args)
        print("| " + " | ".join(map(str, row)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
