"""Search algorithms, each written once against the game model (:mod:`gamesearch.game`).

>>> from gamesearch.games import get_game
>>> from gamesearch.search import search, Limit
>>> game = get_game("tictactoe")
>>> r = search(game, game.initial_state(), "alphabeta", discount=False)
>>> r.value, r.nodes
(0.0, 18297)

An algorithm is named by a *spec*: ``name`` or ``name:key=value,key=value``, where the keys
are the search limit (``depth``, ``time``, ``nodes``) and the algorithm's options
(``tt=1M``, ``ordering=1``, ``pvs=1``, ``quiescence=0``, ``aspiration=50``, ``discount=0``,
``soft_share=0.5``, ``instability=1``; for ``maxn``: ``shallow=1``, ``lastbranch=1``,
``speculative=1``; ``paranoid`` takes the engine's ``tt``, ``ordering``, ...; for
``mcts``: ``c=0.5``, ``solver=1``, ``puct=1``, ``playout_depth=N``, ``transpositions=1``,
``reuse=0``, ``seed=N``, ``iterations=N``, ``fast=0``, ``wdl=1``, ``rave=1``, ``rave_k=1000``,
``prior_visits=N``, ``margin=0.1``);
:mod:`gamesearch.spec` reads them, each in its documented range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidLimitError, UnknownNameError, UnsupportedGameError
from ..game import Game
from ..spec import read_bool, read_float, read_int, shorten, split_spec
from .alphabeta import AlphaBeta
from .base import Searcher
from .brs import BestReply, BestReplyPlus
from .common import Callback, SearchResult
from .control import MAX_DEPTH_LIMIT, MAX_NODES, MAX_SECONDS, Limit
from .expectiminimax import Expectiminimax
from .maxn import MaxN, Paranoid
from .mcts import MCTS
from .minimax import Minimax
from .negamax import Negamax
from .star import Star1, Star2
from .tt import parse_size


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
        AlgorithmInfo("brs", BestReply, {}, BestReply.summary),
        AlgorithmInfo("brs+", BestReplyPlus, {}, BestReplyPlus.summary),
        AlgorithmInfo("expectiminimax", Expectiminimax, {}, Expectiminimax.summary),
        AlgorithmInfo("star1", Star1, {}, Star1.summary),
        AlgorithmInfo("star2", Star2, {}, Star2.summary),
        AlgorithmInfo("mcts", MCTS, {}, MCTS.summary),
    ]
}

BOOL_OPTIONS = (
    "ordering", "killers", "history", "quiescence", "pvs", "discount", "iterate", "partial",
    "compiled",
    "check_extension", "null_move", "lmr", "lmr_table", "lmp", "iir", "see_pruning",
    "noisy_first",
    "futility", "zero_eval", "endgame", "instability",
    "solver", "puct", "transpositions", "reuse", "fast", "wdl", "rave",  # mcts
    "shallow", "lastbranch", "speculative",  # maxn's pruning
)

#: How each option of a search spec is read (one reader, one documented range each).
OPTION_READERS: dict[str, Callable[[str, str], Any]] = {
    **{key: read_bool for key in BOOL_OPTIONS},
    "tt": lambda key, text: parse_size(text),
    "aspiration": lambda key, text: read_float(key, text, 0.0, 1e9, low_open=True),
    "soft_share": lambda key, text: read_float(key, text, 0.0, 1.0, low_open=True),
    # mcts
    "c": lambda key, text: read_float(key, text, 0.0, 1e6),
    "iterations": lambda key, text: read_int(key, text, 1, MAX_NODES),
    "playout_depth": lambda key, text: read_int(key, text, 0, MAX_DEPTH_LIMIT),
    "seed": lambda key, text: read_int(key, text, 0, 2**63 - 1),
    "rave_k": lambda key, text: read_float(key, text, 0.0, 1e12),
    "prior_visits": lambda key, text: read_float(key, text, 0.0, 1e9),
    "margin": lambda key, text: read_float(key, text, 0.0, 0.99),
    # the game's evaluation by name (backgammon: pips, td): each seat chooses its own
    "evaluation": lambda key, text: read_name(key, text),
}

def read_name(key: str, text: str) -> str:
    """A short name (a game's evaluation): letters, digits, ``_`` and ``-``."""
    name = text.strip().lower()
    if not (0 < len(name) <= 40 and name.isascii()
            and all(ch.isalnum() or ch in "_-" for ch in name)):
        raise InvalidLimitError(f"option {key}={shorten(text)!r}: expected a name (letters, "
                                "digits, _ and -), such as td")
    return name


#: The limit's keys in a spec and their ranges.
LIMIT_READERS: dict[str, Callable[[str, str], Any]] = {
    "depth": lambda key, text: read_int(key, text, 1, MAX_DEPTH_LIMIT),
    "nodes": lambda key, text: read_int(key, text, 1, MAX_NODES),
    "time": lambda key, text: read_float(key, text, 0.0, MAX_SECONDS, low_open=True),
}
LIMIT_KEYS = tuple(LIMIT_READERS)


def parse_spec(spec: str) -> tuple[str, dict[str, Any], Limit]:
    """``"alphabeta:depth=6,tt=1M"`` → ``("alphabeta", {"tt": 1048576}, Limit(depth=6))``."""
    try:
        parsed = split_spec(spec)
    except InvalidLimitError:
        name = spec.strip().partition(":")[0].strip().lower()
        if name not in ALGORITHMS:  # ("uci:/path": the name is what is wrong, not key=value)
            raise UnknownNameError("algorithm", shorten(name), ALGORITHMS) from None
        raise
    options: dict[str, Any] = {}
    limit_args: dict[str, Any] = {}
    for key, val in parsed.options.items():
        if key in LIMIT_READERS:
            limit_args[key] = LIMIT_READERS[key](key, val)
        elif key in OPTION_READERS:
            options[key] = OPTION_READERS[key](key, val)
        else:
            allowed = ", ".join([*LIMIT_READERS, *OPTION_READERS])
            raise InvalidLimitError(f"unknown option {shorten(key)!r} in {shorten(spec)!r}; "
                                    f"allowed: {allowed}")
    return parsed.name, options, Limit(**limit_args)


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
    "MCTS",
    "AlphaBeta",
    "BestReply",
    "BestReplyPlus",
    "Expectiminimax",
    "Limit",
    "MaxN",
    "Minimax",
    "Negamax",
    "Paranoid",
    "SearchResult",
    "Searcher",
    "Star1",
    "Star2",
    "make_searcher",
    "parse_spec",
    "search",
]
