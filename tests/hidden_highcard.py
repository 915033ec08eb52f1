"""A third hidden-information game, written in the tests only: ``tests/test_information_sets.py``
finds every ``GAME`` of a ``tests/hidden_*.py`` module and holds it to the boundary without
being edited.

High card (Kuhn poker's betting on six cards): chance deals each of two players one card
of 1..6 (no two alike, in turn); then player 1 bets or checks; after a bet the other calls
or folds; after a check player 2 bets or checks, and after that bet player 1 calls or
folds. The higher card wins 1 (2 when a bet is called); a fold loses 1. A seat sees its own
card and the moves; a spectator the moves.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

from gamesearch.capabilities import Drawing
from gamesearch.errors import IllegalMoveError, InvalidPositionError
from gamesearch.game import CHANCE, Game, GameType

CARDS = range(1, 7)
#: a state: the cards dealt (player 1's, then player 2's), the moves made
State = tuple[tuple[int, ...], tuple[str, ...]]


ENDS = {("check", "check"), ("bet", "call"), ("bet", "fold"), ("check", "bet", "call"),
        ("check", "bet", "fold")}


def options(moves: tuple[str, ...]) -> list[str]:
    """The betting actions after ``moves``."""
    return ["call", "fold"] if moves and moves[-1] == "bet" else ["bet", "check"]


class View(NamedTuple):
    """A seat's information set (the agents read its ``seat``)."""

    seat: int | None
    own: int | None
    dealt: int
    moves: tuple[str, ...]



class HighCard(Game[State, Any]):
    name = "highcard"
    description = "high card: one hidden card each, bet or check, call or fold"
    num_players = 2
    game_type = GameType(num_players=2, chance=True, perfect_information=False)
    max_utility = 2.0
    state_notation = "the two cards then the moves: '3 5 bet call'"

    def initial_state(self) -> State:
        return ((), ())

    def to_move(self, state: State) -> int:
        return CHANCE if len(state[0]) < 2 else len(state[1]) % 2

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        left = [c for c in CARDS if c not in state[0]]
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: State) -> list[Any]:
        if len(state[0]) < 2:
            return [c for c, _ in self.chance_outcomes(state)]
        return options(state[1])

    def result(self, state: State, action: Any) -> State:
        if len(state[0]) < 2:
            return ((*state[0], action), state[1])
        return (state[0], (*state[1], action))

    def is_terminal(self, state: State) -> bool:
        return state[1] in ENDS

    def returns(self, state: State) -> list[float]:
        moves = state[1]
        if moves[-1] == "fold":  # the one who folds loses 1
            loser = (len(moves) - 1) % 2
            return [-1.0, 1.0] if loser == 0 else [1.0, -1.0]
        stake = 2.0 if moves[-1] == "call" else 1.0
        first = stake if state[0][0] > state[0][1] else -stake
        return [first, -first]

    def format_action(self, state: State, action: Any) -> str:
        return str(action)

    def parse_action(self, state: State, text: str) -> Any:
        for a in self.actions(state):
            if str(a) == text.strip().lower():
                return a
        raise IllegalMoveError(text, [str(a) for a in self.actions(state)])

    def format_state(self, state: State) -> str:
        return " ".join([*map(str, state[0]), *state[1]]) or "-"

    def parse_state(self, text: str) -> State:
        state = self.initial_state()
        for word in text.split():
            if word == "-":
                continue
            try:
                state = self.result(state, self.parse_action(state, word))
            except IllegalMoveError as exc:
                raise InvalidPositionError(f"highcard position {text!r}: {exc}") from None
        return state

    def render(self, state: State) -> str:
        return f"cards {state[0]}, moves {' '.join(state[1]) or '-'}"

    def observation(self) -> HighCardObservation:
        return HighCardObservation()

    def drawing(self) -> Drawing[State]:
        def draw(state: State, seat: int | str | None = None, **_: Any) -> str:
            cards = [str(c) if seat == "all" or seat == k else "?"
                     for k, c in enumerate(state[0])]
            return f"<svg><text>{' '.join(cards)} {' '.join(state[1])}</text></svg>"
        return Drawing(draw)


class World(HighCard):
    """Both cards in view: the perfect-information game of a sampled state."""

    game_type = GameType(num_players=2, chance=False, perfect_information=True)

    def observation(self) -> None:  # type: ignore[override]
        return None


class HighCardObservation:
    world = World()

    def observe(self, state: State, seat: int | None) -> View:
        own = state[0][seat] if seat is not None and seat < len(state[0]) else None
        return View(seat, own, len(state[0]), state[1])

    def actions(self, observation: Hashable) -> Sequence[Any]:
        seat, _own, dealt, moves = observation  # type: ignore[misc]
        if dealt < 2 or seat != len(moves) % 2 or moves in ENDS:
            return []
        return options(moves)

    def sampler(self, observation: Hashable) -> tuple[Any, Any]:
        return None, None

    def sample(self, observation: Hashable, rng: random.Random, sampler: Any = None
               ) -> State:
        seat, own, dealt, moves = observation  # type: ignore[misc]
        cards = [0, 0][:dealt]
        if seat is not None and own is not None:
            cards[seat] = own
        for k in range(dealt):
            if cards[k] == 0:
                cards[k] = rng.choice([c for c in CARDS if c not in cards])
        return (tuple(cards), moves)

    def describe(self, observation: Hashable) -> str:
        seat, own, _dealt, moves = observation  # type: ignore[misc]
        who = "a spectator" if seat is None else f"player {seat + 1}"
        lines = [f"{who} sees:"]
        if own is not None:
            lines.append(f"  your card: {own}")
        lines.append(f"  moves: {' '.join(moves) or '-'}")
        return "\n".join(lines)

    def public_game(self) -> HighCard:
        return HighCard()


GAME = HighCard()
