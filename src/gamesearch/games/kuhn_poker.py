"""Kuhn poker (Kuhn 1950), OpenSpiel's ``kuhn_poker`` move for move.

Three cards, J Q K (chance actions 0 1 2). Each player antes 1; chance deals player 0 a
card, then player 1 one of the two left. Player 0 passes or bets 1 (actions 0, 1), then
player 1; after a pass and a bet player 0 may call (bet) or fold (pass). Whoever folds
loses what they put in; otherwise the higher card takes the pot. The game value for
player 0 is -1/18; there are 12 information sets (a player's card and the bets so far).

A seat's view (:class:`KuhnView`) is its card and the bets; its ``str`` is OpenSpiel's
information-state string (``"1pb"``: the queen, pass then bet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPositionError
from ..game import CHANCE, GameType
from .history import History, HistoryGame

CARDS = "JQK"
PASS, BET = 0, 1
ACTIONS = ("pass", "bet")
#: the betting sequences that end the game
TERMINAL = {(PASS, PASS), (BET, PASS), (BET, BET), (PASS, BET, PASS), (PASS, BET, BET)}


@dataclass(frozen=True)
class KuhnView:
    """What ``seat`` sees: its card (-1 before the deal) and the bets so far."""

    seat: int
    card: int
    bets: tuple[int, ...]

    def __str__(self) -> str:
        return ("" if self.card < 0 else str(self.card)) + "".join("pb"[b] for b in self.bets)


class KuhnPoker(HistoryGame):
    name = "kuhn_poker"
    description = "Kuhn poker: cards J Q K, pass or bet (OpenSpiel's kuhn_poker)"
    game_type = GameType(num_players=2, chance=True, perfect_information=False,
                         zero_sum=True, constant_sum=0.0, value_bounds=(-2.0, 2.0))
    max_utility = 2.0

    def to_move(self, state: History) -> int:
        if len(state) < 2:
            return CHANCE
        return (len(state) - 2) % 2

    def is_terminal(self, state: History) -> bool:
        return state[2:] in TERMINAL

    def chance_outcomes(self, state: History) -> list[tuple[int, float]]:
        left = [c for c in range(3) if c not in state]
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: History) -> list[int]:
        if len(state) < 2:
            return [c for c in range(3) if c not in state]
        return [] if self.is_terminal(state) else [PASS, BET]

    def returns(self, state: History) -> list[float]:
        bets = state[2:]
        if bets not in TERMINAL:
            return [0.0, 0.0]
        put = [1 + sum(1 for i, b in enumerate(bets) if b == BET and i % 2 == p)
               for p in (0, 1)]
        if bets[-1] == PASS and BET in bets:  # the last to act folded
            loser = (len(bets) - 1) % 2
        else:
            loser = 0 if state[0] < state[1] else 1
        out = [0.0, 0.0]
        out[loser] = -float(put[loser])
        out[1 - loser] = float(put[loser])
        return out

    def format_action(self, state: History, action: int) -> str:
        return CARDS[action] if len(state) < 2 else ACTIONS[action]

    # ----- views ------------------------------------------------------------------------
    def view(self, state: History, seat: int) -> KuhnView:
        return KuhnView(seat, state[seat] if len(state) > seat else -1, state[2:])

    def view_actions(self, view: Any) -> list[int]:
        v = _view(view)
        if v.card < 0 or v.bets in TERMINAL or len(v.bets) % 2 != v.seat:
            return []
        return [PASS, BET]

    def describe_view(self, view: Any) -> str:
        v = _view(view)
        card = "no card yet" if v.card < 0 else f"the {('jack', 'queen', 'king')[v.card]}"
        bets = " ".join(ACTIONS[b] for b in v.bets) or "none"
        return f"you are player {v.seat}, holding {card}; bets so far: {bets}"

    def candidates(self, view: Any) -> list[int]:
        v = _view(view)
        if v.card < 0:
            raise InvalidPositionError("kuhn_poker: nothing to sample before the deal")
        return [c for c in range(3) if c != v.card]

    def assemble(self, view: Any, hidden: Any) -> History:
        v = _view(view)
        cards = (v.card, hidden) if v.seat == 0 else (hidden, v.card)
        return (*cards, *v.bets)


def _view(view: Any) -> KuhnView:
    if not isinstance(view, KuhnView):
        raise InvalidPositionError(f"kuhn_poker: {type(view).__name__} is not a seat's view "
                                   "(KuhnView)")
    return view
