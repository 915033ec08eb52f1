"""A simple rule-based bridge card player, from a seat's view only
(:class:`gamesearch.games.bridge.rules.BridgeView`): the baseline of the declarer-play
benchmark and a fixed defence.

The rules, the textbook maxims of beginners' card play:

* on lead: a master card (the highest card still out in its suit) of a side suit, else
  the lowest card of the longest side suit (trumps last);
* following suit: second hand low; third and fourth hand win as cheaply as they can over
  an opponent's winning card, else play their lowest card (partner winning: lowest);
* void in the suit led: ruff with the lowest trump that wins when an opponent is winning,
  else discard the lowest card of a side suit.

Dummy's cards are chosen by declarer from declarer's view with the same rules (dummy's
position in the trick).
"""

from __future__ import annotations

from gamesearch.games.bridge.cards import NOTRUMP
from gamesearch.games.bridge.dd import legal_cards, trick_winner
from gamesearch.games.bridge.rules import BridgeView


def _beats(card: int, best: int, strain: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == strain


def simple_card(view: BridgeView) -> int:
    """The card the rules above play for the seat to move in ``view``."""
    seat = (view.leader + len(view.trick)) % 4
    hand = view.hands[seat]
    legal = [c for c in range(52) if legal_cards(hand, view.trick) >> c & 1]
    strain = view.strain
    trumps = strain if strain != NOTRUMP else -1
    if not view.trick:  # on lead
        out = (1 << 52) - 1
        for c in view.played:
            out &= ~(1 << c)
        for c in sorted(legal, key=lambda c: (c // 13 == trumps, -(c % 13))):
            higher_out = out >> (c + 1) & ((1 << (13 * (c // 13 + 1) - c - 1)) - 1)
            if c // 13 != trumps and not higher_out:
                return c  # a master of a side suit
        lengths = {s: sum(1 for c in legal if c // 13 == s) for s in range(4)}
        suit = max(lengths, key=lambda s: (lengths[s] > 0, s != trumps, lengths[s], -s))
        return min(c for c in legal if c // 13 == suit)
    winner = trick_winner(view.trick, view.leader, strain)  # so far: the trick is partial
    best = view.trick[(winner - view.leader) % 4]
    partner_wins = (winner - seat) % 2 == 0
    led = view.trick[0] // 13
    follows = legal[0] // 13 == led
    lowest_side = sorted(legal, key=lambda c: (c // 13 == trumps, c % 13))
    if partner_wins or (len(view.trick) == 1 and follows):
        return lowest_side[0]  # second hand low; partner winning: lowest
    winners = sorted((c for c in legal if _beats(c, best, strain)), key=lambda c: c % 13)
    if winners:
        return winners[0]  # third/fourth hand (or a ruff): win as cheaply as possible
    return lowest_side[0]


__all__ = ["simple_card"]
