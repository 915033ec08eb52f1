"""Backgammon (money play, no cube): the rules, gnubg's notation and position IDs, gnubg's
interchange board (``to_tanboard``/``from_tanboard``), a pip-and-blot evaluation and a drawing.
Evaluations of a ``TanBoard`` plug in through :class:`Backgammon`'s ``evaluator``."""

from __future__ import annotations

from .rules import (
    Backgammon,
    BGAction,
    BGState,
    TanBoard,
    board_from_position_id,
    from_tanboard,
    legal_moves,
    pip_count,
    pip_evaluator,
    position_id,
    to_tanboard,
)

__all__ = ["BGAction", "BGState", "Backgammon", "TanBoard", "board_from_position_id",
           "from_tanboard", "legal_moves", "pip_count", "pip_evaluator", "position_id",
           "to_tanboard"]
