"""Our Go program against OpenSpiel's MCTS bots on 9x9 (komi 7.5), at equal time a move.

    .venv/bin/python benchmarks/go_openspiel_match.py --games 10 --time 1 --bot cpp \
        --out go_openspiel.jsonl

* ours: ``mcts:rave=1,prior_visits=20,c=0.1`` on ``go:size=9,max_moves=162`` (OpenSpiel
  ends every game at 162 moves; the cap is copied so both see the same end), ``--time``
  seconds a move, the tree reused between moves;
* OpenSpiel 1.6's ``pyspiel.MCTSBot`` (``--bot cpp``) or the Python
  ``open_spiel.python.algorithms.mcts.MCTSBot`` (``--bot python``), UCT ``c = 2`` with one
  random rollout an evaluation (OpenSpiel's own example settings). They take a simulation
  budget, not a time: the budget is calibrated once, before the match, to what the bot
  runs in ``--time`` seconds from the empty board, and the table prints the seconds each
  side really spent a move (its rollouts shorten as the board fills, so it runs a little
  faster than ours late in a game).

The games are played on both boards at once; OpenSpiel's returns are the referee (and ours
must agree with them). Its ko rule is the simple ko, ours positional superko: a move of
its bot that repeats an earlier board is illegal for us, and that game is dropped and
counted (it happened in 18 of 140,584 random positions, ``benchmarks/go_referees.py``).
Colours alternate; every finished game is appended to ``--out`` (JSON lines), and a run
with the same ``--out`` goes on from the games it holds (resume).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from gamesearch.arena.ratings import wilson_interval
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher

OURS = {"rave": True, "prior_visits": 20.0, "c": 0.1}


def make_bot(kind: str, game: Any, simulations: int, seed: int) -> Any:
    import numpy as np
    import pyspiel

    if kind == "cpp":
        return pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0,
                               simulations, 1000, False, seed, False)
    from open_spiel.python.algorithms import mcts

    return mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(
        1, np.random.RandomState(seed)), solve=False, random_state=np.random.RandomState(seed))


def calibrate(kind: str, game: Any, seconds: float) -> int:
    """The simulations the bot runs in about ``seconds`` from the empty board."""
    sims = 20
    while True:
        bot = make_bot(kind, game, sims, 1)
        t0 = time.perf_counter()
        bot.step(game.new_initial_state())
        dt = time.perf_counter() - t0
        if dt > seconds / 4 or sims > 1_000_000:
            return max(1, round(sims * seconds / dt))
        sims *= 2


def play_one(k: int, kind: str, simulations: int, seconds: float) -> dict[str, Any]:
    import pyspiel

    ours = get_game("go:size=9,max_moves=162")
    theirs = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    our_seat = k % 2  # 0: we play Black
    searcher = make_searcher(ours, "mcts", seed=1000 + k, **OURS)
    bot = make_bot(kind, theirs, simulations, 2000 + k)
    s, o = ours.initial_state(), theirs.new_initial_state()
    spent = {"ours": 0.0, "theirs": 0.0}
    moves = {"ours": 0, "theirs": 0}
    while not o.is_terminal():
        t0 = time.perf_counter()
        if ours.to_move(s) == our_seat:
            action = searcher.search(s, Limit(time=seconds)).action
            who = "ours"
        else:
            action = bot.step(o)
            who = "theirs"
            if action not in ours.actions(s):
                return {"game": k, "dropped": f"their {ours.vertex(action)} repeats a board "
                        "(superko)"}
        spent[who] += time.perf_counter() - t0
        moves[who] += 1
        s = ours.result(s, action)
        o.apply_action(action)
    if not ours.is_terminal(s):
        raise RuntimeError(f"game {k}: OpenSpiel's game is over, ours is not")
    returns = o.returns()
    if list(returns) != [float(x) for x in ours.returns(s)]:
        raise RuntimeError(f"game {k}: returns differ: {returns} vs {ours.returns(s)}")
    return {"game": k, "ours_black": our_seat == 0, "score": (returns[our_seat] + 1) / 2,
            "plies": moves["ours"] + moves["theirs"],
            "ours_seconds_a_move": spent["ours"] / max(1, moves["ours"]),
            "theirs_seconds_a_move": spent["theirs"] / max(1, moves["theirs"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move, each side")
    parser.add_argument("--bot", choices=("cpp", "python"), default="cpp")
    parser.add_argument("--out", default=None, help="JSON lines of the games (resume)")
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed (pip install open_spiel)", file=sys.stderr)
        return 2
    done: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        done = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    theirs = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    simulations = calibrate(args.bot, theirs, args.time)
    print(f"OpenSpiel {args.bot} MCTSBot: {simulations:,} simulations a move "
          f"(~{args.time:g} s from the empty board)", file=sys.stderr)
    for k in range(len(done), args.games):
        row = play_one(k, args.bot, simulations, args.time)
        row["simulations"] = simulations
        done.append(row)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(json.dumps(row), file=sys.stderr)
    played = [r for r in done if "score" in r]
    points = sum(r["score"] for r in played)
    low, high = wilson_interval(points, len(played))
    wins = sum(1 for r in played if r["score"] == 1)
    ours_t = sum(r["ours_seconds_a_move"] for r in played) / max(1, len(played))
    theirs_t = sum(r["theirs_seconds_a_move"] for r in played) / max(1, len(played))
    print(f"ours (mcts rave=1,prior_visits=20,c=0.1, {args.time:g} s a move) against "
          f"OpenSpiel {args.bot} MCTSBot, 9x9, komi 7.5, colours alternating")
    print(f"{'games':>6} {'dropped':>8} {'W-L':>7} {'win rate':>9} {'95 % interval':>14} "
          f"{'ours s/move':>12} {'theirs s/move':>14}")
    print(f"{len(played):6} {len(done) - len(played):8} {wins}-{len(played) - wins:<5} "
          f"{points / max(1, len(played)):9.0%} {f'{low:.0%}-{high:.0%}':>14} "
          f"{ours_t:12.2f} {theirs_t:14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
