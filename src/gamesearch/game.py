"""The game model: one protocol for every game the textbook covers.

Follows the formal definition of AIMA 4th ed. §6.1 (S0, TO-MOVE, ACTIONS, RESULT,
IS-TERMINAL, UTILITY) and what the chapter adds later: chance nodes (§6.5), several players
(§6.2.2, max^n) and hidden information (§6.6). A game is a stateless object of rules; a state
is an immutable value (an int, a tuple, a frozen dataclass) that the rules act on.

Conventions, written down once:

* Players are numbered ``0 .. num_players-1``; ``to_move`` returns :data:`CHANCE` at a chance
  node, whose outcomes and probabilities come from :meth:`Game.chance_outcomes`.
* :meth:`Game.returns` gives the utility of a terminal state for every player.
  A two-player zero-sum game may override :meth:`Game.utility` for speed.
* ``actions`` lists legal actions in a stable order: search breaks ties in favour of the
  first action in this order.

:class:`Game` holds the rules only: the six textbook functions, ``terminal_utility`` (the
fused test the hot loops call), chance outcomes, ``key`` (the transposition tables' key),
``search_start`` (what a game needs at the start of every search), the notations
(``parse_action``/``format_action``/``parse_state``/``format_state``) and ``render``.
What a search, a solver or an interface asks beyond them is a *capability*
(:mod:`gamesearch.capabilities`): a method of :class:`Game` that returns a small typed
object, or ``None`` when the game does not have it (:data:`CAPABILITIES` lists them;
``docs/architecture.md`` has the table of who reads each and which games have it). There is
no flag to keep in step: presence is the object's presence. :mod:`gamesearch.games.nim`
shows each with a comment.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .capabilities import (
    BOOK_OFF,
    BOOK_ON,
    Book,
    BookEntry,
    CompiledSearch,
    Drawing,
    EndgameDatabase,
    EngineSettings,
    Evaluation,
    FastSolver,
    GameRecord,
    GnubgPlayer,
    GTPBoard,
    MatchHooks,
    MoveOrdering,
    NullMove,
    Observation,
    PerfectView,
    Perft,
    Playouts,
    SafeMoves,
    ScoreConvention,
    Tactics,
    TurnPassing,
    ValueBounds,
    solve_until,
)
from .errors import IllegalMoveError, InvalidPositionError, UnsupportedGameError
from .spec import GameOption, format_game_spec

#: ``to_move`` returns this at a chance node.
CHANCE = -1

#: The searches' win discount (written down in :mod:`gamesearch.search.common`, which uses
#: these): a full-size win ``d`` plies away is worth ``max_utility - d * max_utility /
#: DISCOUNT_FRACTION``, and reads as a win up to ``MAX_PLY`` plies away.
MAX_PLY = 500
DISCOUNT_FRACTION = 1000.0


def win_distance(value: Any, max_utility: float) -> int | None:
    """The plies to the end of a discounted win (``value > 0``) or loss (``value < 0``),
    read back from a search's value by the convention above; ``None`` for any other value
    (a heuristic, a draw, a vector)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    step = max_utility / DISCOUNT_FRACTION
    if abs(value) <= max_utility - MAX_PLY * step:
        return None
    return round((max_utility - abs(value)) / step)

S = TypeVar("S")
A = TypeVar("A")
F = TypeVar("F", bound=Callable[..., Any])

#: The capabilities: the methods of :class:`Game` that return a capability object or
#: ``None`` (name -> what the object is), filled by :func:`capability`.
CAPABILITIES: dict[str, str] = {}


def capability(method: F) -> F:
    """Mark a method of :class:`Game` as a capability (listed in :data:`CAPABILITIES`):
    it returns the capability object, or ``None`` when the game does not have it."""
    CAPABILITIES[method.__name__] = (method.__doc__ or "").strip().split("\n")[0]
    return method


@dataclass(frozen=True)
class GameType:
    """Flags that let an algorithm refuse a game it cannot handle, with a clear error."""

    num_players: int = 2
    chance: bool = False
    perfect_information: bool = True
    zero_sum: bool = True
    #: Two players strictly take turns (no chance node, no pass, no double move), so the
    #: player to move ``k`` plies below a state is the one to move there when ``k`` is even.
    #: Search reads the side from the ply's parity instead of calling ``to_move``.
    alternating: bool = False
    #: Every terminal ``returns`` vector and every evaluation vector (``[evaluate(s, p) for
    #: p in players]``) sums to this (``None``: not promised). With :attr:`value_bounds`
    #: it lets max^n prune (Korf 1991; Sturtevant 2003: ``maxn:shallow=1`` ...).
    constant_sum: float | None = None
    #: ``(low, high)``: every player's terminal utility and evaluation lies in it
    #: (``None``: not promised).
    value_bounds: tuple[float, float] | None = None
    #: The whole game tree is small enough to search to its end at once (the textbook
    #: trees): the web app's exact routes take it whatever its other flags say.
    small: bool = False

    def __post_init__(self) -> None:
        if self.alternating and (self.num_players != 2 or self.chance):
            raise ValueError("GameType: alternating needs two players and no chance nodes")


class Game(Generic[S, A]):
    """Base class of every game. Subclasses implement the six textbook functions, and offer
    capabilities by overriding the methods marked as such (each returns ``None`` here)."""

    name: str = "game"
    description: str = ""
    num_players: int = 2
    game_type: GameType = GameType()
    #: Largest absolute utility; wins of this size are discounted by distance in search.
    max_utility: float = 1.0
    #: What ``parse_state`` accepts, for error messages ("columns 1-7 as a digit string").
    state_notation: str = ""
    #: The options the game takes in a spec (``pig:goal=50``); each value is kept in the
    #: attribute of the same name (see :class:`gamesearch.spec.GameOption`).
    options: tuple[GameOption, ...] = ()
    #: The name a spec of this game starts with (set by :func:`gamesearch.games.get_game`;
    #: ``None``: :attr:`name`).
    spec_name: str | None = None

    @property
    def spec(self) -> str:
        """The canonical spec: :func:`gamesearch.games.get_game` builds this game again
        from it (``pig:goal=50``; options at their defaults are left out)."""
        values = {o.name: getattr(self, o.name, o.default) for o in self.options}
        return format_game_spec(self.spec_name or self.name, self.options, values)

    def split_position_line(self, line: str) -> tuple[str, str]:
        """A line of a positions file (``solve --file``, arena openings) split into the
        position and what follows it (an expected score, moves, a comment). The default:
        the first word; a game whose positions hold spaces (FEN) overrides it."""
        words = line.split(None, 1)
        return (words[0], words[1].strip() if len(words) > 1 else "") if words else ("", "")

    # ----- the textbook's six functions -----------------------------------------------
    def initial_state(self) -> S:
        raise NotImplementedError

    def to_move(self, state: S) -> int:
        raise NotImplementedError

    def actions(self, state: S) -> Sequence[A]:
        raise NotImplementedError

    def result(self, state: S, action: A) -> S:
        raise NotImplementedError

    def is_terminal(self, state: S) -> bool:
        raise NotImplementedError

    def returns(self, state: S) -> Sequence[float]:
        """Utility of a terminal state for every player (a vector of ``num_players``)."""
        raise NotImplementedError

    def utility(self, state: S, player: int) -> float:
        """Utility of a terminal state for ``player``; games may override it for speed."""
        return self.returns(state)[player]

    def terminal_utility(self, state: S, player: int) -> float | None:
        """``utility(state, player)`` if ``state`` is terminal, else ``None``.

        The search's hot loops call this one function instead of IS-TERMINAL then UTILITY;
        a game may override it with a fused, faster test. It must agree with the two.
        """
        if self.is_terminal(state):
            return self.utility(state, player)
        return None

    # ----- chance --------------------------------------------------------------------
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """``(outcome, probability)`` pairs at a chance node; probabilities sum to 1."""
        raise NotImplementedError(f"{self.name} has no chance nodes")

    # ----- what every search asks ------------------------------------------------------
    def key(self, state: S) -> Hashable:
        """A hashable key identifying the position, for transposition tables (default: the
        state itself, which must then be hashable); ``None``: the engine keeps the position
        out of its table (bridge's double dummy keeps only the starts of tricks)."""
        return state

    def search_start(self, state: S) -> S:
        """The position as the root of a search. Every search driver calls this on the
        position it is given, whatever the front end (the command line, the web app, the
        arena, the UCI engine), so every search plays by the same rules. Default: the state
        itself. Chess marks the root so that a position that recurs after it is a draw at
        its first repetition (the usual engine convention)."""
        return state

    # ----- capabilities (gamesearch.capabilities; None: the game has none) --------------
    @capability
    def evaluation(self, name: str | None = None) -> Evaluation[S] | None:
        """The heuristic evaluation (:class:`~.capabilities.Evaluation`) named ``name``
        (``None``: the game's default), for depth-limited search and MCTS cut-offs."""
        if name is not None:
            raise UnsupportedGameError(f"{self.name} has no evaluation {name!r}")
        return None

    @capability
    def move_ordering(self) -> MoveOrdering[S, A] | None:
        """The game's move ordering (:class:`~.capabilities.MoveOrdering`)."""
        return None

    @capability
    def tactics(self) -> Tactics[S, A] | None:
        """Noisy moves and check (:class:`~.capabilities.Tactics`): quiescence search,
        check extension, what late-move reductions and futility pruning leave alone."""
        return None

    @capability
    def null_move(self) -> NullMove[S] | None:
        """A pass for null-move pruning (:class:`~.capabilities.NullMove`)."""
        return None

    @capability
    def safe_moves(self) -> SafeMoves[S, A] | None:
        """Pons's pruning of moves that lose at once (:class:`~.capabilities.SafeMoves`)."""
        return None

    @capability
    def value_bounds(self) -> ValueBounds[S] | None:
        """Bounds on a node's value known without search (:class:`~.capabilities.ValueBounds`)."""
        return None

    @capability
    def score_convention(self) -> ScoreConvention[S] | None:
        """The game's scores of solved values (:class:`~.capabilities.ScoreConvention`)."""
        return None

    @capability
    def engine_settings(self) -> EngineSettings | None:
        """The engine policy the game asks for (:class:`~.capabilities.EngineSettings`)."""
        return None

    @capability
    def playouts(self) -> Playouts[S] | None:
        """What MCTS asks: priors, compiled playouts (:class:`~.capabilities.Playouts`)."""
        return None

    @capability
    def compiled_search(self) -> CompiledSearch | None:
        """A compiled twin of the engine's search (:class:`~.capabilities.CompiledSearch`),
        when installed."""
        return None

    @capability
    def fast_solver(self) -> FastSolver | None:
        """A compiled exact solver (:class:`~.capabilities.FastSolver`), when installed."""
        return None

    @capability
    def endgame_database(self) -> EndgameDatabase | None:
        """Exact values of endgame positions (:class:`~.capabilities.EndgameDatabase`), probed
        by the engine at its nodes; ``None``: no database (or none built yet)."""
        return None

    @capability
    def opening_book(self, spec: str | None = None) -> Book | None:
        """The game's opening book (:class:`~.capabilities.Book`) for ``spec``.

        ``spec`` ``None`` or a word of :data:`~.capabilities.BOOK_ON`: the game's own book;
        a word of :data:`~.capabilities.BOOK_OFF`: no book (``None``); anything else: the
        path of a book file. A file that cannot be read raises :class:`GameError`. A game
        without a book (this default) returns ``None`` when no book is asked for (``spec``
        ``None`` or off) and raises :class:`UnsupportedGameError` when one is."""
        if spec is None or spec.strip().lower() in BOOK_OFF:
            return None
        raise UnsupportedGameError(f"{self.name} has no opening book (book={spec!r}); "
                                   "allowed: off")

    @capability
    def book_builder(self) -> Callable[..., Book] | None:
        """The function that builds the game's opening book with its solver.

        ``gamesearch book`` calls it as ``builder(plies, out, root=, sides=, journal=,
        tt_capacity=, strong_nodes=, max_nodes=, max_seconds=, log=, command=)``: the
        positions with fewer than ``plies`` stones on the book's lines from the position
        ``root``, written to the file ``out``, resumable from the ``journal``. Connect Four's
        ``build_book`` (:mod:`gamesearch.games.connect4.book`) documents each option."""
        return None

    @capability
    def drawing(self) -> Drawing[S] | None:
        """The position drawn as SVG for the web app (:class:`~.capabilities.Drawing`)."""
        return None

    @capability
    def game_record(self) -> GameRecord[S, A] | None:
        """Game records read and written in the game's file format
        (:class:`~.capabilities.GameRecord`: Go's SGF)."""
        return None

    @capability
    def perft(self) -> Perft[S] | None:
        """The leaf count of the move tree (:class:`~.capabilities.Perft`)."""
        return None

    @capability
    def match_hooks(self) -> MatchHooks | None:
        """Default opponent, arena openings, PGN (:class:`~.capabilities.MatchHooks`)."""
        return None

    @capability
    def turn_passing(self) -> TurnPassing[S] | None:
        """The position with another player to move (:class:`~.capabilities.TurnPassing`),
        for best-reply search on three or more players."""
        return None

    @capability
    def observation(self) -> Observation[S, A] | None:
        """What a seat may see (:class:`~.capabilities.Observation`); ``None``: perfect
        information, every seat sees the state."""
        return None

    @capability
    def gtp(self) -> GTPBoard[S, A] | None:
        """The board as the Go Text Protocol reads it (:class:`~.capabilities.GTPBoard`):
        the game speaks GTP (``gamesearch gtp``, the ``gtp:`` agent)."""
        return None

    @capability
    def gnubg_player(self) -> GnubgPlayer[S] | None:
        """GNU Backgammon's board lines read (:class:`~.capabilities.GnubgPlayer`): the game
        plays gnubg through its external-player interface (``gamesearch gnubg-match``)."""
        return None

    @capability
    def perfect_view(self) -> PerfectView[S] | None:
        """The perfect-information game behind a full state of a hidden-information game
        (:class:`~.capabilities.PerfectView`)."""
        return None

    # ----- notation ------------------------------------------------------------------
    def format_action(self, state: S, action: A) -> str:
        return str(action)

    def parse_action(self, state: S, text: str) -> A:
        """Read an action in the game's notation; raise :class:`IllegalMoveError` if bad."""
        text = text.strip()
        for a in self.actions(state):
            if self.format_action(state, a) == text:
                return a
        raise IllegalMoveError(text, self.legal_action_strings(state))

    def format_state(self, state: S) -> str:
        """The position in the game's own notation (the inverse of ``parse_state``)."""
        return repr(state)

    def format_score(self, state: S, value: Any) -> str:
        """A search's ``value`` of ``state`` (for the player to move there, on the utility
        scale with wins discounted by distance: :mod:`gamesearch.search.common`) in words
        for people; front ends show this next to the number. This default writes the
        number; chess writes pawns or "mate in N", with the side to move."""
        if isinstance(value, tuple | list):
            return "(" + ", ".join(self.format_score(state, v) for v in value) + ")"
        if isinstance(value, float):
            return str(int(value)) if value.is_integer() else f"{value:.4g}"
        return str(value)

    def parse_state(self, text: str) -> S:
        raise InvalidPositionError(f"{self.name}: positions cannot be parsed from text")

    # The three hooks below are what a person reads (the web app's move list, status and
    # position box); the search never calls them.
    def describe_action(self, state: S, action: A) -> str:
        """A move as people write it (chess: SAN); default: :meth:`format_action`."""
        return self.format_action(state, action)

    def termination(self, state: S) -> str | None:
        """Why a finished game ended, in a few words (chess: ``"stalemate"``,
        ``"repetition"``...), or ``None`` when there is nothing to add to the result."""
        return None

    def format_line(self, start: S, actions: Sequence[A]) -> str:
        """The position reached by playing ``actions`` from ``start``, in the notation of
        :meth:`format_state`. A game whose positions are written as a move list (Connect
        Four) keeps the moves in the order played; default: the state's own text."""
        s = start
        for a in actions:
            s = self.result(s, a)
        return self.format_state(s)

    def render(self, state: S) -> str:
        """A human picture of the position for the terminal."""
        return self.format_state(state)

    # ----- conveniences built on the above -------------------------------------------
    def legal_action_strings(self, state: S) -> list[str]:
        if self.is_terminal(state):
            return []
        return [self.format_action(state, a) for a in self.actions(state)]

    def play(self, state: S, action_text: str) -> S:
        """Apply a move written in the game's notation, checking that it is legal."""
        if self.is_terminal(state):
            raise IllegalMoveError(action_text, [], reason="the game is over")
        return self.result(state, self.parse_action(state, action_text))

    def render_svg(self, state: S, **options: Any) -> str | None:
        """The position drawn by the game's :meth:`drawing`, or ``None`` without one."""
        drawing = self.drawing()
        return None if drawing is None else drawing.render_svg(state, **options)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


#: The public names of :class:`Game` that are rules (or conveniences built on them), not
#: capabilities; ``tests/test_architecture.py`` holds the class to these and
#: :data:`CAPABILITIES`.
RULES = (
    "name", "description", "num_players", "game_type", "max_utility", "state_notation",
    "initial_state", "to_move", "actions", "result", "is_terminal", "returns", "utility",
    "terminal_utility", "chance_outcomes", "key", "search_start", "format_action",
    "parse_action", "format_state", "parse_state", "render", "legal_action_strings", "play",
    "render_svg", "options", "spec_name", "spec", "split_position_line", "describe_action",
    "termination", "format_line", "format_score",
)


def sample_outcome(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """A chance node's outcome drawn by its probability (the one place chance is sampled:
    games in play, random playouts, arena openings)."""
    outcomes = game.chance_outcomes(state)
    return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]


def random_playout(
    game: Game[Any, Any], state: Any, rng: random.Random, max_plies: int | None = None,
    *, fast: bool = True,
) -> Any:
    """Play from ``state`` to the end of the game, or for ``max_plies`` plies (chance
    outcomes count as plies), and return the state reached.

    Moves are uniformly random — in the game's compiled playout (its
    :class:`~.capabilities.Playouts`' ``compiled``) when it has one and ``fast`` is true;
    chance outcomes are drawn by their probabilities. This is the simulation step of Monte
    Carlo tree search, so it is written for speed: one fused terminal test per ply
    (``terminal_utility``), no ``to_move`` call in games without chance, and a random index
    from ``rng.random()`` rather than ``rng.choice``.
    """
    if fast:
        playouts = game.playouts()
        if playouts is not None and playouts.compiled is not None:
            return playouts.compiled(state, rng, max_plies)
    terminal_utility, actions, result, to_move = (
        game.terminal_utility, game.actions, game.result, game.to_move)
    chance = game.game_type.chance
    random = rng.random
    if not chance and max_plies is None:  # the common case, ~5 % faster
        while terminal_utility(state, 0) is None:
            legal = actions(state)
            state = result(state, legal[int(random() * len(legal))])
        return state
    left = -1 if max_plies is None else max_plies  # counts down; never 0 when unlimited
    while left and terminal_utility(state, 0) is None:
        left -= 1
        if chance and to_move(state) == CHANCE:
            action = sample_outcome(game, state, rng)
        else:
            legal = actions(state)
            action = legal[int(random() * len(legal))]
        state = result(state, action)
    return state


__all__ = [
    "BOOK_OFF",
    "BOOK_ON",
    "CAPABILITIES",
    "CHANCE",
    "RULES",
    "Book",
    "BookEntry",
    "FastSolver",
    "Game",
    "GameRecord",
    "GameType",
    "capability",
    "random_playout",
    "sample_outcome",
    "solve_until",
]
