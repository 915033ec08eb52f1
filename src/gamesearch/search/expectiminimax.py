"""Expectiminimax — AIMA 4th ed. §6.5 (and the older edition's chapter 5 on chance nodes).

EXPECTIMINIMAX(s) = UTILITY(s) at a terminal; the max (min) over actions at MAX (MIN) nodes;
and at a chance node the probability-weighted *sum* ``Σ P(r) · EXPECTIMINIMAX(RESULT(s, r))``
over the outcomes the game lists with ``chance_outcomes``. (The sum is already the expected
value: it is not divided again by the number of outcomes, a bug some implementations
have.) A depth cut-off counts decision plies only; chance nodes do not use depth,
so "depth 2" in backgammon means a move, the dice, and the reply.

When the game's evaluation scores chance nodes (``Evaluation.at_chance``: backgammon's
evaluations judge a position before the roll), the search stops at the first chance node
past the horizon and evaluates it, instead of expanding its outcomes into decision nodes.
Backgammon's plies of chance then map to gnubg's plies: depth 1 is gnubg's 0-ply (each move
judged by the evaluation of the position it leaves), depth 2 gnubg's 1-ply (the 21 rolls
of the opponent and its best reply by the evaluation), depth 3 gnubg's 2-ply.

Because values are averaged, the *scale* of the evaluation matters here, unlike in minimax:
an order-preserving change of the leaf values can change the decision (Russell's slides;
the ``chance-transform`` example trees show it).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..game import CHANCE
from .base import Searcher
from .common import INF, Iteration, discounted
from .control import Clock
from .minimax import pv_list


class Expectiminimax(Searcher):
    name: ClassVar[str] = "expectiminimax"
    summary: ClassVar[str] = "expectiminimax over chance nodes, AIMA §6.5 (weighted sums)"
    handles_chance: ClassVar[bool] = True

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        game = self.game
        terminal_utility, to_move, actions, result, evaluate = self.rules()
        outcomes_of = game.chance_outcomes
        at_chance = self.evaluation is not None and self.evaluation.at_chance
        me, maxu, step = to_move(state), game.max_utility, self.win_step
        nodes = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        lines: list[Any] = [None] * 1024

        def value(s: Any, d: int, ply: int) -> float:
            nonlocal nodes, next_check, horizon
            # the node preamble of every plain search (count, clock, terminal test),
            # inline: the counters are this closure's, which a shared function could not set
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            u = terminal_utility(s, me)
            if u is not None:
                lines[ply] = None
                return discounted(u, ply, maxu, step)
            p = to_move(s)
            if p == CHANCE:  # the expectation: Σ P(r) · value(result(s, r))
                lines[ply] = None
                if d == 0 and at_chance:  # the evaluation scores positions before a roll
                    horizon = True
                    return evaluate(s, me)
                total = 0.0
                for r, prob in outcomes_of(s):
                    total += prob * value(result(s, r), d, ply + 1)
                return total
            if d == 0:
                horizon = True
                lines[ply] = None
                return evaluate(s, me)
            if p == me:
                v = -INF
                for a in actions(s):
                    v2 = value(result(s, a), d - 1, ply + 1)
                    if v2 > v:
                        v = v2
                        lines[ply] = (a, lines[ply + 1])
                return v
            v = INF
            for a in actions(s):
                v2 = value(result(s, a), d - 1, ply + 1)
                if v2 < v:
                    v = v2
                    lines[ply] = (a, lines[ply + 1])
            return v

        # The root (a decision node of the root player) keeps the value of every action.
        d = -1 if depth is None else depth
        nodes += 1
        root_values: list[tuple[Any, float]] = []
        best, best_line = -INF, None
        try:
            for a in actions(state):
                v = value(result(state, a), d - 1, 1)
                root_values.append((a, v))
                if v > best:
                    best, best_line = v, (a, lines[1])
        finally:
            self.nodes += nodes
        pv = pv_list(best_line)
        return Iteration(
            value=best,
            action=pv[0],
            pv=pv,
            hit_horizon=horizon,
            extra={"root_values": root_values},
        )
