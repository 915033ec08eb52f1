"""RAVE's compact tree: the compiled selection and all-moves-as-first back-up of
:mod:`.mcts` over per-node arrays.

Under ``rave=1`` with numba installed, each opened node of :class:`.mcts.MCTS` keeps its
children's statistics side by side in ``float64`` arrays indexed by the child: ``cn`` and
``cq`` (each child's visits and mean, copied there by the back-up), ``amaf_n`` and
``amaf_w`` (the AMAF visits and returns), and ``slot``, an ``int32`` array from an action's
*code* to its child index (-1: not an action of the node). An action's code is the action
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
slower than the loop, a compiled one is not (the README's Go section has the figures).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from math import log, sqrt
from typing import Any, TypeVar, cast

__all__ = ["amaf_add", "available", "np", "open_arrays", "rave_pick", "slot_table"]


def _load() -> tuple[Any, Any]:
    """(numpy, numba.njit), or (numpy or None, None) when numba is not installed."""
    try:
        numpy = importlib.import_module("numpy")
    except ImportError:  # pragma: no cover - depends on the environment
        return None, None
    try:
        numba = importlib.import_module("numba")
    except ImportError:  # pragma: no cover - depends on the environment
        return numpy, None
    return numpy, numba.njit


np, _njit = _load()
F = TypeVar("F", bound=Callable[..., Any])


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)`` (no fast-math: the same floating point as Python's)."""
    if _njit is None:  # pragma: no cover - depends on the environment
        return fn
    return cast(F, _njit(cache=True)(fn))


def available() -> bool:
    """True when the compact tree can run (numba and numpy import)."""
    return _njit is not None and np is not None


@_jit
def rave_pick(cn: Any, cq: Any, amaf_n: Any, amaf_w: Any, parent_n: float, c_span: float,
              k: float, fpu: float) -> int:
    """The child index maximising ``(1 - β) Q + β Q_amaf + c·span·sqrt(ln(N + 1) / (n +
    1))``, ``β = sqrt(k / (3 n + k))`` (``N = parent_n``); an unvisited child (``cn[i] ==
    0``) is worth its AMAF value (``fpu`` when never played) plus ``c·span·sqrt(ln(N +
    1))``; the first best on ties (:func:`.mcts.rave_index`, operation for operation)."""
    log_n = log(parent_n + 1.0)
    first = c_span * sqrt(log_n)
    best = -np.inf
    pick = 0
    for i in range(cn.shape[0]):
        n = cn[i]
        a_n = amaf_n[i]
        if n == 0.0:
            score = (amaf_w[i] / a_n if a_n != 0.0 else fpu) + first
        else:
            q = cq[i]
            if a_n != 0.0:
                q += sqrt(k / (3.0 * n + k)) * (amaf_w[i] / a_n - q)
            score = q + c_span * sqrt(log_n / (n + 1.0))
        if score > best:
            best = score
            pick = i
    return pick


@_jit
def amaf_add(amaf_n: Any, amaf_w: Any, slot: Any, player: int, x: float, players: Any,
             codes: Any, start: int) -> None:
    """All moves as first for one node: for each action of the node (``slot[code]`` its
    index) that ``player`` played at or after move ``start`` of the iteration (``players``
    and ``codes``, the tree's moves then the playout's; code -1: no action), add one visit
    and the return ``x``, once per action."""
    width = slot.shape[0]
    counted = np.zeros(amaf_n.shape[0], dtype=np.bool_)
    for m in range(start, codes.shape[0]):
        if players[m] != player:
            continue
        c = codes[m]
        if c < 0 or c >= width:
            continue
        i = slot[c]
        if i >= 0 and not counted[i]:
            counted[i] = True
            amaf_n[i] += 1.0
            amaf_w[i] += x


def slot_table(codes: list[int], width: int) -> Any:
    """``slot[code] = index`` of each of ``codes`` (the node's actions), -1 elsewhere;
    ``width`` at least every code + 1."""
    slot = np.full(width, -1, dtype=np.int32)
    slot[codes] = np.arange(len(codes), dtype=np.int32)
    return slot


@_jit
def open_arrays(codes: Any, width: int, priors: Any, prior_visits: float, top: float
                ) -> tuple[Any, Any, Any, Any, Any]:
    """A node's arrays when it is opened: ``(slot, cn, cq, amaf_n, amaf_w)`` for actions
    of ``codes`` (:func:`slot_table`), no child visited, and the AMAF statistics empty, or
    (when ``priors`` has one per action) ``prior_visits`` virtual visits each worth
    ``top · (2 h - 1)``, ``h = ρ / (ρ + 1)``, ``ρ`` the prior over the uniform one
    (:meth:`.mcts.MCTS._rave_stats`, operation for operation)."""
    count = codes.shape[0]
    slot = np.full(width, -1, dtype=np.int32)
    for i in range(count):
        slot[codes[i]] = i
    amaf_n = np.zeros(count)
    amaf_w = np.zeros(count)
    if priors.shape[0] == count and count > 0:
        scale = prior_visits * top
        for i in range(count):
            ratio = priors[i] * count
            amaf_n[i] = prior_visits
            amaf_w[i] = scale * (2 * ratio / (ratio + 1) - 1)
    return slot, np.zeros(count), np.zeros(count), amaf_n, amaf_w
