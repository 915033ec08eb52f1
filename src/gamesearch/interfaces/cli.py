"""The ``gamesearch`` command line: list, play, analyze, solve, trace.

Every bad input — an unknown game or agent, a malformed position, an illegal move, a
negative limit — ends with a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from .. import __version__
from ..agents import AGENT_KINDS, QuitGame, make_agent, play_game, seat_game
from ..argtypes import argtype, help_range
from ..errors import GameError, InvalidLimitError, echo, one_line
from ..files import InputFileError, iter_lines, read_bytes
from ..game import CHANCE, Game
from ..games import available_games, game_options, get_game
from ..search import ALGORITHMS, Limit, SearchResult
from ..search.trace import pruned_leaves, render_dot, render_text, trace
from ..spec import GAME_SPEC_HELP, GameOption
from . import gnubg_match
from .analysis import analyze, default_algorithm, format_pv, solve_hidden, solve_record
from .arena_cli import add_arena_commands
from .chess_cli import add_chess_commands
from .chess_tune import add_tune_command
from .egdb_cli import add_egdb_commands
from .equilibrium_cli import add_equilibrium_command
from .gtp import add_gtp_command
from .nash_cli import add_nash_command


class CliError(GameError):
    """Bad command-line input."""


def _game(name: str) -> Game[Any, Any]:
    return get_game(name)


def _state(game: Game[Any, Any], position: str | None) -> Any:
    if position is None:
        return game.initial_state()
    return game.parse_state(position)


def _value_text(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "(" + ", ".join(_value_text(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if not value.is_integer() else str(int(value))
    return str(value)


# ----- list -----------------------------------------------------------------------------
def _options_of(name: str) -> tuple[GameOption, ...]:
    try:
        return game_options(name)
    except (ImportError, GameError):  # an extra not installed, a broken outside game
        return ()


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    games = available_games()
    options = {name: _options_of(name) for name in games}
    if args.json:
        out.write(json.dumps({
            "games": {n: d for n, (_, d) in games.items()},
            "game_options": {n: [o.describe() for o in opts] for n, opts in options.items()},
            "algorithms": {n: a.summary for n, a in ALGORITHMS.items()},
            "agents": AGENT_KINDS,
        }) + "\n")
        return 0
    out.write("games (a game with options: name:key=value,..., e.g. pig:goal=50; one defined "
              "outside the library: py:MODULE:ATTR[:key=value,...]):\n")
    for name, (_, desc) in games.items():
        out.write(f"  {name:<28} {desc}\n")
        for o in options[name]:
            out.write(f"  {'':<4}{o.name + '=' + o.type.__name__:<24} {o.help} ({o.range_text()}, "
                      f"default {o.format(o.default)})\n")
    out.write("algorithms (also agents: name or name:depth=D,time=S,nodes=N,tt=1M,...):\n")
    for name, info in ALGORITHMS.items():
        out.write(f"  {name:<28} {info.summary}\n")
    out.write("other agents:\n")
    for name, desc in AGENT_KINDS.items():
        out.write(f"  {name:<28} {desc}\n")
    return 0


# ----- play -----------------------------------------------------------------------------
def seat_specs(game: Game[Any, Any], args: argparse.Namespace) -> list[str]:
    """The agent of every seat of ``play``: ``--agents`` (one spec a seat, in seat order),
    else seat 1 ``--first`` (default human) and seat 2 ``--second`` (default: the game's
    strongest agent, e.g. the solver for connect4, else ``id``; ``maxn`` for three seats or
    more, as for seats 3 to 6); then ``--seat K=SPEC`` replaces seat K's agent."""
    n = game.num_players
    given = list(args.agents or []) or list(args.agent or [])
    if given:
        if args.first != "human" or args.second is not None:
            raise CliError("give the seats' agents either with --agents or with "
                           "--first/--second, not both")
        if len(given) != n:
            raise CliError(f"{game.spec} has {n} seats; --agents gave {len(given)} agents")
        specs = given
    else:
        hooks = game.match_hooks()
        default = (hooks and n > 2 and hooks.default_opponent) or ("id" if n == 2 else "maxn")
        second = args.second or (hooks and hooks.default_opponent) or default
        specs = [args.first, second] + [default] * max(0, n - 2)
    for item in args.seat or []:
        seat, eq, spec = item.partition("=")
        seat = seat.strip()
        if not eq or not spec.strip() or not seat.isascii() or not seat.isdigit():
            raise CliError(f"--seat {echo(item)}: expected SEAT=SPEC, e.g. --seat 2=maxn")
        if not 1 <= int(seat) <= n:
            raise CliError(f"--seat {echo(item)}: {game.spec} has seats 1 to {n}")
        specs[int(seat) - 1] = spec.strip()
    return specs


def _game_record(game: Game[Any, Any], args: argparse.Namespace) -> Any:
    """The game's record format when ``play`` reads (``--load``) or writes (``--record``)
    one."""
    if args.record is None and args.load is None:
        return None
    record = game.game_record()
    if record is None:
        flag = "--load" if args.load is not None else "--record"
        raise CliError(f"{flag}: {game.spec} has no game-record format (its game_record() "
                       "capability; for Go, SGF needs sgfmill)")
    if args.load is not None and args.position is not None:
        raise CliError("give the start either with --position or with --load, not both")
    return record


#: The largest game record ``play --load`` reads, in bytes (a 19x19 SGF game is a few KiB).
MAX_RECORD_BYTES = 1 << 20


def _load_record(game: Game[Any, Any], record: Any, path: str) -> tuple[Any, list[Any]]:
    """The start and the moves of the record in the file ``path``, read through
    :func:`~gamesearch.files.read_bytes`: at most :data:`MAX_RECORD_BYTES` (``/dev/zero``
    is cut off there instead of filling the memory), a FIFO with no writer given up."""
    try:
        data = read_bytes(path, "--load file", MAX_RECORD_BYTES)
    except InputFileError as exc:  # (it names the file)
        raise CliError(_message(exc)) from None
    try:
        start, moves = record.read(data)
    except GameError as exc:
        raise CliError(f"--load {echo(path)}: {_message(exc)}") from None
    return start, list(moves)


def _save_record(record: Any, path: str, start: Any, moves: list[Any],
                 names: list[str]) -> None:
    try:
        data = record.write(start, moves, names)
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise CliError(f"--record {echo(path)}: {exc.strerror or exc}") from None


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args.game)
    record = _game_record(game, args)
    moves: list[Any] = []  # from the record's start (--load), for --record
    if args.load is not None:
        record_start, moves = _load_record(game, record, args.load)
        state = record_start
        for action in moves:
            state = game.result(state, action)
    else:
        state = record_start = _state(game, args.position)
    if args.time is not None and not args.time > 0:
        raise InvalidLimitError(f"--time {args.time}: must be a positive number of seconds")
    specs = seat_specs(game, args)

    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    # hidden information: agents get the game without the holder's secrets (seat_game)
    agents = [make_agent(seat_game(game), s, args.time, read=input, write=write)
              for s in specs]
    rng = random.Random(args.seed)
    observation = game.observation()
    people = [k for k, spec in enumerate(specs) if spec.split(":")[0] == "human"]

    def picture(s: Any) -> str:
        """The position, or with hidden information what the (first) person's seat sees
        (everything once the game is over, or when only agents play)."""
        if observation is None or not people or game.is_terminal(s) \
                or game.to_move(s) == CHANCE:
            return "" if observation is not None and people and not game.is_terminal(s) \
                else game.render(s)
        return observation.describe(observation.observe(s, people[0]))

    write(picture(state))

    def on_move(s: Any, action: Any, player: int) -> None:
        moves.append(action)
        who = "chance" if player == CHANCE else f"{specs[player]} (player {player + 1})"
        if player == CHANCE and observation is not None and people:
            return  # a hidden deal: nothing to show
        line = f"{who} plays {game.format_action(s, action)}"
        report = agents[player].report if player != CHANCE else None
        pimc_result: Any = getattr(agents[player], "last", None) if player != CHANCE else None
        if report is None or (observation is not None and people and player not in people):
            pass  # another seat's reasoning (even its counts) would tell a person its cards
        elif type(pimc_result).__name__ == "PimcResult":
            averages = ", ".join(f"{game.format_action(s, a)} {v:.2f}"
                                 for a, v in pimc_result.averages.items())
            line += (f"   [{len(pimc_result.worlds)} worlds; average per move: {averages}; "
                     f"{pimc_result.nodes} nodes, {pimc_result.seconds:.2f} s]")
        elif report.source == "book":
            line += f"   [{_book_value(report.value, report.solved)}, book]"
        elif report.source == "solver":
            line += (f"   [score {report.value}, solved, {report.nodes} nodes, "
                     f"{report.seconds:.2f} s]")
        elif report.source == "search" and isinstance(report.value, tuple | list):
            values = ", ".join(f"{k + 1}: {_value_text(v)}" for k, v in enumerate(report.value))
            line += (f"   [values by player {values}; depth {report.depth}, "
                     f"{report.nodes} nodes, {report.seconds:.2f} s]")
        elif report.source == "search":
            line += (f"   [value {_value_text(report.value)}, depth {report.depth}, "
                     f"{report.nodes} nodes, {report.seconds:.2f} s]")
        write(line)
        shown = picture(game.result(s, action))
        if shown:
            write(shown)

    if args.load is not None:
        write(f"loaded {len(moves)} moves from {args.load}")
    try:
        final, _ = play_game(game, agents, state, rng, on_move)
    except QuitGame:
        write("bye")
        return 0
    finally:
        for agent in agents:
            agent.close()
        if record is not None and args.record is not None:
            _save_record(record, args.record, record_start, moves, specs)
            write(f"game record ({record.format}, {len(moves)} moves) written to "
                  f"{args.record}")
    returns = game.returns(final)
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        write("game over: draw")
    elif len(returns) > 2:  # every seat's rank (ties share the better rank)
        ranks = [1 + sum(o > r for o in returns) for r in returns]
        write("game over: " + ", ".join(
            f"{k}. player {p + 1} ({specs[p]}, {_value_text(float(returns[p]))})"
            for k, p in sorted((k, p) for p, k in enumerate(ranks))))
    else:
        hooks = game.match_hooks()  # a game scored in points says how many (a gammon: 2)
        how = game.termination(final) if hooks is not None and hooks.points else None
        plural = "" if abs(float(best)) == 1 else "s"
        points = f" ({how}, {_value_text(float(best))} point{plural})" if how else ""
        write("game over: " + ", ".join(f"player {w + 1} ({specs[w]})" for w in winners)
              + " wins" + points)
    return 0


# ----- analyze --------------------------------------------------------------------------
def _limit(args: argparse.Namespace) -> Limit | None:
    given = [x for x in (args.depth, args.time, args.nodes) if x is not None]
    if len(given) > 1:
        raise CliError("give at most one of --depth, --time, --nodes")
    if not given:
        return None
    return Limit(depth=args.depth, time=args.time, nodes=args.nodes)


def _book_value(score: int, exact: bool) -> str:
    """A book entry's value: the exact score, or only win/draw/loss."""
    if exact:
        return f"score {score}"
    return "a win" if score > 0 else "a draw" if score == 0 else "a loss"


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args.game)
    state = _state(game, args.position)
    progress = sys.stderr

    def callback(r: SearchResult) -> None:
        if not args.json or progress.isatty():
            progress.write(
                f"depth {r.depth:>3}  value {_value_text(r.value):>9}  nodes {r.nodes:>10}  "
                f"{r.seconds:7.3f} s  {r.nps:>10.0f} n/s  "
                f"pv {' '.join(format_pv(game, state, r.pv))}\n"
            )
            progress.flush()

    data = analyze(game, state, position=args.position, algorithm=args.algorithm,
                   limit=_limit(args), book=args.book, callback=callback)
    if args.json:
        out.write(json.dumps(data) + "\n")
    elif data["algorithm"] == "book":
        out.write(f"{game.name} {data['position']!r}: best move {data['move']}, "
                  f"{_book_value(data['value'], data['exact'])} (opening book, 0 nodes)\n")
    else:
        out.write(
            f"{game.name} {data['position']!r}: best move {data['move']}, value "
            f"{_value_text(data['value'])} ({data['algorithm']}, depth {data['depth']}, "
            f"{data['nodes']} nodes, {data['seconds']:.3f} s, {data['nps']:.0f} nodes/s)\n"
            f"  pv: {' '.join(data['pv'])}\n"
        )
        if "root_values" in data:
            out.write("  values of the moves: " + ", ".join(
                f"{a}: {_value_text(v)}" for a, v in data["root_values"].items()) + "\n")
    return 0


# ----- solve ----------------------------------------------------------------------------
def _solve_lines(game: Game[Any, Any], args: argparse.Namespace
                 ) -> Iterable[tuple[str, str]]:
    if args.position is not None:
        yield "position", args.position
        return
    if args.file is not None:
        for i, line in iter_lines(args.file, "positions file"):
            text = line.strip()
            if text and not text.startswith("#"):  # the game says where its position ends
                yield f"line {i}", game.split_position_line(text)[0]
        return
    yield "position", ""


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args.game)
    fast = None if args.pure else game.fast_solver()  # same scores, moves and nodes
    if game.perfect_view() is not None:  # hidden information: solve its perfect view
        return _solve_hidden(game, args, out)

    def solve_one(text: str) -> dict[str, Any]:
        if text == "" and args.position is None and args.file is None:
            state = game.initial_state()
            text = game.format_state(state)
        else:
            state = game.parse_state(text)
        return solve_record(game, state, text, weak=args.weak, book=args.book, fast=fast)

    return _solve_each(game, args, out, solve_one, _solve_text)


def _solve_text(record: dict[str, Any]) -> str:
    """A solved position as one line of text."""
    position = record["position"] or "(start)"
    moves = " ".join(record.get("moves", [record["move"]]))
    return (f"{position:<44} value {_value_text(record['value']):>6}"
            f"  best {moves:<8} {record['nodes']:>10} nodes  "
            f"{record['seconds']:.4f} s"
            + ("  (book)" if record.get("source") == "book" else "") + "\n")


def _solve_hidden(game: Game[Any, Any], args: argparse.Namespace, out: TextIO) -> int:
    """``solve`` of a game with hidden information (bridge): its perfect view solved
    (:func:`~.analysis.solve_hidden`), one record or a table a line."""

    def solve_one(text: str) -> dict[str, Any]:
        if text == "":
            text = game.format_state(game.initial_state())
        return solve_hidden(game, text, pure=args.pure)

    return _solve_each(game, args, out, solve_one, _solve_hidden_text)


def _solve_hidden_text(record: dict[str, Any]) -> str:
    """A solved perfect view as text: its position, then a line a row of its table."""
    lines = [f"{record['position']}\n"]
    for label, r in record.get("table", {"": record}).items():
        meaning = " ".join(f"{k} {v}" for k, v in r.items() if k not in (
            "value", "moves", "move", "nodes", "seconds"))
        lines.append(f"  {label:<4} {meaning}  value {r['value']}  best "
                     f"{' '.join(r['moves'])}  {r['nodes']} nodes  {r['seconds']:.3f} s\n")
    return "".join(lines)


def _solve_each(game: Game[Any, Any], args: argparse.Namespace, out: TextIO,
                solve_one: Callable[[str], dict[str, Any]],
                text_of: Callable[[dict[str, Any]], str]) -> int:
    """The ``solve`` loop: each position of :func:`_solve_lines` solved by ``solve_one``
    and written at once, as JSON (``--json``) or ``text_of(record)``; a bad position is a
    line on stderr, the others go on, and the exit status is then 2."""
    errors = 0
    for where, text in _solve_lines(game, args):
        try:
            record = solve_one(text)
        except (GameError, RecursionError) as exc:
            errors += 1
            sys.stderr.write(f"gamesearch: {where}: {_message(exc)}\n")
            continue
        out.write(json.dumps(record) + "\n" if args.json else text_of(record))
        out.flush()
    return 2 if errors else 0


# ----- perft ----------------------------------------------------------------------------
def _games_with_perft() -> list[str]:
    names = []
    for name in available_games():
        try:
            if get_game(name).perft() is not None:
                names.append(name)
        except (ImportError, GameError):  # a game whose extra is not installed
            continue
    return names


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    """The leaf count of the move tree (the game's ``perft()`` capability), optionally split
    by the first move; says which counting convention it used."""
    game = _game(args.game)
    perft = game.perft()
    if perft is None:
        raise CliError(f"{game.name} has no perft; games with one: "
                       + ", ".join(_games_with_perft()))
    conventions, count = perft.conventions, perft.count
    convention = args.convention or next(iter(conventions))
    if convention not in conventions:
        raise CliError(f"{game.name} perft convention {one_line(convention)!r}; allowed: "
                       + ", ".join(conventions))
    state = _state(game, args.position)
    count(state, 0, convention)  # (loads compiled code, if any, before the clock starts)
    start = time.perf_counter()
    split: list[tuple[str, int]] = []
    if args.divide and args.depth >= 1 and not game.is_terminal(state):
        split = [(game.format_action(state, a),
                  count(game.result(state, a), args.depth - 1, convention))
                 for a in game.actions(state)]
        nodes = sum(n for _, n in split)
    else:
        nodes = count(state, args.depth, convention)
    seconds = time.perf_counter() - start
    if args.json:
        data: dict[str, Any] = {
            "game": game.spec, "position": game.format_state(state), "depth": args.depth,
            "nodes": nodes, "convention": convention, "seconds": round(seconds, 6)}
        if split:
            data["divide"] = dict(split)
        out.write(json.dumps(data) + "\n")
        return 0
    for move, n in split:
        out.write(f"{move}: {n}\n")
    nps = nodes / seconds if seconds > 0 else 0.0
    out.write(f"perft {args.depth}: {nodes} ({seconds:.3f} s, {nps:.0f} leaves/s)\n"
              f"convention {convention}: {conventions[convention]}\n")
    return 0


# ----- book -----------------------------------------------------------------------------
def cmd_book(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args.game)
    if args.info:  # the book at --out, or the game's own with --out -
        book = game.opening_book("on" if args.out == "-" else args.out or f"{game.name}_book.bin")
        if book is None:  # (--out off)
            raise CliError("book --info: no book to describe (--out FILE, or - for the game's)")
        out.write(json.dumps({"positions": len(book), **book.meta}, indent=1) + "\n")
        return 0
    builder = game.book_builder()
    if builder is None:
        raise CliError(f"{game.name} has no opening book builder: the book command builds "
                       "the books of games that supply one")
    target = args.out or f"{game.name}_book.bin"

    def log(text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    command = "gamesearch " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["book"] else ""
    if args.upgrade is not None:  # (a builder that upgrades takes ``upgrade=``)
        if "upgrade" not in inspect.signature(builder).parameters:
            raise CliError(f"{game.name}'s book builder cannot upgrade a book (--upgrade)")
        book = builder(args.plies, target, upgrade=args.upgrade, journal=args.journal,
                       tt_capacity=args.tt, max_seconds=args.max_seconds, log=log,
                       command=command)
        out.write(f"{len(book)} positions in {target}\n")
        return 0
    book = builder(args.plies, target, journal=args.journal, root=args.root,
                   sides=args.sides, tt_capacity=args.tt, strong_nodes=args.strong_nodes,
                   max_nodes=args.max_nodes,
                   max_seconds=args.max_seconds, log=log, command=command)
    out.write(f"{len(book)} positions in {target}\n")
    return 0


# ----- trace ----------------------------------------------------------------------------
def cmd_trace(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args.game)
    state = _state(game, args.position)
    count = sum(1 for _ in _limited_walk(game, state, 5000))
    if count >= 5000:
        raise CliError(f"{game.name}: the tree from this position is too big to trace "
                       "(more than 5000 nodes); trace the explicit trees, e.g. fig6.2")
    algorithm = args.algorithm or default_algorithm(game)
    if algorithm == "id":
        algorithm = "alphabeta"
    root, result = trace(game, state, algorithm)
    if args.dot:
        out.write(render_dot(root, game) + "\n")
        return 0
    out.write(f"{algorithm} on {game.name}: value {_value_text(result.value)}, best move "
              f"{game.format_action(state, result.action)}, {result.nodes} nodes\n")
    out.write(render_text(root, game) + "\n")
    pruned = pruned_leaves(root)
    out.write(f"pruned leaves: {', '.join(pruned) if pruned else 'none'}\n")
    return 0


def _limited_walk(game: Game[Any, Any], state: Any, limit: int) -> Iterable[Any]:
    stack, seen = [state], 0
    while stack and seen < limit:
        s = stack.pop()
        seen += 1
        yield s
        if game.is_terminal(s):
            continue
        if game.to_move(s) == CHANCE:
            stack.extend(game.result(s, o) for o, _ in game.chance_outcomes(s))
        else:
            stack.extend(game.result(s, a) for a in game.actions(s))


# ----- web ------------------------------------------------------------------------------
def cmd_web(args: argparse.Namespace, out: TextIO) -> int:
    from .web.serve import serve

    return serve(args.host, args.port, args.db, out)


# ----- parser ---------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # ``--fen=--``: argparse drops the "--" and hands the command an empty list
        if action.nargs is None and action.option_strings and arg_strings == ["--"]:
            self.error(f"argument {'/'.join(action.option_strings)}: expected one argument")
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> Any:  # exit 2 with a one-line message (argparse's way)
        self.print_usage(sys.stderr)
        self.exit(2, f"gamesearch: error: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="gamesearch", description="Adversarial game search: play, analyze, solve.")
    p.add_argument("--version", action="version", version=f"gamesearch {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("list", help="games, algorithms and agents, one line each")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("play", help="play a game in the terminal")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("--first", default="human", help="agent of seat 1 (default human)")
    s.add_argument("--second", default=None,
                   help="agent of seat 2 (default: the game's strongest agent, e.g. solver "
                   "for connect4; else id; maxn with three seats or more)")
    s.add_argument("--agents", nargs="+", metavar="SPEC",
                   help="every seat's agent in seat order, human included: "
                   "rolit:players=3 --agents human maxn:depth=3 paranoid")
    s.add_argument("--seat", action="append", metavar="K=SPEC",
                   help="seat K's agent (1-based; repeatable), over the defaults or --agents: "
                   "--seat 3=human")
    s.add_argument("--agent", action="append", help=argparse.SUPPRESS)  # (old: --agents)
    s.add_argument("--time", type=argtype("time"), default=1.0,
                   help="seconds per engine move " + help_range("time"))
    s.add_argument("--position", help="start position in the game's notation")
    s.add_argument("--load", metavar="FILE", default=None,
                   help="go on from the end of a game record (SGF for Go) in FILE")
    s.add_argument("--record", metavar="FILE", default=None,
                   help="write the game's record (SGF for Go; with --load, its moves too) "
                        "to FILE when the game ends or is quit")
    s.add_argument("--seed", type=argtype("seed"), default=None,
                   help="seed for dice and random agents")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("analyze", help="search one position and report the best move")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("--position")
    s.add_argument("--algorithm", help="algorithm spec, e.g. alphabeta or id:tt=4M")
    s.add_argument("--depth", type=argtype("depth"), help=help_range("depth"))
    s.add_argument("--time", type=argtype("time"), help=help_range("time"))
    s.add_argument("--nodes", type=argtype("nodes"), help=help_range("nodes"))
    s.add_argument("--json", action="store_true", help="one JSON object")
    s.add_argument("--book", default=None, metavar="FILE",
                   help="games with an opening book (connect4): the book to consult when no "
                        "algorithm or limit is given (default: the game's own; off: none)")
    s.add_argument("--no-book", dest="book", action="store_const", const="off",
                   help="do not consult the game's opening book")
    s.set_defaults(func=cmd_analyze)

    s = sub.add_parser("solve", help="exact game-theoretic value of positions "
                       "(the initial position unless --position or --file is given)")
    s.add_argument("game", help=GAME_SPEC_HELP)
    g = s.add_mutually_exclusive_group()
    g.add_argument("--position")
    g.add_argument("--file", help="one position per line (- for standard input); the "
                   "game reads the position from the line's start (a whole FEN) and skips "
                   "what follows it (an expected score, a comment)")
    s.add_argument("--weak", action="store_true", help="only win/draw/loss")
    s.add_argument("--pure", action="store_true",
                   help="use the plain Python solver even if the compiled one is installed")
    s.add_argument("--json", action="store_true", help="one JSON object per position")
    s.add_argument("--book", nargs="?", const="on", default=None, metavar="FILE",
                   help="games with an opening book (connect4): answer from the book (the "
                        "game's own, or FILE) when it has the position (0 nodes; default "
                        "off, so the node counts are the solver's)")
    s.set_defaults(func=cmd_solve)

    s = sub.add_parser("perft", help="count the leaves of the legal-move tree (chess, othello)")
    s.add_argument("game", help="a game with a perft (chess, othello)")
    s.add_argument("--position", "--fen", dest="position", default=None,
                   help="start position in the game's notation (default: the initial one; "
                   "chess: FEN or 'startpos' [moves ...])")
    s.add_argument("--depth", type=argtype("perft_depth"), required=True,
                   help=help_range("perft_depth"))
    s.add_argument("--convention", default=None,
                   help="how to count (othello: perft or full_depth; default: the game's first)")
    s.add_argument("--divide", action="store_true", help="the count after each first move")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_perft)

    s = sub.add_parser("book", help="build a game's opening book with its solver (connect4)")
    s.add_argument("game", help="a game with an opening book builder (connect4)")
    s.add_argument("--plies", type=argtype("plies"), default=8,
                   help="cover the positions with fewer stones than this (default 8) "
                   + help_range("plies"))
    s.add_argument("--out", default=None,
                   help="the book file to write (default GAME_book.bin; with --info: the "
                   "book to describe, - for the game's own)")
    s.add_argument("--journal", help="progress journal, to resume (default OUT.journal)")
    s.add_argument("--root", default="", help="start from this position instead of the "
                   "empty board (move string)")
    s.add_argument("--sides", choices=("both", "first", "second"), default="both",
                   help="the policy trees to build: the root's side to move, the other, both")
    s.add_argument("--strong-nodes", type=argtype("nodes"), default=100_000_000,
                   help="node budget of one position's strong solve (then weak)")
    s.add_argument("--max-nodes", type=argtype("nodes"), default=None,
                   help="node budget of one position's weak solve (default: none)")
    s.add_argument("--max-seconds", type=argtype("max_seconds"), default=None,
                   help="stop after this long, checked inside each solve (run the same "
                   "command again to resume) " + help_range("max_seconds"))
    s.add_argument("--tt", type=argtype("book_tt"), default=1 << 24,
                   help="transposition table entries (default 2^24: about 400 MB) "
                   + help_range("book_tt"))
    s.add_argument("--upgrade", default=None, metavar="BOOK",
                   help="instead of building: make the weak entries of BOOK (a file, or on: "
                   "the package's) with fewer than --plies stones exact, one null-window "
                   "test at a time (journaled), and write the result to --out")
    s.add_argument("--info", action="store_true",
                   help="only describe the book at --out (or the package's, if --out is -)")
    s.set_defaults(func=cmd_book)

    s = sub.add_parser("trace", help="show the tree a search visited (explicit trees)")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("--algorithm", help="minimax, alphabeta, negamax, maxn, expectiminimax, ...")
    s.add_argument("--position")
    s.add_argument("--dot", action="store_true", help="Graphviz DOT instead of text")
    s.set_defaults(func=cmd_trace)

    s = sub.add_parser("web", help="the web app: play, analyse, learn, tournaments")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=argtype("port"), default=8000,
                   help="port (default 8000) " + help_range("port"))
    s.add_argument("--db", default=None, metavar="PATH",
                   help="arena results file, or a folder of them, shown read-only")
    s.set_defaults(func=cmd_web)

    add_arena_commands(sub)
    add_chess_commands(sub)
    add_tune_command(sub)
    add_egdb_commands(sub)
    add_equilibrium_command(sub)
    add_gtp_command(sub)
    add_nash_command(sub)

    s = sub.add_parser("gnubg-match", help="play money games against GNU Backgammon through "
                       "its external-player interface; gnubg analyses our moves")
    gnubg_match.add_arguments(s)
    s.set_defaults(func=cmd_gnubg_match)
    return p


# ----- gnubg-match ----------------------------------------------------------------------
def cmd_gnubg_match(args: argparse.Namespace, out: TextIO) -> int:
    """``gamesearch gnubg-match``: :mod:`.gnubg_match`'s runner (bad options: one line)."""
    problem = gnubg_match.check_arguments(args)
    if problem:
        raise CliError(problem)
    return gnubg_match.run_from_arguments(args, out)


def _message(exc: BaseException) -> str:
    """The one line an error prints (bounded, whatever input it quotes)."""
    if isinstance(exc, RecursionError):  # a game whose lines never end (Pig's rolls)
        return ("the search went deeper than Python's recursion limit: this game's lines "
                "do not end by themselves, so it cannot be searched to the end; give a "
                "depth (analyze --depth N, or depth=N in the algorithm)")
    return one_line(str(exc))


def _tolerant_streams() -> None:
    """Bytes a strict codec cannot take (``PYTHONIOENCODING=ascii:strict``, a pipe of junk)
    are escaped instead of ending the command with a UnicodeError: ``\\xb1`` on output,
    surrogate escapes on input (which the parsers then refuse with a message)."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"),
                           (sys.stdin, "surrogateescape")):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure) and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(Exception):
                reconfigure(errors=errors)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    _tolerant_streams()
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, out))
    except (GameError, RecursionError) as exc:
        sys.stderr.write(f"gamesearch: error: {_message(exc)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("gamesearch: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
