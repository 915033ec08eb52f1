"""Specs: the one notation for naming an algorithm or an agent with options.

``name`` or ``name:key=value,key=value`` — ``alphabeta:depth=6``, ``id:time=1,tt=4M``,
``random:seed=3``, ``mcts:time=1,c=1.4``. The part after the first colon may also be
free text for agents that take a path (``uci:/usr/games/stockfish,elo=1350``,
``py:module:factory``): :func:`split_spec` keeps it whole in :attr:`Spec.rest`.

Every value is checked by one of the typed readers here (:func:`read_int`,
:func:`read_float`, :func:`read_bool`) with a documented range, so that a NaN, an infinity,
a number too large, digits of another script or a repeated key is a clear
:class:`~gamesearch.errors.InvalidLimitError`, never a crash deep inside a search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .argtypes import OutOfRange, Range
from .errors import InvalidLimitError

#: Longest spec accepted, and how much of a bad input an error message repeats.
MAX_SPEC_LENGTH = 1000
ECHO = 60


def shorten(text: str, limit: int = ECHO) -> str:
    """``text`` for an error message: at most ``limit`` characters, then an ellipsis."""
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass(frozen=True)
class Spec:
    """A parsed spec: its lower-case ``name``, the ``options`` (key → raw text, keys in
    lower case, each at most once) and the raw ``rest`` after the first colon."""

    text: str
    name: str
    rest: str
    options: dict[str, str] = field(default_factory=dict)


def split_spec(text: str, *, options: bool = True) -> Spec:
    """Split ``name:key=value,...``; ``options=False`` keeps the rest unparsed (paths)."""
    if not isinstance(text, str):
        raise InvalidLimitError(f"spec {text!r}: expected text like alphabeta:depth=4")
    if len(text) > MAX_SPEC_LENGTH:
        raise InvalidLimitError(f"spec {shorten(text)!r}: longer than {MAX_SPEC_LENGTH} "
                                "characters")
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise InvalidLimitError(f"spec {shorten(text)!r}: expected a name first, "
                                "like alphabeta or alphabeta:depth=4")
    parsed: dict[str, str] = {}
    if options:
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, val = part.partition("=")
            key = key.strip().lower()
            if not eq or not key:
                raise InvalidLimitError(f"option {shorten(part)!r} in {shorten(text)!r}: "
                                        "expected key=value")
            if key in parsed:
                raise InvalidLimitError(f"option {shorten(key)!r} given twice in "
                                        f"{shorten(text)!r}")
            parsed[key] = val.strip()
    return Spec(text, name, rest, parsed)


def read_int(key: str, text: str, low: int, high: int) -> int:
    """A whole number written in ASCII digits, from ``low`` to ``high``
    (:class:`gamesearch.argtypes.Range` reads it)."""
    try:
        return int(Range(low, high).parse(text))
    except OutOfRange:
        raise InvalidLimitError(f"option {key}={shorten(text)!r}: must be from {low} to "
                                f"{high}") from None
    except ValueError:
        raise InvalidLimitError(f"option {key}={shorten(text)!r}: expected a whole number "
                                f"from {low} to {high}") from None


def read_float(key: str, text: str, low: float, high: float, *, low_open: bool = False) -> float:
    """A finite number written in ASCII, in ``[low, high]`` (``(low, high]``: ``low_open``)."""
    try:
        return float(Range(low, high, whole=False, above=low_open).parse(text))
    except OutOfRange:
        lo = f"above {low:g}" if low_open else f"at least {low:g}"
        raise InvalidLimitError(f"option {key}={shorten(text)!r}: must be {lo} and at most "
                                f"{high:g}") from None
    except ValueError:
        raise InvalidLimitError(f"option {key}={shorten(text)!r}: expected a number") from None


def read_bool(key: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise InvalidLimitError(f"option {key}={shorten(text)!r}: expected 1/0, true/false, on/off")
