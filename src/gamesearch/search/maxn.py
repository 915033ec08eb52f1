"""Max^n for several players — AIMA 4th ed. §6.2.2 and Figure 6.4 (Luckhardt & Irani 1986).

Every node is worth a utility vector with one entry per player; the player to move picks the
child whose vector is best *for them*, and the first such child on ties (the figure's root,
where A's options tie at 1, keeps the first move: (1, 2, 6)). At a depth cut-off the vector
is ``[evaluate(s, p) for p in players]``. Wins are not discounted here: vectors from
general-sum games have no single "win" to discount.

Paranoid search (Sturtevant & Korf 2000) is the other classic answer: assume all opponents
play against the root player, which turns the game into a two-player zero-sum one that
alpha-beta can prune; :class:`Paranoid` is exactly :class:`AlphaBeta` allowed on n players.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .alphabeta import AlphaBeta
from .base import Searcher
from .common import Iteration
from .control import Clock
from .minimax import pv_list


class MaxN(Searcher):
    name: ClassVar[str] = "maxn"
    summary: ClassVar[str] = "max^n for n players, AIMA Fig 6.4 (utility vectors)"
    two_player_only: ClassVar[bool] = False

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        game = self.game
        _, to_move, actions, result, evaluate = self.rules()
        is_terminal, returns = game.is_terminal, game.returns
        players = range(game.num_players)
        nodes = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        lines: list[Any] = [None] * 512

        def value(s: Any, d: int, ply: int) -> tuple[float, ...]:
            nonlocal nodes, next_check, horizon
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            if is_terminal(s):
                lines[ply] = None
                return tuple(returns(s))
            if d == 0:
                horizon = True
                lines[ply] = None
                return tuple(evaluate(s, q) for q in players)
            p = to_move(s)
            best: tuple[float, ...] | None = None
            for a in actions(s):
                v = value(result(s, a), d - 1, ply + 1)
                if best is None or v[p] > best[p]:
                    best = v
                    lines[ply] = (a, lines[ply + 1])
            assert best is not None, "a non-terminal state must have an action"
            return best

        try:
            v = value(state, -1 if depth is None else depth, 0)
        finally:
            self.nodes += nodes
        pv = pv_list(lines[0])
        return Iteration(value=v, action=pv[0], pv=pv, hit_horizon=horizon)


class Paranoid(AlphaBeta):
    name: ClassVar[str] = "paranoid"
    summary: ClassVar[str] = "paranoid alpha-beta: every opponent minimises the root player"
    two_player_only: ClassVar[bool] = False
