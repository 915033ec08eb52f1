"""Time controls: ``base+increment`` in seconds (Fischer clock), as chess GUIs write them.

Each player starts with ``base`` seconds; a move's thinking time is taken off its clock and
``increment`` added after the move. An agent is *given* both clocks and the increment (a
:class:`~gamesearch.search.Limit` with ``clocks``) and allocates its own time with the
library's one rule, :func:`gamesearch.search.control.allocate_time`; it *loses on time*
when one move takes longer than its whole remaining clock plus a grace period (``grace``,
default 1 s: process and scheduling overhead, not thinking time). A move that never
returns is cut off by the runner at the same deadline (plus a little slack).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..argtypes import RANGES
from ..errors import echo
from .errors import ArenaError


@dataclass(frozen=True)
class TimeControl:
    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("tc_base", self.base), ("tc_increment", self.increment)):
            try:
                RANGES[name].check(value)
            except (ValueError, TypeError) as exc:
                raise ArenaError(f"time control {self.base!r}+{self.increment!r}: {exc}"
                                 ) from None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"10+0.1"`` (10 s, 0.1 s a move), ``"60"`` (one minute, no increment)."""
        raw = text.strip()
        base_text, plus, inc_text = raw.partition("+")
        try:
            base = float(RANGES["tc_base"].parse(base_text))
            inc = float(RANGES["tc_increment"].parse(inc_text)) if plus else 0.0
        except ValueError:
            raise ArenaError(
                f"time control {echo(text)}: expected BASE+INCREMENT in seconds, e.g. 10+0.1; "
                f"the base: {RANGES['tc_base'].describe()}; the increment: "
                f"{RANGES['tc_increment'].describe()}") from None
        return cls(base, inc)

    def __str__(self) -> str:
        def fmt(x: float) -> str:
            return f"{x:g}"
        return f"{fmt(self.base)}+{fmt(self.increment)}"
