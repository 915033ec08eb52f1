"""A small n-player game for the tests of the 3-to-6-seat arena and front ends.

The race: ``players`` tokens start at 0 on a track of ``goal`` squares; the player to move
advances its token by 1 to ``step`` squares, or *bumps* the token just ahead of it back by
one square (``b``; only when some other token is strictly ahead and above 0). The game ends
when a token reaches the goal, or after ``limit`` turns. Returns: each player's square
(higher is better), so players on the same square tie and share a rank. Not constant-sum, as
max^n allows. Options: ``players`` (2..6), ``goal``, ``step``, ``limit``.

Loaded as any user's game: ``py:nplayer_game:Race:players=3`` (``tests/`` on the path) or by
:func:`gamesearch.games.register`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamesearch.capabilities import Evaluation
from gamesearch.errors import IllegalMoveError, InvalidPositionError
from gamesearch.game import Game, GameType
from gamesearch.spec import GameOption

#: A state: (squares of every player, player to move, turns played).
State = tuple[tuple[int, ...], int, int]
#: An action: squares advanced (1..step), or 0 for a bump.
Action = int


class Race(Game[State, Action]):
    name = "race"
    description = "an n-player race: advance 1..STEP squares or bump the token ahead back"
    num_players = 3
    game_type = GameType(num_players=3)
    state_notation = "squares by player, / and the player to move (1..n), / turns: 0,2,1/2/3"
    options = (
        GameOption("players", int, 3, (2, 6), "number of players"),
        GameOption("goal", int, 6, (2, 40), "squares to the goal"),
        GameOption("step", int, 2, (1, 4), "most squares a move advances"),
        GameOption("limit", int, 60, (2, 400), "turns before the game ends"),
    )

    def __init__(self, players: int = 3, goal: int = 6, step: int = 2, limit: int = 60) -> None:
        self.players = self.num_players = players  # (options are attributes: Game.spec)
        self.game_type = GameType(num_players=players)
        self.goal, self.step, self.limit = goal, step, limit
        self.max_utility = float(goal)

    def initial_state(self) -> State:
        return ((0,) * self.num_players, 0, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def _ahead(self, state: State) -> int | None:
        squares, p, _ = state
        above = [(s, q) for q, s in enumerate(squares) if s > squares[p] and s > 0]
        return min(above)[1] if above else None

    def actions(self, state: State) -> Sequence[Action]:
        moves = list(range(1, self.step + 1))
        return [*moves, 0] if self._ahead(state) is not None else moves

    def result(self, state: State, action: Action) -> State:
        squares, p, turns = state
        new = list(squares)
        if action == 0:
            target = self._ahead(state)
            assert target is not None
            new[target] -= 1
        else:
            new[p] = min(self.goal, new[p] + action)
        return (tuple(new), (p + 1) % self.num_players, turns + 1)

    def is_terminal(self, state: State) -> bool:
        return max(state[0]) >= self.goal or state[2] >= self.limit

    def returns(self, state: State) -> Sequence[float]:
        return [float(s) for s in state[0]]

    def evaluation(self, name: str | None = None) -> Evaluation[State] | None:
        return Evaluation(self.evaluate)

    def evaluate(self, state: State, player: int) -> float:
        """The player's square minus the best other square, over the goal (in (-1, 1))."""
        squares = state[0]
        others = max(s for p, s in enumerate(squares) if p != player)
        return (squares[player] - others) / (self.goal + 1)

    def format_action(self, state: State, action: Action) -> str:
        return "b" if action == 0 else str(action)

    def parse_action(self, state: State, text: str) -> Action:
        t = text.strip().lower()
        action = 0 if t == "b" else int(t) if t.isascii() and t.isdigit() else -1
        if action not in self.actions(state):
            raise IllegalMoveError(text, [self.format_action(state, a)
                                          for a in self.actions(state)])
        return action

    def format_state(self, state: State) -> str:
        return f"{','.join(map(str, state[0]))}/{state[1] + 1}/{state[2]}"

    def parse_state(self, text: str) -> State:
        parts = text.strip().split("/")
        try:
            squares = tuple(int(x) for x in parts[0].split(","))
            who, turns = int(parts[1]) - 1, int(parts[2])
        except (ValueError, IndexError):
            raise InvalidPositionError(f"race position {text[:40]!r}: expected "
                                       f"{self.state_notation}") from None
        if (len(parts) != 3 or len(squares) != self.num_players
                or not all(0 <= s <= self.goal for s in squares)
                or not 0 <= who < self.num_players or not 0 <= turns <= self.limit):
            raise InvalidPositionError(f"race position {text[:40]!r}: expected "
                                       f"{self.state_notation}")
        return (squares, who, turns)
