"""Oh Hell, three players, 4 suits x 4 ranks, 3 tricks: OpenSpiel's ``oh_hell`` with
``players=3, num_suits=4, num_cards_per_suit=4, num_tricks_fixed=3``.

The rules (those of OpenSpiel's ``oh_hell.cc``, which the tests replay deal by deal):

* chance picks the dealer, then deals the cards one at a time -- the first nine round the
  table starting with seat 0 (OpenSpiel ignores the dealer when dealing), the tenth turned
  up: its suit is trump; the six others stay undealt;
* bidding starts left of the dealer; each seat bids 0-3 tricks; the last bidder (the
  dealer) may not bid so that the bids add up to 3 (the dealer's restriction);
* the seat left of the dealer leads; follow suit if you can; the highest trump wins a
  trick, else the highest card of the suit led; the winner leads the next;
* score: one point a trick, plus 10 for taking exactly the tricks bid.

Hidden information: a seat sees its own hand, the trump card, the bids and the cards played
(:class:`OhHellObservation`). Its sampler deals the unseen cards to the two other hands and
the undealt pile with :class:`gamesearch.games.cards.DealSampler`, so that no sample gives
a seat a card of a suit it has shown it lacks.

Cards: our cards are ``suit * 4 + rank`` (suits ``CDSH`` as OpenSpiel orders them, ranks
``2345``); OpenSpiel's are ``rank * 4 + suit``. :func:`to_openspiel_card` and
:func:`openspiel_chance_actions` map a whole deal between the two.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...argtypes import ascii_digits
from ...capabilities import Drawing, MatchHooks
from ...errors import IllegalMoveError, InvalidPositionError, echo
from ...game import CHANCE, Game, GameType
from ..cards import Card, DealSampler, Deck, legal_plays, revealed_voids, trick_winner

DECK = Deck(suits="CDSH", ranks="2345")
PLAYERS = 3
TRICKS = 3
#: bids are actions ``BID + n`` (OpenSpiel's numbering: after the 16 cards)
BID = DECK.size
EXACT_BONUS = 10
#: ``holder`` values: a seat 0-2, or one of these
UNDEALT, TRUMP_CARD, PLAYED = -1, -2, -3


def to_openspiel_card(card: Card) -> int:
    return DECK.rank(card) * len(DECK.suits) + DECK.suit(card)


def from_openspiel_card(card: int) -> Card:
    return DECK.card(card % len(DECK.suits), card // len(DECK.suits))


@dataclass(frozen=True)
class OhHellState:
    """A position: the dealer (``-1`` before chance picks one), the cards in the order
    dealt, who holds each card now (a seat, :data:`UNDEALT`, :data:`TRUMP_CARD` or
    :data:`PLAYED`), the bids (``-1``: not yet), every card played ``(seat, card)`` in
    order, the tricks won, and the seat to move (:data:`CHANCE` while dealing)."""

    dealer: int = -1
    dealt: tuple[Card, ...] = ()
    holder: tuple[int, ...] = (UNDEALT,) * DECK.size
    bids: tuple[int, ...] = (-1,) * PLAYERS
    plays: tuple[tuple[int, Card], ...] = ()
    won: tuple[int, ...] = (0,) * PLAYERS
    mover: int = CHANCE

    @property
    def trump_card(self) -> Card | None:
        return self.dealt[PLAYERS * TRICKS] if len(self.dealt) > PLAYERS * TRICKS else None

    def hand(self, seat: int) -> list[Card]:
        return [c for c, h in enumerate(self.holder) if h == seat]

    def tricks(self) -> list[tuple[tuple[int, Card], ...]]:
        return [self.plays[i:i + PLAYERS] for i in range(0, len(self.plays), PLAYERS)]


@dataclass(frozen=True)
class SeatView:
    """What one seat sees (its information set; hashable): the dealer, its own hand, the
    trump card, the bids, the cards played, the tricks won and the seat to move."""

    seat: int | None
    dealer: int
    hand: frozenset[Card]
    trump_card: Card | None
    bids: tuple[int, ...]
    plays: tuple[tuple[int, Card], ...]
    won: tuple[int, ...]
    mover: int


class OhHell(Game[OhHellState, int]):
    name = "ohhell"
    description = "Oh Hell, 3 players, 4x4 cards, 3 tricks (OpenSpiel's oh_hell)"
    num_players = PLAYERS
    game_type = GameType(num_players=PLAYERS, chance=True, perfect_information=False,
                         zero_sum=False, value_bounds=(0.0, float(TRICKS + EXACT_BONUS)))
    max_utility = float(TRICKS + EXACT_BONUS)
    state_notation = ("a deal: 'dealer hand0 hand1 hand2 trump' with hands as C.D.S.H rank "
                      "groups, e.g. '1 23.4.-.5 ...' (see format_state)")

    def initial_state(self) -> OhHellState:
        return OhHellState()

    def to_move(self, state: OhHellState) -> int:
        return state.mover

    def is_terminal(self, state: OhHellState) -> bool:
        return len(state.plays) == PLAYERS * TRICKS

    def returns(self, state: OhHellState) -> list[float]:
        return [float(w + (EXACT_BONUS if w == b else 0)) for w, b in zip(
            state.won, state.bids, strict=True)]

    def chance_outcomes(self, state: OhHellState) -> list[tuple[int, float]]:
        if state.dealer < 0:
            return [(d, 1 / PLAYERS) for d in range(PLAYERS)]
        left = [c for c in DECK.cards if state.holder[c] == UNDEALT and c not in state.dealt]
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: OhHellState) -> list[int]:
        if state.mover == CHANCE:
            return [o for o, _ in self.chance_outcomes(state)]
        if self.is_terminal(state):
            return []
        if -1 in state.bids:
            return bid_actions(state.bids, state.mover)
        return sorted(_card_plays(state.hand(state.mover), state.plays))

    def result(self, state: OhHellState, action: int) -> OhHellState:
        if state.mover == CHANCE:
            if state.dealer < 0:
                return replace(state, dealer=action)
            n = len(state.dealt)
            holder = list(state.holder)
            holder[action] = n % PLAYERS if n < PLAYERS * TRICKS else TRUMP_CARD
            done = n + 1 == PLAYERS * TRICKS + 1
            return replace(state, dealt=(*state.dealt, action), holder=tuple(holder),
                           mover=(state.dealer + 1) % PLAYERS if done else CHANCE)
        seat = state.mover
        if -1 in state.bids:
            bids = list(state.bids)
            bids[seat] = action - BID
            return replace(state, bids=tuple(bids), mover=(seat + 1) % PLAYERS)
        holder = list(state.holder)
        holder[action] = PLAYED
        plays = (*state.plays, (seat, action))
        if len(plays) % PLAYERS:
            return replace(state, holder=tuple(holder), plays=plays,
                           mover=(seat + 1) % PLAYERS)
        trick = plays[-PLAYERS:]
        winner = trick[trick_winner(DECK, [c for _, c in trick], self._trump(state))][0]
        won = list(state.won)
        won[winner] += 1
        return replace(state, holder=tuple(holder), plays=plays, won=tuple(won), mover=winner)

    @staticmethod
    def _trump(state: OhHellState) -> int | None:
        t = state.trump_card
        return None if t is None else DECK.suit(t)

    # ----- notation ---------------------------------------------------------------------
    def format_action(self, state: OhHellState, action: int) -> str:
        if state.mover == CHANCE:
            return f"dealer{action}" if state.dealer < 0 else DECK.name(action)
        return f"bid{action - BID}" if action >= BID else DECK.name(action)

    def parse_action(self, state: OhHellState, text: str) -> int:
        t = text.strip()
        for a in self.actions(state):
            if self.format_action(state, a).lower() == t.lower():
                return a
        raise IllegalMoveError(text, self.legal_action_strings(state))

    def format_state(self, state: OhHellState) -> str:
        """``dealer hand0 hand1 hand2 trump`` (the deal as dealt) then ``bids=...`` and the
        cards played, e.g. ``1 2.3.45.- ... SH5 bids=1,0,1 plays=C2,C3``."""
        if state.trump_card is None:
            return f"dealing dealer={state.dealer} dealt={','.join(map(DECK.name, state.dealt))}"
        hands = [DECK.format_hand(state.dealt[s:PLAYERS * TRICKS:PLAYERS])
                 for s in range(PLAYERS)]
        text = f"{state.dealer} {' '.join(hands)} {DECK.name(state.trump_card)}"
        if state.bids[0] >= 0 or state.bids.count(-1) < PLAYERS:
            text += " bids=" + ",".join("-" if b < 0 else str(b) for b in state.bids)
        if state.plays:
            text += " plays=" + ",".join(DECK.name(c) for _, c in state.plays)
        return text

    def parse_state(self, text: str) -> OhHellState:
        """A deal (``dealer hand0 hand1 hand2 trump``), optionally followed by ``bids=``
        and ``plays=`` (checked move by move)."""
        words = text.split()
        if len(words) < 5 or not ascii_digits(words[0]) or int(words[0]) >= PLAYERS:
            raise InvalidPositionError(
                f"ohhell position {echo(text)}: expected 'dealer hand0 hand1 hand2 trump' "
                "(dealer 0-2, hands like 2.3.45.-, trump like S5)")
        hands = [DECK.parse_hand(w) for w in words[1:4]]
        trump = DECK.parse_card(words[4])
        cards = [c for h in hands for c in h] + [trump]
        if any(len(h) != TRICKS for h in hands) or len(set(cards)) != len(cards):
            raise InvalidPositionError(
                f"ohhell position {echo(text)}: each hand holds 3 cards, all distinct, and the "
                "trump card is another")
        state = self.result(self.initial_state(), int(words[0]))
        order = [sorted(h) for h in hands]
        for i in range(TRICKS):
            for s in range(PLAYERS):
                state = self.result(state, order[s][i])
        state = self.result(state, trump)
        for word in words[5:]:
            key, _, value = word.partition("=")
            if key == "bids":  # by seat ("-": not yet), bid in turn from the dealer's left
                bids = value.split(",")
                if len(bids) != PLAYERS:
                    raise InvalidPositionError(f"ohhell position: bids={echo(value)}: expected "
                                               f"{PLAYERS} bids by seat, '-' for one not made")
                for turn in range(PLAYERS):
                    b = bids[(state.dealer + 1 + turn) % PLAYERS].strip()
                    if b == "-":
                        break
                    state = self.play(state, f"bid{b}")
            elif key == "plays":
                for c in value.split(","):
                    state = self.play(state, c)
            else:
                raise InvalidPositionError(f"ohhell position: unknown part {echo(word)}; "
                                           "expected bids=... or plays=...")
        return state

    def render(self, state: OhHellState) -> str:
        lines = [f"dealer: player {state.dealer + 1}"]
        if state.trump_card is not None:
            lines.append(f"trump card: {DECK.name(state.trump_card)}")
        for s in range(PLAYERS):
            bid = "-" if state.bids[s] < 0 else str(state.bids[s])
            lines.append(f"player {s + 1}: {DECK.format_hand(state.hand(s)):<14} bid {bid} "
                         f"won {state.won[s]}")
        for trick in state.tricks():
            lines.append("trick: " + " ".join(f"{s + 1}:{DECK.name(c)}" for s, c in trick))
        return "\n".join(lines)

    # ----- capabilities -----------------------------------------------------------------
    def observation(self) -> OhHellObservation:
        return OhHellObservation(self)

    def drawing(self) -> Drawing[OhHellState]:
        from .svg import render_svg

        return Drawing(render_svg)

    def match_hooks(self) -> MatchHooks:
        return MatchHooks(default_opponent="pimc:worlds=20,time=2")


def bid_actions(bids: Sequence[int], seat: int) -> list[int]:
    """The bids ``seat`` may make: 0-3, except, for the last bidder, the one that makes
    the bids add up to the tricks (the dealer's restriction)."""
    last = all(b >= 0 for s, b in enumerate(bids) if s != seat)
    total = sum(max(0, b) for b in bids)
    return [BID + b for b in range(TRICKS + 1) if not (last and b + total == TRICKS)]


def _card_plays(hand: Sequence[Card], plays: Sequence[tuple[int, Card]]) -> list[Card]:
    led = None
    if len(plays) % PLAYERS:
        led = DECK.suit(plays[len(plays) - len(plays) % PLAYERS][1])
    return legal_plays(DECK, hand, led)


class OhHellWorld(OhHell):
    """The perfect-information game of a dealt position (every hand in view): what PIMC
    searches in each sampled world, with max^n or paranoid."""

    name = "ohhell-world"
    game_type = GameType(num_players=PLAYERS, chance=False, perfect_information=True,
                         zero_sum=False, value_bounds=(0.0, float(TRICKS + EXACT_BONUS)))

    def observation(self) -> None:  # type: ignore[override]
        return None


class OhHellObservation:
    """Oh Hell's :class:`~gamesearch.capabilities.Observation`: a seat's view, its legal
    actions, and full states sampled from the view (uniform over the deals consistent with
    it, revealed voids kept)."""

    def __init__(self, game: OhHell) -> None:
        self.game = game
        #: the perfect-information game PIMC searches each sampled state in
        self.world = OhHellWorld()

    def observe(self, state: OhHellState, seat: int | None) -> SeatView:
        """What ``seat`` sees (``None``: a spectator: no hand, the public part)."""
        hand = frozenset() if seat is None else frozenset(state.hand(seat))
        return SeatView(seat, state.dealer, hand, state.trump_card, state.bids,
                        state.plays, state.won, state.mover)

    def public_game(self) -> OhHell:
        """Oh Hell keeps no secret in its options: a new game of the same rules."""
        return OhHell()

    def actions(self, observation: Hashable) -> list[int]:
        view = _view(observation)
        if view.mover != view.seat or len(view.plays) == PLAYERS * TRICKS:
            return []
        if -1 in view.bids:
            return bid_actions(view.bids, view.seat)
        return sorted(_card_plays(sorted(view.hand), view.plays))

    def describe(self, observation: Hashable) -> str:
        """The view in words for a person: own hand, trump, bids, tricks."""
        view = _view(observation)
        if view.seat is None:
            lines = [f"a spectator; dealer: player {view.dealer + 1}"]
        else:
            lines = [f"you are player {view.seat + 1}; dealer: player {view.dealer + 1}",
                     f"your hand: {DECK.format_hand(view.hand)} (suits C.D.S.H)"]
        if view.trump_card is not None:
            lines.append(f"trump card: {DECK.name(view.trump_card)}")
        lines.append("bids: " + " ".join("-" if b < 0 else str(b) for b in view.bids)
                     + "   tricks won: " + " ".join(map(str, view.won)))
        for i in range(0, len(view.plays), PLAYERS):
            lines.append("trick: " + " ".join(f"{s + 1}:{DECK.name(c)}"
                                              for s, c in view.plays[i:i + PLAYERS]))
        return "\n".join(lines)

    def sampler(self, observation: Hashable) -> tuple[DealSampler, list[int]]:
        """The deal sampler of the view's unseen cards, and the holders its hands stand
        for (the two other seats, then the undealt pile)."""
        view = _view(observation)
        if view.trump_card is None:
            raise InvalidPositionError("ohhell: nothing to sample before the deal ends")
        played = {c for _, c in view.plays}
        unseen = [c for c in DECK.cards
                  if c not in view.hand and c not in played and c != view.trump_card]
        others = [s for s in range(PLAYERS) if s != view.seat]
        counts = [TRICKS - sum(1 for s, _ in view.plays if s == o) for o in others]
        voids = revealed_voids(DECK, [view.plays[i:i + PLAYERS]
                                      for i in range(0, len(view.plays), PLAYERS)], PLAYERS)
        sizes = [*counts, len(unseen) - sum(counts)]
        return DealSampler(DECK, unseen, sizes, [voids[o] for o in others] + [frozenset()]), \
            [*others, UNDEALT]

    def sample(self, observation: Hashable, rng: random.Random,
               sampler: DealSampler | None = None) -> OhHellState:
        view = _view(observation)
        if sampler is None:
            sampler, owners = self.sampler(view)
        else:
            owners = [*(s for s in range(PLAYERS) if s != view.seat), UNDEALT]
        return self.assemble(view, sampler.sample(rng), owners)

    def assemble(self, view: SeatView, hands: Sequence[frozenset[Card]],
                 owners: Sequence[int]) -> OhHellState:
        """The full state of ``view`` with ``hands`` given to ``owners``: the cards each
        seat was dealt are the ones it holds plus the ones it played."""
        assert view.trump_card is not None and view.seat is not None
        now: dict[int, list[Card]] = {s: [] for s in range(PLAYERS)}
        now[view.seat] = sorted(view.hand)
        for owner, hand in zip(owners, hands, strict=True):
            if owner != UNDEALT:
                now[owner] = sorted(hand)
        holder = [UNDEALT] * DECK.size
        dealt_by: dict[int, list[Card]] = {s: list(now[s]) for s in range(PLAYERS)}
        for s, cards in now.items():
            for c in cards:
                holder[c] = s
        for s, c in view.plays:
            holder[c] = PLAYED
            dealt_by[s].append(c)
        holder[view.trump_card] = TRUMP_CARD
        dealt = tuple(sorted(dealt_by[s])[i] for i in range(TRICKS) for s in range(PLAYERS))
        return OhHellState(view.dealer, (*dealt, view.trump_card), tuple(holder), view.bids,
                           view.plays, view.won, view.mover)


def _view(observation: Any) -> SeatView:
    if not isinstance(observation, SeatView):
        raise InvalidPositionError(f"ohhell: {type(observation).__name__} is not a seat's "
                                   "view (SeatView)")
    return observation


def openspiel_chance_actions(state: OhHellState) -> list[int]:
    """OpenSpiel's chance actions for the deal of ``state``: the number of tricks, the
    dealer, then each dealt card in OpenSpiel's numbering (the whole deal mapped)."""
    return [TRICKS, state.dealer, *(to_openspiel_card(c) for c in state.dealt)]


def to_openspiel_action(state: OhHellState, action: int) -> int:
    """Our action in ``state`` as OpenSpiel's (bids are numbered alike; cards are not)."""
    if state.mover == CHANCE and state.dealer < 0:
        return action
    return action if action >= BID else to_openspiel_card(action)


def random_deal(rng: random.Random) -> OhHellState:
    """A deal drawn by chance's own probabilities (the dealer, then the cards)."""
    game = OhHell()
    state = game.initial_state()
    while state.mover == CHANCE:
        state = game.result(state, rng.choice(game.actions(state)))
    return state


__all__ = [
    "DECK",
    "OhHell",
    "OhHellObservation",
    "OhHellState",
    "OhHellWorld",
    "SeatView",
    "bid_actions",
    "from_openspiel_card",
    "openspiel_chance_actions",
    "random_deal",
    "to_openspiel_action",
    "to_openspiel_card",
]
