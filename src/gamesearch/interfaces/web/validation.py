"""Every input of the web app read by the library's own parsers, within the server's caps.

A bad input raises :class:`WebInputError` (HTTP 400) carrying the library's one-line
message; nothing a request sends is ever evaluated, passed to a shell or used as a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...agents import Agent, SolverAgent, make_agent
from ...argtypes import Range
from ...errors import GameError, InvalidLimitError, echo
from ...game import CHANCE, Game
from ...games import get_game
from ...search import Limit, parse_spec
from ...search.tt import parse_size
from ...spec import PY_PREFIX, read_bool, split_spec
from ..analysis import default_agent

#: deepest depth limit a request may give
MAX_DEPTH = 100


class WebInputError(GameError):
    """A request the server refuses (HTTP 400, or ``status``)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Caps:
    """What one request may ask for."""

    #: seconds of search per request (analyse, an engine move, solve)
    time: float = 10.0
    #: nodes per search (also bounds a search's transposition table)
    nodes: int = 5_000_000
    #: transposition-table entries an algorithm spec may ask for
    tt: int = 1 << 22
    #: characters of any text parameter (positions, move lists, specs)
    text: int = 4000
    #: moves in a move list
    moves: int = 1000
    #: seconds of time the solve page may spend on each move's score
    score_time: float = 2.0
    #: iterations of an equilibrium run (the Equilibria page; the ``cfr`` agent)
    equilibrium_iterations: int = 100_000
    #: seconds an equilibrium run, or a ``cfr`` agent's solve, may take
    equilibrium_time: float = 30.0


def text(name: str, value: str | None, caps: Caps, default: str | None = None) -> str | None:
    """A text parameter, refused when longer than the cap or holding control characters."""
    if value is None:
        return default
    if len(value) > caps.text:
        raise WebInputError(f"{name}: {len(value)} characters; at most {caps.text} allowed")
    if any(ord(c) < 32 and c not in "\t" for c in value):
        raise WebInputError(f"{name}: control characters are not allowed")
    return value


def game(name: str | None, caps: Caps) -> Game[Any, Any]:
    """The game of a spec (``tictactoe``, ``pig:goal=50``). A ``py:MODULE:ATTR`` spec is
    refused: importing a module a request names would run code on the server's say-so of a
    client; a server offers the library's games and the installed ones (entry points)."""
    if not name:
        raise WebInputError("game: missing; e.g. game=tictactoe (see /api/games)")
    text("game", name, caps)
    if len(name) > 300:
        raise WebInputError("game: spec too long")
    if name.strip()[:len(PY_PREFIX)].lower() == PY_PREFIX:
        raise WebInputError("game: py:MODULE:ATTR games are for the command line and the "
                            "arena; the web app plays the games of /api/games")
    return get_game(name)


def state(g: Game[Any, Any], position: str | None, moves: str | None, caps: Caps
          ) -> tuple[Any, list[tuple[Any, Any]]]:
    """The state after ``moves`` (space-separated, the game's notation) from ``position``
    (the game's position string; empty or missing: the start). Returns the state and the
    ``(state before, action)`` history of the moves."""
    position = text("position", position, caps)
    moves = text("moves", moves, caps)
    s = g.initial_state() if position is None or position.strip() == "" else (
        g.parse_state(position))
    history: list[tuple[Any, Any]] = []
    words = (moves or "").split()
    if len(words) > caps.moves:
        raise WebInputError(f"moves: {len(words)} moves; at most {caps.moves} allowed")
    for i, word in enumerate(words, 1):
        if g.is_terminal(s):
            raise WebInputError(f"move {i} ({word!r}): the game is already over")
        try:
            if g.to_move(s) == CHANCE:
                a = _chance_outcome(g, s, word)
            else:
                a = g.parse_action(s, word)
        except GameError as exc:
            raise WebInputError(f"move {i}: {exc}") from None
        history.append((s, a))
        s = g.result(s, a)
    return s, history


def _chance_outcome(g: Game[Any, Any], s: Any, word: str) -> Any:
    for a, _p in g.chance_outcomes(s):
        if g.format_action(s, a) == word.strip():
            return a
    return g.parse_action(s, word)


def number(name: str, value: str | None, *, whole: bool = False,
           high: float | None = None) -> float | int | None:
    """A finite positive number (``None`` when absent); NaN, infinities, negatives, zero,
    words and numbers above ``high`` (the server's cap, when given) are refused with a
    message that states the whole range accepted."""
    if value is None or value.strip() == "":
        return None
    top = high if high is not None else (1 << 62 if whole else 1e9)
    where = " on this server" if high is not None else ""
    kind = (f"a whole number from 1 to {top:g}{where}" if whole else
            f"a positive number of seconds, at most {top:g} s{where}")
    try:  # ASCII digits only, no NaN or infinity (gamesearch.argtypes)
        x: float | int = (Range(1, top) if whole else
                          Range(0, top, whole=False, above=True)).parse(value)
    except ValueError:
        raise InvalidLimitError(f"{name} {echo(value)}: must be {kind}") from None
    if whole and name == "depth" and x > MAX_DEPTH:
        raise WebInputError(f"depth {x}: at most {MAX_DEPTH} on this server")
    return x


def capped_time(seconds: float | None, caps: Caps) -> float | None:
    if seconds is not None and seconds > caps.time:
        raise WebInputError(f"time {seconds:g}: this server searches at most "
                            f"{caps.time:g} s per request")
    return seconds


def capped_nodes(nodes: int | None, caps: Caps) -> int | None:
    if nodes is not None and nodes > caps.nodes:
        raise WebInputError(f"nodes {nodes}: this server searches at most {caps.nodes} "
                            "nodes per request")
    return nodes


def spec(name: str, value: str | None, caps: Caps) -> str | None:
    """An algorithm or agent spec: its options parsed by the library, its limits capped."""
    value = text(name, value, caps)
    if value is None or not value.strip():
        return None
    if len(value) > 200:
        raise WebInputError(f"{name}: spec too long (at most 200 characters)")
    head = value.strip().partition(":")[0].strip().lower()
    if head in ("human", "random", "solver"):
        return value.strip()
    if head == "cfr":  # its iterations within the server's cap (each is a tree walk)
        from .equilibria import check_agent_spec

        check_agent_spec(name, value, caps)
        return value.strip()
    if head == "policy":
        raise WebInputError(f"{name} {echo(value)}: policy:FILE reads a file of the server; "
                            "here a solved policy plays as cfr:iterations=N,algorithm=A "
                            "(the play buttons of the Equilibria page)")
    if head in ("pimc", "ismcts"):  # their own options (worlds, iterations...), checked
        # by the agent; the time of every move is bounded by the game's (capped) time
        given = split_spec(value).options.get("time")
        seconds = number(f"{name} time", given)
        capped_time(None if seconds is None else float(seconds), caps)
        return value.strip()
    _name, options, limit = parse_spec(value)
    capped_time(limit.time, caps)
    capped_nodes(limit.nodes, caps)
    if "tt" in options and parse_size(options["tt"]) > caps.tt:
        raise WebInputError(f"{name} {value!r}: tt at most {caps.tt} entries on this server")
    return value.strip()


def limit(time: float | None, depth: int | None, nodes: int | None, spec_text: str | None,
          caps: Caps) -> Limit | None:
    """The search limit of a request, as the command line reads ``--time/--depth/--nodes``
    (at most one), always bounded by the caps: a spec or request without a time gets the
    time cap, so a pure depth limit is searched by iterative deepening up to that depth.
    ``None`` when nothing is given (analyse then asks the book, like the command line)."""
    given = [x for x in (time, depth, nodes) if x is not None]
    if len(given) > 1:
        raise WebInputError("give at most one of time, depth, nodes")
    capped_time(time, caps)
    capped_nodes(nodes, caps)
    if not given:
        if not spec_text:
            return None
        _n, _o, spec_limit = parse_spec(spec_text)
        if spec_limit.unlimited:
            return Limit(time=1.0, nodes=caps.nodes)
        return Limit(depth=spec_limit.depth, time=spec_limit.time or caps.time,
                     nodes=spec_limit.nodes or caps.nodes)
    return Limit(depth=depth, time=time if time is not None else caps.time,
                 nodes=nodes if nodes is not None else caps.nodes)


def agent(g: Game[Any, Any], spec_text: str, seconds: float, callback: Any, caps: Caps
          ) -> Agent:
    """An engine agent from its spec (``human`` is refused: people click)."""
    head = spec_text.partition(":")[0].strip().lower()
    if head == "human":
        raise WebInputError("agent 'human': a person moves by clicking on the board")
    if head == "cfr":  # the Equilibria page's solved policy (cached), or solved in caps
        from .equilibria import cfr_agent

        return cfr_agent(g, spec_text, caps)
    a = make_agent(g, spec_text, seconds, callback=callback)
    if isinstance(a, SolverAgent):
        capped_time(a.seconds, caps)
    return a


def solvable(g: Game[Any, Any]) -> bool:
    """Whether ``/api/solve`` takes the game: two players, zero-sum, no chance (the exact
    solver), or a small tree (``GameType.small``, the textbook trees: a full-depth search of
    its whole tree). The one rule
    that ``/api/games`` reports as ``solvable`` and ``/api/solve`` and ``/api/scores``
    apply before any search: a game outside it (Pig: chance, and no end in sight) is refused
    at once instead of after the server's time cap."""
    gt = g.game_type
    return (gt.num_players == 2 and gt.zero_sum and not gt.chance) or gt.small


def require_solvable(g: Game[Any, Any], what: str = "solve") -> None:
    """:func:`solvable` or a :class:`WebInputError` (400) saying why not."""
    if not solvable(g):
        raise WebInputError(f"{g.name}: {what} needs a two-player zero-sum game without "
                            "chance, or a textbook tree (see /api/games: solvable); use "
                            "/api/analyze")


def new_game(g: Game[Any, Any], position: str | None, agents: list[str | None],
             caps: Caps, *, person_first: bool = False) -> tuple[Any, list[str]]:
    """Everything a new game is started with, checked before its first move (the one check
    of ``/api/start`` and of the games the server holds): the start ``position`` (its parse
    error, 400, says what is wrong with it) and every seat's agent spec (``human``, or a
    spec :func:`gamesearch.agents.make_agent` builds, built once here so that it is checked
    whole; a bad one is refused naming its seat and spec). Seats without a spec get the
    game's default opponent (``person_first``: the first seat a person). Returns the start
    state and the specs, one per seat."""
    position = text("position", position, caps)
    try:
        s = g.initial_state() if position is None or position.strip() == "" else (
            g.parse_state(position))
    except GameError as exc:
        raise WebInputError(f"start position: {exc}") from None
    if len(agents) > g.num_players:
        raise WebInputError(f"{len(agents)} agents for {g.name}, a game of "
                            f"{g.num_players} players")
    specs: list[str] = []
    for seat, given in enumerate([*agents, *[None] * (g.num_players - len(agents))], 1):
        name = f"player {seat}'s agent"
        try:
            value = spec(name, given, caps) or (
                "human" if person_first and seat == 1 else default_agent(g))
            if value.partition(":")[0].strip().lower() != "human":
                agent(g, value, 1.0, None, caps)
        except GameError as exc:
            message = str(exc)
            raise WebInputError(message if message.startswith(name) else
                                f"{name} {echo(given or '')}: {message}") from None
        specs.append(value)
    return s, specs


def flag(name: str, value: str | None) -> bool:
    """A yes/no parameter, read as the spec options are (``1/0, true/false, on/off``)."""
    if value is None or value == "":
        return False
    return read_bool(name, value)
