"""Agents: anything that picks a move — a search configuration, a random player, a person.

An agent is named by a spec, as on the command line: ``human``, ``random``, ``random:seed=3``,
or any search spec (``minimax``, ``alphabeta:depth=6``, ``id:time=1,tt=1M``; see
:func:`gamesearch.search.parse_spec`). A search agent with no limit in its spec gets the time
per move the caller gives it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import GameError, IllegalMoveError, InvalidLimitError, UnknownNameError
from .game import CHANCE, Game
from .search import ALGORITHMS, Limit, SearchResult, make_searcher, parse_spec
from .search.common import Callback


class QuitGame(Exception):
    """A human asked to stop playing."""


class Agent:
    """Base class: ``choose`` returns a legal action of ``game`` in ``state``."""

    name: str = "agent"

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        raise NotImplementedError

    def choose_in(self, game: Game[Any, Any], state: Any, seconds: float | None) -> Any:
        """Like :meth:`choose`, given the seconds this move may take (a time control's
        budget; ``None``: no clock). Agents that do not manage time ignore it."""
        return self.choose(game, state)

    def reset(self) -> None:
        """Forget everything about the previous game."""


@dataclass
class RandomAgent(Agent):
    seed: int | None = None
    name: str = "random"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
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
            raise UnknownNameError("agent", spec, [*ALGORITHMS, "human", "random"])
        #: the limit the spec itself gives (``Limit()`` when it names none)
        self.spec_limit = limit
        if limit.unlimited and default_time is not None:
            limit = Limit(time=default_time)
        self.name = spec
        self.limit = limit
        self.searcher = make_searcher(game, algorithm, **options)
        self.callback = callback
        self.last: SearchResult | None = None

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        self.last = self.searcher.search(state, self.limit, self.callback)
        return self.last.action

    def choose_in(self, game: Game[Any, Any], state: Any, seconds: float | None) -> Any:
        """Search within ``seconds``: a spec without a limit searches for ``seconds``; a spec
        with ``time=`` searches for the smaller of the two; a pure ``depth=``/``nodes=`` spec
        keeps its limit (it stays deterministic, and may lose on time if it is too slow)."""
        spec = self.spec_limit
        if seconds is None or not seconds > 0:
            return self.choose(game, state)
        if spec.unlimited:
            limit = Limit(time=seconds)
        elif spec.time is not None:
            limit = Limit(depth=spec.depth, time=min(spec.time, seconds), nodes=spec.nodes)
        else:
            limit = spec
        self.last = self.searcher.search(state, limit, self.callback)
        return self.last.action


class SolverAgent(Agent):
    """Plays perfectly once the exact solver can finish in time, and like ``id`` before.

    Connect Four: first the opening book (:mod:`gamesearch.book`; ``book`` is ``None`` for
    the package's book, ``"off"``, or a file), then the compiled solver when numba is
    installed. Each move tries the solver with half the move's time (the compiled one in
    node-budget slices on a warm table, checking the clock between slices); if that runs
    out, the ``id`` engine searches for the rest. Two-player zero-sum games only.
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
        self.book: Any = None
        self.fast: Any = None
        if game.name == "connect4":
            from . import book as books
            from .search import compiled_connect4

            self.book = books.load_book(book)
            if compiled_connect4.available():
                self.fast = compiled_connect4
        elif book is not None and book.strip().lower() != "off":
            raise InvalidLimitError(f"solver agent book={book!r}: the opening book is for "
                                    "connect4 only")

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        return self.choose_in(game, state, self.seconds)

    def choose_in(self, game: Game[Any, Any], state: Any, seconds: float | None) -> Any:
        from .search.common import SearchTimeout
        from .search.solve import solve

        budget = self.seconds if seconds is None or not seconds > 0 else seconds
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
            self.solved = self._solve_fast(state, start + budget / 2)
            if self.solved is not None:
                return self.solved["move"]
        else:
            self.solver.table.clear()  # type: ignore[union-attr]
            try:
                self.solved = solve(game, state, solver=self.solver, best_moves=False,
                                    limit=Limit(time=budget / 2))
                return self.solved["move"]
            except SearchTimeout:
                self.solved = None
        left = max(budget - (time.perf_counter() - start), budget / 4)
        action = self.engine.choose_in(game, state, left)
        self.last = self.engine.last
        return action

    def _solve_fast(self, state: Any, deadline: float) -> dict[str, Any] | None:
        """The compiled solve by the ``deadline`` (None if it did not finish): slices of
        nodes on the table the previous slice left (still sound), sized from the rate."""
        from .search.common import SearchTimeout

        keep, chunk, nodes = False, 200_000, 0
        t0 = time.perf_counter()
        while True:
            try:
                result: dict[str, Any] = self.fast.solve_fast(
                    state, keep_table=keep, max_nodes=chunk)
            except SearchTimeout:
                keep = True
                nodes += chunk
                now = time.perf_counter()
                if now >= deadline:
                    return None
                rate = nodes / max(now - t0, 1e-3)
                chunk = max(100_000, int(rate * (deadline - now)))
                continue
            result["nodes"] += nodes
            result["seconds"] = time.perf_counter() - t0
            return result


class HumanAgent(Agent):
    """Asks a person for a move in the game's notation; refuses illegal ones and asks again."""

    name = "human"

    def __init__(
        self, read: Callable[[str], str] = input, write: Callable[[str], None] = print
    ) -> None:
        self.read = read
        self.write = write

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
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
    """Build an agent from its spec (``human``, ``random[:seed=N]`` or a search spec)."""
    name, _, rest = spec.strip().partition(":")
    name = name.lower()
    if name == "human":
        return HumanAgent(read, write)
    if name == "solver":
        seconds = default_time
        book = None
        for part in filter(None, rest.split(",")):
            key, _, val = part.partition("=")
            if key.strip() == "book" and val.strip():
                book = val.strip()
                continue
            try:
                if key.strip() != "time":
                    raise ValueError
                seconds = float(val)
            except ValueError:
                raise InvalidLimitError(f"solver agent option {part!r}: only time=S and "
                                        "book=off|FILE are allowed") from None
            if not seconds > 0:
                raise InvalidLimitError(f"solver agent time {val!r}: must be positive")
        return SolverAgent(game, seconds, book)
    if name == "random":
        seed = None
        for part in filter(None, rest.split(",")):
            key, _, val = part.partition("=")
            if key.strip() != "seed" or not val.strip().lstrip("-").isdigit():
                raise InvalidLimitError(f"random agent option {part!r}: only seed=N is allowed")
            seed = int(val)
        return RandomAgent(seed)
    return SearchAgent(game, spec, default_time, callback)


AGENT_KINDS = {
    "human": "a person at the keyboard, typing moves in the game's notation",
    "solver": "perfect play once the exact solver finishes in half the move time, else id; "
              "connect4: opening book first (solver:book=off|FILE)",
    "random": "uniformly random legal moves (random:seed=N for a repeatable one)",
}


def play_game(
    game: Game[Any, Any],
    agents: list[Agent],
    state: Any = None,
    rng: random.Random | None = None,
    on_move: Callable[[Any, Any, int], None] | None = None,
    max_moves: int = 100_000,
) -> tuple[Any, list[Any]]:
    """Play one game to the end; chance outcomes drawn from ``rng``. Returns (state, moves)."""
    if len(agents) != game.num_players:
        raise GameError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    rng = rng or random.Random()
    state = game.initial_state() if state is None else state
    moves: list[Any] = []
    while not game.is_terminal(state) and len(moves) < max_moves:
        player = game.to_move(state)
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = agents[player].choose(game, state)
            if action not in list(game.actions(state)):
                raise IllegalMoveError(action, game.legal_action_strings(state),
                                       reason=f"played by {agents[player].name}")
        if on_move is not None:
            on_move(state, action, player)
        state = game.result(state, action)
        moves.append(action)
    return state, moves
