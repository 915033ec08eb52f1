"""The Go Text Protocol (GTP version 2, Farnebäck's specification,
https://www.lysator.liu.se/~gunnar/gtp/) for the library's Go program, so that it plays in
GoGui, Sabaki and against other GTP engines:

    gamesearch gtp [--agent SPEC] [--game go:size=9,komi=7.5]

It speaks for any game that offers the protocol's board (its ``gtp()`` capability,
:class:`~gamesearch.capabilities.GTPBoard`: Go's); another game is refused in one line.

Modelled on the UCI engine (:mod:`.uci_engine`): the engine holds the game and an agent
(:func:`gamesearch.agents.make_agent`; by default the game's ``match_hooks`` opponent, MCTS
with RAVE, pattern playouts and priors); nothing here searches.

Commands: ``protocol_version``, ``name``, ``version``, ``known_command``,
``list_commands``, ``boardsize``, ``clear_board``, ``komi``, ``play``, ``genmove``,
``undo``, ``final_score``, ``final_status_list``, ``fixed_handicap``,
``place_free_handicap``, ``set_free_handicap``, ``time_settings``, ``time_left``,
``showboard``, ``loadsgf``, ``quit``. Input is preprocessed as the specification says (control
characters dropped, tabs to spaces, ``#`` comments cut, empty lines skipped); an optional
numeric id comes back in the answer (``=12 D4``).

Behaviour:

* every command gets exactly one answer, ``= ...`` or ``? message`` (one line), whatever
  the input: an unknown command, a malformed vertex, an occupied point, a ko or superko
  violation, suicide, a size out of range, a line over :data:`MAX_LINE` characters (blanks
  first or not; read in pieces, so an endless line fills no memory), an id of more than
  :data:`MAX_ID_DIGITS` digits (quoted cut)... never a traceback; only ``quit`` and the end
  of input end the loop;
* an agent that asks a person (``--agent human``) is refused at the start: standard input
  is the protocol's channel;
* ``play`` and ``genmove`` take the colour given, whoever the rules would have to move
  (GTP allows a colour to play twice: the position is then handed to the other colour,
  without a pass);
* ``genmove`` thinks for the time the clock allows: with ``time_settings``/``time_left``
  the remaining main time over :data:`MOVES_LEFT` moves (at least :data:`MIN_MOVE_SECONDS`),
  in byo-yomi the period's time over its stones, less a margin; without a clock the
  agent's own budget (``--agent mcts:time=5``) or :data:`DEFAULT_MOVE_SECONDS`. After the
  game's end (two passes) it answers ``pass``;
* ``final_score`` and ``final_status_list`` judge dead stones by playouts (the game's
  compiled ones): a stone is dead when the other colour owns its point at the end of most
  of :data:`STATUS_PLAYOUTS` playouts, and the area is then counted with dead stones
  removed (``final_score``: ``B+3.5``, ``W+0.5``, ``0``). ``seki`` lists nothing (the
  playouts do not tell seki apart);
* ``boardsize`` takes 5 to 19 (else ``? unacceptable size``), and clears the board;
  ``komi`` keeps the moves played;
* ``loadsgf FILE [MOVE]`` sets the board size, komi and position from an SGF record's
  main line (through ``sgfmill``, :mod:`gamesearch.games.go.sgf`; every move checked by
  the rules), up to just before move ``MOVE`` (1: the start) or to its end; ``undo`` then
  steps back through its moves. A missing, binary, oversized (over
  :data:`MAX_SGF_BYTES`) or malformed file, a record with an illegal move or of a size
  out of range is ``? cannot load file`` with the reason, and the position stays as it
  was.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from .. import __version__
from ..agents import Agent, make_agent
from ..capabilities import GTPBoard
from ..errors import GameError, IllegalMoveError, InvalidLimitError, echo, one_line
from ..files import read_bytes
from ..game import Game
from ..games import get_game
from ..search import Limit

ENGINE_NAME = "gamesearch"
PROTOCOL_VERSION = "2"
#: A move's seconds without a clock and without a budget in the agent's spec.
DEFAULT_MOVE_SECONDS = 1.0
#: Under a main-time clock, the moves still to play that the time is shared over.
MOVES_LEFT = 30
MIN_MOVE_SECONDS = 0.05
#: Seconds kept back from every move for the protocol's round trip.
MARGIN_SECONDS = 0.2
#: Playouts that judge dead stones for final_score / final_status_list.
STATUS_PLAYOUTS = 200
#: Longest command line read (longer lines are answered ``?`` at once).
MAX_LINE = 10_000
#: The longest command id echoed back (GTP's ids are numbers; 18 digits fit 64 bits).
MAX_ID_DIGITS = 18

COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
            "boardsize", "clear_board", "komi", "play", "genmove", "undo", "final_score",
            "final_status_list", "fixed_handicap", "place_free_handicap",
            "set_free_handicap", "time_settings", "time_left", "showboard", "loadsgf",
            "quit")
#: The largest SGF file ``loadsgf`` reads, in bytes (a 19x19 game record is a few KiB).
MAX_SGF_BYTES = 1 << 20


class GTPFailure(GameError):
    """A command that cannot be carried out: answered ``? message``."""


def _colour(word: str) -> int:
    w = word.strip().lower()
    if w in ("b", "black"):
        return 0
    if w in ("w", "white"):
        return 1
    raise GTPFailure(f"invalid color {echo(word)}")


def _float(word: str, what: str) -> float:
    try:
        x = float(word)
    except ValueError:
        raise GTPFailure(f"invalid {what} {echo(word)}") from None
    if x != x or abs(x) > 1e9:
        raise GTPFailure(f"invalid {what} {echo(word)}")
    return x


def _int(word: str, what: str, low: int = 0, high: int = 10**9) -> int:
    if not word.isascii() or not word.lstrip("-").isdigit() or len(word) > 12:
        raise GTPFailure(f"invalid {what} {echo(word)}")
    n = int(word)
    if not low <= n <= high:
        raise GTPFailure(f"{what} {n} out of range {low}-{high}")
    return n


class GTPEngine:
    """The GTP loop (see the module docstring): :meth:`handle` answers one line,
    :meth:`run` reads lines until ``quit``."""

    def __init__(self, out: TextIO, agent_spec: str | None = None,
                 game_spec: str = "go") -> None:
        game = get_game(game_spec)
        board = game.gtp()
        if board is None:
            raise InvalidLimitError(f"gtp: {echo(game_spec)} does not speak the Go Text "
                                    "Protocol (a game offers it as its gtp() capability: go)")
        self.out = out
        self.base_spec = game_spec
        self.game: Game[Any, Any] = game
        #: what GTP asks of the game (vertices, stones, handicap, SGF, area)
        self.board: GTPBoard[Any, Any] = board
        hooks = game.match_hooks()
        default = hooks.default_opponent if hooks is not None else None
        self.agent_spec = agent_spec or default or "mcts:time=1"
        self.agent: Agent = make_agent(game, self.agent_spec,
                                       default_time=DEFAULT_MOVE_SECONDS)
        if self.agent.interactive:  # its keyboard would be the protocol's channel
            self.agent.close()
            raise InvalidLimitError(f"gtp --agent {echo(self.agent_spec)}: standard input is "
                                    "the GTP channel, so no person can type moves there; the "
                                    "GTP controller (a GUI) is where a person plays")
        self.states: list[Any] = [game.initial_state()]
        self.rng = random.Random(0)
        #: main time, byo-yomi time, byo-yomi stones (None: no clock)
        self.time_settings: tuple[float, float, int] | None = None
        self.time_left: dict[int, tuple[float, int]] = {}
        self.done = False
        self.handlers: dict[str, Callable[[list[str]], str]] = {
            name: getattr(self, "cmd_" + name) for name in COMMANDS}

    # ----- the loop ------------------------------------------------------------------
    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            answer = self.handle(line)
            if answer is not None:
                self.out.write(answer)
                self.out.flush()
            if self.done:
                break

    def handle(self, raw: str) -> str | None:
        """The answer to one input line (``None`` for a line with no command). A line
        longer than :data:`MAX_LINE` is answered ``? line too long`` whatever it holds
        (blanks first included: every line a controller sends that could be a command gets
        an answer), and an id is echoed only when it is a number of at most
        :data:`MAX_ID_DIGITS` digits (a longer one is refused, quoted cut)."""
        text = raw.rstrip("\r\n")
        too_long = len(text) > MAX_LINE
        line = "".join(ch for ch in text[:MAX_LINE + 1]
                       if ch in "\t\n" or (ord(ch) >= 32 and ord(ch) != 127))
        line = line.replace("\t", " ").split("#", 1)[0].strip()
        if not line:
            return f"? line too long (more than {MAX_LINE} characters)\n\n" if too_long \
                else None
        words = line.split()
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident = words.pop(0)
            if len(ident) > MAX_ID_DIGITS:
                return f"? invalid id {echo(ident, 20)}: at most {MAX_ID_DIGITS} digits\n\n"
            if not words:
                return f"?{ident} no command\n\n"
        name, args = words[0], words[1:]
        try:
            if too_long:
                raise GTPFailure(f"line too long (more than {MAX_LINE} characters)")
            handler = self.handlers.get(name)
            if handler is None:
                raise GTPFailure("unknown command")
            text = handler(args)
        except GameError as exc:
            return f"?{ident} {one_line(str(exc))}\n\n"
        except Exception as exc:  # the engine survives any failure of its own
            return f"?{ident} internal error: {one_line(f'{type(exc).__name__}: {exc}')}\n\n"
        return f"={ident} {text}\n\n" if text else f"={ident}\n\n"

    # ----- the position ----------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    def _turn(self, player: int) -> Any:
        """The position with ``player`` to move (GTP lets a colour play twice)."""
        return self.board.with_turn(self.state, player)

    def _new_game(self, size: int | None = None, komi: float | None = None) -> None:
        spec_size = self.board.size if size is None else size
        spec_komi = self.board.komi if komi is None else komi
        rest = [o for o in self.base_spec.partition(":")[2].split(",")
                if o.strip() and o.split("=")[0].strip().lower() not in ("size", "komi")]
        spec = ",".join([f"size={spec_size}", f"komi={spec_komi:g}", *rest])
        new = get_game(f"{self.game.spec_name}:{spec}")
        board = new.gtp()
        assert board is not None  # (the same game with another size or komi)
        self.game, self.board = new, board
        self.agent.close()
        self.agent = make_agent(new, self.agent_spec, default_time=DEFAULT_MOVE_SECONDS)

    # ----- commands ----------------------------------------------------------------------
    def cmd_protocol_version(self, args: list[str]) -> str:
        return PROTOCOL_VERSION

    def cmd_name(self, args: list[str]) -> str:
        return ENGINE_NAME

    def cmd_version(self, args: list[str]) -> str:
        return f"{__version__} ({self.agent_spec})"

    def cmd_known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("known_command takes one command name")
        return "true" if args[0] in self.handlers else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def cmd_quit(self, args: list[str]) -> str:
        self.done = True
        self.agent.close()
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("boardsize takes one number")
        try:
            size = _int(args[0], "size", self.board.min_size, self.board.max_size)
        except GTPFailure:
            raise GTPFailure("unacceptable size") from None
        self._new_game(size=size)
        self.states = [self.game.initial_state()]
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self.states = [self.game.initial_state()]
        self.agent.reset()
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("komi takes one number")
        komi = _float(args[0], "komi")
        if abs(komi) > 200 or komi * 2 != int(komi * 2):
            raise GTPFailure(f"komi {komi:g}: a multiple of 0.5 within ±200")
        self._new_game(komi=komi)  # (the positions stay: the komi only scores them)
        return ""

    def cmd_play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GTPFailure("play takes a color and a vertex")
        player = _colour(args[0])
        game = self.game
        s = self._turn(player)
        if game.is_terminal(s) and args[1].lower() != "pass":
            s = self.board.reopened(s)
        try:
            point = game.parse_action(s, args[1]) if not game.is_terminal(s) else \
                self.board.parse_vertex(args[1])
        except IllegalMoveError as exc:
            reason = str(exc).split(": ", 1)[-1].split(";")[0]
            raise GTPFailure(f"illegal move: {reason}") from None
        self.states.append(game.result(s, point))
        return ""

    def _move_seconds(self, player: int) -> float | None:
        if self.time_settings is None:
            return None
        main, byo, stones = self.time_settings
        left, left_stones = self.time_left.get(player, (main, 0))
        if main == 0 and byo == 0:
            return None  # no time limit
        if left_stones > 0:  # in byo-yomi: the period shared over its stones
            t = left / left_stones
        elif left > 0:
            t = left / MOVES_LEFT + (byo / max(stones, 1) if byo > 0 else 0.0)
        else:
            t = byo / max(stones, 1)
        return max(MIN_MOVE_SECONDS, t - MARGIN_SECONDS)

    def cmd_genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("genmove takes a color")
        player = _colour(args[0])
        game = self.game
        s = self._turn(player)
        if game.is_terminal(s):
            self.states.append(game.result(s, self.board.pass_action))
            return "pass"
        seconds = self._move_seconds(player)
        limit = Limit(time=seconds) if seconds is not None else None
        action = self.agent.choose(game, s, limit)
        if action not in game.actions(s):
            raise GTPFailure(f"the agent chose an illegal move {action!r}")
        self.states.append(game.result(s, action))
        return self.board.vertex(action)

    def cmd_undo(self, args: list[str]) -> str:
        if args:  # ("undo undo" is not two undos: the engine and its controller would part)
            raise GTPFailure("undo takes no arguments")
        if len(self.states) < 2:
            raise GTPFailure("cannot undo")
        self.states.pop()
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        if not 1 <= len(args) <= 2:
            raise GTPFailure("loadsgf takes a file name and an optional move number")
        path = args[0]
        until = _int(args[1], "move number", 1) if len(args) == 2 else None
        if path == "-":  # (standard input is this engine's command channel)
            raise GTPFailure("cannot load file: - is the GTP input")
        try:
            size, komi, states = self.board.read_record(
                read_bytes(path, "SGF file", MAX_SGF_BYTES))
        except GameError as exc:
            raise GTPFailure(f"cannot load file: {one_line(str(exc))}") from None
        if until is not None:
            states = states[:until]
        self._new_game(size=size, komi=komi)
        self.states = states
        self.agent.reset()
        return ""

    def _board_empty(self) -> bool:
        return not any(self.board.stones(self.state))

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("fixed_handicap takes a number of stones")
        n = _int(args[0], "number of stones", 0, 10**6)
        if not self._board_empty() or len(self.states) > 1:
            raise GTPFailure("board not empty")
        try:
            points = self.board.handicap_points(n)
        except InvalidLimitError:
            raise GTPFailure("invalid number of stones") from None
        if not points:
            raise GTPFailure("invalid number of stones")
        self.states = [self.board.with_stones(self.state, points)]
        return " ".join(self.board.vertex(p) for p in points)

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GTPFailure("place_free_handicap takes a number of stones")
        n = _int(args[0], "number of stones", 0, 10**6)
        board = self.board
        if not self._board_empty() or len(self.states) > 1:
            raise GTPFailure("board not empty")
        if not 2 <= n < board.points:
            raise GTPFailure("invalid number of stones")
        try:  # the fixed points where they exist, then the points nearest the centre
            points = board.handicap_points(min(n, 9))
        except InvalidLimitError:
            points = []
        size = board.size
        mid = (size - 1) / 2
        rest = sorted((p for p in range(board.points) if p not in points),
                      key=lambda p: (abs(p // size - mid) + abs(p % size - mid), p))
        points = (points + rest)[:n]
        self.states = [board.with_stones(self.state, points)]
        return " ".join(board.vertex(p) for p in points)

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        board = self.board
        if not self._board_empty() or len(self.states) > 1:
            raise GTPFailure("board not empty")
        if not 2 <= len(args) < board.points:
            raise GTPFailure("bad vertex list")
        try:
            points = [board.parse_vertex(a) for a in args]
        except IllegalMoveError:
            raise GTPFailure("bad vertex list") from None
        if board.pass_action in points or len(set(points)) != len(points):
            raise GTPFailure("bad vertex list")
        self.states = [board.with_stones(self.state, points)]
        return ""

    def cmd_time_settings(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GTPFailure("time_settings takes main_time byo_yomi_time byo_yomi_stones")
        main = _float(args[0], "main time")
        byo = _float(args[1], "byo-yomi time")
        stones = _int(args[2], "byo-yomi stones")
        if main < 0 or byo < 0:
            raise GTPFailure("times must be >= 0")
        self.time_settings = (main, byo, stones)
        self.time_left = {}
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GTPFailure("time_left takes a color, a time and stones")
        player = _colour(args[0])
        left = _float(args[1], "time")
        stones = _int(args[2], "stones")
        if self.time_settings is None:
            self.time_settings = (max(left, 0.0), 0.0, 0)
        self.time_left[player] = (max(left, 0.0), stones)
        return ""

    def cmd_showboard(self, args: list[str]) -> str:
        return "\n" + self.game.render(self.state)

    # ----- the end: dead stones by playouts ------------------------------------------
    def dead_stones(self) -> list[int]:
        """The stones the other colour owns at the end of most playouts from here."""
        game, board, s = self.game, self.board, self.state
        stones = board.stones(s)
        playouts = game.playouts()
        if playouts is None or playouts.compiled is None or not any(stones):
            return []
        start = board.reopened(s)
        owned = [0] * board.points
        for _ in range(STATUS_PLAYOUTS):
            end = playouts.compiled(start, self.rng, None)
            for p, o in enumerate(board.owners(bytes(board.stones(end)))):
                if stones[p] and o and o != stones[p]:
                    owned[p] += 1
        return [p for p in range(board.points)
                if stones[p] and owned[p] * 2 > STATUS_PLAYOUTS]

    def cmd_final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki"):
            raise GTPFailure("final_status_list takes alive, dead or seki")
        if args[0] == "seki":
            return ""
        dead = set(self.dead_stones())
        stones = self.board.stones(self.state)
        chosen = [p for p in range(self.board.points)
                  if stones[p] and (p in dead) == (args[0] == "dead")]
        return " ".join(self.board.vertex(p) for p in chosen)

    def cmd_final_score(self, args: list[str]) -> str:
        board = self.board
        dead = set(self.dead_stones())
        alive = bytes(0 if p in dead else c for p, c in enumerate(board.stones(self.state)))
        black, white = board.area(alive)
        score = black - white - board.komi
        return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"


def _stdin_lines() -> Iterator[str]:
    """Standard input line by line, each read at most :data:`MAX_LINE` + 2 bytes at a time:
    the rest of a longer line is read and dropped (an endless line, ``/dev/zero``, fills no
    memory), and the line's first part is answered ``? line too long``."""
    stream = sys.stdin.buffer
    while raw := stream.readline(MAX_LINE + 2):
        if len(raw) == MAX_LINE + 2 and not raw.endswith(b"\n"):
            while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass
        yield raw.decode("utf-8", "replace")


def main(argv: list[str] | None = None) -> int:
    """``gamesearch gtp``: the GTP loop on standard input/output."""
    parser = argparse.ArgumentParser(prog="gamesearch gtp")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run_engine(args.agent, args.game, sys.stdout)


def add_arguments(parser: Any) -> None:
    parser.add_argument("--agent", default=None,
                        help="the agent that plays (default: the game's, "
                             "mcts:rave=1,prior_visits=20,c=0,time=2: pattern "
                             "playouts and priors)")
    parser.add_argument("--game", default="go", help="the game spec (go:size=9,komi=7.5)")


def run_engine(agent: str | None, game: str, out: TextIO) -> int:
    engine = GTPEngine(out, agent, game)
    try:
        engine.run(_stdin_lines())
    except KeyboardInterrupt:
        return 130
    finally:
        engine.agent.close()
    return 0


def cmd_gtp(args: argparse.Namespace, out: TextIO) -> int:
    return run_engine(args.agent, args.game, out)


def add_gtp_command(sub: Any) -> None:
    """Add ``gtp`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("gtp", help="play Go on the Go Text Protocol (stdin/stdout)")
    add_arguments(s)
    s.set_defaults(func=cmd_gtp)
