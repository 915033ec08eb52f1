"""Learn the pattern table of Go's priors from games of GNU Go (the seeds' "pattern
knowledge bases"), reproducibly:

    python -m gamesearch.games.go.train --gnugo /usr/games/gnugo --games 200 --level 1 \\
        --seed 1 --out src/gamesearch/games/go/data/patterns.json

GNU Go (``--chinese-rules --positional-superko --capture-all-dead``, at ``--level``) plays
``--games`` games against itself on ``--size`` (9), each from ``--opening`` (4) random moves
drawn with ``--seed``, so that the games differ. At every position of those games, every
legal move's feature (:mod:`.patterns`: its canonical 3x3 code, "captures", "saves") counts
as *offered*, and the move GNU Go played as *chosen*. A feature's weight is its smoothed
choice rate over the mean rate (the frequency estimate of Bouzy & Chaslot 2005, a
simplification of Coulom's 2007 Bradley-Terry "Elo ratings of move patterns")::

    weight(f) = ((chosen(f) + a * m) / (offered(f) + a)) / m,   m = sum chosen / sum offered

with ``a`` = ``--smoothing`` (10): a feature never seen weighs 1. The pass is one more
feature. The table (features seen at least ``--min-offered`` times) and the training log
(the command, the counts, the most and least favoured features) go to ``--out`` and the
same name with ``.log``. The priors of a move are the weights normalised over the legal
moves (:meth:`.fast.GoKernels.priors`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from .fast import kernels
from .gtp import GTPClient, gnugo_argv
from .patterns import feature_name
from .rules import Go, GoState


def random_opening(game: Go, client: GTPClient, rng: random.Random, moves: int) -> GoState:
    """``moves`` uniformly random moves (never a pass) from the start, played on our board
    and sent to the GTP engine ``client`` (whose board must be clear): the varied openings
    of the games played against GNU Go."""
    s = game.initial_state()
    for _ in range(moves):
        legal = [a for a in game.actions(s) if a != game.pass_action]
        a = legal[rng.randrange(len(legal))]
        client.send(f"play {'bw'[s.to_move]} {game.vertex(a)}")
        s = game.result(s, a)
    return s


def play_games(path: str, games: int, size: int, level: int, opening: int, seed: int,
               log: list[str]) -> tuple[Counter[int], Counter[int], int, int]:
    """(offered, chosen, positions, passes chosen) over GNU Go's games; -1 is the pass."""
    game = Go(size=size, priors=False)
    k = kernels(game)
    rng = random.Random(seed)
    offered: Counter[int] = Counter()
    chosen: Counter[int] = Counter()
    positions = 0
    client = GTPClient([*gnugo_argv(path, level)])
    try:
        client.send(f"boardsize {size}")
        client.send(f"komi {game.komi:g}")
        for g in range(games):
            client.send("clear_board")
            s = random_opening(game, client, rng, opening)
            while not game.is_terminal(s) and s.moves < 3 * game.points:
                answer = client.send(f"genmove {'bw'[s.to_move]}", timeout=300.0)
                if answer.lower() == "resign":
                    break
                a = game.parse_action(s, answer)
                actions = game.actions(s)
                features = k.features(s, actions)
                for f in features:
                    offered[f] += 1
                chosen[features[actions.index(a)]] += 1
                positions += 1
                s = game.result(s, a)
            if (g + 1) % 10 == 0:
                log.append(f"  {g + 1} games, {positions} positions")
                print(log[-1], file=sys.stderr)
    finally:
        client.close()
    return offered, chosen, positions, chosen[-1]


def weights(offered: Counter[int], chosen: Counter[int], smoothing: float,
            min_offered: int) -> tuple[dict[int, float], float]:
    """The weights of the features offered at least ``min_offered`` times, and the pass's."""
    mean = sum(chosen.values()) / max(sum(offered.values()), 1)
    out = {}
    for f, n in offered.items():
        if n >= min_offered:
            out[f] = ((chosen[f] + smoothing * mean) / (n + smoothing)) / mean
    pass_weight = out.pop(-1, 1.0)
    return out, pass_weight


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gamesearch.games.go.train",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoothing", type=float, default=10.0)
    parser.add_argument("--min-offered", type=int, default=5)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    command = "python -m gamesearch.games.go.train " + " ".join(
        sys.argv[1:] if argv is None else argv)
    log = [f"command: {command}", f"started: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}"]
    t0 = time.perf_counter()
    offered, chosen, positions, passes = play_games(args.gnugo, args.games, args.size,
                                                    args.level, args.opening, args.seed, log)
    table, pass_weight = weights(offered, chosen, args.smoothing, args.min_offered)
    seconds = time.perf_counter() - t0
    meta = {"games": args.games, "size": args.size, "gnugo_level": args.level,
            "opening_moves": args.opening, "seed": args.seed, "positions": positions,
            "features_offered": len(offered), "features_kept": len(table),
            "smoothing": args.smoothing, "min_offered": args.min_offered,
            "seconds": round(seconds, 1), "command": command}
    Path(args.out).write_text(json.dumps(
        {"meta": meta, "pass_weight": round(pass_weight, 5),
         "weights": {str(f): round(w, 5) for f, w in sorted(table.items())}},
        indent=0, sort_keys=True) + "\n", encoding="utf-8")
    ranked = sorted(table.items(), key=lambda fw: -fw[1])
    log += [f"positions: {positions}, passes chosen: {passes}, features offered: "
            f"{len(offered)}, kept (offered >= {args.min_offered}): {len(table)}",
            f"pass weight: {pass_weight:.4f}", f"seconds: {seconds:.1f}",
            "most favoured (weight, chosen/offered, feature):"]
    log += [f"  {w:8.3f} {chosen[f]:6d}/{offered[f]:<7d} {feature_name(f)}"
            for f, w in ranked[:25]]
    log.append("least favoured:")
    log += [f"  {w:8.3f} {chosen[f]:6d}/{offered[f]:<7d} {feature_name(f)}"
            for f, w in ranked[-10:]]
    Path(args.out).with_suffix(".log").write_text("\n".join(log) + "\n", encoding="utf-8")
    print("\n".join(log[-40:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
