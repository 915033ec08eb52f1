"""Head-to-head at equal time per move: gamesearch ``mcts`` against OpenSpiel's MCTS bots or
against gamesearch's own alpha-beta engine ``id``.

    .venv/bin/python benchmarks/mcts_match.py connect4 --opponent openspiel --games 200
    .venv/bin/python benchmarks/mcts_match.py connect4 --opponent openspiel-cpp --games 200
    .venv/bin/python benchmarks/mcts_match.py connect4 --opponent id --games 200 --time 0.2
    .venv/bin/python benchmarks/mcts_match.py othello --opponent openspiel-cpp --ours mcts:wdl=1
    .venv/bin/python benchmarks/mcts_match.py othello --ours mcts:wdl=1     # win/loss back-up

Opponents: ``openspiel`` (the Python ``open_spiel.python.algorithms.mcts.MCTSBot`` with
``RandomRolloutEvaluator(1)``, ``uct_c = 2``, the solver on; it has no time limit of its own,
so a subclass stops it at the start of the first simulation past the deadline),
``openspiel-cpp`` (the C++ ``pyspiel.MCTSBot``, stopped by its ``max_wall_clock_time``), or
any gamesearch agent spec (``id``, ``alphabeta:depth=4``, ``mcts:c=1``...), which gets
``time=`` added when it names no limit. Ours is ``--ours`` (default ``mcts``, the tree kept
between moves) with ``time=--time`` added the same way. OpenSpiel's Othello scores win/loss
(±1) while ours (the FFO convention) scores the disc difference: ``--ours mcts:wdl=1`` makes
our search back up win/draw/loss as well.

Every game starts from the initial position; colours alternate (ours first in even-numbered
games); each game has its own seeds (``--seed`` + game number) for both sides, so a run
repeats its games' setup, though wall-clock limits make the moves themselves vary. Against
OpenSpiel both sides see the same game: each move is applied to our state and to a pyspiel
state, translated per game (columns and squares as integers for Connect Four and
tic-tac-toe, the move's text - ``d3``, ``pass`` - for other games). The summary gives wins,
draws and losses of ours, the score (draw = 1/2) with its Wilson 95 % interval, and the Elo
difference with the interval mapped from the Wilson bounds. ``--jsonl FILE`` appends one
line per game; ``mcts_match.py --summarize FILE...`` prints a Markdown row per such file.

Checkers (``checkers --ours id``): OpenSpiel splits a jump chain into one action per jump,
by the same player; its bot searches each jump for the time of a move, and the chain it
picks is our move. Its squares are ours turned round (:func:`spiel_square`). The game ends
at the first draw rule of either library: OpenSpiel's (40 plies without a capture) comes
before ours (80 plies without a capture or a man's move; a third repetition).

Resuming and adjudicating (for long runs; both are recorded in the JSON lines):

* ``--resume`` (with ``--jsonl``) counts the games of that file already played with the same
  game, agents and time, and plays only the missing game numbers (each game's seeds and
  colours come from its number, so a resumed run is the run it continues);
* ``--referee-egdb DIR`` (checkers) opens the endgame database in ``DIR`` as a referee,
  whatever ours uses: each game's line then says how the game ended (``end``), the first
  database position reached (``entered``: its ply, value for the side to move then, its
  distance in plies, and the plies left before OpenSpiel's 40-ply draw rule), so a draw can
  be told apart from a won ending not converted in time;
* ``--adjudicate`` (with ``--referee-egdb``) ends a game at the first database position
  whose result is certain under the rules in force: a database draw (a draw rule only adds
  draws), or a win whose distance fits within the plies left before OpenSpiel's draw rule
  (40 plies without a capture; ours, 80 plies without a capture or a man's move, cannot come
  first); a longer win is played on. This is tablebase adjudication as in chess
  tournaments; it assumes perfect play from there, so it takes the database's help in the
  ending itself out of a comparison (the same adjudication in both runs of a pair).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from typing import Any

from gamesearch import get_game
from gamesearch.agents import make_agent
from gamesearch.arena.ratings import elo_from_score, format_elo, wilson_interval
from gamesearch.game import CHANCE, Game
from gamesearch.search import parse_spec
from gamesearch.search.mcts import MCTS

#: our game name -> OpenSpiel's
OPENSPIEL_NAMES = {"connect4": "connect_four", "tictactoe": "tic_tac_toe", "othello": "othello",
                   "checkers": "checkers"}
#: games whose actions are the same integers in both libraries
SAME_INTEGERS = {"connect4", "tictactoe"}


def with_time(spec: str, seconds: float) -> str:
    """``spec`` with ``time=seconds`` added when it names no limit of its own."""
    _, _, limit = parse_spec(spec)
    if not limit.unlimited:
        return spec
    return spec + ("," if ":" in spec else ":") + f"time={seconds}"


class Translator:
    """Keeps a pyspiel state in step with ours and translates moves both ways."""

    def __init__(self, game: Game[Any, Any], name: str) -> None:
        import pyspiel

        self.game = game
        self.name = name
        self.os_game = pyspiel.load_game(OPENSPIEL_NAMES[name])
        self.state = self.os_game.new_initial_state()

    def reset(self) -> None:
        self.state = self.os_game.new_initial_state()

    def legs(self, os_state: Any) -> dict[tuple[int, int], int]:
        """Checkers: OpenSpiel's actions by the (start, end) squares of their jump or step,
        as our square bits."""
        player = os_state.current_player()
        out = {}
        for x in os_state.legal_actions():
            text = os_state.action_to_string(player, x)
            out[(spiel_square(text[:2]), spiel_square(text[2:4]))] = x
        return out

    def _pairs(self, ours: Any) -> list[tuple[Any, int]]:
        game, os_state = self.game, self.state
        if self.name in SAME_INTEGERS:
            return [(a, a) for a in game.actions(ours)]
        player = os_state.current_player()
        theirs = {os_state.action_to_string(player, x).strip().lower(): x
                  for x in os_state.legal_actions()}
        pairs = []
        for a in game.actions(ours):
            text = game.format_action(ours, a).strip().lower()
            if text not in theirs:
                raise RuntimeError(f"{self.name}: our move {text!r} is not among OpenSpiel's "
                                   f"{sorted(theirs)}")
            pairs.append((a, theirs[text]))
        return pairs

    def to_openspiel(self, ours: Any, action: Any) -> int:
        return next(x for a, x in self._pairs(ours) if a == action)

    def from_openspiel(self, ours: Any, x: int) -> Any:
        return next(a for a, y in self._pairs(ours) if y == x)

    def apply(self, ours: Any, action: Any) -> None:
        if self.name == "checkers":  # one action per jump of a chain
            for leg in itertools.pairwise(action):
                self.state.apply_action(self.legs(self.state)[leg])
            return
        self.state.apply_action(self.to_openspiel(ours, action))


def spiel_square(name: str) -> int:
    """OpenSpiel's checkers square (``g3``) as our square bit: its player 0 (our Black)
    starts on its rows 1-3, so its row ``r`` is our row ``r - 1`` and its column ``h`` our
    leftmost."""
    col = 7 - (ord(name[0]) - ord("a"))
    return 4 * (int(name[1]) - 1) + col // 2


class OpenSpielPlayer:
    """An OpenSpiel MCTS bot at ``seconds`` a move (Python or C++)."""

    def __init__(self, translator: Translator, seconds: float, cpp: bool) -> None:
        self.tr = translator
        self.seconds = seconds
        self.cpp = cpp
        self.name = "OpenSpiel C++ MCTSBot" if cpp else "OpenSpiel Python MCTSBot"
        self.bot: Any = None
        self.last_iterations = 0

    def new_game(self, seed: int) -> None:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts

        game = self.tr.os_game
        if self.cpp:
            self.bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0,
                                       10**9, 1000, True, seed, False,
                                       pyspiel.ChildSelectionPolicy.UCT, self.seconds)
            return

        class Stop(Exception):
            pass

        class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
            """Stops at the start of the first simulation after the deadline once the root
            has its children (OpenSpiel expands the root in the second simulation: a first
            one that outlasts the time of a move, on a loaded machine, would leave none to
            choose from); the rest is OpenSpiel's code."""

            deadline = 0.0
            root: Any = None

            def mcts_search(self, state: Any) -> Any:
                self.deadline = time.perf_counter() + outer.seconds
                try:
                    return super().mcts_search(state)
                except Stop:
                    return self.root

            def _apply_tree_policy(self, root: Any, state: Any) -> Any:
                if root.children and time.perf_counter() >= self.deadline:
                    self.root = root
                    raise Stop
                return super()._apply_tree_policy(root, state)

        outer = self
        rng = np.random.RandomState(seed)
        self.bot = TimedMCTSBot(game, 2.0, 10**9, mcts.RandomRolloutEvaluator(1, rng),
                                solve=True, random_state=rng)

    def choose(self, ours: Any) -> Any:
        if self.tr.name == "checkers":
            return self._choose_chain()
        root = self.bot.mcts_search(self.tr.state)
        x = root.best_child().action
        self.last_iterations = int(root.explore_count)
        return self.tr.from_openspiel(ours, x)

    def _choose_chain(self) -> Any:
        """Checkers: the bot's actions until the turn passes (a jump chain is several),
        each searched for the time of a move, as our move (its path of squares)."""
        state = self.tr.state.clone()
        player = state.current_player()
        path: list[int] = []
        while not state.is_terminal() and state.current_player() == player:
            root = self.bot.mcts_search(state)
            x = root.best_child().action
            self.last_iterations = int(root.explore_count)
            text = state.action_to_string(player, x)
            if not path:
                path.append(spiel_square(text[:2]))
            path.append(spiel_square(text[2:4]))
            state.apply_action(x)
        return tuple(path)


class OurPlayer:
    """A gamesearch agent (``mcts`` keeps its tree between the moves of a game)."""

    def __init__(self, game: Game[Any, Any], spec: str, seconds: float) -> None:
        self.game = game
        self.spec = with_time(spec, seconds)
        self.name = self.spec
        self.agent: Any = None
        self.last_iterations = 0

    def new_game(self, seed: int) -> None:
        spec = self.spec
        if parse_spec(spec)[0] == "mcts" and "seed=" not in spec:
            spec += f",seed={seed}"
        self.agent = make_agent(self.game, spec)

    def choose(self, ours: Any) -> Any:
        action = self.agent.choose(self.game, ours)
        last = getattr(self.agent, "last", None)
        self.last_iterations = last.nodes if last is not None else 0
        return action


#: OpenSpiel's checkers draw rule: this many plies in a row without a capture
OPENSPIEL_CHECKERS_QUIET_PLIES = 40


def pieces_on_board(state: Any) -> int:
    """Checkers: the pieces on the board (a capture is a move that lowers it)."""
    return int(state.black | state.white).bit_count()


def quiet_after(before: Any, after: Any, quiet: int) -> int:
    """Checkers: OpenSpiel's count of plies without a capture after the move ``before`` ->
    ``after`` (a man's move does not reset it, unlike ours)."""
    return 0 if pieces_on_board(after) < pieces_on_board(before) else quiet + 1


class Referee:
    """Checkers: an endgame database judging the games (see the module docstring)."""

    def __init__(self, folder: str, adjudicate: bool) -> None:
        database = get_game(f"checkers:egdb={folder}").endgame_database()
        if database is None:
            raise RuntimeError(f"{folder}: no checkers endgame database")
        self.database = database
        self.adjudicate = adjudicate

    def judge(self, state: Any, quiet: int, ply: int, report: dict[str, Any]) -> float | None:
        """Notes the first database position reached in ``report``; with adjudication, the
        certain result for the side to move (+1, 0, -1) or ``None`` to play on."""
        if pieces_on_board(state) > self.database.pieces:
            return None
        value = self.database.probe(state)
        if value is None:
            return None
        left = OPENSPIEL_CHECKERS_QUIET_PLIES - quiet
        if "entered" not in report:
            report["entered"] = {"ply": ply, "value": value.value, "plies": value.plies,
                                 "quiet_plies_left": left}
        if not self.adjudicate:
            return None
        if value.value == 0 or (value.plies is not None and value.plies <= left):
            return float(value.value)
        return None


def play(game: Game[Any, Any], players: list[Any], translator: Translator | None,
         max_moves: int = 1000, referee: Referee | None = None,
         report: dict[str, Any] | None = None) -> tuple[list[float], int]:
    """Plays one game; ``report`` receives how it ended (``end``) and the referee's notes."""
    report = {} if report is None else report
    state = game.initial_state()
    if translator is not None:
        translator.reset()
    moves = quiet = 0
    while not game.is_terminal(state) and moves < max_moves:
        if translator is not None and translator.state.is_terminal():
            # OpenSpiel's own end (its draw rule) came first: its returns, on our scale
            report["end"] = "openspiel"
            return [r * game.max_utility for r in translator.state.returns()], moves
        p = game.to_move(state)
        if p == CHANCE:
            raise RuntimeError("games with chance nodes are not supported here")
        if referee is not None:
            verdict = referee.judge(state, quiet, moves, report)
            if verdict is not None:
                report["end"] = "adjudicated"
                returns = [0.0, 0.0]
                returns[p] = verdict * game.max_utility
                returns[1 - p] = -verdict * game.max_utility
                return returns, moves
        action = players[p].choose(state)
        if translator is not None:
            translator.apply(state, action)
        after = game.result(state, action)
        if referee is not None:
            quiet = quiet_after(state, after, quiet)
        state = after
        moves += 1
    report["end"] = "ours" if game.is_terminal(state) else "move cap"
    return list(game.returns(state)), moves


#: what a line written before a key existed means by its absence
KEY_DEFAULTS: dict[str, Any] = {"adjudicated": False}


def played_games(path: str, key: dict[str, Any]) -> dict[int, str]:
    """The games of a JSON-lines file that match ``key`` (game, agents, time): index ->
    result."""
    done: dict[int, str] = {}
    try:
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    if all(row.get(k, KEY_DEFAULTS.get(k)) == v for k, v in key.items()):
                        done[int(row["index"])] = row["result"]
    except FileNotFoundError:
        pass
    return done


def outcome_intervals(wins: int, draws: int, losses: int) -> str:
    """Each outcome's share of the games with its Wilson 95 % interval."""
    n = wins + draws + losses
    parts = []
    for sign, count in (("W", wins), ("D", draws), ("L", losses)):
        lo, hi = wilson_interval(count, n)
        parts.append(f"{sign} {count / n if n else 0:.3f} ({lo:.3f}-{hi:.3f})")
    return ", ".join(parts)


def summarize(paths: list[str]) -> None:
    """A Markdown row per JSON-lines file of games: the tally, the score and each outcome
    with Wilson 95 % intervals, the Elo interval, seconds a game, and for the draws the
    referee's note on the first database position reached (when it took notes): its value
    for ours, its distance and the plies then left before OpenSpiel's draw rule."""
    print("| file | games | +win =draw -loss | score (95 %) | Elo (95 %) | W / D / L (95 %) "
          "| s a game | draws: database value on entry |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |")
    for path in paths:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        rows = list({int(r["index"]): r for r in rows}.values())
        wins = sum(r["result"] == "win" for r in rows)
        draws = sum(r["result"] == "draw" for r in rows)
        losses = sum(r["result"] == "loss" for r in rows)
        n = len(rows)
        points = wins + 0.5 * draws
        lo, hi = wilson_interval(points, n)
        score = points / n if n else 0.5
        timed = [r["seconds"] for r in rows if "seconds" in r]
        per_game = f"{sum(timed) / len(timed):.1f}" if timed else "-"
        entries: dict[str, int] = {}
        for r in rows:
            if r["result"] == "draw" and "end" in r:
                entered = r.get("entered")
                word = "not reached"
                if entered is not None:  # its value is the side to move's: turn it to ours
                    ours_to_move = (entered["ply"] % 2 == 0) == r["ours_first"]
                    value = entered["value"] if ours_to_move else -entered["value"]
                    word = {1: "ours won", 0: "drawn", -1: "ours lost"}[value] + (
                        "" if entered["plies"] is None else
                        f" in {entered['plies']} with {entered['quiet_plies_left']} left")
                entries[word] = entries.get(word, 0) + 1
        notes = "; ".join(f"{k}: {v}" for k, v in sorted(entries.items())) or "-"
        print(f"| {path} | {n} | +{wins} ={draws} -{losses} | {score:.3f} ({lo:.3f}-{hi:.3f}) "
              f"| {format_elo(elo_from_score(score))} ({format_elo(elo_from_score(lo))}, "
              f"{format_elo(elo_from_score(hi))}) | {outcome_intervals(wins, draws, losses)} "
              f"| {per_game} | {notes} |")


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--summarize"]:
        summarize(argv[1:])
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="connect4, tictactoe, othello, checkers (a two-player game; "
                   "a spec such as checkers:egdb=DIR)")
    p.add_argument("--opponent", default="openspiel",
                   help="openspiel, openspiel-cpp, or a gamesearch agent spec (id, ...)")
    p.add_argument("--ours", default="mcts", help="our agent spec (default mcts)")
    p.add_argument("--time", type=float, default=0.1, help="seconds per move for both")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jsonl", help="append one JSON line per game to this file")
    p.add_argument("--resume", action="store_true",
                   help="skip the games the --jsonl file already holds for this setup")
    p.add_argument("--referee-egdb", metavar="DIR",
                   help="checkers: an endgame database noting how each game ends")
    p.add_argument("--adjudicate", action="store_true",
                   help="with --referee-egdb: end a game once its result is certain")
    p.add_argument("--quiet", action="store_true", help="only the summary")
    args = p.parse_args(argv)
    if args.resume and not args.jsonl:
        p.error("--resume needs --jsonl")
    if args.adjudicate and not args.referee_egdb:
        p.error("--adjudicate needs --referee-egdb")
    game = get_game(args.game)
    if game.num_players != 2:
        p.error(f"{args.game}: two-player games only")
    translator = None
    if args.opponent in ("openspiel", "openspiel-cpp"):
        base = game.spec_name or game.name  # (checkers:egdb=DIR is checkers)
        if base not in OPENSPIEL_NAMES:
            p.error(f"{args.game}: no OpenSpiel counterpart known")
        translator = Translator(game, base)
        opponent: Any = OpenSpielPlayer(translator, args.time, args.opponent == "openspiel-cpp")
    else:
        opponent = OurPlayer(game, args.opponent, args.time)
    ours = OurPlayer(game, args.ours, args.time)
    MCTS(game)  # fail early if the game does not suit MCTS
    referee = None
    if args.referee_egdb:
        if (game.spec_name or game.name) != "checkers" or translator is None:
            p.error("--referee-egdb: checkers against OpenSpiel only")
        referee = Referee(args.referee_egdb, args.adjudicate)
    key = {"game": args.game, "ours": ours.name, "opponent": opponent.name, "time": args.time,
           "adjudicated": args.adjudicate}
    done = played_games(args.jsonl, key) if args.resume else {}
    done = {i: r for i, r in done.items() if i < args.games}
    wins = sum(r == "win" for r in done.values())
    draws = sum(r == "draw" for r in done.values())
    losses = sum(r == "loss" for r in done.values())
    start = time.perf_counter()
    print(f"{args.game}: {ours.name} vs {opponent.name}, {args.time} s a move, "
          f"{args.games} games, colours alternating"
          + (f", adjudicated by {args.referee_egdb}" if args.adjudicate else "")
          + (f"; {len(done)} already played (+{wins} ={draws} -{losses})" if done else ""),
          flush=True)
    for i in range(args.games):
        if i in done:
            continue
        seed = args.seed + i
        game_start = time.perf_counter()
        ours.new_game(seed)
        opponent.new_game(seed + 1_000_003)
        ours_first = i % 2 == 0
        players = [ours, opponent] if ours_first else [opponent, ours]
        report: dict[str, Any] = {}
        returns, moves = play(game, players, translator, referee=referee, report=report)
        mine = returns[0 if ours_first else 1]
        other = returns[1 if ours_first else 0]
        outcome = "win" if mine > other else "loss" if mine < other else "draw"
        wins += outcome == "win"
        draws += outcome == "draw"
        losses += outcome == "loss"
        if not args.quiet:
            print(f"game {i + 1:>4}: ours {'first ' if ours_first else 'second'} {outcome:<4} "
                  f"in {moves:>3} moves  (+{wins} ={draws} -{losses})", flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as f:
                f.write(json.dumps({"game": args.game, "index": i, "ours": ours.name,
                                    "opponent": opponent.name, "time": args.time,
                                    "ours_first": ours_first, "result": outcome,
                                    "moves": moves, "seed": seed,
                                    "adjudicated": args.adjudicate,
                                    "seconds": round(time.perf_counter() - game_start, 1),
                                    **report}) + "\n")
    n = wins + draws + losses
    points = wins + 0.5 * draws
    lo, hi = wilson_interval(points, n)
    score = points / n if n else 0.5
    print(f"\n{args.game}, {args.time} s a move: {ours.name} vs {opponent.name}: "
          f"+{wins} ={draws} -{losses} in {n} games, score {score:.3f} "
          f"(95 % Wilson {lo:.3f}-{hi:.3f}), Elo {format_elo(elo_from_score(score))} "
          f"[{format_elo(elo_from_score(lo))}, {format_elo(elo_from_score(hi))}]; "
          f"{outcome_intervals(wins, draws, losses)} (95 % Wilson); "
          f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
