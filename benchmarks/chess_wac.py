"""Win At Chess (or any EPD suite with bm/am) at a fixed time per position: the solved count.

    .venv/bin/python benchmarks/chess_wac.py                         # all 300 WAC at 1 s
    .venv/bin/python benchmarks/chess_wac.py --sample 30 --time 1    # every 10th position
    .venv/bin/python benchmarks/chess_wac.py --file ../shared/data/chess/bk.epd --time 5
    .venv/bin/python benchmarks/chess_wac.py --verbose               # one line per position
    .venv/bin/python benchmarks/chess_wac.py --option lmr=0          # an engine option off
    .venv/bin/python benchmarks/chess_wac.py --nodes 30000           # fixed nodes: no noise
    .venv/bin/python benchmarks/chess_wac.py --nodes 30000 --weights tuned  # other weights

``--sample N`` takes N positions spread evenly over the file (1st, 11th, 21st, ... for 30 of
300), so a sample's figure is a rough estimate of the whole suite's. Each position gets a
fresh transposition table. With ``--key-file`` the same moves are also scored against a
second key (``wac_new.epd``: the revised solutions; same positions, same order).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

from gamesearch.interfaces.uci_engine import EpdResult, read_epd, run_epd
from gamesearch.search import parse_spec

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "chess"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default=str(DATA / "wac.epd"))
    ap.add_argument("--key-file", default=None,
                    help="a second EPD with the same positions and other solutions")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position")
    ap.add_argument("--nodes", type=int, default=None,
                    help="nodes per position instead of time (reproducible on a busy machine)")
    ap.add_argument("--sample", type=int, default=None, help="N positions spread evenly")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an option of the id search (as in a spec: lmr=0, null_move=0, ...)")
    ap.add_argument("--weights", default=None, metavar="FILE|NAME",
                    help="the evaluation's weights: a weights file or pesto/tuned")
    args = ap.parse_args()
    if args.weights:
        from gamesearch.games.chess.weights import apply_weights, load_weights

        apply_weights(load_weights(args.weights))
    _, options, _ = parse_spec("id:" + ",".join(args.option))
    lines = read_epd(args.file)
    if args.sample and args.sample < len(lines):
        step = len(lines) / args.sample
        lines = [lines[int(i * step)] for i in range(args.sample)]
    keys: dict[int, tuple[list[chess.Move], list[chess.Move]]] = {}
    if args.key_file:
        for number, line in read_epd(args.key_file):
            _, ops = chess.Board.from_epd(line)
            bm, am = ops.get("bm", []), ops.get("am", [])
            keys[number] = (bm if isinstance(bm, list) else [],
                            am if isinstance(am, list) else [])
    second = 0

    def show(r: EpdResult) -> None:
        nonlocal second
        if r.number in keys:
            bm, am = keys[r.number]
            move = chess.Move.from_uci(r.move) if r.move != "0000" else None
            second += (not bm or move in bm) and move not in am
        if args.verbose:
            print(f"{r.id:<10} {r.san:<8} {'ok' if r.solved else '--':<3} "
                  f"bm {' '.join(r.best):<14} depth {r.depth:>2} {r.nodes:>8} nodes "
                  f"{r.score}", flush=True)

    start = time.perf_counter()
    seconds = None if args.nodes else args.time
    results = run_epd(lines, seconds, show, nodes=args.nodes, **options)
    elapsed = time.perf_counter() - start
    solved = sum(r.solved for r in results)
    nodes = sum(r.nodes for r in results)
    depth = sum(r.depth for r in results) / len(results)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.time:g} s"
    print(f"{Path(args.file).name}: solved {solved}/{len(results)} at {budget} per "
          f"position (mean depth {depth:.1f}, {nodes / elapsed:.0f} nodes/s, "
          f"{elapsed:.0f} s){' with ' + ', '.join(args.option) if args.option else ''}"
          f"{' weights ' + args.weights if args.weights else ''}")
    if args.key_file:
        print(f"  against {Path(args.key_file).name}: {second}/{len(results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
