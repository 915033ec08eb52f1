"""The fast Monte Carlo CFR: external and outcome sampling (Lanctot, Waugh, Zinkevich,
Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive Games", NIPS 2009)
compiled with numba over the flat tree of :mod:`gamesearch.search.cfr_fast` -- the same
algorithm as the plain :class:`gamesearch.search.cfr.MCCFRSolver`, the same random
numbers in the same order, the same arithmetic, so that from one seed the two sample the
same histories and reach the same regrets (``tests/test_mccfr_fast.py``).

Why compiled rather than vectorised: a pass samples one path (outcome sampling) or a
narrow subtree (external sampling) whose shape is known only as it is drawn, a few dozen
histories on Leduc -- too little per step for numpy's fixed cost per call, and the plain
recursion spends its time in Python calls per history (``game.result``, the information-
set key, the tables). Here a history is an index: its children are the contiguous range
``first_child[h] .. first_child[h] + children[h]`` (the tree is numbered breadth first),
its information set ``node_set[h]`` (-1: chance's, or a terminal when it has no children),
whose policy slots start at ``set_start``; one call runs every iteration.

The random stream is :class:`gamesearch.search.cfr.SplitMix64` written out again
(:func:`_random`) and the choice :func:`gamesearch.search.cfr.sample_index` (:func:`_sample`).
numba is optional (the ``fast`` extra): without it :func:`available` is False and
:mod:`gamesearch.search.equilibrium` runs the plain solver.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import UnsupportedGameError
from ..game import Game
from .cfr import Policy, check_game, new_seed
from .cfr_fast import FlatTree, average_of, flat_exploitability, flatten, table_of
from .jit import available as jit_available
from .jit import jit

__all__ = ["FastMCCFR", "available"]


_jit = jit


def available() -> bool:
    """True when numba imports, so that :class:`FastMCCFR` runs compiled."""
    return jit_available()


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@_jit
def _random(rng: np.ndarray) -> float:
    """SplitMix64's next double in [0, 1); ``rng[0]``: the state (uint64, wraps)."""
    rng[0] += _GAMMA
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z ^= z >> _S31
    return float(z >> _S11) * 2.0 ** -53


@_jit
def _sample(weights: np.ndarray, u: float) -> int:
    """:func:`gamesearch.search.cfr.sample_index`, the same sums in the same order."""
    total = 0.0
    for w in weights:
        total += w
    target = u * total
    running = 0.0
    last = 0
    for i in range(len(weights)):
        running += weights[i]
        if weights[i] > 0:
            last = i
            if target < running:
                return i
    return last


@_jit
def _regret_matching(regrets: np.ndarray) -> np.ndarray:
    """:meth:`gamesearch.search.cfr.InfoSet.regret_matching` of one set's regrets."""
    n = len(regrets)
    positive = np.empty(n)
    total = 0.0
    for j in range(n):
        positive[j] = regrets[j] if regrets[j] > 0 else 0.0
        total += positive[j]
    if total > 0:
        return positive / total
    return np.full(n, 1.0 / n)


@_jit
def _external(player: int, first_child: np.ndarray, children: np.ndarray,
              node_set: np.ndarray, chance: np.ndarray, returns: np.ndarray,
              set_start: np.ndarray, set_player: np.ndarray, regrets: np.ndarray,
              cumulative: np.ndarray, rng: np.ndarray, counter: np.ndarray,
              values: np.ndarray, sigmas: np.ndarray, stack: np.ndarray,
              walked: np.ndarray) -> float:
    """One pass of :meth:`gamesearch.search.cfr.MCCFRSolver._external` for ``player``
    from the root, its recursion unrolled onto ``stack`` (the histories from the root)
    and ``walked`` (at each, the child being walked; -1: just entered). (numba's cache
    does not keep recursive functions: a reloaded one crashed.) ``values``: each
    history's value once walked; ``sigmas``: per slot, the policy at the set's entry,
    read again when its children are done (the set does not recur below itself)."""
    stack[0], walked[0], top = 0, -1, 1
    while top > 0:
        h, k = stack[top - 1], walked[top - 1]
        n, lo, s = children[h], first_child[h], node_set[h]
        updating = s >= 0 and set_player[s] == player
        if k == -1:  # entering h: count it, then walk its first (or sampled) child
            counter[0] += 1
            if n == 0:
                values[h] = returns[player, h]
                top -= 1
                continue
            if s < 0:
                k = _sample(chance[lo:lo + n], _random(rng))
            else:
                start = set_start[s]
                sigma = _regret_matching(regrets[start:start + n])
                sigmas[start:start + n] = sigma
                if updating:
                    k = 0
                else:
                    for j in range(n):
                        cumulative[start + j] += sigma[j]
                    k = _sample(sigma, _random(rng))
        elif updating and k + 1 < n:  # back from child k: walk the next one
            k += 1
        else:  # back from the last child walked
            if updating:
                start = set_start[s]
                value = 0.0
                for j in range(n):
                    value += sigmas[start + j] * values[lo + j]
                for j in range(n):
                    regrets[start + j] += values[lo + j] - value
                values[h] = value
            else:
                values[h] = values[lo + k]
            top -= 1
            continue
        walked[top - 1] = k
        stack[top], walked[top] = lo + k, -1
        top += 1
    return float(values[0])


@_jit
def _outcome(player: int, epsilon: float, first_child: np.ndarray, children: np.ndarray,
             node_set: np.ndarray, chance: np.ndarray, returns: np.ndarray,
             set_start: np.ndarray, set_player: np.ndarray, regrets: np.ndarray,
             cumulative: np.ndarray, rng: np.ndarray, counter: np.ndarray,
             sigmas: np.ndarray, path: np.ndarray, chosen: np.ndarray,
             reaches: np.ndarray) -> float:
    """One pass of :meth:`gamesearch.search.cfr.MCCFRSolver._outcome` for ``player``:
    down the sampled path (each history in ``path``, its sampled child's index in
    ``chosen``, the opponent's reach and the sample's probability on entering it in
    ``reaches``), then back up with the sampled utility and the tail's probability.
    Returns the sampled utility over the sample's probability."""
    h, depth, others, sample = 0, 0, 1.0, 1.0
    while True:  # down
        counter[0] += 1
        n = children[h]
        if n == 0:
            break
        lo, s = first_child[h], node_set[h]
        path[depth], reaches[depth, 0], reaches[depth, 1] = h, others, sample
        if s < 0:
            i = _sample(chance[lo:lo + n], _random(rng))
        else:
            start = set_start[s]
            sigma = _regret_matching(regrets[start:start + n])
            sigmas[start:start + n] = sigma
            if set_player[s] == player:
                explore = np.empty(n)
                for j in range(n):
                    explore[j] = epsilon / n + (1 - epsilon) * sigma[j]
            else:
                explore = sigma
            i = _sample(explore, _random(rng))
            if set_player[s] != player:
                others = others * sigma[i]
            sample = sample * explore[i]
        chosen[depth] = i
        h = lo + i
        depth += 1
    u, tail = returns[player, h] / sample, 1.0
    for d in range(depth - 1, -1, -1):  # up
        h, i = path[d], chosen[d]
        s = node_set[h]
        if s < 0:
            continue
        n, start = children[h], set_start[s]
        others, sample = reaches[d, 0], reaches[d, 1]
        sigma_i = sigmas[start + i]
        if set_player[s] == player:
            w = u * others
            for j in range(n):
                regrets[start + j] += w * tail * ((1 - sigma_i) if j == i else -sigma_i)
        else:
            for j in range(n):
                cumulative[start + j] += others / sample * sigmas[start + j]
        tail = tail * sigma_i
    return float(u)


@_jit
def _run(iterations: int, outcome: bool, epsilon: float, first_child: np.ndarray,
         children: np.ndarray, node_set: np.ndarray, chance: np.ndarray,
         returns: np.ndarray, set_start: np.ndarray, set_player: np.ndarray,
         regrets: np.ndarray, cumulative: np.ndarray, rng: np.ndarray,
         counter: np.ndarray, depth: int) -> None:
    """``iterations`` iterations, each a pass for player 0 then one for player 1
    (``depth``: the tree's, for the stacks)."""
    values = np.zeros(len(children))
    sigmas = np.zeros(len(regrets))
    stack = np.zeros(depth + 1, dtype=np.int64)
    walked = np.zeros(depth + 1, dtype=np.int64)
    reaches = np.zeros((depth + 1, 2))
    for _ in range(iterations):
        for player in range(2):
            if outcome:
                _outcome(player, epsilon, first_child, children, node_set, chance, returns,
                         set_start, set_player, regrets, cumulative, rng, counter, sigmas,
                         stack, walked, reaches)
            else:
                _external(player, first_child, children, node_set, chance, returns,
                          set_start, set_player, regrets, cumulative, rng, counter, values,
                          sigmas, stack, walked)


class FastMCCFR:
    """External- or outcome-sampling MCCFR on a :class:`FlatTree`, compiled (the
    interface of :class:`gamesearch.search.cfr.MCCFRSolver`, plus the arrays and
    :meth:`exploitability` of :class:`gamesearch.search.cfr_fast.FastCFR`)."""

    def __init__(self, game: Game[Any, Any], sampling: str = "external",
                 seed: int | None = None, epsilon: float = 0.6,
                 tree: FlatTree | None = None) -> None:
        if sampling not in ("external", "outcome"):
            raise UnsupportedGameError(f"mccfr sampling {sampling!r}: expected external "
                                       "or outcome")
        check_game(game)
        self.game = game
        self.sampling = sampling
        self.epsilon = float(epsilon)
        self.tree = t = tree or flatten(game)
        self.iteration = 0
        n = len(t.parent)
        self._children = np.bincount(t.parent[1:], minlength=n).astype(np.int64)
        # breadth-first numbering: parent[1:] never decreases, a node's children follow
        # one another, the first where its number first appears
        self._first_child = (np.searchsorted(t.parent[1:], np.arange(n)) + 1).astype(np.int64)
        self._set_player = t.players.astype(np.int64)
        self.regrets = np.zeros(len(t.slot_set))
        self.cumulative = np.zeros(len(t.slot_set))
        self._rng = np.array([new_seed(seed)], dtype=np.uint64)
        self._counter = np.zeros(1, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """The histories touched so far."""
        return int(self._counter[0])

    def iterate(self, iterations: int = 1) -> None:
        t = self.tree
        _run(iterations, self.sampling == "outcome", self.epsilon, self._first_child,
             self._children, t.node_set, t.chance, t.returns, t.set_start,
             self._set_player, self.regrets, self.cumulative, self._rng, self._counter,
             len(t.levels))
        self.iteration += iterations

    def average_array(self) -> np.ndarray:
        return average_of(self.tree, self.cumulative)

    def average_policy(self) -> Policy:
        return table_of(self.tree, self.average_array())

    def exploitability(self) -> float:
        """The exploitability of the average policy (best responses on the arrays)."""
        return flat_exploitability(self.tree, self.average_array(), self.game)
