"""A game defined outside the library, for the tests of game specs and registration.

It is loaded the ways a user's game is: by module path (``py:outside_game:Subtraction``,
``tests/`` being on the path), by a ``gamesearch.games`` entry point (the tests write a
``*.dist-info`` for it), or by :func:`gamesearch.games.register`. The subtraction game: a pile
of counters, each player takes 1 to ``take`` of them, whoever takes the last one wins (loses,
with ``misere=1``). It declares an option of every kind a :class:`GameOption` reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamesearch.errors import InvalidPositionError
from gamesearch.game import Game, GameType
from gamesearch.spec import GameOption

#: A state: (counters left, player to move).
State = tuple[int, int]


class Subtraction(Game[State, int]):
    name = "subtraction"
    description = "the subtraction game: take 1 to TAKE counters, the last one wins"
    num_players = 2
    game_type = GameType(num_players=2, alternating=True)
    state_notation = "counters left, then / and the player to move (1 or 2): 7/1"
    options = (
        GameOption("pile", int, 10, (1, 60), "counters at the start"),
        GameOption("take", int, 3, (1, 9), "most counters a move takes"),
        GameOption("misere", bool, False, None, "taking the last counter loses"),
        GameOption("prize", float, 1.0, (0.5, 10.0), "what a win is worth"),
        GameOption("first", str, "one", ("one", "two"), "who moves first"),
    )

    def __init__(self, pile: int = 10, take: int = 3, misere: bool = False, prize: float = 1.0,
                 first: str = "one") -> None:
        self.pile, self.take, self.misere, self.prize, self.first = pile, take, misere, prize, first
        self.max_utility = prize

    def initial_state(self) -> State:
        return (self.pile, 0 if self.first == "one" else 1)

    def to_move(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> Sequence[int]:
        return list(range(1, min(self.take, state[0]) + 1))

    def result(self, state: State, action: int) -> State:
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def returns(self, state: State) -> Sequence[float]:
        took_last = 1 - state[1]
        winner = 1 - took_last if self.misere else took_last
        return [self.prize if p == winner else -self.prize for p in range(2)]

    def format_state(self, state: State) -> str:
        return f"{state[0]}/{state[1] + 1}"

    def parse_state(self, text: str) -> State:
        left, _, who = text.strip().partition("/")
        if not (left.isascii() and left.isdigit() and who in ("1", "2")) or int(left) > 60:
            raise InvalidPositionError(f"subtraction position {text[:40]!r}: expected "
                                       f"{self.state_notation}")
        return (int(left), int(who) - 1)
