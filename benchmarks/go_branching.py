"""The seeds' "in go, b > 300", measured: the mean number of legal moves over self-play
games on 19x19 (and 9x9 beside it).

The games are self-play of the library's playout policy (MoGo's patterns, compiled;
:mod:`gamesearch.games.go.fast`) from the empty board, to two passes: each game's moves are
replayed through the rules (:class:`gamesearch.games.go.Go`, positional superko) and the
legal moves counted at every position, the pass included; the mean is over all positions
of all games. Full MCTS self-play on 19x19 is out of reach in plain Python (about 1,000
iterations a second), so the policy plays; its games are longer than a strong player's
(it fills the board until no move but an own eye is left), which lowers ``b`` at the end.

    .venv/bin/python benchmarks/go_branching.py [--games 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from gamesearch.games import get_game


def measure(size: int, games: int, seed: int) -> tuple[float, float, int, int, float]:
    """(mean legal moves, mean over the first 100 plies, positions, games, mean length)."""
    g = get_game(f"go:size={size}")
    playouts = g.playouts()
    assert playouts is not None and playouts.traced is not None
    rng = random.Random(seed)
    total = positions = early_total = early = 0
    lengths = 0
    for _ in range(games):
        s = g.initial_state()
        _, moves = playouts.traced(s, rng, None)
        for ply, (_, a) in enumerate(moves):
            n = len(g.actions(s))
            total += n
            positions += 1
            if ply < 100:
                early_total += n
                early += 1
            s = g.result(s, a)
        lengths += len(moves)
    return total / positions, early_total / max(early, 1), positions, games, lengths / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'board':>6} {'games':>6} {'positions':>10} {'mean length':>12} "
          f"{'mean b':>8} {'b, plies 1-100':>15} {'seconds':>8}")
    for size in (19, 9):
        t = time.perf_counter()
        b, b_early, positions, games, length = measure(size, args.games, args.seed)
        print(f"{size:>3}x{size:<2} {games:6d} {positions:10d} {length:12.0f} {b:8.1f} "
              f"{b_early:15.1f} {time.perf_counter() - t:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
