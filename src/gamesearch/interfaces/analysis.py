"""What ``analyze --json`` and ``solve --json`` answer, built once for every interface.

The command line (:mod:`gamesearch.interfaces.cli`) prints these dicts (or a line of text made from
them); the web app (:mod:`gamesearch.interfaces.web`) answers its JSON API with the very same dicts.
Nothing here reads arguments or writes output: the callers choose the limit and the source
of the positions, and report errors (every bad input raises a :class:`~gamesearch.errors.
GameError` with a one-line message).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..capabilities import RAW_SCORES
from ..errors import GameError, SearchTimeout
from ..game import CHANCE, BookEntry, FastSolver, Game, solve_until
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
    ``match_hooks()``; Connect Four: the solver), else ISMCTS for a game with hidden
    information (any game with an observation), else :func:`default_algorithm`."""
    hooks = game.match_hooks()
    if hooks is not None and hooks.default_opponent is not None:
        return hooks.default_opponent
    if game.observation() is not None:  # hidden cards: a sampling agent, handed the view
        return "ismcts"
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
        record: dict[str, Any] = {
            "game": game.spec, "position": game.format_state(state), "algorithm": "book",
            "move": move, "value": entry.score, "exact": entry.exact, "nodes": 0,
            "pv": [move]}
        return {**record, **people_notation(game, state, record)}
    spec = algorithm or default_algorithm(game)
    name, options, spec_limit = parse_spec(spec)
    if limit is None:
        limit = spec_limit if not spec_limit.unlimited else Limit(time=1.0)
    searcher = make_searcher(game, name, **options)

    def fmt(action: Any) -> str:
        return game.format_action(state, action)

    result = searcher.search(state, limit, callback)
    data = {
        "game": game.spec,
        "position": position if position is not None else game.format_state(state),
        "algorithm": spec,
        **result.as_dict(fmt),
    }
    data["value"] = json_value(result.value)
    data["pv"] = format_pv(game, state, result.pv)
    if "root_values" in data:
        data["root_values"] = {fmt(a): json_value(v) for a, v in data["root_values"]}
    data.update(people_notation(game, state, data))
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
    out = {"game": game.spec, "position": text, "algorithm": data.pop("algorithm", "solve"),
           **data}
    return {**out, **people_notation(game, state, out)}


def people_notation(g: Game[Any, Any], s: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The moves of an ``analyze``/``solve`` object as people write them (the game's
    ``describe_action``: chess's SAN ``Qxd8+`` beside the UCI ``d1d8`` the command line's
    JSON keeps): ``move_text``, ``moves_text``, ``pv_text`` and ``root_values_text`` (move
    text -> value), for whichever of ``move``, ``moves``, ``pv``, ``root_values`` it has."""
    def text(move: Any) -> str | None:
        try:
            return g.describe_action(s, g.parse_action(s, str(move)))
        except GameError:
            return None

    out: dict[str, Any] = {}
    if isinstance(data.get("move"), str):
        out["move_text"] = text(data["move"])
    if isinstance(data.get("moves"), list):
        out["moves_text"] = [text(m) for m in data["moves"]]
    if isinstance(data.get("pv"), list):
        line, t = [], s
        try:
            for word in data["pv"]:
                if g.is_terminal(t) or g.to_move(t) == CHANCE:
                    break
                a = g.parse_action(t, str(word))
                line.append(g.describe_action(t, a))
                t = g.result(t, a)
        except GameError:
            pass
        out["pv_text"] = line
    if isinstance(data.get("root_values"), dict):
        out["root_values_text"] = {text(m) or m: v for m, v in data["root_values"].items()}
    return out


def move_scores(
    game: Game[Any, Any],
    state: Any,
    *,
    fast: FastSolver | None = None,
    limit: Limit | None = None,
    book: str | None = None,
    solve: bool = True,
) -> list[dict[str, Any]]:
    """Every legal move's exact score for the player to move, in the game's score convention
    (Connect Four: Pons's scores, as his site shows above the seven columns).

    Each move's score is minus the score of the position it leads to (Pons's solver page
    does the same), found by the cheapest way that is exact, in this order:

    1. a move that ends the game: from its utility;
    2. the opening book (``book``, see :meth:`Game.opening_book`) where its entry is exact;
    3. one ply on top of the book: the best of that position's own moves when each ends the
       game or has an exact book entry (the moves off a book line land there);
    4. the solver, on what is left: the compiled one (``fast``, through
       :func:`~gamesearch.game.solve_until`, its table kept from move to move: still sound),
       else :func:`gamesearch.search.solve.solve`.

    ``limit``: its time is the budget of the whole call, shared by the moves the solver
    scores (time a move leaves unused passes to the next); its nodes bound each Python
    solve (the compiled solver reads only the clock). A move still unsolved then gets
    ``score`` ``None``, with ``result`` (``win``/``draw``/``loss``) when the book knows
    that much. Each item: ``move``, ``score``, ``nodes``, ``source`` (``end``, ``book``,
    ``solver`` or ``None``). Two-player zero-sum games without chance only. ``solve``
    false: steps 1-3 only (what is known at once, in milliseconds).
    """
    gt = game.game_type
    if gt.num_players != 2 or not gt.zero_sum or gt.chance:
        raise GameError(f"{game.name}: move scores need a two-player zero-sum game "
                        "without chance (use analyze)")
    if game.is_terminal(state):
        raise GameError(f"{game.name}: the position is already over; nothing to solve")
    opening = game.opening_book(book) if book else None
    out: list[dict[str, Any]] = []
    pending: list[tuple[dict[str, Any], Any]] = []
    for a in game.actions(state):
        child = game.result(state, a)
        item: dict[str, Any] = {"move": game.format_action(state, a), "score": None,
                                "nodes": None, "source": None}
        out.append(item)
        if game.is_terminal(child):
            item.update(score=_ending_score(game, state, child), nodes=0, source="end")
            continue
        entry = opening.lookup(child) if opening is not None else None
        score = -entry.score if entry is not None and entry.exact else (
            _score_over_book(game, child, opening) if opening is not None else None)
        if score is not None:
            item.update(score=json_value(score + 0), nodes=0, source="book")
            continue
        if entry is not None:  # the sign only: what the book knows if the solver runs out
            item["result"] = "win" if entry.score < 0 else "loss" if entry.score > 0 else "draw"
        pending.append((item, child))
    if solve:
        _solve_pending(game, pending, fast, limit)
    return out


def _ending_score(game: Game[Any, Any], state: Any, child: Any) -> Any:
    """The score at ``state`` of the move to ``child``, a terminal position: its utility for
    the mover, a full win or loss one ply away, in the game's score convention."""
    u = game.utility(child, game.to_move(state))
    maxu = game.max_utility
    if u >= maxu or u <= -maxu:
        step = maxu / 1000.0
        u = u - step if u > 0 else u + step
    return json_value((game.score_convention() or RAW_SCORES).exact_score(state, u))


def _score_over_book(game: Game[Any, Any], child: Any, opening: Any) -> Any:
    """``child``'s score for the player to move there when every move from it ends the game
    or leads to a position the book holds exactly (the best of them), else ``None``; the
    caller negates it."""
    best = None
    for a in game.actions(child):
        grand = game.result(child, a)
        if game.is_terminal(grand):
            v = _ending_score(game, child, grand)
        else:
            entry = opening.lookup(grand)
            if entry is None or not entry.exact:
                return None
            v = -entry.score
        best = v if best is None or v > best else best
    return None if best is None else -best


def _solve_pending(game: Game[Any, Any], pending: list[tuple[dict[str, Any], Any]],
                   fast: FastSolver | None, limit: Limit | None) -> None:
    """Scores ``pending`` (item, position) pairs with the solver, in the time of ``limit``
    (see :func:`move_scores`). The compiled solver goes round the moves with growing
    shares of the time left (a quarter, a half, all of it): the easy moves are done first
    instead of the first hard one eating the budget, and a move taken up again goes on from
    the table its last round left (kept from move to move: still sound)."""
    end = time.perf_counter() + limit.time if limit is not None and limit.time else None
    if fast is None or end is None:
        for i, (item, child) in enumerate(pending):
            if fast is not None:
                _solved(item, fast.solve(child, keep_table=i > 0))
                continue
            share = None if end is None else (end - time.perf_counter()) / (len(pending) - i)
            if share is not None and share <= 0:
                break
            sub = Limit(time=share, nodes=limit.nodes if limit is not None else None)
            try:
                _solved(item, solve_position(game, child, limit=sub))
            except SearchTimeout:
                continue
        return
    left = list(pending)
    first = True
    for part in (0.25, 0.5, 1.0):
        this_round = list(left)
        start = time.perf_counter()
        round_end = start + (end - start) * part
        for k, (item, child) in enumerate(this_round):
            now = time.perf_counter()
            share = (round_end - now) / (len(this_round) - k)
            if share <= 0:
                break
            data = solve_until(fast.solve, child, now + share, keep_table=not first,
                               slice_seconds=0.25)
            first = False
            if data is not None:
                _solved(item, data)
                left = [p for p in left if p[0] is not item]
        if not left or time.perf_counter() >= end:
            return


def _solved(item: dict[str, Any], data: dict[str, Any]) -> None:
    item.update(score=json_value(-data["value"] + 0), nodes=data["nodes"], source="solver")
    item.pop("result", None)


def solve_hidden(game: Game[Any, Any], text: str, *, pure: bool = False) -> dict[str, Any]:
    """``solve`` of a game with hidden information through its perfect view (bridge's
    double dummy, :class:`~gamesearch.capabilities.PerfectView`): each state the view's
    ``positions`` gives for ``text`` solved (the compiled solver unless ``pure``; the
    generic one otherwise), with ``value`` (the side to move's score), the game's meaning
    of it (bridge: ``tricks``), the best moves in full, nodes and seconds. One state: its
    record; several (a deal without strain and declarer): ``{"table": {label: record}}``."""
    pv = game.perfect_view()
    if pv is None:
        raise GameError(f"{game.name} has no perfect view to solve")
    records: dict[str, dict[str, Any]] = {}
    for label, state in pv.positions(text):
        if game.is_terminal(state):
            raise GameError(f"{game.name}: the position is already over; nothing to solve")
        start = time.perf_counter()
        if pv.solve is not None and not pure:
            data = pv.solve(state)
            score, best, nodes = data["score"], data["moves"], data["nodes"]
        else:
            view_game, view = pv.view(state)
            r = solve(view_game, view)
            score, best, nodes = int(r.value), list(r.best_actions), r.nodes
        moves = [game.format_action(state, m) for a in best for m in pv.equivalents(state, a)]
        records[label] = {"value": score, **pv.result(state, score), "moves": moves,
                          "move": moves[0], "nodes": nodes,
                          "seconds": round(time.perf_counter() - start, 6)}
    head = {"game": game.spec, "position": text, "algorithm": "solve"}
    if len(records) == 1:
        return {**head, **next(iter(records.values()))}
    return {**head, "table": records,
            "nodes": sum(r["nodes"] for r in records.values()),
            "seconds": round(sum(r["seconds"] for r in records.values()), 6)}

