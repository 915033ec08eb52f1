"""Exact solving: the generic negamax engine configured as a solver, driven by null windows.

Follows Pascal Pons, "Solving Connect 4: how to build a perfect AI" (blog.gamesolver.org,
parts 3-12), with every piece of game knowledge coming through the game's capabilities
(:mod:`gamesearch.capabilities`):

* negamax alpha-beta with a transposition table of lower/upper bounds
  (:class:`gamesearch.search.negamax.Negamax`, ``tt`` option; the game's ``key`` may
  fold a position and its mirror image into one key);
* move ordering by the game's ``move_ordering()`` (Connect Four: threats created, centre
  first);
* with the game's ``safe_moves()``: pruning of the moves that lose at once
  (``safe_actions``), early detection of a win at once (``winning_action``), and the score
  bounds both imply (``Negamax``'s ``safe`` option);
* iterative narrowing of the score window at the root with zero-window searches (Pons part 7,
  a binary search with his bias of the pivot towards zero: the MTD-bi family), from his
  initial window or from one already known (``bounds``, e.g. the side of zero a weak solve
  found); one such zero-window test alone is :meth:`Solver.null_window`.

Scores live in the game's ``score_convention()`` (``exact_score``/``score_threshold``;
Connect Four uses Pons's, the empty board is +1). A game without one is solved on its raw
values.
Departure from Pons: the root never probes the table for a cut-off (it only narrows) and
the node count includes the root of every probe, as his does.

:class:`Solver` owns a :class:`~gamesearch.search.negamax.Negamax` configured for solving
(the game's ordering only, no killers, history or table move, so that node counts are the
algorithm's) and drives it through its public :meth:`~Negamax.search_root`, handing it the
root bounds of a probe (:meth:`Solver.root_bounds`); the engine has no solver flags.
The result is a :class:`~gamesearch.search.common.SearchResult` like every search's, with
``value`` in the game's score convention and every best move in ``best_actions``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from math import inf, nextafter
from typing import Any, NamedTuple

from ..capabilities import RAW_SCORES
from ..errors import GameError
from ..game import CHANCE, Game
from .base import gc_paused
from .common import Iteration, SearchResult
from .control import Clock, Limit
from .negamax import Negamax
from .tt import EXACT, LOWER


class NullWindowTest(NamedTuple):
    """The answer of :meth:`Solver.null_window`."""

    above: bool
    bound: float
    action: Any
    nodes: int


def _whole(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def _trunc_half(x: float) -> int:
    return int(x / 2)  # C's integer division (towards zero), as in Pons's solver


class Solver:
    """An exact solver for ``game``: null-window probes of the generic negamax engine.

    The table (``tt`` entries) persists between solves, as Pons's does: clear it with
    ``solver.table.clear()`` for counts of a cold start.
    """

    #: The time source of the solves' clocks (``None``: ``time.perf_counter``; tests).
    time_source: Callable[[], float] | None = None

    def __init__(self, game: Game[Any, Any], tt: int | str = 1 << 22) -> None:
        gt = game.game_type
        if gt.num_players != 2 or gt.chance or not gt.perfect_information or not gt.zero_sum:
            raise GameError(f"{game.name}: exact solving needs a two-player zero-sum perfect-"
                            "information game without chance (use analyze)")
        self.game = game
        self.engine = Negamax(
            game,
            tt=tt,
            hook=True,  # the game's ordering only: no killers, no history, no TT move,
            killers=False,  # so that the node counts are the algorithm's, not the history's
            history=False,
            tt_move=False,
            pvs=False,
            safe=None,  # the game's safe moves (Pons's pruning) when it has them
        )
        self.engine.label = "solve"
        assert self.engine.table is not None
        self.table = self.engine.table
        #: the game's capabilities the solver reads (None: the game has no safe moves)
        self.safe_moves = game.safe_moves() if self.engine.safe else None
        self.scores = game.score_convention() or RAW_SCORES

    def solve(
        self,
        state: Any,
        *,
        weak: bool = False,
        best_moves: bool = True,
        limit: Limit | None = None,
        within: int | None = None,
        bounds: tuple[float, float] | None = None,
    ) -> SearchResult:
        """Solve ``state`` exactly: ``value`` in the game's score convention (``weak``: only
        its sign, win / draw / loss), ``action`` a best move, ``best_actions`` all of them
        (when ``best_moves``). Under a ``limit`` with time or nodes, raises
        :class:`~gamesearch.search.control.SearchTimeout` when it runs out.

        ``within=D``: only whether the game ends within ``D`` plies, with mate-distance
        bounds so that every probe stays ``D`` plies deep (raw values, discounted by
        distance): ``value`` is the exact win or loss when one is forced within ``D``
        plies, else ``None`` with ``extra["decided"]`` false (a draw, or a longer game).

        ``bounds=(lo, hi)``: what is already known of the score (``lo <= score <= hi``, in
        the game's score convention; e.g. ``(1, max)`` after a weak solve found a win): the
        null-window tests narrow from that window (within Pons's initial one) instead of the
        whole range. Bounds that are wrong give a wrong score."""
        if bounds is not None and not (len(bounds) == 2 and bounds[0] <= bounds[1]):
            raise GameError(f"{self.game.name}: score bounds {bounds!r}: expected (lo, hi) "
                            "with lo <= hi")
        if within is not None:
            return self._solve_within(state, within, limit)
        game = self.game
        state = game.search_start(state)  # (as every search driver does)
        if game.is_terminal(state):
            raise GameError(f"{game.name}: the position is already over; nothing to solve")
        if game.to_move(state) == CHANCE:
            raise GameError(f"{game.name}: the position is a chance node")
        self.engine.new_search()
        clock = Clock.start(limit, game.to_move(state), now=self.time_source)
        with gc_paused():
            start = time.perf_counter()
            score, move = self._score(state, weak, clock, bounds)
            nodes = self.engine.nodes
            moves: list[Any] = []
            if best_moves or move is None:  # (no probe failed high with a move: find one)
                moves = self._best_moves(state, score, weak, clock)
                if move is None and moves:
                    move = moves[0]
            if move is None:
                move = next(iter(game.actions(state)))
            seconds = time.perf_counter() - start
        value = int(score) if float(score).is_integer() else score
        return SearchResult(
            algorithm="solve", value=value, action=move, pv=[move], depth=0, nodes=nodes,
            seconds=seconds, tt_hits=self.engine.tt_hits, completed=True,
            best_actions=moves if best_moves and moves else [move],
            extra={"weak": weak},
        ).annotate(game, state)

    def _solve_within(self, state: Any, plies: int, limit: Limit | None) -> SearchResult:
        """Whether a win or a loss is forced within ``plies`` plies, and in how many: null-
        window probes "won within k plies?" (then "lost within k?"), the smallest k by
        bisection; every probe is depth-bounded by the mate-distance bounds."""
        game, engine = self.game, self.engine
        if plies < 1:
            raise GameError(f"{game.name}: solve within {plies} plies: give at least 1")
        state = game.search_start(state)
        if game.is_terminal(state):
            raise GameError(f"{game.name}: the position is already over; nothing to solve")
        maxu, step = game.max_utility, engine.win_step
        if step <= 0:
            raise GameError(f"{game.name}: solving within a distance needs discounted wins")
        engine.new_search()
        clock = Clock.start(limit, game.to_move(state), now=self.time_source)
        saved, engine.distance_bounds = engine.distance_bounds, True
        start = time.perf_counter()

        def won_within(k: int) -> bool:  # value >= maxu - k * step
            b = maxu - (k + 0.5) * step
            return bool(self._probe(state, b, clock).value > b)

        def lost_within(k: int) -> bool:  # value <= -maxu + k * step
            b = -maxu + (k + 0.5) * step
            return bool(self._probe(state, b, clock).value <= b)

        value: float | None = None
        try:
            with gc_paused():
                for test, sign in ((won_within, 1), (lost_within, -1)):
                    if test(plies):
                        lo, hi = 1, plies
                        while lo < hi:
                            mid = (lo + hi) // 2
                            if test(mid):
                                hi = mid
                            else:
                                lo = mid + 1
                        value = sign * (maxu - lo * step)
                        break
        finally:
            engine.distance_bounds = saved
        move = next(iter(game.actions(state)))
        return SearchResult(
            algorithm="solve", value=value, action=move, pv=[move], depth=plies,
            nodes=engine.nodes, seconds=time.perf_counter() - start,
            tt_hits=engine.tt_hits, completed=True, best_actions=[move],
            extra={"within": plies, "decided": value is not None},
        )

    def _score(self, state: Any, weak: bool, clock: Clock,
               bounds: tuple[float, float] | None = None) -> tuple[float, Any]:
        """The exact score by Pons's iterative narrowing (a binary search of null-window
        probes, the pivot biased towards zero), and a best move if a probe gave one."""
        game, engine, safe = self.game, self.engine, self.safe_moves
        exact_score, score_threshold = self.scores.exact_score, self.scores.score_threshold
        maxu, step = game.max_utility, engine.win_step
        if safe is not None and (win := safe.winning_action(state)) is not None:
            # A win at once is found before any search (0 nodes, as in Pons's solve()).
            return exact_score(state, maxu - step), win
        move: Any = None
        # Pons's initial window: no loss before the opponent's next move, no win before ours.
        lo = exact_score(state, -maxu + 2 * step)
        hi = exact_score(state, maxu - step)
        if bounds is not None:
            lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
        if weak:
            lo, hi = max(lo, -1.0), min(hi, 1.0)
        # (the compiled solvers of games/bridge/compiled.py and games/connect4/compiled.py
        # repeat this loop line by line, as games/ may not import search/; their tests hold
        # them to this one node for node)
        while lo < hi:
            med = lo + (hi - lo) // 2
            if med <= 0 and _trunc_half(lo) < med:
                med = _trunc_half(lo)
            elif med >= 0 and _trunc_half(hi) > med:
                med = _trunc_half(hi)
            b = score_threshold(state, med)
            it = self._probe(state, b, clock)
            r = exact_score(state, it.value)
            if weak:
                r = max(-1.0, min(1.0, r))
            if it.value <= b:
                hi = r
            else:
                lo = r
                if it.action is not None:
                    move = it.action
        return lo, move

    def null_window(self, state: Any, score: float, *, limit: Limit | None = None
                    ) -> NullWindowTest:
        """One null-window test of the whole position: is its score (the game's score
        convention) above ``score``? The test the solve's narrowing makes, alone, with the
        solver's table kept: a sequence of them narrows a score one proven bound at a time
        (Connect Four's opening book upgrade journals each). ``bound``: the score the test
        proved (at least ``bound > score`` when above, at most ``bound <= score`` when not:
        the fail-soft value may prove more than asked); ``action``: the move that proved an
        "above" (else None); ``nodes``: the test's."""
        game = self.game
        state = game.search_start(state)
        if game.is_terminal(state):
            raise GameError(f"{game.name}: the position is already over; nothing to test")
        if game.to_move(state) == CHANCE:
            raise GameError(f"{game.name}: the position is a chance node")
        exact_score, score_threshold = self.scores.exact_score, self.scores.score_threshold
        self.engine.new_search()
        clock = Clock.start(limit, game.to_move(state), now=self.time_source)
        safe = self.safe_moves
        with gc_paused():
            if safe is not None and (win := safe.winning_action(state)) is not None:
                # the exact score, found before any search (0 nodes), as in a solve
                exact = _whole(exact_score(state, game.max_utility - self.engine.win_step))
                return NullWindowTest(exact > score, exact, win if exact > score else None, 0)
            b = score_threshold(state, score)
            it = self._probe(state, b, clock)
        above = bool(it.value > b)
        return NullWindowTest(above, _whole(exact_score(state, it.value)),
                              it.action if above else None, self.engine.nodes)

    def _probe(self, state: Any, b: float, clock: Clock, root_moves: Any = None) -> Iteration:
        """Is the value above ``b``? One zero-window search of the whole game."""
        return self.engine.search_root(state, None, b, nextafter(b, inf), clock,
                                       root_moves=root_moves, root_bounds=self.root_bounds)

    def root_bounds(
        self, state: Any, moves: Any, alpha: float, beta: float, key: Any
    ) -> Iteration | tuple[float, float]:
        """At the root of a probe, the same window bounds as at any node (Pons's root is an
        ordinary node): a probe outside them ends at once, with no move."""
        game, engine = self.game, self.engine
        maxu, step = game.max_utility, engine.win_step

        def done(v: float) -> Iteration:
            # A bound, not a searched move: no action (the solver must not take one).
            return Iteration(v, None, [], hit_horizon=False)

        assert self.safe_moves is not None  # (the engine calls this only with safe moves)
        left = self.safe_moves.plies_left_bound(state)
        if left is not None and left <= 2:
            return done(0.0)
        lo = -maxu + 4 * step
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return done(alpha)
        e = self.table.lookup(key)
        if e is not None:
            v = e[2]  # stored relative to the node: the root is ply 0
            if engine._banked is not None:  # (the table keeps what is still to be won)
                v += engine._banked(state, game.to_move(state))
            if e[1] == EXACT:
                alpha = beta = v
            elif e[1] == LOWER:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                engine.tt_hits += 1
                return done(v)
        hi = maxu - 3 * step
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return done(beta)
        return alpha, beta

    def _best_moves(self, state: Any, score: float, weak: bool, clock: Clock) -> list[Any]:
        """Every move that keeps the solved score (one zero-window probe each, warm table)."""
        game, engine, safe = self.game, self.engine, self.safe_moves
        win = safe.winning_action(state) if safe is not None else None
        if win is not None:
            mover = game.to_move(state)
            return [a for a in game.actions(state)
                    if game.is_terminal(c := game.result(state, a))
                    and game.utility(c, mover) > 0]
        candidates = list(safe.safe_actions(state) if safe is not None else game.actions(state))
        if not candidates:  # every move loses at once: all are equally bad
            return list(game.actions(state))
        b = self.scores.score_threshold(state, score - 1 if not weak else min(score, 1) - 1)
        saved = engine.nodes
        best = [a for a in candidates if self._probe(state, b, clock, root_moves=[a]).value > b]
        engine.nodes = saved  # report the solve's own effort, like the references do
        return best


def solve(
    game: Game[Any, Any],
    state: Any,
    *,
    weak: bool = False,
    solver: Solver | None = None,
    best_moves: bool = True,
    limit: Limit | None = None,
) -> SearchResult:
    """Solve ``state`` exactly with ``solver`` (a new :class:`Solver` by default); see
    :meth:`Solver.solve`."""
    return (solver or Solver(game)).solve(state, weak=weak, best_moves=best_moves, limit=limit)


def make_solver(game: Game[Any, Any], tt: int | str = 1 << 22) -> Solver:
    """A :class:`Solver` for ``game`` with a table of ``tt`` entries."""
    return Solver(game, tt)


__all__ = ["NullWindowTest", "Solver", "make_solver", "solve"]
