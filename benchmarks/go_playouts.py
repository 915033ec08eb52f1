"""Playouts per second on 9x9 Go: ours beside OpenSpiel's MCTS bots, in the same run.

Rows (each from the empty 9x9 board, komi 7.5):

* our compiled playouts alone (``Go.playouts().compiled``, numba), for each policy:
  ``patterns`` (MoGo's), ``captures``, ``random`` (no eye filling); a playout ends after
  two passes;
* our MCTS (``gamesearch.search.MCTS``, one playout an iteration): plain UCT, and the
  program (RAVE with the learned priors, ``rave=1,prior_visits=20,c=0.1``), iterations per
  second of one search; the program also with every node opened when made (``eager``:
  how the search ran before RAVE opened leaves lazily; the same tree, seed for seed);
  with numba installed the program runs RAVE's compact tree (``search/rave_kernels.py``;
  ``--ab-base`` below compares it with an older source tree);
* OpenSpiel 1.6's MCTS bots on its ``go`` (board_size 9): the C++ ``pyspiel.MCTSBot`` and
  the Python ``open_spiel.python.algorithms.mcts.MCTSBot``, each with a
  ``RandomRolloutEvaluator`` of one rollout (uniformly random moves, passes and eye
  filling included, to OpenSpiel's cap of 162 moves): simulations per second of one
  ``step``.

    .venv/bin/python benchmarks/go_playouts.py [--seconds 5]
    .venv/bin/python benchmarks/go_playouts.py --ab-rounds 5    # lazy vs eager opening
    .venv/bin/python benchmarks/go_playouts.py --profile        # where an iteration goes
    .venv/bin/python benchmarks/go_playouts.py --ab-base /tmp/base/src --ab-rounds 5

``--profile``: ``cProfile`` of one search of ``--ab-iterations`` iterations from a 9x9
position (``--position``: ``empty``, ``opening`` (E5 C3 G7 C7) or ``gnugo:GAME:PLIES``, the
first moves of a game of ``tests/data/go/gnugo5_games.json``), the functions that take the
most time of their own, then those that take the most with their callees.

``--ab-base SRC``: the program's search (``rave=1,prior_visits=20,c=0.1,seed=1``) of
``--ab-iterations`` iterations from the empty board and from ``gnugo:4:30``, run by the
source tree ``SRC`` (an older ``src/``, e.g. ``git archive 8a291e4 src | tar -x -C
/tmp/base``) and by this one, each in a fresh process that warms up (numba, the priors)
before the timed search, alternated ``--ab-rounds`` times: median iterations per second
of each and the ratio, and whether both gave the same root visits.

A playout of ours is shorter than OpenSpiel's (it never fills its own eyes and ends at two
passes, about 110 moves; OpenSpiel's random rollouts run to its 162-move cap), so the
table also gives the mean length of a playout where it is known.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher


def ours_playouts(policy: str, seconds: float) -> tuple[float, float]:
    g = get_game(f"go:size=9,playout={policy}")
    playouts = g.playouts()
    assert playouts is not None and playouts.traced is not None
    s = g.initial_state()
    rng = random.Random(1)
    playouts.traced(s, rng, None)  # compile
    n = plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, moves = playouts.traced(s, rng, None)
        n += 1
        plies += len(moves)
    return n / (time.perf_counter() - t0), plies / n


def ours_mcts(options: dict[str, object], seconds: float, eager: bool = False) -> float:
    g = get_game("go:size=9")
    searcher = make_searcher(g, "mcts", seed=1, **options)
    searcher.search(g.initial_state(), Limit(nodes=50))  # compile, load the priors
    searcher = make_searcher(g, "mcts", seed=1, **options)
    if eager:  # the search as it was before RAVE opened its leaves lazily (the same tree)
        searcher._lazy = False  # type: ignore[attr-defined]
    r = searcher.search(g.initial_state(), Limit(time=seconds))
    return float(r.extra["iterations"]) / r.seconds


def lazy_against_eager(rounds: int, iterations: int) -> None:
    """The program's search of ``iterations`` iterations from the empty board, with RAVE's
    lazy opening and with every node opened when made (as before), alternated ``rounds``
    times (so that a change of the machine's load hits both): the median seconds of each,
    and a check that both searches gave the same visits."""
    g = get_game("go:size=9")
    options = {"rave": True, "prior_visits": 20.0, "c": 0.1, "seed": 1}
    make_searcher(g, "mcts", **options).search(g.initial_state(), Limit(nodes=50))
    times: dict[bool, list[float]] = {False: [], True: []}
    visits: dict[bool, list[int]] = {}
    for _ in range(rounds):
        for lazy in (False, True):
            searcher = make_searcher(g, "mcts", **options)
            searcher._lazy = lazy  # type: ignore[attr-defined]
            t0 = time.perf_counter()
            r = searcher.search(g.initial_state(), Limit(nodes=iterations))
            times[lazy].append(time.perf_counter() - t0)
            visits[lazy] = [ch["visits"] for ch in r.extra["root_children"]]
    print(f"the program, {iterations:,} iterations from the empty 9x9 board, {rounds} rounds "
          f"alternated (median):")
    for lazy in (False, True):
        med = statistics.median(times[lazy])
        print(f"  {'lazy opening (now)' if lazy else 'eager opening (before)':24} "
              f"{med:7.3f} s {iterations / med:8.0f} iterations/s")
    ratio = statistics.median(times[False]) / statistics.median(times[True])
    print(f"  speed-up {ratio:.2f}x; the same visits at the root: {visits[False] == visits[True]}")


GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "go" / "gnugo5_games.json"


def position_moves(where: str) -> list[str]:
    """The moves of a named 9x9 position (see the module docstring)."""
    if where == "empty":
        return []
    if where == "opening":
        return ["E5", "C3", "G7", "C7"]
    _, number, plies = where.split(":")
    return list(json.loads(GAMES.read_text())["games"][number]["moves"][:int(plies)])


def profile(iterations: int, where: str) -> None:
    """``cProfile`` of one search of the program from a 9x9 position."""
    g = get_game("go:size=9")
    s = g.initial_state()
    for move in position_moves(where):
        s = g.result(s, g.parse_action(s, move))
    options = {"rave": True, "prior_visits": 20.0, "c": 0.1, "seed": 1}
    make_searcher(g, "mcts", **options).search(s, Limit(nodes=50))
    searcher = make_searcher(g, "mcts", **options)
    prof = cProfile.Profile()
    prof.enable()
    r = searcher.search(s, Limit(nodes=iterations))
    prof.disable()
    print(f"the program, {iterations:,} iterations from {where} (9x9): "
          f"{r.seconds:.2f} s under the profiler")
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(14)
    stats.sort_stats("cumulative").print_stats(24)


#: one timed search in a fresh process (argv: the moves, the iterations)
_ONE_SEARCH = """
import json, sys, time
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher
g = get_game("go:size=9")
s = g.initial_state()
for m in json.loads(sys.argv[1]):
    s = g.result(s, g.parse_action(s, m))
options = {"rave": True, "prior_visits": 20.0, "c": 0.1, "seed": 1}
make_searcher(g, "mcts", **options).search(s, Limit(nodes=200))
searcher = make_searcher(g, "mcts", **options)
t0, c0 = time.perf_counter(), time.process_time()
r = searcher.search(s, Limit(nodes=int(sys.argv[2])))
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps([seconds, cpu, [c["visits"] for c in r.extra["root_children"]]]))
"""


def against_base(base: str, rounds: int, iterations: int) -> None:
    """This source tree's search against the one in ``base`` (see the module docstring)."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    print(f"the program, {iterations:,} iterations a search, {rounds} rounds alternated "
          f"(median; load average before: {os.getloadavg()[0]:.2f})")
    print(f"{'position':14} {'clock':>6} {'before it/s':>12} {'now it/s':>10} "
          f"{'speed-up':>9} {'same root visits':>17}")
    for where in ("empty", "gnugo:4:30"):
        moves = json.dumps(position_moves(where))
        times: dict[tuple[str, int], list[float]] = {}
        visits: dict[str, list[int]] = {}
        for _ in range(rounds):
            for src in (base, here):
                env = {**os.environ, "PYTHONPATH": src}
                out = subprocess.run([sys.executable, "-c", _ONE_SEARCH, moves,
                                      str(iterations)], env=env, check=True,
                                     capture_output=True, text=True).stdout
                seconds, cpu, visits[src] = json.loads(out.strip().splitlines()[-1])
                times.setdefault((src, 0), []).append(seconds)
                times.setdefault((src, 1), []).append(cpu)
        for clock in (0, 1):  # the wall clock, the process's CPU time
            before, now = (statistics.median(times[src, clock]) for src in (base, here))
            print(f"{where:14} {('wall', 'CPU')[clock]:>6} {iterations / before:12.0f} "
                  f"{iterations / now:10.0f} {before / now:8.2f}x "
                  f"{visits[base] == visits[here]!s:>17}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def openspiel_rows(seconds: float) -> list[tuple[str, float, float | None]]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    rows: list[tuple[str, float, float | None]] = []
    # C++: find a simulation count that takes about ``seconds``
    sims = 1000
    while True:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 1000,
                              False, 1, False)
        t0 = time.perf_counter()
        bot.step(game.new_initial_state())
        dt = time.perf_counter() - t0
        if dt > seconds / 2 or sims > 10**7:
            break
        sims *= 2
    rows.append(("OpenSpiel C++ MCTSBot, random rollout", sims / dt, 162.0))
    sims = 50
    while True:
        pybot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(
            1, np.random.RandomState(1)), solve=False, random_state=np.random.RandomState(1))
        t0 = time.perf_counter()
        pybot.step(game.new_initial_state())
        dt = time.perf_counter() - t0
        if dt > seconds / 2 or sims > 10**6:
            break
        sims *= 2
    rows.append(("OpenSpiel Python MCTSBot, random rollout", sims / dt, 162.0))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--policies", nargs="*", default=["patterns", "captures", "random"],
                        help="playout policies to time: a playout= value, optionally with "
                             "more of the game's options (patterns,no_self_atari=1)")
    parser.add_argument("--playouts-only", action="store_true",
                        help="only the playout rows (no MCTS, no OpenSpiel)")
    parser.add_argument("--ab-rounds", type=int, default=0,
                        help="only compare RAVE's lazy opening with the eager one, "
                             "alternated this many rounds")
    parser.add_argument("--ab-iterations", type=int, default=3000)
    parser.add_argument("--profile", action="store_true", help="only profile a search")
    parser.add_argument("--position", default="opening",
                        help="--profile's position: empty, opening or gnugo:GAME:PLIES")
    parser.add_argument("--ab-base", default="",
                        help="only compare this source tree's search with the one of "
                             "this src/ directory (alternated --ab-rounds times)")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.ab_iterations, args.position)
        return 0
    if args.ab_base:
        against_base(args.ab_base, max(args.ab_rounds, 1), args.ab_iterations)
        return 0
    if args.ab_rounds:
        lazy_against_eager(args.ab_rounds, args.ab_iterations)
        return 0
    rows: list[tuple[str, float, float | None]] = []
    for policy in args.policies:
        rate, length = ours_playouts(policy, args.seconds)
        rows.append((f"ours: compiled playouts, {policy}", rate, length))
    if args.playouts_only:
        for name, rate, length in rows:
            print(f"{name:100} {rate:11.0f} {length:11.1f}")
        return 0
    rows.append(("ours: MCTS (UCT), iterations", ours_mcts({}, args.seconds), None))
    rows.append(("ours: the program, eager opening",
                 ours_mcts({"rave": True, "prior_visits": 20.0, "c": 0.1}, args.seconds,
                           eager=True), None))
    rows.append(("ours: MCTS rave=1,prior_visits=20,c=0.1, iterations",
                 ours_mcts({"rave": True, "prior_visits": 20.0, "c": 0.1}, args.seconds),
                 None))
    try:
        rows += openspiel_rows(args.seconds)
    except ImportError:
        print("open_spiel not installed: its rows are not run", file=sys.stderr)
    peer = next((r for name, r, _ in rows if name.startswith("OpenSpiel C++")), None)
    print(f"{'what (9x9, empty board)':52} {'per second':>11} {'moves each':>11} "
          f"{'vs OpenSpiel C++':>17}")
    for name, rate, length in rows:
        ratio = f"{rate / peer:.2f}x" if peer else "-"
        moves = f"{length:.0f}" if length else "-"
        print(f"{name:52} {rate:11.0f} {moves:>11} {ratio:>17}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
