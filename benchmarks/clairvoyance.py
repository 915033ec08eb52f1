"""What averaging over clairvoyance costs (issue 37), measured; and tic-tac-toe's minimax
profile at NashConv exactly 0.

1. One table: on Kuhn, Leduc and Liar's Dice, the exploitability (NashConv / 2) of the
   policy PIMC plays (``pimc:worlds=W``: its move at every information set, a pure policy)
   and of SO-ISMCTS's (``ismcts:iterations=I``; its move, and with ``--visits`` its root
   visit counts as a distribution), each beside CFR+ run for the same CPU time as building
   that policy took (the flat solver, tree walk included, whole iterations until the time
   is spent) and CFR+ run long (the reference). Exploitability by our best response
   (``search/cfr.py``) and, as the referee, ``pyspiel.exploitability`` on the same table
   (our views' ``str`` is OpenSpiel's information-state string).
2. A Leduc match through the arena: a CFR+ policy (``gamesearch equilibrium leduc_poker
   --iterations N --out FILE``) against PIMC and against ISMCTS at the same budgets, the 30
   deals of the private cards each played twice with the seats swapped (the arena's
   openings; the public card is drawn anew at each table, so only the private deals are
   duplicated), CFR's mean chips a hand with its 95 % interval (over deal pairs).
3. Tic-tac-toe: the move the library's minimax picks at every state, its NashConv exactly
   (``search/perfect_profile.py``, fractions), states and histories visited; OpenSpiel's
   ``exploitability.nash_conv`` on the same profile mapped onto its states, in the same run.

    .venv/bin/python benchmarks/clairvoyance.py                 # everything (minutes)
    .venv/bin/python benchmarks/clairvoyance.py --games kuhn_poker leduc_poker --no-match
    .venv/bin/python benchmarks/clairvoyance.py --only tictactoe

The machine is shared: the load (``os.getloadavg``) is printed before and after each part;
CPU seconds are ``time.process_time`` (the match's games run in child processes: wall
seconds). Exit status 1 if our exploitability and OpenSpiel's differ by more than 1e-9, or
if the minimax profile's NashConv is not exactly 0.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gamesearch.agents import agent_decider
from gamesearch.games import get_game
from gamesearch.search.agent_policy import decisions_policy
from gamesearch.search.cfr import Policy, exploitability
from gamesearch.search.cfr_fast import FastCFR

GAMES = ("kuhn_poker", "leduc_poker", "liars_dice")
#: PIMC's worlds and ISMCTS's iterations per decision, by game (Liar's Dice: 24,576 sets)
BUDGETS = {"kuhn_poker": (20, 1000), "leduc_poker": (20, 1000), "liars_dice": (20, 200)}
#: CFR+ iterations of the reference row
CONVERGED = {"kuhn_poker": 10_000, "leduc_poker": 20_000, "liars_dice": 1_000}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def figure(x: float) -> str:
    """An exploitability: four decimals, or three significant digits below 0.001."""
    return f"{x:.4f}" if abs(x) >= 1e-3 else f"{x:.2e}"


def openspiel_exploitability(name: str, policy: Policy) -> float:
    import pyspiel

    table = pyspiel.TabularPolicy({str(k): list(v.items()) for k, v in policy.items()})
    return float(pyspiel.exploitability(pyspiel.load_game(name), table))


def cfr_plus_for(name: str, seconds: float | None, iterations: int | None = None
                 ) -> tuple[Policy, int, float]:
    """CFR+ (the flat solver, the tree walk counted) for ``seconds`` of CPU time (whole
    iterations, at least one) or ``iterations``: (average policy, iterations, seconds)."""
    start = time.process_time()
    solver = FastCFR(get_game(name), "cfr+")
    done = 0
    while done < 1 or (iterations is not None and done < iterations) or (
            seconds is not None and time.process_time() - start < seconds):
        solver.iterate(1)
        done += 1
    return solver.average_policy(), done, time.process_time() - start


def clairvoyance_table(games: list[str], visits: bool, referee: set[str]) -> float:
    """The one table; returns the largest difference from OpenSpiel's exploitability."""
    print(f"load before: {load()}  (os.getloadavg, {os.cpu_count()} cores)")
    row("game", "agent", "CPU s", "information sets", "exploitability (ours)",
        "exploitability (OpenSpiel)")
    print("|---|---|---:|---:|---:|---:|")
    worst = 0.0

    def report(name: str, label: str, seconds: float, sets: int, policy: Policy) -> None:
        nonlocal worst
        ours = exploitability(get_game(name), policy)
        theirs = ""
        if name in referee:
            value = openspiel_exploitability(name, policy)
            worst = max(worst, abs(value - ours))
            theirs = figure(value)
        row(name, label, f"{seconds:.2f}", f"{sets:,}", figure(ours), theirs)

    for name in games:
        game = get_game(name)
        worlds, iterations = BUDGETS[name]
        agents = [(f"PIMC (pimc:worlds={worlds})", f"pimc:worlds={worlds}", "choice"),
                  (f"ISMCTS (ismcts:iterations={iterations}), its move",
                   f"ismcts:iterations={iterations}", "choice")]
        if visits:
            agents.append((f"ISMCTS (ismcts:iterations={iterations}), its visits",
                           f"ismcts:iterations={iterations}", "visits"))
        for label, spec, kind in agents:
            made = decisions_policy(game, agent_decider(game, spec, kind), seed=1)
            report(name, label, made.seconds, made.information_sets, made.policy)
            policy, done, seconds = cfr_plus_for(name, made.seconds)
            report(name, f"CFR+ for the same CPU time ({done:,} iterations)", seconds,
                   made.information_sets, policy)
        policy, done, seconds = cfr_plus_for(name, None, CONVERGED[name])
        report(name, f"CFR+ converged ({done:,} iterations)", seconds, len(policy), policy)
    print(f"load after: {load()}\n")
    return worst


def leduc_match(hands: int, worlds: int, iterations: int, cfr_iterations: int,
                seed: int) -> None:
    """CFR+'s policy against PIMC and ISMCTS on Leduc, through the arena."""
    from gamesearch.arena.schedule import TournamentConfig, parse_agents, parse_openings
    from gamesearch.arena.timecontrol import TimeControl
    from gamesearch.arena.tournament import RunOptions, run_tournament
    from gamesearch.games.leduc_poker import DECK, card_name

    game = get_game("leduc_poker")
    deals = parse_openings(game, [f"{card_name(a)} {card_name(b)}" for a in range(DECK)
                                  for b in range(DECK) if a != b], "Leduc's deals")
    print(f"load before: {load()}")
    with tempfile.TemporaryDirectory(prefix="wt-clairvoyance-") as folder:
        path = Path(folder) / "leduc.policy.json"
        command = [sys.executable, "-m", "gamesearch", "equilibrium", "leduc_poker",
                   "--iterations", str(cfr_iterations), "--out", str(path)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        print(f"policy: gamesearch equilibrium leduc_poker --iterations {cfr_iterations} "
              f"--out FILE")
        row("CFR+ policy against", "hands", "CFR chips a hand", "95 % interval (deal pairs)",
            "95 % interval (hands)", "CFR wins / ties / losses", "wall s")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for opponent in (f"pimc:worlds={worlds}", f"ismcts:iterations={iterations}"):
            config = TournamentConfig(
                game="leduc_poker",
                agents=tuple(parse_agents([f"cfr=policy:{path}", opponent])),
                games_per_pair=hands, time_control=TimeControl(600.0, 10.0),
                openings=tuple(deals), seed=seed)
            start = time.perf_counter()
            result = run_tournament(config, RunOptions())
            wall = time.perf_counter() - start
            chips: dict[int, float] = {}
            for record in result.records:
                if record.returns is None:
                    raise SystemExit(f"game {record.game_no} did not end by the rules: "
                                     f"{record.termination}")
                chips[record.game_no] = record.returns[record.seats.index(0)]
            per_hand = [chips[g] for g in sorted(chips)]
            pairs = [(per_hand[i] + per_hand[i + 1]) / 2 for i in range(0, len(per_hand) - 1, 2)]
            mean = sum(per_hand) / len(per_hand)
            row(opponent, f"{len(per_hand):,}", f"{mean:+.3f}",
                f"± {margin(pairs):.3f}", f"± {margin(per_hand):.3f}",
                f"{sum(c > 0 for c in per_hand)} / {sum(c == 0 for c in per_hand)} / "
                f"{sum(c < 0 for c in per_hand)}", f"{wall:.0f}")
    print(f"load after: {load()}\n")


def margin(xs: list[float]) -> float:
    """1.96 standard errors of the mean of ``xs``."""
    n = len(xs)
    if n < 2:
        return math.inf
    mean = sum(xs) / n
    return 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def tictactoe(openspiel: bool) -> bool:
    """The minimax profile's NashConv; True when it is exactly 0 (and OpenSpiel agrees)."""
    from gamesearch.search import Limit, make_searcher
    from gamesearch.search.perfect_profile import nash_conv_exact, search_profile

    game = get_game("tictactoe")
    print(f"load before: {load()}")
    start = time.process_time()
    searcher = make_searcher(game, "minimax")
    nodes = 0

    def choose(state: Any) -> Any:
        nonlocal nodes
        r = searcher.search(state, Limit())
        nodes += r.nodes
        return r.action

    profile = search_profile(game, choose)
    print(f"minimax profile: {len(profile):,} decision states, {nodes:,} minimax nodes, "
          f"{time.process_time() - start:.2f} CPU s")
    row("route", "NashConv", "nodes visited", "CPU s")
    print("|---|---:|---:|---:|")
    ok = True
    for memo, what in ((True, "states"), (False, "histories")):
        start = time.process_time()
        r = nash_conv_exact(game, profile, memo=memo)
        ok = ok and r.nash_conv == 0
        row(f"ours, exact (fractions), {what}", str(r.nash_conv), f"{r.nodes:,} {what}",
            f"{time.process_time() - start:.3f}")
    if openspiel:
        import numpy as np
        import pyspiel
        from open_spiel.python import policy as openspiel_policy
        from open_spiel.python.algorithms.exploitability import nash_conv

        theirs = pyspiel.load_game("tic_tac_toe")
        start = time.process_time()
        table = openspiel_policy.TabularPolicy(theirs)
        for key, index in table.state_lookup.items():  # (a key is the history: "4, 0, 1")
            state = game.initial_state()
            for a in (int(x) for x in key.split(", ")) if key else ():
                state = game.result(state, a)
            probabilities = np.zeros(theirs.num_distinct_actions())
            probabilities[profile[state]] = 1.0
            table.action_probability_array[index] = probabilities
        built = time.process_time() - start
        start = time.process_time()
        value = nash_conv(theirs, table)
        ok = ok and value == 0
        row("OpenSpiel exploitability.nash_conv (Python best response, floats)",
            f"{value:g}", f"{len(table.state_lookup):,} histories (its tabular policy)",
            f"{time.process_time() - start:.2f}")
        print(f"(OpenSpiel's tabular policy built and filled from ours in {built:.2f} CPU s, "
              "not counted)")
    print(f"load after: {load()}\n")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--only", choices=("table", "match", "tictactoe"))
    parser.add_argument("--no-match", action="store_true")
    parser.add_argument("--visits", action="store_true",
                        help="also ISMCTS's root visits as its policy")
    parser.add_argument("--no-openspiel", nargs="*", default=[], choices=GAMES,
                        metavar="GAME", help="skip OpenSpiel's check on these games")
    parser.add_argument("--hands", type=int, default=3000,
                        help="hands of each match (even: a deal is played twice)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel (the dev extra)")
        return 2
    print(f"date: {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}\n")
    status = 0
    if args.only in (None, "table"):
        worst = clairvoyance_table(args.games, args.visits,
                                   set(args.games) - set(args.no_openspiel))
        print(f"our exploitability and OpenSpiel's differ by at most {worst:.1e}\n")
        status |= worst > 1e-9
    if args.only == "match" or (args.only is None and not args.no_match):
        worlds, iterations = BUDGETS["leduc_poker"]
        leduc_match(args.hands, worlds, iterations, 1000, args.seed)
    if args.only in (None, "tictactoe"):
        status |= not tictactoe(True)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
