"""CFR and CFR+ against OpenSpiel's C++ ``CFRSolver`` / ``CFRPlusSolver`` in the same run:
CPU seconds of the solver (tree walk included, exploitability not) and the exploitability
(NashConv / 2) of each average policy, ours by our best response, OpenSpiel's by
``pyspiel.exploitability``; the sequence-form LP's value and seconds; optionally Monte Carlo
CFR's exploitability against histories touched, beside full CFR's.

    .venv/bin/python benchmarks/cfr.py                     # Leduc CFR+ and CFR, 1,000 its
    .venv/bin/python benchmarks/cfr.py --games kuhn_poker leduc_poker --iterations 1000
    .venv/bin/python benchmarks/cfr.py --isomorphism       # + OpenSpiel on suit-isomorphic Leduc
    .venv/bin/python benchmarks/cfr.py --mccfr             # + ES/OS MCCFR on Leduc

The machines are shared: the load (``os.getloadavg``) is printed before and after; compare
the ratio within one run. Exit status 1 if an exploitability differs from OpenSpiel's by
more than 1e-9 (the same algorithm, the same schedule).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from gamesearch.games import get_game
from gamesearch.search.cfr_fast import FastCFR
from gamesearch.search.equilibrium import solve_equilibrium

OPENSPIEL = {"cfr": "CFRSolver", "cfr+": "CFRPlusSolver"}
#: our game -> OpenSpiel's (its spec, and whether it is made turn-based first)
OPENSPIEL_GAMES = {"goofspiel": ("goofspiel(num_cards=4,imp_info=True)", True)}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ours(name: str, variant: str, iterations: int) -> tuple[float, float]:
    start = time.process_time()
    solver = FastCFR(get_game(name), variant)
    solver.iterate(iterations)
    seconds = time.process_time() - start
    return seconds, solver.exploitability()


def theirs(spec: str, variant: str, iterations: int) -> tuple[float, float]:
    import pyspiel

    spec, turn_based = OPENSPIEL_GAMES.get(spec, (spec, False))
    game = pyspiel.load_game(spec)
    if turn_based:
        game = pyspiel.convert_to_turn_based(game)
    start = time.process_time()
    solver = getattr(pyspiel, OPENSPIEL[variant])(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.process_time() - start
    return seconds, pyspiel.exploitability(game, solver.average_policy())


def row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=["leduc_poker"])
    parser.add_argument("--variants", nargs="+", default=["cfr+", "cfr"])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--isomorphism", action="store_true",
                        help="also OpenSpiel on leduc_poker(suit_isomorphism=True)")
    parser.add_argument("--mccfr", action="store_true", help="also ES/OS MCCFR on Leduc")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel (the dev extra)")
        return 2
    print(f"load before: {load()}  (os.getloadavg, {os.cpu_count()} cores)")
    row("game", "algorithm", "iterations", "ours CPU s", "OpenSpiel C++ CPU s", "speed-up",
        "ours exploitability", "OpenSpiel exploitability")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for name in args.games:
        for variant in args.variants:
            s1, e1 = ours(name, variant, args.iterations)
            s2, e2 = theirs(name, variant, args.iterations)
            worst = max(worst, abs(e1 - e2))
            row(name, variant, f"{args.iterations:,}", f"{s1:.2f}", f"{s2:.2f}",
                f"{s2 / s1:.1f}x", f"{e1:.4e}", f"{e2:.4e}")
            if args.isomorphism and name == "leduc_poker":
                s3, e3 = theirs("leduc_poker(suit_isomorphism=True)", variant, args.iterations)
                row(f"{name} (OpenSpiel suit isomorphism)", variant, f"{args.iterations:,}",
                    "", f"{s3:.2f}", f"{s3 / s1:.1f}x", "", f"{e3:.4e}")
    print()
    row("game", "sequence-form LP value", "published", "CPU s")
    print("|---|---:|---:|---:|")
    for name, published in (("kuhn_poker", -1 / 18), ("leduc_poker", -0.085606)):
        r = solve_equilibrium(get_game(name), "lp")
        row(name, f"{r.value:.7f}", f"{published:.7f}", f"{r.seconds:.2f}")
    if args.mccfr:
        print()
        row("algorithm", "iterations", "histories touched", "exploitability", "CPU s")
        print("|---|---:|---:|---:|---:|")
        game = get_game("leduc_poker")
        for algorithm, counts in (("cfr", (10, 100, 1000)), ("es-mccfr", (1000, 10000)),
                                  ("os-mccfr", (10000, 100000))):
            for n in counts:
                r = solve_equilibrium(game, algorithm, n, seed=1)
                row(algorithm, f"{n:,}", f"{r.nodes:,}", f"{r.exploitability:.4f}",
                    f"{r.seconds:.2f}")
    print(f"\nload after: {load()}")
    if worst > 1e-9:
        print(f"DIFFERENCE: exploitabilities differ by {worst:.3g}")
        return 1
    print(f"exploitabilities equal to OpenSpiel's within {max(worst, 1e-16):.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
