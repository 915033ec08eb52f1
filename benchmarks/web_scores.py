"""The web app's "score every move" (``/api/scores``) on Connect Four: how many columns get
their exact score, from where, and how long a position takes.

Each position's seven moves are scored as the endpoint does
(:func:`gamesearch.interfaces.analysis.move_scores` with the package's opening book and the
compiled solver, the server's budget: ``--seconds`` for the whole position). Positions: the
start, ``4455``, and at plies 8, 12, 15 and 20 one line where both sides play the book's
moves (``book``) and lines of seeded random moves (``random``, off the book's lines). One row
per position: its moves, the columns with an exact score out of the legal ones, where they
came from (end of game / book / solver), and the wall time.

    .venv/bin/python benchmarks/web_scores.py [--seconds 10] [--random 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from gamesearch.games import get_game
from gamesearch.interfaces.analysis import move_scores
from gamesearch.search import Limit

PLIES = (8, 12, 15, 20)


def book_line(game: Any, plies: int) -> str:
    """Both sides play the book's move while it has one, then the first legal column."""
    book = game.opening_book(None)
    s, moves = game.initial_state(), ""
    while len(moves) < plies:
        entry = book.lookup(s)
        a = entry.move if entry is not None else game.actions(s)[0]
        moves += game.format_action(s, a)
        s = game.result(s, a)
    return moves


def random_line(game: Any, plies: int, rng: random.Random) -> str:
    """Random columns, never one that ends the game."""
    while True:
        s, moves = game.initial_state(), ""
        while len(moves) < plies:
            options = [a for a in game.actions(s) if not game.is_terminal(game.result(s, a))]
            if not options:
                break
            a = rng.choice(options)
            moves += game.format_action(s, a)
            s = game.result(s, a)
        if len(moves) == plies:
            return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="budget of one position (the server's cap: 10)")
    parser.add_argument("--random", type=int, default=2, help="random lines per ply")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("connect4")
    fast = game.fast_solver()
    if fast is None:
        raise SystemExit("needs numba (the fast extra): the compiled solver")
    fast.solve(game.parse_state("4444443"))  # compile before timing
    rng = random.Random(args.seed)
    rows: list[tuple[str, str]] = [("start", ""), ("issue", "4455")]
    for plies in PLIES:
        rows.append(("book", book_line(game, plies)))
        rows += [("random", random_line(game, plies, rng)) for _ in range(args.random)]
    print(f"budget {args.seconds:g} s per position; scores: exact/legal; "
          "from: e(nd) b(ook) s(olver); ? unknown (w/d/l: the book's sign)")
    print(f"{'ply':>3} {'line':<6} {'moves':<20} {'exact':>5} {'from':<8} {'seconds':>7}  scores")
    for kind, moves in rows:
        s = game.parse_state(moves)
        t0 = time.perf_counter()
        items = move_scores(game, s, fast=fast, limit=Limit(time=args.seconds), book="on")
        took = time.perf_counter() - t0
        exact = sum(i["score"] is not None for i in items)
        sources = Counter(str(i["source"])[0] for i in items if i["source"])
        scores = " ".join(f"{i['move']}:{i['score']}" if i["score"] is not None else
                          f"{i['move']}:?{i.get('result', '')[:1]}" for i in items)
        print(f"{len(moves):>3} {kind:<6} {moves or '-':<20} {exact:>2}/{len(items):<2} "
              f"{' '.join(f'{k}{v}' for k, v in sorted(sources.items())):<8} {took:>7.2f}  "
              f"{scores}", flush=True)


if __name__ == "__main__":
    main()
