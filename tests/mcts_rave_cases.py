"""The RAVE searches whose root visits ``tests/data/mcts/rave_root_visits.json`` holds, and
how to run one: shared by ``tests/test_mcts_compact.py`` and the script that recorded the
file (``python tests/mcts_rave_cases.py --record``, run on the plain Python tree before the
compact one was written, commit 8a291e4)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gamesearch.games import get_game
from gamesearch.search import Limit
from gamesearch.search.mcts import MCTS

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "mcts" / "rave_root_visits.json"
#: a mid-game position: the first 30 moves of game 4 of the stored 5 s match against GNU Go
GNUGO_GAMES = DATA / "go" / "gnugo5_games.json"

#: name -> (game spec, moves from the start (GTP vertices / the game's notation), MCTS
#: options, iterations of each of the two searches (the second reuses the tree))
CASES: dict[str, tuple[str, tuple[str, ...] | str, dict[str, Any], int]] = {
    "go9-empty": ("go:size=9", (), {"prior_visits": 20.0, "c": 0.1, "seed": 5}, 700),
    "go9-midgame": ("go:size=9", "gnugo:4:30", {"prior_visits": 20.0, "c": 0.1, "seed": 7},
                    700),
    "go7-no-priors": ("go:size=7", (), {"c": 0.3, "seed": 3}, 500),
    "tictactoe": ("tictactoe", (), {"c": 0.5, "seed": 11}, 400),
    "connect4": ("connect4", ("4", "4"), {"c": 0.3, "seed": 13}, 600),
    "othello": ("othello", (), {"c": 0.4, "seed": 17}, 300),
}


def start(spec: str, moves: tuple[str, ...] | str) -> tuple[Any, Any]:
    game = get_game(spec)
    s = game.initial_state()
    if isinstance(moves, str):  # "gnugo:GAME:PLIES"
        _, number, plies = moves.split(":")
        record = json.loads(GNUGO_GAMES.read_text())["games"][number]["moves"]
        moves = tuple(record[:int(plies)])
    for m in moves:
        s = game.result(s, game.parse_action(s, m))
    return game, s


def run_case(name: str, **internals: Any) -> list[dict[str, Any]]:
    """Two searches of the case (the second from the position after the first's move,
    reusing the tree): each one's root visits, principal line and reused visits.
    ``internals`` set the searcher's private switches (``_compact=False``: the plain
    tree)."""
    spec, moves, options, iterations = CASES[name]
    game, s = start(spec, moves)
    searcher = MCTS(game, rave=True, **options)
    for key, value in internals.items():
        setattr(searcher, key, value)
    out = []
    for _ in range(2):
        r = searcher.search(s, Limit(nodes=iterations))
        out.append({"visits": [ch["visits"] for ch in r.extra["root_children"]],
                    "pv": [game.format_action(s, a) for a in r.pv[:1]],
                    "reused": r.extra["reused_visits"]})
        s = game.result(s, r.action)
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/mcts_rave_cases.py --record")
    lines = [f" {json.dumps(name)}: {json.dumps(run_case(name))}" for name in CASES]
    GOLDEN.write_text(
        '{"source": "recorded by tests/mcts_rave_cases.py --record from the plain Python '
        'RAVE tree (search/mcts.py at commit 8a291e4, before the compact tree)",\n'
        '"cases": {\n' + ",\n".join(lines) + "\n}}\n")
    print(f"wrote {GOLDEN}")
