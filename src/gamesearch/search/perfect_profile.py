"""NashConv of a profile of a perfect-information game, in exact arithmetic: the check that
the move minimax picks at every state is an equilibrium (the seeds' lecture on Nash
equilibria; Kuhn's theorem: a finite game of perfect information has one in pure strategies,
found by backward induction -- Zermelo's, which minimax is).

A game of perfect information has no observation: each state is its own information set,
so a *profile* here is a mapping from each decision state to its move (a pure profile) or
to ``{action: probability}``. NashConv (OpenSpiel's ``nash_conv``, Johanson et al.'s
definition) is the sum over the players of what a best response to the others' part of the
profile gains over the profile's own value; it is 0 exactly at an equilibrium. With one
state per information set the best response is a plain maximum at the responder's states
and the profile's move (or mixture) at the others', so :func:`nash_conv_exact` takes three
walks of the tree (the profile's value, and each player's best response), each state's
value kept once (the walks of a transposition table; ``memo=False`` walks every history, as
a tree-walking best response does). Returns and chance probabilities are read as
:class:`fractions.Fraction` (a float is a binary fraction, so this is exact), so "0" is
literal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import UnsupportedGameError
from ..game import CHANCE, Game

#: a decision state's move, or its moves' probabilities
Profile = Mapping[Hashable, Any]


@dataclass
class ExactNashConv:
    """``nash_conv`` (the sum of the players' gains), each player's ``best_response`` and
    ``on_profile`` value (exact), and ``nodes``: the states (``memo``) or histories the
    three walks visited."""

    nash_conv: Fraction
    best_response: tuple[Fraction, ...]
    on_profile: tuple[Fraction, ...]
    nodes: int


#: The most decision states :func:`decision_states` walks before it refuses the game (a
#: profile is a table of them: tic-tac-toe has 4,520; Connect Four's would never end).
MAX_STATES = 1_000_000


def decision_states(game: Game[Any, Any], max_states: int = MAX_STATES) -> list[Any]:
    """Every state of ``game`` where a player moves, each once, in the order first met
    depth first; more than ``max_states`` of them is refused in one line."""
    seen: dict[Any, None] = {}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state in seen or game.is_terminal(state):
            continue
        if game.to_move(state) != CHANCE:
            seen[state] = None
            if len(seen) > max_states:
                raise UnsupportedGameError(
                    f"{game.name}: more than {max_states:,} decision states; a profile "
                    "of every state is for small games (tic-tac-toe has 4,520)")
        stack.extend(game.result(state, a) for a in reversed(list(game.actions(state))))
    return list(seen)


def search_profile(game: Game[Any, Any], choose: Callable[[Any], Any]) -> dict[Any, Any]:
    """The pure profile ``choose(state)`` gives at every decision state of ``game``."""
    return {state: choose(state) for state in decision_states(game)}


def nash_conv_exact(game: Game[Any, Any], profile: Profile, memo: bool = True
                    ) -> ExactNashConv:
    """NashConv of ``profile`` (every decision state -> its move, or ``{action:
    probability}``) in a two-player perfect-information game, exactly (the module's
    docstring). A state the profile lacks, or a move not legal there, is refused in one
    line."""
    if game.observation() is not None or not game.game_type.perfect_information:
        raise UnsupportedGameError(f"nash_conv_exact: {game.name} has hidden information; "
                                   "its information sets are not its states (use "
                                   "gamesearch.search.cfr.nash_conv)")
    if game.num_players != 2:
        raise UnsupportedGameError(f"nash_conv_exact: {game.name} has {game.num_players} "
                                   "players; this checks two-player profiles")
    nodes = 0

    def moves(state: Any) -> list[tuple[Any, Fraction]]:
        if state not in profile:
            raise UnsupportedGameError(f"nash_conv_exact: the profile has no move at "
                                       f"{game.format_state(state)!r}")
        move = profile[state]
        legal = list(game.actions(state))
        pairs = [(a, Fraction(p)) for a, p in move.items() if p] \
            if isinstance(move, Mapping) else [(move, Fraction(1))]
        if any(a not in legal for a, _ in pairs) or sum(p for _, p in pairs) != 1:
            raise UnsupportedGameError(f"nash_conv_exact: at {game.format_state(state)!r} "
                                       f"the profile's {move!r} is not a legal move or a "
                                       "distribution over the legal moves")
        return pairs

    def walk(responder: int | None) -> tuple[Fraction, ...]:
        """The players' values from the root when ``responder`` (None: nobody) best-
        responds to the profile; for a responder, its own entry is what it gets."""
        table: dict[Any, tuple[Fraction, ...]] = {}

        def value(state: Any) -> tuple[Fraction, ...]:
            nonlocal nodes
            if memo and state in table:
                return table[state]
            nodes += 1
            if game.is_terminal(state):
                out = tuple(Fraction(r) for r in game.returns(state))
            else:
                mover = game.to_move(state)
                if mover == CHANCE:
                    branches = [(a, Fraction(p)) for a, p in game.chance_outcomes(state)]
                elif mover == responder:
                    children = [value(game.result(state, a)) for a in game.actions(state)]
                    out = max(children, key=lambda v: v[mover])  # (first of equals)
                    branches = []
                else:
                    branches = moves(state)
                if branches:
                    parts = [(p, value(game.result(state, a))) for a, p in branches]
                    out = tuple(sum((p * v[i] for p, v in parts), Fraction(0))
                                for i in range(game.num_players))
            if memo:
                table[state] = out
            return out

        return value(game.initial_state())

    on = walk(None)
    best = tuple(walk(p)[p] for p in range(game.num_players))
    gains = sum((b - v for b, v in zip(best, on, strict=True)), Fraction(0))
    return ExactNashConv(gains, best, on, nodes)


__all__ = ["ExactNashConv", "Profile", "decision_states", "nash_conv_exact",
           "search_profile"]
