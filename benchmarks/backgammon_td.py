"""Backgammon's compiled kernels and learned evaluation: move generation speed beside gnubg's
and OpenSpiel's, and the TD net against Tesauro's pubeval at 0 and 1 ply.

    .venv/bin/python benchmarks/backgammon_td.py                       # everything
    .venv/bin/python benchmarks/backgammon_td.py --games 1000 --games-1ply 200
    .venv/bin/python benchmarks/backgammon_td.py --positions 20000 --games 0 --games-1ply 0

Move generation: ``--positions`` positions reached by random play (seeded), each with a
random roll; our numba kernel and gnubg's generator (PyPI ``gnubg-nn``, C called from
Python, on the same positions and rolls, and checked equal) list every distinct resulting
position; OpenSpiel's ``backgammon`` lists ``legal_actions()`` on the decision states of its
own random games (a different sample, and its actions are half-turns for doubles: a rough
peer). Columns: lists made, resulting positions, seconds, lists/s, positions/s, the ratio
of our lists/s to the peer's. Then the default net (``data/td80.npz``) against pubeval: games, win
rate and points per game, each with its 95 % interval. Exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from gamesearch.games.backgammon import compiled, td


def _ours(boards: np.ndarray, rolls: np.ndarray) -> tuple[int, float, list[np.ndarray]]:
    start = time.perf_counter()
    found = [compiled.legal_positions(b, int(r[0]), int(r[1])) for b, r in zip(boards, rolls,
                                                                             strict=True)]
    return sum(len(f) for f in found), time.perf_counter() - start, found


def _gnubg(boards: np.ndarray, rolls: np.ndarray) -> tuple[int, float, list[tuple]]:
    import gnubg_nn

    lists = [[list(map(int, b[0])), list(map(int, b[1]))] for b in boards]
    start = time.perf_counter()
    found = [gnubg_nn.moves(b, int(r[0]), int(r[1])) for b, r in zip(lists, rolls, strict=True)]
    return sum(max(len(f), 1) for f in found), time.perf_counter() - start, found


def _openspiel(count: int, seed: int) -> tuple[int, int, float]:
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    lists = moves = 0
    seconds = 0.0
    while lists < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            start = time.perf_counter()
            legal = state.legal_actions()
            seconds += time.perf_counter() - start
            lists += 1
            moves += len(legal)
            state.apply_action(int(rng.choice(legal)))
    return lists, moves, seconds


def movegen(count: int, seed: int) -> int:
    rng = np.array([seed], dtype=np.uint64)
    boards = compiled.random_positions(count, rng)
    rolls = np.array([[compiled.roll_die(rng), compiled.roll_die(rng)] for _ in range(count)])
    compiled.legal_positions(boards[0], 1, 2)  # compiled before the clock starts
    positions, seconds, ours = _ours(boards, rolls)
    rows = [("gamesearch (numba)", count, positions, seconds)]
    failures = 0
    try:
        import gnubg_nn

        g_positions, g_seconds, theirs = _gnubg(boards, rolls)
        rows.append(("gnubg-nn moves()", count, g_positions, g_seconds))
        for ours_b, keys in zip(ours, theirs, strict=True):
            mine = {x.tobytes() for x in ours_b}
            ref = {np.array(gnubg_nn.boardfromkey(k), dtype=np.int8).tobytes() for k in keys}
            if ref and mine != ref:
                failures += 1
        print(f"equal to gnubg's on {count - failures} of {count} positions and rolls")
    except ImportError as exc:
        print(f"gnubg-nn missing ({exc}): no gnubg column")
    try:
        lists, moves, os_seconds = _openspiel(count, seed)
        rows.append(("OpenSpiel legal_actions()", lists, moves, os_seconds))
    except ImportError as exc:
        print(f"OpenSpiel missing ({exc}): no OpenSpiel column")
    print(f"{'generator':<27} {'lists':>7} {'positions':>10} {'seconds':>8} {'lists/s':>10} "
          f"{'positions/s':>12} {'ours/peer':>9}")
    ours_rate = count / seconds
    for name, lists_n, pos_n, secs in rows:
        print(f"{name:<27} {lists_n:>7} {pos_n:>10} {secs:>8.3f} {lists_n / secs:>10.0f} "
              f"{pos_n / secs:>12.0f} {ours_rate / (lists_n / secs):>9.2f}")
    return failures


def versus(games: int, plies: int, seed: int, weights: Path | None = None) -> None:
    net = td.Net.load(weights) if weights else td.default_net()
    td.versus_pubeval(net, 2, seed=seed, plies=plies)  # compile first
    start = time.perf_counter()
    points = td.versus_pubeval(net, games, seed=seed, plies=plies)
    seconds = time.perf_counter() - start
    wins, wins_half, ppg, ppg_half = td.interval(points)
    name = weights.name if weights else "shipped"
    print(f"TD net ({name}) at {plies} ply vs pubeval: {games} games, win rate "
          f"{100 * wins:.1f} % +- {100 * wins_half:.1f}, points/game {ppg:+.3f} +- "
          f"{ppg_half:.3f} ({seconds:.0f} s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=5000)
    ap.add_argument("--games", type=int, default=1000, help="0-ply games against pubeval")
    ap.add_argument("--games-1ply", type=int, default=200, help="1-ply games against pubeval")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--weights", type=Path, nargs="*", default=None,
                    help="weights files (.npz) to measure instead of the shipped net")
    args = ap.parse_args()
    if min(args.positions, args.games, args.games_1ply) < 0:
        ap.error("counts must not be negative")
    failures = movegen(args.positions, args.seed) if args.positions else 0
    for weights in args.weights or [None]:
        if args.games:
            versus(args.games, 0, args.seed, weights)
        if args.games_1ply:
            versus(args.games_1ply, 1, args.seed, weights)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
