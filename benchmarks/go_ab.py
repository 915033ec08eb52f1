"""Two Go programs against each other at a fixed number of iterations a move (so the
machine's load does not change the games), 9x9, colours alternating: the cheap A/B test
of a change to the playouts (an option of the game) or to the search (an option of the
agent) before it is measured against GNU Go (``benchmarks/go_match.py``).

    nice -n 10 .venv/bin/python benchmarks/go_ab.py --games 40 --iterations 1000 \\
        --a-game go:size=9 --b-game go:size=9,no_self_atari=0 --out ab.jsonl

Each side searches its own ``Game`` (the rules are the same, the options of the
playouts may differ) with its own MCTS agent (``--a-agent``/``--b-agent``, an ``mcts:``
spec without a budget; the budget is ``--iterations``); the positions pass between them
and the rules' area count (of A's game) is the referee. Game ``k`` has A as Black when
``k`` is even, and the seeds ``1000 + k`` (A) and ``2000 + k`` (B). Each finished game is
appended to ``--out`` (JSON lines) and a run with the same ``--out`` and the same
configuration goes on from the games it holds. The result: A's score with its 95 %
Wilson interval, as Black and as White.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from gamesearch.arena.ratings import wilson_interval
from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.games.go import PROGRAM
from gamesearch.search import Limit, make_searcher, parse_spec


def play_one(k: int, iterations: int, config: dict[str, str]) -> dict[str, Any]:
    games = {"a": get_game(config["a_game"]), "b": get_game(config["b_game"])}
    a_seat = k % 2  # 0: A plays Black
    searchers = {}
    for side, seat, seed in (("a", a_seat, 1000 + k), ("b", 1 - a_seat, 2000 + k)):
        name, options, _ = parse_spec(config[f"{side}_agent"])
        searchers[seat] = make_searcher(games[side], name, seed=seed, **options)
    referee = games["a"]
    state = referee.initial_state()
    plies = 0
    t0 = time.perf_counter()
    while not referee.is_terminal(state):
        seat = referee.to_move(state)
        action = searchers[seat].search(state, Limit(nodes=iterations)).action
        state = referee.result(state, action)
        plies += 1
    returns = referee.returns(state)
    return {"game": k, "a_black": a_seat == 0, "score": (float(returns[a_seat]) + 1) / 2,
            "plies": plies, "margin": referee.score(state),
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=1000, help="iterations a move")
    parser.add_argument("--a-game", default="go:size=9")
    parser.add_argument("--a-agent", default=PROGRAM)
    parser.add_argument("--b-game", default="go:size=9")
    parser.add_argument("--b-agent", default=PROGRAM)
    parser.add_argument("--out", default=None, help="JSON lines of the games (resume)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.iterations < 1:
        print("--games and --iterations must be at least 1", file=sys.stderr)
        return 2
    config = {"a_game": args.a_game, "a_agent": args.a_agent, "b_game": args.b_game,
              "b_agent": args.b_agent}
    try:
        for side in ("a", "b"):
            get_game(config[f"{side}_game"])
            parse_spec(config[f"{side}_agent"])
    except GameError as exc:
        print(f"go_ab: {exc}", file=sys.stderr)
        return 2
    done: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        done = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
        done = [r for r in done if r.get("iterations") == args.iterations
                and r.get("config") == config]
    for k in range(len(done), args.games):
        row = play_one(k, args.iterations, config)
        row.update(iterations=args.iterations, config=config)
        done.append(row)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(json.dumps({key: v for key, v in row.items() if key != "config"}),
              file=sys.stderr, flush=True)
    print(f"A = {args.a_agent} on {args.a_game}")
    print(f"B = {args.b_agent} on {args.b_game}")
    print(f"{args.iterations} iterations a move, 9x9, colours alternating")
    print(f"{'A as':>6} {'games':>6} {'A W-L':>7} {'A score':>8} {'95 % interval':>14}")
    for label, rows in (("Black", [r for r in done if r["a_black"]]),
                        ("White", [r for r in done if not r["a_black"]]), ("both", done)):
        points = sum(r["score"] for r in rows)
        wins = sum(1 for r in rows if r["score"] == 1)
        low, high = wilson_interval(points, len(rows)) if rows else (0.0, 1.0)
        print(f"{label:>6} {len(rows):6} {f'{wins}-{len(rows) - wins}':>7} "
              f"{points / max(1, len(rows)):8.0%} {f'{low:.0%}-{high:.0%}':>14}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
