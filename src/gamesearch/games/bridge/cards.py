"""Bridge's cards, seats and strains, and the PBN deal notation.

A card is an integer ``suit * 13 + rank``: suits in PBN's order spades, hearts, diamonds,
clubs (0-3), ranks 2 .. ace as 0 .. 12. A hand is a 52-bit mask of its cards (bit = card).
Seats are N, E, S, W (0-3), in the order of play; strains are S, H, D, C (the suit's
index) and N for no trump (4).

Card notation: suit letter then rank, ``SA``, ``H7``, ``DT`` (ten is ``T``; ``10`` is read
too). A deal in PBN (the Portable Bridge Notation standard, section 3.4.11 "Deal"):
``N:AKQ.xxx.xxx.xxxx ...`` -- the first seat, a colon, then four hands in clockwise order,
each ``spades.hearts.diamonds.clubs`` in ranks ``AKQJT98765432``, separated by spaces.
PBN's ``-`` for an unknown hand is not accepted: double dummy needs every card.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import InvalidPositionError, echo
from ..bitboards import set_bits

SEATS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")
SUITS = "SHDC"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"
STRAINS = "SHDCN"
STRAIN_NAMES = ("spades", "hearts", "diamonds", "clubs", "no trump")
NOTRUMP = 4
RANKS = "23456789TJQKA"
ALL_CARDS = (1 << 52) - 1
#: the 13 cards of each suit as a mask
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def card_name(card: int) -> str:
    """``SA``, ``H7``, ``DT``."""
    return SUITS[card // 13] + RANKS[card % 13]


def parse_card(text: str) -> int:
    """The card of ``SA``/``h7``/``DT``/``D10`` (suit first; ``AS`` is read too)."""
    t = text.strip().upper().replace("10", "T")
    if len(t) == 2:
        if t[0] in SUITS and t[1] in RANKS:
            return SUITS.index(t[0]) * 13 + RANKS.index(t[1])
        if t[1] in SUITS and t[0] in RANKS:
            return SUITS.index(t[1]) * 13 + RANKS.index(t[0])
    raise InvalidPositionError(f"card {echo(text)}: expected a suit S H D C and a rank "
                               "AKQJT98765432, like SA, H7, DT")


#: The cards of a mask, in card order.
cards_of = set_bits


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_seat(text: str) -> int:
    t = text.strip().upper()
    if len(t) >= 1 and t in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        return SEATS.index(t[0])
    raise InvalidPositionError(f"seat {echo(text)}: expected N, E, S or W")


def parse_strain(text: str) -> int:
    t = text.strip().upper()
    if t in ("NT", "N"):
        return NOTRUMP
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    raise InvalidPositionError(f"strain {echo(text)}: expected S, H, D, C or N (no trump)")


def format_hand(mask: int) -> str:
    """PBN's ``AKQ.T98.-.5432``-style hand (``""`` for an empty suit, as PBN writes it)."""
    parts = []
    for s in range(4):
        ranks = [RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1]
        parts.append("".join(ranks))
    return ".".join(parts)


def parse_hand(text: str, seat: int) -> int:
    """One PBN hand, four suits separated by dots; duplicates refused."""
    parts = text.split(".")
    if len(parts) != 4:
        raise InvalidPositionError(
            f"hand {echo(text)} of {SEAT_NAMES[seat]}: expected four suits separated by dots, "
            "spades.hearts.diamonds.clubs, like AKQ.T98.J5.5432")
    mask = 0
    for s, part in enumerate(parts):
        for ch in part.strip().upper():
            if ch == "-":
                continue
            if ch not in RANKS:
                raise InvalidPositionError(
                    f"hand {echo(text)} of {SEAT_NAMES[seat]}: {echo(ch)} is not a rank "
                    "(AKQJT98765432)")
            bit = 1 << (13 * s + RANKS.index(ch))
            if mask & bit:
                raise InvalidPositionError(
                    f"hand {echo(text)} of {SEAT_NAMES[seat]}: "
                    f"{card_name(13 * s + RANKS.index(ch))} twice")
            mask |= bit
    return mask


def parse_deal(text: str) -> tuple[int, int, int, int]:
    """A PBN deal ``N:... ... ... ...`` -> the four hands, indexed N E S W. Every card at
    most once, and every hand the same number of cards (13 for a deal; fewer for an
    ending, as DDS takes them)."""
    t = text.strip()
    first, colon, rest = t.partition(":")
    if not colon or first.strip().upper() not in ("N", "E", "S", "W"):
        raise InvalidPositionError(
            f"deal {echo(text)}: expected PBN, the first seat, a colon and four hands, like "
            "N:AKQ.T98.J5.5432 ... ... ...")
    start = SEATS.index(first.strip().upper())
    hands_text = rest.split()
    if len(hands_text) != 4:
        raise InvalidPositionError(
            f"deal {echo(text)}: expected four hands after {first.strip().upper()}:, "
            f"found {len(hands_text)}")
    hands = [0, 0, 0, 0]
    seen = 0
    for i, h in enumerate(hands_text):
        seat = (start + i) % 4
        mask = parse_hand(h, seat)
        dup = mask & seen
        if dup:
            raise InvalidPositionError(
                f"deal {echo(text)}: {card_name(cards_of(dup)[0])} is in two hands "
                "(52 distinct cards)")
        seen |= mask
        hands[seat] = mask
    counts = [h.bit_count() for h in hands]
    if len(set(counts)) != 1 or counts[0] == 0:
        detail = ", ".join(f"{SEATS[s]} {counts[s]}" for s in range(4))
        raise InvalidPositionError(
            f"deal {echo(text)}: every hand must hold 13 cards (or all the same number, for "
            f"an ending); found {detail}")
    return hands[0], hands[1], hands[2], hands[3]


def format_deal(hands: Iterable[int], first: int = 0) -> str:
    hs = list(hands)
    return SEATS[first] + ":" + " ".join(format_hand(hs[(first + i) % 4]) for i in range(4))
