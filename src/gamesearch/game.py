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
* :meth:`Game.evaluate` is a heuristic on the same scale as the utilities, strictly inside
  ``(-max_utility, max_utility)`` so that a real win always dominates it.
* ``actions`` lists legal actions in a stable order: search breaks ties in favour of the
  first action in this order.

Optional hooks (search uses them when a game supplies them; the defaults say "absent"):
``evaluate``, ``key`` (transposition tables), ``noisy_actions``/``is_quiet`` (quiescence),
``order_actions`` (move ordering), ``engine_defaults`` (the engine settings a game asks for),
``playout_action``/``action_priors`` (Monte Carlo tree search's simulation policy and PUCT's
prior), and the notations ``parse_action``/``format_action``/``parse_state``/``format_state``.
Hidden information is not modelled yet: the first game with hidden cards will bring its
hooks (an information set, sampling of the hidden part) with the search that uses them.

Hooks for what is special about a game beyond search (the command line, the agents and the
arena ask the game through these and never test its name; the defaults say "absent"):

* ``default_opponent`` -- the agent spec ``gamesearch play`` puts against a person when none
  is named (``None``: the default search agent);
* ``opening_book(spec)`` -- the game's :class:`Book` of solved positions (``None``: none),
  and ``book_builder()`` -- the function that builds one with the game's solver;
* ``fast_solver()`` -- a :class:`FastSolver`, a compiled exact solver that gives the same
  scores and best moves as :func:`gamesearch.search.solve.solve` (``None``: none, or not
  installed);
* ``arena_openings()`` -- the start lines of arena matches when none are given;
* ``pgn_notation`` -- positions in FEN and moves in UCI, so the arena can write PGN;
* ``render_svg(state, **options)`` -- the position drawn as SVG for the web app, every legal
  move's clickable element carrying ``data-move`` with the move in the game's notation
  (``None``: no drawing; the web app then shows the text of ``render``);
* ``perft(state, depth, convention)`` with ``perft_conventions`` -- the leaf count of the
  move tree, the classic test of a move generator (``gamesearch perft``; empty
  ``perft_conventions``: the game has none).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from .errors import IllegalMoveError, InvalidPositionError, SearchTimeout, UnsupportedGameError
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

    def __post_init__(self) -> None:
        if self.alternating and (self.num_players != 2 or self.chance):
            raise ValueError("GameType: alternating needs two players and no chance nodes")


@dataclass(frozen=True)
class BookEntry:
    """An opening book's answer for a position: the ``move`` it plays there (an action of
    the game), the position's ``score`` for the side to move in the game's score convention
    (the one of :meth:`Game.exact_score`), and ``exact``: False when only the sign of the
    score is known (+1 a win, 0 a draw, -1 a loss), which the move keeps."""

    score: int
    move: Any
    exact: bool


class Book(Protocol):
    """What :meth:`Game.opening_book` returns: solved positions looked up by state."""

    #: how the book was made (for ``gamesearch book GAME --info``)
    meta: dict[str, Any]

    def lookup(self, state: Any) -> BookEntry | None:
        """The entry of ``state``, or ``None`` if the book does not hold the position."""
        ...

    def __len__(self) -> int:
        """The number of positions in the book."""
        ...


class FastSolver(Protocol):
    """What :meth:`Game.fast_solver` returns: a compiled exact solver.

    ``solve`` answers what :func:`gamesearch.search.solve.solve` answers for the game (with
    the solver's default table), as plain data for speed: ``{"value", "move", "moves",
    "nodes", "seconds"}`` are that result's ``value``, ``action``, ``best_actions`` (only
    ``[move]`` unless ``best_moves``), ``nodes`` and ``seconds``: the same value and best
    moves. The node count is the same too when the fast solver is a compiled twin of the
    generic one (Connect Four's); a game whose fast solver adds techniques of its own says
    so and counts its own nodes (Othello's: Edax's endgame search, tested against the generic
    solver's results). ``keep_table`` keeps the table of the previous call (like one solver reused);
    past ``max_nodes`` nodes it raises :class:`~gamesearch.errors.SearchTimeout`, and what
    its table holds is still sound, so a call with ``keep_table`` goes on from there.
    """

    def solve(self, state: Any, *, weak: bool = False, best_moves: bool = False,
              keep_table: bool = False, max_nodes: int | None = None) -> dict[str, Any]:
        ...


def solve_until(solve: Callable[..., dict[str, Any]], state: Any, deadline: float, *,
                keep_table: bool = False, max_nodes: int | None = None,
                first_slice: int = 100_000, slice_seconds: float | None = None,
                **options: Any) -> dict[str, Any] | None:
    """A :class:`FastSolver`'s ``solve`` that also stops at ``deadline`` (a
    ``time.perf_counter()`` value): compiled code cannot look at the clock, so it runs in
    slices of nodes, each on the table the one before left (still sound), and the clock is
    read between slices. A slice is sized from the measured rate to last ``slice_seconds``
    (``None``: until the deadline). None when the deadline came first;
    :class:`~gamesearch.errors.SearchTimeout` when ``max_nodes`` (all slices together) ran
    out. ``nodes`` counts every slice, re-searched nodes included."""
    t0 = time.perf_counter()
    used, chunk, keep = 0, first_slice, keep_table
    while True:
        now = time.perf_counter()
        if now >= deadline:
            return None
        step = chunk if max_nodes is None else min(chunk, max_nodes - used)
        try:
            result = solve(state, keep_table=keep, max_nodes=step, **options)
        except SearchTimeout:
            keep = True
            used += step
            if max_nodes is not None and used >= max_nodes:
                raise
            now = time.perf_counter()
            rate = used / max(now - t0, 1e-3)
            span = deadline - now if slice_seconds is None else min(slice_seconds,
                                                                     deadline - now)
            chunk = max(100_000, int(rate * span))
            continue
        result["nodes"] += used
        result["seconds"] = time.perf_counter() - t0
        return result


#: The words of an opening book spec (``--book``, ``solver:book=``) for "the game's own
#: book" and for "no book"; any other spec is the path of a book file.
BOOK_ON = frozenset({"on", "default", "yes", "true", "1"})
BOOK_OFF = frozenset({"off", "no", "none", "false", "0"})


class Game(Generic[S, A]):
    """Base class of every game. Subclasses implement the six textbook functions.

    The defaults of the optional hooks describe a game that does not supply them; search
    algorithms test for hooks with the ``has_*`` properties rather than by catching errors.
    """

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

    # ----- optional hooks ------------------------------------------------------------
    def evaluate(self, state: S, player: int) -> float:
        """Heuristic value of a non-terminal state for ``player`` (same scale as utility).

        A game that has one sets ``has_evaluate``. Without it, a search whose answer rests
        on a depth cut-off is refused with :class:`UnsupportedGameError` unless the caller
        asks for zero at the cut-off (the ``zero_eval`` search option)."""
        return 0.0

    has_evaluate: bool = False

    def key(self, state: S) -> Hashable:
        """A hashable key identifying the position, for transposition tables (default: the
        state itself, which must then be hashable)."""
        return state

    def noisy_actions(self, state: S) -> Sequence[A]:
        """Actions that quiescence search must still try at the horizon (captures...)."""
        return ()

    has_noisy_actions: bool = False

    def iter_noisy_actions(self, state: S) -> Iterable[A]:
        """``noisy_actions`` one at a time, for games where producing each costs work that a
        cut-off makes unnecessary (chess: the static exchange of a capture). Quiescence
        search iterates this; the default iterates ``noisy_actions``."""
        return self.noisy_actions(state)

    has_is_noisy: bool = False

    def is_noisy(self, state: S, action: A) -> bool:
        """Whether ``action`` is a tactical move the engine must never reduce or prune as
        quiet (chess: a capture or a promotion, whatever its static exchange). Games that
        answer it cheaply set ``has_is_noisy``; otherwise the engine asks whether the action
        is among ``noisy_actions``, as this default does."""
        return action in self.noisy_actions(state)

    has_quick_evaluate: bool = False

    def quick_evaluate(self, state: S, player: int) -> tuple[float, float]:
        """``(estimate, margin)`` with ``evaluate(state, player)`` within ``estimate ±
        margin``: lets quiescence stand pat or prune without the full evaluation (lazy
        evaluation). The default is the evaluation itself, margin 0."""
        return self.evaluate(state, player), 0.0

    #: Engine policy, not rules: defaults a game asks of the search engine (``negamax``/
    #: ``id``), each overridden by the searcher's own options. Keys: ``"lmr"`` (late-move
    #: reductions: they change fixed-depth values, so they are off unless a game turns them
    #: on), ``"futility_margins"`` (by remaining depth 1, 2, ..., in utility units: futility
    #: and reverse-futility pruning) and ``"soft_share"`` (under a plain time limit, no new
    #: iteration after this share of it).
    engine_defaults: Mapping[str, Any] = MappingProxyType({})

    def order_actions(self, state: S, actions: Sequence[A]) -> Sequence[A]:
        """Game knowledge for move ordering: the actions, most promising first."""
        return actions

    has_order_actions: bool = False

    # Tactical hooks (chess-like games): check, and a "pass" for null-move pruning.
    has_in_check: bool = False

    def in_check(self, state: S) -> bool:
        """True when the player to move is under a threat that must be answered at once
        (chess: in check). Quiescence then tries every reply instead of standing pat, and
        the engine extends the search by one ply."""
        return False

    has_null_move: bool = False

    def null_result(self, state: S) -> S:
        """The state after the player to move passes (null-move pruning's probe)."""
        raise NotImplementedError(f"{self.name} has no null move")

    def null_move_allowed(self, state: S) -> bool:
        """Whether a pass is a safe probe here (chess: not in check, pieces besides pawns)."""
        return False

    # Solver hooks: exact solving of alternating two-player games (Pons-style pruning).
    has_safe_actions: bool = False

    def winning_action(self, state: S) -> A | None:
        """An action that wins at once for the player to move, or ``None``."""
        return None

    def safe_actions(self, state: S) -> Sequence[A]:
        """Legal actions after which the opponent cannot win at once (assuming the mover
        cannot win at once). Empty: every move loses at once. Search prunes the others."""
        return self.actions(state)

    def plies_left_bound(self, state: S) -> int | None:
        """An upper bound on the plies until the game ends (Connect Four: empty cells)."""
        return None

    def exact_score(self, state: S, value: float) -> float:
        """A solved value in the game's own score convention (default: the value itself)."""
        return value

    def score_threshold(self, state: S, score: float) -> float:
        """The value ``b`` with ``exact_score(v) > score`` exactly when ``v > b``."""
        return score

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

    # Monte Carlo tree search hooks (search/mcts.py).
    has_playout_action: bool = False

    def playout_action(self, state: S, rng: random.Random) -> A:
        """The simulation policy's action at a decision node, drawn with ``rng`` (a game that
        knows better than uniform random play, e.g. "win at once, else block", supplies it
        and sets ``has_playout_action``; :func:`random_playout` plays it)."""
        raise NotImplementedError(f"{self.name} has no playout policy")

    def fast_playout(self) -> Callable[[S, random.Random, int | None], S] | None:
        """A compiled playout ``f(state, rng, max_plies)``: uniformly random moves as in
        :func:`random_playout` (the same distribution; its own generator, seeded from
        ``rng``), returning the state reached. ``None`` (the default): none, or not
        installed. :func:`random_playout` uses it unless asked not to."""
        return None

    has_action_priors: bool = False

    def action_priors(self, state: S) -> Sequence[float]:
        """Prior probabilities of ``actions(state)``, in that order, summing to 1: PUCT's
        ``P(s, a)`` (Silver et al.). Without the hook, PUCT gives every action the same prior."""
        raise NotImplementedError(f"{self.name} has no action priors")

    # ----- what the interfaces ask the game (see the module docstring) -----------------
    #: The agent spec ``gamesearch play`` puts against a person who names no opponent: the
    #: strongest agent the library has for the game. ``None``: the default search agent.
    default_opponent: str | None = None

    def opening_book(self, spec: str | None = None) -> Book | None:
        """The game's opening book for ``spec``: ``None`` or a word of :data:`BOOK_ON`, the
        game's own book; a word of :data:`BOOK_OFF`, no book (``None``); anything else, the
        path of a book file. A file that cannot be read raises :class:`GameError`.

        A game without a book (this default) returns ``None`` when no book is asked for
        (``spec`` ``None`` or off) and raises :class:`UnsupportedGameError` when one is."""
        if spec is None or spec.strip().lower() in BOOK_OFF:
            return None
        raise UnsupportedGameError(f"{self.name} has no opening book (book={spec!r}); "
                                   "allowed: off")

    def book_builder(self) -> Callable[..., Book] | None:
        """The function that builds the game's opening book with its solver, or ``None``.

        ``gamesearch book`` calls it as ``builder(plies, out, root=, sides=, journal=,
        tt_capacity=, strong_nodes=, max_nodes=, max_seconds=, log=, command=)``: the
        positions with fewer than ``plies`` stones on the book's lines from the position
        ``root``, written to the file ``out``, resumable from the ``journal``. Connect Four's
        ``build_book`` (:mod:`gamesearch.games.connect4.book`) documents each option."""
        return None

    def fast_solver(self) -> FastSolver | None:
        """A compiled exact solver with the same results and node counts as
        :func:`gamesearch.search.solve.solve`, when the game has one and it is installed."""
        return None

    def arena_openings(self) -> Sequence[str]:
        """The start lines of arena matches when none are given: lines of an openings file
        (moves in the game's notation, or a position; blank and ``#`` lines are skipped),
        each played with both colours. Empty (the default): games start from the initial
        position."""
        return ()

    #: Positions are written in FEN (``format_state``) and moves in UCI (``format_action``):
    #: the notations of PGN, so the arena can export the games as PGN (python-chess).
    pgn_notation: bool = False

    #: How the game's :meth:`perft` may count, name -> what it counts (the first is the
    #: default); empty (this default): the game has no perft.
    perft_conventions: Mapping[str, str] = MappingProxyType({})

    def perft(self, state: S, depth: int, convention: str | None = None) -> int:
        """The number of leaves of the tree of legal moves ``depth`` plies deep from
        ``state``, counted by ``convention`` (a name of :attr:`perft_conventions`; ``None``:
        the first). A game with a perft supplies both; this default has none."""
        raise UnsupportedGameError(f"{self.name} has no perft (games with one: those whose "
                                   "perft_conventions are not empty)")

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

    def render_svg(self, state: S, **options: Any) -> str | None:
        """The position drawn as an SVG document (a string), or ``None`` if the game has no
        drawing. Each legal move's element carries ``data-move="<format_action>"`` so that a
        page can make it clickable (chess marks its squares with ``data-square`` instead).

        Options every drawing accepts (and may ignore): ``pv`` — actions to show from
        ``state`` on (a principal variation); ``labels`` — ``{move text: short text}`` shown
        at each move's place (the solver's scores); ``last`` — the move that led here, in the
        previous position's notation; ``interactive`` — mark the legal moves (default True).
        """
        return None

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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


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

    Moves come from the game's ``playout_action`` hook if it has one, else uniformly at
    random — in the game's compiled ``fast_playout`` when it has one and ``fast`` is true;
    chance outcomes are drawn by their probabilities. This is the simulation step of Monte
    Carlo tree search, so it is written for speed: one fused terminal test per ply
    (``terminal_utility``), no ``to_move`` call in games without chance, and a random index
    from ``rng.random()`` rather than ``rng.choice``.
    """
    policy = game.playout_action if game.has_playout_action else None
    if policy is None and fast:
        compiled = game.fast_playout()
        if compiled is not None:
            return compiled(state, rng, max_plies)
    terminal_utility, actions, result, to_move = (
        game.terminal_utility, game.actions, game.result, game.to_move)
    chance = game.game_type.chance
    random = rng.random
    if policy is None and not chance and max_plies is None:  # the common case, ~5 % faster
        while terminal_utility(state, 0) is None:
            legal = actions(state)
            state = result(state, legal[int(random() * len(legal))])
        return state
    left = -1 if max_plies is None else max_plies  # counts down; never 0 when unlimited
    while left and terminal_utility(state, 0) is None:
        left -= 1
        if chance and to_move(state) == CHANCE:
            action = sample_outcome(game, state, rng)
        elif policy is not None:
            action = policy(state, rng)
        else:
            legal = actions(state)
            action = legal[int(random() * len(legal))]
        state = result(state, action)
    return state
