"""Equilibria of two-player zero-sum games with hidden information: counterfactual regret
minimisation and its relatives, best responses and exploitability -- the plain, textbook
versions, which the fast ones (:mod:`gamesearch.search.cfr_fast`,
:mod:`gamesearch.search.mccfr_fast`) are tested against.

The papers followed:

* CFR: Zinkevich, Johanson, Bowling, Piccione, "Regret Minimization in Games with
  Incomplete Information", NIPS 2007 (counterfactual regrets, regret matching, the
  average policy converges to a Nash equilibrium);
* CFR+: Tammelin, "Solving Large Imperfect Information Games Using CFR+", 2014 (regrets
  floored at zero after each update, alternating updates, linear averaging);
* discounted CFR: Brown & Sandholm, "Solving Imperfect-Information Games via Discounted
  Regret Minimization", AAAI 2019 (positive regrets scaled by t^a/(t^a+1), negative by
  t^b/(t^b+1), the average weighted by t^g; a=1.5, b=0, g=2);
* Monte Carlo CFR: Lanctot, Waugh, Zinkevich, Bowling, "Monte Carlo Sampling for Regret
  Minimization in Extensive Games", NIPS 2009 (external sampling; outcome sampling with
  exploration e=0.6 and stochastically weighted averaging).

The schedule is OpenSpiel's (``CFRSolver``, ``CFRPlusSolver``, Python ``DCFRSolver``), so
that the exploitability matches theirs iteration for iteration: iteration ``t`` (from 1)
updates player 0 then player 1 (alternating updates); each pass walks the whole tree with
the current policies, adds the updated player's counterfactual regrets and its reach-
weighted policy (weight 1; CFR+: ``t``; DCFR: ``t**g``) to its cumulative policy, then
CFR+ floors the regrets at zero, DCFR discounts the updated player's regrets, and every
information set's current policy is recomputed by regret matching (uniform when no regret
is positive). The average policy is the cumulative policy normalised (uniform where it
sums to zero).

The model: a game with an ``observation()`` whose ``observe(state, player)`` is the
information-set key (hashable; equal exactly for the states the player cannot tell apart)
and ``Game.actions`` the legal actions there, the same at every state of a set. A policy
is a :data:`Policy`: information-set key -> ``{action: probability}``; a set it does not
list is played uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ..errors import UnsupportedGameError
from ..game import CHANCE, Game

#: information-set key -> {action: probability}
Policy = dict[Hashable, dict[Any, float]]

VARIANTS = ("cfr", "cfr+", "dcfr")


def average_weight(variant: str, iteration: int, gamma: float) -> float:
    """The weight of iteration ``iteration``'s strategy in the average policy: uniform for
    CFR, linear for CFR+ (Tammelin 2014), ``t ** gamma`` for DCFR (Brown & Sandholm 2019);
    one schedule for the plain and the flat solver."""
    if variant == "cfr+":
        return float(iteration)
    if variant == "dcfr":
        return float(float(iteration) ** gamma)
    return 1.0


def check_game(game: Game[Any, Any]) -> Callable[[Any, int], Hashable]:
    """The information-set key function of ``game``, or a one-line
    :class:`UnsupportedGameError` for a game these solvers do not handle."""
    if game.num_players != 2:
        raise UnsupportedGameError(f"equilibrium: {game.name} has {game.num_players} players; "
                                   "the solvers handle two-player zero-sum games")
    if not game.game_type.zero_sum:
        raise UnsupportedGameError(f"equilibrium: {game.name} is not zero-sum; the solvers "
                                   "handle two-player zero-sum games")
    observation = game.observation()
    if observation is None:
        raise UnsupportedGameError(f"equilibrium: {game.name} has no observation (no hidden "
                                   "information): its information sets are its states; use "
                                   "solve or analyze")
    observe: Callable[[Any, int], Hashable] = observation.observe
    return observe


@dataclass
class InfoSet:
    """One information set's tables: its actions, cumulative regrets and policy, and the
    current policy (regret matching of the regrets)."""

    player: int
    actions: list[Any]
    regrets: list[float] = field(default_factory=list)
    cumulative: list[float] = field(default_factory=list)
    policy: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.actions)
        self.regrets = [0.0] * n
        self.cumulative = [0.0] * n
        self.policy = [1.0 / n] * n

    def regret_matching(self) -> None:
        positive = [r if r > 0 else 0.0 for r in self.regrets]
        total = 0.0
        for r in positive:  # (left to right, as OpenSpiel; not Python 3.12's exact sum)
            total += r
        n = len(self.actions)
        self.policy = [r / total for r in positive] if total > 0 else [1.0 / n] * n

    def average(self) -> dict[Any, float]:
        total = 0.0
        for c in self.cumulative:
            total += c
        n = len(self.actions)
        return {a: (c / total if total > 0 else 1.0 / n)
                for a, c in zip(self.actions, self.cumulative, strict=True)}


def information_sets(game: Game[Any, Any]) -> dict[Hashable, InfoSet]:
    """Every information set of the game tree (a walk of all histories), in the order
    first met depth first."""
    observe = check_game(game)
    out: dict[Hashable, InfoSet] = {}

    def walk(state: Any) -> None:
        if game.is_terminal(state):
            return
        player = game.to_move(state)
        actions = list(game.actions(state))
        if player != CHANCE:
            key = observe(state, player)
            if key not in out:
                out[key] = InfoSet(player, actions)
            elif out[key].actions != actions:
                raise UnsupportedGameError(f"equilibrium: {game.name}'s information set "
                                           f"{str(key)[:60]!r} has different actions in "
                                           "two of its states")
        for a in actions:
            walk(game.result(state, a))

    walk(game.initial_state())
    return out


class CFRSolver:
    """Vanilla CFR, CFR+ or discounted CFR by recursion over the game (the reference).

    ``solver.iterate(n)`` runs ``n`` iterations; ``average_policy()`` and
    ``current_policy()`` are :data:`Policy` tables."""

    def __init__(self, game: Game[Any, Any], variant: str = "cfr", alpha: float = 1.5,
                 beta: float = 0.0, gamma: float = 2.0) -> None:
        if variant not in VARIANTS:
            raise UnsupportedGameError(f"cfr variant {variant!r}: expected one of "
                                       f"{', '.join(VARIANTS)}")
        self.game = game
        self.observe = check_game(game)
        self.variant = variant
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.infosets = information_sets(game)
        self.iteration = 0

    def iterate(self, iterations: int = 1) -> None:
        for _ in range(iterations):
            self.iteration += 1
            t = self.iteration
            weight = average_weight(self.variant, t, self.gamma)
            for player in (0, 1):
                self._traverse(self.game.initial_state(), player, (1.0, 1.0, 1.0), weight)
                for node in self.infosets.values():
                    if self.variant == "cfr+":
                        node.regrets = [max(r, 0.0) for r in node.regrets]
                    elif self.variant == "dcfr" and node.player == player:
                        up = t ** self.alpha / (t ** self.alpha + 1)
                        down = t ** self.beta / (t ** self.beta + 1)
                        node.regrets = [r * (up if r >= 0 else down) for r in node.regrets]
                for node in self.infosets.values():
                    node.regret_matching()

    def _traverse(self, state: Any, player: int, reach: tuple[float, float, float],
                  weight: float) -> float:
        """The value of ``state`` to ``player`` under the current policies; updates
        ``player``'s regrets and cumulative policy below ``state``. ``reach``: the
        probabilities of reaching ``state`` by player 0's, player 1's and chance's
        actions. (Sums run left to right from 0, as OpenSpiel's: see ``_pass`` in
        :mod:`gamesearch.search.cfr_fast` for why the rounding matters.)"""
        game = self.game
        if game.is_terminal(state):
            return game.returns(state)[player]
        mover = game.to_move(state)
        value = 0.0
        if mover == CHANCE:
            for a, p in game.chance_outcomes(state):
                child = (reach[0], reach[1], reach[2] * p)
                value += p * self._traverse(game.result(state, a), player, child, weight)
            return value
        node = self.infosets[self.observe(state, mover)]
        sigma = node.policy
        values = []
        for a, p in zip(node.actions, sigma, strict=True):
            child = (reach[0] * p, reach[1], reach[2]) if mover == 0 else \
                (reach[0], reach[1] * p, reach[2])
            values.append(self._traverse(game.result(state, a), player, child, weight))
            value += p * values[-1]
        if mover == player:
            others = reach[1 - player] * reach[2]
            for i, v in enumerate(values):
                node.regrets[i] += others * (v - value)
                node.cumulative[i] += weight * reach[player] * sigma[i]
        return value

    def average_policy(self) -> Policy:
        return {key: node.average() for key, node in self.infosets.items()}

    def current_policy(self) -> Policy:
        return {key: dict(zip(node.actions, node.policy, strict=True))
                for key, node in self.infosets.items()}


# ----- Monte Carlo CFR -------------------------------------------------------------------
_MASK64 = (1 << 64) - 1


class SplitMix64:
    """The random stream of the Monte Carlo solvers: SplitMix64 (Steele, Lea & Flood, "Fast
    Splittable Pseudorandom Number Generators", OOPSLA 2014), one double in [0, 1) from the
    top 53 bits of each output. Written out (not Python's or numpy's generator) so that the
    compiled solver (:mod:`gamesearch.search.mccfr_fast`) draws the very same numbers from
    the same seed."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def random(self) -> float:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        return (z >> 11) * 2.0 ** -53


def new_seed(seed: int | None) -> int:
    """``seed`` as a 64-bit seed; ``None``: one from the operating system."""
    return random.SystemRandom().getrandbits(64) if seed is None else seed & _MASK64


def sample_index(weights: list[float], u: float) -> int:
    """The index drawn by inverse transform with ``u`` in [0, 1): the first ``i`` whose
    running sum of ``weights`` (left to right) exceeds ``u`` times their sum; never an
    index of weight 0 (when rounding leaves ``u`` times the sum at the sum itself: the
    last index of positive weight)."""
    total = 0.0
    for w in weights:
        total += w
    target = u * total
    running = 0.0
    last = 0
    for i, w in enumerate(weights):
        running += w
        if w > 0:
            last = i
            if target < running:
                return i
    return last


class MCCFRSolver:
    """Monte Carlo CFR (Lanctot et al. 2009): ``sampling="external"`` (chance and the
    opponent sampled, every action of the updated player walked; the opponent's average
    updated where it is sampled, OpenSpiel's "simple" averaging) or ``"outcome"`` (one
    history sampled a pass, the updated player exploring with probability ``epsilon``;
    stochastically weighted averaging). Each iteration updates player 0, then player 1.
    ``nodes``: the histories touched.

    The random numbers: one :class:`SplitMix64` stream, one draw per sampled choice, drawn
    when the walk enters the history that makes it (depth first, actions in order), the
    choice by :func:`sample_index`; the compiled solver keeps the same order, so that the
    two sample the same histories and reach the same regrets from the same seed."""

    def __init__(self, game: Game[Any, Any], sampling: str = "external",
                 seed: int | None = None, epsilon: float = 0.6) -> None:
        if sampling not in ("external", "outcome"):
            raise UnsupportedGameError(f"mccfr sampling {sampling!r}: expected external "
                                       "or outcome")
        self.game = game
        self.observe = check_game(game)
        self.sampling = sampling
        self.epsilon = epsilon
        self.rng = SplitMix64(new_seed(seed))
        self.infosets = information_sets(game)
        self.iteration = 0
        self.nodes = 0

    def iterate(self, iterations: int = 1) -> None:
        for _ in range(iterations):
            self.iteration += 1
            for player in (0, 1):
                if self.sampling == "external":
                    self._external(self.game.initial_state(), player)
                else:
                    self._outcome(self.game.initial_state(), player, 1.0, 1.0)

    def _sample_chance(self, state: Any) -> Any:
        outcomes = list(self.game.chance_outcomes(state))
        return outcomes[sample_index([p for _, p in outcomes], self.rng.random())][0]

    def _external(self, state: Any, player: int) -> float:
        game = self.game
        self.nodes += 1
        if game.is_terminal(state):
            return game.returns(state)[player]
        mover = game.to_move(state)
        if mover == CHANCE:
            return self._external(game.result(state, self._sample_chance(state)), player)
        node = self.infosets[self.observe(state, mover)]
        node.regret_matching()
        sigma = node.policy
        if mover != player:
            for i, p in enumerate(sigma):
                node.cumulative[i] += p
            a = node.actions[sample_index(sigma, self.rng.random())]
            return self._external(game.result(state, a), player)
        values = [self._external(game.result(state, a), player) for a in node.actions]
        value = 0.0
        for p, v in zip(sigma, values, strict=True):
            value += p * v
        for i, v in enumerate(values):
            node.regrets[i] += v - value
        return value

    def _outcome(self, state: Any, player: int, others: float,
                 sample: float) -> tuple[float, float]:
        """(the sampled utility over the sample's probability, the tail's probability
        under the current policies); ``others``: the opponent's reach, ``sample``: the
        probability of sampling the players' actions so far (chance's cancels)."""
        game = self.game
        self.nodes += 1
        if game.is_terminal(state):
            return game.returns(state)[player] / sample, 1.0
        mover = game.to_move(state)
        if mover == CHANCE:
            return self._outcome(game.result(state, self._sample_chance(state)), player,
                                 others, sample)
        node = self.infosets[self.observe(state, mover)]
        node.regret_matching()
        sigma = node.policy
        n = len(sigma)
        explore = [self.epsilon / n + (1 - self.epsilon) * p for p in sigma] \
            if mover == player else sigma
        i = sample_index(explore, self.rng.random())
        child = game.result(state, node.actions[i])
        if mover == player:
            u, tail = self._outcome(child, player, others, sample * explore[i])
            w = u * others
            for j in range(n):
                node.regrets[j] += w * tail * ((1 - sigma[i]) if j == i else -sigma[i])
        else:
            u, tail = self._outcome(child, player, others * sigma[i], sample * explore[i])
            for j in range(n):
                node.cumulative[j] += others / sample * sigma[j]
        return u, tail * sigma[i]

    def average_policy(self) -> Policy:
        return {key: node.average() for key, node in self.infosets.items()}


# ----- best response and exploitability --------------------------------------------------
def policy_probabilities(policy: Policy, key: Hashable, actions: list[Any]) -> list[float]:
    """``policy`` at ``key`` over ``actions`` (uniform where it does not list the set)."""
    table = policy.get(key)
    if table is None:
        return [1.0 / len(actions)] * len(actions)
    return [table.get(a, 0.0) for a in actions]


def policy_value(game: Game[Any, Any], policy: Policy, player: int = 0) -> float:
    """The expected return of ``player`` when both players play ``policy``."""
    observe = check_game(game)

    def value(state: Any) -> float:
        if game.is_terminal(state):
            return game.returns(state)[player]
        mover = game.to_move(state)
        if mover == CHANCE:
            return sum(p * value(game.result(state, a)) for a, p in game.chance_outcomes(state))
        actions = list(game.actions(state))
        probs = policy_probabilities(policy, observe(state, mover), actions)
        return sum(p * value(game.result(state, a))
                   for a, p in zip(actions, probs, strict=True) if p > 0)

    return value(game.initial_state())


def best_response_value(game: Game[Any, Any], policy: Policy, player: int) -> float:
    """The value to ``player`` of a best response to the opponent's part of ``policy``:
    at each of ``player``'s information sets the action of highest counterfactual value
    (summed over the set's histories, each weighted by the opponent's and chance's
    probability of reaching it), found from the bottom up (the sets below first)."""
    observe = check_game(game)
    histories: dict[Hashable, list[tuple[Any, float]]] = {}

    def collect(state: Any, reach: float) -> None:
        if game.is_terminal(state):
            return
        mover = game.to_move(state)
        if mover == CHANCE:
            for a, p in game.chance_outcomes(state):
                collect(game.result(state, a), reach * p)
            return
        actions = list(game.actions(state))
        if mover == player:
            histories.setdefault(observe(state, mover), []).append((state, reach))
            for a in actions:
                collect(game.result(state, a), reach)
            return
        probs = policy_probabilities(policy, observe(state, mover), actions)
        for a, p in zip(actions, probs, strict=True):
            collect(game.result(state, a), reach * p)

    collect(game.initial_state(), 1.0)
    best: dict[Hashable, Any] = {}
    values: dict[Any, float] = {}

    def value(state: Any) -> float:
        if state in values:
            return values[state]
        if game.is_terminal(state):
            v = game.returns(state)[player]
        elif (mover := game.to_move(state)) == CHANCE:
            v = sum(p * value(game.result(state, a)) for a, p in game.chance_outcomes(state))
        elif mover == player:
            v = value(game.result(state, best_action(observe(state, mover))))
        else:
            actions = list(game.actions(state))
            probs = policy_probabilities(policy, observe(state, mover), actions)
            v = sum(p * value(game.result(state, a))
                    for a, p in zip(actions, probs, strict=True) if p > 0)
        values[state] = v
        return v

    def best_action(key: Hashable) -> Any:
        if key not in best:
            members = histories[key]
            actions = list(game.actions(members[0][0]))
            scores = [sum(w * value(game.result(h, a)) for h, w in members) for a in actions]
            best[key] = actions[scores.index(max(scores))]
        return best[key]

    return value(game.initial_state())


def nash_conv(game: Game[Any, Any], policy: Policy) -> float:
    """Sum over the players of what a best response gains against ``policy``."""
    on_policy = policy_value(game, policy, 0), policy_value(game, policy, 1)
    return sum(best_response_value(game, policy, p) - on_policy[p] for p in (0, 1))


def exploitability(game: Game[Any, Any], policy: Policy) -> float:
    """NashConv / 2 (OpenSpiel's ``exploitability``): 0 exactly at an equilibrium."""
    return nash_conv(game, policy) / 2
