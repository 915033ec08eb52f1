"""Negamax alpha-beta and the enhancements that make it an engine.

The core is the short form of alpha-beta from the COMP 3200 lecture 9 ("negamax"): one
function for both players, the child's value negated, fail-soft, pruning when
``value >= beta``. With every option off it visits exactly the nodes that AIMA Fig 6.7 visits
(the tests check this against :mod:`gamesearch.search.alphabeta`). The options add, each
from its usual source:

* ``tt``: a transposition table with exact/lower/upper bounds (AIMA 4e §6.2.4;
  Marsland 1986), and the stored best move tried first; a position whose ``key`` is
  ``None`` is neither looked up nor stored (bridge's double dummy keeps only the starts of
  tricks);
* ``ordering``: the game's move ordering (its ``move_ordering()`` capability), then the TT
  move, killer moves (two per ply) and the history heuristic (Schaeffer 1989) — AIMA 4e
  §6.2.4 "move ordering";
* ``quiescence``: at the horizon, search the noisy actions of the game's ``tactics()``
  with stand-pat (AIMA 4e §6.3.1 "quiescence search"); a game whose evaluation has a
  ``quick_evaluate`` (an estimate and a margin around it) gets lazy evaluation there: the
  stand-pat is settled by the estimate
  when it lies more than the margin outside the window (the Chess Programming Wiki, "Lazy
  Evaluation");
* ``bounds``: the game's ``value_bounds()`` (bounds on the exact value known without
  search, bridge's quick tricks) narrow the window at every node after the table probe, as
  Pons's clamps do; a bound outside the window ends the node (fail-soft). On when the game
  offers them. When they carry ``banked`` (the part of the value already settled: bridge's
  tricks won), the table stores values less it and adds it back on reading, so that one
  entry serves a position however it was reached (DDS's tricks-to-come table);
* ``pvs``: principal variation search (Marsland & Campbell 1982): the first move with the
  full window, the others with a zero window, re-searched when they fail high;
* ``aspiration``: a root window of ± this many units around the previous iteration's value,
  widened to the full window when the result falls outside it;
* ``check_extension`` and ``null_move``: one more ply in check (the ``in_check`` of the
  game's ``tactics()``); null-move pruning with R = 2/3 (Beal 1989; Donninger 1993) through
  the game's ``null_move()``;
* ``lmr``: late-move reductions as the Chess Programming Wiki ("Late Move Reductions") and
  Romstad's "An Introduction to Late Move Reductions" describe them: in a node searched with
  a zero window (not a PV node), at depth >= 3 and not in check, the moves after the first
  :data:`LMR_FULL_MOVES` are searched one ply shallower (two once past
  :data:`LMR_DEEP_MOVES` at depth >= 6), and again at full depth when the reduced search
  beats alpha. Never reduced: the table move, the killers, noisy moves (the tactics'
  ``is_noisy``, else its ``noisy_actions``) and moves that give check. Departures: only
  where the opponent moves next (a player moving twice keeps its full depth). Off unless
  asked for or the game's engine settings turn them on (chess's do): reductions change the
  value of a fixed-depth search, so the tests that compare with minimax run without them;
* ``lmr_table``: with ``lmr``, the reduction of the n-th move at depth d from a table,
  ``floor(0.75 + ln(d) ln(n) / 2.25)`` (Ethereal's formula; Stockfish's table has the same
  log x log shape), one ply less when the move's history score exceeds ``d*d`` (it has
  cut off before: at least one cut-off's worth at this depth), at most ``d - 2`` (the
  reduced search keeps a ply); a reduction of 0 searches the move at full depth. Departures:
  no "improving" term, and the reductions stay where ``lmr`` allows them (zero-window
  nodes, not the table move or the killers);
* ``lmp``: late-move (move-count) pruning (the Chess Programming Wiki, "Futility Pruning"
  / "Late Move Pruning"; Stockfish's ``moveCount >= futility_move_count``): in a
  zero-window node at depth <= :data:`LMP_DEPTH`, not in check and not near a mate
  score, the quiet moves (as for ``lmr``: not noisy, giving no check) after the first
  ``3 + d*d`` are not searched; the node's value is then that of the moves searched, and
  depends on the depth (stored as such). Departure: no "improving" halving;
* ``iir``: internal iterative reductions (Ed Schroeder's idea, as in Ethereal and
  Stockfish: the Chess Programming Wiki, "Internal Iterative Reductions"): a node at
  depth >= :data:`IIR_DEPTH`, not in check, whose table probe gave no move is searched one
  ply shallower (its move order would be poor, and the next iteration finds a table move).
  Departure: in every node, PV or not (the table is the only source of a best move);
* ``noisy_first``: the usual chess move order (the Chess Programming Wiki, "Move
  Ordering"): the table move, then the noisy moves (the tactics' ``is_noisy``) in the
  game's order (chess: MVV-LVA), then the killers, then the quiet moves by their history;
  only a quiet move that cuts off becomes a killer or gains history. Without it (the
  library's first order) the history sorts every move and the killers go before the
  captures, and a capture that cuts off is a killer too;
* ``see_pruning``: static exchange pruning (Ethereal's and Stockfish's SEE pruning in the
  main search; the Chess Programming Wiki, "Static Exchange Evaluation"), with the
  ``exchange_margins`` ``(quiet, noisy)`` of the game's engine settings and the tactics'
  ``exchange``: in a zero-window node at depth <= :data:`SEE_DEPTH`, not in check and not
  near a mate score, a move after the first whose exchange value is below
  ``-quiet * d`` (a quiet move: one that hangs material) or ``-noisy * d * d`` (a capture
  or a promotion) is not searched; the node's value then depends on the depth, as with
  ``lmp``. Departure: a move that gives check is never pruned this way (Stockfish prunes
  checks too, with the noisy margin; here that cost 27 WAC positions at 100k nodes, the
  sacrifices that check);
* ``futility``: futility pruning (Heinz 1998, "Extended Futility Pruning") and its mirror
  image, reverse futility pruning (the Chess Programming Wiki, "Reverse Futility Pruning"),
  with the ``futility_margins`` of the game's engine settings (by remaining depth): in a
  zero-window node near the horizon, not in check and not near a mate score, a static value
  (the evaluation's ``quick_evaluate``/``evaluate``) that stays above beta by the margin
  ends the node, and
  one below alpha by the margin lets the quiet moves after the first go unsearched (noisy
  moves and moves that give check are always searched; the node's value is then at least
  the static value plus the margin, still below alpha). On when the game gives margins
  (chess does) and the search iterates; it changes fixed-depth values, like ``lmr``;
* ``endgame``: the game's endgame database (its ``endgame_database()`` capability; on by
  default when present), probed at every node below the root, in quiescence too: a
  position it holds is scored as the game's end would be -- a win or loss ``plies`` further
  on (:class:`~gamesearch.capabilities.EndgameValue`), discounted by its distance from the
  root like any other, or a draw -- and not searched further (Schaeffer et al., "Chinook",
  1992: the databases probed in the search). The root's moves are scored one ply down, so
  a won database position is played by its fastest win. A value without a distance counts
  as :data:`UNKNOWN_DISTANCE` plies;
* ``soft_share``: under a plain time limit, no new iteration starts once this fraction of
  the time has passed (the next one would most likely not finish: each takes a few times
  longer than all before it). The time limit itself stays the hard limit; a clock's
  allocation sets its own soft limit (:mod:`gamesearch.search.control`);
* ``instability``: under a clock, that soft limit follows how unstable the search is
  (best-move changes, a falling score, a stable or far-ahead best move, a single legal
  move: :class:`~gamesearch.search.control.TimeRule`, after Stockfish's time manager), in
  the score unit of the game's engine settings; off unless asked for with
  ``instability=1`` (its SPRT at 5+0.05, 257 games, was +25.7 +/- 36.4 Elo, LLR 0.61: no
  pass, so not the default; see docs/games/chess.md). The root reports the best move's
  proven lead (``Iteration.margin``: its value less the largest fail-soft upper bound of
  the other moves).

* ``compiled``: the game's compiled twin of this search (its ``compiled_search()``
  capability, :class:`~gamesearch.capabilities.CompiledSearch`: chess's Cython engine),
  which searches each root window as ``search_root`` would, node for node (same values,
  moves, lines, node counts and statistics; ``tests/test_chess_twin.py``), while the
  iterations, the aspiration window, the clock and the partial results stay here. On by
  default when the game offers one and every option in use is one it implements (not:
  no table, ``tt_move=0``, ``safe``, ``bounds``, ``endgame``, ``distance_bounds``, a named
  ``evaluation``, no quiescence); ``compiled=True`` with such an option, or for a game
  without one, is an error; ``compiled=False`` keeps the Python loop.

Engine policy is not rules: the defaults of ``lmr``, the futility margins, ``soft_share``
and the rules above (``lmr_table``, ``lmp``, ``iir``, ``see_pruning``, ``noisy_first``)
come from the game's :meth:`~gamesearch.game.Game.engine_settings`, a typed
:class:`~gamesearch.capabilities.EngineSettings` (chess asks for ``lmr``, its margins,
``soft_share``, ``see_pruning`` and ``noisy_first``); options given to the searcher
override them.

How the code is laid out: :meth:`Negamax.iteration` does the iteration's bookkeeping
(aspiration window, previous best move); :meth:`Negamax.search_root` searches one window at
the root (the exact solver's probes call it too, with their own root bounds); the hot
inner function is built once per root search by :meth:`Negamax._kernel` as closures over
locals (a closure's local reads are the cheapest CPython offers, measured in
``benchmarks/peers.py``), with the pruning rules (null move, futility, late-move
reductions) and quiescence as named closures beside it; the transposition table is read
through its bound ``lookup`` and written through :meth:`TranspositionTable.store`, with
the mate-distance adjustment of :func:`gamesearch.search.tt.to_table`/``from_table``.

Departure from the lecture: the mover of each child comes from TO-MOVE, so a player who moves
twice in a row keeps the sign (``value = +child``) instead of negating it. Wins are discounted
by distance from the root (see :mod:`gamesearch.search.common`); stored in the table they are
made relative to the node, so a table entry is valid at any ply.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from math import log, nextafter
from typing import Any, ClassVar

from ..capabilities import EngineSettings, SafeMoves
from ..errors import InvalidLimitError, UnsupportedGameError
from .base import Searcher
from .common import INF, Iteration, win_threshold
from .control import Clock, SearchTimeout, TimeRule
from .minimax import pv_list
from .tt import (
    EXACT,
    LOWER,
    UNLIMITED,
    UPPER,
    TranspositionTable,
    from_table,
    parse_size,
    to_table,
)

FULL_DEPTH = 1 << 29  # "no depth limit": larger than any real depth, below UNLIMITED
#: late-move reductions: moves searched at full depth before reducing (the TT move, the
#: killers and noisy moves are never reduced; they come first in a good order anyway)
LMR_FULL_MOVES = 3
#: from this move on (and at depth >= 6) the reduction is two plies
LMR_DEEP_MOVES = 8
#: late-move pruning: at remaining depth <= this, the quiet moves after the first 3 + d*d
LMP_DEPTH = 3
#: static exchange pruning: at remaining depth <= this
SEE_DEPTH = 5
#: internal iterative reductions: from this remaining depth on
IIR_DEPTH = 4
#: the late-move reduction table's size by depth and by move number (larger: the last row
#: or column)
LMR_TABLE_SIZE = 64
#: plies the per-ply arrays (lines, killers, null-move marks) provide for
MAX_PLIES = 1024
#: the distance (plies) given to a database win or loss whose distance the database lacks
UNKNOWN_DISTANCE = 200
#: the engine's own defaults, for a game that asks for no settings
NO_SETTINGS = EngineSettings()


def lmr_reductions() -> tuple[int, ...]:
    """The late-move reduction table (``lmr_table``), flat by depth x move number (both
    0 .. :data:`LMR_TABLE_SIZE` - 1; 0 in row or column 0): ``floor(0.75 + ln(d) ln(n) /
    2.25)``. The compiled twin gets this same table."""
    n = LMR_TABLE_SIZE
    return tuple(int(0.75 + log(d) * log(m) / 2.25) if d and m else 0
                 for d in range(n) for m in range(n))

#: What a root search may be told by a caller before its moves are searched (the exact
#: solver's window bounds): ``(state, moves, alpha, beta, key) -> Iteration`` to end the
#: probe at once, or the narrowed ``(alpha, beta)``.
RootBounds = Callable[[Any, Any, float, float, Any], "Iteration | tuple[float, float]"]


@dataclass
class _Kernel:
    """The hot search of one root search: ``negamax(s, alpha, beta, depth, ply, player)``,
    the principal-variation cells it fills by ply, and its bookkeeping closures."""

    negamax: Callable[[Any, float, float, int, int, int], float]
    lines: list[Any]
    order: Callable[[Any, int, Any, Any, int], list[Any]] | None
    count_node: Callable[[], None]
    met_horizon: Callable[[], bool]
    flush: Callable[[int], None]


class Negamax(Searcher):
    name: ClassVar[str] = "negamax"
    summary: ClassVar[str] = "negamax alpha-beta (COMP 3200 short form), fail-soft"

    def __init__(
        self,
        game: Any,
        *,
        discount: bool = True,
        tt: int | str = 0,
        ordering: bool = False,
        killers: bool | None = None,
        history: bool | None = None,
        hook: bool | None = None,
        tt_move: bool = True,
        safe: bool | None = False,
        bounds: bool | None = None,
        quiescence: bool | None = None,
        pvs: bool = False,
        aspiration: float | None = None,
        iterate: bool = False,
        partial: bool = True,
        check_extension: bool | None = None,
        null_move: bool | None = None,
        lmr: bool | None = None,
        lmr_table: bool | None = None,
        lmp: bool | None = None,
        iir: bool | None = None,
        see_pruning: bool | None = None,
        noisy_first: bool | None = None,
        soft_share: float | None = None,
        instability: bool | None = None,
        futility: bool | None = None,
        endgame: bool | None = None,
        zero_eval: bool = False,
        distance_bounds: bool = False,
        evaluation: str | None = None,
        compiled: bool | None = None,
    ) -> None:
        super().__init__(game, discount=discount, zero_eval=zero_eval, evaluation=evaluation)
        #: mate-distance bounds at every node: a win or a loss is at least a ply away (the
        #: exact solver's proofs of a win within D plies stay D plies deep)
        self.distance_bounds = distance_bounds
        size = parse_size(tt)
        self.table: TranspositionTable | None = TranspositionTable(size) if size else None
        self.ordering = ordering
        self.killers_on = ordering if killers is None else killers
        self.history_on = ordering if history is None else history
        self.hook_on = ordering if hook is None else hook
        self.tt_move_on = tt_move
        # the game's capabilities, read once (the kernel binds their members per search)
        tactics = self._tactics = game.tactics()
        self._ordering = game.move_ordering()
        # None: when the game has the capability (its safe moves, its tactics)
        self.safe = game.safe_moves() is not None if safe is None else safe
        # Pons's pruning (refused here for a game without safe moves)
        self._safe_hooks = _safe_moves(game) if self.safe else None
        # the game's bounds on a node's value (None: when the game offers them)
        value_bounds = game.value_bounds()
        if bounds and value_bounds is None:
            raise UnsupportedGameError(f"the engine's bounds=1 needs the game's value "
                                       f"bounds; {game.name} has none")
        self._value_bounds = value_bounds if bounds or bounds is None else None
        # the part of a value settled before the node, kept out of the table (whether or
        # not the bounds are on: the game's key leaves it out)
        self._banked = value_bounds.banked if value_bounds is not None else None
        self.quiescence = tactics is not None if quiescence is None else quiescence
        self.pvs = pvs
        if aspiration is not None and not (0 < aspiration < INF):
            raise InvalidLimitError(f"aspiration {aspiration!r}: must be a positive number")
        self.aspiration = aspiration
        self.iterate = iterate or self.table is not None or ordering
        #: after a timeout, play the unfinished iteration's best move if one root move
        #: (the previous best, searched first) completed: it is at least as good, deeper.
        self.use_partial = partial
        has_check = tactics is not None and tactics.in_check is not None
        self.check_extension = (
            has_check and self.iterate if check_extension is None else check_extension)
        database = game.endgame_database() if endgame is not False else None
        if endgame and database is None:
            raise UnsupportedGameError(f"{game.name} has no endgame database to probe "
                                       "(endgame=1)")
        self._endgame = database
        #: positions the endgame database answered
        self.endgame_hits = 0
        self._null_hooks = game.null_move()
        self.null_move = (self._null_hooks is not None and self.iterate
                          if null_move is None else null_move)
        defaults = game.engine_settings() or NO_SETTINGS
        # the game's setting where an option is None, in an iterated search without Pons's
        # pruning; else the option
        asked = self.iterate and not self.safe
        #: late-move reductions
        self.lmr = defaults.lmr and asked if lmr is None else lmr
        #: the reductions of ``lmr`` from the table by depth x move number
        self.lmr_table = defaults.lmr_table if lmr_table is None else lmr_table
        #: late-move (move-count) pruning, internal iterative reductions
        self.lmp = defaults.lmp and asked if lmp is None else lmp
        self.iir = defaults.iir and asked if iir is None else iir
        self._pruning_rules(game, defaults, asked, see_pruning, noisy_first, futility)
        #: quiet moves left unsearched by futility pruning, nodes ended by its reverse
        self.futility_prunes = self.reverse_futility_prunes = 0
        #: quiet moves left unsearched by late-move pruning, moves by exchange pruning
        self.late_move_prunes = self.exchange_prunes = 0
        share = defaults.soft_share if soft_share is None else soft_share
        if share is not None and not (0 < share <= 1):
            raise InvalidLimitError(f"soft_share {share!r}: must be a fraction in (0, 1]")
        #: no new iteration after this share of a plain time limit (None: the time limit)
        self.soft_share = share
        #: under a clock, the soft limit follows the search's instability (off unless asked
        #: for: its SPRT at 5+0.05 was +26 +/- 36 Elo, not a pass), in the game's score
        #: unit (its engine settings')
        on = bool(instability) and self.iterate
        self.time_rule = TimeRule(score_unit=defaults.score_unit) if on else None
        #: reduced searches and how many of them had to be searched again at full depth
        self.reductions = self.re_searches = 0
        #: history heuristic, stored negated (lower = tried earlier) in a defaultdict so
        #: that ``list.sort(key=h.__getitem__)`` sorts without a Python-level key function
        self.history: list[defaultdict[Any, int]] = [
            defaultdict(int) for _ in range(game.num_players)]
        #: two killer moves per ply, allocated by the first search that uses them
        self._killers: list[list[Any]] = []
        self.prev_value: float | None = None
        self._prev_best: Any = None
        self._partial: Iteration | None = None
        #: the game's compiled twin of this search (see ``compiled`` in the module
        #: docstring), or None: the Python search
        self._twin: Any = self._compiled_twin(compiled)

    def _compiled_twin(self, compiled: bool | None) -> Any:
        """The engine of the game's compiled search when it is to be used: asked for
        (``compiled=True``: an error when the game has none or an option in use is one it
        does not implement) or by default (``None``: when the game offers one and every
        option in use is one it implements); ``compiled=False``: never."""
        if compiled is False:
            return None
        game = self.game
        offer = game.compiled_search()
        if offer is None:
            if compiled:
                raise UnsupportedGameError(
                    f"{game.name} has no compiled search here (not built, or the game runs "
                    "on its pure-Python functions): use compiled=0")
            return None
        unsupported = [name for name, used in (
            ("tt", self.table is None), ("tt_move", not self.tt_move_on),
            ("safe", self.safe), ("bounds", self._value_bounds is not None),
            ("endgame", self._endgame is not None), ("distance_bounds", self.distance_bounds),
            ("evaluation", self.evaluation_name is not None),
            ("quiescence", not self.quiescence or self._tactics is None),
            ("null_move", self.null_move and self._null_hooks is None),
        ) if used]
        if unsupported:
            if compiled:
                raise UnsupportedGameError(
                    f"the compiled search of {game.name} does not implement "
                    f"{', '.join(unsupported)} as set here: leave them at their defaults or "
                    "use compiled=0")
            return None
        table = self.table
        assert table is not None
        has_check = self._tactics is not None and self._tactics.in_check is not None
        return offer.engine(
            tt_size=table.size, step=self.win_step,
            threshold=win_threshold(game.max_utility), maxu=float(game.max_utility),
            margins=self.futility or (), lmr_full=LMR_FULL_MOVES, lmr_deep=LMR_DEEP_MOVES,
            pvs=self.pvs, killers=self.killers_on,
            history=self.history_on, null_move=self.null_move,
            lmr=self.lmr, check_extension=bool(self.check_extension and has_check),
            lmr_reductions=lmr_reductions() if self.lmr_table else (), lmp=self.lmp,
            iir=self.iir, exchange_margins=self.see_pruning or (),
            noisy_first=self.noisy_first)

    def _pruning_rules(self, game: Any, defaults: EngineSettings, asked: bool,
                       see_pruning: bool | None, noisy_first: bool | None,
                       futility: bool | None) -> None:
        """Static exchange pruning, the noisy-first order and futility pruning as the
        options and the game's settings ask (``asked``: the game's settings apply), each
        refused with a clear error when the game lacks what it needs."""
        tactics = self._tactics
        #: static exchange pruning: the margins (quiet, noisy), or None (off)
        exchange = tactics.exchange if tactics is not None else None
        see_margins = defaults.exchange_margins
        if see_pruning and not (see_margins and exchange is not None):
            raise UnsupportedGameError(
                f"static exchange pruning needs the game's exchange_margins and its tactics' "
                f"exchange; {game.name} lacks them")
        self.see_pruning: tuple[float, ...] | None = (
            see_margins if see_margins and exchange is not None and (
                see_pruning or (see_pruning is None and defaults.see_pruning and asked))
            else None)
        #: captures before killers, history for quiet moves only
        has_noisy = tactics is not None and tactics.is_noisy is not None
        if noisy_first and not has_noisy:
            raise UnsupportedGameError(f"noisy_first needs the game's tactics' is_noisy; "
                                       f"{game.name} has none")
        self.noisy_first = has_noisy and (
            defaults.noisy_first and asked if noisy_first is None else noisy_first)
        #: futility margins by remaining depth, or None (off): the game's, when it has them
        #: and the search iterates, unless turned off (see the module docstring)
        margins = defaults.futility_margins
        if futility and not margins:
            raise UnsupportedGameError(
                f"futility pruning needs the game's futility margins; {game.name} has none "
                "(a game gives them in its engine_settings(), e.g. chess)")
        self.futility: tuple[float, ...] | None = (
            tuple(margins) if margins and (futility or (futility is None and asked))
            else None)

    @property
    def compiled(self) -> bool:
        """Whether this searcher runs the game's compiled twin of its search."""
        return self._twin is not None

    @property
    def always_iterate(self) -> bool:  # type: ignore[override]
        return self.iterate

    def new_search(self) -> None:
        super().new_search()
        self.prev_value = None
        self._prev_best = None
        self._partial = None
        self.reductions = self.re_searches = 0
        self.futility_prunes = self.reverse_futility_prunes = 0
        self.late_move_prunes = self.exchange_prunes = 0
        self.endgame_hits = 0
        if self._twin is not None:
            self._twin.new_search()  # (its own killers and history: the same rules)
        if self.killers_on:
            for ks in self._killers:
                ks[0] = ks[1] = None
        # History from the previous move still helps, but halve it so it follows the game.
        for h in self.history:
            for a in h:
                h[a] = -(-h[a] >> 1)

    def partial_iteration(self) -> Iteration | None:
        return self._partial if self.use_partial else None

    # ----- iteration bookkeeping -------------------------------------------------------
    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        """One iteration of iterative deepening: an aspiration window around the previous
        iteration's value when asked for (widened to the full window when the result falls
        outside it), the previous best move searched first."""
        if depth is not None and self.aspiration and self.prev_value is not None:
            lo, hi = self.prev_value - self.aspiration, self.prev_value + self.aspiration
            it = self.search_root(state, depth, lo, hi, clock)
            if not lo < it.value < hi:  # outside the window: the value is only a bound
                it = self.search_root(state, depth, -INF, INF, clock)
        else:
            it = self.search_root(state, depth, -INF, INF, clock)
        self.prev_value = it.value
        self._prev_best = it.action
        return it

    # ----- the root ----------------------------------------------------------------------
    def search_root(
        self,
        state: Any,
        depth: int | None,
        alpha: float,
        beta: float,
        clock: Clock,
        root_moves: Any = None,
        root_bounds: RootBounds | None = None,
    ) -> Iteration:
        """Search ``state`` to ``depth`` (``None``: to the end) in the window
        ``(alpha, beta)``: fail-soft, so a value outside the window is a bound.

        ``root_moves`` restricts the moves searched (the result then is no bound of the
        position, and is not stored); ``root_bounds`` lets the exact solver narrow the
        window, or end the probe, once the root's moves are known (see :data:`RootBounds`).
        Like any node, the root counts as a node and checks the clock.
        """
        if self._twin is not None and root_moves is None and root_bounds is None:
            return self._twin_root(state, depth, alpha, beta, clock)
        kernel = self._kernel(clock)
        kernel.count_node()
        game = self.game
        key = tt_move = None
        banked = self._banked
        if self.table is not None:
            key = game.key(state)
            seen = self.table.lookup(key)
            if seen is not None:
                tt_move = seen[3]
        moves = game.actions(state) if root_moves is None else root_moves
        if self.safe and root_moves is None:
            early = self._safe_root(state, moves)
            if isinstance(early, Iteration):
                kernel.flush(0)
                return early
            moves = early
            if root_bounds is not None:
                bounds = root_bounds(state, moves, alpha, beta, key)
                if isinstance(bounds, Iteration):
                    kernel.flush(0)
                    return bounds
                alpha, beta = bounds
        moves = self._root_order(kernel, state, moves, tt_move)
        best, best_move, line, cutoffs, second = self._root_loop(
            kernel, state, moves, alpha, beta, FULL_DEPTH if depth is None else depth)
        kernel.flush(cutoffs)
        horizon = kernel.met_horizon()
        # a restricted root is no bound; a key of None is a position the game keeps out
        if self.table is not None and root_moves is None and key is not None:
            flag = LOWER if best >= beta else UPPER if best <= alpha else EXACT
            d = FULL_DEPTH if depth is None else depth
            kept = best - banked(state, game.to_move(state)) if banked is not None else best
            self.table.store(key, d if horizon else UNLIMITED, flag, kept, best_move, None)
        self._partial = None
        # the best move's proven lead: the others' fail-soft values are upper bounds (a
        # fail high at the root, or a lone move, proves none)
        margin = best - second if second > -INF and best < beta else None
        return Iteration(best, best_move, pv_list(line), hit_horizon=horizon, margin=margin)

    def _twin_root(
        self, state: Any, depth: int | None, alpha: float, beta: float, clock: Clock
    ) -> Iteration:
        """:meth:`search_root` by the game's compiled twin: the same search, statistics
        and partial result (the root's last improvement) after a timeout."""
        twin = self._twin
        try:
            value, move, pv, horizon, second = twin.search_root(
                state, FULL_DEPTH if depth is None else depth, alpha, beta, clock,
                self._prev_best, clock.begin(self.nodes))
        except SearchTimeout:
            self._take_twin_stats()
            found = twin.partial()
            if found is not None:
                self._partial = Iteration(found[0], found[1], found[2],
                                          extra={"partial": True})
            raise
        self._take_twin_stats()
        self._partial = None
        margin = value - second if second > -INF and value < beta else None
        return Iteration(value, move, pv, hit_horizon=horizon, margin=margin)

    def _take_twin_stats(self) -> None:
        """The kernel's ``flush`` for the compiled twin."""
        (nodes, cutoffs, tt_hits, reductions, re_searches, futility_prunes,
         reverse_futility_prunes, seldepth, late_move_prunes,
         exchange_prunes) = self._twin.take_stats()
        self.nodes += nodes
        self.cutoffs += cutoffs
        self.tt_hits += tt_hits
        self.reductions += reductions
        self.re_searches += re_searches
        self.futility_prunes += futility_prunes
        self.reverse_futility_prunes += reverse_futility_prunes
        self.seldepth = max(self.seldepth, seldepth)
        self.late_move_prunes += late_move_prunes
        self.exchange_prunes += exchange_prunes

    def _safe_root(self, state: Any, moves: Any) -> Iteration | Any:
        """Pons's pruning at the root: a win at once ends the search; otherwise only the
        moves after which the opponent cannot win at once (none: every move loses)."""
        game = self.game
        maxu, step = game.max_utility, self.win_step
        hooks = self._safe_hooks
        assert hooks is not None  # (the root asks only when the search is safe)
        win = hooks.winning_action(state)
        if win is not None:  # early detection of a win at once
            return Iteration(maxu - step, win, [win], hit_horizon=False)
        safe_moves = hooks.safe_actions(state)
        if not safe_moves:  # every move loses at once: the opponent wins next ply
            first = next(iter(moves))
            return Iteration(-maxu + 2 * step, first, [first], hit_horizon=False)
        return safe_moves

    def _root_order(self, kernel: _Kernel, state: Any, moves: Any, tt_move: Any) -> Any:
        """The root's moves in search order: the node ordering (hook, history, table move,
        killers), then the previous iteration's best move first, whatever the options (a
        timed-out iteration is only used once this move is done; see ``partial``)."""
        if kernel.order is not None:
            moves = kernel.order(state, self.game.to_move(state), moves, tt_move, 0)
        prev = self._prev_best
        if prev is not None and prev in moves and moves[0] != prev:
            moves = [prev, *(a for a in moves if a != prev)]
        return moves

    def _root_loop(
        self, kernel: _Kernel, state: Any, moves: Any, alpha: float, beta: float, d: int
    ) -> tuple[float, Any, Any, int, float]:
        """Search the root's moves (PVS: the first with the full window); remember after
        each improvement a sound partial result. Returns best value, move, line, cut-offs
        and the largest value (an upper bound, fail-soft) of the other moves searched."""
        game = self.game
        negamax, lines = kernel.negamax, kernel.lines
        result, to_move = game.result, game.to_move
        p = to_move(state)
        best = second = -INF
        best_move: Any = None
        line: Any = None
        cutoffs = 0
        try:
            for i, a in enumerate(moves):
                c = result(state, a)
                cp = to_move(c)
                sign = 1 if cp == p else -1
                if self.pvs and i > 0:
                    v = _signed(negamax, c, alpha, nextafter(alpha, INF), d - 1, cp, sign)
                    if alpha < v < beta:
                        v = _signed(negamax, c, alpha, beta, d - 1, cp, sign)
                else:
                    v = _signed(negamax, c, alpha, beta, d - 1, cp, sign)
                if v > best:
                    second = best
                    best, best_move = v, a
                    line = (a, lines[1])
                    if v > alpha:
                        alpha = v
                    self._partial = Iteration(
                        best, best_move, pv_list(line), extra={"partial": True})
                    if v >= beta:
                        cutoffs += 1
                        break
                elif v > second:
                    second = v
        except SearchTimeout:
            kernel.flush(cutoffs)
            raise
        return best, best_move, line, cutoffs, second

    # ----- move ordering -----------------------------------------------------------------
    def _make_order(self) -> Callable[[Any, int, Any, Any, int], list[Any]] | None:
        """The move ordering of this search as one function ``(s, p, moves, tt_move, ply)``
        (None when no ordering is on): the game's ``move_ordering()``, then the history
        heuristic (a stable sort: ties keep the game's order), then the table move and the
        killers in front, each taken out where it was."""
        ordering = self._ordering if self.hook_on else None
        order_hook = ordering.order_actions if ordering is not None else None
        use_tt_move = self.table is not None and self.tt_move_on
        use_killers, use_history = self.killers_on, self.history_on
        if not (order_hook is not None or use_tt_move or use_killers or use_history):
            return None
        if use_killers and not self._killers:
            self._killers = [[None, None] for _ in range(MAX_PLIES)]
        killers, history = self._killers, self.history
        tactics = self._tactics
        is_noisy = tactics.is_noisy if self.noisy_first and tactics is not None else None

        def ordered(s: Any, p: int, moves: Any, tt_move: Any, ply: int) -> list[Any]:
            if order_hook is not None:
                moves = order_hook(s, moves)
            out: list[Any] = list(moves)
            loud = 0  # noisy_first: how many noisy moves lead the order
            if is_noisy is not None:
                noisy: list[Any] = []
                quiet: list[Any] = []
                for a in out:  # a stable partition, one is_noisy call a move
                    (noisy if is_noisy(s, a) else quiet).append(a)
                if use_history and history[p]:
                    quiet.sort(key=history[p].__getitem__)  # stable
                out = noisy + quiet
                loud = len(noisy)
            elif use_history:
                h = history[p]
                if h:
                    out.sort(key=h.__getitem__)  # stable: ties keep the game's order
            n = 0
            if use_tt_move and tt_move is not None and tt_move in out:
                if out.index(tt_move) < loud:
                    loud -= 1
                out.remove(tt_move)
                out.insert(0, tt_move)
                n = 1
            n += loud  # (noisy_first: the killers come after the noisy moves)
            if use_killers:
                for k in killers[ply]:
                    if k is not None and k != tt_move and k in out and (
                            is_noisy is None or not is_noisy(s, k)):
                        out.remove(k)
                        out.insert(n, k)
                        n += 1
            return out

        return ordered

    # ----- the hot loop ------------------------------------------------------------------
    def _kernel(self, clock: Clock) -> _Kernel:
        """Build the search of one root window: ``negamax`` (the measured hot loop) and,
        beside it, quiescence and the pruning rules as named closures.

        Why closures and one long ``negamax``: the options and the game's capabilities are read
        once here into locals that the closures read at C speed, and the per-node
        statistics are ``nonlocal`` counters; a method per node step would pay attribute
        lookups and frames at every node (``benchmarks/peers.py``, ``chess_nps.py``).
        ``negamax`` holds only the node's own steps: clock, terminal test, horizon,
        Pons's safe-move pruning (the solver's hottest path), table probe, the move loop
        with PVS and the cut-off bookkeeping, table store.
        """
        game = self.game
        terminal_utility, to_move, actions, result, evaluate = self.rules()
        key_of = game.key
        # the capabilities' members, bound to locals once (the loops call them per node)
        tactics = self._tactics
        # a game may give its noisy actions lazily (chess: SEE only when reached)
        noisy_actions = iter_noisy = tactics.noisy_actions if tactics else _no_moves
        # for late-move reductions and futility: a cheap test of one move when the game has
        # one, else membership in the node's noisy actions
        is_noisy = tactics.is_noisy if tactics else None
        use_safe = self.safe
        safe_hooks = self._safe_hooks if use_safe else None
        safe_actions = safe_hooks.safe_actions if safe_hooks else actions
        plies_left = safe_hooks.plies_left_bound if safe_hooks else _no_bound
        in_check = tactics.in_check if tactics and tactics.in_check else _not_in_check
        use_bounds = self._value_bounds is not None
        node_bounds = self._value_bounds.bounds if self._value_bounds else _no_node_bounds
        banked_of = self._banked
        use_banked = banked_of is not None
        check_hook = in_check is not _not_in_check
        use_check_ext = self.check_extension and check_hook
        null_hooks = self._null_hooks if self.null_move else None
        use_null = null_hooks is not None
        null_result = null_hooks.result if null_hooks else _no_null_move
        null_allowed = null_hooks.allowed if null_hooks else _never
        nulled = [False] * (MAX_PLIES + 2)  # nulled[ply]: the move into this ply was a pass
        maxu = game.max_utility
        step = self.win_step
        use_distance = self.distance_bounds and step > 0
        threshold = win_threshold(maxu)
        next_check = clock.begin(self.nodes)
        nodes = cutoffs = tt_hits = seldepth = 0
        horizon = False
        lines: list[Any] = [None] * MAX_PLIES
        table = self.table
        use_tt = table is not None
        tget: Callable[[Any], Any] = table.lookup if table is not None else _no_entry
        tstore: Callable[..., None] | None = table.store if table is not None else None
        use_killers = self.killers_on
        use_history = self.history_on
        ordered = self._make_order()
        killers = self._killers
        history = self.history
        quiescence = self.quiescence
        quick = self.evaluation.quick_evaluate if self.evaluation else None
        pvs = self.pvs
        use_lmr = self.lmr
        margins = self.futility
        futility_depth = len(margins) if margins else 0  # prune while d < this
        futility_prunes = reverse_futility_prunes = late_move_prunes = exchange_prunes = 0
        reductions = re_searches = 0
        see_margins = self.see_pruning
        exchange = tactics.exchange if tactics and see_margins else None
        see_quiet, see_noisy = see_margins if see_margins else (0.0, 0.0)
        lmr_r = lmr_reductions() if use_lmr and self.lmr_table else None
        use_lmp = self.lmp
        use_iir = self.iir and use_tt
        quiet_cuts = self.noisy_first  # (only with the tactics' is_noisy)
        prunes = (use_null or futility_depth > 0 or use_lmr or use_lmp
                  or exchange is not None)  # the rules that act in zero-window nodes
        probe = self._endgame.probe if self._endgame is not None else None
        endgame_hits = 0

        def database_value(s: Any, ply: int) -> float | None:
            """The endgame database's value of ``s`` for its side to move, discounted by
            the distance from the root, or ``None`` when it does not hold ``s``."""
            nonlocal endgame_hits
            found = probe(s)  # type: ignore[misc]
            if found is None:
                return None
            endgame_hits += 1
            lines[ply] = None
            if found.value == 0:
                return 0.0
            far = ply + (UNKNOWN_DISTANCE if found.plies is None else found.plies)
            return maxu - far * step if found.value > 0 else -maxu + far * step

        def count_node() -> None:
            """The root's own node: counted and clock-checked like any other."""
            nonlocal nodes, next_check
            nodes += 1
            if nodes >= next_check:
                try:
                    next_check = clock.check(nodes)
                except SearchTimeout:
                    flush(0)  # the root was counted: keep it in the total
                    raise

        def met_horizon() -> bool:
            return horizon

        def flush(more_cutoffs: int) -> None:
            """Hand this search's statistics to the searcher (once: counters restart)."""
            nonlocal nodes, cutoffs, tt_hits, reductions, re_searches
            nonlocal futility_prunes, reverse_futility_prunes, endgame_hits, late_move_prunes
            nonlocal exchange_prunes
            self.nodes += nodes
            self.endgame_hits += endgame_hits
            endgame_hits = 0
            self.cutoffs += cutoffs + more_cutoffs
            self.tt_hits += tt_hits
            self.reductions += reductions
            self.re_searches += re_searches
            self.futility_prunes += futility_prunes
            self.reverse_futility_prunes += reverse_futility_prunes
            self.late_move_prunes += late_move_prunes
            self.exchange_prunes += exchange_prunes
            self.seldepth = max(self.seldepth, seldepth)
            nodes = cutoffs = tt_hits = reductions = re_searches = 0
            futility_prunes = reverse_futility_prunes = late_move_prunes = exchange_prunes = 0

        def quiesce(s: Any, alpha: float, beta: float, ply: int, p: int) -> float:
            """Stand pat on EVAL, then try only the noisy actions (captures and the like).

            The same contract as ``negamax`` (its docstring) with the stand-pat as the
            value of "no noisy move": fail-soft in ``(alpha, beta)``; ``lines[ply]`` is
            ``None`` when the stand-pat (or the lazy estimate) is the value, else the best
            noisy move followed by its child's line, an empty one when that move ends the
            game (the child is scored here, not searched, so its slot is cleared here).
            """
            nonlocal nodes, next_check, seldepth
            if ply > seldepth:
                seldepth = ply
            lines[ply] = None
            if probe is not None and ply:
                known = database_value(s, ply)
                if known is not None:
                    return known
            if check_hook and in_check(s):
                best = -INF  # in check: no standing pat, every reply is tried
            else:
                if quick is not None:
                    # Lazy evaluation: a cheap estimate within +- m settles the stand-pat
                    # when it is far outside the window.
                    q, m = quick(s, p)
                    if q - m >= beta:
                        return float(q - m)
                    stand = q + m if q + m <= alpha else evaluate(s, p) if m else q
                else:
                    stand = evaluate(s, p)
                if stand >= beta:
                    return stand
                if stand > alpha:
                    alpha = stand
                best = stand
            for a in iter_noisy(s):
                c = result(s, a)
                cp = to_move(c)
                nodes += 1
                if nodes >= next_check:
                    next_check = clock.check(nodes)
                u = terminal_utility(c, cp)
                if u is not None:
                    if u >= maxu:
                        u -= (ply + 1) * step
                    elif u <= -maxu:
                        u += (ply + 1) * step
                    v = u if cp == p else -u
                    lines[ply + 1] = None  # nothing follows a move that ends the game
                elif cp == p:
                    v = quiesce(c, alpha, beta, ply + 1, cp)
                else:
                    v = -quiesce(c, -beta, -alpha, ply + 1, cp)
                if v > best:
                    best = v
                    lines[ply] = (a, lines[ply + 1])
                    if v > alpha:
                        alpha = v
                    if v >= beta:
                        break
            return best

        def null_move_cutoff(s: Any, beta: float, d: int, ply: int) -> float | None:
            """Null-move pruning (Beal 1989; Donninger 1993): if passing still fails high
            on a search reduced by R = 2 (3 when deep), so would a real move. Returns the
            node's value when it does, else None."""
            nonlocal horizon
            c = null_result(s)
            nulled[ply + 1] = True
            r = 3 if d >= 6 else 2
            try:
                v = -negamax(c, -beta, -nextafter(beta, -INF), max(d - 1 - r, 0),
                             ply + 1, to_move(c))
            finally:
                nulled[ply + 1] = False
            if v >= beta:
                horizon = True
                lines[ply] = None
                return beta if v > threshold else v
            return None

        def futility_bound(
            s: Any, p: int, d: int, ply: int, alpha: float, beta: float
        ) -> float | None:
            """Futility and reverse futility pruning (see the module docstring): a static
            value, with the game's margin for this depth, settles the node or its quiet
            moves. Returns None for "search on", a value ``>= beta`` that ends the node
            (reverse futility), or a value ``<= alpha`` that the unsearched quiet moves
            cannot exceed (futility). A cheap estimate within +- m serves when the game
            has one."""
            nonlocal reverse_futility_prunes, horizon
            margin = margins[d]  # type: ignore[index]
            if quick is not None:
                q, m = quick(s, p)
                low, high = q - m, q + m
            else:
                low = high = evaluate(s, p)
            if low - margin >= beta:
                reverse_futility_prunes += 1
                horizon = True
                lines[ply] = None
                return low - margin
            if high + margin <= alpha:
                return high + margin
            return None

        def reducible(s: Any, a: Any, c: Any, noisy: Any) -> tuple[bool, Any]:
            """Whether move ``a`` (into ``c``) is quiet: not noisy (the game's ``is_noisy``,
            else membership in the node's noisy actions, computed once per node and
            returned for reuse) and giving no check. Quiet moves may be pruned (futility)
            or reduced (late-move reductions)."""
            if is_noisy is not None:
                loud = is_noisy(s, a)
            else:
                if noisy is None:
                    noisy = set(noisy_actions(s))
                loud = a in noisy
            return (not loud and not (check_hook and in_check(c))), noisy

        def negamax(s: Any, alpha: float, beta: float, d: int, ply: int, p: int) -> float:
            """The value of ``s`` (``p`` to move, ``ply`` plies below the root) searched
            ``d`` plies deep, from ``p``'s side, in the window ``alpha < beta``.

            Let V be the value of the tree this search examines: the depth-``d`` negamax
            value (quiescence at the horizon, wins discounted by distance from the root),
            of the tree the pruning rules leave (null move, futility, late-move
            reductions, Pons's safe moves change it on purpose; table entries of deeper
            searches stand in for their subtrees). Fail-soft, like sunfish's ``bound()``,
            the value ``v`` returned is:

            * ``v <= alpha`` (fail low): an upper bound, ``V <= v``;
            * ``v >= beta`` (fail high): a lower bound, ``V >= v``;
            * ``alpha < v < beta``: exact, ``v == V``.

            A zero window (``beta`` the next float above ``alpha``) asks only "is V above
            alpha?"; the pruning rules act only there.

            On every return ``lines[ply]`` holds this node's principal variation as a
            linked list ``(move, tail)`` or ``None``, legal move by move from ``s``, with
            no move after one that ends the game (deeper slots are scratch):

            * terminal node, horizon without quiescence, Pons's early exits, null-move
              cut-off, reverse futility: ``None``;
            * horizon with quiescence: what ``quiesce`` leaves (its docstring);
            * table cut-off: ``(table move, None)``, or ``None`` without a move;
            * after the move loop: ``(best move, lines[ply + 1] as its search left it)``
              for the best move searched, whether the node failed high, low or is exact
              (on a fail low, or when futility raised the value, only a hint); every
              path of a child writes ``lines[ply + 1]`` before it is read, and the
              first move is always searched (a state that is not terminal has one);
            * a timeout raises :class:`SearchTimeout` and leaves the slots undefined (the
              root copies its line after each completed move, see ``_root_loop``).
            """
            nonlocal nodes, next_check, horizon, cutoffs, tt_hits, reductions, re_searches
            nonlocal futility_prunes, late_move_prunes, exchange_prunes
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            u = terminal_utility(s, p)
            if u is not None:
                lines[ply] = None
                if u >= maxu:
                    return u - ply * step
                if u <= -maxu:
                    return u + ply * step
                return u
            if probe is not None and ply:
                known = database_value(s, ply)
                if known is not None:
                    return known
            if use_distance:
                # Mate-distance bounds: the value lies between a loss on our next turn and
                # a win on the opponent's, so a window outside them ends the node.
                lo = -maxu + (ply + 1) * step  # (a game may let a move lose at once)
                if lo >= beta:
                    lines[ply] = None
                    return lo
                hi = maxu - (ply + 1) * step
                if hi <= alpha:
                    lines[ply] = None
                    return hi
            checked = use_check_ext and ply < 200 and in_check(s)
            if checked:
                d += 1  # check extension: never stop the search in check
            if d == 0:
                horizon = True
                if quiescence:
                    return quiesce(s, alpha, beta, ply, p)
                lines[ply] = None
                return evaluate(s, p)
            if use_safe:
                # Pons's pruning, through the game's safe moves: drop the moves that lose at once;
                # none left means the opponent wins with its next move.
                moves = safe_actions(s)
                if not moves:
                    lines[ply] = None
                    return -maxu + (ply + 2) * step
                left = plies_left(s)
                if left is not None and left <= 2:
                    lines[ply] = None  # nobody can win any more: a draw
                    return 0.0
                # No win before our next move, no loss before the opponent's next-but-one.
                lo = -maxu + (ply + 4) * step
                if alpha < lo:
                    alpha = lo
                    if alpha >= beta:
                        lines[ply] = None
                        return alpha
            else:
                moves = actions(s)
            tt_move = None
            k: Any = None
            e: Any = None
            bounded = False  # the window was narrowed by a depth-limited table entry
            banked = 0.0  # the part of the value settled before s (the table keeps the rest)
            if use_tt:
                k = key_of(s)
                e = tget(k)
                if use_banked and k is not None:
                    banked = banked_of(s, p)  # type: ignore[misc]
                if e is not None:
                    tt_move = e[3]
                    if e[0] >= d:
                        bounded = e[0] < UNLIMITED
                        # A stored bound narrows the window; an exact value ends the node.
                        v = from_table(e[2], ply, threshold, step) + banked
                        flag = e[1]
                        if flag == EXACT:
                            alpha = beta = v
                        elif flag == LOWER:
                            if v > alpha:
                                alpha = v
                        elif v < beta:
                            beta = v
                        if alpha >= beta:
                            tt_hits += 1
                            if e[0] < UNLIMITED:
                                horizon = True
                            lines[ply] = (tt_move, None) if tt_move is not None else None
                            return v
            if use_iir and tt_move is None and d >= IIR_DEPTH and not checked:
                d -= 1  # internal iterative reduction: no table move to search first
            if use_safe:  # (after the table, as in Pons's solver)
                hi = maxu - (ply + 3) * step
                if beta > hi:
                    beta = hi
                    if alpha >= beta:
                        lines[ply] = None
                        return beta
            if use_bounds:  # the game's bounds on the exact value (bridge's quick tricks)
                lo, hi = node_bounds(s, p)
                if lo >= beta:
                    lines[ply] = None
                    return lo
                if hi <= alpha:
                    lines[ply] = None
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                    if alpha >= beta:  # (lo == hi: the value is known)
                        lines[ply] = None
                        return beta
            zero_window = prunes and nextafter(alpha, INF) >= beta
            if (
                use_null and d >= 3 and not checked and not nulled[ply] and zero_window
                and -threshold < beta < threshold and null_allowed(s)
            ):
                nv = null_move_cutoff(s, beta, d, ply)
                if nv is not None:
                    return nv
            futile = False
            fut_value = -INF
            if (d < futility_depth and not checked and zero_window
                    and -threshold < alpha and beta < threshold):
                fv = futility_bound(s, p, d, ply, alpha, beta)
                if fv is not None:
                    if fv >= beta:
                        return fv
                    futile, fut_value = True, fv
            alpha_orig = alpha
            if ordered is not None and len(moves) > 1:  # (one move: nothing to order)
                moves = ordered(s, p, moves, tt_move, ply)
            outer_horizon = horizon  # track whether *this* subtree meets the horizon
            horizon = False
            best = -INF
            best_move = None
            first = True
            # Late-move reductions: only in zero-window nodes at depth >= 3, not in check.
            lmr_node = use_lmr and d >= 3 and not checked and zero_window
            # Late-move pruning: the quiet moves after the first lmp_count, near the horizon.
            lmp_count = (3 + d * d if use_lmp and d <= LMP_DEPTH and not checked
                         and zero_window and -threshold < alpha and beta < threshold
                         else MAX_PLIES * MAX_PLIES)
            # Static exchange pruning: moves that lose material, near the horizon.
            see_node = (exchange is not None and d <= SEE_DEPTH and not checked
                        and zero_window and -threshold < alpha and beta < threshold)
            late_pruned = False
            noisy: Any = None
            searched = 0
            for a in moves:
                c = result(s, a)
                cp = to_move(c)
                searched += 1
                # A quiet move may be pruned (futility, move count) or searched shallower
                # first (LMR).
                prune = (futile or searched > lmp_count) and not first
                see_test = see_node and not first
                late = (lmr_node and searched > LMR_FULL_MOVES and a != tt_move and not (
                    use_killers and (a == killers[ply][0] or a == killers[ply][1])))
                if cp != p and (prune or see_test or late):
                    quiet, noisy = reducible(s, a, c, noisy)
                    if see_test and exchange(s, a) < (  # type: ignore[misc]
                            -see_quiet * d if quiet else -see_noisy * d * d) and (
                            quiet or not (check_hook and in_check(c))):
                        # It loses material and gives no check (a sacrifice that checks
                        # is the tactic this search must see): not searched (its
                        # position was generated).
                        exchange_prunes += 1
                        late_pruned = True
                        nodes += 1
                        if nodes >= next_check:
                            next_check = clock.check(nodes)
                        continue
                    if quiet:
                        if prune:
                            # It cannot lift this node to alpha (futility), or is too late
                            # in the order to matter (move count). Its position was
                            # generated (to test for check), so it counts as a node.
                            if futile:
                                futility_prunes += 1
                            else:
                                late_move_prunes += 1
                                late_pruned = True
                            nodes += 1
                            if nodes >= next_check:
                                next_check = clock.check(nodes)
                            continue
                        if not late:
                            r = 0  # (here only for the exchange test)
                        elif lmr_r is None:
                            r = 2 if searched > LMR_DEEP_MOVES and d >= 6 else 1
                        else:
                            r = lmr_r[(d if d < LMR_TABLE_SIZE else LMR_TABLE_SIZE - 1)
                                      * LMR_TABLE_SIZE + (searched if searched < LMR_TABLE_SIZE
                                                          else LMR_TABLE_SIZE - 1)]
                            if use_history and -history[p].get(a, 0) > d * d:
                                r -= 1  # a move that has cut off before: reduced less
                            if r > d - 2:
                                r = d - 2
                        if r > 0:
                            reductions += 1
                            v = -negamax(c, -nextafter(alpha, INF), -alpha, d - 1 - r, ply + 1,
                                         cp)
                            if v <= alpha:
                                first = False
                                if v > best:  # (v <= alpha < beta: no cut-off, no line)
                                    best = v
                                    best_move = a
                                    lines[ply] = (a, lines[ply + 1])
                                continue
                            re_searches += 1
                if cp == p:  # the same player moves again: no negation
                    if pvs and not first:
                        v = negamax(c, alpha, nextafter(alpha, INF), d - 1, ply + 1, cp)
                        if alpha < v < beta:
                            v = negamax(c, alpha, beta, d - 1, ply + 1, cp)
                    else:
                        v = negamax(c, alpha, beta, d - 1, ply + 1, cp)
                elif pvs and not first:
                    # Zero window (alpha, next float above alpha): "is this move better?"
                    v = -negamax(c, -nextafter(alpha, INF), -alpha, d - 1, ply + 1, cp)
                    if alpha < v < beta:
                        v = -negamax(c, -beta, -alpha, d - 1, ply + 1, cp)
                else:
                    v = -negamax(c, -beta, -alpha, d - 1, ply + 1, cp)
                first = False
                if v > best:
                    best = v
                    best_move = a
                    lines[ply] = (a, lines[ply + 1])
                    if v > alpha:
                        alpha = v
                    if v >= beta:
                        cutoffs += 1
                        if quiet_cuts and is_noisy(s, a):  # type: ignore[misc]
                            break  # (noisy_first: a noisy move is neither killer nor history)
                        if use_killers:
                            ks = killers[ply]
                            if ks[0] != a:
                                ks[1] = ks[0]
                                ks[0] = a
                        if use_history:
                            history[p][a] -= d * d
                        break
            if futile and best < fut_value:
                best = fut_value  # what the unsearched quiet moves might still reach
            # A value that rests on a depth-limited bound is no longer exact to the end.
            exact_to_end = not horizon and not futile and not bounded and not late_pruned
            horizon = horizon or outer_horizon or futile or bounded or late_pruned
            if tstore is not None and k is not None:  # (a key of None: not kept)
                # Fail-soft bounds; a subtree that never met the horizon holds for any depth.
                flag = LOWER if best >= beta else UPPER if best <= alpha_orig else EXACT
                tstore(k, UNLIMITED if exact_to_end else d, flag,
                       to_table(best - banked, ply, threshold, step), best_move, e)
            return best

        return _Kernel(negamax, lines, ordered, count_node, met_horizon, flush)


def _no_entry(key: Any) -> None:
    """The probe of a search without a table."""
    return None


def _safe_moves(game: Any) -> SafeMoves[Any, Any]:
    """The game's safe moves (Pons's pruning), which the ``safe`` option needs."""
    hooks: SafeMoves[Any, Any] | None = game.safe_moves()
    if hooks is None:
        raise UnsupportedGameError(f"the engine's safe=1 needs the game's safe moves (Pons's "
                                   f"pruning); {game.name} has none")
    return hooks


# What the kernel binds when the game lacks a capability (never called where it matters).
def _no_moves(state: Any) -> tuple[()]:
    return ()


def _no_node_bounds(state: Any, player: int) -> tuple[float, float]:
    return (-INF, INF)


def _no_bound(state: Any) -> None:
    return None


def _not_in_check(state: Any) -> bool:
    return False


def _never(state: Any) -> bool:
    return False


def _no_null_move(state: Any) -> Any:
    raise UnsupportedGameError("this game has no null move")


def _signed(fn: Any, c: Any, alpha: float, beta: float, d: int, cp: int, sign: int) -> float:
    """A root child's value from the root player's side (``sign`` -1: the other moves)."""
    if sign > 0:
        return float(fn(c, alpha, beta, d, 1, cp))
    return -float(fn(c, -beta, -alpha, d, 1, cp))
