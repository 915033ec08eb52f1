"""Go from 5x5 to 19x19: the rules (area scoring, positional superko, GTP vertices,
handicap), SGF records, a drawing, and compiled playouts with MoGo's patterns and learned
priors for Monte Carlo tree search."""

from __future__ import annotations

from .rules import PROGRAM, Go, GoState

__all__ = ["PROGRAM", "Go", "GoState"]
