"""Exact solving: the generic negamax engine configured as a solver, driven by null windows.

Follows Pascal Pons, "Solving Connect 4: how to build a perfect AI" (blog.gamesolver.org,
parts 3-12), with every piece of game knowledge coming through the game's hooks:

* negamax alpha-beta with a transposition table of lower/upper bounds
  (:class:`gamesearch.search.negamax.Negamax`, ``tt`` option; the game's ``key`` hook may
  fold a position and its mirror image into one key);
* move ordering by the game's ``order_actions`` hook (Connect Four: threats created, centre
  first);
* pruning of the moves that lose at once (``safe_actions``), early detection of a win at once
  (``winning_action``), and the score bounds both imply (``Negamax``'s ``safe`` option);
* iterative narrowing of the score window at the root with zero-window searches (Pons part 7,
  a binary search with his bias of the pivot towards zero: the MTD-bi family).

Scores live in the game's convention (``exact_score``/``score_threshold``; Connect Four uses
Pons's, the empty board is +1). A game without these hooks is solved on its raw values.
Departure from Pons: the root never probes the table for a cut-off (it only narrows) and
the node count includes the root of every probe, as his does.
"""

from __future__ import annotations

import time
from math import inf, nextafter
from typing import Any

from ..errors import GameError
from ..game import CHANCE, Game
from .base import gc_paused
from .common import Clock, Limit, NoClock
from .negamax import Negamax


def make_solver(game: Game[Any, Any], tt: int | str = 1 << 22) -> Negamax:
    """The engine configured as an exact solver for ``game``."""
    return Negamax(
        game,
        tt=tt,
        hook=True,  # the game's ordering only: no killers, no history, no TT move,
        killers=False,  # so that the node counts are the algorithm's, not the history's
        history=False,
        tt_move=False,
        pvs=False,
        safe=None,  # the game's safe_actions/winning_action hooks when it has them
    )


def _trunc_half(x: float) -> int:
    return int(x / 2)  # C's integer division (towards zero), as in Pons's solver


def solve(
    game: Game[Any, Any],
    state: Any,
    *,
    weak: bool = False,
    solver: Negamax | None = None,
    best_moves: bool = True,
    limit: Limit | None = None,
) -> dict[str, Any]:
    """Solve ``state`` exactly. Returns ``{"value", "move", "moves", "nodes", "seconds"}``.

    ``value`` is in the game's score convention; ``weak=True`` only finds its sign
    (win / draw / loss). ``moves`` lists every best move (when ``best_moves``).
    Under a ``limit`` with time or nodes, raises :class:`SearchTimeout` when it runs out.
    """
    gt = game.game_type
    if gt.num_players != 2 or gt.chance or not gt.perfect_information or not gt.zero_sum:
        raise GameError(f"{game.name}: exact solving needs a two-player zero-sum perfect-"
                        "information game without chance (use analyze)")
    if game.is_terminal(state):
        raise GameError(f"{game.name}: the position is already over; nothing to solve")
    if game.to_move(state) == CHANCE:
        raise GameError(f"{game.name}: the position is a chance node")
    engine = solver or make_solver(game)
    engine.new_search()
    engine.clock = Clock(limit) if limit is not None and limit.budgeted else NoClock()
    with gc_paused():
        return _solve(game, state, engine, weak, best_moves)


def _solve(
    game: Game[Any, Any], state: Any, engine: Negamax, weak: bool, best_moves: bool
) -> dict[str, Any]:
    start = time.perf_counter()
    maxu = game.max_utility
    step = maxu / 1000.0 if engine.discount else 0.0
    move: Any = None
    engine.solving = True
    if engine.safe and (win := game.winning_action(state)) is not None:
        # A win at once is found before any search (0 nodes, as in Pons's solve()).
        score = game.exact_score(state, maxu - step)
        move, lo = win, score
    else:
        # Pons's initial window: no loss before the opponent's next move, no win before ours.
        lo = game.exact_score(state, -maxu + 2 * step)
        hi = game.exact_score(state, maxu - step)
        if weak:
            lo, hi = max(lo, -1.0), min(hi, 1.0)
        while lo < hi:
            med = lo + (hi - lo) // 2
            if med <= 0 and _trunc_half(lo) < med:
                med = _trunc_half(lo)
            elif med >= 0 and _trunc_half(hi) > med:
                med = _trunc_half(hi)
            b = game.score_threshold(state, med)
            it = engine._root(state, None, b, nextafter(b, inf))
            r = game.exact_score(state, it.value)
            if weak:
                r = max(-1.0, min(1.0, r))
            if it.value <= b:
                hi = r
            else:
                lo = r
                if it.action is not None:
                    move = it.action
    nodes = engine.nodes
    moves: list[Any] = []
    if best_moves or move is None:  # (no probe failed high with a move: find one)
        moves = _best_moves(game, engine, state, lo, weak)
        if move is None and moves:
            move = moves[0]
    if move is None:
        move = next(iter(game.actions(state)))
    return {
        "value": int(lo) if float(lo).is_integer() else lo,
        "move": move,
        "moves": moves if best_moves and moves else [move],
        "nodes": nodes,
        "seconds": time.perf_counter() - start,
    }


def _best_moves(game: Game[Any, Any], engine: Negamax, state: Any, score: float,
                weak: bool) -> list[Any]:
    """Every move that keeps the solved score (one zero-window probe each, warm table)."""
    win = game.winning_action(state) if engine.safe else None
    if win is not None:
        return [a for a in game.actions(state)
                if game.is_terminal(game.result(state, a))
                and game.utility(game.result(state, a), game.to_move(state)) > 0]
    candidates = list(game.safe_actions(state)) if engine.safe else list(game.actions(state))
    if not candidates:  # every move loses at once: all are equally bad
        return list(game.actions(state))
    b = game.score_threshold(state, score - 1 if not weak else min(score, 1) - 1)
    saved = engine.nodes
    best = [a for a in candidates
            if engine._root(state, None, b, nextafter(b, inf), root_moves=[a]).value > b]
    engine.nodes = saved  # report the solve's own effort, like the references do
    return best
