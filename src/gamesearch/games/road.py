"""The road example of the seeds' slides (after Russell & Norvig): where averaging over
clairvoyance (PIMC) errs by strategy fusion.

"Road A leads to a small heap of gold pieces; road B leads to a fork: guess correctly and
you'll find a mound of jewels, guess incorrectly and you'll be run over by a bus." Chance
hides which fork is safe (left or right, even odds); the traveller (seat 0) does not see it.
Utilities: gold 1, jewels 10, the bus -100 (seat 1, the world, gets the negation and never
moves). In every world PIMC's clairvoyant search takes road B and the right fork (10), so
PIMC's average prefers B (10 > 1); but at the fork the traveller still does not know the
safe side, so B is truly worth (10 - 100) / 2 = -45 and A (1) is the right move.

A state is ``(safe_fork, moves)``: ``safe_fork`` ``None`` before chance picks it, then
``"left"``/``"right"``; ``moves`` the traveller's moves so far.

Nothing in the library imports this module, yet it is kept in the package: it is the
documentation's worked example of strategy fusion (``docs/algorithms/hidden.md`` imports
it, as a reader does), not code for the tests alone.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ..game import CHANCE, Game, GameType

GOLD, JEWELS, BUS = 1.0, 10.0, -100.0
RoadState = tuple[str | None, tuple[str, ...]]


class Road(Game[RoadState, str]):
    name = "road"
    description = "the road example: gold, or a guess between jewels and a bus (PIMC errs)"
    num_players = 2
    game_type = GameType(num_players=2, chance=True, perfect_information=False)
    max_utility = 100.0

    def initial_state(self) -> RoadState:
        return (None, ())

    def to_move(self, state: RoadState) -> int:
        return CHANCE if state[0] is None else 0

    def chance_outcomes(self, state: RoadState) -> list[tuple[str, float]]:
        return [("left", 0.5), ("right", 0.5)]

    def actions(self, state: RoadState) -> list[str]:
        if state[0] is None:
            return ["left", "right"]
        moves = state[1]
        if not moves:
            return ["A", "B"]
        return ["left", "right"] if moves == ("B",) else []

    def result(self, state: RoadState, action: str) -> RoadState:
        if state[0] is None:
            return (action, ())
        return (state[0], (*state[1], action))

    def is_terminal(self, state: RoadState) -> bool:
        return state[1] == ("A",) or len(state[1]) == 2

    def returns(self, state: RoadState) -> list[float]:
        moves = state[1]
        v = GOLD if moves == ("A",) else JEWELS if moves[1] == state[0] else BUS
        return [v, -v]

    def observation(self) -> RoadObservation:
        return RoadObservation()


class RoadWorld(Road):
    """The clairvoyant game of one world (the safe fork in view)."""

    name = "road-world"
    game_type = GameType(num_players=2, chance=False, perfect_information=True)

    def observation(self) -> None:  # type: ignore[override]
        return None


class RoadObservation:
    """The traveller sees its own moves, never the safe fork."""

    world = RoadWorld()

    def observe(self, state: RoadState, seat: int | None) -> tuple[int | None, tuple[str, ...]]:
        return (seat, state[1])

    def public_game(self) -> Road:
        return Road()

    def actions(self, observation: Hashable) -> list[str]:
        moves: tuple[str, ...] = observation[1]  # type: ignore[index]
        return Road().actions(("left", moves))

    def sampler(self, observation: Hashable) -> tuple[None, None]:
        return None, None

    def sample(self, observation: Hashable, rng: random.Random, sampler: Any = None
               ) -> RoadState:
        moves: tuple[str, ...] = observation[1]  # type: ignore[index]
        return (rng.choice(["left", "right"]), moves)

    def worlds(self, observation: Hashable) -> list[tuple[RoadState, float]]:
        """Every state the view may be, with its probability (exact)."""
        moves: tuple[str, ...] = observation[1]  # type: ignore[index]
        return [(("left", moves), 0.5), (("right", moves), 0.5)]

    def describe(self, observation: Hashable) -> str:
        moves: tuple[str, ...] = observation[1]  # type: ignore[index]
        return f"moves so far: {' '.join(moves) or '(none)'}"


def true_action_values(game: Game[Any, Any], worlds: Sequence[tuple[Any, float]],
                       seat: int) -> dict[Any, float]:
    """Each action's true value for ``seat`` when only ``seat`` moves from here on, playing
    from what it observes (no clairvoyance): the expectation over ``worlds`` (states and
    probabilities sharing one view) of the best strategy over information sets, found by
    grouping the states each action leads to by the view they give."""
    observation = game.observation()
    assert observation is not None
    total = sum(p for _, p in worlds)

    def value(group: Sequence[tuple[Any, float]]) -> float:
        s0 = group[0][0]
        if game.is_terminal(s0):
            return sum(p * game.returns(s)[seat] for s, p in group)
        return max(action_value(group, a) for a in game.actions(s0))

    def action_value(group: Sequence[tuple[Any, float]], a: Any) -> float:
        by_view: dict[Hashable, list[tuple[Any, float]]] = {}
        for s, p in group:
            child = game.result(s, a)
            by_view.setdefault(observation.observe(child, seat), []).append((child, p))
        return sum(value(g) for g in by_view.values())

    return {a: action_value(worlds, a) / total for a in game.actions(worlds[0][0])}


__all__ = ["Road", "RoadObservation", "RoadWorld", "true_action_values"]
