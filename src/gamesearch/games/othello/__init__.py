"""Othello: the rules on bitboards, an evaluation, perft and a compiled exact endgame solver."""

from __future__ import annotations

from .rules import OState, Othello

__all__ = ["OState", "Othello"]
