"""Minimax decision — AIMA 4th ed. Figure 6.3, with the depth cut-off of §6.3 (H-MINIMAX).

The reference implementation every faster algorithm is tested against. It follows the figure
line by line (MAX-VALUE takes the largest child value, MIN-VALUE the smallest) and departs from
it in four small ways, each needed by a general library:

* which of MAX-VALUE / MIN-VALUE applies is read from ``TO-MOVE`` of each state, so games in
  which a player may move twice in a row are searched correctly (a game whose type says the
  players strictly alternate lets the ply's parity answer instead: the same side, no call);
* with a depth limit, IS-CUTOFF replaces IS-TERMINAL and EVAL replaces UTILITY at the
  cut-off (H-MINIMAX, §6.3.1);
* wins are discounted by their distance (see :mod:`gamesearch.search.common`), unless
  ``discount=False``;
* it records the principal variation as it goes (one cons cell per improvement).

Node count: the root plus every child generated (= every call of the value function).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .base import Searcher
from .common import INF, Iteration
from .control import Clock


def pv_list(line: Any) -> list[Any]:
    """Turn a cons-cell line ``(a, (b, (c, None)))`` into ``[a, b, c]``."""
    out = []
    while line is not None:
        out.append(line[0])
        line = line[1]
    return out


class Minimax(Searcher):
    name: ClassVar[str] = "minimax"
    summary: ClassVar[str] = "minimax decision, AIMA Fig 6.3 (with H-minimax depth cut-off)"

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        game = self.game
        terminal_utility, to_move, actions, result, evaluate = self.rules()
        me, maxu, step = to_move(state), game.max_utility, self.win_step
        nodes = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        lines: list[Any] = [None] * 512
        cutoff = -1 if depth is None else depth  # the ply of the depth cut-off
        alternating = game.game_type.alternating  # then MAX moves at the even plies

        def value(s: Any, ply: int) -> float:
            nonlocal nodes, next_check, horizon
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            u = terminal_utility(s, me)  # IS-TERMINAL and UTILITY in one call
            if u is not None:
                lines[ply] = None
                if step and (u >= maxu or u <= -maxu):  # a win or a loss: by its distance
                    return u - ply * step if u > 0 else u + ply * step
                return u
            if ply == cutoff:  # IS-CUTOFF: fall back on the heuristic EVAL
                horizon = True  # (lines[cutoff] stays None: only leaves live at this ply)
                return evaluate(s, me)
            if (not ply & 1) if alternating else to_move(s) == me:  # MAX-VALUE
                v = -INF
                for a in actions(s):
                    v2 = value(result(s, a), ply + 1)
                    if v2 > v:
                        v = v2
                        lines[ply] = (a, lines[ply + 1])
                return v
            v = INF  # MIN-VALUE
            for a in actions(s):
                v2 = value(result(s, a), ply + 1)
                if v2 < v:
                    v = v2
                    lines[ply] = (a, lines[ply + 1])
            return v

        try:
            v = value(state, 0)
        finally:
            self.nodes += nodes
        pv = pv_list(lines[0])
        return Iteration(value=v, action=pv[0], pv=pv, hit_horizon=horizon)
