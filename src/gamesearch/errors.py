"""One exception family for every bad input gamesearch can meet.

Every message names the offending input and says what is allowed, so that an interface
(CLI, web, UCI) can show it to a person as it is. One exception here is not about input:
:class:`SearchTimeout`, the signal that a search ran out of its budget, which the searches
of :mod:`gamesearch.search` and the games' own solvers (Connect Four's compiled one) raise.
"""

from __future__ import annotations

from collections.abc import Iterable


class GameError(Exception):
    """Base class of every error gamesearch raises on bad input."""


class IllegalMoveError(GameError, ValueError):
    """A move that is malformed or not legal in the given position."""

    def __init__(self, move: object, legal: Iterable[str] | None = None, reason: str = "") -> None:
        self.move = move
        self.legal = list(legal) if legal is not None else None
        text = f"illegal move {move!r}"
        if reason:
            text += f": {reason}"
        if self.legal is not None:
            text += "; legal moves: " + (" ".join(self.legal) if self.legal else "(none)")
        super().__init__(text)


class InvalidPositionError(GameError, ValueError):
    """A position string (FEN, move list, board) that cannot be parsed or is impossible."""


class UnknownNameError(GameError, KeyError):
    """An unknown game, algorithm or agent name."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class InvalidLimitError(GameError, ValueError):
    """A search limit or option that makes no sense (negative time, zero depth, ...)."""


class UnsupportedGameError(GameError, TypeError):
    """An algorithm asked to search a game it cannot handle (e.g. minimax on dice)."""


class SearchTimeout(Exception):
    """Raised inside a search when its time or node budget runs out or it is stopped (not
    an input error: the caller catches it and falls back, e.g. on the last completed
    iteration). :mod:`gamesearch.search.control` raises it; so do the games' own solvers."""
