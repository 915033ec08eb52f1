"""The FFO endgame suite with the library's exact solver, beside Edax 4.5.5's node counts.

Each position is solved by the game's fast solver (``games/othello/compiled.py``: Edax's
endgame search on bitboards, tested against the plain path's scores and best moves;
``--python`` runs the plain path, ``gamesearch.search.solve``, itself) in a fresh process,
with a cap on its time: a position not solved in time is reported as such. Per position:
the exact score against the suite's, our move against the suite's best-move set, nodes,
seconds, nodes per second, and the ratio of our nodes to Edax's
(``../shared/data/othello/edax_ffo40_59.csv``, a 16-thread Edax 4.5.5 run). The fast
solver counts nodes as Edax does: every position searched, the root included, that is
every position with an empty square (the last move is scored, its full board not
entered); the best-move probes are not counted, as in Edax's log. (The plain path counts
every position it generates, full boards included.) With ``--best-moves`` the compiled
solver probes every move after the solve, its table kept; when the cap ends that phase
alone the row says the best-move set went unchecked (on #59, a wipe-out, the score is
proved in a few thousand nodes, but each other move needs a full solve to be shown worse).

    .venv/bin/python benchmarks/othello_ffo.py                      # #40-#59, 600 s cap
    .venv/bin/python benchmarks/othello_ffo.py --ids 40-49 --cap 300 --tt 16M
    .venv/bin/python benchmarks/othello_ffo.py --ids 1-39 --cap 60  # the easier suite
    .venv/bin/python benchmarks/othello_ffo.py --ids 20 --python    # the plain Python path

Exit status 1 if a solved position's score, move or best-move set disagrees with the suite.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "othello"
TESTS = Path(__file__).resolve().parents[1] / "tests" / "data" / "othello"


def data_dir() -> Path:
    return SHARED if (SHARED / "ffo.txt").exists() else TESTS


def suite() -> dict[int, dict[str, Any]]:
    out = {}
    for name in ("ffo_1_39.txt", "ffo.txt"):
        for line in (data_dir() / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                f = line.split()
                out[int(f[0])] = {"empties": int(f[1]), "position": f"{f[2]} {f[3]}",
                                  "score": int(f[4]), "best": f[5].lower().split(",")}
    return out


def edax() -> dict[int, tuple[int, float]]:
    out = {}
    for line in (data_dir() / "edax_ffo40_59.csv").read_text().splitlines():
        if line and line[0].isdigit():
            pid, nodes, seconds = line.split(",")
            out[int(pid)] = (int(nodes), float(seconds))
    return out


def parse_ids(text: str) -> list[int]:
    ids: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        ids.extend(range(int(a), int(b or a) + 1))
    return ids


def solve_one(pid: int, tt: str, python: bool, best_moves: bool) -> None:
    """Solve one position in this process (the child's side of :func:`run`), printing one
    JSON line for the solve and, with ``best_moves``, a second one with every best move
    (the compiled solver probes each move after the solve, its table kept, so the cap may
    end that phase alone: some positions prove their score in a few nodes but need a full
    solve per other move to show it is not as good)."""
    from gamesearch.games.othello import Othello
    from gamesearch.search.solve import Solver

    game = Othello()
    state = game.parse_state(suite()[pid]["position"])

    def emit(data: dict[str, Any]) -> None:
        data["move"] = game.format_action(state, data["move"])
        data["moves"] = [game.format_action(state, a) for a in data["moves"]]
        print(json.dumps(data), flush=True)

    if python:
        r = Solver(game, tt).solve(state, best_moves=best_moves)
        emit({"value": r.value, "move": r.action, "moves": r.best_actions, "nodes": r.nodes,
              "seconds": r.seconds, "all_moves": best_moves})
        return
    from gamesearch.games.othello import compiled

    if not compiled.available():
        raise SystemExit("numba is not installed: use --python")
    # load the compiled code and allocate the table before the clock starts
    compiled.SOLVER.solve(suite()[20]["position"], tt_capacity=tt)
    emit(compiled.SOLVER.solve(state, tt_capacity=tt) | {"all_moves": False})
    if best_moves:
        emit(compiled.SOLVER.solve(state, best_moves=True, keep_table=True, tt_capacity=tt)
             | {"all_moves": True})


def run(pid: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Solve ``pid`` in a fresh process under the time cap: the lines it printed in time
    (none: not solved; one when ``--best-moves`` asked for two: the best-move probes ran
    out of time)."""
    cmd = [sys.executable, __file__, "--child", str(pid), "--tt", args.tt]
    cmd += ["--python"] if args.python else []
    cmd += ["--best-moves"] if args.best_moves else []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        try:
            out, err = proc.communicate(timeout=args.cap)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()  # what it printed before the cap
        else:
            if proc.returncode != 0:
                raise SystemExit(f"#{pid}: the solver failed:\n{err}")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ids", default="40-59", help="positions, e.g. 40-49 or 1-39,41")
    ap.add_argument("--cap", type=float, default=600.0, help="seconds per position")
    ap.add_argument("--tt", default="4M", help="table entries (default 4M, the solver's)")
    ap.add_argument("--python", action="store_true", help="the plain Python solver")
    ap.add_argument("--best-moves", action="store_true",
                    help="find every best move (more probes, not counted in the nodes)")
    ap.add_argument("--json", action="store_true", help="one JSON object per position")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        solve_one(args.child, args.tt, args.python, args.best_moves)
        return 0
    cases, reference = suite(), edax()
    print(f"# FFO, solver: {'python' if args.python else 'compiled'}, table {args.tt}, cap "
          f"{args.cap:g} s per position, data {data_dir()}", flush=True)
    if not args.json:
        print(f"{'id':>3} {'emp':>3} {'score':>5} {'ours':>5} {'move':<5} {'best':<12} "
              f"{'nodes':>14} {'seconds':>9} {'nodes/s':>11} {'edax nodes':>14} "
              f"{'ours/edax':>9}", flush=True)
    bad = solved = within3 = unchecked = 0
    ratios: list[float] = []
    seconds = 0.0
    for pid in parse_ids(args.ids):
        case = cases[pid]
        start = time.perf_counter()
        lines = run(pid, args)
        wall = time.perf_counter() - start
        ed = reference.get(pid)
        row: dict[str, Any] = {"id": pid, "empties": case["empties"], "score": case["score"],
                               "best": case["best"], "edax_nodes": ed[0] if ed else None}
        if not lines:
            row.update(solved=False, cap=args.cap)
        else:
            got = lines[0]
            ok = got["value"] == case["score"] and got["move"] in case["best"]
            every = lines[-1] if lines[-1]["all_moves"] else None
            if every is not None:
                row["moves"] = every["moves"]
                ok = ok and every["value"] == got["value"] and sorted(every["moves"]) == sorted(
                    case["best"])
            elif args.best_moves:
                row["moves"] = None  # the probes ran out of time: the set is unchecked
                unchecked += 1
            bad += not ok
            solved += 1
            seconds += got["seconds"]
            row.update(solved=True, value=got["value"], move=got["move"], ok=ok,
                       nodes=got["nodes"], seconds=round(got["seconds"], 3),
                       nps=round(got["nodes"] / max(got["seconds"], 1e-9)), wall=round(wall, 1))
            if ed:
                row["ratio"] = got["nodes"] / ed[0]
                ratios.append(row["ratio"])
                within3 += row["ratio"] <= 3.0
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        best = ",".join(case["best"])
        edax_text = f"{ed[0]:>14,}" if ed else f"{'-':>14}"
        if not row["solved"]:
            print(f"{pid:>3} {case['empties']:>3} {case['score']:>+5} {'-':>5} {'-':<5} "
                  f"{best:<12} {'not solved in ' + format(args.cap, 'g') + ' s':>36} "
                  f"{'':>11} {edax_text}", flush=True)
            continue
        mark = "" if row["ok"] else "  WRONG"
        if args.best_moves and row.get("moves") is None:
            mark += f"  (best set not checked: the probes ran out of the {args.cap:g} s)"
        ratio = f"{row['ratio']:>9.2f}" if "ratio" in row else f"{'-':>9}"
        print(f"{pid:>3} {case['empties']:>3} {case['score']:>+5} {got['value']:>+5} "
              f"{got['move']:<5} {best:<12} {got['nodes']:>14,} {got['seconds']:>9.2f} "
              f"{row['nps']:>11,} {edax_text} {ratio}{mark}", flush=True)
    total = len(parse_ids(args.ids))
    summary = f"solved {solved}/{total} in {seconds:.1f} s"
    if ratios:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        summary += (f"; nodes/Edax: geometric mean {gm:.2f}, within 3x: {within3}/"
                    f"{len(ratios)} solved with a reference")
    if unchecked:
        summary += f"; {unchecked} best-move set(s) unchecked in the cap"
    print(("# " if not args.json else "") + summary + (f"; {bad} WRONG" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
