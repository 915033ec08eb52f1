"""What a search, a solver or an interface may ask a game beyond its rules: capabilities.

Follows OpenSpiel's split of the game from what a search needs to know about it (its MCTS
bot is handed an ``Evaluator`` with ``evaluate`` and ``prior``; the game itself holds only
the rules). :class:`gamesearch.game.Game` keeps the rules: the textbook's six functions,
chance outcomes, the table key, the notation and the text picture. Everything else is a
*capability*: a small typed object that a game offers through one method of ``Game``
(``game.evaluation()``, ``game.tactics()``, ...) which returns the object, or ``None`` when
the game does not have it. Presence is the object's presence: there is no flag to keep in
step with a method, and a reader cannot call a hook the game lacks, because it has no object
to call it on. :data:`gamesearch.game.CAPABILITIES` lists the methods;
``docs/architecture.md`` has the table (capability, readers, games), which
``tests/test_architecture.py`` checks against the code.

How a game offers one: the method builds the object from the game's own functions (a few
references, so it is cheap), when asked. A reader asks once per search (or per root window)
and binds the members it calls at every node to locals before its loop: a bound member is
the very function the game gave, so the hot loops pay nothing for the indirection.

The objects:

* :class:`Evaluation` -- a heuristic on the utility scale, with an optional cheap
  estimate (lazy evaluation); named, so that a game may offer several;
* :class:`MoveOrdering` -- the game's knowledge of which moves to try first;
* :class:`Tactics` -- quiescence's noisy moves, which moves are noisy, check;
* :class:`NullMove` -- a pass for null-move pruning;
* :class:`SafeMoves` -- Pons's pruning for the exact solver: wins at once, the moves that
  do not lose at once, a bound on the plies left;
* :class:`ValueBounds` -- bounds on a node's value known without search (bridge's quick
  tricks), which narrow the engine's window;
* :class:`PerfectView` -- the perfect-information game behind a full state of a game with
  hidden information (bridge's double dummy), which the exact solver solves;
* :class:`ScoreConvention` -- the game's own scores of solved values (Pons's, disc counts);
* :class:`EngineSettings` -- engine policy (late-move reductions, futility margins, the
  soft time share): a typed value; a game supplies its defaults as one;
* :class:`Playouts` -- what Monte Carlo tree search asks: PUCT's priors, compiled playouts;
* :class:`FastSolver`, :class:`Book` -- a compiled exact solver; an opening book;
* :class:`CompiledSearch` -- a compiled twin of the engine's search (``negamax``/``id``
  with the game's engine settings), which the engine runs instead of its Python loop;
* :class:`EndgameDatabase` -- exact values of the positions an endgame database holds
  (win, loss or draw and the distance to the end), which the engine probes at its nodes;
* :class:`Drawing` -- the position as SVG for the web app;
* :class:`Perft` -- the leaf count of the move tree, with its conventions;
* :class:`MatchHooks` -- what a match of the game starts from when the caller names
  nothing: the default opponent, the arena's openings, PGN notation; duplicate's teams,
  boards and :class:`TableOutcome` (how a table ended: bridge's contract and score);
* :class:`Observation` -- what a seat may see in a game with hidden information (no game
  has it yet; its shape is fixed here so that the hidden-information games only add it).

Room left by design for the next issues (see ``docs/architecture.md``): several named
evaluations are ``evaluation(name)``; agents a game
supplies are one more capability read by ``make_agent`` and ``list``; playouts with a
policy are more members of :class:`Playouts`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Protocol, TypeVar

from .errors import InvalidLimitError, SearchTimeout

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)


# ----- the engine ------------------------------------------------------------------------
@dataclass(frozen=True)
class Evaluation(Generic[S]):
    """A heuristic value of non-terminal states (``Game.evaluation()``).

    ``evaluate(state, player)`` is on the scale of the utilities, strictly inside
    ``(-max_utility, max_utility)``, so that a real win always dominates it. Without an
    evaluation, a search whose answer rests on a depth cut-off is refused unless the caller
    asks for zero at the cut-off (the ``zero_eval`` search option).

    ``quick_evaluate(state, player)``, when given, is ``(estimate, margin)`` with
    ``evaluate`` within ``estimate ± margin``: the engine's quiescence and futility
    pruning then settle a node without the full evaluation when the estimate lies far
    enough outside the window (lazy evaluation). ``name`` tells one of several apart
    (``Game.evaluation(name)``). ``at_chance``: the evaluation scores chance nodes (a
    position before the dice are thrown, as backgammon's evaluations do), so the chance
    searches stop at the first chance node past the depth limit instead of expanding its
    outcomes into decision nodes to evaluate."""

    evaluate: Callable[[S, int], float]
    quick_evaluate: Callable[[S, int], tuple[float, float]] | None = None
    name: str = "default"
    at_chance: bool = False


@dataclass(frozen=True)
class MoveOrdering(Generic[S, A]):
    """``order_actions(state, actions)``: the actions, most promising first (the engine's
    and the solver's first ordering step; ties keep the order given)."""

    order_actions: Callable[[S, Sequence[A]], Sequence[A]]


@dataclass(frozen=True)
class TurnPassing(Generic[S]):
    """``give_turn(state, player)``: the same position with ``player`` to move, as if the
    players between had passed (``Game.turn_passing()``). Best-reply search (``brs``) needs
    it on games of three or more players: its MIN layer lets any one opponent move out of
    turn, then gives the turn back to the root player (Schadd & Winands 2011). A game
    whose turn is part of the state (Rolit, Chinese Checkers) offers it by rewriting that
    field."""

    give_turn: Callable[[S, int], S]


@dataclass(frozen=True)
class Tactics(Generic[S, A]):
    """The moves the engine must not stop at (``Game.tactics()``; chess).

    * ``noisy_actions(state)`` -- the actions quiescence search still tries at the horizon
      (captures, promotions, every evasion in check), most promising first; an iterable,
      which may produce them one at a time when each costs work a cut-off makes
      unnecessary (chess: the static exchange of a capture);
    * ``is_noisy(state, action)`` -- a cheap test that ``action`` is tactical, never
      reduced or pruned as quiet (``None``: the engine asks whether the action is among
      the node's ``noisy_actions``);
    * ``in_check(state)`` -- the player to move must answer a threat at once: quiescence
      then tries every reply instead of standing pat, and the engine extends the search by
      one ply (``None``: the game has no such state);
    * ``exchange(state, action)`` -- the static exchange value of ``action`` for the
      player to move, in utility units: what it wins (a capture) or loses (a piece left
      where it can be taken) when both sides keep exchanging on its target (chess: SEE);
      the engine's static exchange pruning uses it (``None``: none).
    """

    noisy_actions: Callable[[S], Iterable[A]]
    is_noisy: Callable[[S, A], bool] | None = None
    in_check: Callable[[S], bool] | None = None
    exchange: Callable[[S, A], float] | None = None


@dataclass(frozen=True)
class NullMove(Generic[S]):
    """A pass for null-move pruning (``Game.null_move()``): ``result(state)`` is the state
    after the player to move passes; ``allowed(state)`` says whether a pass is a safe probe
    there (chess: not in check, and a piece besides pawns)."""

    result: Callable[[S], S]
    allowed: Callable[[S], bool]


@dataclass(frozen=True)
class SafeMoves(Generic[S, A]):
    """Pons's pruning for two-player games that end on a move that wins at once
    (``Game.safe_moves()``; Connect Four). The engine's ``safe`` option and the exact solver
    use it.

    * ``winning_action(state)`` -- an action that wins at once for the player to move, or
      ``None``;
    * ``safe_actions(state)`` -- the legal actions after which the opponent cannot win at
      once, assuming the mover cannot win at once; empty: every move loses at once;
    * ``plies_left_bound(state)`` -- for a game that ends in a draw when nobody has won
      by then: an upper bound on the plies until it ends (Connect Four: the empty cells),
      so that with two plies left and no win at once the search knows the draw; ``None``:
      no such bound (Nim: it never ends in a draw)."""

    winning_action: Callable[[S], A | None]
    safe_actions: Callable[[S], Sequence[A]]
    plies_left_bound: Callable[[S], int | None]


@dataclass(frozen=True)
class ValueBounds(Generic[S]):
    """Bounds on a node's exact value known without searching it (``Game.value_bounds()``;
    bridge's double dummy: quick tricks). ``bounds(state, player)`` is ``(low, high)``
    with ``low <= V <= high`` for the value ``V`` of ``state`` to the end of the game, from
    the side of ``player`` (the player to move), on the utility scale. The engine narrows
    its window with them at every node after the table probe (a bound outside the window
    ends the node, fail-soft) when the game offers them; the plain and the compiled
    solvers read the same bounds. They must be sound: a bound that is wrong changes the
    solved value.

    ``banked(state, player)``, optional: the part of the value already settled on the way
    to ``state`` (bridge: the tricks each side has won, declaring side's less the
    defenders', from ``player``'s side), which every end below ``state`` shares. When the
    game gives it, the engine's table keeps values *less* it (what is still to be won)
    and adds it back when it reads them, so that the game's ``key`` may leave it out and
    one entry serves every way of reaching the same remaining position (DDS's table
    stores tricks to come, not tricks won)."""

    bounds: Callable[[S, int], tuple[float, float]]
    banked: Callable[[S, int], float] | None = None


@dataclass(frozen=True)
class PerfectView(Generic[S]):
    """The perfect-information game behind a full state of a game with hidden information
    (``Game.perfect_view()``; bridge: double dummy, declarer's side against the
    defenders): what an exact solver, or a search per sampled world (PIMC), searches.

    * ``view(state)`` -- ``(game, view_state)``: a two-player zero-sum perfect-information
      game without chance and the state in it that the full ``state`` is; the view's
      actions are actions of the full game (bridge: cards), possibly fewer of them
      (equivalent cards merged), and ``game.to_move`` is the side of the full game's mover;
    * ``side(state, seat)`` -- the view's player that ``seat`` plays for;
    * ``positions(text)`` -- the full states ``gamesearch solve`` solves for a position
      written ``text``, each with a label: one when the game's options fix what the view
      depends on, else every choice they leave open (bridge: a deal without ``strain=`` and
      ``declarer=`` gives the 20 of the double-dummy table, labelled ``S/N`` ...);
    * ``result(state, score)`` -- what the solved ``score`` (the view's score convention,
      for the view's side to move) means in the game: a dict for ``solve --json`` (bridge:
      ``{"tricks": the declarer's tricks}``);
    * ``equivalents(state, action)`` -- the actions the view merged into ``action``
      (itself included), so that the best moves are listed in full;
    * ``solve(state, best_moves=True, max_nodes=None, seconds=None)`` -- a compiled solver
      of the view when there is one (``None``: the generic solver): ``{"score", "moves",
      "nodes"}``, the score for the view's side to move and its best actions (one only
      without ``best_moves``), as the generic solver's ``value`` and ``best_actions``;
      past ``max_nodes`` or ``seconds`` it raises
      :class:`~gamesearch.errors.SearchTimeout` (PIMC's time limit)."""

    view: Callable[[S], tuple[Any, Any]]
    side: Callable[[S, int], int]
    positions: Callable[[str], list[tuple[str, S]]]
    result: Callable[[S, float], dict[str, Any]]
    equivalents: Callable[[S, Any], list[Any]]
    solve: Callable[..., dict[str, Any]] | None = None


@dataclass(frozen=True)
class ScoreConvention(Generic[S]):
    """The game's own score of a solved value (``Game.score_convention()``), which the exact
    solver answers in: ``exact_score(root, value)`` (Connect Four: Pons's ``±(22 - k)``;
    Othello: the disc difference), and ``score_threshold(root, score)``, the value ``b`` with
    ``exact_score(root, v) > score`` exactly when ``v > b``. Without one, scores are the raw
    values (:data:`RAW_SCORES`)."""

    exact_score: Callable[[S, float], float]
    score_threshold: Callable[[S, float], float]


def _same_value(state: Any, value: float) -> float:
    return value


#: The convention of a game without one: a score is the value itself.
RAW_SCORES: ScoreConvention[Any] = ScoreConvention(_same_value, _same_value)


@dataclass(frozen=True, init=False)
class EngineSettings:
    """Engine policy, not rules (``Game.engine_settings()``): what a game asks of the search
    engine (``negamax``/``id``) by default; the searcher's own options override each.

    * ``lmr`` -- late-move reductions (they change fixed-depth values, so they are off
      unless a game turns them on);
    * ``lmr_table`` -- with ``lmr``: the reduction from a table by depth and move number
      (log x log), one ply less for a move with a good history score, instead of the
      fixed one or two plies;
    * ``lmp`` -- late-move (move-count) pruning of quiet moves near the horizon;
    * ``iir`` -- internal iterative reductions: a node of enough depth without a table move
      is searched one ply shallower;
    * ``noisy_first`` -- the move order puts the noisy moves (captures, promotions) after
      the table move and before the killers, and sorts only the quiet moves by history;
      only quiet moves become killers or gain history;
    * ``exchange_margins`` -- ``(quiet, noisy)`` in utility units, or empty (off): static
      exchange pruning near the horizon skips a quiet move whose exchange value is below
      ``-quiet * depth`` and a capture below ``-noisy * depth**2`` (needs the tactics'
      ``exchange``), used by default when ``see_pruning`` is set;
    * ``futility_margins`` -- by remaining depth 1, 2, ..., in utility units: futility and
      reverse-futility pruning (empty: none);
    * ``soft_share`` -- under a plain time limit, no new iteration after this share of it
      (``None``: the time limit alone);
    * ``score_unit`` -- the unit of the game's scores in which the time rule measures a
      falling score and a far-ahead best move (chess: 100 centipawns; ``None``: those
      terms off, :class:`~gamesearch.search.control.TimeRule`).

    An unknown setting, or a value of the wrong type, is an :class:`InvalidLimitError`
    naming the known settings."""

    lmr: bool
    futility_margins: tuple[float, ...]
    soft_share: float | None
    score_unit: float | None
    lmr_table: bool
    lmp: bool
    iir: bool
    exchange_margins: tuple[float, ...]
    see_pruning: bool
    noisy_first: bool

    def __init__(self, *, lmr: bool = False, futility_margins: Sequence[float] = (),
                 soft_share: float | None = None, score_unit: float | None = None,
                 lmr_table: bool = False, lmp: bool = False, iir: bool = False,
                 exchange_margins: Sequence[float] = (), see_pruning: bool = False,
                 noisy_first: bool = False, **unknown: Any) -> None:
        known = ", ".join(f.name for f in fields(EngineSettings))
        if unknown:
            raise InvalidLimitError(f"unknown engine setting(s) {', '.join(map(repr, unknown))}"
                                    f"; known: {known}")
        for flag, value in (("lmr", lmr), ("lmr_table", lmr_table), ("lmp", lmp),
                            ("iir", iir), ("see_pruning", see_pruning),
                            ("noisy_first", noisy_first)):
            if not isinstance(value, bool):
                raise InvalidLimitError(f"engine setting {flag}={value!r}: must be True or "
                                        "False")
        if isinstance(futility_margins, str | bytes) or not all(
                isinstance(m, int | float) and not isinstance(m, bool) and m >= 0
                for m in futility_margins):
            raise InvalidLimitError(f"engine setting futility_margins={futility_margins!r}: "
                                    "must be a sequence of numbers >= 0")
        if isinstance(exchange_margins, str | bytes) or len(exchange_margins) not in (
                0, 2) or not all(isinstance(m, int | float) and not isinstance(m, bool)
                                 and m >= 0 for m in exchange_margins):
            raise InvalidLimitError(f"engine setting exchange_margins={exchange_margins!r}: "
                                    "must be empty or two numbers >= 0 (quiet, noisy)")
        if soft_share is not None and (isinstance(soft_share, bool) or not isinstance(
                soft_share, int | float) or not 0 < soft_share <= 1):
            raise InvalidLimitError(f"engine setting soft_share={soft_share!r}: must be a "
                                    "fraction in (0, 1] or None")
        object.__setattr__(self, "lmr", lmr)
        object.__setattr__(self, "futility_margins", tuple(float(m) for m in futility_margins))
        if score_unit is not None and (isinstance(score_unit, bool) or not isinstance(
                score_unit, int | float) or not 0 < score_unit < float("inf")):
            raise InvalidLimitError(f"engine setting score_unit={score_unit!r}: must be a "
                                    "positive number or None")
        object.__setattr__(self, "soft_share", None if soft_share is None else float(soft_share))
        object.__setattr__(self, "score_unit", None if score_unit is None else float(score_unit))
        object.__setattr__(self, "lmr_table", lmr_table)
        object.__setattr__(self, "lmp", lmp)
        object.__setattr__(self, "iir", iir)
        object.__setattr__(self, "exchange_margins",
                           tuple(float(m) for m in exchange_margins))
        object.__setattr__(self, "see_pruning", see_pruning)
        object.__setattr__(self, "noisy_first", noisy_first)

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> EngineSettings:
        """The settings of a mapping (a configuration file's), checked like the keywords."""
        return cls(**dict(settings))


@dataclass(frozen=True)
class CompiledSearch:
    """A compiled twin of the engine's search (``Game.compiled_search()``): the same
    algorithm as :class:`~gamesearch.search.negamax.Negamax` with the game's hooks and engine
    settings, node for node, over the game's own compiled board (chess:
    ``games/chess/kernels/engine.pyx``).

    ``engine(tt_size=, step=, threshold=, maxu=, margins=, lmr_full=, lmr_deep=, pvs=,
    killers=, history=, null_move=, lmr=, check_extension=, lmr_reductions=, lmp=, iir=,
    exchange_margins=, noisy_first=)`` makes one searcher's engine, which keeps its
    transposition table, killers and history between searches and offers
    ``search_root(state, depth, alpha, beta, clock, prev_best, first_check) -> (value,
    move, pv, hit_horizon, second)`` (one root window; ``second`` is the best fail-soft
    value of the other root moves; ``clock.check`` is called at the Python search's node
    counts, from ``first_check = clock.begin(nodes so far)`` on, and its
    ``SearchTimeout`` propagates), ``partial()`` (the root's last improvement
    after a timeout, or ``None``), ``new_search()`` and ``take_stats()`` (nodes, cut-offs,
    table hits, reductions, re-searches, futility and reverse-futility prunes, selective
    depth, late-move prunes, exchange prunes since the last call). The engine uses it only
    when every option in use is one the twin implements (not: no table, ``tt_move=0``,
    Pons's safe moves, value bounds, an endgame database, distance bounds, a named
    evaluation, no quiescence).

    ``table_entries(nbytes)``: how many transposition-table entries the twin's table holds
    in ``nbytes`` bytes (its entries are far smaller than the Python dict's; UCI's ``Hash``
    in MiB is converted with it), or ``None`` when its tables are not sized by memory."""

    engine: Callable[..., Any]
    table_entries: Callable[[int], int] | None = None


# ----- Monte Carlo tree search -------------------------------------------------------------
@dataclass(frozen=True)
class Playouts(Generic[S]):
    """What Monte Carlo tree search asks a game (``Game.playouts()``): OpenSpiel's MCTS
    ``Evaluator``, whose ``prior`` and rollouts these are.

    * ``priors(state)`` -- prior probabilities of ``actions(state)``, in that order,
      summing to 1: PUCT's ``P(s, a)`` (Silver et al.); ``None``: uniform;
    * ``compiled(state, rng, max_plies)`` -- a compiled playout: uniformly random moves
      as :func:`gamesearch.game.random_playout` plays them (the same distribution, its
      own generator seeded from ``rng``), returning the state reached; ``None``: none, or
      not installed. A game with a playout *policy* (Go's patterns) plays it here;
    * ``traced(state, rng, max_plies)`` -- the same playout, returning ``(state reached,
      [(player, action), ...])``, the moves it played: what RAVE/AMAF (Gelly & Silver
      2007) reads; ``None``: MCTS traces a plain random playout itself;
    * ``margin(state)`` -- how much player 0 wins or loses a finished playout by, in
      [-1, 1] (Go: the area score over the number of points), which MCTS's ``margin=ε``
      mixes into the returns (Fuego's "score modification") so that a position where
      every playout is won, or every one lost, still prefers the larger margin;
      ``None``: the game offers none;
    * ``untraced`` -- the actions ``traced`` never reports (Go's pass, which every playout
      plays at its end): RAVE keeps no all-moves-as-first statistics for them; their
      prior stands until their first visit, then their own visits alone judge them.
    * ``action_codes`` -- when above 0, every action is an integer below it (Go: the
      points and the pass), so that MCTS's compact RAVE tree
      (:mod:`gamesearch.search.rave_kernels`) indexes arrays by the action itself; 0: the
      search numbers the actions it meets;
    * ``traced_codes(state, rng, max_plies)`` -- ``traced`` with the moves as two integer
      arrays, ``(state reached, players, actions)`` (actions as ``action_codes`` says),
      so that no Python list is made per playout; ``None``: MCTS converts ``traced``'s.

    Room for the next issues: a playout *policy* (patterns, "win at once, else block")
    becomes a member ``policy(state, rng) -> action`` that ``random_playout`` plays, and
    its compiled form a compiled playout that follows it, so that presence still says
    which playout MCTS gets."""

    priors: Callable[[S], Sequence[float]] | None = None
    compiled: Callable[[S, random.Random, int | None], S] | None = None
    traced: Callable[[S, random.Random, int | None],
                     tuple[S, Sequence[tuple[int, Any]]]] | None = None
    margin: Callable[[S], float] | None = None
    untraced: frozenset[Any] = frozenset()
    action_codes: int = 0
    traced_codes: Callable[[S, random.Random, int | None], tuple[S, Any, Any]] | None = None


# ----- exact solving and books ---------------------------------------------------------------
@dataclass(frozen=True)
class BookEntry:
    """An opening book's answer for a position: the ``move`` it plays there (an action of
    the game), the position's ``score`` for the side to move in the game's score convention
    (:class:`ScoreConvention`), and ``exact``: False when only the sign of the score is
    known (+1 a win, 0 a draw, -1 a loss), which the move keeps."""

    score: int
    move: Any
    exact: bool


class Book(Protocol):
    """What ``Game.opening_book()`` returns: solved positions looked up by state."""

    #: how the book was made (for ``gamesearch book GAME --info``)
    meta: dict[str, Any]

    def lookup(self, state: Any) -> BookEntry | None:
        """The entry of ``state``, or ``None`` if the book does not hold the position."""
        ...

    def __len__(self) -> int:
        """The number of positions in the book."""
        ...


class FastSolver(Protocol):
    """What ``Game.fast_solver()`` returns: a compiled exact solver.

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


@dataclass(frozen=True)
class EndgameValue:
    """An endgame database's answer for a position: ``value`` for the side to move, +1 a
    win, 0 a draw, -1 a loss, under perfect play; ``plies``: the plies (half-moves) to the
    end of the game under best play by both sides (the winner winning as fast as it can,
    the loser holding out as long as it can) -- 0 for a position already lost, 1 for a win
    in one move; ``None`` for a draw, or when the database keeps win/loss/draw only."""

    value: int
    plies: int | None = None


class EndgameDatabase(Protocol):
    """What ``Game.endgame_database()`` returns: the exact values of the positions a
    database built by retrograde analysis holds (checkers: every position with up to N
    pieces).

    ``probe(state)`` is the :class:`EndgameValue` of ``state`` for the side to move, or
    ``None`` when the database does not hold the position (too many pieces, a slice not
    built); it must be cheap to refuse, because the engine (:mod:`gamesearch.search.negamax`)
    asks it at every node below the root: a position it holds is scored as a win or loss
    ``plies`` deeper (as a terminal position that far away would be) or a draw, and not
    searched further. The root's moves are chosen by those values one ply down, so a won
    database position is converted by the fastest win. The probe answers under the game's
    rules: a win or loss that a draw rule of the game (a move limit) could cut off before
    it ends is ``None``, undecided, and the engine searches on (checkers: a win longer than
    the plies its move-limit count leaves; the game's evaluation may still weigh it).
    ``pieces`` is the most pieces a position it holds may have (for messages)."""

    pieces: int

    def probe(self, state: Any) -> EndgameValue | None:
        ...


#: The words of an opening book spec (``--book``, ``solver:book=``) for "the game's own
#: book" and for "no book"; any other spec is the path of a book file.
BOOK_ON = frozenset({"on", "default", "yes", "true", "1"})
BOOK_OFF = frozenset({"off", "no", "none", "false", "0"})


# ----- the interfaces ------------------------------------------------------------------------
@dataclass(frozen=True)
class Drawing(Generic[S]):
    """The position drawn for the web app (``Game.drawing()``).

    ``render_svg(state, **options)`` is an SVG document (a string) in which each legal
    move's element carries ``data-move="<format_action>"`` so that a page can make it
    clickable (chess marks its squares with ``data-square`` instead). Options every
    drawing accepts (and may ignore): ``pv`` — actions to show from ``state`` on (a
    principal variation); ``labels`` — ``{move text: short text}`` shown at each move's
    place (the solver's scores); ``last`` — the move that led here, in the previous
    position's notation; ``interactive`` — mark the legal moves (default True); ``seat``
    — the viewer, for a game with hidden information (an ``observation()``): a seat draws
    only what ``observe(state, seat)`` shows it, ``None`` (the default, so that a caller who
    forgets it shows nothing secret) a spectator, the public part, and ``"all"`` the
    holder of the game (a finished game, a replay), every card. Without a drawing the web
    app shows the text of ``Game.render``."""

    render_svg: Callable[..., str]


@dataclass(frozen=True)
class GameRecord(Generic[S, A]):
    """Game records in the file format the game's players use (``Game.game_record()``;
    ``gamesearch play --record FILE`` / ``--load FILE``): ``format`` its name (``"SGF"``),
    ``extension`` its file suffix (``"sgf"``); ``write(start, actions, names)`` the record
    (bytes) of ``actions`` played from ``start``, ``names`` the players' names by seat;
    ``read(data)`` the start and the actions of a record's main line, every move checked
    by the rules (a malformed record, an illegal move or a record of other rules: a
    one-line :class:`~gamesearch.errors.InvalidPositionError` or ``IllegalMoveError``)."""

    format: str
    extension: str
    write: Callable[[S, Sequence[A], Sequence[str]], bytes]
    read: Callable[[bytes], tuple[S, list[A]]]


@dataclass(frozen=True)
class Perft(Generic[S]):
    """The leaf count of the move tree, the classic test of a move generator
    (``Game.perft()``, ``gamesearch perft``): ``count(state, depth, convention)`` counts
    by ``convention``, a name of ``conventions`` (name -> what it counts; ``None``: the
    first)."""

    conventions: Mapping[str, str]
    count: Callable[[S, int, str | None], int]


@dataclass(frozen=True)
class MatchHooks:
    """What a match of the game starts from when the caller names nothing
    (``Game.match_hooks()``; ``gamesearch play``, the web app and the arena read it):

    * ``default_opponent`` -- the agent spec put against a person who names no opponent:
      the strongest agent the library has for the game (``None``: the default search);
    * ``arena_openings()`` -- the start lines of arena matches when none are given: lines
      of an openings file (moves in the game's notation, or a position; blank and ``#``
      lines are skipped), each played with both colours (``None``: the initial position);
    * ``pgn_notation`` -- positions are written in FEN (``format_state``) and moves in UCI
      (``format_action``): the notations of PGN, so the arena can export the games as PGN;
    * ``points`` -- a game's returns are points won or lost (backgammon: 1, 2 for a gammon,
      3 for a backgammon): the arena reports each agent's points per game with a 95 %
      interval beside its win rate;
    * ``teams`` -- the seats that play as one side, a tuple of seats per team (bridge:
      North-South and East-West, ``((0, 2), (1, 3))``; ``None``: every seat for itself).
      A game with two teams that starts with chance (a deal) can be played as *duplicate*
      in the arena (``tournament --duplicate``, :mod:`gamesearch.arena.duplicate`): a
      board is the chance outcomes at the start, drawn once from the board's seed and
      played at both tables (bridge: the deal), never an option of the game;
    * ``board_points(difference)`` -- a board's result for a team from the difference of its
      returns at the two tables (bridge: the IMP scale); ``None``: the difference itself;
    * ``team_names`` -- what the two teams are called, in the order of ``teams`` (bridge:
      ``("N-S", "E-W")``; ``None``: team 1, team 2), for duplicate's board lines;
    * ``table_outcome(state)`` -- a finished table of a duplicate board
      (:class:`TableOutcome`: a few words and the facts behind them; bridge: the contract,
      its declarer, the tricks and the score, ``3NT by South, 10 tricks (+1), N-S +430``);
      ``None``: the game's ``termination``;
    * ``seat_names`` -- the colour (or name) of each seat, in seat order, where the game
      gives seats one (Rolit: ``red``, ``yellow``...): front ends write ``player 1 (red)``
      so a person knows which colour is theirs; ``None``: numbers only.
    """

    default_opponent: str | None = None
    arena_openings: Callable[[], Sequence[str]] | None = None
    pgn_notation: bool = False
    points: bool = False
    teams: tuple[tuple[int, ...], ...] | None = None
    board_points: Callable[[float], float] | None = None
    team_names: tuple[str, str] | None = None
    table_outcome: Callable[[Any], TableOutcome] | None = None
    seat_names: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TableOutcome:
    """How a finished table of a duplicate board ended, in the game's words
    (``MatchHooks.table_outcome``): ``text`` for people (bridge: ``4S by South, 10 tricks
    (=), N-S +420``) and ``facts``, the same as JSON-ready values under names the game
    documents (bridge: ``contract`` ``"4S"``, ``declarer`` ``"S"``, ``tricks`` 10,
    ``score`` 420, the declaring side's score, negative when the contract fails: the
    game's own ``returns``). The arena's views and exports of a duplicate tournament show
    these, never a rank."""

    text: str
    facts: Mapping[str, object] = field(default_factory=dict)


class Observation(Protocol[S, A_co]):
    """What a seat may see, for a game with hidden information (``Game.observation()``;
    ``None`` means perfect information: each seat sees the state). Bridge, Oh Hell and the
    poker-like games have one. The shape they fill in:

    * ``observe(state, seat)`` -- what ``seat`` sees of ``state``: the public part and its
      own private part, never another seat's; hashable, and equal for the states the seat
      cannot tell apart (its information set). ``seat`` ``None``: a spectator, the public
      part alone;
    * ``actions(observation)`` -- the seat's legal actions, known from what it sees;
    * ``sample(observation, rng)`` -- a full state consistent with the observation, drawn
      at random (a determinisation: ISMCTS and PIMC search such samples);
    * ``public_game()`` -- the game as a seat may hold it: the same rules without what the
      holder keeps secret (bridge: without a fixed ``deal=``), a new object, so that no
      cache of the holder's game reaches a seat.

    **The boundary.** Whoever holds a game with hidden information (``play_game``, the
    web app's server-held game, an arena worker) hands an agent ``observe(state, seat)``
    where a perfect-information game passes the state, and ``public_game()`` where it
    passes the game (``Agent.choose(game, view, limit)``: :func:`gamesearch.agents.
    seat_view`, :func:`gamesearch.agents.seat_game`); a web client, the terminal and the
    arena's live output before a game ends receive only what is computed from that view
    (text from ``describe``, the drawing with ``seat=``). ``tests/test_information_sets.py``
    checks it as the field defines it: two states in one information set of a seat give
    that seat byte-identical answers on every route, for every game with an observation.
    """

    def observe(self, state: S, seat: int | None) -> Hashable:
        ...

    def actions(self, observation: Hashable) -> Sequence[A_co]:
        ...

    def sample(self, observation: Hashable, rng: random.Random,
               sampler: Any = None) -> S:
        """``sampler``: what :meth:`sampler` built for this observation (optional; a
        searcher that draws many samples of one view builds it once)."""
        ...

    def sampler(self, observation: Hashable) -> tuple[Any, Any]:
        """The sampler of ``observation`` prepared once (the deal counts), and what it
        needs to assemble a state; passed back to :meth:`sample`."""
        ...

    def describe(self, observation: Hashable) -> str:
        """The view in words for a person (the web app's text, ``gamesearch play``)."""
        ...

    def public_game(self) -> Any:
        """The game a seat is handed (see above)."""
        ...

    #: the perfect-information game of the sampled full states (every hand in view),
    #: which PIMC searches in each world
    world: Any



class GTPBoard(Protocol[S, A]):
    """What the Go Text Protocol asks of a game (``Game.gtp()``; Go offers it): the GTP
    engine (``gamesearch gtp``, :mod:`gamesearch.interfaces.gtp`) and the ``gtp:`` agent
    (outside engines such as GNU Go, :mod:`gamesearch.arena.gtp_client`) speak GTP for any
    game that has one, and refuse the others in one line.

    * ``size``, ``komi``, ``points`` -- the board's side, the komi, its number of points
      (points are numbered 0 .. points-1); ``min_size``, ``max_size``: the sizes the game
      accepts (``boardsize`` outside them is "unacceptable size"); ``pass_action``;
    * ``vertex(action)`` / ``parse_vertex(text)`` -- GTP's vertices (``D4``, ``pass``), the
      latter raising :class:`~gamesearch.errors.IllegalMoveError`;
    * ``stones(state)`` -- the colour on each point (0 empty, 1 black, 2 white);
    * ``with_turn(state, player)`` -- the position with ``player`` to move: ``state``
      itself on ``player``'s turn, else the same board handed over without a pass (GTP
      lets a colour play twice); ``reopened(state)``: the position with its passes
      forgotten (a stone played after two passes, dead stones judged from here);
    * ``with_stones(state, actions)`` -- the position with black stones added on those
      points and White to move (handicap); ``handicap_points(n)``: the fixed handicap points of
      ``n`` stones (:class:`~gamesearch.errors.InvalidLimitError` when there are none);
    * ``read_record(data)`` -- an SGF record's ``(size, komi, states of its main line)``,
      under the game's other rules (:class:`~gamesearch.errors.GameError` for a bad one);
    * ``area(stones)`` -- Black's and White's area (stones and the empty points only they
      reach); ``owners(stones)``: each point's owner under area scoring (0 neutral).
    """

    size: int
    komi: float
    points: int
    min_size: int
    max_size: int
    pass_action: Any

    def vertex(self, action: Any) -> str:
        ...

    def parse_vertex(self, text: str) -> A:
        ...

    def stones(self, state: S) -> Sequence[int]:
        ...

    def with_turn(self, state: S, player: int) -> S:
        ...

    def reopened(self, state: S) -> S:
        ...

    def with_stones(self, state: S, actions: Sequence[Any]) -> S:
        ...

    def handicap_points(self, stones: int) -> list[A]:
        ...

    def read_record(self, data: bytes) -> tuple[int, float, list[S]]:
        ...

    def area(self, stones: bytes) -> tuple[int, int]:
        ...

    def owners(self, stones: bytes) -> list[int]:
        ...


@dataclass(frozen=True)
class GnubgPlayer(Generic[S]):
    """What GNU Backgammon's external-player interface asks of a game
    (``Game.gnubg_player()``; backgammon offers it): ``read_board(line)``, the state a FIBS
    board line (``board:You:gnubg:...``) describes, from the side gnubg asks to move
    (:class:`~gamesearch.errors.InvalidPositionError` for a malformed line). The answer is
    the move in the game's own notation (``format_action``), which is gnubg's.
    ``gamesearch gnubg-match`` (:mod:`gamesearch.interfaces.gnubg_match`) plays any game
    that has one against gnubg and refuses the others in one line."""

    read_board: Callable[[str], S]


__all__ = [
    "BOOK_OFF",
    "BOOK_ON",
    "RAW_SCORES",
    "Book",
    "BookEntry",
    "Drawing",
    "EndgameDatabase",
    "EndgameValue",
    "EngineSettings",
    "Evaluation",
    "FastSolver",
    "GTPBoard",
    "GameRecord",
    "GnubgPlayer",
    "MatchHooks",
    "MoveOrdering",
    "NullMove",
    "Observation",
    "PerfectView",
    "Perft",
    "Playouts",
    "SafeMoves",
    "ScoreConvention",
    "Tactics",
    "ValueBounds",
    "solve_until",
]
