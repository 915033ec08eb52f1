"""Goofspiel with four cards and hidden bids: OpenSpiel's ``goofspiel(num_cards=4,
imp_info=True)`` (points in random order, win/loss returns) made turn-based the way
OpenSpiel's ``convert_to_turn_based`` does it, move for move.

Each player holds the cards 1-4 (actions 0-3). A turn: chance turns up a point card (1-4,
chance actions 0-3, uniform over those left); player 0 bids a card, then player 1 -- who
does not see player 0's bid, nor later the cards either played: both see only who won the
turn. The higher bid takes the point card's value; equal bids discard it. After three
turns the last cards are played by themselves. More points wins (+1/-1, a draw 0).

A seat's view (:class:`GoofView`) is its own bids, the point cards, who won each turn and
who is to move; its ``str`` is OpenSpiel's (turn-based) information-state string.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Any

from ..errors import InvalidPositionError
from ..game import CHANCE, GameType
from .history import History, HistoryGame

CARDS = 4
TURNS = CARDS - 1  # the last turn plays itself
#: OpenSpiel's win-sequence entry of a turn of equal bids
TIE = -3


def _turns(history: History) -> list[tuple[int, int, int]]:
    """(point card, bid 0, bid 1) of each finished turn, the automatic last one included
    once the game is over."""
    out = [tuple(history[i:i + 3]) for i in range(0, len(history) - 2, 3)]
    if len(history) == 3 * TURNS:
        left = [[c for c in range(CARDS) if c not in {t[k] for t in out}] for k in range(3)]
        out.append((left[0][0], left[1][0], left[2][0]))
    return [(t[0], t[1], t[2]) for t in out]


def _winner(bid0: int, bid1: int) -> int:
    return TIE if bid0 == bid1 else (0 if bid0 > bid1 else 1)


def _points(wins: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, int]:
    score = [0, 0]
    for w, p in zip(wins, points, strict=False):
        if w != TIE:
            score[w] += p + 1
    return score[0], score[1]


@dataclass(frozen=True)
class GoofView:
    """What ``seat`` sees: its bids, the point cards turned up, the winner of each
    finished turn (:data:`TIE` for equal bids) and the player to move (``CHANCE``, or
    ``-4`` once over, as OpenSpiel prints it)."""

    seat: int
    bids: tuple[int, ...]
    points: tuple[int, ...]
    wins: tuple[int, ...]
    mover: int

    def __str__(self) -> str:
        bids, pending = self.bids, ""
        if len(bids) > len(self.wins):  # its bid of this turn, not yet played out
            bids, pending = bids[:-1], f"Observer's action this turn: {bids[-1]}\n"
        hand = "".join(f"{c + 1} " for c in range(CARDS) if c not in bids)
        score = _points(self.wins, self.points)
        return (f"Current player: {self.mover}\n{pending}P{self.seat} hand: {hand}\n"
                f"P{self.seat} action sequence: {''.join(f'{b} ' for b in bids)}\n"
                f"Point card sequence: {''.join(f'{p + 1} ' for p in self.points)}\n"
                f"Win sequence: {''.join(f'{w} ' for w in self.wins)}\n"
                f"Points: {score[0]} {score[1]} \n"
                f"Terminal?: {int(self.mover == -4)}\n")


class Goofspiel(HistoryGame):
    name = "goofspiel"
    description = ("Goofspiel, 4 cards, hidden bids (OpenSpiel's goofspiel(num_cards=4,"
                   "imp_info=True), turn-based)")
    game_type = GameType(num_players=2, chance=True, perfect_information=False,
                         zero_sum=True, constant_sum=0.0, value_bounds=(-1.0, 1.0))
    max_utility = 1.0
    private_deals = 0

    def to_move(self, state: History) -> int:
        return CHANCE if len(state) % 3 == 0 else len(state) % 3 - 1

    def is_terminal(self, state: History) -> bool:
        return len(state) == 3 * TURNS

    def chance_outcomes(self, state: History) -> list[tuple[int, float]]:
        left = [c for c in range(CARDS) if c not in state[0::3]]
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: History) -> list[int]:
        if self.is_terminal(state):
            return []
        k = len(state) % 3
        if k == 0:
            return [c for c, _ in self.chance_outcomes(state)]
        return [c for c in range(CARDS) if c not in state[k::3]]

    def returns(self, state: History) -> list[float]:
        if not self.is_terminal(state):
            return [0.0, 0.0]
        turns = _turns(state)
        score = _points(tuple(_winner(b0, b1) for _, b0, b1 in turns),
                        tuple(p for p, _, _ in turns))
        if score[0] == score[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if score[0] > score[1] else [-1.0, 1.0]

    def format_action(self, state: History, action: int) -> str:
        return f"p{action + 1}" if len(state) % 3 == 0 else str(action + 1)

    def public_text(self, state: History) -> str:
        words: list[str] = []
        for i, a in enumerate(state):
            words.append(self.format_action(state[:i], a) if i % 3 == 0 else "?")
        return " ".join(words) or "-"

    # ----- views ------------------------------------------------------------------------
    def view(self, state: History, seat: int) -> GoofView:
        turns = _turns(state)
        over = self.is_terminal(state)
        points = tuple(p for p, _, _ in turns) if over else state[0::3]
        return GoofView(seat, tuple(t[1 + seat] for t in turns) if over else
                        state[1 + seat::3], points,
                        tuple(_winner(b0, b1) for _, b0, b1 in turns),
                        -4 if over else self.to_move(state))

    def view_actions(self, view: Any) -> list[int]:
        v = _view(view)
        if v.mover != v.seat:
            return []
        return [c for c in range(CARDS) if c not in v.bids]

    def describe_view(self, view: Any) -> str:
        v = _view(view)
        score = _points(v.wins, v.points)
        hand = " ".join(str(c + 1) for c in range(CARDS) if c not in v.bids)
        won = " ".join("tie" if w == TIE else f"player {w}" for w in v.wins) or "none yet"
        return (f"you are player {v.seat}; your cards: {hand}\n"
                f"point cards: {' '.join(str(p + 1) for p in v.points) or 'none yet'}\n"
                f"turns won: {won}; points {score[0]} - {score[1]}")

    def candidates(self, view: Any) -> list[tuple[int, ...]]:
        """The opponent's bids consistent with the view (its bid of this turn too when it
        has moved and the seat has not)."""
        v = _view(view)
        if v.mover == -4:
            raise InvalidPositionError("goofspiel: nothing to sample after the end")
        count = len(v.wins) + (1 if v.seat == 1 and v.mover == 1 else 0)
        out = []
        for bids in permutations(range(CARDS), count):
            pairs = zip(v.bids, bids, strict=False) if v.seat == 0 else \
                zip(bids, v.bids, strict=False)
            if tuple(_winner(a, b) for a, b in pairs)[:len(v.wins)] == v.wins:
                out.append(bids)
        return out

    def assemble(self, view: Any, hidden: Any) -> History:
        v = _view(view)
        state: list[int] = []
        for i, p in enumerate(v.points):
            state.append(p)
            mine = v.bids[i] if i < len(v.bids) else None
            theirs = hidden[i] if i < len(hidden) else None
            for b in ((mine, theirs) if v.seat == 0 else (theirs, mine)):
                if b is None:
                    return tuple(state)
                state.append(b)
        return tuple(state)


def _view(view: Any) -> GoofView:
    if not isinstance(view, GoofView):
        raise InvalidPositionError(f"goofspiel: {type(view).__name__} is not a seat's view "
                                   "(GoofView)")
    return view
