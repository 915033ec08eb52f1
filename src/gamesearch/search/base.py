"""The driver every algorithm shares: limits, iterative deepening, statistics, callbacks.

An algorithm subclasses :class:`Searcher` and implements :meth:`Searcher.iteration`, one
depth-limited search (``depth=None``: to the end of the game) against the search's
:class:`~gamesearch.search.control.Clock`, which it receives as an argument. The driver turns
the caller's :class:`~gamesearch.search.control.Limit` into that clock, runs the iteration
once, or — under a time, node, clock or stop budget — at depths 1, 2, 3, ... (iterative
deepening, AIMA 4e §6.3 and the COMP 3200 lecture's time-limited alpha-beta) and returns
the deepest *completed* iteration, so a move is always ready and the clock is never overrun
by more than one check interval. No iteration starts after the soft deadline; under a
clock, the searcher's :attr:`Searcher.time_rule` moves that deadline after every completed
iteration by how unstable the search is (best-move changes, a falling score, a stable or
far-ahead best move, a single legal move: :class:`~gamesearch.search.control.TimeRule`,
after Stockfish's time manager), never past the hard one.

Before anything else the driver hands the position to the game's
:meth:`~gamesearch.game.Game.search_start`, so that every front end (the command line, the
web app, the arena, the UCI engine) searches under the same rules.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from ..capabilities import Evaluation
from ..errors import GameError, InvalidLimitError, UnsupportedGameError
from ..game import CHANCE, Game
from .common import Callback, Iteration, SearchResult, win_step
from .control import Clock, Limit, SearchTimeout, Stability, TimeRule

MAX_DEPTH = 200

#: ``terminal_utility, to_move, actions, result, evaluate`` (see :meth:`Searcher.rules`)
Rules = tuple[
    Callable[[Any, int], "float | None"],
    Callable[[Any], int],
    Callable[[Any], Sequence[Any]],
    Callable[[Any, Any], Any],
    Callable[[Any, int], float],
]


def zero_evaluation(state: Any, player: int) -> float:
    """The value of a cut-off position in a game without an evaluation (``zero_eval``)."""
    return 0.0


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (restored afterwards, even on error)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Searcher:
    """Base class of the search algorithms. Options are keyword arguments of ``__init__``."""

    name: ClassVar[str] = "searcher"
    summary: ClassVar[str] = ""
    #: What the algorithm can handle; checked against ``game.game_type``.
    two_player_only: ClassVar[bool] = True
    handles_chance: ClassVar[bool] = False
    #: Run iterative deepening even under a plain depth limit (engines with ordering/TT).
    always_iterate: ClassVar[bool] = False
    #: Under a plain time limit, start no iteration after this share of it (None: the
    #: time limit alone); a clock's allocation sets its own soft limit (control.py).
    soft_share: float | None = None
    #: The time source of this searcher's clocks (``None``: ``time.perf_counter``); tests
    #: set a fake one to check what a search plans without waiting for it.
    time_source: Callable[[], float] | None = None
    #: How a clock's soft limit follows the search's instability (``None``: it stays
    #: where the allocation put it); an algorithm sets it from its options.
    time_rule: TimeRule | None = None

    def __init__(
        self, game: Game[Any, Any], *, discount: bool = True, zero_eval: bool = False,
        evaluation: str | None = None,
    ) -> None:
        gt = game.game_type
        if self.two_player_only and (gt.num_players != 2 or not gt.zero_sum):
            raise UnsupportedGameError(
                f"{self.name} needs a two-player zero-sum game; {game.name} has "
                f"{gt.num_players} players{'' if gt.zero_sum else ' and is not zero-sum'}"
                " (use maxn, paranoid, brs or brs+)"
            )
        if gt.chance and not self.handles_chance:
            raise UnsupportedGameError(
                f"{self.name} cannot search {game.name}: it has chance nodes (use expectiminimax)"
            )
        if not gt.perfect_information and not self.handles_chance:
            raise UnsupportedGameError(
                f"{self.name} cannot search {game.name}: it has hidden information "
                "(use a sampling agent)"
            )
        self.game = game
        #: the game's evaluation named by the ``evaluation=`` option (``None``: the game's
        #: default; an unknown name is the game's one-line error naming those it has), read
        #: once for every search, so that each seat's agent may choose its own
        self.evaluation: Evaluation[Any] | None = game.evaluation(evaluation)
        self.evaluation_name = evaluation
        #: the name the result reports (the registry sets it to "id", "pvs", ...)
        self.label = self.name
        self.discount = discount
        #: score cut-off positions 0 in a game without an evaluation (else refuse)
        self.zero_eval = zero_eval
        #: what a full-size win loses per ply of distance (0: no discount)
        self.win_step = win_step(game.max_utility) if discount else 0.0
        self.nodes = 0
        self.tt_hits = 0
        self.cutoffs = 0
        self.seldepth = 0
        #: each player's value at the end of its last search (the time rule's "falling
        #: score" compares the new iterations with it)
        self.last_values: dict[int, float] = {}

    def rules(self) -> Rules:
        """The game functions a value function calls at every node, bound once per
        iteration (locals are the fastest lookups CPython has): ``terminal_utility``
        (IS-TERMINAL and UTILITY in one call), ``to_move``, ``actions``, ``result``, and
        ``evaluate`` of the game's evaluation (:meth:`~gamesearch.game.Game.evaluation`;
        zero without one, which :meth:`search` then refuses unless ``zero_eval``)."""
        g, evaluation = self.game, self.evaluation
        evaluate = evaluation.evaluate if evaluation is not None else zero_evaluation
        return g.terminal_utility, g.to_move, g.actions, g.result, evaluate

    # -- to implement ----------------------------------------------------------------
    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        """One search to ``depth`` plies (``None``: to the end) within ``clock``'s budget
        (``clock.begin(self.nodes)`` gives the first check point). Adds to ``self.nodes``;
        raises :class:`SearchTimeout` when the clock says so."""
        raise NotImplementedError

    def partial_iteration(self) -> Iteration | None:
        """After a timeout: a sound result of the unfinished iteration, if there is one."""
        return None

    def new_search(self) -> None:
        """Reset per-search statistics (tables that persist are kept)."""
        self.nodes = self.tt_hits = self.cutoffs = self.seldepth = 0

    # -- the driver --------------------------------------------------------------------
    def start_clock(self, limit: Limit | None, player: int) -> Clock:
        """The clock of one search for ``player``: the limit's time plan (target, soft and
        hard deadline, :meth:`Limit.plan`) with this searcher's ``soft_share``. The driver
        reads the soft deadline, the iterations the hard one (``clock.check``), MCTS the
        target; nothing recomputes them."""
        return Clock.start(limit, player, self.soft_share, self.time_source)

    def stability(self, state: Any, clock: Clock, player: int) -> Stability | None:
        """The time rule's tracker for this search, or ``None`` when the soft limit stays
        (no rule, or a soft limit the caller gave rather than a clock's allocation)."""
        rule = self.time_rule
        if rule is None or not clock.managed:
            return None
        single = len(self.game.actions(state)) == 1
        tracker = rule.start(self.last_values.get(player), single)
        clock.scale_soft(tracker.factor)
        return tracker

    def search(
        self, state: Any, limit: Limit | None = None, callback: Callback | None = None
    ) -> SearchResult:
        # Search makes no reference cycles; the collector would only walk the big tables.
        with gc_paused():
            return self._search(state, limit, callback)

    def _search(
        self, state: Any, limit: Limit | None, callback: Callback | None
    ) -> SearchResult:
        limit = limit or Limit()
        if not isinstance(limit, Limit):
            raise InvalidLimitError(f"limit {limit!r}: expected a gamesearch Limit")
        game = self.game
        # What the game needs at the start of every search, for every front end (chess:
        # the root is marked, so a repetition after it is a draw at once).
        state = game.search_start(state)
        if game.is_terminal(state):
            raise GameError(f"{game.name}: the position is terminal; there is no move to search")
        player = game.to_move(state)
        if player == CHANCE:
            raise GameError(f"{game.name}: the position is a chance node; roll first")
        self.new_search()
        clock = self.start_clock(limit, player)
        iterate = limit.budgeted or self.always_iterate
        if iterate:
            depths: range | list[int | None] = range(1, (limit.depth or MAX_DEPTH) + 1)
        else:
            depths = [limit.depth]
        tracker = self.stability(state, clock, player) if iterate else None
        best: Iteration | None = None
        best_depth = 0
        per_depth: list[int] = []
        completed = True
        for depth in depths:
            if best is not None and clock.soft_expired():
                completed = False  # the next iteration would most likely not finish
                break
            before = self.nodes
            try:
                it = self.iteration(state, depth, clock)
            except SearchTimeout:
                per_depth.append(self.nodes - before)
                completed = False
                partial = self.partial_iteration()
                if partial is not None and depth is not None:
                    best, best_depth = partial, depth
                break
            per_depth.append(self.nodes - before)
            best = it
            best_depth = depth if depth is not None else self._depth_of(it)
            if tracker is not None and isinstance(it.value, (int, float)):
                clock.scale_soft(tracker.observe(it.value, it.action, it.margin))
            if callback is not None:
                callback(self._result(state, best, best_depth, per_depth, clock, True))
            if not it.hit_horizon:
                break  # the whole tree was seen: deeper iterations would repeat it
        if best is None:
            # Out of budget before depth 1 finished: still answer with a legal move.
            first = next(iter(game.actions(state)))
            best = Iteration(value=0.0, action=first, pv=[first])
        if best.hit_horizon and self.evaluation is None and not self.zero_eval:
            raise UnsupportedGameError(
                f"{game.name} has no evaluation function, so this search's answer would "
                "rest on cut-off positions scored 0: search to the end of the game (no "
                "depth, time or node limit) or ask for zero_eval=1")
        if isinstance(best.value, (int, float)):
            self.last_values[player] = float(best.value)
        return self._result(state, best, best_depth, per_depth, clock, completed)

    def _depth_of(self, it: Iteration) -> int:
        return max(len(it.pv), self.seldepth)

    def _result(
        self, state: Any, it: Iteration, depth: int, per_depth: list[int], clock: Clock,
        completed: bool,
    ) -> SearchResult:
        return SearchResult(
            algorithm=self.label,
            value=it.value + 0.0 if isinstance(it.value, float) else it.value,  # no "-0.0"
            action=it.action,
            pv=list(it.pv),
            depth=depth,
            nodes=self.nodes,
            seconds=clock.elapsed(),
            nodes_per_depth=list(per_depth),
            tt_hits=self.tt_hits,
            cutoffs=self.cutoffs,
            completed=completed,
            seldepth=max(self.seldepth, depth),
            extra=dict(it.extra),
        ).annotate(self.game, state)
