"""GNU Go judges the arena's Go games: each stored game's moves are replayed into GNU Go
3.8 (over GTP, with the flags the arena starts it with: Chinese rules, positional superko,
``--capture-all-dead``) and its ``final_score``, which judges dead stones, is set beside
the arena's result, the rules' area count of the final board (every stone on it alive).

    .venv/bin/python benchmarks/go_judge.py STORE.sqlite [STORE2.sqlite ...]

A win counted by the area count in a position GNU Go scores the other way would be an
artefact of the count (dead stones left on the board), not strength: this is how the
match against GNU Go of docs/results/go.md was checked. Prints a line a store (games,
agreements) and one a disagreeing game; exit code 1 if any disagree.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from gamesearch.arena.store import Store
from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.games.go import Go
from gamesearch.games.go.gtp import GTPClient, gnugo_argv


def judge(client: GTPClient, game: Go, moves: list[str]) -> tuple[str, str]:
    """(the winner by GNU Go's ``final_score``, ``B``/``W``/``0``; the score text)."""
    client.send(f"boardsize {game.size}")
    client.send("clear_board")
    client.send(f"komi {game.komi:g}")
    state = game.initial_state()
    if game.handicap:
        client.send(f"fixed_handicap {game.handicap}")
    for move in moves:
        colour = "B" if game.to_move(state) == 0 else "W"
        client.send(f"play {colour} {move}")
        state = game.result(state, game.parse_action(state, move))
    score = client.send("final_score").strip()
    return (score[0] if score[:1] in ("B", "W") else "0"), score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stores", nargs="+", help="arena results files of Go tournaments")
    parser.add_argument("--gnugo", default=None, help="GNU Go's path (default: found)")
    parser.add_argument("--level", type=int, default=10, help="GNU Go's level")
    args = parser.parse_args(argv)
    gnugo = args.gnugo or shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if gnugo is None:
        print("gnugo not found (apt-get install gnugo)", file=sys.stderr)
        return 2
    client = GTPClient(gnugo_argv(gnugo, args.level))
    disagreements = 0
    try:
        for path in args.stores:
            store = Store.open_readonly(path)
            try:
                for tournament in store.list_tournaments():
                    game = get_game(tournament["game"])
                    if not isinstance(game, Go):
                        print(f"{path}: {tournament['game']} is not Go; skipped")
                        continue
                    agree = total = 0
                    for record in store.games(tournament["id"]):
                        if record.start_position or record.opening_plies:
                            continue  # (games from an opening: not replayed here)
                        winner, score = judge(client, game, record.moves)
                        counted = ("B" if record.scores[0] > record.scores[1] else
                                   "W" if record.scores[1] > record.scores[0] else "0")
                        total += 1
                        if winner == counted:
                            agree += 1
                        else:
                            disagreements += 1
                            print(f"  game {record.game_no}: area count {counted}, "
                                  f"GNU Go's final_score {score} ({len(record.moves)} plies)")
                    print(f"{path}: {tournament['game']}: {total} games, GNU Go's "
                          f"final_score names the area count's winner in {agree}")
            finally:
                store.close()
    except GameError as exc:
        print(f"go_judge: {exc}", file=sys.stderr)
        return 2
    finally:
        client.close()
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
