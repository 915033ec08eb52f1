"""The exact equilibrium of a small two-player zero-sum game with hidden information by
linear programming in the sequence form (Koller, Megiddo & von Stengel, "Fast algorithms
for finding randomized strategies in game trees", STOC 1994; von Stengel, "Efficient
computation of behavior strategies", GEB 1996), solved by scipy's HiGHS.

A player's *sequences* are the empty one and every (information set, action) pair; a
realisation plan ``x`` gives each sequence the probability that the player plays it, so
``x[empty] = 1`` and at each set the plan of its actions sums to the plan of the sequence
that leads there (perfect recall: one). ``A[s0, s1]`` sums, over the terminal histories
reached by the sequence pair, chance's probability times player 0's return. Player 0
solves ``max f.q`` over ``x >= 0, q`` with ``E x = e`` and ``F^T q <= A^T x`` (the dual of
player 1's best response to ``x``); player 1 the mirror image. The optimum is the game
value; a plan turns into a behaviour policy by ``x[I, a] / x[parent(I)]``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import GameError
from ..game import CHANCE, Game
from .cfr import Policy, check_game


@dataclass
class SequenceForm:
    """The sequence form of a game (see the module's docstring)."""

    #: per player: information set -> (the sequence leading to it, its actions, the index
    #: of its first action's sequence)
    sets: list[dict[Hashable, tuple[int, list[Any], int]]] = field(
        default_factory=lambda: [{}, {}])
    sizes: list[int] = field(default_factory=lambda: [1, 1])
    payoff: dict[tuple[int, int], float] = field(default_factory=dict)


def sequence_form(game: Game[Any, Any]) -> SequenceForm:
    observe = check_game(game)
    form = SequenceForm()

    def walk(state: Any, reach: float, seqs: tuple[int, int]) -> None:
        if game.is_terminal(state):
            if reach > 0:
                form.payoff[seqs] = form.payoff.get(seqs, 0.0) + \
                    reach * game.returns(state)[0]
            return
        mover = game.to_move(state)
        if mover == CHANCE:
            for a, p in game.chance_outcomes(state):
                walk(game.result(state, a), reach * p, seqs)
            return
        key = observe(state, mover)
        sets = form.sets[mover]
        if key not in sets:
            actions = list(game.actions(state))
            sets[key] = (seqs[mover], actions, form.sizes[mover])
            form.sizes[mover] += len(actions)
        _, actions, first = sets[key]
        for j, a in enumerate(actions):
            child = (first + j, seqs[1]) if mover == 0 else (seqs[0], first + j)
            walk(game.result(state, a), reach, child)

    walk(game.initial_state(), 1.0, (0, 0))
    return form


def _constraints(form: SequenceForm, player: int) -> Any:
    """``E`` (rows: the empty sequence, then one a set) of ``player``'s plans."""
    from scipy.sparse import lil_matrix

    sets = form.sets[player]
    e = lil_matrix((1 + len(sets), form.sizes[player]))
    e[0, 0] = 1.0
    for row, (parent, actions, first) in enumerate(sets.values(), start=1):
        e[row, parent] = -1.0
        for j in range(len(actions)):
            e[row, first + j] = 1.0
    return e.tocsr()


def solve_lp(game: Game[Any, Any]) -> tuple[float, Policy]:
    """The game value for player 0 and an equilibrium policy (both players')."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack

    form = sequence_form(game)
    rows, cols = zip(*form.payoff, strict=True) if form.payoff else ((), ())
    a = coo_matrix((list(form.payoff.values()), (rows, cols)),
                   shape=(form.sizes[0], form.sizes[1])).tocsr()
    policy: Policy = {}
    value = 0.0
    for player in (0, 1):
        mine, theirs = _constraints(form, player), _constraints(form, 1 - player)
        # player 0: max q0 s.t. F^T q - A^T x <= 0; player 1: min p0 s.t. A y - E^T p <= 0
        payoff = -a.T if player == 0 else a
        n, m = form.sizes[player], theirs.shape[0]
        cost = np.zeros(n + m)
        cost[n] = -1.0 if player == 0 else 1.0
        sign = 1.0 if player == 0 else -1.0
        upper = hstack([payoff, sign * theirs.T]).tocsr()
        equal = hstack([mine, coo_matrix((mine.shape[0], m))]).tocsr()
        rhs = np.zeros(mine.shape[0])
        rhs[0] = 1.0
        bounds = [(0, None)] * n + [(None, None)] * m
        result = linprog(cost, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal,
                         b_eq=rhs, bounds=bounds, method="highs")
        if result.status != 0:
            raise GameError(f"sequence-form LP of {game.name}: {result.message}")
        if player == 0:
            value = float(-result.fun)
        plan = result.x[:n]
        for key, (parent, actions, first) in form.sets[player].items():
            reach = plan[parent]
            policy[key] = {act: (float(plan[first + j] / reach) if reach > 1e-12
                                 else 1.0 / len(actions))
                           for j, act in enumerate(actions)}
    return value, policy
