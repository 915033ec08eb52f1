"""The arena's one exception: bad tournament input (a :class:`~gamesearch.errors.GameError`)."""

from __future__ import annotations

from ..errors import GameError


class ArenaError(GameError, ValueError):
    """A time control, opening, agent list or option the arena cannot use."""
