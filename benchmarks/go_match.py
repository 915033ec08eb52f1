"""Our Go program against GNU Go 3.8 on 9x9 (komi 7.5, Chinese rules, positional superko),
through the arena, colours alternating: the win rate with its 95 % interval (Wilson), and
the same match with RAVE, the patterns and the priors switched off one at a time.

    .venv/bin/python benchmarks/go_match.py --games 10 --level 10 --time 1      # the match
    .venv/bin/python benchmarks/go_match.py --ablation --games 8 --level 1 --iterations 1000

Configurations (``--ablation``; ``--only NAME`` picks some):

* ``full``: the program, ``gamesearch.games.go.PROGRAM`` (``mcts:rave=1,prior_visits=20,
  c=0``) on ``go:size=9`` (MoGo's pattern playouts with the refinements, the learned
  priors);
* ``no-rave``: ``mcts:puct=1`` (PUCT with the same priors, no AMAF statistics);
* ``no-patterns``: ``go:size=9,playout=captures`` (captures and ataris, no 3x3 patterns);
* ``random-playouts``: ``go:size=9,playout=random``;
* ``no-priors``: ``mcts:rave=1,c=0``.

``--game-options`` adds options to every configuration's game, e.g.
``no_self_atari=0,capture_any=0,uniform_random=0,answer_last=0`` for the playouts as they
were before their refinements became the default (:mod:`gamesearch.games.go.fast`), so
the ablation rows share them. (Before 2026-11-27 the program was ``c=0.1`` on those
playouts; the earlier Go figures of docs/results/go.md were measured with it.)

Each move has ``--time`` seconds, or ``--iterations`` iterations (then the result does not
depend on the machine's load). GNU Go plays at ``--level`` with its own clock (the arena's
clock is 3600 s + 10 s a move, so no one loses on time). Give ``--db`` to keep the games
(the arena resumes a tournament from it).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

from gamesearch.arena import (
    RunOptions,
    TimeControl,
    TournamentConfig,
    parse_agents,
    run_tournament,
)
from gamesearch.arena.ratings import wilson_interval
from gamesearch.games.go import PROGRAM

CONFIGS = {
    "full": ("go:size=9", PROGRAM),
    "no-rave": ("go:size=9", "mcts:puct=1"),
    "no-patterns": ("go:size=9,playout=captures", PROGRAM),
    "random-playouts": ("go:size=9,playout=random", PROGRAM),
    "no-priors": ("go:size=9", "mcts:rave=1,c=0"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--time", type=float, default=None, help="seconds a move (ours)")
    parser.add_argument("--iterations", type=int, default=None, help="iterations a move")
    parser.add_argument("--ablation", action="store_true")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None)
    parser.add_argument("--game-options", default="",
                        help="options added to every configuration's game spec")
    args = parser.parse_args(argv)
    gnugo = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if gnugo is None:
        print("gnugo not found (apt-get install gnugo)", file=sys.stderr)
        return 2
    budget = (f"iterations={args.iterations}" if args.iterations
              else f"time={args.time if args.time else 1}")
    names = args.only or (list(CONFIGS) if args.ablation else ["full"])
    rows = []
    for name in names:
        game, spec = CONFIGS[name]
        if args.game_options:
            game = f"{game},{args.game_options}"
        agent = f"{spec},{budget}"
        t = time.perf_counter()
        cfg = TournamentConfig(game, tuple(parse_agents(
            [f"ours={agent}", f"gnugo=gtp:{gnugo},level={args.level}"])),
            games_per_pair=args.games, time_control=TimeControl(3600, 10), seed=args.seed)
        result = run_tournament(cfg, RunOptions(
            db=f"{args.db}.{name}.sqlite" if args.db else ":memory:"))
        score = result.match_score
        low, high = wilson_interval(score.points, score.games)
        rows.append((name, game, agent, score, low, high, time.perf_counter() - t))
        print(f"{name}: +{score.wins} ={score.draws} -{score.losses}", file=sys.stderr)
    print(f"against GNU Go 3.8 level {args.level}, 9x9, komi 7.5, colours alternating")
    width = max([28, *(len(row[1]) for row in rows)])
    print(f"{'configuration':16} {'game':{width}} {'agent':52} {'W-D-L':>8} {'win rate':>9} "
          f"{'95 % interval':>15} {'seconds':>8}")
    for name, game, agent, score, low, high, secs in rows:
        print(f"{name:16} {game:{width}} {agent:52} {score.wins}-{score.draws}-{score.losses:<4} "
              f"{score.score:9.0%} {f'{low:.0%}-{high:.0%}':>15} {secs:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
