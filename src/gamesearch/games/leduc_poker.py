"""Leduc hold'em (Southey et al. 2005), OpenSpiel's ``leduc_poker`` (two players) move for
move.

Six cards, two suits of J Q K (chance actions 0-5: card ``c`` has rank ``c // 2``, suit
``c % 2``). Each player antes 1 and is dealt one private card (player 0 first). Two
betting rounds, player 0 first in each: fold (0, only when facing a bet), call/check (1)
or raise (2) by 2 in the first round and 4 in the second, at most two raises a round.
Between the rounds chance turns up one public card. At the showdown a pair with the public
card wins, else the higher rank; equal ranks split the pot. The game value for player 0
is -0.085606; there are 936 information sets.

A seat's view (:class:`LeducView`) is its card, the public card and both rounds' bets; its
``str`` is OpenSpiel's information-state string.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from ..errors import InvalidPositionError
from ..game import CHANCE, GameType
from .history import History, HistoryGame

FOLD, CALL, RAISE = 0, 1, 2
ACTIONS = ("fold", "call", "raise")
RANKS, SUITS = "JQK", "sh"
DECK = 6
RAISE_SIZE = (2, 4)
MAX_RAISES = 2
START_MONEY = 100


def card_name(card: int) -> str:
    return RANKS[card // 2] + SUITS[card % 2]


class Betting(NamedTuple):
    """The betting of a history replayed (the state OpenSpiel keeps)."""

    mover: int                     # 0, 1 or CHANCE (also the last mover once over)
    round: int                     # 1 or 2
    ante: tuple[int, int]          # what each player has put in
    stakes: int
    raises: int
    folded: int                    # the player who folded, or -1
    over: bool
    public: int                    # the public card or -1
    rounds: tuple[tuple[int, ...], tuple[int, ...]]  # each round's bets


@lru_cache(maxsize=1 << 16)
def replay(history: History) -> Betting:
    """The betting state after ``history`` (the private cards are ``history[:2]``)."""
    mover, rnd, ante, stakes, raises, calls = (CHANCE if len(history) < 2 else 0), 1, \
        [1, 1], 1, 0, 0
    folded, over, public = -1, False, -1
    rounds: tuple[list[int], list[int]] = ([], [])
    for a in history[2:]:
        if mover == CHANCE:  # the public card
            public, rnd, mover, raises, calls = a, 2, 0, 0, 0
            continue
        rounds[rnd - 1].append(a)
        if a == FOLD:
            folded, over = mover, True
            continue
        if a == RAISE:
            stakes += RAISE_SIZE[rnd - 1]
            raises, calls = raises + 1, 0
        else:
            calls += 1
        ante[mover] = stakes
        if (raises == 0 and calls == 2) or (raises > 0 and calls == 1):
            if rnd == 2:
                over = True
            else:
                mover = CHANCE
            continue
        mover = 1 - mover
    return Betting(mover, rnd, (ante[0], ante[1]), stakes, raises, folded, over, public,
                   (tuple(rounds[0]), tuple(rounds[1])))


def hand_rank(private: int, public: int) -> int:
    """OpenSpiel's rank of a hand: a pair beats any high card; else ranks, higher first."""
    low, high = sorted((private, public))
    if low // 2 == high // 2:
        return DECK * DECK + low
    return (high // 2) * DECK + low // 2


@dataclass(frozen=True)
class LeducView:
    """What ``seat`` sees: its card (-1 before the deal), the public card (-1: not yet)
    and the bets of each round."""

    seat: int
    card: int
    public: int
    round1: tuple[int, ...]
    round2: tuple[int, ...]

    def __str__(self) -> str:
        b = replay(_public_history(self))
        pot = b.ante[0] + b.ante[1]
        text = (f"[Observer: {self.seat}][Private: {self.card}][Round {b.round}]"
                f"[Player: {b.mover}][Pot: {pot}]"
                f"[Money: {START_MONEY - b.ante[0]} {START_MONEY - b.ante[1]}]")
        if self.public >= 0:
            text += f"[Public: {self.public}]"
        return text + (f"[Round1: {' '.join(map(str, self.round1))}]"
                       f"[Round2: {' '.join(map(str, self.round2))}]")


def _public_history(v: LeducView) -> History:
    """A history with ``v``'s bets (cards stand-ins: the betting ignores them)."""
    public = (v.public,) if v.public >= 0 else ()
    return (0, 1, *v.round1, *public, *v.round2)


class LeducPoker(HistoryGame):
    name = "leduc_poker"
    description = ("Leduc hold'em: six cards, two betting rounds, a public card "
                   "(OpenSpiel's leduc_poker)")
    game_type = GameType(num_players=2, chance=True, perfect_information=False,
                         zero_sum=True, constant_sum=0.0, value_bounds=(-13.0, 13.0))
    max_utility = 13.0

    def to_move(self, state: History) -> int:
        return replay(state).mover

    def is_terminal(self, state: History) -> bool:
        return replay(state).over

    def chance_outcomes(self, state: History) -> list[tuple[int, float]]:
        dealt = state[:2] + ((replay(state).public,) if len(state) >= 2 else ())
        left = [c for c in range(DECK) if c not in dealt]
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: History) -> list[int]:
        b = replay(state)
        if b.over:
            return []
        if b.mover == CHANCE:
            return [c for c, _ in self.chance_outcomes(state)]
        return _bets(b)

    def returns(self, state: History) -> list[float]:
        b = replay(state)
        if not b.over:
            return [0.0, 0.0]
        if b.folded >= 0:
            loser = b.folded
        else:
            r0, r1 = hand_rank(state[0], b.public), hand_rank(state[1], b.public)
            if r0 == r1:
                return [0.0, 0.0]
            loser = 0 if r0 < r1 else 1
        out = [0.0, 0.0]
        out[loser] = -float(b.ante[loser])
        out[1 - loser] = float(b.ante[loser])
        return out

    def format_action(self, state: History, action: int) -> str:
        if replay(state).mover == CHANCE:
            return card_name(action)
        return ACTIONS[action]

    # ----- views ------------------------------------------------------------------------
    def view(self, state: History, seat: int) -> LeducView:
        b = replay(state)
        return LeducView(seat, state[seat] if len(state) > seat else -1, b.public,
                         *b.rounds)

    def view_actions(self, view: Any) -> list[int]:
        v = _view(view)
        b = replay(_public_history(v))
        if v.card < 0 or b.over or b.mover != v.seat:
            return []
        return _bets(b)

    def describe_view(self, view: Any) -> str:
        v = _view(view)
        b = replay(_public_history(v))
        card = "no card yet" if v.card < 0 else card_name(v.card)
        lines = [f"you are player {v.seat}, holding {card}"]
        if v.public >= 0:
            lines.append(f"public card: {card_name(v.public)}")
        for i, bets in enumerate((v.round1, v.round2)):
            if bets:
                lines.append(f"round {i + 1}: " + " ".join(ACTIONS[a] for a in bets))
        lines.append(f"pot: {b.ante[0] + b.ante[1]} (you put in {b.ante[v.seat]})")
        return "\n".join(lines)

    def candidates(self, view: Any) -> list[int]:
        v = _view(view)
        if v.card < 0:
            raise InvalidPositionError("leduc_poker: nothing to sample before the deal")
        return [c for c in range(DECK) if c not in (v.card, v.public)]

    def assemble(self, view: Any, hidden: Any) -> History:
        v = _view(view)
        cards = (v.card, hidden) if v.seat == 0 else (hidden, v.card)
        public = (v.public,) if v.public >= 0 else ()
        return (*cards, *v.round1, *public, *v.round2)


def _bets(b: Betting) -> list[int]:
    out = [FOLD] if b.stakes > b.ante[b.mover] else []
    out.append(CALL)
    if b.raises < MAX_RAISES:
        out.append(RAISE)
    return out


def _view(view: Any) -> LeducView:
    if not isinstance(view, LeducView):
        raise InvalidPositionError(f"leduc_poker: {type(view).__name__} is not a seat's view "
                                   "(LeducView)")
    return view
