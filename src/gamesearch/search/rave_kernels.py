"""RAVE's compact tree: the compiled selection and all-moves-as-first back-up of
:mod:`.mcts` over per-node arrays.

Under ``rave=1`` with numba installed, each opened node of :class:`.mcts.MCTS` keeps its
children's statistics side by side in one ``float64`` array ``stats`` of four rows indexed
by the child: each child's visits and mean (copied there by the back-up), its AMAF visits
and returns (the node's ``amaf_n`` and ``amaf_w`` are views of those rows), and ``slot``,
an ``int32`` array from an action's *code* to its child index (-1: not an action of the
node). (One array rather than four: numba's dispatcher costs about half a microsecond
an array argument, and these are called several times an iteration.) An action's code is the action
itself when the game says its actions are the integers below ``Playouts.action_codes``
(Go's points and pass), else a number the search hands out in the order it meets them.

* :func:`rave_pick` is :func:`.mcts.rave_index` (Gelly & Silver 2007's ``(1 - β) Q + β
  Q_amaf`` plus the exploration term) computed over those arrays in one call, the same
  operations in the same order, so that it picks the same child, ties included;
* :func:`amaf_add` is one node's part of :func:`.mcts.amaf_update`: given the iteration's
  moves as two arrays (players and codes: the tree's moves from the root, then the
  playout's), it counts each action of the node played later by the node's player, once.

The plain Python tree (lists, :func:`.mcts.rave_index`, :func:`.mcts.amaf_update`) stays
the reference: ``tests/test_mcts_compact.py`` checks the two trees give the same root
visits seed for seed, and these kernels against the plain functions on random nodes.
Why: the profile of the program on 9x9 Go (``benchmarks/go_playouts.py --profile``) put
about half of an iteration in the Python loops of the selection over ~80 children and of
the AMAF back-up's set insertions; numpy's fixed cost per call made a vectorised selection
slower than the loop, a compiled one is not (docs/results/go.md has the figures).
"""

from __future__ import annotations

import importlib
from math import log, sqrt
from typing import Any

from .jit import available as jit_available
from .jit import jit

__all__ = ["amaf_add", "available", "np", "open_arrays", "rave_pick", "slot_table"]


def _load_numpy() -> Any:
    """numpy, or None when it is not installed."""
    try:
        return importlib.import_module("numpy")
    except ImportError:  # pragma: no cover - depends on the environment
        return None


np = _load_numpy()
_jit = jit


def available() -> bool:
    """True when the compact tree can run (numba and numpy import)."""
    return jit_available() and np is not None


@_jit
def rave_pick(stats: Any, parent_n: float, c_span: float, k: float, fpu: float) -> int:
    """The child index maximising ``(1 - β) Q + β Q_amaf + c·span·sqrt(ln(N + 1) / (n +
    1))``, ``β = sqrt(k / (3 n + k))`` (``N = parent_n``; ``stats``' rows: the children's
    visits, means, AMAF visits and AMAF returns); an unvisited child is worth its AMAF
    value (``fpu`` when never played) plus ``c·span·sqrt(ln(N + 1))``; the first best on
    ties (:func:`.mcts.rave_index`, operation for operation)."""
    log_n = log(parent_n + 1.0)
    first = c_span * sqrt(log_n)
    best = -np.inf
    pick = 0
    for i in range(stats.shape[1]):
        n = stats[0, i]
        a_n = stats[2, i]
        if n == 0.0:
            score = (stats[3, i] / a_n if a_n != 0.0 else fpu) + first
        else:
            q = stats[1, i]
            if a_n != 0.0:
                q += sqrt(k / (3.0 * n + k)) * (stats[3, i] / a_n - q)
            score = q + c_span * sqrt(log_n / (n + 1.0))
        if score > best:
            best = score
            pick = i
    return pick


@_jit
def amaf_add(stats: Any, slot: Any, player: int, x: float, tree_players: Any,
             tree_codes: Any, start: int, players: Any, codes: Any) -> None:
    """All moves as first for one node: for each action of the node (``slot[code]`` its
    index) that ``player`` played in the tree from move ``start`` on (``tree_players``,
    ``tree_codes``; code -1: no action) or in the playout (``players``, ``codes``), add
    one AMAF visit and the return ``x`` (``stats``' rows 2 and 3), once per action."""
    width = slot.shape[0]
    counted = np.zeros(stats.shape[1], dtype=np.bool_)
    for part in range(2):
        who, what = (tree_players, tree_codes) if part == 0 else (players, codes)
        for m in range(start if part == 0 else 0, what.shape[0]):
            if who[m] != player:
                continue
            c = what[m]
            if c < 0 or c >= width:
                continue
            i = slot[c]
            if i >= 0 and not counted[i]:
                counted[i] = True
                stats[2, i] += 1.0
                stats[3, i] += x


def slot_table(codes: list[int], width: int) -> Any:
    """``slot[code] = index`` of each of ``codes`` (the node's actions), -1 elsewhere;
    ``width`` at least every code + 1."""
    slot = np.full(width, -1, dtype=np.int32)
    slot[codes] = np.arange(len(codes), dtype=np.int32)
    return slot


@_jit
def open_arrays(codes: Any, width: int, priors: Any, prior_visits: float, top: float
                ) -> tuple[Any, Any]:
    """A node's arrays when it is opened: ``(slot, stats)`` for actions of ``codes``
    (:func:`slot_table`), no child visited, and the AMAF statistics empty, or
    (when ``priors`` has one per action) ``prior_visits`` virtual visits each worth
    ``top · (2 h - 1)``, ``h = ρ / (ρ + 1)``, ``ρ`` the prior over the uniform one
    (:meth:`.mcts.MCTS._rave_stats`, operation for operation)."""
    count = codes.shape[0]
    slot = np.full(width, -1, dtype=np.int32)
    for i in range(count):
        slot[codes[i]] = i
    stats = np.zeros((4, count))
    if priors.shape[0] == count and count > 0:
        scale = prior_visits * top
        for i in range(count):
            ratio = priors[i] * count
            stats[2, i] = prior_visits
            stats[3, i] = scale * (2 * ratio / (ratio + 1) - 1)
    return slot, stats
