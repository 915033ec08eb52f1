"""Cross-validation of the Texel tuner's L2 pull (``gamesearch tune chess --l2``): the games
split into folds by game number, each fold's quiet positions predicted by weights tuned on
the other folds; the mean held-out error before and after tuning, per L2 value.

    .venv/bin/python benchmarks/chess_texel_cv.py --db g1.sqlite --db g2.sqlite \\
        --l2 1e-6 3e-6 1e-5 [--folds 4] [--scalars-only]

``--scalars-only`` keeps the piece-square tables at their starting numbers (tunes material,
pawn structure, king shield, bishop pair and tempo). K is fitted on each fold's training
positions, as the tuner does. Positions are chosen as ``gamesearch tune`` chooses them.
"""

from __future__ import annotations

import argparse
import sys
import time

from gamesearch.games.chess import texel
from gamesearch.games.chess.weights import current_weights
from gamesearch.interfaces.chess_tune import collect


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", action="append", required=True)
    ap.add_argument("--l2", type=float, nargs="+", default=[1e-6, 3e-6, 1e-5])
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--scalars-only", action="store_true")
    args = ap.parse_args()
    start = time.process_time()
    rows, sel = collect(args.db, holdout=0)
    w0 = texel.to_vector(current_weights())
    data = texel.with_offsets(texel.build_dataset(rows), w0)
    fixed = [n for n in texel.PARAMS if "_pst." in n] if args.scalars_only else []
    print(f"{len(data)} quiet positions from {sel.games} games; {args.folds} folds by game"
          f"{'; tables fixed' if fixed else ''}")
    for l2 in args.l2:
        before = after = 0.0
        for fold in range(args.folds):
            train = data.subset(data.game % args.folds != fold)
            test = data.subset(data.game % args.folds == fold)
            k = texel.fit_k(train, w0)
            tuned = texel.tune(train, w0, k, args.iterations, l2, fixed).weights
            before += texel.error(test, w0, k) / args.folds
            after += texel.error(test, tuned, k) / args.folds
        print(f"l2 {l2:g}: held-out error {before:.6f} -> {after:.6f} ({after - before:+.6f})",
              flush=True)
    print(f"{time.process_time() - start:.0f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
