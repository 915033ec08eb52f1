"""*-minimax: Ballard's alpha-beta for trees with chance nodes, Star1 and Star2.

Follows B. W. Ballard, "The *-minimax search procedure for trees containing chance nodes",
Artificial Intelligence 21 (1983), in the form Hauk, Buro and Schaeffer give it
("Rediscovering *-Minimax Search", Computers and Games 2004, Fig. 2 Star1 and Fig. 3
Star2). Decision nodes are alpha-beta (fail-hard); a chance node with window
``(alpha, beta)`` and the values' bounds ``[L, U]`` (the game's ``value_bounds``) searches
its outcome ``i`` (probability ``P_i``) with the window

    A_i = (alpha - Σ_{j<i} P_j v_j - Σ_{j>i} P_j U_j) / P_i
    B_i = (beta  - Σ_{j<i} P_j v_j - Σ_{j>i} P_j L_j) / P_i

(``L_j = L``, ``U_j = U`` until something tighter is known), and stops as soon as a value
``v_i <= A_i`` (the chance node is worth at most ``alpha``) or ``v_i >= B_i`` (at least
``beta``): **Star1**. **Star2** first *probes* each outcome whose node is a decision node:
it searches only that node's first action, which bounds the node (above at a node of the
opponent, below at one of the root player), tightens ``U_j`` / ``L_j`` with it, and cuts off
when the bounds alone settle the chance node; then it runs Star1 with the tighter bounds.
Ballard reports 25-30 % fewer leaves than expectiminimax for Star1 and over 50 % for Star2
on random trees (the figures ``benchmarks/backgammon_search.py`` sets beside ours).

Where this departs:

* the values are exactly expectiminimax's (:mod:`.expectiminimax`): the same depth
  convention (decision plies; an evaluation that scores chance nodes, ``at_chance``, stops
  at the first chance node past the horizon), the same win discount, the same sums in the
  same order, ties to the first action. A cut-off is taken only when it holds with a margin
  of ``1e-9`` (each child window is widened by it), so floating-point rounding in
  ``A_i``/``B_i`` can never prune a value that expectiminimax would have counted; a value
  that lies strictly inside its window is exact, so the root's value and move equal
  expectiminimax's (``tests/test_star.py``);
* no transposition table: Star2's probe of a node's first action is searched again in the
  Star1 pass (Ballard's accounting counts that work too);
* the root keeps its best value as ``alpha`` for the next action and takes an action only
  when it is strictly better, as expectiminimax does.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import UnsupportedGameError
from ..game import CHANCE, Game
from .base import Searcher
from .common import INF, Iteration, discounted
from .control import Clock

#: Every cut-off must hold by this much (see the module docstring).
MARGIN = 1e-9


class Star1(Searcher):
    name: ClassVar[str] = "star1"
    summary: ClassVar[str] = ("Ballard's *-minimax Star1: alpha-beta through chance nodes with "
                              "the value bounds (same value and move as expectiminimax)")
    handles_chance: ClassVar[bool] = True
    #: Star2's probing phase.
    probing: ClassVar[bool] = False

    def __init__(self, game: Game[Any, Any], **options: Any) -> None:
        super().__init__(game, **options)
        bounds = game.game_type.value_bounds
        if bounds is None or game.num_players != 2:
            raise UnsupportedGameError(
                f"{self.name} needs a two-player game with value bounds "
                f"(GameType.value_bounds); {game.name} has none (use expectiminimax)")
        self.low, self.high = float(bounds[0]), float(bounds[1])
        #: the probes Star2 ran, and the chance nodes it settled by them alone
        self.probes = 0
        self.probe_cutoffs = 0

    def new_search(self) -> None:
        super().new_search()
        self.probes = self.probe_cutoffs = 0

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        game = self.game
        terminal_utility, to_move, actions, result, evaluate = self.rules()
        outcomes_of = game.chance_outcomes
        evaluation = self.evaluation
        at_chance = evaluation is not None and evaluation.at_chance
        me, maxu, step = to_move(state), game.max_utility, self.win_step
        low, high, probing = self.low, self.high, self.probing
        nodes = 0
        next_check = clock.begin(self.nodes)
        horizon = False

        def value(s: Any, d: int, ply: int, alpha: float, beta: float) -> float:
            """The value of ``s`` if it lies strictly inside ``(alpha, beta)``; else a bound
            on the far side: ``alpha`` (or below) when it is at most ``alpha``, ``beta`` (or
            above) when it is at least ``beta``."""
            nonlocal nodes, next_check, horizon
            # the node preamble of every plain search (count, clock, terminal test),
            # inline: the counters are this closure's, which a shared function could not set
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            u = terminal_utility(s, me)
            if u is not None:
                return discounted(u, ply, maxu, step)
            p = to_move(s)
            if p == CHANCE:
                if d == 0 and at_chance:
                    horizon = True
                    return evaluate(s, me)
                return chance(s, d, ply, alpha, beta)
            if d == 0:
                horizon = True
                return evaluate(s, me)
            if p == me:
                for a in actions(s):
                    v = value(result(s, a), d - 1, ply + 1, alpha, beta)
                    if v >= beta:
                        return beta
                    if v > alpha:
                        alpha = v
                return alpha
            for a in actions(s):
                v = value(result(s, a), d - 1, ply + 1, alpha, beta)
                if v <= alpha:
                    return alpha
                if v < beta:
                    beta = v
            return beta

        def chance(s: Any, d: int, ply: int, alpha: float, beta: float) -> float:
            outcomes = outcomes_of(s)
            children = [result(s, r) for r, _ in outcomes]
            probs = [prob for _, prob in outcomes]
            n = len(children)
            lows = [low] * n
            highs = [high] * n
            if probing:
                cut = probe(children, probs, lows, highs, d, ply, alpha, beta)
                if cut is not None:
                    return cut
            # Star1: Σ P_j U_j and Σ P_j L_j over the outcomes not searched yet
            rest_high = sum(p * h for p, h in zip(probs, highs, strict=True))
            rest_low = sum(p * lo for p, lo in zip(probs, lows, strict=True))
            total = 0.0  # Σ P_j v_j, summed as expectiminimax sums it
            for i in range(n):
                prob = probs[i]
                rest_high -= prob * highs[i]
                rest_low -= prob * lows[i]
                a_i = (alpha - total - rest_high) / prob - MARGIN
                b_i = (beta - total - rest_low) / prob + MARGIN
                v = value(children[i], d, ply + 1, a_i, b_i)
                if v <= a_i:
                    return alpha
                if v >= b_i:
                    return beta
                total += prob * v
            return total

        def probe(children: list[Any], probs: list[float], lows: list[float],
                  highs: list[float], d: int, ply: int, alpha: float,
                  beta: float) -> float | None:
            """Star2's probing phase: bound each decision child by its first action; the
            chance node's cut-off value, or ``None`` when the bounds do not settle it."""
            nonlocal nodes
            if d == 0:
                return None  # the children are evaluated, not searched: nothing to probe
            sum_high = sum(p * h for p, h in zip(probs, highs, strict=True))
            sum_low = sum(p * lo for p, lo in zip(probs, lows, strict=True))
            for i, child in enumerate(children):
                if terminal_utility(child, me) is not None:
                    continue
                p = to_move(child)
                if p == CHANCE:
                    continue
                prob = probs[i]
                first = actions(child)[0]
                nodes += 1  # the child itself, visited to read its first action
                self.probes += 1
                if p == me:  # a lower bound: the child is worth at least its first action
                    b_i = (beta - (sum_low - prob * lows[i])) / prob + MARGIN
                    v = value(result(child, first), d - 1, ply + 2, low - 1.0, b_i)
                    if v >= b_i:
                        self.probe_cutoffs += 1
                        return beta
                    sum_low += prob * (v - lows[i])
                    lows[i] = v
                else:  # an upper bound: the opponent takes at most its first action
                    a_i = (alpha - (sum_high - prob * highs[i])) / prob - MARGIN
                    v = value(result(child, first), d - 1, ply + 2, a_i, high + 1.0)
                    if v <= a_i:
                        self.probe_cutoffs += 1
                        return alpha
                    sum_high += prob * (v - highs[i])
                    highs[i] = v
            return None

        d0 = -1 if depth is None else depth
        nodes += 1
        best, best_action = -INF, None
        try:
            for a in actions(state):
                v = value(result(state, a), d0 - 1, 1, best, high + 1.0)
                if v > best:
                    best, best_action = v, a
        finally:
            self.nodes += nodes
        return Iteration(value=best, action=best_action, pv=[best_action], hit_horizon=horizon,
                         extra={"probes": self.probes, "probe_cutoffs": self.probe_cutoffs})


class Star2(Star1):
    name: ClassVar[str] = "star2"
    summary: ClassVar[str] = ("Ballard's *-minimax Star2: Star1 with probing of each outcome's "
                              "first move (same value and move as expectiminimax)")
    probing: ClassVar[bool] = True
