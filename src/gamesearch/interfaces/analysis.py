"""What ``analyze --json`` and ``solve --json`` answer, built once for every interface.

The command line (:mod:`gamesearch.interfaces.cli`) prints these dicts (or a line of text made from
them); the web app (:mod:`gamesearch.interfaces.web`) answers its JSON API with the very same dicts.
Nothing here reads arguments or writes output: the callers choose the limit and the source
of the positions, and report errors (every bad input raises a :class:`~gamesearch.errors.
GameError` with a one-line message).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..capabilities import RAW_SCORES
from ..errors import GameError, SearchTimeout
from ..game import BookEntry, FastSolver, Game
from ..search import Limit, SearchResult, make_searcher, parse_spec
from ..search.solve import solve


def default_algorithm(game: Game[Any, Any]) -> str:
    """The algorithm ``analyze`` uses when none is given: chance -> expectiminimax,
    n players or not zero-sum -> maxn, else the engine ``id``."""
    gt = game.game_type
    if gt.chance:
        return "expectiminimax"
    if gt.num_players > 2 or not gt.zero_sum:
        return "maxn"
    return "id"


def default_agent(game: Game[Any, Any]) -> str:
    """The agent put against a person who names none: the game's default opponent (its
    ``match_hooks()``; Connect Four: the solver), else :func:`default_algorithm`."""
    hooks = game.match_hooks()
    if hooks is not None and hooks.default_opponent is not None:
        return hooks.default_opponent
    return default_algorithm(game)


def json_value(value: Any) -> Any:
    """A value for JSON: vectors as lists, whole floats as ints."""
    if isinstance(value, tuple | list):
        return [json_value(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def book_entry(game: Game[Any, Any], state: Any, spec: str | None) -> BookEntry | None:
    """The entry for ``state`` in the game's opening book (``spec``: see
    :meth:`Game.opening_book`), or None (no book, or the book lacks the position)."""
    if game.is_terminal(state):
        return None
    book = game.opening_book(spec)
    return book.lookup(state) if book is not None else None


def format_pv(game: Game[Any, Any], state: Any, pv: Sequence[Any]) -> list[str]:
    """The principal variation in the game's notation, each move read in its own position."""
    words = []
    for a in pv:
        words.append(game.format_action(state, a))
        state = game.result(state, a)
    return words


def analyze(
    game: Game[Any, Any],
    state: Any,
    *,
    position: str | None = None,
    algorithm: str | None = None,
    limit: Limit | None = None,
    book: str | None = None,
    callback: Callable[[SearchResult], None] | None = None,
) -> dict[str, Any]:
    """The ``analyze --json`` object for ``state``.

    ``position`` is echoed as given (default: the state's own notation). With neither an
    ``algorithm`` nor a ``limit``, the game's opening book answers when it holds the position
    (``book``: see :meth:`Game.opening_book`). Without ``limit``, the algorithm spec's own
    limit applies, else one second. ``callback`` gets every completed iteration.
    """
    entry = book_entry(game, state, book) if not algorithm and limit is None else None
    if entry is not None:  # the opening book's answer: 0 nodes
        move = game.format_action(state, entry.move)
        return {"game": game.name, "position": game.format_state(state), "algorithm": "book",
                "move": move, "value": entry.score, "exact": entry.exact, "nodes": 0,
                "pv": [move]}
    spec = algorithm or default_algorithm(game)
    name, options, spec_limit = parse_spec(spec)
    if limit is None:
        limit = spec_limit if not spec_limit.unlimited else Limit(time=1.0)
    searcher = make_searcher(game, name, **options)

    def fmt(action: Any) -> str:
        return game.format_action(state, action)

    result = searcher.search(state, limit, callback)
    data = {
        "game": game.name,
        "position": position if position is not None else game.format_state(state),
        "algorithm": spec,
        **result.as_dict(fmt),
    }
    data["value"] = json_value(result.value)
    data["pv"] = format_pv(game, state, result.pv)
    if "root_values" in data:
        data["root_values"] = {fmt(a): json_value(v) for a, v in data["root_values"]}
    return data


def solve_position(
    game: Game[Any, Any],
    state: Any,
    *,
    weak: bool = False,
    book: str | None = None,
    fast: FastSolver | None = None,
    limit: Limit | None = None,
) -> dict[str, Any]:
    """What ``solve --json`` prints of ``state``, but for its ``game``, ``position`` and
    ``algorithm`` keys (``algorithm`` only when it is not ``solve``: ``book``, or the search
    that values an n-player or chance game).

    ``book``: answer from the game's opening book when it holds the position exactly
    (``None``: do not ask it). ``fast``: the game's compiled solver (``game.fast_solver()``)
    or None. ``limit`` (time and/or nodes; ``None``: none) bounds the solve; past it
    :class:`~gamesearch.errors.SearchTimeout` is raised. The compiled solver only counts
    nodes: give it a node budget.
    """
    gt = game.game_type
    entry = book_entry(game, state, book) if book else None
    if entry is not None and (entry.exact or weak):
        return {"value": max(-1, min(1, entry.score)) if weak else entry.score,
                "move": game.format_action(state, entry.move),
                "moves": [game.format_action(state, entry.move)],
                "nodes": 0, "seconds": 0.0, "source": "book", "algorithm": "book"}
    if gt.num_players == 2 and gt.zero_sum and not gt.chance:
        if fast is not None:
            max_nodes = limit.nodes if limit is not None else None
            data = dict(fast.solve(state, weak=weak, max_nodes=max_nodes))
            data["move"] = game.format_action(state, data["move"])
            data["moves"] = [data["move"]]
            data["seconds"] = round(data["seconds"], 6)
            return data
        r = solve(game, state, weak=weak, limit=limit)
        return {"value": r.value, "move": r.move, "moves": r.best_moves,
                "nodes": r.nodes, "seconds": round(r.seconds, 6)}
    # n players or chance: the exact value by a full-depth search
    if weak:
        raise GameError(f"--weak needs a two-player zero-sum game; {game.name} is not one")
    r = make_searcher(game, default_algorithm(game)).search(state, limit or Limit())
    if not r.completed:
        raise SearchTimeout
    return {"algorithm": default_algorithm(game), "value": json_value(r.value),
            "move": r.move, "moves": [r.move], "nodes": r.nodes, "seconds": round(r.seconds, 6)}


def solve_record(game: Game[Any, Any], state: Any, text: str, **options: Any
                 ) -> dict[str, Any]:
    """The whole ``solve --json`` object of ``state`` written as ``text`` (options: those
    of :func:`solve_position`)."""
    data = solve_position(game, state, **options)
    return {"game": game.name, "position": text, "algorithm": data.pop("algorithm", "solve"),
            **data}


def move_scores(
    game: Game[Any, Any],
    state: Any,
    *,
    fast: FastSolver | None = None,
    limit: Limit | None = None,
    book: str | None = None,
) -> list[dict[str, Any]]:
    """Every legal move's exact score for the player to move, in the game's score convention
    (Connect Four: Pons's scores, as his site shows above the seven columns).

    A move that ends the game is scored from its utility; any other by solving the position
    it leads to and negating (``book``: from the opening book where it is exact, see
    :func:`solve_position`). A move whose solve runs past ``limit`` gets ``None``.
    Two-player zero-sum games without chance only.
    """
    gt = game.game_type
    if gt.num_players != 2 or not gt.zero_sum or gt.chance:
        raise GameError(f"{game.name}: move scores need a two-player zero-sum game "
                        "without chance (use analyze)")
    if game.is_terminal(state):
        raise GameError(f"{game.name}: the position is already over; nothing to solve")
    mover = game.to_move(state)
    maxu = game.max_utility
    step = maxu / 1000.0
    scores = game.score_convention() or RAW_SCORES
    out: list[dict[str, Any]] = []
    for a in game.actions(state):
        child = game.result(state, a)
        item: dict[str, Any] = {"move": game.format_action(state, a)}
        if game.is_terminal(child):
            u = game.utility(child, mover)
            if u >= maxu or u <= -maxu:  # a win (or loss) one ply away
                u = u - step if u > 0 else u + step
            item["score"] = json_value(scores.exact_score(state, u))
            item["nodes"] = 0
        else:
            try:
                data = solve_position(game, child, fast=fast, limit=limit, book=book)
            except SearchTimeout:
                item["score"] = None
                item["nodes"] = None
            else:
                item["score"] = json_value(-data["value"] + 0)
                item["nodes"] = data["nodes"]
        out.append(item)
    return out
