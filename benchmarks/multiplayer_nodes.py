"""Node expansions of the multi-player searches to a fixed depth, and the depth each reaches
in a second (issue 21's figures).

    python benchmarks/multiplayer_nodes.py [--game SPEC] [--positions 100] [--depth 4]
        [--plies 8-30] [--forward 0] [--seed 1] [--time 1.0] [--time-positions 20]
        [--project 6] [--clock wall|cpu] [--markdown]

``--game`` is a game spec (``rolit:players=3``, ``chinese_checkers:players=3``, once those
games are registered) or ``random:players=3,branching=8-12,length=60`` (the random
constant-sum game of :mod:`referees.random_game`, the default). The positions are
mid-game ones sampled by random play from the start with ``--seed``: each plays a number
of plies drawn from ``--plies`` (``lo-hi``, default ``8-30``) and is kept when the game is
not over there. With ``--forward P`` each of those plies is, with probability ``P``, the
first move of the game's move ordering (``move_ordering()``; Chinese Checkers: the most
forward move) instead of a uniformly random one, so that games whose random play stays at
home (Chinese Checkers) reach real mid-game positions, the pieces meeting in the middle.
For every algorithm, table 1 gives the node expansions (every position
generated, the root included) to ``--depth`` summed over the positions, the mean, the
ratio to plain max^n, the cut-offs and how often the move equals plain max^n's (the pruned
max^n must agree on every one); beside it the published reference, Sturtevant 2003
(IJCAI, "Last-Branch and Speculative Pruning Algorithms for Max^n"): Chinese Checkers,
3 players, depth 6, about 1.2 million expansions for plain max^n down to about 100
thousand with speculative pruning. Table 2 gives the depth of the deepest completed
iteration within ``--time`` seconds (iterative deepening under ``Limit(time=...)``),
over ``--time-positions`` of the same positions, with the mean nodes of those searches
and the load average of the machine before and after (the seconds of a shared machine
mean little without it). ``--clock cpu`` times those searches by the process's CPU time
(``time.process_time`` as the searchers' clock) instead of the wall clock, so that the
depth is the one a second of one core buys whatever the machine's load.
Table 3 projects each algorithm's node count to ``--project`` plies (default 6, the
anchor's depth) from the last two measured depths (the growth factor from depth ``d-1`` to
``d``, applied for every further ply) and the hours it would take at the nodes per second
of CPU time measured at ``--depth``: a calibration, labelled as such, for depths a run
cannot reach. An algorithm the game cannot serve
(max^n's pruning without ``GameType.constant_sum``, BRS without ``turn_passing()``) is
listed with the reason. Times are wall-clock on a shared machine: compare within a run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher, parse_spec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.random_game import RandomGame

ALGORITHMS = [
    ("max^n", "maxn"),
    ("max^n shallow", "maxn:shallow=1"),
    ("max^n last-branch", "maxn:lastbranch=1"),
    ("max^n speculative", "maxn:speculative=1"),
    ("max^n all three", "maxn:shallow=1,lastbranch=1,speculative=1"),
    ("paranoid", "paranoid"),
    ("paranoid tt+ordering", "paranoid:tt=1M,ordering=1"),
    ("BRS", "brs"),
    ("BRS+", "brs+"),
]


def make_game(spec: str) -> Any:
    """``random:players=3,branching=8-12,length=60,seed=0`` or any registered game."""
    name, _, rest = spec.partition(":")
    if name.strip().lower() != "random":
        return get_game(spec)
    opts = dict(part.split("=", 1) for part in rest.split(",") if part.strip())
    lo, _, hi = opts.get("branching", "8-12").partition("-")
    return RandomGame(int(opts.get("players", 3)), (int(lo), int(hi or lo)),
                      int(opts.get("length", 60)), int(opts.get("seed", 0)))


def sample_positions(game: Any, count: int, plies: tuple[int, int], seed: int,
                     forward: float = 0.0) -> list[Any]:
    """``count`` non-terminal positions after a random number of plies in ``plies``: each
    ply the first of the game's move ordering with probability ``forward``, else a
    uniformly random move."""
    rng = random.Random(seed)
    ordering = game.move_ordering() if forward > 0 else None
    if forward > 0 and ordering is None:
        raise GameError(f"{game.name}: --forward needs the game's move ordering; it has none")
    out: list[Any] = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        s = game.initial_state()
        for _ in range(rng.randint(*plies)):
            if game.is_terminal(s):
                break
            actions = list(game.actions(s))
            if ordering is not None and rng.random() < forward:
                move = ordering.order_actions(s, actions)[0]
            else:
                move = rng.choice(actions)
            s = game.result(s, move)
        if not game.is_terminal(s):
            out.append(s)
    return out


def table(rows: list[list[str]], header: list[str], markdown: bool) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
        return "\n".join(lines)
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return "\n".join([fmt.format(*header), *(fmt.format(*r) for r in rows)])


def load() -> str:
    """The 1-minute load average, and the cores (the seconds of a shared machine)."""
    try:
        return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:  # pragma: no cover - not on this platform
        return "unknown"


def search_all(searcher: Any, positions: list[Any], depth: int
               ) -> tuple[int, int, list[Any], float, float]:
    """Nodes, cut-offs and moves of a search to ``depth`` of every position, and the
    seconds: wall clock and CPU time of this process."""
    nodes = cutoffs = 0
    moves: list[Any] = []
    start, cpu = time.perf_counter(), time.process_time()
    for s in positions:
        r = searcher.search(s, Limit(depth=depth))
        nodes += r.nodes
        cutoffs += r.cutoffs
        moves.append(r.action)
    return nodes, cutoffs, moves, time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="random:players=3,branching=8-12,length=60")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--plies", default="8-30", help="random plies from the start: lo-hi")
    ap.add_argument("--forward", type=float, default=0.0,
                    help="chance of a sampling ply being the game's first ordered move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--time-positions", type=int, default=20)
    ap.add_argument("--project", type=int, default=6,
                    help="project node counts and time to this depth (0: no table 3)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="table 2's seconds: wall-clock or the process's CPU time")
    ap.add_argument("--only", default="",
                    help="comma-separated labels of table 1 to run, in this order")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    try:
        if not 0.0 <= args.forward <= 1.0:
            raise ValueError(f"--forward {args.forward}: a chance from 0 to 1")
        if args.depth < 1:
            raise ValueError(f"--depth {args.depth}: at least 1")
        game = make_game(args.game)
        lo, _, hi = args.plies.partition("-")
        positions = sample_positions(game, args.positions, (int(lo), int(hi or lo)),
                                     args.seed, args.forward)
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not positions:
        print("error: no non-terminal position sampled", file=sys.stderr)
        return 2
    only = [x.strip() for x in args.only.split(",") if x.strip()]
    specs = dict(ALGORITHMS)
    unknown = [x for x in only if x not in specs]
    if unknown:
        print(f"error: --only {', '.join(unknown)}: not one of {', '.join(specs)}",
              file=sys.stderr)
        return 2
    algorithms = [(label, specs[label]) for label in only] if only else ALGORITHMS
    branching = statistics.mean(len(game.actions(s)) for s in positions)
    sampling = f"{args.plies} plies" + (f", forward {args.forward:g}" if args.forward else "")
    print(f"{game.name} ({args.game}), {game.num_players} players: {len(positions)} positions "
          f"by random play ({sampling}, seed {args.seed}), mean branching "
          f"{branching:.1f}; depth {args.depth}; load {load()}")
    rows: list[list[str]] = []
    plain_nodes: int | None = None
    plain_moves: list[Any] = []
    notes: list[str] = []
    #: label -> (nodes at depth - 1, nodes at depth, nodes per second at depth)
    growth: dict[str, tuple[int, int, float]] = {}
    for label, spec in algorithms:
        name, options, _ = parse_spec(spec)
        try:
            searcher = make_searcher(game, name, **options)
        except GameError as exc:
            rows.append([label, "—", "—", "—", "—", "—", "—", "—"])
            notes.append(f"{label}: {exc}")
            continue
        nodes, cutoffs, moves, seconds, cpu = search_all(searcher, positions, args.depth)
        if args.project > args.depth and args.depth > 1:
            shallower = search_all(searcher, positions, args.depth - 1)[0]
            growth[label] = (shallower, nodes, nodes / max(cpu, 1e-9))
        if spec == "maxn":
            plain_nodes, plain_moves = nodes, moves
        same = sum(a == b for a, b in zip(moves, plain_moves, strict=True)) if plain_moves \
            else 0
        ratio = f"{nodes / plain_nodes:.3f}" if plain_nodes else "—"
        rows.append([label, f"{nodes:,}", f"{nodes / len(positions):,.0f}", ratio,
                     f"{cutoffs:,}", f"{100 * same / len(positions):.0f} %" if plain_moves
                     else "—", f"{seconds:.1f}", f"{cpu:.1f}"])
        print("  " + " | ".join(rows[-1]), f"(load {load()})", file=sys.stderr, flush=True)
    print()
    print(table(rows, ["algorithm", "nodes (sum)", "nodes/position", "vs max^n", "cut-offs",
                       "move = max^n", "seconds", "CPU seconds"], args.markdown))
    print("reference: Sturtevant 2003, Chinese Checkers, 3 players, depth 6: max^n about "
          "1,200,000 expansions; speculative pruning about 100,000 (about 0.08 of max^n)")
    for note in notes:
        print(f"  not run: {note}")
    print(f"load after table 1: {load()}")

    if growth:
        rows3: list[list[str]] = []
        plain_projected: float | None = None
        for label, (before, at, rate) in growth.items():
            factor = at / max(before, 1)
            projected = at * factor ** (args.project - args.depth)
            if label == "max^n":
                plain_projected = projected
            hours = projected / rate / 3600  # projected: the sum over the positions
            rows3.append([label, f"{at / len(positions):,.0f}", f"{factor:.1f}",
                          f"{projected / len(positions):,.0f}",
                          f"{projected / plain_projected:.3f}" if plain_projected else "—",
                          f"{rate:,.0f}", f"{hours:,.1f}"])
        print()
        print(f"projection to depth {args.project} (a calibration, not a measurement): "
              f"nodes a position at depth {args.depth}, growth factor from depth "
              f"{args.depth - 1} to {args.depth}, applied {args.project - args.depth} more "
              f"times; hours for the {len(positions)} positions at the nodes/s of CPU time")
        print(table(rows3, ["algorithm", f"nodes/position at {args.depth}", "growth a ply",
                            f"projected nodes/position at {args.project}", "vs max^n",
                            "nodes/s (CPU)", f"projected hours ({len(positions)} positions)"],
                    args.markdown))

    # table 2: depth reached in --time seconds
    timed = positions[: args.time_positions]
    if not timed:
        return 0
    load_before = load()
    rows2: list[list[str]] = []
    for label, spec in algorithms:
        name, options, _ = parse_spec(spec)
        try:
            searcher = make_searcher(game, name, **options)
        except GameError:
            continue
        if args.clock == "cpu":
            searcher.time_source = time.process_time
        results = [searcher.search(s, Limit(time=args.time)) for s in timed]
        depths = [r.depth for r in results]
        rows2.append([label, f"{statistics.mean(depths):.2f}", str(min(depths)),
                      str(statistics.median(depths)), str(max(depths)),
                      f"{statistics.mean(r.nodes for r in results):,.0f}"])
    print()
    print(f"depth of the deepest completed iteration in {args.time:g} s "
          f"({'CPU time of this process' if args.clock == 'cpu' else 'wall clock'}), "
          f"{len(timed)} positions (load {load_before} before, {load()} after):")
    print(table(rows2, ["algorithm", "mean", "min", "median", "max", "nodes/search"],
                args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
