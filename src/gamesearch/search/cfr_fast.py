"""The fast CFR: the game tree flattened once into numpy arrays, then every iteration a
handful of array operations per depth -- the same algorithm and schedule as the plain
:class:`gamesearch.search.cfr.CFRSolver` (tested equal to it, and through it to
OpenSpiel's ``CFRSolver``/``CFRPlusSolver``), without a Python call per history.

The flat tree (:class:`FlatTree`): the histories numbered breadth first, so the nodes of
one depth are a contiguous range and node ``i > 0`` has one edge in, from ``parent[i]``.
An edge is chance's (its probability ``chance[i]``) or a player's, whose probability is
the current policy at ``slot[i]`` -- one slot per (information set, action), the sets'
slots contiguous. One pass for ``player`` goes:

1. edge probabilities: the policy gathered per edge (chance's fixed);
2. top down, depth by depth: the reach of ``player``, of the opponent and of chance at
   every node, kept apart;
3. bottom up: each node's value to ``player`` (a terminal's return, else the sum of its
   children's values weighted by their edges: ``np.bincount`` by parent);
4. regrets ``opponent(parent) * chance(parent) * (value(child) - value(parent))`` and the
   cumulative policy ``weight * own(parent) * policy`` added per slot over ``player``'s
   edges (``np.add.at``, in OpenSpiel's order: see :meth:`FastCFR._pass`).

Best response (:meth:`FastCFR.exploitability`) runs on the same arrays when every
information set's histories lie at one depth (true of the games here); else it falls
back to the plain :func:`gamesearch.search.cfr.exploitability`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedGameError
from ..game import CHANCE, Game
from .cfr import VARIANTS, Policy, average_weight, check_game
from .cfr import exploitability as plain_exploitability


@dataclass
class FlatTree:
    """The game tree as arrays (see the module's docstring)."""

    parent: np.ndarray        # int64 [N]: parent node (-1 at the root)
    chance: np.ndarray        # float [N]: the edge's chance probability (1: a player's)
    slot: np.ndarray          # int64 [N]: the edge's policy slot (-1: chance's / root)
    owner: np.ndarray         # int64 [N]: who chose the edge in (0, 1; 2: chance/root)
    returns: np.ndarray       # float [2, N]: each player's return (0 off the terminals)
    levels: list[tuple[int, int]]   # the node range of each depth
    keys: list[Hashable]      # the information sets
    players: np.ndarray       # int64 [I]: each set's player
    actions: list[list[Any]]  # each set's actions
    slot_set: np.ndarray      # int64 [S]: each slot's information set
    set_start: np.ndarray     # int64 [I]: each set's first slot
    set_depth: np.ndarray     # int64 [I]: the depth of the set's histories (-1: several)
    node_set: np.ndarray      # int64 [N]: the set of the node's mover (-1: none)


def flatten(game: Game[Any, Any]) -> FlatTree:
    """Walk the tree once, breadth first."""
    observe = check_game(game)
    parent, chance, slot, owner, ret0, ret1, node_set = [-1], [1.0], [-1], [2], [], [], []
    levels: list[tuple[int, int]] = []
    index: dict[Hashable, int] = {}
    keys: list[Hashable] = []
    players: list[int] = []
    actions: list[list[Any]] = []
    starts: list[int] = []
    depths: list[int] = []
    frontier = [game.initial_state()]
    first, depth, total = 0, 0, 0
    while frontier:
        levels.append((first, first + len(frontier)))
        nxt = []
        for k, state in enumerate(frontier):
            node = first + k
            if game.is_terminal(state):
                r = game.returns(state)
                ret0.append(float(r[0]))
                ret1.append(float(r[1]))
                node_set.append(-1)
                continue
            ret0.append(0.0)
            ret1.append(0.0)
            mover = game.to_move(state)
            if mover == CHANCE:
                node_set.append(-1)
                for a, p in game.chance_outcomes(state):
                    _edge(parent, chance, slot, owner, node, p, -1, 2)
                    nxt.append(game.result(state, a))
                continue
            moves = list(game.actions(state))
            key = observe(state, mover)
            s = index.get(key)
            if s is None:
                s = index[key] = len(keys)
                keys.append(key)
                players.append(mover)
                actions.append(moves)
                starts.append(total)
                depths.append(depth)
                total += len(moves)
            elif actions[s] != moves:
                raise UnsupportedGameError(f"equilibrium: {game.name}'s information set "
                                           f"{str(key)[:60]!r} has different actions in "
                                           "two of its states")
            elif depths[s] != depth:
                depths[s] = -1
            node_set.append(s)
            for j, a in enumerate(moves):
                _edge(parent, chance, slot, owner, node, 1.0, starts[s] + j, mover)
                nxt.append(game.result(state, a))
        first += len(frontier)
        frontier = nxt
        depth += 1
    slot_set = np.repeat(np.arange(len(keys)), [len(m) for m in actions])
    return FlatTree(np.array(parent), np.array(chance), np.array(slot), np.array(owner),
                    np.array([ret0, ret1]), levels, keys, np.array(players, dtype=np.int64),
                    actions, slot_set.astype(np.int64), np.array(starts, dtype=np.int64),
                    np.array(depths, dtype=np.int64), np.array(node_set, dtype=np.int64))


def _edge(parent: list[int], chance: list[float], slot: list[int], owner: list[int],
          node: int, probability: float, policy_slot: int, mover: int) -> None:
    parent.append(node)
    chance.append(probability)
    slot.append(policy_slot)
    owner.append(mover)


class FastCFR:
    """CFR / CFR+ / DCFR on a :class:`FlatTree` (the interface of
    :class:`gamesearch.search.cfr.CFRSolver`)."""

    def __init__(self, game: Game[Any, Any], variant: str = "cfr", alpha: float = 1.5,
                 beta: float = 0.0, gamma: float = 2.0, tree: FlatTree | None = None) -> None:
        if variant not in VARIANTS:
            raise UnsupportedGameError(f"cfr variant {variant!r}: expected one of "
                                       f"{', '.join(VARIANTS)}")
        self.game = game
        self.variant = variant
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.tree = t = tree or flatten(game)
        self.iteration = 0
        size = len(t.slot_set)
        self.regrets = np.zeros(size)
        self.cumulative = np.zeros(size)
        counts = np.bincount(t.slot_set, minlength=len(t.keys))
        self.uniform = 1.0 / counts[t.slot_set]
        self.policy = self.uniform.copy()
        # per player: the nodes whose edge in is that player's, their slots and parents
        self.edges = []
        for p in (0, 1):
            nodes = np.nonzero(t.owner == p)[0]
            self.edges.append((nodes, t.slot[nodes], t.parent[nodes]))
        self.slot_player = t.players[t.slot_set]
        self._decision_edges = np.nonzero(t.owner != 2)[0]
        self._decision_slots = t.slot[self._decision_edges]

    def edge_probabilities(self, policy: np.ndarray) -> np.ndarray:
        prob = self.tree.chance.copy()
        prob[self._decision_edges] = policy[self._decision_slots]
        return prob

    def iterate(self, iterations: int = 1) -> None:
        # The schedule of cfr.CFRSolver.iterate, line for line (the plain reference stays
        # readable on its own; tests/test_cfr.py holds the two equal to the last bit).
        for _ in range(iterations):
            self.iteration += 1
            t = self.iteration
            weight = average_weight(self.variant, t, self.gamma)
            for player in (0, 1):
                self._pass(player, weight)
                if self.variant == "cfr+":
                    np.maximum(self.regrets, 0.0, out=self.regrets)
                elif self.variant == "dcfr":
                    up = t ** self.alpha / (t ** self.alpha + 1)
                    down = t ** self.beta / (t ** self.beta + 1)
                    mine = self.slot_player == player
                    self.regrets *= np.where(mine, np.where(self.regrets >= 0, up, down), 1.0)
                self._regret_matching()

    def _regret_matching(self) -> None:
        positive = np.maximum(self.regrets, 0.0)
        sets = self.tree.slot_set
        total = np.bincount(sets, weights=positive, minlength=len(self.tree.keys))[sets]
        safe = np.where(total > 0, total, 1.0)
        self.policy = np.where(total > 0, positive / safe, self.uniform)

    def _pass(self, player: int, weight: float) -> None:
        """One CFR pass updating ``player`` (the hot loop: steps 1-4 of the module's
        docstring). The arithmetic is OpenSpiel's, operation for operation, so that the
        rounding is too (CFR's dynamics amplify a difference in the last bit about 30-fold
        every 100 iterations on Leduc): the reach of the player, of the opponent and of
        chance kept apart, the counterfactual reach their product ``opponent * chance``,
        each node's value summed over its children in action order from 0, and each
        history's regret and policy added to the running totals in the order of a depth-
        first walk (``np.add.at``; breadth-first order within one depth is that order)."""
        tree = self.tree
        parent, levels, owner = tree.parent, tree.levels, tree.owner
        prob = self.edge_probabilities(self.policy)
        own_edge = np.where(owner == player, prob, 1.0)
        opp_edge = np.where(owner == 1 - player, prob, 1.0)
        chance_edge = np.where(owner == 2, prob, 1.0)
        n = len(parent)
        own, opp, chance = np.ones(n), np.ones(n), np.ones(n)
        for lo, hi in levels[1:]:
            p = parent[lo:hi]
            own[lo:hi] = own[p] * own_edge[lo:hi]
            opp[lo:hi] = opp[p] * opp_edge[lo:hi]
            chance[lo:hi] = chance[p] * chance_edge[lo:hi]
        value = tree.returns[player].copy()
        for (plo, phi), (lo, hi) in zip(levels[-2::-1], levels[:0:-1], strict=True):
            value[plo:phi] += np.bincount(parent[lo:hi] - plo,
                                          weights=prob[lo:hi] * value[lo:hi],
                                          minlength=phi - plo)
        nodes, slots, parents = self.edges[player]
        np.add.at(self.regrets, slots,
                  (opp[parents] * chance[parents]) * (value[nodes] - value[parents]))
        np.add.at(self.cumulative, slots, (weight * own[parents]) * prob[nodes])

    # ----- policies ---------------------------------------------------------------------
    def average_array(self) -> np.ndarray:
        return average_of(self.tree, self.cumulative)

    def average_policy(self) -> Policy:
        return table_of(self.tree, self.average_array())

    def current_policy(self) -> Policy:
        return table_of(self.tree, self.policy)

    def exploitability(self, policy: np.ndarray | None = None) -> float:
        """The exploitability of the average policy (or of ``policy``, an array over the
        slots) by best responses on the arrays."""
        p = self.average_array() if policy is None else policy
        return flat_exploitability(self.tree, p, self.game)

    def value(self, policy: np.ndarray | None = None) -> float:
        """Player 0's expected return when both play the average policy (or ``policy``)."""
        p = self.average_array() if policy is None else policy
        return float(flat_values(self.tree, self.edge_probabilities(p))[0][0])


def average_of(tree: FlatTree, cumulative: np.ndarray) -> np.ndarray:
    """The average policy of a cumulative policy (an array over the slots): each set's
    part normalised, uniform where it sums to zero."""
    sets = tree.slot_set
    total = np.bincount(sets, weights=cumulative, minlength=len(tree.keys))[sets]
    uniform = 1.0 / np.bincount(sets, minlength=len(tree.keys))[sets]
    return np.where(total > 0, cumulative / np.where(total > 0, total, 1.0), uniform)


def flat_values(tree: FlatTree, prob: np.ndarray) -> list[np.ndarray]:
    """Each player's value of every node when the edges are taken with ``prob``."""
    out = []
    for player in (0, 1):
        value = tree.returns[player].copy()
        for (plo, phi), (lo, hi) in zip(tree.levels[-2::-1], tree.levels[:0:-1], strict=True):
            value[plo:phi] += np.bincount(tree.parent[lo:hi] - plo,
                                          weights=prob[lo:hi] * value[lo:hi],
                                          minlength=phi - plo)
        out.append(value)
    return out


def flat_best_response(tree: FlatTree, prob: np.ndarray, player: int) -> float:
    """The value to ``player`` of a best response to the others' edge probabilities
    ``prob``: bottom up, depth by depth; at ``player``'s sets of this depth the action of
    highest counterfactual value (the others' reach times the child's value, summed over
    the set) is taken with probability 1."""
    parent, levels = tree.parent, tree.levels
    mine = tree.owner == player
    reach = np.ones(len(parent))
    other_edge = np.where(mine, 1.0, prob)
    for lo, hi in levels[1:]:
        reach[lo:hi] = reach[parent[lo:hi]] * other_edge[lo:hi]
    value = tree.returns[player].copy()
    nsets = len(tree.keys)
    for (plo, phi), (lo, hi) in zip(levels[-2::-1], levels[:0:-1], strict=True):
        edge = prob[lo:hi].copy()
        chosen = mine[lo:hi]
        if chosen.any():
            slots = tree.slot[lo:hi][chosen]
            cf = np.bincount(slots, weights=reach[parent[lo:hi][chosen]] *
                             value[lo:hi][chosen], minlength=len(tree.slot_set))
            best = np.full(nsets, -1, dtype=np.int64)
            sets = tree.slot_set[slots]
            # the first slot of highest value in each set (ties: the first action)
            order = np.lexsort((slots, -cf[slots], sets))
            firsts = order[np.r_[True, sets[order][1:] != sets[order][:-1]]]
            best[sets[firsts]] = slots[firsts]
            edge[chosen] = (best[sets] == slots).astype(float)
        value[plo:phi] += np.bincount(parent[lo:hi] - plo, weights=edge * value[lo:hi],
                                      minlength=phi - plo)
    return float(value[0])


def flat_exploitability(tree: FlatTree, policy: np.ndarray, game: Game[Any, Any]) -> float:
    """NashConv / 2 of ``policy`` (an array over the slots)."""
    if (tree.set_depth < 0).any():
        return plain_exploitability(game, table_of(tree, policy))
    prob = tree.chance.copy()
    decision = tree.slot >= 0
    prob[decision] = policy[tree.slot[decision]]
    on = flat_values(tree, prob)
    return sum(flat_best_response(tree, prob, p) - float(on[p][0]) for p in (0, 1)) / 2


def table_of(tree: FlatTree, values: np.ndarray) -> Policy:
    out: Policy = {}
    for i, key in enumerate(tree.keys):
        lo = int(tree.set_start[i])
        out[key] = dict(zip(tree.actions[i], values[lo:lo + len(tree.actions[i])].tolist(),
                            strict=True))
    return out


def policy_array(tree: FlatTree, policy: Policy) -> np.ndarray:
    """A :data:`Policy` table as an array over the slots (uniform where it is silent)."""
    out = np.empty(len(tree.slot_set))
    for i, key in enumerate(tree.keys):
        lo, acts = int(tree.set_start[i]), tree.actions[i]
        table = policy.get(key)
        for j, a in enumerate(acts):
            out[lo + j] = 1.0 / len(acts) if table is None else table.get(a, 0.0)
    return out
