"""Agents: anything that picks a move — a search configuration, a random player, a person.

An agent is named by a spec, as on the command line: ``human``, ``random``, ``random:seed=3``,
or any search spec (``minimax``, ``alphabeta:depth=6``, ``id:time=1,tt=1M``; see
:func:`gamesearch.search.parse_spec` and :mod:`gamesearch.spec`).

``agent.choose(game, state, limit)`` returns a legal action. The optional
:class:`~gamesearch.search.Limit` is what the caller allows for this move — a time, or the
players' clocks (the arena), or a stop event (the web app); agents that search combine it
with the limit of their own spec (see :meth:`SearchAgent.limit_for`). :func:`play_game` is
the one game loop: the terminal, the arena and the web app all play through it.

Every game so far has perfect information, and an agent is handed the state. For a game
with hidden information (its ``observation()`` capability is not ``None``;
:class:`gamesearch.capabilities.Observation`) the one who holds the game passes, in the
state's place, the seat's view ``observe(state, seat)``, never the full state; an agent
that searches samples full states from it with ``sample``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import GameError, IllegalMoveError, InvalidLimitError, UnknownNameError
from .game import CHANCE, Book, FastSolver, Game, sample_outcome, solve_until
from .search import ALGORITHMS, Limit, SearchResult, make_searcher, parse_spec
from .search.common import Callback
from .search.control import MAX_SECONDS, SearchTimeout
from .spec import read_float, read_int, shorten, split_spec


class QuitGame(Exception):
    """A human asked to stop playing."""


class Agent:
    """Base class: :meth:`choose` returns a legal action of ``game`` in ``state``."""

    name: str = "agent"

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        """A legal action for the player to move; ``limit``: what the caller allows for
        this move (``None``: the agent's own setting). Agents that do not search ignore it."""
        raise NotImplementedError

    def reset(self) -> None:
        """Forget everything about the previous game."""


@dataclass
class RandomAgent(Agent):
    seed: int | None = None
    name: str = "random"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        return self.rng.choice(list(game.actions(state)))


class SearchAgent(Agent):
    """Picks the move a search algorithm recommends; keeps its tables between moves."""

    def __init__(
        self,
        game: Game[Any, Any],
        spec: str,
        default_time: float | None = 1.0,
        callback: Callback | None = None,
    ) -> None:
        algorithm, options, limit = parse_spec(spec)
        if algorithm not in ALGORITHMS:
            raise UnknownNameError("agent", spec, [*ALGORITHMS, *AGENT_KINDS])
        #: the limit the spec itself gives (``Limit()`` when it names none)
        self.spec_limit = limit
        self.default_time = default_time
        self.name = spec
        self.searcher = make_searcher(game, algorithm, **options)
        self.callback = callback
        self.last: SearchResult | None = None

    def limit_for(self, limit: Limit | None) -> Limit:
        """The limit of one move: a spec without a limit searches as the caller allows (or
        ``default_time``); a spec with ``time=`` takes the smaller time; a pure ``depth=``/
        ``nodes=`` spec keeps its limit (it stays deterministic, and may lose on time if
        it is too slow) but still honours the caller's stop event."""
        spec = self.spec_limit
        if limit is None or limit.unlimited:
            base = spec if not spec.unlimited or self.default_time is None else \
                Limit(time=self.default_time)
            stop = limit.stop if limit is not None else None
            return base if stop is None else Limit(
                base.depth, base.nodes, base.time, base.soft_time, stop=stop)
        if spec.unlimited:
            return limit
        if spec.time is not None:
            return Limit(spec.depth or limit.depth, spec.nodes or limit.nodes,
                         spec.time, None, limit.clocks, limit.increments, limit.moves_to_go,
                         limit.stop).with_time(limit.time)
        return Limit(spec.depth, spec.nodes, stop=limit.stop)

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        self.last = self.searcher.search(state, self.limit_for(limit), self.callback)
        return self.last.action


class SolverAgent(Agent):
    """Plays perfectly once the exact solver can finish in time, and like ``id`` before.

    First the game's opening book when it has one (its ``opening_book`` capability; ``book`` is
    ``None`` for the game's own book, ``"off"``, or a file), then the game's compiled solver
    when it has one installed (its ``fast_solver`` capability), else the Python solver. Each move
    tries the solver with half the move's time (a compiled one in node-budget slices on a
    warm table, checking the clock between slices); if that runs out, the ``id`` engine
    searches for the rest. Two-player zero-sum games only.
    """

    def __init__(self, game: Game[Any, Any], seconds: float | None = 1.0,
                 book: str | None = None) -> None:
        from .search.solve import make_solver

        self.name = "solver"
        self.seconds = seconds if seconds is not None else 1.0
        self.solver = make_solver(game, tt=1 << 20)
        self.engine = SearchAgent(game, "id", self.seconds)
        self.last: SearchResult | None = None
        #: the last move's solver result (``"book": True`` when it came from the book)
        self.solved: dict[str, Any] | None = None
        self.book: Book | None = game.opening_book(book)
        self.fast: FastSolver | None = game.fast_solver()

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        budget = self.seconds
        if limit is not None and limit.timed:
            budget, _ = limit.budget(game.to_move(state))
        start = time.perf_counter()
        self.last = None
        if self.book is not None:
            entry = self.book.lookup(state)
            if entry is not None and entry.move in game.actions(state):
                self.solved = {"value": entry.score, "move": entry.move, "nodes": 0,
                               "seconds": time.perf_counter() - start, "book": True,
                               "exact": entry.exact}
                return entry.move
        if self.fast is not None:
            self.solved = self._solve_fast(self.fast, state, start + budget / 2)
            if self.solved is not None:
                return self.solved["move"]
        else:
            self.solver.table.clear()
            try:
                r = self.solver.solve(state, best_moves=False, limit=Limit(time=budget / 2))
                self.solved = {"value": r.value, "move": r.action, "nodes": r.nodes,
                               "seconds": r.seconds}
                return r.action
            except SearchTimeout:
                self.solved = None
        left = max(budget - (time.perf_counter() - start), budget / 4)
        action = self.engine.choose(game, state, Limit(time=left))
        self.last = self.engine.last
        return action

    @staticmethod
    def _solve_fast(fast: FastSolver, state: Any, deadline: float) -> dict[str, Any] | None:
        """The compiled solve by the ``deadline`` (None if it did not finish): slices of
        nodes on the table the previous slice left (still sound), sized from the rate."""
        return solve_until(fast.solve, state, deadline, first_slice=200_000)


class HumanAgent(Agent):
    """Asks a person for a move in the game's notation; refuses illegal ones and asks again."""

    name = "human"

    def __init__(
        self, read: Callable[[str], str] = input, write: Callable[[str], None] = print
    ) -> None:
        self.read = read
        self.write = write

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        while True:
            try:
                text = self.read("your move (q to quit): ")
            except EOFError:
                raise QuitGame from None
            text = text.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if not text:
                continue
            try:
                return game.parse_action(state, text)
            except IllegalMoveError as exc:
                self.write(str(exc))


def make_agent(
    game: Game[Any, Any],
    spec: str,
    default_time: float | None = 1.0,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    callback: Callback | None = None,
) -> Agent:
    """Build an agent from its spec (``human``, ``random[:seed=N]``,
    ``solver[:time=S,book=off|FILE]`` or a search spec)."""
    parsed = split_spec(spec, options=False)
    name = parsed.name
    if name == "human":
        if parsed.rest.strip():
            raise InvalidLimitError(f"agent {shorten(spec)!r}: human takes no options")
        return HumanAgent(read, write)
    if name == "solver":
        options = split_spec(spec).options
        unknown = set(options) - {"time", "book"}
        if unknown:
            raise InvalidLimitError(f"solver agent option {shorten(min(unknown))!r}: only "
                                    "time=S and book=off|FILE are allowed")
        seconds = default_time
        if "time" in options:
            seconds = read_float("time", options["time"], 0.0, MAX_SECONDS, low_open=True)
        return SolverAgent(game, seconds, options.get("book") or None)
    if name == "random":
        options = split_spec(spec).options
        if set(options) - {"seed"}:
            raise InvalidLimitError(f"random agent options {shorten(parsed.rest)!r}: only "
                                    "seed=N is allowed")
        seed = read_int("seed", options["seed"], -(1 << 63), 1 << 63) \
            if "seed" in options else None
        return RandomAgent(seed)
    if name in ("uci", "py"):
        raise InvalidLimitError(f"agent {shorten(spec)!r}: {name}: agents play in the arena "
                                f"only (gamesearch match GAME {name}:... OTHER)")
    if name not in ALGORITHMS:
        raise UnknownNameError("agent", name, [*ALGORITHMS, *AGENT_KINDS])
    return SearchAgent(game, spec, default_time, callback)


AGENT_KINDS = {
    "human": "a person at the keyboard, typing moves in the game's notation",
    "solver": "perfect play once the exact solver finishes in half the move time, else id; "
              "the game's opening book first, if it has one (solver:book=off|FILE)",
    "random": "uniformly random legal moves (random:seed=N for a repeatable one)",
}

#: ``choose(player, state) -> action`` for :func:`play_game`'s ``choose``.
Chooser = Callable[[int, Any], Any]


def play_game(
    game: Game[Any, Any],
    agents: list[Agent],
    state: Any = None,
    rng: random.Random | None = None,
    on_move: Callable[[Any, Any, int], None] | None = None,
    max_moves: int = 100_000,
    choose: Chooser | None = None,
) -> tuple[Any, list[Any]]:
    """Play one game to the end or to ``max_moves`` moves (chance moves included); chance
    outcomes drawn from ``rng``. Returns (state, moves).

    This is the one game loop. ``choose(player, state)`` asks for a move (default: the
    agent's :meth:`Agent.choose`, its move checked for legality); the arena passes its
    own, which keeps the clocks and turns an agent's failure into a forfeit.
    """
    if len(agents) != game.num_players:
        raise GameError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    rng = rng or random.Random()
    state = game.initial_state() if state is None else state

    def ask(player: int, s: Any) -> Any:
        action = agents[player].choose(game, s)
        if action not in list(game.actions(s)):
            raise IllegalMoveError(action, game.legal_action_strings(s),
                                   reason=f"played by {agents[player].name}")
        return action

    choose = choose or ask
    moves: list[Any] = []
    while not game.is_terminal(state) and len(moves) < max_moves:
        player = game.to_move(state)
        action = sample_outcome(game, state, rng) if player == CHANCE else choose(player, state)
        if on_move is not None:
            on_move(state, action, player)
        state = game.result(state, action)
        moves.append(action)
    return state, moves
