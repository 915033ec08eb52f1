"""The games of the library, by name. Each module holds one game's rules, notation and
evaluation; none holds search code (that lives in :mod:`gamesearch.search`).

A game is named by a spec (:mod:`gamesearch.spec`): ``pig`` or ``pig:goal=50``. A game
defined outside the library is named without touching it, in one of three ways:

* ``py:MODULE:ATTR[:key=value,...]`` -- ATTR (a :class:`~gamesearch.game.Game` class or a
  factory) of MODULE, imported from an installed package or ``PYTHONPATH``, never from the
  current directory (the rule of the arena's ``py:`` agents);
* an installed package's entry point in the group ``gamesearch.games``
  (``mygame = mypkg.mygame:MyGame`` in ``[project.entry-points."gamesearch.games"]``):
  then ``mygame`` is a name like the library's;
* :func:`register` in a program that uses the library.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from ..errors import GameError, InvalidLimitError, UnknownNameError, echo
from ..game import Game
from ..spec import GameOption, Spec, read_game_options, split_game_spec

#: name -> ("module:factory", one-line description)
GAMES: dict[str, tuple[str, str]] = {
    "tictactoe": ("tictactoe:TicTacToe", "tic-tac-toe, squares 1-9"),
    "connect4": ("connect4:ConnectFour", "Connect Four 7x6, columns 1-7, Pons position strings"),
    "chess": ("chess:ChessGame", "chess on python-chess (the [chess] extra): UCI/SAN moves, FEN"),
    "othello": ("othello:Othello", "Othello 8x8, moves a1-h8 and pass, FFO/Edax board strings"),
    "rolit": ("rolit:Rolit", "Rolit 8x8 for 2-4 players (rolit:players=3), moves a1-h8: "
              "most balls wins"),
    "backgammon": ("backgammon:Backgammon",
                   "backgammon, money play without the cube: gnubg notation (8/5 6/5) and "
                   "position IDs, expectiminimax and *-minimax"),
    "checkers": ("checkers:Checkers", "English draughts (checkers) 8x8, Black first, squares "
                 "1-32: moves 11-15 / 22x15, PDN FEN"),
    "pig": ("pig:Pig", "the dice game Pig, race to 20 (roll or hold): expectiminimax"),
    "chinese_checkers": ("chinese_checkers:ChineseCheckers",
                         "Chinese Checkers, 2/3/4/6 players (players=3), OpenSpiel's star board, "
                         "moves d1-e5"),
    "go": ("go:Go", "Go 5x5 to 19x19 (go:size=9,komi=7.5), area scoring, positional superko, "
           "moves D4 or pass"),
    "ohhell": ("ohhell:OhHell", "Oh Hell, 3 players, 4x4 cards, 3 tricks: bids then tricks, "
               "hidden hands (OpenSpiel's oh_hell)"),
    "bridge": ("bridge:Bridge", "contract bridge card play (bridge:contract=4S,declarer=S,"
               "deal=7), cards SA H7 DT, PBN deals; a double-dummy solver"),
    "goofspiel": ("goofspiel:Goofspiel", "Goofspiel, 4 cards, hidden bids: bid 1-4 for the "
                  "point card (OpenSpiel's goofspiel, imp_info, turn-based)"),
    "kuhn_poker": ("kuhn_poker:KuhnPoker", "Kuhn poker: cards J Q K, pass or bet, hidden "
                   "cards (OpenSpiel's kuhn_poker)"),
    "leduc_poker": ("leduc_poker:LeducPoker", "Leduc hold'em: six cards, two betting rounds, "
                    "a public card (OpenSpiel's leduc_poker)"),
    "liars_dice": ("liars_dice:LiarsDice", "Liar's Dice, one die each, sixes wild: bids 1-1 "
                   "to 2-6 or liar (OpenSpiel's liars_dice)"),
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


#: The entry-point group through which an installed package adds games.
ENTRY_POINT_GROUP = "gamesearch.games"
#: Targets of games registered from outside the package (absolute ``module:attr``) carry
#: this prefix in :data:`GAMES`; the others are relative to this package.
_OUTSIDE = "py:"


def register(name: str, target: str, description: str) -> None:
    """Add the game ``name``: ``target`` is ``MODULE:ATTR``, an importable module (anywhere
    on the path, never the current directory: see :func:`import_outside_module`) and the
    game class or factory in it, e.g. ``register("mygame", "mypkg.mygame:MyGame", "...")``.
    A name registered here lives in this process; the arena's workers (a spawned process, a
    Ray task) import ``target`` themselves (see :func:`portable_spec`)."""
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise InvalidLimitError(f"game target {echo(target)}: expected MODULE:ATTR, e.g. "
                                "mypkg.mygame:MyGame")
    GAMES[name.strip().lower()] = (_OUTSIDE + target, description)


def import_outside_module(name: str) -> ModuleType:
    """Import ``name`` for a game or agent defined outside the library (``py:`` specs,
    registered games). This runs the module's code: a ``py:`` spec is a program, not data.
    The current directory is *not* searched (``python -m`` and the interactive interpreter
    put it on ``sys.path``), so a file that happens to lie where the command is run cannot
    take over a name; ``PYTHONPATH`` or an installed package names the code explicitly."""
    if name in sys.modules:
        return sys.modules[name]
    explicit = {p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    saved = list(sys.path)
    sys.path[:] = [p for p in saved if not _is_cwd(p, explicit)]
    try:
        return import_module(name)
    finally:
        sys.path[:] = saved


def _is_cwd(entry: str, explicit: set[str]) -> bool:
    """A ``sys.path`` entry that means the current directory, unless the user put it in
    ``PYTHONPATH`` on purpose."""
    if entry in explicit:
        return False
    if entry in ("", "."):
        return True
    try:
        return os.path.realpath(entry) == os.path.realpath(os.getcwd())
    except OSError:
        return False


_entry_points_loaded: list[bool] = []
#: The names that came from entry points (every process finds those itself).
_ENTRY_NAMES: set[str] = set()


def _load_entry_points() -> None:
    """Register, once per process, the games installed packages declare in the
    ``gamesearch.games`` entry-point group (``name = module:attr``); a library game's name
    is never replaced."""
    if _entry_points_loaded:
        return
    _entry_points_loaded.append(True)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        if name and name not in GAMES:
            _ENTRY_NAMES.add(name)
            dist = getattr(ep.dist, "name", None)
            GAMES[name] = (_OUTSIDE + ep.value.replace(" ", ""),
                           f"from the package {dist}" if dist else f"from {ep.value}")


def available_games() -> dict[str, tuple[str, str]]:
    """Every game by name (:data:`GAMES` and the installed entry points): name ->
    (target, one-line description)."""
    _load_entry_points()
    return dict(GAMES)


def _factory(name: str, target: str, spec: str) -> Callable[..., Game[Any, Any]]:
    """The class or function ``target`` names (``module:attr``, relative to this package
    unless it starts with ``py:``)."""
    outside = target.startswith(_OUTSIDE)
    module_name, _, attr = target.removeprefix(_OUTSIDE).partition(":")
    try:
        module = (import_outside_module(module_name) if outside
                  else import_module(f"{__name__}.{module_name}"))
        factory = getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        if not outside:
            raise
        raise InvalidLimitError(
            f"game {echo(spec)}: {exc} (games named py:MODULE:ATTR are imported from "
            "installed packages or PYTHONPATH, never from the current directory)") from None
    except Exception as exc:  # outside code that fails as it is imported
        if not outside:
            raise
        raise InvalidLimitError(f"game {echo(spec)}: importing {module_name} failed: "
                                f"{type(exc).__name__}: {exc}") from None
    if not callable(factory):
        raise InvalidLimitError(f"game {echo(spec)}: {echo(attr)} is not a game class or "
                                "factory")
    return factory  # type: ignore[no-any-return]


def _resolve(spec: str) -> tuple[Spec, str, str]:
    """(the parsed spec, the name a canonical spec starts with, the factory's target)."""
    parsed = split_game_spec(spec)
    if parsed.name.startswith(_OUTSIDE):
        return parsed, parsed.name, parsed.name
    entry = GAMES.get(parsed.name)
    if entry is None:
        _load_entry_points()
        entry = GAMES.get(parsed.name)
    if entry is None:
        raise UnknownNameError("game", parsed.name, available_games())
    return parsed, parsed.name, entry[0]


def game_options(spec: str) -> tuple[GameOption, ...]:
    """The options the game named by ``spec`` declares (its class's ``options``)."""
    _, name, target = _resolve(spec)
    return tuple(getattr(_factory(name, target, spec), "options", ()))


def get_game(spec: str, **options: Any) -> Game[Any, Any]:
    """The game named by ``spec`` (see :data:`GAMES`): ``tictactoe``, ``pig:goal=50``,
    ``py:mypkg.mygame:MyGame:size=9``, or a ``gamesearch.games`` entry point's name. The
    spec's options are read by the options the game declares (:class:`GameOption`), then
    ``options`` (Python values) are added, and the factory is called with them all."""
    parsed, name, target = _resolve(spec)
    factory = _factory(name, target, spec)
    declared: tuple[GameOption, ...] = tuple(getattr(factory, "options", ()))
    values = read_game_options(name, declared, parsed.options)
    try:
        game = factory(**{**values, **options})
    except GameError:
        raise
    except Exception as exc:  # a keyword the factory does not take; outside code failing
        if not isinstance(exc, TypeError) and not target.startswith(_OUTSIDE):
            raise
        raise InvalidLimitError(f"game {echo(spec)} could not be built: "
                                f"{type(exc).__name__}: {exc}") from None
    if not isinstance(game, Game):
        raise InvalidLimitError(f"game {echo(spec)}: {target} made a "
                                f"{type(game).__name__}, not a gamesearch Game")
    game.spec_name = name
    return game


def portable_spec(spec: str) -> str:
    """``spec`` as any process can load it: a name registered in this process only (by
    :func:`register`) becomes ``py:MODULE:ATTR`` with the same options; a library game, an
    entry point or a ``py:`` spec stays as it is. The arena hands this to its workers."""
    parsed, name, target = _resolve(spec)
    if not target.startswith(_OUTSIDE) or name.startswith(_OUTSIDE) or name in _ENTRY_NAMES:
        return spec
    rest = ",".join(f"{k}={v}" for k, v in parsed.options.items())
    return target + (f":{rest}" if rest else "")


__all__ = ["ENTRY_POINT_GROUP", "GAMES", "available_games", "game_options", "get_game",
           "import_outside_module", "portable_spec", "register"]
