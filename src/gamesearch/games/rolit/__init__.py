"""Rolit (Goliath) for 2-4 players: the rules on bitboards, notation, an evaluation, a move
ordering, perft and a drawing."""

from __future__ import annotations

from .rules import Rolit, RState

__all__ = ["RState", "Rolit"]
