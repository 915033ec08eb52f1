"""Node expansions of the multi-player searches to a fixed depth, and the depth each reaches
in a second (issue 21's figures).

    python benchmarks/multiplayer_nodes.py [--game SPEC] [--positions 100] [--depth 4]
        [--seed 1] [--time 1.0] [--time-positions 20] [--markdown]

``--game`` is a game spec (``rolit:players=3``, ``chinese_checkers:players=3``, once those
games are registered) or ``random:players=3,branching=8-12,length=60`` (the random
constant-sum game of :mod:`gamesearch.games.random_game`, the default). The positions are
mid-game ones sampled by random play from the start with ``--seed``: each plays a number
of plies drawn from ``--plies`` (``lo-hi``, default ``8-30``) and is kept when the game is
not over there. For every algorithm, table 1 gives the node expansions (every position
generated, the root included) to ``--depth`` summed over the positions, the mean, the
ratio to plain max^n, the cut-offs and how often the move equals plain max^n's (the pruned
max^n must agree on every one); beside it the published reference, Sturtevant 2003
(IJCAI, "Last-Branch and Speculative Pruning Algorithms for Max^n"): Chinese Checkers,
3 players, depth 6, about 1.2 million expansions for plain max^n down to about 100
thousand with speculative pruning. Table 2 gives the depth of the deepest completed
iteration within ``--time`` seconds (iterative deepening under ``Limit(time=...)``),
over ``--time-positions`` of the same positions. An algorithm the game cannot serve
(max^n's pruning without ``GameType.constant_sum``, BRS without ``turn_passing()``) is
listed with the reason. Times are wall-clock on a shared machine: compare within a run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.games.random_game import RandomGame
from gamesearch.search import Limit, make_searcher, parse_spec

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


def sample_positions(game: Any, count: int, plies: tuple[int, int], seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        s = game.initial_state()
        for _ in range(rng.randint(*plies)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(list(game.actions(s))))
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="random:players=3,branching=8-12,length=60")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--plies", default="8-30", help="random plies from the start: lo-hi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--time-positions", type=int, default=20)
    ap.add_argument("--only", default="", help="comma-separated labels of table 1 to run")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    try:
        game = make_game(args.game)
        lo, _, hi = args.plies.partition("-")
        positions = sample_positions(game, args.positions, (int(lo), int(hi or lo)),
                                     args.seed)
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not positions:
        print("error: no non-terminal position sampled", file=sys.stderr)
        return 2
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    algorithms = [(label, spec) for label, spec in ALGORITHMS if not only or label in only]
    branching = statistics.mean(len(game.actions(s)) for s in positions)
    print(f"{game.name} ({args.game}), {game.num_players} players: {len(positions)} positions "
          f"by random play ({args.plies} plies, seed {args.seed}), mean branching "
          f"{branching:.1f}; depth {args.depth}")
    rows: list[list[str]] = []
    plain_nodes: int | None = None
    plain_moves: list[Any] = []
    notes: list[str] = []
    for label, spec in algorithms:
        name, options, _ = parse_spec(spec)
        try:
            searcher = make_searcher(game, name, **options)
        except GameError as exc:
            rows.append([label, "—", "—", "—", "—", "—", "—"])
            notes.append(f"{label}: {exc}")
            continue
        nodes = cutoffs = same = 0
        moves: list[Any] = []
        start = time.perf_counter()
        for s in positions:
            r = searcher.search(s, Limit(depth=args.depth))
            nodes += r.nodes
            cutoffs += r.cutoffs
            moves.append(r.action)
        seconds = time.perf_counter() - start
        if spec == "maxn":
            plain_nodes, plain_moves = nodes, moves
        if plain_moves:
            same = sum(a == b for a, b in zip(moves, plain_moves, strict=True))
        ratio = f"{nodes / plain_nodes:.3f}" if plain_nodes else "—"
        rows.append([label, f"{nodes:,}", f"{nodes / len(positions):,.0f}", ratio,
                     f"{cutoffs:,}", f"{100 * same / len(positions):.0f} %" if plain_moves
                     else "—", f"{seconds:.1f}"])
        print(f"  {label}: {nodes:,} nodes, {seconds:.1f} s", file=sys.stderr)
    print()
    print(table(rows, ["algorithm", "nodes (sum)", "nodes/position", "vs max^n", "cut-offs",
                       "move = max^n", "seconds"], args.markdown))
    print("reference: Sturtevant 2003, Chinese Checkers, 3 players, depth 6: max^n about "
          "1,200,000 expansions; speculative pruning about 100,000 (about 0.08 of max^n)")
    for note in notes:
        print(f"  not run: {note}")

    # table 2: depth reached in --time seconds
    timed = positions[: args.time_positions]
    if not timed:
        return 0
    rows2: list[list[str]] = []
    for label, spec in algorithms:
        name, options, _ = parse_spec(spec)
        try:
            searcher = make_searcher(game, name, **options)
        except GameError:
            continue
        depths = [searcher.search(s, Limit(time=args.time)).depth for s in timed]
        rows2.append([label, f"{statistics.mean(depths):.2f}", str(min(depths)),
                      str(statistics.median(depths)), str(max(depths))])
    print()
    print(f"depth of the deepest completed iteration in {args.time:g} s, "
          f"{len(timed)} positions:")
    print(table(rows2, ["algorithm", "mean", "min", "median", "max"], args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
