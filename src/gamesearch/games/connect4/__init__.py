"""Connect Four: the rules, a compiled exact solver and an opening book, in one package.

* :mod:`.rules` -- the game (:class:`ConnectFour`) on Pascal Pons's bitboards: the textbook's
  functions, the notation, the capabilities (evaluation, ordering, safe moves, scores) and
  the Connect Four knowledge a Pons-style solver uses. Everything it defines is importable
  from this package.
* :mod:`.compiled` -- the same exact solver as :mod:`gamesearch.search.solve` in its solver
  configuration, compiled with numba (the ``fast`` extra): identical scores, moves and node
  counts, about a hundred times faster. The game offers it through ``fast_solver()``.
* :mod:`.book` -- the opening book (solved positions near the start) and its builder; the
  game offers them through ``opening_book()`` and ``book_builder()``.
* ``data/book.bin`` -- the book shipped with the package (package data).

Nothing outside :mod:`gamesearch.games` needs these modules by name: the command line, the
agents and the arena reach the solver and the book through the game's capabilities
(:mod:`gamesearch.capabilities`). The compiled solver and the book are imported only when asked for
(numba takes a while to load).
"""

from __future__ import annotations

from .rules import (
    BOARD,
    BOTTOM,
    BOTTOM_ALL,
    CENTER_ORDER,
    CENTER_RANK,
    COLUMN_MASK,
    H1,
    HEIGHT,
    NUM_CELLS,
    ORDERS,
    TOP,
    TOP_ALL,
    WEIGHT,
    WIDTH,
    WIN,
    WINDOWS,
    C4State,
    ConnectFour,
    columns_of,
    has_four,
    mirror_bits,
    possible,
    winning_cells,
)

__all__ = [
    "BOARD",
    "BOTTOM",
    "BOTTOM_ALL",
    "CENTER_ORDER",
    "CENTER_RANK",
    "COLUMN_MASK",
    "H1",
    "HEIGHT",
    "NUM_CELLS",
    "ORDERS",
    "TOP",
    "TOP_ALL",
    "WEIGHT",
    "WIDTH",
    "WIN",
    "WINDOWS",
    "C4State",
    "ConnectFour",
    "columns_of",
    "has_four",
    "mirror_bits",
    "possible",
    "winning_cells",
]
