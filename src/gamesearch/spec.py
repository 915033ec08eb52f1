"""Specs: the one notation for naming an algorithm or an agent with options.

``name`` or ``name:key=value,key=value`` — ``alphabeta:depth=6``, ``id:time=1,tt=4M``,
``random:seed=3``, ``mcts:time=1,c=1.4``. The part after the first colon may also be
free text for agents that take a path (``uci:/usr/games/stockfish,elo=1350``,
``py:module:factory``): :func:`split_spec` keeps it whole in :attr:`Spec.rest`.

Every value is checked by one of the typed readers here (:func:`read_int`,
:func:`read_float`, :func:`read_bool`) with a documented range, so that a NaN, an infinity,
a number too large, digits of another script or a repeated key is a clear
:class:`~gamesearch.errors.InvalidLimitError`, never a crash deep inside a search.

Games are named by the same notation (:func:`split_game_spec`): ``rolit:players=3``,
``go:size=9,komi=7.5``, ``pig:goal=50``, and a game defined outside the library
``py:MODULE:ATTR`` or ``py:MODULE:ATTR:key=value,...`` (module and attribute keep their case).
A game declares its options as a tuple of :class:`GameOption` (name, type, default, range,
help); :func:`read_game_options` reads a spec's options with them and
:func:`format_game_spec` writes the canonical spec back (only options that differ from
their defaults, in the order declared), so the same game always has the same spec.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    return Spec(text, name, rest, _split_options(text, rest) if options else {})


def _split_options(text: str, rest: str) -> dict[str, str]:
    """``key=value,key=value`` of ``rest`` (the part of ``text`` after the name)."""
    parsed: dict[str, str] = {}
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
    return parsed


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


# ----- game specs ---------------------------------------------------------------------------
#: The prefix of a game (or agent) named by its Python module: ``py:MODULE:ATTR``.
PY_PREFIX = "py:"
#: What a command that takes a game says of it (``--help``).
GAME_SPEC_HELP = ("a game spec: a name (gamesearch list), options after a colon "
                  "(pig:goal=50), or a game of your own, py:MODULE:ATTR[:key=value,...]")


def split_game_spec(text: str) -> Spec:
    """Split a game spec: ``name``, ``name:key=value,...``, ``py:MODULE:ATTR`` or
    ``py:MODULE:ATTR:key=value,...``. A registered name is lower-cased; ``py:MODULE:ATTR``
    is kept as written (:attr:`Spec.name`), since Python names are case-sensitive."""
    if not isinstance(text, str):
        raise InvalidLimitError(f"game spec {text!r}: expected text like tictactoe or "
                                "pig:goal=50")
    stripped = text.strip()
    if stripped[:len(PY_PREFIX)].lower() != PY_PREFIX:
        return split_spec(text)
    if len(text) > MAX_SPEC_LENGTH:
        raise InvalidLimitError(f"spec {shorten(text)!r}: longer than {MAX_SPEC_LENGTH} "
                                "characters")
    module, _, tail = stripped[len(PY_PREFIX):].partition(":")
    attr, _, rest = tail.partition(":")
    module, attr = module.strip(), attr.strip()
    if not all(p.isidentifier() for p in module.split(".")) or not attr.isidentifier():
        raise InvalidLimitError(f"game {shorten(text)!r}: expected py:MODULE:ATTR (a module "
                                "on the path and the game class or factory in it), e.g. "
                                "py:mypackage.mygame:MyGame or py:mypackage.mygame:MyGame:"
                                "size=9")
    return Spec(text, f"{PY_PREFIX}{module}:{attr}", rest, _split_options(text, rest))


@dataclass(frozen=True)
class GameOption:
    """One option a game takes: ``name`` (lower case, as written in a spec), its ``type``
    (``int``, ``float``, ``bool`` or ``str``), its ``default``, its ``range`` (``(low,
    high)`` for numbers, the allowed words for ``str``, a text for a value ``read`` checks,
    ``None``: any) and a one-line
    ``help``. ``read``/``write`` replace the reader of ``type`` for a value of another shape
    (Nim's heaps ``3-4-5``): ``read(key, text)`` returns the value or raises
    :class:`~gamesearch.errors.InvalidLimitError`, ``write(value)`` gives its spec text.

    The game keeps each option's value in the attribute of the same name, which is how
    :attr:`gamesearch.game.Game.spec` writes the game's canonical spec."""

    name: str
    type: type
    default: Any
    range: tuple[Any, ...] | str | None = None
    help: str = ""
    read: Callable[[str, str], Any] | None = None
    write: Callable[[Any], str] | None = None
    #: every value the option takes, when they are few and ``range`` does not list them
    #: (Chinese Checkers' players: 2, 3, 4 or 6): what a front end offers as a choice
    choices: tuple[Any, ...] | None = None

    def parse(self, text: str) -> Any:
        """The value of the option's ``text`` in a spec, checked against its range."""
        key = self.name
        if self.read is not None:
            return self.read(key, text)
        bounds = self.range if isinstance(self.range, tuple) else None
        if self.type is bool:
            return read_bool(key, text)
        if self.type is int:
            low, high = bounds or (-(1 << 63), (1 << 63) - 1)
            return read_int(key, text, int(low), int(high))
        if self.type is float:
            low, high = bounds or (-1e300, 1e300)
            return read_float(key, text, float(low), float(high))
        value = text.strip()
        if bounds is not None and value.lower() not in bounds:
            raise InvalidLimitError(f"option {key}={shorten(text)!r}; allowed: "
                                    f"{', '.join(map(str, bounds))}")
        return value.lower() if bounds is not None else value

    def format(self, value: Any) -> str:
        """``value`` as written in a spec (what :meth:`parse` reads back)."""
        if self.write is not None:
            return self.write(value)
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, float):
            return repr(value) if not value.is_integer() else str(int(value))
        return str(value)

    def range_text(self) -> str:
        """The range as a person reads it: ``2 to 8``, ``natural|center``, ``0/1``."""
        if self.type is bool:
            return "0/1"
        if self.range is None or isinstance(self.range, str):
            return self.range or "any"
        if self.type is str:
            return "|".join(map(str, self.range))
        return f"{self.range[0]:g} to {self.range[1]:g}" if len(self.range) == 2 else str(
            self.range)

    def values(self) -> list[Any] | None:
        """Every value the option takes when they are few (at most 16): ``choices``, a
        whole-number range, the words of a ``str`` range, ``0/1``; else ``None``."""
        if self.choices is not None:
            return list(self.choices)
        if self.type is bool:
            return [False, True]
        if isinstance(self.range, tuple):
            if self.type is str:
                return list(self.range)
            if self.type is int and len(self.range) == 2 and self.read is None \
                    and self.range[1] - self.range[0] < 16:
                return list(range(int(self.range[0]), int(self.range[1]) + 1))
        return None

    def describe(self) -> dict[str, Any]:
        """What ``gamesearch list --json`` and ``/api/games`` show of the option
        (``choices``: every value in spec text when they are few, else ``None``)."""
        values = self.values()
        return {"name": self.name, "type": self.type.__name__, "default": self.format(
            self.default), "range": self.range_text(), "help": self.help,
            "choices": None if values is None else [self.format(v) for v in values]}


def read_game_options(game: str, declared: Sequence[GameOption],
                      given: Mapping[str, str]) -> dict[str, Any]:
    """The values of the ``given`` options (key → text) of ``game``, read by the options it
    ``declared``; an unknown key is an error naming the known ones."""
    by_name = {o.name: o for o in declared}
    values: dict[str, Any] = {}
    for key, text in given.items():
        option = by_name.get(key)
        if option is None:
            known = ", ".join(f"{o.name} ({o.range_text()}, default {o.format(o.default)})"
                              for o in declared)
            raise InvalidLimitError(f"game {shorten(game)}: unknown option {shorten(key)!r}; "
                                    + (f"known: {known}" if declared else "it takes none"))
        try:
            values[key] = option.parse(text)
        except InvalidLimitError as exc:
            raise InvalidLimitError(f"game {shorten(game)}: {exc}") from None
    return values


def format_game_spec(name: str, declared: Sequence[GameOption],
                     values: Mapping[str, Any]) -> str:
    """The canonical spec: ``name``, then the options whose value differs from the default,
    in the order declared (``pig:goal=50``; ``pig`` for the defaults)."""
    parts = [f"{o.name}={o.format(values[o.name])}" for o in declared
             if o.name in values and values[o.name] != o.default]
    return f"{name}:{','.join(parts)}" if parts else name
