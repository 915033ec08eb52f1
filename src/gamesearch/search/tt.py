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

from ..errors import InvalidLimitError

EXACT, LOWER, UPPER = 0, 1, 2
#: Depth stored for results of searches that went to the end of the game.
UNLIMITED = 1 << 30

Entry = tuple[int, int, float, Any]


def parse_size(text: str | int) -> int:
    """Entries from ``1000``, ``64k``, ``1M``; rounded up to a power of two."""
    if isinstance(text, int):
        n = text
    else:
        t = text.strip().lower()
        mult = 1
        if t and t[-1] in "kmg":
            mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[t[-1]]
            t = t[:-1]
        try:
            n = int(float(t) * mult)
        except ValueError:
            raise InvalidLimitError(
                f"table size {text!r}: expected a number of entries like 4096, 64k or 1M"
            ) from None
    if n < 0:
        raise InvalidLimitError(f"table size {text!r}: must not be negative")
    if n == 0:
        return 0
    return 1 << (n - 1).bit_length()


class TranspositionTable:
    """At most ``size`` entries (a power of two)."""

    def __init__(self, size: int | str = 1 << 20) -> None:
        size = parse_size(size)
        if size < 1:
            raise InvalidLimitError("a transposition table needs at least one entry")
        self.size = size
        self.data: dict[Hashable, Entry] = {}
        self.resets = 0

    def clear(self) -> None:
        self.data = {}

    def get(self, key: Hashable) -> Entry | None:
        return self.data.get(key)

    def put(self, key: Hashable, depth: int, flag: int, value: float, move: Any) -> None:
        data = self.data
        old = data.get(key)
        if old is None:
            if len(data) >= self.size:
                self.data = data = {}
                self.resets += 1
        elif old[0] > depth:
            return
        data[key] = (depth, flag, value, move)

    def __len__(self) -> int:
        return len(self.data)

    def fill(self) -> float:
        """Share of the table in use (for ``hashfull``-style reports)."""
        return len(self.data) / self.size
