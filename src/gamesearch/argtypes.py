"""Numbers from the outside world, checked in one place: command-line options, the options
of algorithm and agent specs (``id:tt=1M,aspiration=50``), time controls.

Every numeric option has a documented range (:data:`RANGES`, shown in ``--help`` and in the
manual's docs/reliability.md) and every bad value the same kind of one-line message:

* only ASCII digits: ``int("٣")`` is 3 in Python, and ``float("１")`` is 1.0, but a number a
  person typed in another script is refused here, as are ``_`` separators;
* no NaN, no infinity, nothing that overflows to infinity (``1e999``);
* a whole number where one is expected (``2.5`` plies is an error, not 2);
* inside the option's range, so that what follows never meets a value it cannot use (a
  transposition table of 10**23 entries, a grace period that overflows the clock).

:func:`argtype` gives argparse ``type=`` functions and :func:`option_value` the same check
for spec options (raising :class:`~gamesearch.errors.InvalidLimitError`); messages quote the
bad text through :func:`gamesearch.errors.echo` (at most 80 characters).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import InvalidLimitError, echo

#: Longer number text is refused before any parsing (no number of any range needs it).
MAX_NUMBER_CHARS = 40

_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_REAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
#: A table size: entries, optionally with a binary suffix (``64k``, ``1M``, ``1.5M``).
_SIZE = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[kKmMgG]?", re.ASCII)
_SIZE_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits ``0``-``9``, the test every parser of
    a count or a square uses before ``int()``: ``str.isdigit`` alone is true of ``²``
    (which ``int`` then refuses with a bare ValueError, a traceback) and of ``٣`` (which
    ``int`` reads as 3, a number no one typed in the notation)."""
    return text.isascii() and text.isdigit()


def _fmt(x: float) -> str:
    if isinstance(x, int) or (float(x).is_integer() and abs(x) < 1e16):
        n = int(x)
        if n >= 1 << 16 and n & (n - 1) == 0:
            return f"2^{n.bit_length() - 1}"
        return f"{n:,}"
    return f"{x:g}"


class OutOfRange(ValueError):
    """A well-written number outside its range (:meth:`Range.parse` raises plain
    ValueError for text that is not a number of the right kind)."""


@dataclass(frozen=True)
class Range:
    """The values an option takes: whole numbers or reals from ``low`` to ``high`` (``low``
    itself excluded when ``above``), in ``unit``."""

    low: float
    high: float
    whole: bool = True
    unit: str = ""
    above: bool = False
    #: ``high`` itself excluded
    below: bool = False
    #: table sizes: ``64k``, ``1M`` and ``1G`` suffixes (powers of two)
    size: bool = False

    def describe(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        unit = f" ({self.unit})" if self.unit else ""
        low = f"above {_fmt(self.low)}" if self.above else f"from {_fmt(self.low)}"
        high = f"below {_fmt(self.high)}" if self.below else (
            f"up to {_fmt(self.high)}" if self.above else f"to {_fmt(self.high)}")
        return f"{kind}{unit} {low} {high}"

    def parse(self, text: str) -> Any:
        """The value of ``text``, or ValueError with the reason (no quotation of ``text``)."""
        t = text.strip() if isinstance(text, str) else ""
        if not t:
            raise ValueError(f"expected {self.describe()}")
        if len(t) > MAX_NUMBER_CHARS:
            raise ValueError(f"too long: expected {self.describe()}")
        value: Any
        if self.size and _SIZE.fullmatch(t):
            unit = _SIZE_UNITS.get(t[-1].lower(), 1)
            digits = t[:-1] if t[-1].lower() in _SIZE_UNITS else t
            value = int(float(digits) * unit) if "." in digits else int(digits) * unit
        elif _INT.fullmatch(t):
            value = int(t)
        elif not self.whole and _REAL.fullmatch(t):
            value = float(t)  # finite or inf (overflow): inf is out of every range
        else:
            raise ValueError(f"expected {self.describe()}")
        self.check(value)
        return int(value) if self.whole else float(value)

    def check(self, value: float) -> None:
        low_ok = value > self.low if self.above else value >= self.low
        high_ok = value < self.high if self.below else value <= self.high
        if not (low_ok and high_ok):
            raise OutOfRange(f"out of range: expected {self.describe()}")


_DAY = 86_400
#: The documented range of every numeric option and spec key, by name.
RANGES: dict[str, Range] = {
    # search limits (``--depth``, ``depth=`` ...) and options of algorithm specs
    # (the same ranges as :class:`gamesearch.search.control.Limit`'s: a test holds them equal)
    "depth": Range(1, 10_000, unit="plies"),
    "nodes": Range(1, 1 << 60, unit="nodes"),
    "time": Range(0, 1e9, whole=False, unit="seconds", above=True),
    "seed": Range(-(1 << 63), (1 << 63) - 1),
    # play, book, epd, perft
    "plies": Range(1, 42, unit="stones"),
    "max_seconds": Range(0, 365 * _DAY, whole=False, unit="seconds", above=True),
    "book_tt": Range(1, 1 << 28, unit="table entries; 64k, 1M allowed", size=True),
    "hash": Range(1, 4096, unit="MiB, as UCI's Hash option"),
    "limit": Range(1, 10**7, unit="positions"),
    "perft_depth": Range(0, 15, unit="plies"),
    # the arena
    "games": Range(1, 10**6, unit="games"),
    "boards": Range(1, 5 * 10**5, unit="boards"),
    "grace": Range(0, 3600, whole=False, unit="seconds"),
    "tc_base": Range(0, 7 * _DAY, whole=False, unit="seconds", above=True),
    "tc_increment": Range(0, 3600, whole=False, unit="seconds"),
    "max_plies": Range(1, 10**6, unit="plies"),
    "random_plies": Range(1, 1000, unit="plies"),
    "workers": Range(1, 1024, unit="processes"),
    "sprt_p": Range(0, 0.5, whole=False, unit="probability", above=True, below=True),
    "elo": Range(-4000, 4000, whole=False, unit="Elo"),
    # uci: agents (an outside engine's options)
    "uci_elo": Range(0, 5000, unit="Elo"),
    "gtp_level": Range(0, 20),
    "threads": Range(1, 1024, unit="threads"),
    # equilibrium solvers (gamesearch equilibrium, the cfr agent)
    "cfr_iterations": Range(1, 10**8, unit="iterations"),
    # gamesearch tune (Texel tuning of the chess evaluation)
    "tune_iterations": Range(1, 100_000, unit="iterations"),
    "tune_l2": Range(0, 1, whole=False, unit="per squared centipawn"),
    "tune_plies": Range(0, 1000, unit="plies"),
    "tune_holdout": Range(0, 1000, unit="games"),
    # the web app
    "port": Range(1, 65535, unit="TCP port"),
}


def _range(name: str) -> Range:
    return RANGES[name]


def option_value(key: str, text: str, range_name: str | None = None) -> Any:
    """The value of spec option ``key=text`` in its documented range, or
    :class:`InvalidLimitError` naming the option and the range."""
    try:
        return _range(range_name or key).parse(text)
    except ValueError as exc:
        raise InvalidLimitError(f"option {key}={echo(text)}: {exc}") from None


def _as_argtype(rng: Range, name: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return rng.parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{echo(text)}: {exc}") from None

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def argtype(name: str) -> Callable[[str], Any]:
    """An argparse ``type=``: the option's text parsed in the range ``RANGES[name]``."""
    return _as_argtype(_range(name), name)


def whole_number(text: str) -> int:
    """argparse ``type=`` for a whole number whose range its command checks itself: ASCII
    digits only, as every number here (``int("٣")`` is 3, ``int("1_0")`` 10)."""
    t = text.strip()
    if len(t) > MAX_NUMBER_CHARS or not _INT.fullmatch(t):
        raise argparse.ArgumentTypeError(f"{echo(text)}: expected a whole number")
    return int(t)


def real_number(text: str) -> float:
    """argparse ``type=`` for a finite number whose range its command checks itself (ASCII
    only: ``float("１")`` is 1.0; no NaN, no infinity)."""
    t = text.strip()
    if len(t) > MAX_NUMBER_CHARS or not _REAL.fullmatch(t) or not math.isfinite(float(t)):
        raise argparse.ArgumentTypeError(f"{echo(text)}: expected a finite number")
    return float(t)


def help_range(name: str) -> str:
    """The range as help text: ``"(1 to 1,000 plies)"``."""
    return f"({_range(name).describe()})"


#: Largest table size accepted (entries; the dict grows as it fills, so this is a bound).
MAX_TABLE_SIZE = 1 << 30


def parse_size(text: str | int) -> int:
    """Transposition-table entries from ``1000``, ``64k``, ``1M``; rounded up to a power of
    two; at most :data:`MAX_TABLE_SIZE`."""
    if isinstance(text, bool):
        raise InvalidLimitError(f"table size {text!r}: expected a number of entries")
    if isinstance(text, int):
        n = text
    else:
        t = text.strip().lower()
        mult = 1
        if t and t[-1] in "kmg":
            mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[t[-1]]
            t = t[:-1]
        try:
            x = float(t) if t.isascii() and len(t) <= 20 else math.nan
        except ValueError:
            x = math.nan
        if not math.isfinite(x):
            raise InvalidLimitError(
                f"table size {text[:40]!r}: expected a number of entries like 4096, 64k or 1M"
            )
        n = int(min(x * mult, float(MAX_TABLE_SIZE) * 2))
    if n < 0:
        raise InvalidLimitError(f"table size {str(text)[:40]!r}: must not be negative")
    if n > MAX_TABLE_SIZE:
        raise InvalidLimitError(
            f"table size {str(text)[:40]!r}: at most {MAX_TABLE_SIZE} entries (1G)")
    if n == 0:
        return 0
    return 1 << (n - 1).bit_length()
