"""Search control as data: the limit of a search, the clock it runs against, and the one rule
that turns a game clock into thinking time.

A :class:`Limit` says when to stop — depth, nodes, a hard and a soft time, the players'
clocks and increments, moves to the next time control, a stop event — the way
python-chess's ``chess.engine.Limit`` carries clocks. It is a frozen value: front ends (the
command line, the UCI engine, the arena, the web app) build one and pass it to
:func:`gamesearch.search.search` or an agent; nothing is parked on a searcher or read back
from the game.

At the start of a search the driver turns the limit into a :class:`Clock` (the target, the
soft and the hard deadline, the node budget and the stop event of *this* search) with
:meth:`Clock.start`, and passes that clock down to the inner loops as an argument; every
searcher reads those fields and none recomputes them. Hot loops
call :meth:`Clock.check` every :attr:`Clock.interval` nodes; it raises
:class:`SearchTimeout` when the budget is spent or the stop event is set, so a search
overruns its time by at most one interval's work.

Time allocation (:func:`allocate_time`, applied by :meth:`Limit.plan`) is written once and
serves every front end: a share of the remaining clock (``remaining / moves_to_go``, 30
moves when unknown, 50 without an increment, plus 80 % of the increment; the latency of the
replies to come kept back when the increment does not cover it) is the *target*
(Stockfish's optimum time);
the search may run to :data:`HARD_FACTOR` times the target (the hard limit, Stockfish's
maximum, never more than half the clock) but iterative deepening starts no new iteration
after :data:`SOFT_SHARE` of the target (the soft limit): an iteration that starts late
rarely finishes, one that started early may end a little after the target. An anytime
search of short iterations (MCTS) runs to the target itself.

Time by instability (:class:`TimeRule`, :class:`Stability`): under a clock, iterative
deepening moves its soft limit after every completed iteration by how unsettled the search
is, the idea of Stockfish's time manager (``search.cpp``, ``Thread::search``: the
``fallingEval``, ``timeReduction`` and ``bestMoveInstability`` factors that scale its
optimum time, and the cap for a single legal move; Stockfish 15.1, read 2026-12). The soft
limit becomes ``SOFT_SHARE x target x factor``, never past the hard limit, the factor the
product of

* *instability*: ``1 + change_weight x changes``, where ``changes`` is a decaying count of
  best-move changes (halved after every iteration, one added when the iteration's best
  move differs from the previous iteration's, from iteration
  :attr:`TimeRule.counted_from` on: Stockfish's ``totBestMoveChanges``);
* *a falling score*: ``1 + fall_weight x`` the drop below the previous move's final value
  ``+ fall_iter_weight x`` the drop below the value :attr:`TimeRule.lookback` iterations
  ago, in the game's score units (:attr:`TimeRule.score_unit`: a pawn in chess), kept
  within :attr:`TimeRule.fall_range` (a rising score spends a little less);
* *stability*: :attr:`TimeRule.stable_factor` when the best move has not changed for
  :attr:`TimeRule.stable_iterations` completed iterations (Stockfish's
  ``timeReduction``, which counts depths since the last change);
* *a far-ahead best move*: :attr:`TimeRule.ahead_factor` when the iteration proved the best
  move at least :attr:`TimeRule.ahead_margin` score units better than every other (the
  driver reads ``Iteration.margin``: the engine's fail-soft upper bounds of the other root
  moves). Departure: Stockfish measures this by the best move's share of the nodes
  (``nodesEffort``); the bound needs no per-move node counts from a compiled kernel;

then clamped to :attr:`TimeRule.factor_range`. A single legal move makes the factor
:attr:`TimeRule.single_factor` (0: no iteration after the first). Departures: the
neutral factor is 1 (the library's soft limit already is half the target, where
Stockfish's is its optimum), the constants are scaled to a search that completes a handful
of iterations a move rather than twenty, and only a clock's allocation is moved (a
``time``, ``soft_time`` or ``movetime`` is the caller's and stays as given). The rule is a
searcher setting (:attr:`gamesearch.search.base.Searcher.time_rule`; the engine's
``instability=1`` turns it on: off by default, its SPRT did not pass, docs/games/chess.md),
written once here and applied by the driver for every game.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidLimitError
from ..errors import SearchTimeout as SearchTimeout  # the model's: games' solvers raise it too

INF = math.inf
#: a node count no search reaches (an int: hot loops compare it with an int node count,
#: and CPython's int-int comparison is much faster than a mixed int-float one)
NEVER = 1 << 62
#: Moves assumed left in the game when the clock does not say (a common engine rule) ...
MOVES_TO_GO = 30
#: ... and when there is no increment either (sudden death: Stockfish's horizon).
SUDDEN_DEATH_MOVES = 50
#: Share of the increment spent on this move.
INCREMENT_SHARE = 0.8
#: The hard limit is at most this many times the target ...
HARD_FACTOR = 2.5
#: ... and no iteration starts after this fraction of the target.
SOFT_SHARE = 0.5
#: Seconds a reply costs beyond its search (the last clock check, output, the pipe, the
#: GUI): kept back from every allocation, and for every move to come less the increment
#: (Stockfish's ``Move Overhead``, its default; UCI's option of that name sets it).
MOVE_OVERHEAD = 0.01
#: The smallest allocation: a move is always searched a little ...
MIN_SECONDS = 0.005
#: ... unless the clock holds less than a hundred times that: then this share of it.
FLOOR_SHARE = 0.01
#: With one move left to the time control, at most this share of the clock (less the
#: overhead): the rest is the reply's latency and the unexpected.
LAST_MOVE_SHARE = 0.8
#: Largest number of seconds, nodes or plies a limit accepts (about 31 years of time).
MAX_SECONDS = 1e9
MAX_NODES = 1 << 60
MAX_DEPTH_LIMIT = 10_000


def _check_seconds(name: str, value: float | None, *, zero_ok: bool = False) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidLimitError(f"{name} {value!r}: expected a number of seconds")
    low_ok = value >= 0 if zero_ok else value > 0
    if not (low_ok and value <= MAX_SECONDS):  # (NaN fails both comparisons)
        what = "0 or more" if zero_ok else "a positive number of seconds"
        raise InvalidLimitError(f"{name} {value!r}: must be {what}, at most {MAX_SECONDS:g}")


def _check_count(name: str, value: int | None, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise InvalidLimitError(f"{name} {value!r}: must be a whole number from 1 to {high}")


@dataclass(frozen=True)
class Limit:
    """When to stop searching. Any combination; ``Limit()`` means "to the end of the game".

    * ``depth`` in plies, ``nodes`` in generated positions;
    * ``time``: the hard limit in seconds (wall clock) for this search;
    * ``soft_time``: seconds after which no new iteration of iterative deepening starts
      (at most ``time``); without it, an engine applies its own soft share of ``time``;
    * ``clocks`` and ``increments``: each player's remaining time and increment in seconds,
      indexed by player (chess: white is player 0); the searcher allocates the mover's
      share with :func:`allocate_time`; ``moves_to_go``: moves to the next time control;
      ``overhead``: the latency of a reply in seconds, which the allocation keeps back
      from the clock, once and for every move to come beyond the increment (``None``:
      :data:`MOVE_OVERHEAD`; UCI's ``Move Overhead``);
    * ``stop``: an event another thread sets to end the search at its next clock check
      (UCI ``stop``, ``go infinite``, a web client that leaves). The search still answers
      with its deepest completed iteration.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    soft_time: float | None = None
    clocks: tuple[float, ...] | None = None
    increments: tuple[float, ...] | None = None
    moves_to_go: int | None = None
    stop: threading.Event | None = field(default=None, compare=False)
    overhead: float | None = None

    def __post_init__(self) -> None:
        _check_count("depth", self.depth, MAX_DEPTH_LIMIT)
        _check_count("nodes", self.nodes, MAX_NODES)
        _check_seconds("time", self.time)
        _check_seconds("soft_time", self.soft_time)
        if self.soft_time is not None and self.time is not None and self.soft_time > self.time:
            raise InvalidLimitError(
                f"soft_time {self.soft_time!r} must not exceed time {self.time!r}")
        for name in ("clocks", "increments"):
            values = getattr(self, name)
            if values is None:
                continue
            if not isinstance(values, tuple) or not values:
                raise InvalidLimitError(f"{name} {values!r}: expected a tuple, one per player")
            for v in values:
                _check_seconds(f"{name} entry", v, zero_ok=True)
        if self.increments is not None and self.clocks is None:
            raise InvalidLimitError("increments without clocks: give the players' clocks too")
        _check_count("moves_to_go", self.moves_to_go, MAX_DEPTH_LIMIT)
        _check_seconds("overhead", self.overhead, zero_ok=True)
        if self.stop is not None and not isinstance(self.stop, threading.Event):
            raise InvalidLimitError(f"stop {self.stop!r}: expected a threading.Event")

    @property
    def unlimited(self) -> bool:
        """No depth, node, time or clock limit (a stop event alone still counts as none)."""
        return (self.depth is None and self.nodes is None and self.time is None
                and self.soft_time is None and self.clocks is None)

    @property
    def budgeted(self) -> bool:
        """True when the search may be stopped before it finishes (time, nodes, clock, stop)."""
        return (self.time is not None or self.nodes is not None or self.clocks is not None
                or self.soft_time is not None or self.stop is not None)

    @property
    def timed(self) -> bool:
        return self.time is not None or self.clocks is not None or self.soft_time is not None

    def with_time(self, seconds: float | None) -> Limit:
        """This limit with a hard time of ``seconds`` (the smaller of the two when both)."""
        if seconds is None:
            return self
        t = seconds if self.time is None else min(self.time, seconds)
        soft = None if self.soft_time is None else min(self.soft_time, t)
        return Limit(self.depth, self.nodes, t, soft, self.clocks, self.increments,
                     self.moves_to_go, self.stop, self.overhead)

    def plan(self, player: int, soft_share: float | None = None) -> TimePlan:
        """The time plan of a move for ``player`` under this limit: the one place where a
        limit becomes seconds (every searcher reads the result from its :class:`Clock`).

        * ``target`` (Stockfish's *optimum*): what an anytime search (MCTS) spends. On a
          clock, :func:`allocate_time`'s target; a plain ``time`` is the move's time (UCI's
          ``movetime``), so it is the target too (the smaller of the two when both are
          given); with ``soft_time`` alone, that; else ``INF``.
        * ``soft``: no iteration of iterative deepening starts after it. ``soft_time`` when
          given; else :data:`SOFT_SHARE` of the clock's target, and under a plain ``time``
          ``soft_share`` of it (an engine's setting) or the time itself.
        * ``hard`` (Stockfish's *maximum*): the search stops. On a clock
          :func:`allocate_time`'s hard limit, and never past ``time``.

        The soft time is a rule of iterative deepening only: it never moves the target.
        """
        target = hard = soft = INF
        managed = False
        if self.clocks is not None:
            remaining = self.clocks[player % len(self.clocks)]
            incs = self.increments or (0.0,)
            overhead = MOVE_OVERHEAD if self.overhead is None else self.overhead
            target, hard = allocate_time(remaining, incs[player % len(incs)], self.moves_to_go,
                                         overhead)
            soft = SOFT_SHARE * target
            managed = True
        if self.time is not None and self.time < hard:
            hard = self.time
            soft = min(soft, hard if soft_share is None else soft_share * hard)
            managed = False
        if self.soft_time is not None:
            soft = self.soft_time
            managed = False
        soft = min(soft, hard)
        target = min(target, hard)
        if target == INF and self.soft_time is not None:
            target = soft  # the only time given
        return TimePlan(target, soft, hard, managed)

    def budget(self, player: int, soft_share: float | None = None) -> tuple[float, float]:
        """``(hard, soft)`` seconds for ``player`` to move under this limit (``INF``: none):
        two fields of :meth:`plan`, for callers that only show or cap the time."""
        p = self.plan(player, soft_share)
        return p.hard, p.soft


@dataclass(frozen=True)
class TimePlan:
    """Seconds from the start of a search (``INF``: none): ``target`` (what an anytime
    search spends: Stockfish's optimum), ``soft`` (no new iteration after it) and ``hard``
    (stop: Stockfish's maximum); ``soft <= hard`` and ``target <= hard``. ``managed``: the
    soft limit is the clock allocation's own, which :class:`TimeRule` may move (a
    ``time`` or ``soft_time`` the caller gave is not). Made by :meth:`Limit.plan` only."""

    target: float = INF
    soft: float = INF
    hard: float = INF
    managed: bool = False


def allocate_time(
    remaining: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    overhead: float = MOVE_OVERHEAD,
) -> tuple[float, float]:
    """``(target, hard)`` seconds for a move with ``remaining`` seconds on the clock.

    The target is ``remaining / moves_to_go`` (when not given: :data:`MOVES_TO_GO` with an
    increment, :data:`SUDDEN_DEATH_MOVES` without, Stockfish's horizon) plus
    :data:`INCREMENT_SHARE` of the increment, the latency of the replies to come kept back
    first (``overhead`` a move, less what the increment gives back: at 1 s + 0 a game of
    sixty moves spends a good part of its clock on them); the hard limit
    :data:`HARD_FACTOR` times it.
    Both stay within half the clock (:data:`LAST_MOVE_SHARE` of it when one move is left
    to the control, Stockfish's 80 %) less the ``overhead``, and never below
    :data:`MIN_SECONDS` — unless the clock is nearly gone: then :data:`FLOOR_SHARE` of
    it, so that a move never costs more than the clock holds (the latency of a reply
    comes on top). When the reserve leaves no more than that floor, the floor is the
    target and the hard limit alike.
    """
    left = max(remaining, 0.0)
    inc = max(increment, 0.0)
    if moves_to_go and moves_to_go > 0:
        mtg = moves_to_go
    else:
        mtg = MOVES_TO_GO if inc > 0 else SUDDEN_DEATH_MOVES
    reserve = max(overhead - inc, 0.0) * mtg  # the replies' latency to come
    share = max(left - reserve, 0.0) / mtg + INCREMENT_SHARE * inc
    cap = min(left * (LAST_MOVE_SHARE if mtg == 1 else 0.5), left - overhead)
    floor = min(MIN_SECONDS, left * FLOOR_SHARE)  # a clock nearly gone: a share of it
    cap = max(cap, floor)
    if share <= floor:  # nothing left beyond the reserve: the floor, and no more
        return floor, floor
    target = max(floor, min(share, cap))
    hard = max(target, min(HARD_FACTOR * target, cap))
    return target, hard


class Clock:
    """The budget of one search: its time plan as deadlines, a node budget, a stop event.

    Built by :meth:`start` from a :class:`Limit` (through :meth:`Limit.plan`, the one
    allocation rule) and passed down the search; searchers read its fields and never
    recompute them:

    * :attr:`target` / :attr:`target_deadline` — what an anytime search (MCTS, the solver
      agent) aims to spend (Stockfish's optimum time);
    * :attr:`soft` / :attr:`soft_deadline` — iterative deepening starts no iteration after
      it (:meth:`soft_expired`);
    * :attr:`hard` / :attr:`deadline` — :meth:`check` raises :class:`SearchTimeout` after it
      (Stockfish's maximum);

    ``hard``, ``soft`` and ``target`` are seconds from :attr:`start_time`, the deadlines
    the matching readings of :attr:`now` (``time.perf_counter`` unless a test injects a
    fake time source). Hot loops keep their own node count and call :meth:`check` only when
    it reaches the next check point; the clock is read every :attr:`interval` nodes.
    """

    interval = 64

    def __init__(self, hard: float = INF, soft: float = INF, max_nodes: int | None = None,
                 stop: threading.Event | None = None, target: float | None = None,
                 now: Callable[[], float] | None = None, managed: bool = False) -> None:
        #: the time source (seconds, monotonic); every reading of this search's time
        self.now: Callable[[], float] = now if now is not None else time.perf_counter
        self.start_time = self.now()
        self.hard = hard
        self.soft = min(soft, hard)
        #: the soft limit the plan gave, before :meth:`scale_soft` moved it
        self.base_soft = self.soft
        #: the soft limit is the clock allocation's, which a :class:`TimeRule` may move
        self.managed = managed
        self.target = hard if target is None else min(target, hard)
        self.deadline = self.start_time + hard
        self.soft_deadline = self.start_time + self.soft
        self.target_deadline = self.start_time + self.target
        self.max_nodes = max_nodes
        self.stop = stop
        #: nodes counted before the running iteration (hot loops count from 0)
        self.offset = 0
        self.stopped = False
        self.next_check: int = NEVER if self.unlimited else self.interval

    @classmethod
    def start(cls, limit: Limit | None, player: int = 0, soft_share: float | None = None,
              now: Callable[[], float] | None = None) -> Clock:
        """The clock of a search for ``player`` under ``limit`` (see :meth:`Limit.plan`)."""
        if limit is None or not limit.budgeted:
            return cls(now=now)
        plan = limit.plan(player, soft_share)
        return cls(plan.hard, plan.soft, limit.nodes, limit.stop, plan.target, now,
                   plan.managed)

    @property
    def unlimited(self) -> bool:
        return self.deadline == INF and self.max_nodes is None and self.stop is None

    def begin(self, nodes_so_far: int) -> int:
        """Start counting an iteration from 0, ``nodes_so_far`` already spent; returns the
        first check point in the iteration's own count."""
        self.offset = nodes_so_far
        if self.unlimited:
            return NEVER
        return self._next(0)

    def _next(self, nodes: int) -> int:
        nxt = nodes + self.interval
        if self.max_nodes is not None:
            return min(nxt, self.max_nodes - self.offset)
        return nxt

    def check(self, nodes: int) -> int:
        """Raise :class:`SearchTimeout` when out of budget; else return the next check point
        (``nodes`` and the result count from the start of the running iteration)."""
        if (
            (self.max_nodes is not None and nodes + self.offset >= self.max_nodes)
            or (self.stop is not None and self.stop.is_set())
            or (self.deadline != INF and self.now() >= self.deadline)
        ):
            self.stopped = True
            raise SearchTimeout
        return self._next(nodes)

    def soft_expired(self) -> bool:
        """Past the soft deadline (or stopped): start no new iteration."""
        return (self.now() >= self.soft_deadline
                or (self.stop is not None and self.stop.is_set()))

    def scale_soft(self, factor: float) -> None:
        """Move the soft limit to ``factor`` times the plan's (:attr:`base_soft`), never
        past the hard limit nor below 0 (a :class:`TimeRule`'s verdict; the hard limit and
        the target stay)."""
        self.soft = min(max(self.base_soft * factor, 0.0), self.hard)
        self.soft_deadline = self.start_time + self.soft

    def elapsed(self) -> float:
        return self.now() - self.start_time

    def remaining(self) -> float:
        return self.deadline - self.now()


@dataclass(frozen=True)
class TimeRule:
    """How far iterative deepening moves its soft limit by the search's instability (see
    the module docstring: Stockfish's time manager in the library's terms). A searcher
    setting; the factor is computed by a :class:`Stability` per search.

    ``score_unit`` is the game's unit of score for the falling-score and far-ahead terms
    (chess: 100 centipawns, a pawn); ``None`` turns both off (a game whose values have no
    such unit keeps the best-move terms)."""

    score_unit: float | None = None
    #: weight of the decaying count of best-move changes, and its decay per iteration
    change_weight: float = 1.0
    change_decay: float = 0.5
    #: changes count from this completed iteration on (the first few shallow iterations
    #: change their minds as a matter of course; Stockfish's are gone by its depth 20)
    counted_from: int = 4
    #: per score unit of fall below the previous move's value / the value ``lookback``
    #: iterations ago, and the range of the falling-score factor
    fall_weight: float = 0.3
    fall_iter_weight: float = 0.3
    lookback: int = 3
    fall_range: tuple[float, float] = (0.85, 1.6)
    #: the best move unchanged for this many completed iterations: this factor
    stable_iterations: int = 4
    stable_factor: float = 0.7
    #: the best move proven this many score units better than every other: this factor
    ahead_margin: float = 2.0
    ahead_factor: float = 0.6
    #: a single legal move: this factor (0: the first iteration is enough)
    single_factor: float = 0.0
    #: the clamp on the whole factor
    factor_range: tuple[float, float] = (0.35, 3.0)

    def __post_init__(self) -> None:
        for name in ("change_weight", "fall_weight", "fall_iter_weight", "stable_factor",
                     "ahead_margin", "ahead_factor", "single_factor"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < INF:
                raise InvalidLimitError(f"time rule {name}={v!r}: must be a number >= 0")
        if self.score_unit is not None and not (isinstance(self.score_unit, (int, float))
                                                and 0 < self.score_unit < INF):
            raise InvalidLimitError(
                f"time rule score_unit={self.score_unit!r}: must be a positive number or None")
        if not 0 <= self.change_decay < 1:
            raise InvalidLimitError(
                f"time rule change_decay={self.change_decay!r}: must be in [0, 1)")
        for name in ("lookback", "stable_iterations", "counted_from"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidLimitError(f"time rule {name}={v!r}: must be a whole number >= 1")
        for name in ("fall_range", "factor_range"):
            lo, hi = getattr(self, name)
            if not 0 <= lo <= hi < INF:
                raise InvalidLimitError(f"time rule {name}={(lo, hi)!r}: expected 0 <= low "
                                        "<= high")

    def start(self, previous_value: float | None = None, single: bool = False) -> Stability:
        """The tracker of one search: ``previous_value`` is the mover's value at the end
        of its previous search (``None``: unknown), ``single`` that it has one legal move."""
        return Stability(self, previous_value, single)


class Stability:
    """One search's instability, fed the completed iterations in order
    (:meth:`observe`); :attr:`factor` is what the soft limit is multiplied by. Pure
    arithmetic on the iterations' values and moves: no clock, so tests feed it."""

    def __init__(self, rule: TimeRule, previous_value: float | None = None,
                 single: bool = False) -> None:
        self.rule = rule
        self.previous_value = previous_value
        self.single = single
        #: decaying count of best-move changes (Stockfish's ``totBestMoveChanges``)
        self.changes = 0.0
        #: completed iterations in a row with the same best move (1: just changed)
        self.same = 0
        self.values: list[float] = []
        self.best: Any = None
        self.factor = rule.single_factor if single else 1.0

    def observe(self, value: float, action: Any, margin: float | None = None) -> float:
        """Take one completed iteration (its value from the mover's side, best move, and
        the proven margin of the best move over the others, if known); return the new
        factor of the soft limit."""
        rule = self.rule
        changed = bool(self.values) and action != self.best
        counted = changed and len(self.values) + 1 >= rule.counted_from
        self.changes = self.changes * rule.change_decay + (1.0 if counted else 0.0)
        self.same = 1 if changed or not self.values else self.same + 1
        self.best = action
        self.values.append(value)
        if self.single:
            self.factor = rule.single_factor
            return self.factor
        factor = 1.0 + rule.change_weight * self.changes
        unit = rule.score_unit
        if unit is not None:
            fall = 0.0
            if self.previous_value is not None:
                fall += rule.fall_weight * (self.previous_value - value) / unit
            if len(self.values) > rule.lookback:
                fall += rule.fall_iter_weight * (self.values[-1 - rule.lookback] - value) / unit
            lo, hi = rule.fall_range
            factor *= min(max(1.0 + fall, lo), hi)
            if margin is not None and margin >= rule.ahead_margin * unit:
                factor *= rule.ahead_factor
        if self.same >= rule.stable_iterations:
            factor *= rule.stable_factor
        lo, hi = rule.factor_range
        self.factor = min(max(factor, lo), hi)
        return self.factor


def describe(limit: Limit) -> dict[str, Any]:
    """The limit as plain data (for JSON output and logs)."""
    return {k: v for k, v in (
        ("depth", limit.depth), ("nodes", limit.nodes), ("time", limit.time),
        ("soft_time", limit.soft_time), ("clocks", limit.clocks),
        ("increments", limit.increments), ("moves_to_go", limit.moves_to_go),
        ("overhead", limit.overhead),
    ) if v is not None}
