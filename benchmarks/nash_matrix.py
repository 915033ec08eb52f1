"""Matrix games' equilibria: gamesearch (search/nash.py) beside nashpy, in one run.

    python benchmarks/nash_matrix.py [--quick] [--seed 1] [--method lp ...]

For each method and size, random real-valued games (uniform in [-5, 5): nondegenerate with
probability one) are solved by both libraries; each row gives the CPU seconds a game
(``time.process_time``, the mean over repeats of at least 0.2 s), the ratio nashpy / ours,
whether the answers agree, and the 1-minute load average (``os.getloadavg``) when the row
was measured: the machines are shared, so read every figure with its load.

* ``lp``: our ``solve_zero_sum`` (HiGHS, the column strategy from the dual) against nashpy's
  ``linear_program`` (which solves one LP per player); agreement: the values to 1e-9.
* ``support``: our ``support_enumeration`` (batched) against nashpy's
  ``support_enumeration(non_degenerate=True)`` (the same support pairs: equal sizes);
  agreement: the same equilibria. nashpy compares floats exactly and can drop a genuine
  equilibrium, so its count is shown beside ours ("ours/theirs").
* ``lemke-howson``: every label (m + n paths) by ours and by nashpy's ``lemke_howson``
  (integer pivoting, lexicographic); agreement: the labels whose ends are equal (nashpy's
  path can end outside the equilibria, overflow, or return vectors of the wrong length).
  A label whose nashpy path does not end within 10 s ("hung") is left out of both timings.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gamesearch.search import nash


def cpu(f: Callable[[], Any], at_least: float = 0.2) -> tuple[float, Any]:
    """Mean CPU seconds of ``f()`` over repeats lasting at least ``at_least``; its answer."""
    runs, start = 0, time.process_time()
    while True:
        out = f()
        runs += 1
        spent = time.process_time() - start
        if spent >= at_least:
            return spent / runs, out


def game(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random((size, size)) * 10 - 5, rng.random((size, size)) * 10 - 5


def row_lp(size: int, seed: int, nashpy: Any) -> tuple[float, float, str]:
    A, _ = game(size, seed)
    ours, sol = cpu(lambda: nash.solve_zero_sum(A))
    theirs, (x, y) = cpu(lambda: nashpy.Game(A).linear_program())
    return ours, theirs, "yes" if abs(sol.value - x @ A @ y) < 1e-9 else "NO"


def row_support(size: int, seed: int, nashpy: Any) -> tuple[float, float, str]:
    A, B = game(size, seed)
    ours, found = cpu(lambda: nash.support_enumeration(A, B))
    theirs, pairs = cpu(lambda: list(nashpy.Game(A, B).support_enumeration(non_degenerate=True)))
    same = all(any(np.allclose(e.row, x, atol=1e-9) and np.allclose(e.column, y, atol=1e-9)
                   for e in found.equilibria) for x, y in pairs)
    return ours, theirs, f"{'yes' if same else 'NO'} {len(found.equilibria)}/{len(pairs)}"


class Hung(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hung


def finishes(f: Callable[[], Any], seconds: int = 10) -> bool:
    """Whether ``f()`` returns within ``seconds`` (nashpy's Lemke-Howson loops on some games)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        f()
        return True
    except Hung:
        return False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def row_lemke_howson(size: int, seed: int, nashpy: Any) -> tuple[float, float, str]:
    A, B = game(size, seed)
    labels = [k for k in range(2 * size)
              if finishes(lambda k=k: nashpy.Game(A, B).lemke_howson(initial_dropped_label=k))]
    hung = 2 * size - len(labels)
    ours, mine = cpu(lambda: [nash.lemke_howson(A, B, k) for k in labels])
    theirs, their = cpu(lambda: [nashpy.Game(A, B).lemke_howson(initial_dropped_label=k)
                                 for k in labels])
    same = sum(np.shape(x) == (size,) and np.shape(y) == (size,)  # (it can return 2n - 1)
               and np.allclose(e.row, x, atol=1e-9) and np.allclose(e.column, y, atol=1e-9)
               for e, (x, y) in zip(mine, their, strict=True))
    return ours, theirs, f"{same}/{len(labels)}" + (f", {hung} hung" if hung else "")


ROWS = {"lp": row_lp, "support": row_support, "lemke-howson": row_lemke_howson}
SIZES = {"lp": [3, 10, 50, 100, 200], "support": [3, 5, 7, 8, 9],
         "lemke-howson": [3, 5, 10, 20, 40]}
QUICK = {"lp": [3, 50], "support": [3, 6], "lemke-howson": [3, 10]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="two small sizes a method")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--method", choices=sorted(ROWS), action="append",
                   help="only this method's rows (repeatable; default: all)")
    args = p.parse_args(argv)
    try:
        import nashpy
    except ImportError:
        print("nashpy is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    warnings.simplefilter("ignore")  # nashpy's "even number of equilibria", overflows
    print(f"nashpy {nashpy.__version__}, numpy {np.__version__}, seed {args.seed}; CPU seconds "
          "a game (mean of repeats >= 0.2 s)")
    print(f"| {'method':<12} | {'size':>9} | {'ours s':>9} | {'nashpy s':>9} | {'ratio':>7} "
          f"| {'agree':<14} | {'load':>5} |")
    print(f"|{'-' * 14}|{'-' * 10}:|{'-' * 10}:|{'-' * 10}:|{'-' * 8}:|{'-' * 16}|{'-' * 6}:|")
    for method, sizes in (QUICK if args.quick else SIZES).items():
        if args.method and method not in args.method:
            continue
        for size in sizes:
            ours, theirs, agree = ROWS[method](size, args.seed, nashpy)
            load = os.getloadavg()[0]
            print(f"| {method:<12} | {f'{size}x{size}':>9} | {ours:>9.2e} | {theirs:>9.2e} | "
                  f"{theirs / ours:>6.1f}x | {agree:<14} | {load:>5.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
