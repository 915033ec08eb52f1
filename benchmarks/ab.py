"""A/B speed check of two source trees of gamesearch, side by side in one run.

    python benchmarks/ab.py --base /tmp/base-tree [--rounds 5]

Runs the same searches on the library of this checkout (``src/``) and on the ``--base``
tree (e.g. ``git worktree add /tmp/base-tree <commit>``; build its chess kernels with
``python setup.py build_ext --inplace`` there for the chess row), alternating the two in
fresh child processes, ``--rounds`` times each, and prints nodes, the best CPU seconds of
each and the ratio. Node counts must be identical (the script says so when they are not):
a refactoring that keeps the algorithm keeps every count.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: name -> Python code run in a child; it prints one JSON line {"nodes": N, "cpu": S}
WORKS: dict[str, str] = {
    "tic-tac-toe minimax (full tree)": """
g = get_game("tictactoe"); s = g.initial_state()
r, cpu = timed(lambda: search(g, s, "minimax", discount=False))
""",
    "tic-tac-toe alpha-beta, no discount": """
g = get_game("tictactoe"); s = g.initial_state()
r, cpu = timed(lambda: search(g, s, "alphabeta", discount=False))
""",
    "Connect Four alpha-beta depth 8": """
g = get_game("connect4"); s = g.initial_state()
r, cpu = timed(lambda: search(g, s, "alphabeta", Limit(depth=8)))
""",
    "Connect Four negamax (plain) depth 8": """
g = get_game("connect4"); s = g.initial_state()
r, cpu = timed(lambda: search(g, s, "negamax", Limit(depth=8)))
""",
    "Connect Four id depth 10": """
g = get_game("connect4"); s = g.initial_state()
r, cpu = timed(lambda: search(g, s, "id", Limit(depth=10)))
""",
    "Connect Four CPython solver, 300 positions of Test_L2_R1": """
from gamesearch.search.solve import solve
g = get_game("connect4")
rows = [l.split()[0] for l in open(DATA + "/connect4/Test_L2_R1").read().splitlines()[:300]]
states = [g.parse_state(m) for m in rows]
def run():
    class R: nodes = 0
    for st in states:
        x = solve(g, st, best_moves=False)
        R.nodes += x["nodes"] if isinstance(x, dict) else x.nodes
    return R
r, cpu = timed(run)
""",
    # MCTS: the nodes column is the tree's size (nodes created), which every step of every
    # iteration decides; seeded iteration budgets repeat exactly. The compiled playout
    # (numba) leaves the tree's Python code most of the time, so the split of the steps
    # shows there; fast=0 and Pig (chance, plain playouts) weigh it against the playouts.
    "Connect Four mcts 60,000 iterations, seed 1 (nodes: tree size)": """
from gamesearch.search import make_searcher
g = get_game("connect4"); s = g.initial_state(); m = make_searcher(g, "mcts", seed=1)
def run():
    class R: nodes = m.search(s, Limit(nodes=60_000)).extra["tree_size"]
    return R
r, cpu = timed(run)
""",
    "Connect Four mcts fast=0, puct, transpositions, 20,000 iterations (tree size)": """
from gamesearch.search import make_searcher
g = get_game("connect4"); s = g.initial_state()
m = make_searcher(g, "mcts", seed=1, fast=False, puct=True, transpositions=True)
def run():
    class R: nodes = m.search(s, Limit(nodes=20_000)).extra["tree_size"]
    return R
r, cpu = timed(run)
""",
    "Pig mcts 20,000 iterations, seed 1 (tree size)": """
from gamesearch.search import make_searcher
g = get_game("pig"); s = g.initial_state(); m = make_searcher(g, "mcts", seed=1)
def run():
    class R: nodes = m.search(s, Limit(nodes=20_000)).extra["tree_size"]
    return R
r, cpu = timed(run)
""",
    "chess id depth 5 (start position, kiwipete)": """
g = get_game("chess")
fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
# the root marked as a search's (chess's repetition rule): by the search driver since the
# game protocol's search_start hook, by hand before it (a tree without the hook)
mark = getattr(g, "search_root", None) or (lambda s: s)
def run():
    class R: nodes = 0
    for f in fens:
        R.nodes += search(g, mark(g.parse_state(f)), "id", Limit(depth=5)).nodes
    return R
r, cpu = timed(run)
""",
}

PRELUDE = """
import gc, json, time, sys
from gamesearch.games import get_game
from gamesearch.search import search, Limit
DATA = %r
def timed(fn):
    gc.collect()
    t = time.process_time()
    r = fn()
    return r, time.process_time() - t
"""


def run_one(tree: Path, code: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    script = PRELUDE % str(HERE / "tests" / "data") + code + \
        "\nprint(json.dumps({'nodes': r.nodes, 'cpu': cpu}))\n"
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, type=Path, help="the other source tree")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="substring of the work names to run")
    args = ap.parse_args()
    print("| work | nodes (both) | base CPU s | this CPU s | this ÷ base speed |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, code in WORKS.items():
        if args.only and args.only not in name:
            continue
        best = {"base": float("inf"), "this": float("inf")}
        nodes: dict[str, float] = {}
        try:
            for _ in range(args.rounds):
                for label, tree in (("base", args.base), ("this", HERE)):
                    r = run_one(tree, code)
                    nodes[label] = r["nodes"]
                    best[label] = min(best[label], r["cpu"])
        except RuntimeError as exc:
            print(f"| {name} | — | — | — | not run: {exc} |")
            continue
        same = "" if nodes["base"] == nodes["this"] else \
            f" (NODES DIFFER: base {nodes['base']:,.0f})"
        print(f"| {name} | {nodes['this']:,.0f}{same} | {best['base']:.3f} | "
              f"{best['this']:.3f} | {best['base'] / best['this']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
