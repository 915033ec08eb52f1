"""Transposition table: search results by position, with bounds (AIMA 4e §6.2.4).

Each entry maps a position key to ``(depth, flag, value, move)``. ``flag`` says whether
``value`` is the exact value (``EXACT``), a lower bound (``LOWER``, the node failed high) or an
upper bound (``UPPER``, it failed low); ``move`` is the best move found, tried first on the
next visit. ``depth`` is the remaining depth searched (``UNLIMITED``: to the end of the game).

The table is a Python dict bounded by ``size`` entries: a dict lookup is the cheapest probe
CPython offers, and emptying it is O(1). When it is full the next new position starts a
fresh table (the simplest bounded policy; with iterative deepening the next iteration
refills what matters first). Replacement for a key already present: a deeper result is not
overwritten by a shallower one.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..argtypes import parse_size as parse_size
from ..errors import InvalidLimitError

EXACT, LOWER, UPPER = 0, 1, 2
#: Depth stored for results of searches that went to the end of the game.
UNLIMITED = 1 << 30

Entry = tuple[int, int, float, Any]


class TranspositionTable:
    """At most ``size`` entries (a power of two).

    ``lookup(key)`` is the probe (the dict's own ``get``, bound once: the hot loops call it
    at every node, so it costs no Python frame); :meth:`store` is the write with the
    replacement rule. Values of wins go in and out through :func:`to_table` and
    :func:`from_table`, which make them relative to the node that stores them.
    """

    def __init__(self, size: int | str = 1 << 20) -> None:
        size = parse_size(size)
        if size < 1:
            raise InvalidLimitError("a transposition table needs at least one entry")
        self.size = size
        self.data: dict[Hashable, Entry] = {}
        #: the probe: ``lookup(key)`` -> the entry or ``None`` (stays valid: the table is
        #: emptied in place, never replaced)
        self.lookup = self.data.get
        self.resets = 0

    def clear(self) -> None:
        self.data.clear()

    def get(self, key: Hashable) -> Entry | None:
        return self.data.get(key)

    def store(self, key: Hashable, depth: int, flag: int, value: float, move: Any,
              seen: Entry | None) -> None:
        """Write an entry for ``key``; ``seen`` is what the probe of this node found.

        A deeper entry is not overwritten by a shallower one (judged on ``seen``, the entry
        the node started from, so that what the subtree stored meanwhile is replaced); a
        new key in a full table empties it first (the simplest bounded policy; iterative
        deepening refills what matters first).
        """
        data = self.data
        if seen is None:
            if len(data) >= self.size:
                data.clear()
                self.resets += 1
        elif seen[0] > depth:
            return
        data[key] = (depth, flag, value, move)

    def put(self, key: Hashable, depth: int, flag: int, value: float, move: Any) -> None:
        """:meth:`store` judged on the entry in the table now."""
        self.store(key, depth, flag, value, move, self.data.get(key))

    def __len__(self) -> int:
        return len(self.data)

    def fill(self) -> float:
        """Share of the table in use (for ``hashfull``-style reports)."""
        return len(self.data) / self.size


def to_table(value: float, ply: int, threshold: float, step: float) -> float:
    """A search value at ``ply`` as stored: a win (beyond ``threshold``) made relative to
    the node, so that the entry holds at any ply (mate-distance adjustment)."""
    if value > threshold:
        return value + ply * step
    if value < -threshold:
        return value - ply * step
    return value


def from_table(value: float, ply: int, threshold: float, step: float) -> float:
    """The inverse of :func:`to_table` for a node at ``ply``."""
    if value > threshold:
        return value - ply * step
    if value < -threshold:
        return value + ply * step
    return value
