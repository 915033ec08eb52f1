"""What every search algorithm shares: limits, the clock, results, and score conventions.

Score conventions (design.md §3), written down once:

* A value is from the point of view of the player to move at the root (for the two-player
  algorithms) or a vector with one entry per player (max^n).
* A terminal win or loss of full size (``|utility| >= game.max_utility``) reached ``d`` plies
  below the root is worth ``utility -/+ d * step`` with ``step = max_utility / 1000``: a faster
  win ranks above a slower one, a slower loss above a faster one. Draws and smaller outcomes
  are not discounted. ``discount=False`` turns this off (the textbook's plain ±1 values).
* Ties between equally valued actions go to the first in the game's action order.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidLimitError

INF = math.inf
#: Plies a discounted win can be away before it stops looking like a win (see ``is_win``).
MAX_PLY = 500
DISCOUNT_FRACTION = 1000.0


class SearchTimeout(Exception):
    """Raised inside a search when its time or node budget runs out."""


@dataclass(frozen=True)
class Limit:
    """When to stop searching. Any combination; ``Limit()`` means "to the end of the game".

    ``depth`` in plies, ``time`` in seconds (wall clock), ``nodes`` in generated positions.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and (not isinstance(self.depth, int) or self.depth < 1):
            raise InvalidLimitError(f"depth {self.depth!r}: must be a whole number >= 1")
        if self.time is not None and (
            not isinstance(self.time, (int, float)) or not self.time > 0 or math.isinf(self.time)
        ):
            raise InvalidLimitError(f"time {self.time!r}: must be a positive number of seconds")
        if self.nodes is not None and (not isinstance(self.nodes, int) or self.nodes < 1):
            raise InvalidLimitError(f"nodes {self.nodes!r}: must be a whole number >= 1")

    @property
    def unlimited(self) -> bool:
        return self.depth is None and self.time is None and self.nodes is None

    @property
    def budgeted(self) -> bool:
        """True when the search may be stopped before it finishes (time or nodes)."""
        return self.time is not None or self.nodes is not None


class Clock:
    """Time and node budget of one search.

    Hot loops call ``check(nodes)`` only when ``nodes >= next_check``; the clock is read every
    ``interval`` nodes, so a search overruns its time by at most ``interval`` nodes' work.
    """

    interval = 64

    def __init__(self, limit: Limit) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + limit.time if limit.time is not None else INF
        self.max_nodes = limit.nodes if limit.nodes is not None else None
        self.next_check = self._next(0)
        self.stopped = False
        #: set by another thread (UCI ``stop``, a GUI) to end the search at the next check.
        self.stop_requested = False

    def _next(self, nodes: int) -> float:
        nxt = nodes + self.interval
        if self.max_nodes is not None:
            return min(nxt, self.max_nodes)
        return nxt

    def check(self, nodes: int) -> float:
        """Raise :class:`SearchTimeout` when out of budget; else return the next check point."""
        if (
            (self.max_nodes is not None and nodes >= self.max_nodes)
            or self.stop_requested
            or (self.deadline != INF and time.perf_counter() >= self.deadline)
        ):
            self.stopped = True
            raise SearchTimeout
        self.next_check = self._next(nodes)
        return self.next_check

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


#: a node count no search reaches
NEVER = 1 << 62


class NoClock(Clock):
    """A clock that never stops: the hot loops skip checking altogether."""

    def __init__(self) -> None:
        super().__init__(Limit())
        # An int, not INF: hot loops compare it with their int node count, and CPython's
        # int-int comparison is much faster than a mixed int-float one.
        self.next_check = NEVER


@dataclass
class SearchResult:
    """Everything a search did. ``value`` is from the root player's point of view
    (a vector for max^n); ``pv`` is the principal variation starting with ``action``."""

    algorithm: str
    value: Any
    action: Any
    pv: list[Any]
    depth: int
    nodes: int
    seconds: float
    nodes_per_depth: list[int] = field(default_factory=list)
    tt_hits: int = 0
    cutoffs: int = 0
    completed: bool = True
    seldepth: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self, format_action: Callable[[Any], str] = str) -> dict[str, Any]:
        value = self.value
        if isinstance(value, tuple | list):
            value = [float(v) for v in value]
        return {
            "algorithm": self.algorithm,
            "value": value,
            "move": None if self.action is None else format_action(self.action),
            "pv": [format_action(a) for a in self.pv],
            "depth": self.depth,
            "nodes": self.nodes,
            "nodes_per_depth": self.nodes_per_depth,
            "tt_hits": self.tt_hits,
            "cutoffs": self.cutoffs,
            "seconds": round(self.seconds, 6),
            "nps": round(self.nps),
            "completed": self.completed,
            **self.extra,
        }


@dataclass
class Iteration:
    """What one depth-limited search returns to the driver."""

    value: Any
    action: Any
    pv: list[Any]
    #: False when the search never cut off at the depth limit (the whole tree was seen).
    hit_horizon: bool = True
    #: Algorithm-specific figures passed on to ``SearchResult.extra`` (e.g. root values).
    extra: dict[str, Any] = field(default_factory=dict)


Callback = Callable[[SearchResult], None]


def win_step(max_utility: float) -> float:
    return max_utility / DISCOUNT_FRACTION


def win_threshold(max_utility: float) -> float:
    """Values beyond this are discounted wins; heuristic values never reach it."""
    return max_utility - MAX_PLY * win_step(max_utility)
