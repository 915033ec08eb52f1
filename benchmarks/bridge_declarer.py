"""Declarer play: average tricks lost against the double-dummy result (issue 22).

On the same deals for every row (``deal_from_seed(seed)``, seeds ``--first`` on), the
contract by a fixed cheap rule (North-South declare; the strain is their longest combined
suit if it has 8 cards or more, else notrump; declarer is the one of North and South with
more high-card points, North on ties; level 1 -- tricks do not depend on it). With
``--from-trick T`` > 1 the first T - 1 tricks are played by all four seats double dummy
(DDS's first best card, ``endplay.dds.solve_board``), so that every row starts from the
same position; the default is trick 1, the opening lead (the issue's figure). Declarer (and
dummy) is played by the row's agent, the defenders by one fixed player for all rows:
``--defence dds`` (the default) plays DDS's first best card with all hands seen, so that
declarer can never gain from a defender's mistake and every loss is >= 0; ``--defence
simple`` is the rule-based player (``referees/bridge_simple_play.py``, outside the
package), which gives tricks away. A row's figure is the mean of (DDS's tricks for
declarer from the start position) - (declarer's tricks from there), with a 95 % interval.

Results go to a JSON-lines file (``--out``), one line per (row, deal, start, defence), and a
rerun skips what is there: the run is resumable and chunked (``--first``/``--deals`` pick
the deals, ``--rows`` the players, ``--time S`` stops starting new deals after S seconds).
Rows with node or iteration budgets (``pimc:worlds=N``, ``ismcts:iterations=N``) do not
depend on the machine's load; only their seconds do.

    nice -n 10 .venv/bin/python benchmarks/bridge_declarer.py --deals 500 --rows random simple
    nice -n 10 .venv/bin/python benchmarks/bridge_declarer.py --deals 500 \\
        --rows ismcts:iterations=500 --time 1800
    nice -n 10 .venv/bin/python benchmarks/bridge_declarer.py --deals 500 --time 2700 \\
        --rows pimc:worlds=5,nodes=5000000 pimc:worlds=20,nodes=5000000

PIMC's node budget (``nodes=M``, per decision) makes its rows independent of the load, but
the double-dummy solver keeps one table across a process's solves, so node counts (and the
worlds a budget cuts) may differ between an uninterrupted run and a resumed one.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from gamesearch.agents import Agent, make_agent
from gamesearch.games.bridge.cards import STRAINS, card_name, format_deal
from gamesearch.games.bridge.rules import Bridge, BridgeState, deal_from_seed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the referees/ folder
from referees.bridge_simple_play import simple_card

ROWS = ["pimc:worlds=10,nodes=1000000", "pimc:worlds=5,nodes=5000000",
        "pimc:worlds=20,nodes=5000000", "ismcts:iterations=500", "simple", "random"]
HCP = {12: 4, 11: 3, 10: 2, 9: 1}


def contract_of(hands: tuple[int, ...]) -> tuple[str, str]:
    """The fixed rule of the module docstring: (contract, declarer)."""
    ns = hands[0] | hands[2]
    lengths = [(ns >> (13 * s) & 0x1FFF).bit_count() for s in range(4)]
    suit = max(range(4), key=lambda s: (lengths[s], -s))
    strain = STRAINS[suit] if lengths[suit] >= 8 else "N"

    def points(h: int) -> int:
        return sum(HCP.get(c % 13, 0) for c in range(52) if h >> c & 1)

    declarer = "N" if points(hands[0]) >= points(hands[2]) else "S"
    return f"1{strain}", declarer


def dds_cards(s: BridgeState) -> dict[str, int]:
    """DDS's tricks for each card of the seat to play (its side's, from this trick on)."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    hands = list(s.hands)
    for i, c in enumerate(s.trick):
        hands[(s.leader + i) % 4] |= 1 << c
    d = Deal(format_deal(hands))
    d.first = [Player.north, Player.east, Player.south, Player.west][s.leader]
    d.trump = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt][s.strain]
    for c in s.trick:
        d.play(Card(card_name(c)))
    suits = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
    return {suits.get(str(k)[0], str(k)[0]) + str(k)[1:]: int(t) for k, t in solve_board(d)}


def start_position(seed: int, from_trick: int) -> tuple[Bridge, BridgeState, int]:
    """The deal of ``seed`` played double dummy up to ``from_trick``; and DDS's tricks for
    declarer from there."""
    hands = deal_from_seed(seed)
    contract, declarer = contract_of(hands)
    game = Bridge(contract=contract, declarer=declarer)
    s = game.parse_state(format_deal(hands))
    while s.declarer_tricks + s.defender_tricks < from_trick - 1 or s.trick:
        s = game.result(s, dds_card(game, s))
    left = 13 - s.declarer_tricks - s.defender_tricks
    lead = max(dds_cards(s).values())  # for the side on lead: the defenders
    return game, s, left - lead


class SimpleAgent(Agent):
    """:func:`simple_card` as an agent (handed the seat's view)."""

    name = "simple"

    def choose(self, game: Any, state: Any, limit: Any = None) -> Any:
        return simple_card(state)


def agent_for(game: Bridge, spec: str, seed: int) -> Agent:
    if spec == "simple":
        return SimpleAgent()
    sep = "," if ":" in spec else ":"
    return make_agent(game, f"{spec}{sep}seed={seed}")


def dds_card(game: Bridge, s: BridgeState) -> int:
    """DDS's first best card for the seat to play (every hand seen)."""
    best = dds_cards(s)
    top = max(best.values())
    return game.parse_action(s, next(k for k, v in best.items() if v == top))


def play_out(game: Bridge, s: BridgeState, spec: str, seed: int,
             defence_kind: str = "dds") -> tuple[int, float, dict[str, int]]:
    """Declarer's tricks from ``s`` with ``spec`` declaring against the ``defence_kind``
    defence (``dds`` or ``simple``), declarer's thinking seconds, and what its decisions
    cost: ``decisions`` (cards chosen with more than one legal), ``nodes`` (the agent's
    reported nodes -- PIMC's double-dummy nodes, ISMCTS's iterations -- summed),
    ``max_nodes`` (of one decision), and for PIMC ``short`` (decisions that finished
    fewer worlds than asked: the node budget cut a world) and ``blind`` (none finished:
    the first legal card played)."""
    obs = game.observation()
    declarer_agent = agent_for(game, spec, seed)
    defence = SimpleAgent()
    start = s.declarer_tricks
    seconds = 0.0
    cost = {"decisions": 0, "nodes": 0, "max_nodes": 0, "short": 0, "blind": 0}
    asked = getattr(declarer_agent, "worlds", None)
    while not game.is_terminal(s):
        seat = game.to_move(s)
        view = obs.observe(s, seat)
        if (seat - s.declarer) % 2 == 0:
            t0 = time.perf_counter()
            card = declarer_agent.choose(game, view)
            seconds += time.perf_counter() - t0
            if len(game.actions(s)) > 1:
                report = getattr(declarer_agent, "report", None)
                nodes = int(report.nodes) if report is not None else 0
                cost["decisions"] += 1
                cost["nodes"] += nodes
                cost["max_nodes"] = max(cost["max_nodes"], nodes)
                last = getattr(declarer_agent, "last", None)
                finished = getattr(last, "worlds", None)
                if asked is not None and isinstance(finished, list):
                    cost["short"] += len(finished) < asked
                    cost["blind"] += not finished
        elif defence_kind == "dds":
            card = dds_card(game, s)
        else:
            card = defence.choose(game, view)
        s = game.result(s, card)
    return s.declarer_tricks - start, seconds, cost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--from-trick", type=int, default=1, choices=range(1, 14),
                    metavar="T", help="declarer plays from trick T (default 1)")
    ap.add_argument("--defence", choices=("dds", "simple"), default="dds")
    ap.add_argument("--rows", nargs="+", default=ROWS)
    ap.add_argument("--time", type=float, default=None, help="stop starting deals after S s")
    ap.add_argument("--out", default="benchmarks/results/bridge_declarer.jsonl")
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(r["row"], r["seed"], r["from_trick"], r.get("defence", "simple")): r for r in
            (json.loads(x) for x in out.read_text().splitlines())} if out.exists() else {}
    key = (args.from_trick, args.defence)
    t_start = time.perf_counter()
    with out.open("a") as f:
        for seed in range(args.first, args.first + args.deals):
            if args.time is not None and time.perf_counter() - t_start > args.time:
                print(f"time is up after seed {seed - 1}")
                break
            todo = [row for row in args.rows if (row, seed, *key) not in done]
            if not todo:
                continue
            game, s, dd = start_position(seed, args.from_trick)
            for row in todo:
                tricks, secs, cost = play_out(game, s, row, seed, args.defence)
                rec = {"row": row, "seed": seed, "from_trick": args.from_trick,
                       "defence": args.defence,
                       "contract": game.contract_name(s), "dd": dd, "tricks": tricks,
                       "lost": dd - tricks, "seconds": round(secs, 4), **cost}
                done[(row, seed, *key)] = rec
                f.write(json.dumps(rec) + "\n")
                f.flush()
    seeds = set(range(args.first, args.first + args.deals))
    print(f"declarer from trick {args.from_trick}; defence: {args.defence}; "
          f"lost = DDS tricks - declarer's tricks (95 % interval)")
    print("| declarer | deals (seeds) | tricks lost / deal | 95 % interval | s / deal | "
          "nodes / decision (max) | decisions cut short (none finished) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in args.rows:
        recs = [r for (k, seed, *rest), r in done.items()
                if k == row and tuple(rest) == key and seed in seeds]
        n = len(recs)
        if not n:
            continue
        lost = [r["lost"] for r in recs]
        mean = sum(lost) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (n - 1)) if n > 1 else 0.0
        secs = sum(r["seconds"] for r in recs) / n
        counted = [r for r in recs if "decisions" in r]  # (records of before: no costs)
        decisions = sum(r["decisions"] for r in counted)
        per = (f"{sum(r['nodes'] for r in counted) / decisions:,.0f} "
                f"({max(r['max_nodes'] for r in counted):,})"
               if decisions and any(r["nodes"] for r in counted) else "--")
        short = (f"{sum(r['short'] for r in counted)} ({sum(r['blind'] for r in counted)}) "
                 f"of {decisions}" if decisions and row.startswith("pimc") else "--")
        seeds_run = sorted(r["seed"] for r in recs)
        span = (f"{seeds_run[0]}-{seeds_run[-1]}" if seeds_run[-1] - seeds_run[0] + 1 == n
                else f"{n} seeds")
        print(f"| {row} | {n} ({span}) | {mean:.3f} | ±{1.96 * sd / math.sqrt(n):.3f} | "
              f"{secs:.3f} | {per} | {short} |")


if __name__ == "__main__":
    random.seed(0)
    main()
