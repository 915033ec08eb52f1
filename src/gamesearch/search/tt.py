"""Transposition table: a fixed-size hash table of search results with bounds (AIMA 4e §6.2.4).

Each slot holds one entry ``(key, depth, flag, value, move)``. ``flag`` says whether ``value``
is the exact value (``EXACT``), a lower bound (``LOWER``, the node failed high) or an upper bound
(``UPPER``, it failed low); ``move`` is the best move found, tried first on the next visit.
Slots are chosen by ``hash(key)``, so memory is bounded by ``size`` whatever the game; a new
entry replaces the old one in its slot unless the old one is for the same position and was
searched deeper ("depth-preferred for the same key, always-replace otherwise", the simplest
scheme that works well for iterative deepening).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..errors import InvalidLimitError

EXACT, LOWER, UPPER = 0, 1, 2
#: Depth stored for results of searches that went to the end of the game.
UNLIMITED = 1 << 30

Entry = tuple[Hashable, int, int, float, Any]


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
    """A bounded table of ``size`` slots (a power of two)."""

    def __init__(self, size: int = 1 << 20) -> None:
        size = parse_size(size)
        if size < 1:
            raise InvalidLimitError("a transposition table needs at least one entry")
        self.size = size
        self.mask = size - 1
        self.slots: list[Entry | None] = [None] * size
        self.stores = 0

    def clear(self) -> None:
        self.slots = [None] * self.size
        self.stores = 0

    def get(self, key: Hashable) -> Entry | None:
        e = self.slots[hash(key) & self.mask]
        if e is not None and e[0] == key:
            return e
        return None

    def put(self, key: Hashable, depth: int, flag: int, value: float, move: Any) -> None:
        i = hash(key) & self.mask
        old = self.slots[i]
        if old is not None and old[0] == key and old[1] > depth and move is None:
            return
        self.slots[i] = (key, depth, flag, value, move)
        self.stores += 1

    def fill(self) -> float:
        """Share of occupied slots (for ``hashfull``-style reports)."""
        return sum(1 for e in self.slots if e is not None) / self.size
