"""gamesearch: adversarial game search — the textbook algorithms, done right and fast.

>>> from gamesearch import get_game, search, Limit
>>> game = get_game("tictactoe")
>>> search(game, game.initial_state(), "minimax").value
0.0
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import (
    GameError,
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnknownNameError,
    UnsupportedGameError,
)
from .game import CHANCE, Game, GameType
from .games import GAMES, get_game
from .search import ALGORITHMS, Limit, SearchResult, make_searcher, search

__all__ = [
    "ALGORITHMS",
    "CHANCE",
    "GAMES",
    "Game",
    "GameError",
    "GameType",
    "IllegalMoveError",
    "InvalidLimitError",
    "InvalidPositionError",
    "Limit",
    "SearchResult",
    "UnknownNameError",
    "UnsupportedGameError",
    "get_game",
    "make_searcher",
    "search",
]
