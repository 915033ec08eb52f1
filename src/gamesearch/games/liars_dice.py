"""Liar's Dice with one six-sided die each, OpenSpiel's ``liars_dice`` (``numdice=1``, its
default; bidding rule ``reset-face``) move for move.

Chance rolls player 0's die, then player 1's (chance actions 0-5: faces 1-6). Player 0
bids first; players alternate, each bid higher than the last: bid ``b`` (0-11) claims at
least ``b // 6 + 1`` dice showing ``b % 6 + 1`` among both dice, sixes wild. Instead of
bidding, a player may call the last bid a lie (action 12, ``liar``). The dice are shown:
the bidder wins 1 if the claim holds, else the caller does. 24,576 information sets (a
player's die and the bids so far).

A seat's view (:class:`DiceView`) is its die and the bids; its ``str`` is OpenSpiel's
information-state string (``"3 1-2 2-6"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPositionError
from ..game import CHANCE, GameType
from .history import History, HistoryGame

SIDES = 6
DICE = 2
LIAR = DICE * SIDES


def bid_name(bid: int) -> str:
    return "liar" if bid == LIAR else f"{bid // SIDES + 1}-{bid % SIDES + 1}"


@dataclass(frozen=True)
class DiceView:
    """What ``seat`` sees: its die's face (0 before the roll) and the bids so far."""

    seat: int
    face: int
    bids: tuple[int, ...]

    def __str__(self) -> str:
        return str(self.face or -1) + "".join(
            " Liar" if b == LIAR else f" {bid_name(b)}" for b in self.bids)


def _legal_bids(bids: tuple[int, ...]) -> list[int]:
    if bids and bids[-1] == LIAR:
        return []
    out = list(range(bids[-1] + 1 if bids else 0, LIAR))
    return [*out, LIAR] if bids else out


class LiarsDice(HistoryGame):
    name = "liars_dice"
    description = "Liar's Dice, one die each, sixes wild (OpenSpiel's liars_dice)"
    game_type = GameType(num_players=2, chance=True, perfect_information=False,
                         zero_sum=True, constant_sum=0.0, value_bounds=(-1.0, 1.0))
    max_utility = 1.0

    def to_move(self, state: History) -> int:
        return CHANCE if len(state) < DICE else (len(state) - DICE) % 2

    def is_terminal(self, state: History) -> bool:
        return len(state) > DICE and state[-1] == LIAR

    def chance_outcomes(self, state: History) -> list[tuple[int, float]]:
        return [(face, 1 / SIDES) for face in range(SIDES)]

    def actions(self, state: History) -> list[int]:
        if len(state) < DICE:
            return list(range(SIDES))
        return _legal_bids(state[DICE:])

    def returns(self, state: History) -> list[float]:
        if not self.is_terminal(state):
            return [0.0, 0.0]
        bids = state[DICE:]
        caller = (len(bids) - 1) % 2
        claim = bids[-2]
        quantity, face = claim // SIDES + 1, claim % SIDES + 1
        matches = sum(1 for d in state[:DICE] if d + 1 in (face, SIDES))
        winner = 1 - caller if matches >= quantity else caller
        out = [0.0, 0.0]
        out[winner], out[1 - winner] = 1.0, -1.0
        return out

    def format_action(self, state: History, action: int) -> str:
        return str(action + 1) if len(state) < DICE else bid_name(action)

    # ----- views ------------------------------------------------------------------------
    def view(self, state: History, seat: int) -> DiceView:
        return DiceView(seat, state[seat] + 1 if len(state) > seat else 0, state[DICE:])

    def view_actions(self, view: Any) -> list[int]:
        v = _view(view)
        if not v.face or len(v.bids) % 2 != v.seat:
            return []
        return _legal_bids(v.bids)

    def describe_view(self, view: Any) -> str:
        v = _view(view)
        die = f"your die shows {v.face}" if v.face else "no die yet"
        bids = " ".join(bid_name(b) for b in v.bids) or "none"
        return f"you are player {v.seat}; {die} (sixes wild); bids so far: {bids}"

    def candidates(self, view: Any) -> list[int]:
        v = _view(view)
        if not v.face:
            raise InvalidPositionError("liars_dice: nothing to sample before the roll")
        return list(range(SIDES))

    def assemble(self, view: Any, hidden: Any) -> History:
        v = _view(view)
        dice = (v.face - 1, hidden) if v.seat == 0 else (hidden, v.face - 1)
        return (*dice, *v.bids)


def _view(view: Any) -> DiceView:
    if not isinstance(view, DiceView):
        raise InvalidPositionError(f"liars_dice: {type(view).__name__} is not a seat's view "
                                   "(DiceView)")
    return view
