"""MCTS iterations (playouts) per second: gamesearch's ``mcts`` against OpenSpiel's MCTS bots.

One run, one process, the same positions: gamesearch ``MCTS`` (UCT, MCTS-Solver, uniform
random playouts; in the game's compiled playout (its ``playouts()``) when it has one -
Connect Four with numba - and in plain Python with ``fast=0``) against OpenSpiel's Python
``open_spiel.python.algorithms.mcts.MCTSBot`` with ``RandomRolloutEvaluator(n_rollouts=1)``
(over C++ pyspiel states) and the C++ ``pyspiel.MCTSBot`` with
``pyspiel.RandomRolloutEvaluator(1, seed)``, all with the solver on.
Each row times one search of ``--iterations`` iterations from the position (one playout per
iteration), in CPU seconds (``time.process_time``), the median of ``--repeat`` samples
interleaved between the bots; the ratio column is gamesearch's iterations/s divided by the
row's (above 1: gamesearch is faster). A search that proves its root stops early; the
iterations actually run are the ones counted.

The exploration constants differ in form only: ours is UCB1's for returns normalised to
[0, 1] (default ``c = 0.5``); OpenSpiel's ``uct_c = 2`` multiplies returns in [-1, 1], which
is ``c = 1`` on our scale. Speed hardly depends on it.

    .venv/bin/pip install -e '.[dev,bench]'
    .venv/bin/python benchmarks/mcts.py                      # Connect Four and tic-tac-toe
    .venv/bin/python benchmarks/mcts.py --games connect4 --iterations 20000 --repeat 5
    .venv/bin/python benchmarks/mcts.py --json mcts.json --markdown

Games are named as in gamesearch; ``othello`` joins once the game is registered (OpenSpiel's
``othello``, the same start position).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from gamesearch import Limit, get_game
from gamesearch.search.mcts import MCTS

#: our game name -> (OpenSpiel game name, default iterations per search)
GAMES: dict[str, tuple[str, int]] = {
    "connect4": ("connect_four", 20_000),
    "tictactoe": ("tic_tac_toe", 5_000),
    "othello": ("othello", 5_000),
}


def ours(name: str, iterations: int, seed: int, fast: bool = True) -> Callable[[], int]:
    game = get_game(name)
    state = game.initial_state()
    if fast:
        game.playouts()  # load the compiled playouts (numba) before timing
        MCTS(game, seed=seed).search(state, Limit(nodes=10))

    def run() -> int:
        r = MCTS(game, seed=seed, solver=True, fast=fast).search(state, Limit(nodes=iterations))
        return int(r.extra["iterations"])

    return run


def ours_plain(name: str, iterations: int, seed: int) -> Callable[[], int]:
    return ours(name, iterations, seed, fast=False)


def openspiel_python(name: str, iterations: int, seed: int) -> Callable[[], int]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(GAMES[name][0])

    def run() -> int:
        rng = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, 2.0, iterations, mcts.RandomRolloutEvaluator(1, rng),
                           solve=True, random_state=rng)
        return int(bot.mcts_search(game.new_initial_state()).explore_count)

    return run


def openspiel_cpp(name: str, iterations: int, seed: int) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game(GAMES[name][0])

    def run() -> int:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, iterations,
                              1000, True, seed, False)
        return int(bot.mcts_search(game.new_initial_state()).explore_count)

    return run


BOTS: dict[str, Callable[[str, int, int], Callable[[], int]]] = {
    "gamesearch mcts": ours,
    "gamesearch mcts fast=0": ours_plain,
    "OpenSpiel Python MCTSBot": openspiel_python,
    "OpenSpiel C++ MCTSBot": openspiel_cpp,
}


def measure(runs: dict[str, Callable[[], int]], repeat: int) -> dict[str, tuple[int, float]]:
    """``(iterations, median CPU seconds)`` per bot, samples interleaved between the bots."""
    samples: dict[str, list[tuple[int, float]]] = {k: [] for k in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            t0 = time.process_time()
            n = run()
            samples[label].append((n, time.process_time() - t0))
    out = {}
    for label, got in samples.items():
        seconds = statistics.median(s for _, s in got)
        out[label] = (statistics.median_low(n for n, _ in got), seconds)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="connect4,tictactoe",
                   help="comma-separated: " + ", ".join(GAMES))
    p.add_argument("--iterations", type=int, default=None,
                   help="iterations per search (default per game: " + ", ".join(
                       f"{g} {n}" for g, (_, n) in GAMES.items()) + ")")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default=",".join(BOTS), help="comma-separated: " + ", ".join(BOTS))
    p.add_argument("--json", help="write the rows to this file")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = p.parse_args(argv)
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for name in filter(None, (g.strip() for g in args.games.split(","))):
        if name not in GAMES:
            p.error(f"unknown game {name!r}; known: {', '.join(GAMES)}")
        iterations = args.iterations or GAMES[name][1]
        runs = {}
        for label in filter(None, (b.strip() for b in args.bots.split(","))):
            try:
                runs[label] = BOTS[label](name, iterations, args.seed)
            except KeyError:
                p.error(f"unknown bot {label!r}; known: {', '.join(BOTS)}")
            except Exception as exc:  # a peer not installed, a game not registered yet
                notes.append(f"{name}: {label} skipped ({type(exc).__name__}: {exc})")
        for label, (n, seconds) in measure(runs, args.repeat).items():
            rows.append({"game": name, "bot": label, "iterations": n, "seconds": seconds,
                         "per_second": n / seconds if seconds > 0 else 0.0})
    for row in rows:
        base = next((r for r in rows if r["game"] == row["game"]
                     and r["bot"] == "gamesearch mcts"), None)
        row["ratio"] = (base["per_second"] / row["per_second"]
                        if base is not None and row["per_second"] else None)
    header = ("game", "bot", "iterations", "CPU s", "iterations/s", "ours / this")
    lines = [[r["game"], r["bot"], f"{r['iterations']:,}", f"{r['seconds']:.3f}",
              f"{r['per_second']:,.0f}", "" if r["ratio"] is None else f"{r['ratio']:.2f}"]
             for r in rows]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(h), *(len(x[i]) for x in lines)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
        for line in lines:
            print("  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)))
    for note in notes:
        print("note:", note)
    print(f"(Python {sys.version.split()[0]}; medians of {args.repeat} CPU-time samples)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "notes": notes, "repeat": args.repeat}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
