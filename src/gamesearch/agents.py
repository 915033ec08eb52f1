"""Agents: anything that picks a move — a search configuration, a random player, a person.

An agent is named by a spec, as on the command line: ``human``, ``random``, ``random:seed=3``,
or any search spec (``minimax``, ``alphabeta:depth=6``, ``id:time=1,tt=1M``; see
:func:`gamesearch.search.parse_spec` and :mod:`gamesearch.spec`).

``agent.choose(game, state, limit)`` returns a legal action. The optional
:class:`~gamesearch.search.Limit` is what the caller allows for this move — a time, or the
players' clocks (the arena), or a stop event (the web app); agents that search combine it
with the limit of their own spec (see :meth:`SearchAgent.limit_for`). :func:`play_game` is
the one game loop: the terminal, the arena and the web app all play through it.

In a game of perfect information an agent is handed the state. In a game with hidden
information (bridge, Oh Hell: its ``observation()`` capability is not ``None``;
:class:`gamesearch.capabilities.Observation`) the one who holds the game passes, in the
state's place, the seat's view ``observe(state, seat)`` (:func:`seat_view`), never the full
state, and in the game's place the observation's ``public_game()`` (:func:`seat_game`),
which holds no secret of the holder's; an agent that searches samples full states from the
view with ``sample``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import (
    GameError,
    IllegalMoveError,
    InvalidLimitError,
    UnknownNameError,
    UnsupportedGameError,
)
from .game import CHANCE, Book, FastSolver, Game, sample_outcome, solve_until
from .search import ALGORITHMS, Limit, Searcher, SearchResult, make_searcher, parse_spec
from .search.common import Callback
from .search.control import MAX_SECONDS, Clock, SearchTimeout
from .spec import read_float, read_int, shorten, split_spec


class QuitGame(Exception):
    """A human asked to stop playing."""


@dataclass(frozen=True)
class AgentReport:
    """What an agent says about its last move: the one value the command line, the web app
    and the arena read after :meth:`Agent.choose` (``agent.report``; ``None``: nothing to
    say, as for a random player or a person).

    * ``source`` — where the move came from: ``"search"`` (a search; ``search`` holds its
      whole :class:`~gamesearch.search.SearchResult`), ``"solver"`` (the exact solver),
      ``"book"`` (an opening book) or ``"engine"`` (an external engine);
    * ``value`` — the value of the move for the player who made it, in the game's score
      convention (``None`` when not known); ``solved``: it is exact (a solve, or a book
      entry with its exact score; a book entry that knows only win / draw / loss gives its
      score with ``solved=False``);
    * ``depth`` (plies, when the source has one), ``nodes``, ``seconds`` and ``pv`` (the
      principal variation, from the move played on).
    """

    source: str
    value: Any = None
    depth: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    pv: tuple[Any, ...] = ()
    solved: bool = False
    search: SearchResult | None = None

    @classmethod
    def of_search(cls, r: SearchResult) -> AgentReport:
        """The report of a move a search chose."""
        return cls("search", r.value, r.depth, r.nodes, r.seconds, tuple(r.pv), False, r)


class Agent:
    """Base class: :meth:`choose` returns a legal action of ``game`` in ``state``.

    The life cycle, the same for every front end (the command line, the arena, the web app):

    1. build it (:func:`make_agent`, the arena's specs, a ``py:`` factory);
    2. :meth:`reset` at the start of every game (:func:`play_game` calls it);
    3. :meth:`choose` once per move; then :attr:`report` says what it found;
    4. :meth:`close` when it is no longer needed (its owner calls it, also after an error;
       ``with agent:`` does). It ends what the agent holds (an engine process); closing
       twice is harmless, and a closed agent is not asked to move again.
    """

    name: str = "agent"
    #: what the agent reports of its last move (set by :meth:`choose`; None: nothing)
    report: AgentReport | None = None
    #: the agent asks a person at the terminal (standard input): front ends whose standard
    #: input is a protocol channel (GTP) or that run unattended (a match against gnubg)
    #: refuse it rather than read the channel as moves or wait for no one
    interactive: bool = False

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        """A legal action for the player to move; ``limit``: what the caller allows for
        this move (``None``: the agent's own setting). Agents that do not search ignore it.
        Sets :attr:`report` (``None`` when there is nothing to report)."""
        raise NotImplementedError

    def distribution(self, game: Game[Any, Any], state: Any) -> dict[Any, float] | None:
        """The probabilities with which :meth:`choose` would play each legal action here,
        for an agent that plays from a known distribution (a saved policy, a random
        player); ``None`` (the default) for one that only picks a move. Read by
        :func:`agent_decider`; it does not move and sets no report."""
        return None

    def reset(self) -> None:
        """Forget everything about the previous game (called at the start of each game).
        Subclasses that override it call ``super().reset()``."""
        self.report = None

    def close(self) -> None:
        """Release what the agent holds (an engine process); nothing by default."""

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class RandomAgent(Agent):
    seed: int | None = None
    name: str = "random"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        return self.rng.choice(view_actions(game, state))

    def distribution(self, game: Game[Any, Any], state: Any) -> dict[Any, float] | None:
        actions = view_actions(game, state)
        return {a: 1.0 / len(actions) for a in actions}


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
        self._make: Callable[[], Searcher] = lambda: make_searcher(game, algorithm, **options)
        self.searcher = self._make()
        #: the searcher has searched since it was built (a reset builds a new one)
        self._used = False
        self.callback = callback
        #: the last move's whole search result (also ``report.search``)
        self.last: SearchResult | None = None

    def reset(self) -> None:
        """A new game: a fresh searcher (no table, tree or history from the last game)."""
        super().reset()
        self.last = None
        if self._used:
            self.searcher = self._make()
            self._used = False

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
        self._used = True
        self.report = None
        self.last = self.searcher.search(state, self.limit_for(limit), self.callback)
        self.report = AgentReport.of_search(self.last)
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

    #: The time source of the move's clock (``None``: ``time.perf_counter``; tests).
    time_source: Callable[[], float] | None = None

    def reset(self) -> None:
        super().reset()
        self.last = None
        self.solved = None
        self.solver.table.clear()
        self.engine.reset()

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        # The move's budget is its clock's target (a plain time, or the game clock's share),
        # never the hard limit: a solve that fails leaves the rest of the target to ``id``.
        stop = limit.stop if limit is not None else None
        if limit is None or not limit.timed:
            limit = Limit(time=self.seconds, stop=stop)
        clock = Clock.start(limit, game.to_move(state), now=self.time_source)
        budget = clock.target
        self.last = None
        self.report = None
        if self.book is not None:
            entry = self.book.lookup(state)
            if entry is not None and entry.move in game.actions(state):
                self.solved = {"value": entry.score, "move": entry.move, "nodes": 0,
                               "seconds": clock.elapsed(), "book": True,
                               "exact": entry.exact}
                self.report = AgentReport("book", entry.score, None, 0, clock.elapsed(),
                                          (entry.move,), bool(entry.exact))
                return entry.move
        if self.fast is not None:
            self.solved = self._solve_fast(self.fast, state, clock.start_time + budget / 2)
        else:
            self.solver.table.clear()
            try:
                r = self.solver.solve(state, best_moves=False, limit=Limit(time=budget / 2,
                                                                     stop=stop))
                self.solved = {"value": r.value, "move": r.action, "nodes": r.nodes,
                               "seconds": r.seconds}
            except SearchTimeout:
                self.solved = None
        if self.solved is not None:
            sv = self.solved
            self.report = AgentReport("solver", sv["value"], None, sv["nodes"],
                                      sv["seconds"], (sv["move"],), True)
            return sv["move"]
        left = max(budget - clock.elapsed(), budget / 4)
        action = self.engine.choose(game, state, Limit(time=left, stop=stop))
        self.last = self.engine.last
        self.report = self.engine.report
        return action

    @staticmethod
    def _solve_fast(fast: FastSolver, state: Any, deadline: float) -> dict[str, Any] | None:
        """The compiled solve by the ``deadline`` (None if it did not finish): slices of
        nodes on the table the previous slice left (still sound), sized from the rate."""
        return solve_until(fast.solve, state, deadline, first_slice=200_000)


class HumanAgent(Agent):
    """Asks a person for a move in the game's notation; refuses illegal ones and asks again."""

    name = "human"
    interactive = True

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
                if game.observation() is None:
                    return game.parse_action(state, text)
                legal = {game.format_action(state, a).lower(): a
                         for a in view_actions(game, state)}
                if text.lower() in legal:
                    return legal[text.lower()]
                raise IllegalMoveError(text, list(legal))
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
    if name in ("uci", "gtp", "py"):
        raise InvalidLimitError(f"agent {shorten(spec)!r}: {name}: agents play in the arena "
                                f"only (gamesearch match GAME {name}:... OTHER)")
    if name == "pimc":
        return PimcAgent(game, spec)
    if name == "policy":
        return PolicyAgent.from_file(game, spec)
    if name == "cfr":
        return PolicyAgent.solved(game, spec)
    if name == "ismcts":
        return IsmctsAgent(game, spec)
    if name not in ALGORITHMS:
        raise UnknownNameError("agent", name, [*ALGORITHMS, *AGENT_KINDS])
    return SearchAgent(game, spec, default_time, callback)


AGENT_KINDS = {
    "human": "a person at the keyboard, typing moves in the game's notation",
    "solver": "perfect play once the exact solver finishes in half the move time, else id; "
              "the game's opening book first, if it has one (solver:book=off|FILE)",
    "random": "uniformly random legal moves (random:seed=N for a repeatable one)",
    "pimc": "perfect-information Monte Carlo on hidden-information games "
            "(pimc:worlds=N,time=S,nodes=N,search=perfect|maxn|paranoid|expectiminimax; "
            "perfect, double dummy for bridge, by default where the game has a perfect "
            "view; expectiminimax where chance is left in a world, as Leduc's public card)",
    "ismcts": "single-observer information set MCTS (Cowling et al. 2012) on "
              "hidden-information games (ismcts:iterations=N,time=S,c=C)",
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

    This is the one game loop. It starts the game for every agent (:meth:`Agent.reset`);
    ``choose(player, state)`` asks for a move (default: the agent's :meth:`Agent.choose`,
    its move checked for legality); the arena passes its own, which keeps the clocks and
    turns an agent's failure into a forfeit. Closing the agents is their owner's part of
    the life cycle (:class:`Agent`), so one agent may play several games.
    """
    if len(agents) != game.num_players:
        raise GameError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    for agent in agents:
        agent.reset()
    rng = rng or random.Random()
    state = game.initial_state() if state is None else state

    seated = seat_game(game)

    def ask(player: int, s: Any) -> Any:
        action = agents[player].choose(seated, seat_view(game, s, player))
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


# ----- hidden information ------------------------------------------------------------------
def seat_view(game: Game[Any, Any], state: Any, seat: int) -> Any:
    """What an agent in ``seat`` is handed: the seat's observation in a game with hidden
    information (``game.observation()``), the state itself otherwise. Every holder of a
    game (:func:`play_game`, the arena, the web app) asks the agent through this."""
    observation = game.observation()
    return state if observation is None else observation.observe(state, seat)


def seat_game(game: Game[Any, Any]) -> Game[Any, Any]:
    """The game an agent is handed with its view: in a game with hidden information the
    observation's ``public_game()`` (the rules without the holder's secrets, such as a
    fixed deal, and none of the holder's caches), the game itself otherwise."""
    observation = game.observation()
    return game if observation is None else observation.public_game()


def view_actions(game: Game[Any, Any], view: Any) -> list[Any]:
    """The legal actions of the seat whose view (or state) ``view`` is."""
    observation = game.observation()
    return list(game.actions(view) if observation is None else observation.actions(view))


class PimcAgent(Agent):
    """Perfect-information Monte Carlo (:mod:`gamesearch.search.pimc`): ``pimc:worlds=N,
    time=S,nodes=N,search=perfect|maxn|paranoid|expectiminimax,seed=N`` (``perfect``, each
    world solved in the game's perfect view -- bridge's double dummy -- by default where
    there is one; ``expectiminimax`` where a world still has chance nodes, as Leduc's;
    ``time`` and ``nodes`` bound a decision, inside a world's solve too). Needs
    a game with an observation and a sampler; it is handed the seat's view, never the
    state."""

    def __init__(self, game: Game[Any, Any], spec: str) -> None:
        from .search.pimc import WORLD_SEARCHES, default_world_search

        if game.observation() is None:
            raise UnsupportedGameError(
                f"agent {shorten(spec)!r}: pimc needs a game with hidden information (an "
                f"observation and a sampler); {game.name} has none")
        options = split_spec(spec).options
        unknown = set(options) - {"worlds", "time", "nodes", "search", "seed"}
        if unknown:
            raise InvalidLimitError(f"pimc agent option {shorten(min(unknown))!r}: allowed: "
                                    "worlds=N, time=S, nodes=N, "
                                    "search=perfect|maxn|paranoid|expectiminimax, "
                                    "seed=N")
        self.worlds = read_int("worlds", options["worlds"], 1, 100_000) \
            if "worlds" in options else 20
        self.seconds = read_float("time", options["time"], 0.0, MAX_SECONDS, low_open=True) \
            if "time" in options else None
        self.max_nodes = read_int("nodes", options["nodes"], 1, 1 << 62) \
            if "nodes" in options else None
        world = getattr(game.observation(), "world", None)
        default = default_world_search(world) if world is not None else "maxn"
        self.search = options.get("search", default)
        if self.search not in WORLD_SEARCHES:
            raise InvalidLimitError(f"pimc search {self.search!r}: allowed: "
                                    f"{', '.join(WORLD_SEARCHES)}")
        seed = read_int("seed", options["seed"], 0, 1 << 63) if "seed" in options else None
        self.rng = random.Random(seed)
        self.name = spec
        self.last: Any = None

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        from .search.pimc import pimc

        seat, seconds = _view_seat_and_seconds("pimc", state, self.seconds, limit)
        self.last = r = pimc(game, state, seat, worlds=self.worlds, seconds=seconds,
                             search=self.search, rng=self.rng, max_nodes=self.max_nodes)
        self.report = AgentReport("search", r.averages[r.action], None, r.nodes, r.seconds,
                                  (r.action,), False, r.search_result())
        return r.action


def _view_seat_and_seconds(kind: str, view: Any, seconds: float | None,
                           limit: Limit | None) -> tuple[int, float | None]:
    """The seat of the view a hidden-information agent is handed, and its time: its own
    ``time=`` option, cut to the limit's time when that is shorter."""
    seat = getattr(view, "seat", None)
    if seat is None:
        raise UnsupportedGameError(f"{kind} is handed a seat's view (game.observation()), "
                                   "not a full state")
    if limit is not None and limit.time is not None:
        seconds = limit.time if seconds is None else min(seconds, limit.time)
    return seat, seconds


class PolicyAgent(Agent):
    """Plays a policy table (information set ``str(view)`` -> probabilities of the view's
    legal actions, :mod:`gamesearch.search.policy_file`): ``policy:FILE[,seed=N]`` loads
    a saved one (checked: its game must be this game), ``cfr:iterations=N,algorithm=A,
    seed=N`` solves the game once (:func:`~gamesearch.search.equilibrium.solve_equilibrium`)
    when built. Handed the seat's view; an information set the table lacks is played
    uniformly."""

    def __init__(self, game: Game[Any, Any], table: dict[str, list[float]], name: str,
                 seed: int | None = None) -> None:
        if game.observation() is None:
            raise UnsupportedGameError(f"agent {shorten(name)!r}: a policy plays a game with "
                                       f"hidden information (an observation); {game.name} "
                                       "has none")
        self.table = table
        self.name = name
        self.rng = random.Random(seed)

    @classmethod
    def from_file(cls, game: Game[Any, Any], spec: str) -> PolicyAgent:
        """``policy:FILE[,seed=N]``."""
        rest = split_spec(spec, options=False).rest
        path, _, seed_text = rest.rpartition(",seed=")
        if not path:
            path, seed_text = rest, ""
        if not path.strip():
            raise InvalidLimitError(f"agent {shorten(spec)!r}: expected policy:FILE")
        from .search.policy_file import load_policy

        seed = read_int("seed", seed_text, -(1 << 63), 1 << 63) if seed_text else None
        if game.observation() is None:
            return cls(game, {}, spec, seed)  # (refused there, before reading a file)
        return cls(game, load_policy(path.strip(), game)[0], spec, seed)

    @classmethod
    def solved(cls, game: Game[Any, Any], spec: str) -> PolicyAgent:
        """``cfr:iterations=N,algorithm=A,seed=N``."""
        options = split_spec(spec).options
        unknown = set(options) - {"iterations", "algorithm", "seed"}
        if unknown:
            raise InvalidLimitError(f"cfr agent option {shorten(min(unknown))!r}: allowed: "
                                    "iterations=N, algorithm=A, seed=N")
        from .search.equilibrium import solve_equilibrium

        iterations = read_int("iterations", options.get("iterations", "1000"), 1, 10**8)
        seed = read_int("seed", options["seed"], -(1 << 63), 1 << 63) \
            if "seed" in options else None
        agent = cls(game, {}, spec, seed)
        agent.table = solve_equilibrium(game, options.get("algorithm", "cfr+"), iterations,
                                        seed).table
        return agent

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        actions = view_actions(game, state)
        action = self.rng.choices(actions, self._probabilities(state, actions))[0]
        self.report = AgentReport("policy", None, None, 0, 0.0, (action,))
        return action

    def distribution(self, game: Game[Any, Any], state: Any) -> dict[Any, float] | None:
        actions = view_actions(game, state)
        probs = self._probabilities(state, actions)
        total = sum(probs)
        return {a: p / total for a, p in zip(actions, probs, strict=True)}

    def _probabilities(self, view: Any, actions: list[Any]) -> list[float]:
        """The table's row for ``view`` (uniform where it has none that fits)."""
        probs = self.table.get(str(view))
        if probs is None or len(probs) != len(actions):
            return [1.0] * len(actions)
        return probs


class IsmctsAgent(Agent):
    """SO-ISMCTS (:mod:`gamesearch.search.ismcts`): ``ismcts:iterations=N,time=S,c=C,
    seed=N``; handed the seat's view, like :class:`PimcAgent`."""

    def __init__(self, game: Game[Any, Any], spec: str) -> None:
        if game.observation() is None:
            raise UnsupportedGameError(
                f"agent {shorten(spec)!r}: ismcts needs a game with hidden information (an "
                f"observation and a sampler); {game.name} has none: use mcts")
        options = split_spec(spec).options
        unknown = set(options) - {"iterations", "time", "c", "seed"}
        if unknown:
            raise InvalidLimitError(f"ismcts agent option {shorten(min(unknown))!r}: "
                                    "allowed: iterations=N, time=S, c=C, seed=N")
        self.iterations = read_int("iterations", options["iterations"], 1, 10**9) \
            if "iterations" in options else 1000
        self.seconds = read_float("time", options["time"], 0.0, MAX_SECONDS, low_open=True) \
            if "time" in options else None
        self.c = read_float("c", options["c"], 0.0, 1e6) if "c" in options else 0.7
        seed = read_int("seed", options["seed"], 0, 1 << 63) if "seed" in options else None
        self.rng = random.Random(seed)
        self.name = spec
        self.last: Any = None

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        from .search.ismcts import ismcts

        seat, seconds = _view_seat_and_seconds("ismcts", state, self.seconds, limit)
        self.last = r = ismcts(game, state, seat, iterations=self.iterations,
                               seconds=seconds, c=self.c, rng=self.rng)
        self.report = AgentReport("search", r.means[r.action], None, r.iterations,
                                  r.seconds, (r.action,), False, r.search_result())
        return r.action


# ----- an agent's play as a policy --------------------------------------------------------
#: what :func:`agent_decider` records at an information set
DECISION_KINDS = {
    "choice": "the move the agent plays, with probability 1 (a pure policy); an agent that "
              "knows its distribution (policy:, cfr:, random) gives that instead",
    "visits": "the root visit counts, normalised, of an agent that reports them (ismcts); "
              "the distribution of an agent that knows one, as for choice",
}


def agent_decider(game: Game[Any, Any], spec: str, kind: str = "choice"
                  ) -> Callable[[Any, int], dict[Any, float]]:
    """``decide(view, seed)`` for :func:`gamesearch.search.agent_policy.decisions_policy`:
    an agent that knows its distribution gives it; for any other, a fresh agent of
    ``spec`` with ``seed=`` added to its options (so the spec must not name one) is handed
    the seat's game and ``view``, as in play, and its decision is recorded as
    :data:`DECISION_KINDS` says."""
    if kind not in DECISION_KINDS:
        raise UnknownNameError("decision kind", kind, DECISION_KINDS)
    if "seed=" in spec:
        raise InvalidLimitError(f"agent {shorten(spec)!r}: the policy's seed decides every "
                                "set's seed; drop seed= from the spec")
    # one agent built first: it refuses a bad spec before any set, and answers every set
    # itself when it knows its distribution (a policy: one file read, one solve)
    first = make_agent(game, spec)
    seated = seat_game(game)
    joiner = "," if ":" in spec else ":"

    def decide(view: Any, seed: int) -> dict[Any, float]:
        known = first.distribution(seated, view)
        if known is not None:
            return known
        with make_agent(game, f"{spec}{joiner}seed={seed}") as agent:
            action = agent.choose(seated, view)
            if kind == "choice":
                return {action: 1.0}
            report = agent.report
            search = None if report is None else report.search
            extra = {} if search is None else search.extra
            if extra.get("sample_kind") != "iterations":
                raise UnsupportedGameError(f"agent {shorten(spec)!r} reports no root visit "
                                           "counts (a tree search's): use kind choice")
            visits = {s["action"]: float(s["visits"]) for s in extra["root_stats"]}
            total = sum(visits.values())
            return {a: n / total for a, n in visits.items()} if total > 0 else {action: 1.0}

    return decide
