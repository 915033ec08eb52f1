"""Cards and the constrained deal sampler (gamesearch.games.cards).

The truth the sampler is held to is exact enumeration: every assignment of the unseen cards
to the hands, filtered by the hand sizes and the voids, counted by brute force."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from gamesearch.errors import GameError, InvalidPositionError
from gamesearch.games.cards import (
    BRIDGE_DECK,
    DealSampler,
    Deck,
    NoConsistentDealError,
    legal_plays,
    revealed_voids,
    trick_winner,
)

SMALL = Deck(suits="SHDC", ranks="JQKA")  # Oh Hell's 4 x 4 deck


def enumerate_deals(deck, unseen, sizes, voids):
    """Every consistent deal, by brute force: each card to each hand, then filtered."""
    cards = sorted(unseen)
    deals = []
    for owners in product(range(len(sizes)), repeat=len(cards)):
        if any(owners.count(h) != n for h, n in enumerate(sizes)):
            continue
        if any(deck.suit(c) in voids[h] for c, h in zip(cards, owners, strict=True)):
            continue
        deals.append(tuple(frozenset(c for c, o in zip(cards, owners, strict=True) if o == h)
                           for h in range(len(sizes))))
    return deals


CASES = [
    # unseen cards (names), hand sizes, voids per hand (suit letters)
    (["SA", "SK", "SQ", "HA", "HK", "DJ", "CA"], (3, 2, 2), ("", "S", "")),
    (["SA", "SK", "SQ", "SJ", "HA", "HK", "DJ", "CA"], (3, 3, 2), ("H", "S", "")),
    (["SA", "SK", "HA", "HK", "DA", "DK", "CA", "CK"], (2, 2, 4), ("SH", "D", "")),
    (["SA", "SK", "SQ", "HA", "HK", "HQ"], (2, 2, 2), ("", "", "")),
]


def _case(names, sizes, void_letters):
    unseen = [SMALL.parse_card(n) for n in names]
    voids = [frozenset(SMALL.suits.index(x) for x in v) for v in void_letters]
    return unseen, sizes, voids


@pytest.mark.parametrize("names,sizes,void_letters", CASES)
def test_count_equals_enumeration(names, sizes, void_letters):
    unseen, sizes, voids = _case(names, sizes, void_letters)
    assert DealSampler(SMALL, unseen, sizes, voids).count == len(
        enumerate_deals(SMALL, unseen, sizes, voids))


@pytest.mark.parametrize("names,sizes,void_letters", CASES)
def test_samples_are_uniform_over_consistent_deals(names, sizes, void_letters):
    """Each sample is a consistent deal; each card lands in each hand at the exact rate of
    the enumeration, and each whole deal turns up at the rate 1/count (within 5 sigma)."""
    unseen, sizes, voids = _case(names, sizes, void_letters)
    truth = enumerate_deals(SMALL, unseen, sizes, voids)
    sampler = DealSampler(SMALL, unseen, sizes, voids)
    rng = random.Random(7)
    n = 6000
    deals = Counter()
    lands = Counter()
    for _ in range(n):
        deal = sampler.sample(rng)
        assert [len(h) for h in deal] == list(sizes)
        assert set().union(*deal) == set(unseen)
        for h, hand in enumerate(deal):
            assert not any(SMALL.suit(c) in voids[h] for c in hand), "a revealed void broken"
            for c in hand:
                lands[c, h] += 1
        deals[deal] += 1
    assert set(deals) <= set(truth)
    for c in unseen:
        for h in range(len(sizes)):
            p = sum(c in d[h] for d in truth) / len(truth)
            sigma = (p * (1 - p) / n) ** 0.5
            assert abs(lands[c, h] / n - p) <= 5 * sigma + 1e-9, (SMALL.name(c), h, p)
    p = 1 / len(truth)
    sigma = (p * (1 - p) / n) ** 0.5
    for d in truth:
        assert abs(deals[d] / n - p) <= 5 * sigma + 1e-9


def test_uniform_where_rejection_by_hand_order_would_not_be():
    """A case built so that a greedy sampler (deal suit by suit to whoever has room) is
    biased: hand 0 void in spades. The rate at which hand 1 holds both hearts is the
    enumeration's."""
    unseen, sizes, voids = _case(["SA", "SK", "HA", "HK"], (2, 2), ("S", ""))
    truth = enumerate_deals(SMALL, unseen, sizes, voids)
    assert len(truth) == 1  # the spades must go to hand 1, the hearts to hand 0
    deal = DealSampler(SMALL, unseen, sizes, voids).sample(random.Random(1))
    assert deal == truth[0]


def test_bridge_sized_deal_keeps_voids():
    rng = random.Random(3)
    deck = BRIDGE_DECK
    hidden = rng.sample(list(deck.cards), 39)
    hearts = deck.suits.index("H")
    voids = [frozenset({hearts}), frozenset(), frozenset()]
    hearts_unseen = sum(deck.suit(c) == hearts for c in hidden)
    sampler = DealSampler(deck, hidden, (13, 13, 13), voids)
    assert sampler.count > 0
    for _ in range(50):
        deal = sampler.sample(rng)
        assert not any(deck.suit(c) == hearts for c in deal[0])
        assert sum(deck.suit(c) == hearts for c in deal[1] | deal[2]) == hearts_unseen


def test_no_consistent_deal_is_a_clear_error():
    # two spades left, but both hands that could take a card are void in spades
    unseen, sizes, voids = _case(["SA", "SK", "HA"], (2, 1), ("S", "S"))
    with pytest.raises(NoConsistentDealError, match="no deal of the unseen cards"):
        DealSampler(SMALL, unseen, sizes, voids)
    with pytest.raises(NoConsistentDealError, match="do not add up"):
        DealSampler(SMALL, unseen, (2, 2), None)
    assert issubclass(NoConsistentDealError, GameError)


def test_deck_names_and_pbn_hands():
    deck = BRIDGE_DECK
    assert deck.name(deck.parse_card("SA")) == "SA"
    assert deck.parse_card("h10") == deck.parse_card("HT")
    hand = deck.parse_hand("AKQ.T98.-.5432")
    assert len(hand) == 10
    assert deck.format_hand(hand) == "AKQ.T98.-.5432"
    for bad in ("AKQ.T98.5432", "AKX.T98.-.5432", "AAK.T98.-.5432"):
        with pytest.raises(InvalidPositionError):
            deck.parse_hand(bad)
    with pytest.raises(InvalidPositionError):
        deck.parse_card("Z9")


def test_follow_suit_trick_winner_and_voids():
    d = SMALL
    c = d.parse_card
    hand = [c("SA"), c("HJ"), c("HK"), c("DQ")]
    assert legal_plays(d, hand, d.suits.index("H")) == [c("HK"), c("HJ")]
    assert legal_plays(d, hand, d.suits.index("C")) == sorted(hand, reverse=True)
    assert legal_plays(d, hand, None) == sorted(hand, reverse=True)
    trick = [c("HQ"), c("HA"), c("SJ")]
    assert trick_winner(d, trick, None) == 1            # highest of the led suit
    assert trick_winner(d, trick, d.suits.index("S")) == 2  # a trump beats it
    assert trick_winner(d, trick, d.suits.index("D")) == 1  # an off-suit card does not
    voids = revealed_voids(d, [[(0, c("HQ")), (1, c("HA")), (2, c("SJ"))]], 3)
    assert voids == [frozenset(), frozenset(), frozenset({d.suits.index("H")})]
