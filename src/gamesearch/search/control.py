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
moves when unknown, plus 80 % of the increment) is the *target* (Stockfish's optimum time);
the search may run to :data:`HARD_FACTOR` times the target (the hard limit, Stockfish's
maximum, never more than half the clock) but iterative deepening starts no new iteration
after :data:`SOFT_SHARE` of the target (the soft limit): an iteration that starts late
rarely finishes, one that started early may end a little after the target. An anytime
search of short iterations (MCTS) runs to the target itself.
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
#: Moves assumed left in the game when the clock does not say (a common engine rule).
MOVES_TO_GO = 30
#: Share of the increment spent on this move.
INCREMENT_SHARE = 0.8
#: The hard limit is at most this many times the target ...
HARD_FACTOR = 2.5
#: ... and no iteration starts after this fraction of the target.
SOFT_SHARE = 0.5
#: Seconds kept back from every clock allocation (process start, the last check, output).
MOVE_OVERHEAD = 0.05
#: The smallest allocation: a move is always searched a little.
MIN_SECONDS = 0.005
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
                     self.moves_to_go, self.stop)

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
        if self.clocks is not None:
            remaining = self.clocks[player % len(self.clocks)]
            incs = self.increments or (0.0,)
            target, hard = allocate_time(remaining, incs[player % len(incs)], self.moves_to_go)
            soft = SOFT_SHARE * target
        if self.time is not None and self.time < hard:
            hard = self.time
            soft = min(soft, hard if soft_share is None else soft_share * hard)
        if self.soft_time is not None:
            soft = self.soft_time
        soft = min(soft, hard)
        target = min(target, hard)
        if target == INF and self.soft_time is not None:
            target = soft  # the only time given
        return TimePlan(target, soft, hard)

    def budget(self, player: int, soft_share: float | None = None) -> tuple[float, float]:
        """``(hard, soft)`` seconds for ``player`` to move under this limit (``INF``: none):
        two fields of :meth:`plan`, for callers that only show or cap the time."""
        p = self.plan(player, soft_share)
        return p.hard, p.soft


@dataclass(frozen=True)
class TimePlan:
    """Seconds from the start of a search (``INF``: none): ``target`` (what an anytime
    search spends: Stockfish's optimum), ``soft`` (no new iteration after it) and ``hard``
    (stop: Stockfish's maximum); ``soft <= hard`` and ``target <= hard``. Made by
    :meth:`Limit.plan` only."""

    target: float = INF
    soft: float = INF
    hard: float = INF


def allocate_time(
    remaining: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    overhead: float = MOVE_OVERHEAD,
) -> tuple[float, float]:
    """``(target, hard)`` seconds for a move with ``remaining`` seconds on the clock.

    The target is ``remaining / moves_to_go`` (:data:`MOVES_TO_GO` when not given) plus
    :data:`INCREMENT_SHARE` of the increment; the hard limit :data:`HARD_FACTOR` times it.
    Both stay within half the clock (all of it but the overhead when one move is left to
    the control) and never below :data:`MIN_SECONDS`.
    """
    left = max(remaining, 0.0)
    mtg = moves_to_go if moves_to_go and moves_to_go > 0 else MOVES_TO_GO
    share = left / mtg + INCREMENT_SHARE * max(increment, 0.0)
    cap = left - overhead if mtg == 1 else min(left * 0.5, left - overhead)
    cap = min(cap, left * 0.9)
    target = max(MIN_SECONDS, min(share, cap))
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
                 now: Callable[[], float] | None = None) -> None:
        #: the time source (seconds, monotonic); every reading of this search's time
        self.now: Callable[[], float] = now if now is not None else time.perf_counter
        self.start_time = self.now()
        self.hard = hard
        self.soft = min(soft, hard)
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
        return cls(plan.hard, plan.soft, limit.nodes, limit.stop, plan.target, now)

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

    def elapsed(self) -> float:
        return self.now() - self.start_time

    def remaining(self) -> float:
        return self.deadline - self.now()


def describe(limit: Limit) -> dict[str, Any]:
    """The limit as plain data (for JSON output and logs)."""
    return {k: v for k, v in (
        ("depth", limit.depth), ("nodes", limit.nodes), ("time", limit.time),
        ("soft_time", limit.soft_time), ("clocks", limit.clocks),
        ("increments", limit.increments), ("moves_to_go", limit.moves_to_go),
    ) if v is not None}
