"""The games of the library, by name. Each module holds one game's rules, notation and
evaluation; none holds search code (that lives in :mod:`gamesearch.search`)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..errors import UnknownNameError
from ..game import Game

#: name -> ("module:factory", one-line description)
GAMES: dict[str, tuple[str, str]] = {
    "tictactoe": ("tictactoe:TicTacToe", "tic-tac-toe, squares 1-9"),
    "connect4": ("connect4:ConnectFour", "Connect Four 7x6, columns 1-7, Pons position strings"),
    "chess": ("chess:ChessGame", "chess on python-chess (the [chess] extra): UCI/SAN moves, FEN"),
    "othello": ("othello:Othello", "Othello 8x8, moves a1-h8 and pass, FFO/Edax board strings"),
    "pig": ("pig:Pig", "the dice game Pig, race to 20 (roll or hold): expectiminimax"),
    "nim": ("nim:Nim", "Nim, heaps 3 4 5, last counter wins: the readable example game"),
    "fig6.2": ("trees:fig6_2", "AIMA Fig 6.2 two-ply tree (minimax value 3, move a1)"),
    "comp3200": ("trees:comp3200", "COMP 3200 16-leaf binary tree (minimax value 7)"),
    "fig6.4": ("trees:fig6_4", "AIMA Fig 6.4 three-player max^n tree (root (1, 2, 6))"),
    "coinflip": ("trees:coinflip", "Russell's coin-flip expectiminimax tree (moves worth 3, -1)"),
    "chance-transform": (
        "trees:chance_transform",
        "a chance tree whose expectiminimax decision is a1 (values 2.1 vs 1.3)",
    ),
    "chance-transform-monotonic": (
        "trees:chance_transform_monotonic",
        "the same tree, leaves mapped 1,2,3,4 -> 1,20,30,400: the decision becomes a2",
    ),
}


def register(name: str, target: str, description: str) -> None:
    GAMES[name] = (target, description)


def get_game(name: str, **options: Any) -> Game[Any, Any]:
    """The game called ``name`` (see :data:`GAMES`), built with ``options``."""
    entry = GAMES.get(name.strip().lower())
    if entry is None:
        raise UnknownNameError("game", name, GAMES)
    module_name, _, factory_name = entry[0].partition(":")
    factory: Callable[..., Game[Any, Any]] = getattr(
        import_module(f"{__name__}.{module_name}"), factory_name
    )
    return factory(**options)


__all__ = ["GAMES", "get_game", "register"]
