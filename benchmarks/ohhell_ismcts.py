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

Resumable: with ``--log FILE`` every deal is appended to FILE (one JSON line: line,
deal, seat, returns) as it ends, a rerun skips the deals of a line already logged, and
``--summary FILE`` prints the table of everything logged so far (a long line can be run in
chunks, ``--budget`` seconds at a time).

``--agents ismcts-blind``: our ISMCTS whose sampler ignores the voids play revealed (as
OpenSpiel's ISMCTSBot's resampling does), on the same deals: what keeping the voids is
worth.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Hashable
from pathlib import Path
from statistics import mean, stdev
from typing import Any

from gamesearch.agents import make_agent, play_game
from gamesearch.games import get_game
from gamesearch.games.ohhell import (
    OhHell,
    OhHellObservation,
    openspiel_chance_actions,
    random_deal,
    to_openspiel_action,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.openspiel_ohhell import PARAMS, OpenSpielIsmcts


class VoidBlindObservation(OhHellObservation):
    """Oh Hell's observation whose sampler forgets the voids play revealed (every unseen
    card may lie in any unseen hand): the resampling of OpenSpiel's ISMCTSBot."""

    def sampler(self, observation: Hashable) -> tuple[Any, list[int]]:
        sampler, owners = super().sampler(observation)
        from gamesearch.games.cards import DealSampler

        unseen = [c for suit in sampler._by_suit for c in suit]  # its unseen cards
        blind = DealSampler(sampler.deck, unseen, sampler.hand_sizes,
                            [frozenset()] * len(sampler.hand_sizes))
        return blind, owners


class VoidBlindOhHell(OhHell):
    """Oh Hell with the same rules, whose observation samples void-blind."""

    def observation(self) -> VoidBlindObservation:
        return VoidBlindObservation(self)


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


def logged(log: Path | None, line: str) -> dict[int, list[float]]:
    """The deals of ``line`` already in ``log``: deal number -> returns from our seat's
    side (ours, bots' mean)."""
    done: dict[int, list[float]] = {}
    if log is None or not log.exists():
        return done
    for text in log.read_text().splitlines():
        rec = json.loads(text)
        if rec["line"] == line:
            r, seat = rec["returns"], rec["seat"]
            done[rec["deal"]] = [r[seat], (r[(seat + 1) % 3] + r[(seat + 2) % 3]) / 2]
    return done


def row(line: str, results: dict[int, list[float]], seconds: float | None) -> str:
    ours = [v[0] for v in results.values()]
    theirs = [v[1] for v in results.values()]
    diff = [a - b for a, b in zip(ours, theirs, strict=True)]
    took = "" if seconds is None else f"{seconds:.0f}"
    return (f"| {line} | {len(ours)} | {interval(ours)} | {interval(theirs)} | "
            f"{interval(diff)} | {took} |")


def run(line: str, spec: str, bots: dict[str, Any], deals: int, budget: float,
        log: Path | None, blind: bool = False) -> None:
    game = VoidBlindOhHell() if blind else get_game("ohhell")
    results = logged(log, line)
    t0 = time.perf_counter()
    for d in range(deals):
        if d in results:
            continue
        if time.perf_counter() - t0 > budget:
            break
        seat = d % 3
        agents: list = [None, None, None]
        agents[seat] = make_agent(game, spec + f",seed={d}")
        for k in range(1, 3):
            agents[(seat + k) % 3] = OpenSpielIsmcts(seed=1000 * d + k, **bots)
        final, _ = play_game(game, agents, rng=random.Random(d))
        r = list(game.returns(final))
        results[d] = [r[seat], (r[(seat + 1) % 3] + r[(seat + 2) % 3]) / 2]
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps({"line": line, "deal": d, "seat": seat, "returns": r})
                        + "\n")
    print(row(line, results, time.perf_counter() - t0))
    sys.stdout.flush()


HEADER = ("| our agent vs 2 ISMCTSBots | deals | ours (points/deal) | bots (points/deal) | "
          "ours - bots | s (this run) |\n|---|---|---|---|---|---|")


def summary(log: Path) -> None:
    """The table of every line in ``log``; then, for each two lines of one budget
    (``ismcts`` and ``ismcts-blind``), the paired difference of our seat's points over the
    deals both played (the same deals, seats and bot seeds)."""
    lines: list[str] = []
    for text in log.read_text().splitlines():
        name = json.loads(text)["line"]
        if name not in lines:
            lines.append(name)
    print(HEADER)
    for name in lines:
        print(row(name, logged(log, name), None))
    for name in lines:
        blind = name.replace("ismcts ", "ismcts-blind ", 1)
        if name.startswith("ismcts ") and blind in lines:
            ours, theirs = logged(log, name), logged(log, blind)
            common = sorted(set(ours) & set(theirs))
            diff = [ours[d][0] - theirs[d][0] for d in common]
            same = sum(1 for x in diff if x == 0)
            print(f"\n{name}: keeping the voids minus void-blind, our seat's points, paired "
                  f"over {len(common)} deals: {interval(diff)} ({same} deals scored the same)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--replay", type=int, default=1000)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--mode", choices=("iterations", "time"), default="time")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--seconds", type=float, default=0.02)
    p.add_argument("--budget", type=float, default=1800.0,
                   help="seconds per agent line at most (fewer deals then; printed)")
    p.add_argument("--agents", default="ismcts,pimc",
                   help="comma-separated: ismcts, pimc, ismcts-blind")
    p.add_argument("--log", type=Path, help="append each deal here; resume from it")
    p.add_argument("--summary", type=Path, help="print the table of a log and stop")
    a = p.parse_args()
    if a.summary:
        summary(a.summary)
        return
    if a.replay:
        t = time.perf_counter()
        deals, steps = replay(a.replay)
        print(f"replay: {deals} deals, {steps} steps: legal actions and returns equal to "
              f"OpenSpiel's at every step ({time.perf_counter() - t:.1f} s)")
    print(HEADER)
    for name in a.agents.split(","):
        if name not in ("ismcts", "pimc", "ismcts-blind"):
            raise SystemExit(f"unknown agent {name!r}: ismcts, pimc or ismcts-blind")
        search = "pimc" if name == "pimc" else "ismcts"
        if a.mode == "iterations":
            spec = (f"ismcts:iterations={a.iterations}" if search == "ismcts"
                    else f"pimc:worlds={max(1, a.iterations // 100)}")
            bots: dict[str, Any] = {"simulations": a.iterations}
            line = f"{name} {a.iterations} iterations vs bots {a.iterations} simulations"
        else:
            spec = (f"ismcts:iterations=1000000000,time={a.seconds}" if search == "ismcts"
                    else f"pimc:worlds=100000,time={a.seconds}")
            bots = {"seconds": a.seconds}
            line = f"{name} {a.seconds} s/move vs bots {a.seconds} s/move"
        run(line, spec, bots, a.deals, a.budget, a.log, blind=name == "ismcts-blind")


if __name__ == "__main__":
    main()
