"""CFR and CFR+ against OpenSpiel's C++ ``CFRSolver`` / ``CFRPlusSolver`` in the same run:
CPU seconds of the solver (tree walk included, exploitability not) and the exploitability
(NashConv / 2) of each average policy, ours by our best response, OpenSpiel's by
``pyspiel.exploitability``; the sequence-form LP's value and seconds; optionally Monte Carlo
CFR's exploitability against histories touched, beside full CFR's and OpenSpiel's C++
samplers'; optionally the exploitability compared with OpenSpiel's at every iteration.

    .venv/bin/python benchmarks/cfr.py                     # Leduc CFR+ and CFR, 1,000 its
    .venv/bin/python benchmarks/cfr.py --games kuhn_poker leduc_poker --iterations 1000
    .venv/bin/python benchmarks/cfr.py --isomorphism       # + OpenSpiel on suit-isomorphic Leduc
    .venv/bin/python benchmarks/cfr.py --mccfr             # + MCCFR on Leduc and Liar's Dice
    .venv/bin/python benchmarks/cfr.py --every-iteration 1000   # + CFR, CFR+ on Leduc, 1..1000

``--mccfr``: for each of ``--mccfr-games``, one run of each algorithm (ours: full CFR and
CFR+ on the flat tree, external- and outcome-sampling MCCFR compiled, seed 1; OpenSpiel's
C++ ``ExternalSamplingMCCFRSolver`` and ``OutcomeSamplingMCCFRSolver``, seed 1) read at
iteration counts spaced half a decade apart: the histories touched (ours: counted; full
CFR: two passes of the whole tree an iteration; OpenSpiel does not report its count), the
exploitability of the average policy and the CPU seconds so far (the tree's flattening and
the exploitability not counted). Every policy, OpenSpiel's too, is judged by our best
response on the flat tree (tested equal to ``pyspiel.exploitability``); at each OpenSpiel
run's last count ``pyspiel.exploitability`` judges it too (Liar's Dice: ~10 s a call), and
a difference above 1e-9 makes the exit status 1.

``--every-iteration N``: CFR and CFR+ on Leduc, ours and OpenSpiel's C++ side by side; at
every iteration 1..N our exploitability (our best response) against
``pyspiel.exploitability`` of OpenSpiel's average policy (~0.2 s a call: ~4 minutes for
1,000 iterations and both variants).

The machines are shared: the load (``os.getloadavg``) is printed before and after; compare
the ratio within one run. Exit status 1 if an exploitability differs from OpenSpiel's by
more than 1e-9 (the same algorithm, the same schedule).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator

import numpy as np

from gamesearch.games import get_game
from gamesearch.search.cfr_fast import FastCFR, FlatTree, flat_exploitability, flatten
from gamesearch.search.equilibrium import SAMPLING, solve_equilibrium
from gamesearch.search.mccfr_fast import FastMCCFR

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


def half_decades(first: int, last: int) -> list[int]:
    """The iteration counts ``first`` .. ``last`` spaced half a decade apart (1, 3, 10, 32,
    ...)."""
    out, k = [], 0
    while (n := round(10 ** (k / 2))) <= last:
        if n >= first:
            out.append(n)
        k += 1
    return out


#: game -> algorithm -> the iteration counts read (a few minutes in all)
MCCFR_COUNTS = {
    "leduc_poker": {"cfr": half_decades(1, 1000), "cfr+": half_decades(1, 1000),
                    "es-mccfr": half_decades(100, 10 ** 6),
                    "os-mccfr": half_decades(1000, 10 ** 6)},
    "liars_dice": {"cfr": half_decades(1, 100), "cfr+": half_decades(1, 100),
                   "es-mccfr": half_decades(100, 10 ** 5),
                   "os-mccfr": half_decades(1000, 10 ** 6)},
}
OPENSPIEL_MCCFR = {"es-mccfr": "ExternalSamplingMCCFRSolver",
                   "os-mccfr": "OutcomeSamplingMCCFRSolver"}


def ours_curve(tree: FlatTree, name: str, algorithm: str,
               counts: list[int]) -> list[tuple[int, int, float, float]]:
    """(iterations, histories touched, exploitability, CPU s) at each count of one run."""
    game = get_game(name)
    solver: FastCFR | FastMCCFR
    if algorithm in SAMPLING:
        solver = FastMCCFR(game, SAMPLING[algorithm], seed=1, tree=tree)
    else:
        solver = FastCFR(game, algorithm, tree=tree)
    out, done, seconds = [], 0, 0.0
    for n in counts:
        start = time.process_time()
        solver.iterate(n - done)
        seconds += time.process_time() - start
        done = n
        nodes = solver.nodes if isinstance(solver, FastMCCFR) else 2 * n * len(tree.parent)
        out.append((n, nodes, solver.exploitability(), seconds))
    return out


def openspiel_array(tree: FlatTree, policy: object) -> np.ndarray:
    """OpenSpiel's policy as an array over our slots (our sets' ``str`` are its
    information-state strings; a set it never met: uniform, as its own default)."""
    import pyspiel

    out = np.empty(len(tree.slot_set))
    with quiet_stderr():  # (pyspiel prints each refusal below before raising it)
        for key, actions, lo in zip(tree.keys, tree.actions, tree.set_start, strict=True):
            try:
                table = dict(policy.get_state_policy(str(key)))  # type: ignore[attr-defined]
            except pyspiel.SpielError:  # never updated: "unimplemented" for its default
                table = {}
            for j, a in enumerate(actions):
                out[lo + j] = table.get(a, 0.0) if table else 1.0 / len(actions)
    return out


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to /dev/null for a while (C++ writes there directly)."""
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def openspiel_curve(tree: FlatTree, name: str, algorithm: str,
                    counts: list[int]) -> tuple[list[tuple[int, float, float]], float]:
    """(iterations, exploitability, CPU s) at each count of one run of OpenSpiel's C++
    sampler, and the difference between our best response's judgement of its last policy
    and ``pyspiel.exploitability``'s."""
    import pyspiel

    game = pyspiel.load_game(name)
    cls = getattr(pyspiel, OPENSPIEL_MCCFR[algorithm])
    solver = cls(game, seed=1) if algorithm == "es-mccfr" else cls(game, 0.6, 1)
    ours_game = get_game(name)
    out, done, seconds = [], 0, 0.0
    for n in counts:
        start = time.process_time()
        for _ in range(n - done):
            solver.run_iteration()
        seconds += time.process_time() - start
        done = n
        policy = solver.average_policy()
        out.append((n, flat_exploitability(tree, openspiel_array(tree, policy), ours_game),
                    seconds))
    referee = pyspiel.exploitability(game, policy)
    return out, abs(referee - out[-1][1])


def mccfr_tables(games: list[str]) -> float:
    """The ``--mccfr`` tables; returns the largest difference between our best response
    and ``pyspiel.exploitability`` on OpenSpiel's last policies."""
    warm = FastMCCFR(get_game("kuhn_poker"), "outcome", seed=1)  # (numba's cache loaded)
    warm.iterate(1)
    FastMCCFR(get_game("kuhn_poker"), "external", seed=1, tree=warm.tree).iterate(1)
    worst = 0.0
    for name in games:
        tree = flatten(get_game(name))
        print(f"\n{name}: {len(tree.parent):,} histories, {len(tree.keys):,} information "
              f"sets; load {load()}")
        row("algorithm", "iterations", "histories touched", "exploitability", "CPU s",
            "OpenSpiel C++ exploitability", "OpenSpiel C++ CPU s", "speed-up")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for algorithm, counts in MCCFR_COUNTS[name].items():
            mine = ours_curve(tree, name, algorithm, counts)
            theirs: list[tuple[int, float, float]] = []
            if algorithm in OPENSPIEL_MCCFR:
                theirs, difference = openspiel_curve(tree, name, algorithm, counts)
                worst = max(worst, difference)
            for k, (n, nodes, e, s) in enumerate(mine):
                peer = (f"{theirs[k][1]:.4f}", f"{theirs[k][2]:.2f}",
                        f"{theirs[k][2] / s:.1f}x" if s > 0 else "") if theirs else ("", "", "")
                row(algorithm, f"{n:,}", f"{nodes:,}", f"{e:.4f}", f"{s:.2f}", *peer)
    print(f"\nOpenSpiel's last MCCFR policies: our best response and pyspiel.exploitability "
          f"differ by at most {worst:.1e}")
    return worst


def every_iteration(iterations: int) -> float:
    """CFR and CFR+ on Leduc: the largest difference between our exploitability and
    OpenSpiel's over every iteration 1..``iterations``."""
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    worst = 0.0
    print()
    row("variant", "iterations compared", "largest difference", "at iteration",
        "exploitability at the last")
    print("|---|---:|---:|---:|---:|")
    for variant in ("cfr", "cfr+"):
        ours = FastCFR(get_game("leduc_poker"), variant)
        theirs = getattr(pyspiel, OPENSPIEL[variant])(game)
        largest, where = 0.0, 0
        for i in range(1, iterations + 1):
            ours.iterate()
            theirs.evaluate_and_update_policy()
            mine = ours.exploitability()
            difference = abs(mine - pyspiel.exploitability(game, theirs.average_policy()))
            if difference >= largest:
                largest, where = difference, i
        row(variant, f"1..{iterations:,}", f"{largest:.1e}", f"{where:,}", f"{mine:.6e}")
        worst = max(worst, largest)
    return worst


def row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=["leduc_poker"])
    parser.add_argument("--variants", nargs="+", default=["cfr+", "cfr"])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--isomorphism", action="store_true",
                        help="also OpenSpiel on leduc_poker(suit_isomorphism=True)")
    parser.add_argument("--mccfr", action="store_true",
                        help="also MCCFR against histories touched, beside full CFR and "
                             "OpenSpiel's C++ samplers")
    parser.add_argument("--mccfr-games", nargs="+", default=list(MCCFR_COUNTS),
                        choices=list(MCCFR_COUNTS))
    parser.add_argument("--every-iteration", type=int, default=0, metavar="N",
                        help="also CFR and CFR+ on Leduc against OpenSpiel at every "
                             "iteration 1..N")
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
        worst = max(worst, mccfr_tables(args.mccfr_games))
    if args.every_iteration > 0:
        worst = max(worst, every_iteration(args.every_iteration))
    print(f"\nload after: {load()}")
    if worst > 1e-9:
        print(f"DIFFERENCE: exploitabilities differ by {worst:.3g}")
        return 1
    print(f"exploitabilities equal to OpenSpiel's within {max(worst, 1e-16):.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
