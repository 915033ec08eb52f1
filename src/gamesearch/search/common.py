"""What every search algorithm shares: limits, the clock, results, and score conventions.

Score conventions, written down once:

* A value is from the point of view of the player to move at the root (for the two-player
  algorithms) or a vector with one entry per player (max^n).
* A terminal win or loss of full size (``|utility| >= game.max_utility``) reached ``d`` plies
  below the root is worth ``utility -/+ d * step`` with ``step = max_utility / 1000``: a faster
  win ranks above a slower one, a slower loss above a faster one. Draws and smaller outcomes
  are not discounted. ``discount=False`` turns this off (the textbook's plain ±1 values).
* Ties between equally valued actions go to the first in the game's action order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..game import DISCOUNT_FRACTION, MAX_PLY

INF = math.inf


@dataclass
class SearchResult:
    """Everything a search (or an exact solve) did.

    * ``value``: for the two-player algorithms, from the point of view of the player to
      move at the root, on the game's utility scale (``-max_utility .. max_utility``; wins
      discounted by distance as the module docstring says); for max^n a vector with one
      entry per player; for an exact solve (``algorithm == "solve"``) the game's own score
      convention (:meth:`gamesearch.game.Game.exact_score`: Connect Four in Pons's scores,
      Othello in final disc difference).
    * ``action`` and ``pv``: raw actions of the game (what ``game.result`` takes);
      ``move`` and ``pv_moves``: the same in the game's notation (filled by
      :meth:`annotate`, which the driver calls), e.g. Connect Four's ``"4"`` for action 3.
    * ``best_actions``: every action known to reach ``value`` (a solve lists them all; a
      search the one it chose).
    """

    algorithm: str
    value: Any
    action: Any
    pv: list[Any]
    depth: int
    nodes: int
    seconds: float
    nodes_per_depth: list[int] = field(default_factory=list)
    tt_hits: int = 0
    cutoffs: int = 0
    completed: bool = True
    seldepth: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    best_actions: list[Any] = field(default_factory=list)
    move: str | None = None
    pv_moves: list[str] = field(default_factory=list)
    best_moves: list[str] = field(default_factory=list)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def annotate(self, game: Any, state: Any) -> SearchResult:
        """Fill ``move``, ``pv_moves`` and ``best_moves`` in ``game``'s notation, ``state``
        being the root, and make ``pv`` legal: a PV that runs into an illegal move (a
        stale table entry) or goes on after the game has ended is cut there, in ``pv``
        and ``pv_moves`` alike, so that every front end formats the same legal line.
        (The engines' contract makes the cut a safety net: their PVs are legal,
        ``tests/test_pv_contract.py``.)"""
        if self.action is not None:
            self.move = game.format_action(state, self.action)
        words: list[str] = []
        s = state
        for a in self.pv:
            try:
                if game.is_terminal(s) or a not in game.actions(s):
                    break
                words.append(game.format_action(s, a))
                s = game.result(s, a)
            except Exception:  # a game whose notation cannot follow this line
                break
        self.pv_moves = words
        self.pv = self.pv[:len(words)]  # (a copy: the caller may share the list)
        if not self.best_actions and self.action is not None:
            self.best_actions = [self.action]
        self.best_moves = [game.format_action(state, a) for a in self.best_actions]
        return self

    def as_dict(self, format_action: Callable[[Any], str] | None = None) -> dict[str, Any]:
        """Plain data (the ``--json`` schema of docs/json.md): moves in the game's notation
        as :meth:`annotate` filled them, or through ``format_action`` when given."""
        value = self.value
        if isinstance(value, tuple | list):
            value = [float(v) for v in value]
        if format_action is None:  # the notation annotate() filled in
            move, moves, pv = self.move, self.best_moves, self.pv_moves
        else:
            move = None if self.action is None else format_action(self.action)
            moves = [format_action(a) for a in self.best_actions or [self.action]
                     if a is not None]
            pv = [format_action(a) for a in self.pv]
        return {
            "algorithm": self.algorithm,
            "value": value,
            "move": move,
            "moves": moves,
            "pv": pv,
            "depth": self.depth,
            "nodes": self.nodes,
            "nodes_per_depth": self.nodes_per_depth,
            "tt_hits": self.tt_hits,
            "cutoffs": self.cutoffs,
            "seconds": round(self.seconds, 6),
            "nps": round(self.nps),
            "completed": self.completed,
            **self.extra,
        }


@dataclass
class Iteration:
    """What one depth-limited search returns to the driver."""

    value: Any
    action: Any
    pv: list[Any]
    #: False when the search never cut off at the depth limit (the whole tree was seen).
    hit_horizon: bool = True
    #: Algorithm-specific figures passed on to ``SearchResult.extra`` (e.g. root values).
    extra: dict[str, Any] = field(default_factory=dict)
    #: How much better than every other root move the best one was proven (the other
    #: moves' upper bounds), when the algorithm knows (``None``: unknown); read by the
    #: time rule (:class:`~gamesearch.search.control.TimeRule`).
    margin: float | None = None


Callback = Callable[[SearchResult], None]


def win_step(max_utility: float) -> float:
    """How much a full-size win loses per ply of distance (see the module docstring)."""
    return max_utility / DISCOUNT_FRACTION


def discounted(u: float, ply: int, max_utility: float, step: float) -> float:
    """A terminal utility ``u`` reached ``ply`` plies below the root, with a full-size win
    or loss discounted by its distance (the convention above). The hot loops of minimax,
    alpha-beta and the engine write this test inline: a call per leaf costs them ~5 %."""
    if u >= max_utility:
        return u - ply * step
    if u <= -max_utility:
        return u + ply * step
    return u


def win_threshold(max_utility: float) -> float:
    """Values beyond this are discounted wins; heuristic values never reach it."""
    return max_utility - MAX_PLY * win_step(max_utility)
