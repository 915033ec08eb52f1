"""Retrograde analysis: the values of every position of a game's endgame, from the end
backwards, slice by slice in dependency order.

Follows the textbook method (Thompson 1986; Lake, Schaeffer and Lu 1994, "Solving large
retrograde analysis problems using a network of workstations", for Chinook's checkers
databases): the positions are split into *slices* (checkers: by material and the most
advanced man); a move either stays in its slice or leads into a slice already solved
(a capture, a crowning, an advance), so the slices are solved in an order where each one's
dependencies come first (:func:`dependency_order`), and slices that do not depend on each
other can be solved at the same time (:func:`ready_slices`; the arena's table scheduler
runs them on a process pool or on Ray).

Values (the *code* of a position, for the side to move): ``0`` a draw, otherwise
``plies + 1`` where ``plies`` is the distance to the end of the game under best play (the
winner hurries, the loser delays): odd plies a win, even plies a loss (0 plies: no move, lost).

:func:`solve_plain` is the plain reference: a readable level-by-level *forward* fixpoint
(level ``L`` decides the wins in ``L`` plies from the losses in ``L - 1``, and the losses in
``L`` from positions whose every successor is a win in at most ``L - 1``). The compiled
kernels of a game use the faster counting method with backward moves; the tests compare
them position for position. Departure from the papers: no bit-packed work arrays here (the
plain version keeps dictionaries) and distances count plies, not moves.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)
K = TypeVar("K", bound=Hashable)

DRAW = 0


def is_win(code: int) -> bool:
    """True when ``code`` is a win for the side to move."""
    return code != DRAW and (code - 1) % 2 == 1


def is_loss(code: int) -> bool:
    return code != DRAW and (code - 1) % 2 == 0


def plies(code: int) -> int | None:
    """Plies to the end of the game, ``None`` for a draw."""
    return None if code == DRAW else code - 1


def solve_plain(positions: Iterable[P], successors: Callable[[P], Sequence[P]],
                known: Callable[[P], int | None]) -> dict[P, int]:
    """The codes of ``positions`` (a slice: closed under its quiet moves), by levels.

    ``successors(p)`` lists p's legal successors; ``known(q)`` is q's code when q lies
    outside the slice (already solved), ``None`` when q is inside it."""
    succ = {p: list(successors(p)) for p in positions}
    values: dict[P, int] = {}
    top = 0
    for qs in succ.values():
        top = max([top, *(c for c in map(known, qs) if c is not None)])
    pending = set(succ)
    level = 0
    quiet = 0  # consecutive levels that decided nothing
    while pending and (quiet < 2 or level <= top):
        decided = {}
        for p in pending:
            codes: list[int | None] = [values.get(q) if known(q) is None else known(q)
                                       for q in succ[p]]
            if level % 2 == 1:
                if any(c == level for c in codes):  # a successor lost in level - 1 plies
                    decided[p] = level + 1
            elif all(c is not None and is_win(c) for c in codes) and max(
                    [c for c in codes if c is not None], default=0) == level:
                decided[p] = level + 1  # (the slowest successor won in level - 1 plies)
        values.update(decided)
        pending -= decided.keys()
        quiet = 0 if decided else quiet + 1
        level += 1
    values.update(dict.fromkeys(pending, DRAW))
    return values


def dependency_order(slices: Iterable[K], depends: Mapping[K, Iterable[K]]) -> list[K]:
    """The slices in an order where each comes after all it depends on (Kahn's algorithm,
    ties in the given order); raises ``ValueError`` on a cycle."""
    order: list[K] = []
    todo = list(slices)
    done: set[K] = set()
    while todo:
        ready = [s for s in todo if all(d in done for d in depends.get(s, ()))]
        if not ready:
            raise ValueError(f"the slices depend on each other in a cycle: {todo[:5]}")
        order.extend(ready)
        done.update(ready)
        todo = [s for s in todo if s not in done]
    return order


def ready_slices(todo: Iterable[K], done: set[K], running: set[K],
                 depends: Mapping[K, Iterable[K]]) -> list[K]:
    """The slices of ``todo`` not yet started whose dependencies are all done."""
    return [s for s in todo if s not in done and s not in running
            and all(d in done for d in depends.get(s, ()))]
