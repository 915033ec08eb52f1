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
every position it generates, full boards included.)

    .venv/bin/python benchmarks/othello_ffo.py                      # #40-#59, 600 s cap
    .venv/bin/python benchmarks/othello_ffo.py --ids 40-49 --cap 300 --tt 16M
    .venv/bin/python benchmarks/othello_ffo.py --ids 1-39 --cap 60  # the easier suite
    .venv/bin/python benchmarks/othello_ffo.py --ids 20 --python    # the plain Python path

Exit status 1 if a solved position's score or move disagrees with the suite.
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


def solve_one(pid: int, tt: str, python: bool, best_moves: bool) -> dict[str, Any]:
    """Solve one position in this process (the child's side of :func:`run`)."""
    from gamesearch.games.othello import Othello
    from gamesearch.search.solve import Solver

    game = Othello()
    state = game.parse_state(suite()[pid]["position"])
    if python:
        r = Solver(game, tt).solve(state, best_moves=best_moves)
        data = {"value": r.value, "move": r.action, "moves": r.best_actions,
                "nodes": r.nodes, "seconds": r.seconds}
    else:
        from gamesearch.games.othello import compiled

        if not compiled.available():
            raise SystemExit("numba is not installed: use --python")
        # load the compiled code and allocate the table before the clock starts
        compiled.SOLVER.solve(suite()[20]["position"], tt_capacity=tt)
        data = compiled.SOLVER.solve(state, best_moves=best_moves, tt_capacity=tt)
    data["move"] = game.format_action(state, data["move"])
    data["moves"] = [game.format_action(state, a) for a in data["moves"]]
    return data


def run(pid: int, args: argparse.Namespace) -> dict[str, Any] | None:
    """Solve ``pid`` in a fresh process under the time cap; None when it ran out."""
    cmd = [sys.executable, __file__, "--child", str(pid), "--tt", args.tt]
    cmd += ["--python"] if args.python else []
    cmd += ["--best-moves"] if args.best_moves else []
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.cap,
                              check=True)
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"#{pid}: the solver failed:\n{exc.stderr}") from None
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


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
        print(json.dumps(solve_one(args.child, args.tt, args.python, args.best_moves)))
        return 0
    cases, reference = suite(), edax()
    print(f"# FFO, solver: {'python' if args.python else 'compiled'}, table {args.tt}, cap "
          f"{args.cap:g} s per position, data {data_dir()}", flush=True)
    if not args.json:
        print(f"{'id':>3} {'emp':>3} {'score':>5} {'ours':>5} {'move':<5} {'best':<12} "
              f"{'nodes':>14} {'seconds':>9} {'nodes/s':>11} {'edax nodes':>14} "
              f"{'ours/edax':>9}", flush=True)
    bad = solved = within3 = 0
    ratios: list[float] = []
    seconds = 0.0
    for pid in parse_ids(args.ids):
        case = cases[pid]
        start = time.perf_counter()
        got = run(pid, args)
        wall = time.perf_counter() - start
        ed = reference.get(pid)
        row: dict[str, Any] = {"id": pid, "empties": case["empties"], "score": case["score"],
                               "best": case["best"], "edax_nodes": ed[0] if ed else None}
        if got is None:
            row.update(solved=False, cap=args.cap)
        else:
            ok = got["value"] == case["score"] and got["move"] in case["best"]
            if args.best_moves:
                ok = ok and sorted(got["moves"]) == sorted(case["best"])
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
    print(("# " if not args.json else "") + summary + (f"; {bad} WRONG" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
