"""One exception family for every bad input gamesearch can meet.

Every message names the offending input and says what is allowed, so that an interface
(CLI, web, UCI) can show it to a person as it is. One exception here is not about input:
:class:`SearchTimeout`, the signal that a search ran out of its budget, which the searches
of :mod:`gamesearch.search` and the games' own solvers (Connect Four's compiled one) raise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Input quoted in a message is cut to this many characters (then "…").
ECHO_CHARS = 80


def echo(text: object, limit: int = ECHO_CHARS) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters: a message never quotes a whole
    100,000-character input back."""
    if not isinstance(text, str):
        text = repr(text)
        if len(text) <= limit:
            return text
        return text[:limit] + f"… ({len(text)} characters)"
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"… ({len(text)} characters)"


#: The longest message an interface prints for one error.
MAX_MESSAGE_CHARS = 1000
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def one_line(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` as one line of at most ``limit`` characters: white space (new lines too)
    folded, each quoted input longer than :data:`ECHO_CHARS` cut, then the whole cut.
    The safety net of every interface, for messages that quote input without :func:`echo`."""
    text = " ".join(message.split())

    def cut(m: re.Match[str]) -> str:
        q = m.group(0)
        return q if len(q) <= ECHO_CHARS + 2 else q[:ECHO_CHARS + 1] + "…" + q[0]

    text = _QUOTED.sub(cut, text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class GameError(Exception):
    """Base class of every error gamesearch raises on bad input. Its text is one line of at
    most :data:`MAX_MESSAGE_CHARS` characters, whatever input it quotes (:func:`one_line`)."""

    def __str__(self) -> str:
        return one_line(super().__str__())


class IllegalMoveError(GameError, ValueError):
    """A move that is malformed or not legal in the given position."""

    def __init__(self, move: object, legal: Iterable[str] | None = None, reason: str = "") -> None:
        self.move = move
        self.legal = list(legal) if legal is not None else None
        text = f"illegal move {echo(move)}"
        if reason:
            text += f": {reason}"
        if self.legal is not None:
            # moves that hold spaces (backgammon's "8/5 6/5") are listed with commas
            sep = ", " if any(" " in m for m in self.legal) else " "
            text += "; legal moves: " + (sep.join(self.legal) if self.legal else "(none)")
        super().__init__(text)


class InvalidPositionError(GameError, ValueError):
    """A position string (FEN, move list, board) that cannot be parsed or is impossible."""


class UnknownNameError(GameError, KeyError):
    """An unknown game, algorithm or agent name."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown {kind} {echo(name)}; known: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return one_line(str(self.args[0]))


class InvalidLimitError(GameError, ValueError):
    """A search limit or option that makes no sense (negative time, zero depth, ...)."""


class UnsupportedGameError(GameError, TypeError):
    """An algorithm asked to search a game it cannot handle (e.g. minimax on dice)."""


class SearchTimeout(Exception):
    """Raised inside a search when its time or node budget runs out or it is stopped (not
    an input error: the caller catches it and falls back, e.g. on the last completed
    iteration). :mod:`gamesearch.search.control` raises it; so do the games' own solvers."""

    #: the nodes spent before the stop, where the raiser counts them (bridge's double-dummy
    #: solver, for PIMC's count)
    nodes: int = 0
