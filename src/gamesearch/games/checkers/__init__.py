"""Checkers (English draughts): the rules on 32-bit bitboards, PDN notation, perft, the
engine's evaluation and hooks, and the drawing for the web app."""

from __future__ import annotations

from .rules import Checkers, CheckersState, Move

__all__ = ["Checkers", "CheckersState", "Move"]
