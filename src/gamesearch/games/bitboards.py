"""Bit helpers shared by the games that keep a position in bitboards (bridge's hands,
checkers, Chinese Checkers, Othello): one copy, so that each game reads the same
definition."""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first: a bitboard's squares, a
    hand's cards in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
