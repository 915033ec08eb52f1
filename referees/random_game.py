"""A random constant-sum game for n players: a stand-in for the multi-player board games
in tests and benchmarks (not in the registry).

The tree is implicit and the same for the same seed: a position is ``(node, ply, mover,
points)``; at each node the player to move has ``branching`` moves (a number in
``lo..hi`` drawn from the node's hash), and move ``a`` earns the mover 0-3 points (drawn
from the hash too), so positions deeper in a good line are better for their player — the
correlation between the evaluation and the result that real games have and uniform random
leaves lack (Sturtevant 2003 measured pruning on both). The game ends after ``length``
moves. Utilities and the evaluation are the same constant-sum vector: each player's share
of the points scored so far, in whole numbers summing to :data:`TOTAL` (largest remainder;
equal shares when nobody scored), so ``GameType.constant_sum`` and ``value_bounds`` hold and
ties are common. It offers :class:`~gamesearch.capabilities.TurnPassing` (the mover is a
field of the position), so best-reply search can let an opponent move out of turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamesearch.capabilities import Evaluation, TurnPassing
from gamesearch.errors import IllegalMoveError, InvalidLimitError
from gamesearch.game import Game, GameType

#: what the players' shares sum to
TOTAL = 12

State = tuple[int, int, int, tuple[int, ...]]


def _mix(x: int) -> int:
    """A 64-bit mixer (splitmix64's finaliser)."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def shares(points: Sequence[int], total: int = TOTAL) -> tuple[int, ...]:
    """Whole-number shares of ``total`` in proportion to ``points`` (largest remainder,
    ties to the lower seat; equal shares, the remainder to the first seats, when all are
    zero)."""
    n = len(points)
    s = sum(points)
    if s == 0:
        base, extra = divmod(total, n)
        return tuple(base + (1 if i < extra else 0) for i in range(n))
    exact = [total * p for p in points]
    out = [e // s for e in exact]
    order = sorted(range(n), key=lambda i: (-(exact[i] % s), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return tuple(out)


class RandomGame(Game[State, int]):
    """``RandomGame(players=3, branching=(8, 12), length=12, seed=0)``."""

    state_notation = "node.ply.mover.p0-p1-...: the node hash, ply, mover and points"

    def __init__(self, players: int = 3, branching: int | tuple[int, int] = (8, 12),
                 length: int = 12, seed: int = 0) -> None:
        lo, hi = (branching, branching) if isinstance(branching, int) else branching
        if not 2 <= players <= 6:
            raise InvalidLimitError(f"players {players!r}: 2 to 6")
        if not 1 <= lo <= hi:
            raise InvalidLimitError(f"branching {branching!r}: need 1 <= lo <= hi")
        if length < 1:
            raise InvalidLimitError(f"length {length!r}: at least 1")
        self.name = f"random{players}"
        self.description = f"random constant-sum game, {players} players"
        self.num_players = players
        self.lo, self.hi, self.length, self.seed = lo, hi, length, seed
        self.game_type = GameType(num_players=players, zero_sum=False,
                                  constant_sum=float(TOTAL), value_bounds=(0.0, float(TOTAL)))
        self.max_utility = 10.0 * TOTAL  # no share is a "win" to discount by distance

    def initial_state(self) -> State:
        return (_mix(self.seed), 0, 0, (0,) * self.num_players)

    def to_move(self, state: State) -> int:
        return state[2]

    def actions(self, state: State) -> Sequence[int]:
        if state[1] >= self.length:
            return ()
        return range(self.lo + _mix(state[0]) % (self.hi - self.lo + 1))

    def result(self, state: State, action: int) -> State:
        node, ply, mover, points = state
        if ply >= self.length or not 0 <= action < len(self.actions(state)):
            raise IllegalMoveError(str(action), [str(a) for a in self.actions(state)])
        h = _mix(node * 31 + action + 1)
        gained = list(points)
        gained[mover] += h % 4
        return (h, ply + 1, (mover + 1) % self.num_players, tuple(gained))

    def is_terminal(self, state: State) -> bool:
        return state[1] >= self.length

    def returns(self, state: State) -> tuple[float, ...]:
        return tuple(float(x) for x in shares(state[3]))

    def utility(self, state: State, player: int) -> float:
        return self.returns(state)[player]

    def evaluate(self, state: State, player: int) -> float:
        return float(shares(state[3])[player])

    def evaluation(self, name: str | None = None) -> Evaluation[State] | None:
        return None if name is not None else Evaluation(self.evaluate)

    def turn_passing(self) -> TurnPassing[State] | None:
        return TurnPassing(self.give_turn)

    @staticmethod
    def give_turn(state: State, player: int) -> State:
        return (state[0], state[1], player, state[3])

    def format_state(self, state: State) -> str:
        return f"{state[0]}.{state[1]}.{state[2]}.{'-'.join(map(str, state[3]))}"

    def parse_action(self, state: State, text: str) -> Any:
        try:
            a = int(text)
        except ValueError:
            raise IllegalMoveError(text, [str(a) for a in self.actions(state)]) from None
        if a not in self.actions(state):
            raise IllegalMoveError(text, [str(a) for a in self.actions(state)])
        return a
