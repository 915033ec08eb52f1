"""Tic-tac-toe: the smallest complete game of the library — copy this file to add a game.

State: one int. Bits 0-8 hold X's squares, bits 9-17 O's, bit 18 is set when O is to move.
Squares are numbered 1-9 in reading order (``1 2 3 / 4 5 6 / 7 8 9``); internally 0-8.
Positions are written as nine characters in reading order, ``x``, ``o`` or ``.``
(for example ``x...o....``); the player to move follows from the counts.

Utilities are +1 / 0 / -1 for X (player 0). The ``order`` option decides the order in which
``actions`` lists the empty squares: ``"natural"`` (0..8, the textbook's and the peers' order)
or ``"center"`` (centre, corners, edges), which shows what move ordering buys alpha-beta.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from ..capabilities import Drawing, Evaluation
from ..errors import InvalidLimitError, InvalidPositionError
from ..game import Game, GameType
from ..spec import GameOption

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
TURN = 1 << 18
FULL = 0x1FF
ORDERS = {
    "natural": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "center": (4, 0, 2, 6, 8, 1, 3, 5, 7),
}

# WON[m] is True when the 9-bit mask m contains a line.
WON = [any(all(m >> i & 1 for i in line) for line in LINES) for m in range(512)]

def _terminal_status() -> list[float | None]:
    """``STATUS[state]``: X's utility when the board is over, else None, for every state
    (``x | o << 9``, the turn bit 18 either way: 2^19 entries).

    One list index answers IS-TERMINAL and UTILITY together, the test the search runs at
    every node; building it takes a few tens of milliseconds, once per process.
    """
    status: list[float | None] = [None] * (1 << 18)
    for o in range(512):
        row, o_won = o << 9, WON[o]
        for x in range(512):
            if x & o:
                continue
            if WON[x]:
                status[row | x] = 1.0
            elif o_won:
                status[row | x] = -1.0
            elif x | o == FULL:
                status[row | x] = 0.0
    return status + status  # the same with the turn bit set


_STATUS: list[list[float | None]] = []  # built by the first TicTacToe()


def _empty_squares(order: Sequence[int]) -> list[tuple[int, ...]]:
    """For every occupancy mask, the empty squares in the given order."""
    return [tuple(sq for sq in order if not occ >> sq & 1) for occ in range(512)]


class TicTacToe(Game[int, int]):
    name = "tictactoe"
    description = "Tic-tac-toe on a 3x3 board; squares 1-9 in reading order"
    num_players = 2
    game_type = GameType(num_players=2, alternating=True)
    max_utility = 1.0
    state_notation = "nine characters x, o or . in reading order, e.g. x...o...."
    options = (GameOption("order", str, "natural", tuple(ORDERS),
                          "the order actions are listed in (searches try them in it)"),)

    def __init__(self, order: str = "natural") -> None:
        if order not in ORDERS:
            raise InvalidLimitError(f"tictactoe order {order!r}; allowed: {', '.join(ORDERS)}")
        self.order = order
        self._empty = _empty_squares(ORDERS[order])
        if not _STATUS:
            _STATUS.append(_terminal_status())
        self._status = _STATUS[0]

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state >> 18

    def actions(self, state: int) -> Sequence[int]:
        return self._empty[(state | state >> 9) & FULL]

    def result(self, state: int, action: int) -> int:
        return (state | 1 << (action + 9 * (state >> 18))) ^ TURN

    def is_terminal(self, state: int) -> bool:
        return WON[state & FULL] or WON[state >> 9 & FULL] or (state | state >> 9) & FULL == FULL

    def utility(self, state: int, player: int) -> float:
        if WON[state & FULL]:
            return -1.0 if player else 1.0
        if WON[state >> 9 & FULL]:
            return 1.0 if player else -1.0
        return 0.0

    def terminal_utility(self, state: int, player: int) -> float | None:
        u = self._status[state]
        if player and u:
            return -u
        return u

    def returns(self, state: int) -> tuple[float, float]:
        u = self.utility(state, 0)
        return (u, -u)

    # A simple heuristic for depth-limited play: open lines for me minus open lines for them.
    def evaluation(self, name: str | None = None) -> Evaluation[int] | None:
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: int, player: int) -> float:
        x, o = state & FULL, state >> 9 & FULL
        score = 0
        for line in LINE_MASKS:
            if not line & o:
                score += 1
            if not line & x:
                score -= 1
        value = score / 10.0  # at most 8 open lines: stays inside (-1, 1)
        return -value if player else value

    def format_action(self, state: int, action: int) -> str:
        return str(action + 1)

    def parse_action(self, state: int, text: str) -> int:
        return super().parse_action(state, text)

    def format_state(self, state: int) -> str:
        return "".join(
            "x" if state >> i & 1 else "o" if state >> (i + 9) & 1 else "." for i in range(9)
        )

    def parse_state(self, text: str) -> int:
        text = text.strip().lower()
        if len(text) != 9 or any(c not in "xo." for c in text):
            raise InvalidPositionError(
                f"tictactoe position {text!r}: expected {self.state_notation}"
            )
        x = sum(1 << i for i, c in enumerate(text) if c == "x")
        o = sum(1 << i for i, c in enumerate(text) if c == "o")
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise InvalidPositionError(
                f"tictactoe position {text!r}: X has {nx} marks and O {no}; X moves first, "
                "so X must have as many marks as O or one more"
            )
        if WON[x] and WON[o]:
            raise InvalidPositionError(f"tictactoe position {text!r}: both players have a line")
        if (WON[x] and nx == no) or (WON[o] and nx > no):
            raise InvalidPositionError(
                f"tictactoe position {text!r}: a player kept moving after the game was won"
            )
        return x | o << 9 | (TURN if nx > no else 0)

    def drawing(self) -> Drawing[int]:
        """The position as SVG, legal moves clickable (see :mod:`.tictactoe_svg`)."""
        from .tictactoe_svg import render

        return Drawing(partial(render, self))

    def render(self, state: int) -> str:
        cells = self.format_state(state)
        rows = []
        for r in range(3):
            rows.append(
                " ".join(
                    cells[3 * r + c].upper() if cells[3 * r + c] != "." else str(3 * r + c + 1)
                    for c in range(3)
                )
            )
        return "\n".join(rows)


LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)
