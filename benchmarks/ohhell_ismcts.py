"""Oh Hell (3 players, 4x4, 3 tricks): our PIMC and SO-ISMCTS against OpenSpiel's ISMCTSBot.

Each deal seats one of our agents and two ISMCTSBots; our seat turns with the deal number
(deal d: seat d mod 3), so every seat, dealer included, is played equally often. Deals come
from the deal number (the same deals for every agent). Printed: points per deal of our
agent and of the bots (mean of the two bot seats), with 95 % intervals (1.96 standard
errors over the deals), and the difference (ours - bots) with its interval.

Two budgets: ``--mode iterations`` (our ISMCTS with N iterations, the bots with N
simulations; PIMC with N // 100 worlds is listed too, not an equal budget) and ``--mode
time`` (S seconds a move for everyone; PIMC samples worlds until its time is spent).

First (``--replay N``) the rules check: N random deals replayed move by move in OpenSpiel's
``oh_hell`` and ours, legal actions and returns compared at every step.

    nice -n 10 .venv/bin/python benchmarks/ohhell_ismcts.py --replay 1000 --deals 1000 \
        --mode time --seconds 0.02 --budget 1800
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from statistics import mean, stdev

from gamesearch.agents import make_agent, play_game
from gamesearch.arena.openspiel_ohhell import PARAMS, OpenSpielIsmcts
from gamesearch.games import get_game
from gamesearch.games.ohhell import openspiel_chance_actions, random_deal, to_openspiel_action


def replay(deals: int) -> tuple[int, int]:
    import pyspiel  # type: ignore[import-not-found]

    game = get_game("ohhell")
    steps = 0
    for seed in range(deals):
        rng = random.Random(seed)
        ours = random_deal(rng)
        theirs = pyspiel.load_game("oh_hell", PARAMS).new_initial_state()
        for a in openspiel_chance_actions(ours):
            theirs.apply_action(a)
        while not game.is_terminal(ours):
            legal = game.actions(ours)
            if sorted(to_openspiel_action(ours, a) for a in legal) != \
                    sorted(theirs.legal_actions()):
                raise SystemExit(f"deal {seed}: legal actions differ at step {steps}")
            a = rng.choice(legal)
            theirs.apply_action(to_openspiel_action(ours, a))
            ours = game.result(ours, a)
            steps += 1
        if list(game.returns(ours)) != list(theirs.returns()):
            raise SystemExit(f"deal {seed}: returns differ")
    return deals, steps


def interval(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{mean(xs):.3f}"
    return f"{mean(xs):.3f} ± {1.96 * stdev(xs) / math.sqrt(len(xs)):.3f}"


def run(spec: str, bots: dict[str, object], deals: int, budget: float) -> None:
    game = get_game("ohhell")
    ours: list[float] = []
    theirs: list[float] = []
    diff: list[float] = []
    t0 = time.perf_counter()
    for d in range(deals):
        if time.perf_counter() - t0 > budget:
            break
        seat = d % 3
        agents: list = [None, None, None]
        agents[seat] = make_agent(game, spec + f",seed={d}")
        for k in range(1, 3):
            agents[(seat + k) % 3] = OpenSpielIsmcts(seed=1000 * d + k, **bots)  # type: ignore[arg-type]
        final, _ = play_game(game, agents, rng=random.Random(d))
        r = game.returns(final)
        bot_mean = (r[(seat + 1) % 3] + r[(seat + 2) % 3]) / 2
        ours.append(r[seat])
        theirs.append(bot_mean)
        diff.append(r[seat] - bot_mean)
    seconds = time.perf_counter() - t0
    print(f"| {spec} | {bots} | {len(ours)} | {interval(ours)} | {interval(theirs)} | "
          f"{interval(diff)} | {seconds:.0f} |")
    sys.stdout.flush()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--replay", type=int, default=1000)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--mode", choices=("iterations", "time"), default="time")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--seconds", type=float, default=0.02)
    p.add_argument("--budget", type=float, default=1800.0,
                   help="seconds per agent line at most (fewer deals then; printed)")
    p.add_argument("--agents", default="ismcts,pimc")
    a = p.parse_args()
    if a.replay:
        t = time.perf_counter()
        deals, steps = replay(a.replay)
        print(f"replay: {deals} deals, {steps} steps: legal actions and returns equal to "
              f"OpenSpiel's at every step ({time.perf_counter() - t:.1f} s)")
    print("| our agent | bots | deals | ours (points/deal) | bots (points/deal) | "
          "ours - bots | s |")
    print("|---|---|---|---|---|---|---|")
    for name in a.agents.split(","):
        if a.mode == "iterations":
            spec = (f"ismcts:iterations={a.iterations}" if name == "ismcts"
                    else f"pimc:worlds={max(1, a.iterations // 100)}")
            bots = {"simulations": a.iterations}
        else:
            spec = (f"ismcts:iterations=1000000000,time={a.seconds}" if name == "ismcts"
                    else f"pimc:worlds=100000,time={a.seconds}")
            bots = {"seconds": a.seconds}
        run(spec, bots, a.deals, a.budget)


if __name__ == "__main__":
    main()
