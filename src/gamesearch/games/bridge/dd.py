"""The double-dummy view of a bridge deal: a two-side perfect-information game that the
library's generic exact solver (:mod:`gamesearch.search.solve`) solves.

Double dummy is bridge's card play with every hand face up: the declaring side (player 0:
declarer and dummy) against the defenders (player 1). The players do not strictly
alternate: the side whose seat is next to play moves, and whoever wins a trick leads the
next. The utility of the end for player 0 is the declaring side's tricks less the
defenders' (counted from the position the view starts at); ``max_utility`` is 64, so that
no trick count is ever read as a distance-discounted win (as Othello's disc counts).

What the view gives the solver, each a piece of the usual double-dummy technique
(Ginsberg 2001, "GIB: Imperfect information in a computationally challenging game", JAIR
14; Haglund's DDS) expressed through the library's capabilities, not inside a search:

* :meth:`DoubleDummy.actions` -- *equivalent-card merging*: two cards of one hand in one
  suit with no card of another hand between them (cards already played do not count;
  cards on the table in the current trick do) win exactly the same tricks, so only the
  highest of each such run is a move;
* :meth:`DoubleDummy.key` -- the table key at the start of a trick is the *relative*
  layout (who holds the highest remaining card of each suit, the next, ...), so that
  positions that differ only in which small cards were played share an entry (the first
  step of Ginsberg's partition search: the ranks that matter are the relative ones), and
  the leader, but not the tricks won so far: the value bounds' ``banked`` (the tricks
  won) lets the engine keep only the tricks still to come in its table, as DDS does, so
  that one entry serves every line that reaches the same remaining cards;
  positions within a trick are not kept in the table (DDS too stores only the starts of
  tricks);
* :meth:`DoubleDummy.value_bounds` -- *quick tricks*, at the start of a trick: the tricks
  the leader can cash at once from the top of its own hand (each suit's run of the highest
  remaining cards, in a trump suit contract only as long as no other hand holding trumps
  runs out of the suit), a lower bound; and, in a trump contract, the run of top trumps an
  opponent of the leader holds, tricks it cannot lose, an upper bound. Between, the
  trivial bounds (no side loses a trick already won);
* :meth:`DoubleDummy.order_actions` -- move ordering: the leader's highest cards first; a
  follower the cheapest card that beats the opponent winning so far, else its lowest;
  the lowest card when partner wins the trick.

A state is a flat tuple ``(north, east, south, west, leader, trick, taken, lost)``: the
four hands as card masks, the seat that led the trick, the cards played to it so far (in
order from the leader), and the tricks won by the declaring side and by the defenders
since the view began.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...capabilities import MoveOrdering, ScoreConvention, ValueBounds
from ...errors import IllegalMoveError, InvalidPositionError
from ...game import Game, GameType
from .cards import (
    NOTRUMP,
    SEATS,
    STRAINS,
    SUIT_MASKS,
    card_name,
    cards_of,
    format_deal,
    parse_card,
    parse_deal,
)

#: ``(north, east, south, west, leader, trick, taken, lost)``, see the module docstring.
DDState = tuple[int, int, int, int, int, tuple[int, ...], int, int]


def trick_winner(trick: Sequence[int], leader: int, strain: int) -> int:
    """The seat that wins a complete trick led by ``leader``."""
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        s = c // 13
        bs = best_card // 13
        if s == bs:
            if c > best_card:
                best, best_card = i, c
        elif s == strain:  # a ruff (bs is the led suit, or a lower trump was not played)
            best, best_card = i, c
    return (leader + best) % 4


def legal_cards(hand: int, trick: Sequence[int]) -> int:
    """The mask of the cards ``hand`` may play to ``trick``: follow suit if it can."""
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
    return hand


class DoubleDummy(Game[DDState, int]):
    """Double-dummy card play of one contract's strain and declarer (see the module
    docstring): player 0 the declaring side, player 1 the defenders."""

    name = "bridge-dd"
    num_players = 2
    game_type = GameType(num_players=2, zero_sum=True)
    max_utility = 64.0
    state_notation = "a PBN deal, N:<spades.hearts.diamonds.clubs> x4 (the declarer's LHO leads)"

    def __init__(self, strain: int, declarer: int) -> None:
        if strain not in range(5) or declarer not in range(4):
            raise InvalidPositionError(f"double dummy: strain {strain!r} / declarer "
                                       f"{declarer!r} out of range")
        self.strain = strain
        self.declarer = declarer
        self.description = (f"double dummy, {STRAINS[strain]} by {SEATS[declarer]}")

    # ----- states --------------------------------------------------------------------
    def start(self, hands: Sequence[int], leader: int | None = None,
              trick: Sequence[int] = ()) -> DDState:
        """The view of ``hands`` with ``leader`` on lead (default: the declarer's left-hand
        opponent) and ``trick`` the cards already played to the current trick."""
        lead = (self.declarer + 1) % 4 if leader is None else leader
        h = tuple(hands)
        return (h[0], h[1], h[2], h[3], lead, tuple(trick), 0, 0)

    def side(self, seat: int) -> int:
        """0 for the declaring side's seats, 1 for the defenders'."""
        return (seat - self.declarer) & 1

    # ----- the textbook's six functions ----------------------------------------------
    def initial_state(self) -> DDState:
        raise InvalidPositionError("double dummy starts from a deal: use start(hands)")

    def to_move(self, state: DDState) -> int:
        return ((state[4] + len(state[5])) - self.declarer) & 1

    def seat_to_play(self, state: DDState) -> int:
        return (state[4] + len(state[5])) % 4

    def legal_mask(self, state: DDState) -> int:
        seat = (state[4] + len(state[5])) % 4
        return legal_cards(_hand(state, seat), state[5])

    def actions(self, state: DDState) -> list[int]:
        """One card of each run of equivalent cards (the highest), suits S H D C, high to
        low: equivalent-card merging (the module docstring)."""
        seat = (state[4] + len(state[5])) % 4
        hand = _hand(state, seat)
        legal = legal_cards(hand, state[5])
        out = []
        on_table = 0
        for c in state[5]:
            on_table |= 1 << c
        live = state[0] | state[1] | state[2] | state[3] | on_table
        for s in range(4):
            m = legal & SUIT_MASKS[s]
            if not m:
                continue
            base = 13 * s
            in_run = False
            for r in range(12, -1, -1):
                bit = 1 << (base + r)
                if m & bit:
                    if not in_run:
                        out.append(base + r)
                        in_run = True
                elif live & bit:
                    in_run = False
        return out

    def result(self, state: DDState, action: int) -> DDState:
        seat = (state[4] + len(state[5])) % 4
        hands = [state[0], state[1], state[2], state[3]]
        hands[seat] &= ~(1 << action)
        trick = state[5] + (action,)
        leader, taken, lost = state[4], state[6], state[7]
        if len(trick) == 4:
            w = trick_winner(trick, leader, self.strain)
            if (w - self.declarer) & 1:
                lost += 1
            else:
                taken += 1
            return (hands[0], hands[1], hands[2], hands[3], w, (), taken, lost)
        return (hands[0], hands[1], hands[2], hands[3], leader, trick, taken, lost)

    def is_terminal(self, state: DDState) -> bool:
        return not (state[0] | state[1] | state[2] | state[3]) and not state[5]

    def returns(self, state: DDState) -> tuple[float, float]:
        d = float(state[6] - state[7])
        return (d, -d)

    def utility(self, state: DDState, player: int) -> float:
        d = float(state[6] - state[7])
        return d if player == 0 else -d

    def terminal_utility(self, state: DDState, player: int) -> float | None:
        if state[0] | state[1] | state[2] | state[3] or state[5]:
            return None
        d = float(state[6] - state[7])
        return d if player == 0 else -d

    def key(self, state: DDState) -> tuple[int, ...] | None:
        """At the start of a trick the relative layout (per suit, from the highest
        remaining card down, the seat holding each: ranks that merely moved down when
        small cards were played map to the same key) and the leader, not the tricks won
        so far (the value bounds' ``banked``: the table keeps the tricks still to come);
        within a trick ``None``: the engine keeps those positions out of its table
        (three in four nodes, which would crowd the starts of tricks out)."""
        if state[5]:
            return None
        k01 = k23 = 0
        for s in range(4):
            code = 1
            base = 13 * s
            for r in range(12, -1, -1):
                bit = 1 << (base + r)
                for seat in range(4):
                    if _hand(state, seat) & bit:
                        code = code * 4 + seat
                        break
            if s < 2:
                k01 = k01 << 27 | code
            else:
                k23 = k23 << 27 | code
        return (k01, k23, state[4])

    # ----- capabilities ----------------------------------------------------------------
    def move_ordering(self) -> MoveOrdering[DDState, int]:
        """The leader's highest cards first; a follower its cheapest winner over an
        opponent, else its lowest card (the module docstring)."""
        return MoveOrdering(self.order_actions)

    def order_actions(self, state: DDState, actions: Sequence[int]) -> list[int]:
        return sorted(actions, key=lambda c: order_key(state, c, self.strain, self.declarer))

    def value_bounds(self) -> ValueBounds[DDState]:
        """Quick-trick bounds at the start of a trick, trivial ones within it; the
        tricks won so far as the banked part of the value (the table keeps the rest)."""
        return ValueBounds(self.bounds, self.banked)

    def banked(self, state: DDState, player: int) -> float:
        """The tricks ``player``'s side has won since the view began less the other
        side's: every end below ``state`` adds the tricks still to come to it."""
        d = float(state[6] - state[7])
        return d if player == 0 else -d

    def bounds(self, state: DDState, player: int) -> tuple[float, float]:
        own, opp = (state[6], state[7]) if player == 0 else (state[7], state[6])
        trick = state[5]
        left = (state[0] | state[1] | state[2] | state[3]).bit_count() + len(trick)
        rem = left // 4
        if trick:
            return (float(own - opp - rem), float(own - opp + rem))
        q, qo = quick_tricks(state, self.strain)
        return (float(own + q - opp - rem + q), float(own + rem - qo - opp - qo))

    def score_convention(self) -> ScoreConvention[DDState]:
        """Solved values as the tricks the side to move at the root takes from there."""
        return ScoreConvention(self.exact_score, self.score_threshold)

    def exact_score(self, state: DDState, value: float) -> float:
        n = tricks_left(state)
        own = state[6] if self.to_move(state) == 0 else state[7]
        opp = state[7] if self.to_move(state) == 0 else state[6]
        # value = (own + t) - (opp + n - t): t, the tricks the mover's side takes from here
        t = (value - own + opp + n) / 2
        return float(max(0, min(n, round(t))))

    def score_threshold(self, state: DDState, score: float) -> float:
        n = tricks_left(state)
        own = state[6] if self.to_move(state) == 0 else state[7]
        opp = state[7] if self.to_move(state) == 0 else state[6]
        return float(2 * score + own - opp - n)

    # ----- notation ------------------------------------------------------------------
    def format_action(self, state: DDState, action: int) -> str:
        return card_name(action)

    def parse_action(self, state: DDState, text: str) -> int:
        card = parse_card(text)
        if not self.legal_mask(state) >> card & 1:
            raise IllegalMoveError(text, [card_name(c) for c in cards_of(self.legal_mask(state))])
        return card

    def parse_state(self, text: str) -> DDState:
        return self.start(parse_deal(text))

    def format_state(self, state: DDState) -> str:
        return format_deal(state[:4])

    def render(self, state: DDState) -> str:
        trick = " ".join(card_name(c) for c in state[5])
        return (f"{format_deal(state[:4])}  leader {SEATS[state[4]]}"
                + (f"  trick {trick}" if trick else "")
                + f"  declaring side {state[6]}, defenders {state[7]}")


def _hand(state: DDState, seat: int) -> int:
    """The hand of ``seat`` (0-3) in ``state``."""
    return state[0] if seat == 0 else state[1] if seat == 1 else state[2] if seat == 2 \
        else state[3]


def tricks_left(state: DDState) -> int:
    return ((state[0] | state[1] | state[2] | state[3]).bit_count() + len(state[5])) // 4


def top_run(state: DDState, seat: int, suit: int) -> int:
    """How many of the highest remaining cards of ``suit`` the hand of ``seat`` holds,
    counted from the top down to the first card of another hand."""
    # its compiled twin: .compiled._top_run (numba cannot call this one)
    hand = _hand(state, seat)
    others = (state[0] | state[1] | state[2] | state[3]) & ~hand
    base = 13 * suit
    n = 0
    for r in range(12, -1, -1):
        bit = 1 << (base + r)
        if hand & bit:
            n += 1
        elif others & bit:
            break
    return n


def quick_tricks(state: DDState, strain: int) -> tuple[int, int]:
    """``(q, qo)`` at the start of a trick: the tricks the leader cashes from the top of its
    own hand, and (trump contracts) the top-trump run of an opponent of the leader (the
    module docstring has why each is sound)."""
    leader = state[4]
    rem = (state[0] | state[1] | state[2] | state[3]).bit_count() // 4
    q = 0
    for s in range(4):
        k = top_run(state, leader, s)
        if k == 0:
            continue
        if strain != NOTRUMP and s != strain:
            trumps = SUIT_MASKS[strain]
            suit = SUIT_MASKS[s]
            for o in range(1, 4):
                h = _hand(state, (leader + o) % 4)
                if h & trumps:
                    n = (h & suit).bit_count()
                    if n < k:
                        k = n
        q += k
    if q > rem:
        q = rem
    qo = 0
    if strain != NOTRUMP:
        for o in (1, 3):
            r = top_run(state, (leader + o) % 4, strain)
            if r > qo:
                qo = r
    return q, qo


def order_key(state: DDState, card: int, strain: int, declarer: int) -> int:
    """The sort key of :meth:`DoubleDummy.order_actions` (smaller first)."""
    trick = state[5]
    rank = card % 13
    if not trick:
        return 12 - rank  # the leader: high cards first
    leader = state[4]
    # the card winning so far, and whose
    win_i = 0
    win_card = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if c // 13 == win_card // 13:
            if c > win_card:
                win_i, win_card = i, c
        elif c // 13 == strain:
            win_i, win_card = i, c
    seat = (leader + len(trick)) % 4
    partner_wins = ((leader + win_i) % 4 - seat) & 1 == 0
    beats = (card // 13 == win_card // 13 and card > win_card) or (
        card // 13 == strain and win_card // 13 != strain)
    if partner_wins or not beats:
        return 20 + rank + (13 if card // 13 == strain and card // 13 != trick[0] // 13
                            else 0)
    return rank  # the cheapest winner first

