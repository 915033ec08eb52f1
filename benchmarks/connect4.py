"""Connect Four solver benchmark: explored nodes and time per reference set, against Pons.

Runs gamesearch's exact solver (the generic negamax configured as a solver; pure CPython
and, when numba is installed, the compiled path) over Pascal Pons's test sets in
``../shared/data/connect4`` and prints per set: positions, mean and median explored nodes,
mean time, nodes/s, and the ratios to Pons's C++ solver from ``pons_reference.csv``
(measured with his solver, no opening book). With ``--peers`` it also runs easyAI's and
OpenSpiel's searches on the same positions where they can finish within ``--peer-seconds``.

    .venv/bin/python benchmarks/connect4.py                 # default samples
    .venv/bin/python benchmarks/connect4.py --all           # every position of every set
    .venv/bin/python benchmarks/connect4.py --peers --markdown

Every score is checked against the file; a mismatch is reported and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamesearch import get_game
from gamesearch.search.solve import make_solver, solve

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
GAME = get_game("connect4")

# Positions per set by default: (pure Python, compiled). --all raises both to every line.
DEFAULT_LIMITS = {
    "Test_L3_R1": (1000, 1000),
    "Test_L2_R1": (1000, 1000),
    "Test_L2_R2": (40, 1000),
    "Test_L1_R1": (300, 1000),
    "Test_L1_R2": (3, 100),
    "Test_L1_R3": (0, 5),
}


@dataclass
class Row:
    set: str
    impl: str
    positions: int
    mean_nodes: float
    median_nodes: float
    mean_s: float
    nps: float
    wrong: int
    pons_nodes: float | None
    pons_us: float | None
    note: str = ""


def read_set(name: str, limit: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    step = max(1, len(rows) // limit) if limit else 1
    return [(m, int(s)) for m, s in rows[::step][:limit]]


def read_pons() -> dict[str, tuple[float, float]]:
    out = {}
    for line in (DATA / "pons_reference.csv").read_text().splitlines()[1:]:
        c = line.split(",")
        out[c[0]] = (float(c[2]), float(c[4]))
    return out


def run_impl(name: str, impl: str, positions: list[tuple[str, int]],
             solve_one: Callable[[Any], dict[str, Any]], pons: dict[str, tuple[float, float]],
             ) -> Row:
    nodes, secs, wrong = [], 0.0, 0
    for moves, score in positions:
        state = GAME.parse_state(moves)
        t = time.process_time()
        got = solve_one(state)
        secs += time.process_time() - t
        nodes.append(got["nodes"])
        if got["value"] != score:
            wrong += 1
            print(f"  WRONG {name} {moves}: expected {score}, got {got['value']}", file=sys.stderr)
    n = len(positions)
    pn, pus = pons.get(name, (None, None))
    return Row(name, impl, n, sum(nodes) / n, statistics.median(nodes), secs / n,
               sum(nodes) / secs if secs else 0.0, wrong, pn, pus)


def python_solver() -> Callable[[Any], dict[str, Any]]:
    def one(state: Any) -> dict[str, Any]:
        return solve(GAME, state, solver=make_solver(GAME), best_moves=False)
    return one


def compiled_solver() -> Callable[[Any], dict[str, Any]] | None:
    try:
        from gamesearch.search import compiled_connect4 as cc
    except ImportError:
        return None
    if not cc.available():
        return None
    cc.solve_fast(GAME.parse_state("4455"))  # compile (or load the cache) outside the timing

    def one(state: Any) -> dict[str, Any]:
        return dict(cc.solve_fast(state))
    return one


# ----- peers -------------------------------------------------------------------------------
def peer_rows(name: str, positions: list[tuple[str, int]], budget: float) -> list[Row]:
    """easyAI and OpenSpiel searching each position to the end of the game."""
    rows: list[Row] = []
    for label, make in (("easyAI Negamax+TT (to the end)", _easyai),
                        ("OpenSpiel alpha_beta_search (to the end)", _open_spiel)):
        try:
            solver = make()
        except ImportError as exc:
            print(f"  {label}: not installed ({exc})", file=sys.stderr)
            continue
        nodes, secs, wrong, done = [], 0.0, 0, 0
        for moves, score in positions:
            t = time.process_time()
            value, count = solver(moves)
            secs += time.process_time() - t
            nodes.append(count)
            done += 1
            if (value > 0) != (score > 0) or (value < 0) != (score < 0):
                wrong += 1
            if secs > budget:
                break
        note = "" if done == len(positions) else f"stopped after {done} (budget {budget:g} s)"
        rows.append(Row(name, label, done, sum(nodes) / done, statistics.median(nodes),
                        secs / done, sum(nodes) / secs if secs else 0.0, wrong, None, None,
                        note + (" sign only" if not note else "; sign only")))
    return rows


def _open_spiel() -> Callable[[str], tuple[float, int]]:
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.algorithms import minimax  # type: ignore[import-not-found]

    game = pyspiel.load_game("connect_four")

    def one(moves: str) -> tuple[float, int]:
        state = game.new_initial_state()
        for ch in moves:
            state.apply_action(int(ch) - 1)
        count = [0]

        def value_fn(s: Any) -> float:
            return 0.0

        calls = [0]
        real = minimax._alpha_beta

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            return real(*args, **kwargs)

        minimax._alpha_beta = counted
        try:
            player = state.current_player()
            value, _ = minimax.alpha_beta_search(game, state=state, value_function=value_fn,
                                                 maximum_depth=64, maximizing_player_id=player)
        finally:
            minimax._alpha_beta = real
        count[0] = calls[0]
        return value, count[0]

    return one


def _easyai() -> Callable[[str], tuple[float, int]]:
    from easyAI import Negamax, TwoPlayerGame  # type: ignore[import-not-found]
    from easyAI.AI import TranspositionTable  # type: ignore[import-not-found]

    counter = [0]

    class C4(TwoPlayerGame):  # type: ignore[misc]
        def __init__(self, moves: str) -> None:
            self.players = [None, None]
            self.state = GAME.parse_state(moves)
            self.current_player = 1 + (len(moves) & 1)

        def possible_moves(self) -> list[int]:
            return list(GAME.actions(self.state))

        def make_move(self, move: int) -> None:
            counter[0] += 1
            self.history = getattr(self, "history", [])
            self.history.append(self.state)
            self.state = GAME.result(self.state, move)

        def unmake_move(self, move: int) -> None:
            self.state = self.history.pop()

        def lose(self) -> bool:
            u = GAME.terminal_utility(self.state, GAME.to_move(self.state))
            return u is not None and u < 0

        def is_over(self) -> bool:
            return GAME.is_terminal(self.state)

        def scoring(self) -> float:
            return -100 if self.lose() else 0

        def ttentry(self) -> int:
            return GAME.key(self.state)

    def one(moves: str) -> tuple[float, int]:
        counter[0] = 0
        game = C4(moves)
        depth = GAME.plies_left_bound(game.state)
        ai = Negamax(depth, tt=TranspositionTable())
        ai(game)  # returns the move; the value for the side to move is left in ai.alpha
        return float(ai.alpha), counter[0] + 1

    return one


# ----- output ------------------------------------------------------------------------------
def fmt(rows: list[Row], markdown: bool) -> str:
    head = ["set", "solver", "positions", "mean nodes", "median", "mean time", "nodes/s",
            "nodes ÷ Pons", "time ÷ Pons", "wrong"]
    body = []
    for r in rows:
        body.append([
            r.set, r.impl, str(r.positions), f"{r.mean_nodes:,.1f}", f"{r.median_nodes:,.0f}",
            f"{r.mean_s * 1e3:,.2f} ms", f"{r.nps:,.0f}",
            f"{r.mean_nodes / r.pons_nodes:.2f}" if r.pons_nodes else "—",
            f"{r.mean_s * 1e6 / r.pons_us:.1f}" if r.pons_us else "—",
            str(r.wrong) + (f" ({r.note})" if r.note else ""),
        ])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(b) + " |" for b in body]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=False)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths, strict=False))
                     for line in [head, *body])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--all", action="store_true", help="every position of every set")
    p.add_argument("--sets", nargs="*", default=SETS)
    p.add_argument("--pure-limit", type=int, help="positions per set for the Python path")
    p.add_argument("--compiled-limit", type=int, help="positions per set, compiled path")
    p.add_argument("--no-pure", action="store_true")
    p.add_argument("--peers", action="store_true", help="also easyAI and OpenSpiel")
    p.add_argument("--peer-limit", type=int, default=20)
    p.add_argument("--peer-seconds", type=float, default=60.0)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    pons = read_pons()
    compiled = compiled_solver()
    if compiled is None:
        print("compiled path: not available (pip install numba, or gamesearch[fast])",
              file=sys.stderr)
    rows: list[Row] = []
    for name in args.sets:
        pure_n, fast_n = DEFAULT_LIMITS.get(name, (100, 1000))
        if args.all:
            pure_n = fast_n = 1000
        pure_n = args.pure_limit if args.pure_limit is not None else pure_n
        fast_n = args.compiled_limit if args.compiled_limit is not None else fast_n
        if pure_n and not args.no_pure:
            print(f"{name}: pure Python on {pure_n} positions...", file=sys.stderr)
            rows.append(run_impl(name, "gamesearch (CPython)", read_set(name, pure_n),
                                 python_solver(), pons))
        if compiled is not None and fast_n:
            print(f"{name}: compiled on {fast_n} positions...", file=sys.stderr)
            rows.append(run_impl(name, "gamesearch (numba)", read_set(name, fast_n),
                                 compiled, pons))
        if args.peers:
            rows.extend(peer_rows(name, read_set(name, args.peer_limit), args.peer_seconds))
    print(fmt(rows, args.markdown))
    print("\nnodes: explored positions per solve (each negamax call, the root of every probe "
          "included; Pons's convention). Pons: PascalPons/connect4 part12, no book, "
          "pons_reference.csv. Times are CPU seconds on this machine; Pons's are his.")
    return 1 if any(r.wrong and "sign" not in r.note for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
