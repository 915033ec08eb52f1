"""Cards for trick-taking games (bridge, Oh Hell), and the deal sampler of hidden hands.

Cards are small ints: ``card = suit * len(deck.ranks) + rank``, ranks counted from the
lowest (0 is the deuce in a full deck), suits in the deck's display order (``SHDC`` for
bridge, as PBN writes a hand). :class:`Deck` names them (``"SA"``, ``"H7"``) and writes a
hand the way PBN does (``AKQ.T98.-.5432``: suits in order, ranks high to low).

Trick-taking helpers: :func:`legal_plays` (follow suit if you can), :func:`trick_winner`
(the highest trump, else the highest card of the led suit) and :func:`revealed_voids` (a
seat that did not follow suit has none of it left).

The sampler (:class:`DealSampler`): given the cards a player cannot see, how many of them
each hidden hand holds, and the suits each hand is known void in, draw an assignment of the
cards to the hands that is consistent with all of it, **exactly uniformly** over the
consistent deals. The method (exact counting, then sampling by the counts):

* Cards of one suit are interchangeable as far as the constraints go (a void concerns a
  whole suit), so a deal is a *shape* -- a matrix ``k[s][h]``, how many cards of suit ``s``
  hand ``h`` gets, zero where ``h`` is void in ``s``, the rows summing to the unseen cards
  of each suit and the columns to the hand sizes -- and, for that shape, a way to split
  each suit's cards among the hands: ``prod_s c_s! / prod_h k[s][h]!`` deals.
* ``N(i, capacities)``, the number of consistent deals of suits ``i..`` into hands with
  the given room left, follows from a recursion over the suits (memoised, exact
  integers): ``N(i, cap) = sum over the splits k of suit i of multinomial(k) *
  N(i + 1, cap - k)``, ``N(end, 0...0) = 1``.
* Sampling walks the same recursion: at suit ``i`` it picks a split ``k`` with probability
  ``multinomial(k) * N(i + 1, cap - k) / N(i, cap)`` (an exact integer draw, no floating
  point), then deals that suit's cards to the hands by a uniform shuffle. Each consistent
  deal is thus drawn with probability ``1 / N(0, sizes)``.

This is the "exact" answer to what GIB-style programs approximate by rejection (deal at
random, throw away deals that break a void): rejection is uniform too, but its running time
explodes when the constraints are tight; the recursion's cost is the number of suits times
the capacity vectors (a few thousand for bridge), whatever the constraints. OpenSpiel's
``ResampleFromInfostate`` for Oh Hell ignores revealed voids (its samples may give a card
to a hand known to lack its suit); this sampler never does.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from math import factorial

from ..errors import GameError, InvalidPositionError

#: A card: ``suit * len(ranks) + rank``.
Card = int


class NoConsistentDealError(GameError, ValueError):
    """No deal of the unseen cards fits the hand sizes and the revealed voids."""


@dataclass(frozen=True)
class Deck:
    """A deck of ``len(suits) x len(ranks)`` cards. ``suits``: one letter a suit, in the
    order hands are written (PBN: ``SHDC``); ``ranks``: one letter a rank, lowest first."""

    suits: str = "SHDC"
    ranks: str = "23456789TJQKA"
    #: the letters a hand string may use for "no cards in this suit"
    void_marks: tuple[str, ...] = field(default=("-", ""), compare=False)

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def cards(self) -> range:
        return range(self.size)

    def card(self, suit: int, rank: int) -> Card:
        return suit * len(self.ranks) + rank

    def suit(self, card: Card) -> int:
        return card // len(self.ranks)

    def rank(self, card: Card) -> int:
        return card % len(self.ranks)

    def name(self, card: Card) -> str:
        """``"SA"``: the suit's letter, then the rank's."""
        return self.suits[self.suit(card)] + self.ranks[self.rank(card)]

    def parse_card(self, text: str) -> Card:
        """A card from ``"SA"`` (suit then rank; case and ``10`` for ``T`` allowed)."""
        t = text.strip().upper().replace("10", "T")
        if len(t) == 2 and t[0] in self.suits and t[1] in self.ranks:
            return self.card(self.suits.index(t[0]), self.ranks.index(t[1]))
        raise InvalidPositionError(
            f"card {text!r}: expected a suit of {self.suits} then a rank of {self.ranks} "
            f"(e.g. {self.name(self.size - 1)})")

    def suit_cards(self, cards: Iterable[Card], suit: int) -> list[Card]:
        """The cards of ``suit`` among ``cards``, highest first."""
        return sorted((c for c in cards if self.suit(c) == suit), reverse=True)

    def format_hand(self, cards: Iterable[Card]) -> str:
        """The hand as PBN writes it: ``AKQ.T98.-.5432`` (suits in deck order, ranks high
        to low, ``-`` for a void)."""
        held = list(cards)
        return ".".join("".join(self.ranks[self.rank(c)] for c in self.suit_cards(held, s))
                        or "-" for s in range(len(self.suits)))

    def parse_hand(self, text: str) -> frozenset[Card]:
        """A hand from PBN's ``AKQ.T98.-.5432`` (one group a suit, in deck order)."""
        groups = text.strip().split(".")
        if len(groups) != len(self.suits):
            raise InvalidPositionError(
                f"hand {text!r}: expected {len(self.suits)} suits separated by '.' "
                f"(order {self.suits}), e.g. AKQ.T98.-.5432")
        cards: list[Card] = []
        for s, group in enumerate(groups):
            letters = "" if group in self.void_marks else group.upper().replace("10", "T")
            for r in letters:
                if r not in self.ranks:
                    raise InvalidPositionError(
                        f"hand {text!r}: {r!r} is not a rank (ranks: {self.ranks})")
                cards.append(self.card(s, self.ranks.index(r)))
        if len(set(cards)) != len(cards):
            raise InvalidPositionError(f"hand {text!r}: a card appears twice")
        return frozenset(cards)


#: The bridge deck: suits in PBN order, ranks 2..A.
BRIDGE_DECK = Deck()


# ----- trick taking ------------------------------------------------------------------------
def legal_plays(deck: Deck, hand: Iterable[Card], led_suit: int | None) -> list[Card]:
    """The cards ``hand`` may play, highest first: the cards of the led suit if it holds
    any (follow suit), else any card (also when leading: ``led_suit`` ``None``)."""
    held = sorted(hand, reverse=True)
    if led_suit is not None:
        following = [c for c in held if deck.suit(c) == led_suit]
        if following:
            return following
    return held


def trick_winner(deck: Deck, plays: Sequence[Card], trump: int | None) -> int:
    """The position in ``plays`` (the cards of a trick, in the order played) of the card
    that wins it: the highest trump if any was played, else the highest of the led suit."""
    if not plays:
        raise ValueError("trick_winner: an empty trick")
    led = deck.suit(plays[0])
    best = 0
    for i in range(1, len(plays)):
        c, b = plays[i], plays[best]
        cs, bs = deck.suit(c), deck.suit(b)
        if cs == bs:
            if deck.rank(c) > deck.rank(b):
                best = i
        elif cs == trump or (bs != trump and cs == led):
            best = i
    return best


def revealed_voids(deck: Deck, tricks: Iterable[Sequence[tuple[int, Card]]],
                   num_seats: int) -> list[frozenset[int]]:
    """The suits each seat has shown it lacks: for each trick (``(seat, card)`` pairs in
    the order played, the last one maybe unfinished), a seat that played a card of another
    suit than the one led is void in the led suit."""
    voids: list[set[int]] = [set() for _ in range(num_seats)]
    for trick in tricks:
        if not trick:
            continue
        led = deck.suit(trick[0][1])
        for seat, card in trick[1:]:
            if deck.suit(card) != led:
                voids[seat].add(led)
    return [frozenset(v) for v in voids]


# ----- the deal sampler --------------------------------------------------------------------
def _splits(total: int, room: Sequence[int], allowed: Sequence[bool]) -> list[tuple[int, ...]]:
    """Every way to give ``total`` cards to the hands, at most ``room[h]`` to hand ``h``
    and none to a hand not ``allowed``."""
    ranges = [range(min(r, total) + 1) if ok else range(1)
              for r, ok in zip(room, allowed, strict=True)]
    return [k for k in product(*ranges) if sum(k) == total]


class DealSampler:
    """Uniform random deals of ``unseen`` cards to hidden hands under revealed voids.

    ``hand_sizes[h]`` cards go to hand ``h`` (the sizes sum to ``len(unseen)``; a hand may
    stand for a pile nobody holds, such as Oh Hell's undealt cards, with no voids);
    ``voids[h]`` is the set of suits hand ``h`` is known to lack. :attr:`count` is the exact
    number of consistent deals; :meth:`sample` draws one of them, each with probability
    ``1 / count`` (the method: the module's docstring). Building the sampler does the
    counting once; each sample then costs a walk over the suits. No consistent deal (or
    sizes that do not add up) is a :class:`NoConsistentDealError`."""

    def __init__(self, deck: Deck, unseen: Collection[Card], hand_sizes: Sequence[int],
                 voids: Sequence[Collection[int]] | None = None) -> None:
        cards = sorted(set(unseen))
        if len(cards) != len(unseen):
            raise NoConsistentDealError("deal sampler: a card is listed twice among the unseen")
        for c in cards:
            if not 0 <= c < deck.size:
                raise NoConsistentDealError(f"deal sampler: {c} is not a card of the deck")
        sizes = tuple(int(n) for n in hand_sizes)
        if any(n < 0 for n in sizes) or sum(sizes) != len(cards):
            raise NoConsistentDealError(
                f"deal sampler: hand sizes {list(sizes)} do not add up to the "
                f"{len(cards)} unseen cards")
        void_sets = [frozenset(v) for v in (voids or [()] * len(sizes))]
        if len(void_sets) != len(sizes):
            raise NoConsistentDealError("deal sampler: one set of voids a hand")
        self.deck = deck
        self.hand_sizes = sizes
        self.voids = void_sets
        self._by_suit = [[c for c in cards if deck.suit(c) == s]
                         for s in range(len(deck.suits))]
        self._allowed = [tuple(s not in v for v in void_sets) for s in range(len(deck.suits))]
        self._count_from = lru_cache(maxsize=None)(self._count_uncached)
        self.count: int = self._count_from(0, sizes)
        if self.count == 0:
            held = ", ".join(f"hand {h}: {n} cards, void in "
                             f"{''.join(deck.suits[s] for s in sorted(v)) or 'nothing'}"
                             for h, (n, v) in enumerate(zip(sizes, void_sets, strict=True)))
            raise NoConsistentDealError(
                f"no deal of the unseen cards {deck.format_hand(cards)} fits ({held})")

    def _weighted_splits(self, suit: int, room: tuple[int, ...]
                         ) -> list[tuple[int, tuple[int, ...]]]:
        total = len(self._by_suit[suit])
        out = []
        for k in _splits(total, room, self._allowed[suit]):
            ways = factorial(total)
            for n in k:
                ways //= factorial(n)
            out.append((ways, k))
        return out

    def _count_uncached(self, suit: int, room: tuple[int, ...]) -> int:
        if suit == len(self._by_suit):
            return 1 if not any(room) else 0
        total = 0
        for ways, k in self._weighted_splits(suit, room):
            rest = tuple(r - n for r, n in zip(room, k, strict=True))
            total += ways * self._count_from(suit + 1, rest)
        return total

    def sample(self, rng: random.Random) -> tuple[frozenset[Card], ...]:
        """One consistent deal, uniformly at random: the cards of each hand."""
        hands: list[list[Card]] = [[] for _ in self.hand_sizes]
        room = self.hand_sizes
        for suit, suit_cards in enumerate(self._by_suit):
            options = []
            for ways, k in self._weighted_splits(suit, room):
                rest = tuple(r - n for r, n in zip(room, k, strict=True))
                weight = ways * self._count_from(suit + 1, rest)
                if weight:
                    options.append((weight, k, rest))
            pick = rng.randrange(sum(w for w, _, _ in options))
            k, rest = options[-1][1], options[-1][2]
            for weight, option_k, option_rest in options:
                if pick < weight:
                    k, rest = option_k, option_rest
                    break
                pick -= weight
            shuffled = list(suit_cards)
            rng.shuffle(shuffled)
            start = 0
            for h, n in enumerate(k):
                hands[h].extend(shuffled[start:start + n])
                start += n
            room = rest
        return tuple(frozenset(h) for h in hands)


def sample_deal(deck: Deck, unseen: Collection[Card], hand_sizes: Sequence[int],
                voids: Sequence[Collection[int]] | None, rng: random.Random
                ) -> tuple[frozenset[Card], ...]:
    """One deal drawn by a :class:`DealSampler` built for the purpose (build the sampler
    once instead when drawing many deals from the same constraints)."""
    return DealSampler(deck, unseen, hand_sizes, voids).sample(rng)


__all__ = [
    "BRIDGE_DECK",
    "Card",
    "DealSampler",
    "Deck",
    "NoConsistentDealError",
    "legal_plays",
    "revealed_voids",
    "sample_deal",
    "trick_winner",
]
