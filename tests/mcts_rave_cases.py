"""The RAVE searches whose root visits ``tests/data/mcts/rave_root_visits.json`` holds, and
how to run one: shared by ``tests/test_mcts_compact.py`` and the script that recorded the
file (``python tests/mcts_rave_cases.py --record``, run on the plain Python tree before the
compact one was written, commit 8a291e4; ``go9-refined``, the refined playouts now the
default, on the plain tree beside the compact one, commit 4e8bf44 plus the new defaults)."""

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
#: the playouts as they were when the file was recorded (the four refinements, on by
#: default since, switched off)
OLD_PLAYOUTS = "no_self_atari=0,capture_any=0,uniform_random=0,answer_last=0"
CASES: dict[str, tuple[str, tuple[str, ...] | str, dict[str, Any], int]] = {
    "go9-empty": (f"go:size=9,{OLD_PLAYOUTS}", (),
                  {"prior_visits": 20.0, "c": 0.1, "seed": 5}, 700),
    "go9-midgame": (f"go:size=9,{OLD_PLAYOUTS}", "gnugo:4:30",
                    {"prior_visits": 20.0, "c": 0.1, "seed": 7}, 700),
    "go7-no-priors": (f"go:size=7,{OLD_PLAYOUTS}", (), {"c": 0.3, "seed": 3}, 500),
    # the default playouts (refined), the program's setting: recorded later (see GOLDEN)
    "go9-refined": ("go:size=9", "gnugo:4:30", {"prior_visits": 20.0, "c": 0.0, "seed": 9},
                    700),
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
    # the cases recorded before are kept as they were: only new ones are searched, on the
    # plain Python tree (the compact tree is what the file checks)
    old = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {"source": "", "cases": {}}
    cases = {name: old["cases"].get(name) or run_case(name, _compact=False) for name in CASES}
    lines = [f" {json.dumps(name)}: {json.dumps(cases[name])}" for name in CASES]
    GOLDEN.write_text(
        '{"source": "recorded by tests/mcts_rave_cases.py --record from the plain Python '
        'RAVE tree (search/mcts.py at commit 8a291e4, before the compact tree; go9-refined '
        'at commit 4e8bf44 with the refined playouts made the default)",\n'
        '"cases": {\n' + ",\n".join(lines) + "\n}}\n")
    print(f"wrote {GOLDEN}")
