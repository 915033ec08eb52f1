"""Search algorithms, each written once against the game model (:mod:`gamesearch.game`).

>>> from gamesearch.games import get_game
>>> from gamesearch.search import search, Limit
>>> game = get_game("tictactoe")
>>> r = search(game, game.initial_state(), "alphabeta", discount=False)
>>> r.value, r.nodes
(0.0, 18297)

An algorithm is named by a *spec*: ``name`` or ``name:key=value,key=value``, where the keys
are the search limit (``depth``, ``time``, ``nodes``) and the algorithm's options
(``tt=1M``, ``ordering=1``, ``pvs=1``, ``quiescence=0``, ``aspiration=50``, ``discount=0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidLimitError, UnknownNameError, UnsupportedGameError
from ..game import Game
from .alphabeta import AlphaBeta
from .base import Searcher
from .common import Callback, Limit, SearchResult
from .expectiminimax import Expectiminimax
from .maxn import MaxN, Paranoid
from .minimax import Minimax
from .negamax import Negamax


@dataclass(frozen=True)
class AlgorithmInfo:
    name: str
    cls: type[Searcher]
    defaults: dict[str, Any]
    summary: str


ALGORITHMS: dict[str, AlgorithmInfo] = {
    a.name: a
    for a in [
        AlgorithmInfo("minimax", Minimax, {}, Minimax.summary),
        AlgorithmInfo("alphabeta", AlphaBeta, {}, AlphaBeta.summary),
        AlgorithmInfo("negamax", Negamax, {}, Negamax.summary),
        AlgorithmInfo(
            "pvs",
            Negamax,
            {"pvs": True, "ordering": True},
            "principal variation search: negamax + zero windows + killer/history ordering",
        ),
        AlgorithmInfo(
            "id",
            Negamax,
            {"pvs": True, "ordering": True, "tt": 1 << 20, "iterate": True, "safe": None},
            "the engine: iterative deepening PVS + transposition table + ordering + quiescence",
        ),
        AlgorithmInfo("maxn", MaxN, {}, MaxN.summary),
        AlgorithmInfo("paranoid", Paranoid, {}, Paranoid.summary),
        AlgorithmInfo("expectiminimax", Expectiminimax, {}, Expectiminimax.summary),
    ]
}

LIMIT_KEYS = ("depth", "time", "nodes")
BOOL_OPTIONS = (
    "ordering", "killers", "history", "quiescence", "pvs", "discount", "iterate", "partial",
    "check_extension", "null_move", "lmr", "futility",
)


def _parse_bool(key: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise InvalidLimitError(f"option {key}={text!r}: expected 1/0, true/false, on/off")


def _parse_number(key: str, text: str, kind: type) -> Any:
    try:
        return kind(text) if kind is float else int(text)
    except ValueError:
        raise InvalidLimitError(f"option {key}={text!r}: expected a {kind.__name__}") from None


def parse_spec(spec: str) -> tuple[str, dict[str, Any], Limit]:
    """``"alphabeta:depth=6,tt=1M"`` → ``("alphabeta", {"tt": "1M"}, Limit(depth=6))``."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    options: dict[str, Any] = {}
    limit_args: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, val = part.partition("=")
        key = key.strip().lower()
        if not eq:
            raise InvalidLimitError(f"option {part!r} in {spec!r}: expected key=value")
        if key == "depth":
            limit_args["depth"] = _parse_number(key, val, int)
        elif key == "time":
            limit_args["time"] = _parse_number(key, val, float)
        elif key == "nodes":
            limit_args["nodes"] = _parse_number(key, val, int)
        elif key in BOOL_OPTIONS:
            options[key] = _parse_bool(key, val)
        elif key == "tt":
            options["tt"] = val.strip()
        elif key in ("aspiration", "soft_time"):
            options[key] = _parse_number(key, val, float)
        else:
            allowed = ", ".join([*LIMIT_KEYS, *BOOL_OPTIONS, "tt", "aspiration", "soft_time"])
            raise InvalidLimitError(f"unknown option {key!r} in {spec!r}; allowed: {allowed}")
    return name, options, Limit(**limit_args)


def make_searcher(game: Game[Any, Any], algorithm: str, **options: Any) -> Searcher:
    """Build the named algorithm for ``game`` (options override the algorithm's defaults)."""
    info = ALGORITHMS.get(algorithm)
    if info is None:
        raise UnknownNameError("algorithm", algorithm, ALGORITHMS)
    kwargs = {**info.defaults, **options}
    try:
        searcher = info.cls(game, **kwargs)
    except UnsupportedGameError:
        raise
    except TypeError as exc:  # an option this algorithm does not take
        raise InvalidLimitError(f"algorithm {algorithm}: {exc}") from None
    searcher.label = algorithm
    return searcher


def search(
    game: Game[Any, Any],
    state: Any,
    algorithm: str = "id",
    limit: Limit | None = None,
    callback: Callback | None = None,
    **options: Any,
) -> SearchResult:
    """Search ``state`` with the named algorithm (or spec) and return a :class:`SearchResult`.

    ``algorithm`` may be a spec such as ``"alphabeta:depth=4"``; an explicit ``limit`` wins
    over the spec's.
    """
    name, spec_options, spec_limit = parse_spec(algorithm)
    searcher = make_searcher(game, name, **{**spec_options, **options})
    return searcher.search(state, limit or spec_limit, callback)


__all__ = [
    "ALGORITHMS",
    "AlphaBeta",
    "Expectiminimax",
    "Limit",
    "MaxN",
    "Minimax",
    "Negamax",
    "Paranoid",
    "SearchResult",
    "Searcher",
    "make_searcher",
    "parse_spec",
    "search",
]
