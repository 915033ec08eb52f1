"""Max^n for several players — AIMA 4th ed. §6.2.2 and Figure 6.4 (Luckhardt & Irani 1986),
with the pruning of Korf (1991) and Sturtevant (2003) as options.

Every node is worth a utility vector with one entry per player; the player to move picks the
child whose vector is best *for them*. **Tie-break**: the first such child in the game's
action order (the figure's root, where A's options tie at 1, keeps the first move:
(1, 2, 6)); a later child replaces the best only when it is strictly better for the mover.
At a depth cut-off the vector is ``[evaluate(s, p) for p in players]``. Wins are not
discounted here: vectors from general-sum games have no single "win" to discount.

The options (``maxn:shallow=1,lastbranch=1,speculative=1``; all off by default, and then the
search is exactly the plain one above, node for node) prune on a constant-sum game whose
values are bounded below: ``GameType.constant_sum`` (every leaf and evaluation vector sums
to ``S``) and ``GameType.value_bounds`` (each entry at least ``lo``). A game without them is
refused with a one-line error. With ``h_x`` the best value the mover of node ``x`` has
found so far among its exactly valued children:

* ``shallow`` — Korf's shallow pruning: at node ``c`` with parent ``b`` (different movers),
  once ``h_b + h_c + (n-2)·lo >= S`` the rest of ``c`` cannot give ``b``'s mover more than
  ``h_b``, so ``c`` stops: ``b`` would not pick it (ties keep ``b``'s earlier child).
* ``lastbranch`` — Sturtevant's last-branch pruning: at ``c`` with grandparent ``a``
  (different movers), when ``b`` is searching its *last* child and ``b``'s best so far
  gives ``a``'s mover at most ``h_a``: once ``h_a + h_c + (n-2)·lo >= S``, ``b``'s value
  is either its best so far or ``c``'s, neither better for ``a`` than ``h_a``: ``c`` stops.
  It never needs a re-search (the tests check that it does none).
* ``speculative`` — Sturtevant's speculative pruning: the same deep test on any child of
  ``b`` (with ``h_b`` added when ``b``'s mover differs from both: ``h_a + h_b + h_c +
  (n-3)·lo >= S``), so ``c``'s value, were ``b`` to pick it, would not be picked by
  ``a``. When ``b`` is done, if its best among the exactly valued children would be
  picked by ``a`` (better than ``h_a`` for ``a``'s mover) — or there is none — the pruned
  children are searched again without the deep test, with ``b``'s bound as it was when
  they were first searched; otherwise ``b`` reports a value ``a`` will not pick.

Departures, each for a reason: the bounds come from the game (``GameType``), not from a
fixed ``maxsum``; a node's "best so far" counts only children valued exactly (a pruned
child's partial vector is never picked — a lower bound for its mover, nothing for the
others), which keeps every rule sound with ties and on several players; the deep tests look
at the grandparent only (Sturtevant also looks further up for n > 3); last-branch pruning
is the speculative test restricted to where no re-search can be needed. The pruned
searches return the plain max^n value and move (the hypothesis tests compare them on random
constant-sum trees with ties); ``re_searches`` in the result's extra counts speculative
re-searches, ``cutoffs`` the prunes.

Paranoid search (Sturtevant & Korf 2000) is the other classic answer: assume all opponents
play against the root player, which turns the game into a two-player zero-sum one that
alpha-beta can prune; :class:`Paranoid` is exactly :class:`AlphaBeta` allowed on n players,
and with ``tt``/``ordering`` (and the engine's other options) it is the negamax engine
(:mod:`gamesearch.search.negamax`) on that two-player reduction (:class:`ParanoidGame`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from ..capabilities import Evaluation, MoveOrdering
from ..errors import UnsupportedGameError
from ..game import Game, GameType
from .alphabeta import AlphaBeta
from .base import Searcher
from .common import INF, Callback, Iteration, SearchResult
from .control import Clock, Limit
from .minimax import pv_list

#: what a node of the pruned search tells its parent: its value is exact; the parent will
#: not pick it (nor its true value); it was cut by a deep (grandparent) test
EXACT, NOT_PICKED, DEEP = 0, 1, 2


class MaxN(Searcher):
    name: ClassVar[str] = "maxn"
    summary: ClassVar[str] = "max^n for n players, AIMA Fig 6.4 (utility vectors)"
    two_player_only: ClassVar[bool] = False

    def __init__(
        self, game: Game[Any, Any], *, discount: bool = True, zero_eval: bool = False,
        shallow: bool = False, lastbranch: bool = False, speculative: bool = False,
        evaluation: str | None = None,
    ) -> None:
        super().__init__(game, discount=discount, zero_eval=zero_eval, evaluation=evaluation)
        self.shallow, self.lastbranch, self.speculative = shallow, lastbranch, speculative
        #: speculative re-searches of the last search
        self.re_searches = 0
        self._sum = 0.0
        self._low = 0.0
        if shallow or lastbranch or speculative:
            gt = game.game_type
            if gt.constant_sum is None or gt.value_bounds is None:
                raise UnsupportedGameError(
                    f"maxn's pruning (shallow, lastbranch, speculative) needs a constant-sum "
                    f"game with bounded values; {game.name} promises neither "
                    "(GameType.constant_sum, value_bounds)")
            self._sum, self._low = gt.constant_sum, gt.value_bounds[0]
            if self.evaluation is None and zero_eval and not (
                    self._sum == 0 and gt.value_bounds[0] <= 0 <= gt.value_bounds[1]):
                raise UnsupportedGameError(
                    f"maxn's pruning with zero_eval: zero vectors do not sum to "
                    f"{self._sum:g} in {game.name}")

    def new_search(self) -> None:
        super().new_search()
        self.re_searches = 0

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        if self.shallow or self.lastbranch or self.speculative:
            return self._pruned_iteration(state, depth, clock)
        game = self.game
        _, to_move, actions, result, evaluate = self.rules()
        is_terminal, returns = game.is_terminal, game.returns
        players = range(game.num_players)
        nodes = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        lines: list[Any] = [None] * 512

        def value(s: Any, d: int, ply: int) -> tuple[float, ...]:
            nonlocal nodes, next_check, horizon
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            if is_terminal(s):
                lines[ply] = None
                return tuple(returns(s))
            if d == 0:
                horizon = True
                lines[ply] = None
                return tuple(evaluate(s, q) for q in players)
            p = to_move(s)
            best: tuple[float, ...] | None = None
            for a in actions(s):
                v = value(result(s, a), d - 1, ply + 1)
                if best is None or v[p] > best[p]:
                    best = v
                    lines[ply] = (a, lines[ply + 1])
            assert best is not None, "a non-terminal state must have an action"
            return best

        try:
            v = value(state, -1 if depth is None else depth, 0)
        finally:
            self.nodes += nodes
        pv = pv_list(lines[0])
        return Iteration(value=v, action=pv[0], pv=pv, hit_horizon=horizon)

    def _pruned_iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        """Max^n with the pruning options (the module docstring gives the rules and why
        each is safe). ``value`` returns ``(vector, status)``; the per-ply arrays hold
        each node's mover, its best value so far (exact children only), its best vector
        and whether it is searching its last child, for the descendants' tests."""
        game = self.game
        _, to_move, actions, result, evaluate = self.rules()
        is_terminal, returns = game.is_terminal, game.returns
        n = game.num_players
        players = range(n)
        total, low = self._sum, self._low
        shallow, lastbranch, speculative = self.shallow, self.lastbranch, self.speculative
        deep_on = lastbranch or speculative
        nodes = cutoffs = re_searches = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        size = 512
        lines: list[Any] = [None] * size
        mover = [-1] * size
        bound = [-INF] * size
        bestvec: list[tuple[float, ...] | None] = [None] * size
        last = [False] * size

        def value(s: Any, d: int, ply: int, deep_ok: bool) -> tuple[tuple[float, ...], int]:
            nonlocal nodes, next_check, horizon, cutoffs, re_searches
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)
            if is_terminal(s):
                lines[ply] = None
                return tuple(returns(s)), EXACT
            if d == 0:
                horizon = True
                lines[ply] = None
                return tuple(evaluate(s, q) for q in players), EXACT
            p = to_move(s)
            mover[ply] = p
            bound[ply] = -INF
            bestvec[ply] = None
            acts = list(actions(s))
            k = len(acts)
            best: tuple[float, ...] | None = None
            fallback: tuple[float, ...] | None = None
            children: list[tuple[Any, tuple[float, ...], int, Any, float]] = []
            has_deep = False
            for i, a in enumerate(acts):
                last[ply] = i == k - 1
                before = bound[ply]
                v, status = value(result(s, a), d - 1, ply + 1, True)
                children.append((a, v, status, lines[ply + 1], before))
                if fallback is None:
                    fallback = v
                if status == DEEP:
                    has_deep = True
                    continue
                if status == NOT_PICKED:
                    continue
                if best is None or v[p] > best[p]:
                    best = v
                    bound[ply] = v[p]
                    bestvec[ply] = v
                    lines[ply] = (a, lines[ply + 1])
                if i == k - 1 or ply == 0:
                    continue
                hc = best[p]
                # Korf's shallow pruning against the parent
                q = mover[ply - 1]
                if shallow and q != p and bound[ply - 1] + hc + (n - 2) * low >= total:
                    cutoffs += 1
                    return best, NOT_PICKED
                # the deep tests against the grandparent
                if not (deep_on and deep_ok and ply >= 2):
                    continue
                pa = mover[ply - 2]
                ha = bound[ply - 2]
                if pa == p or ha == -INF:
                    continue
                if lastbranch and last[ply - 1]:
                    bb = bestvec[ply - 1]
                    if bb is not None and bb[pa] <= ha and ha + hc + (n - 2) * low >= total:
                        cutoffs += 1
                        return best, DEEP
                if speculative:
                    pb, hb = q, bound[ply - 1]
                    if pb != pa and pb != p and hb > -INF:
                        pruned = ha + hb + hc + (n - 3) * low >= total
                    else:
                        pruned = ha + hc + (n - 2) * low >= total
                    if pruned:
                        cutoffs += 1
                        return best, DEEP
            if has_deep:
                pa = mover[ply - 1]
                ha = bound[ply - 1]
                if best is not None and best[pa] <= ha:
                    return best, NOT_PICKED  # whatever b's true value, a will not pick it
                # a might pick b: value the deep-pruned children exactly, then pick again
                re_searches += 1
                for j, (a, _, status, _, before) in enumerate(children):
                    if status != DEEP:
                        continue
                    bound[ply] = before
                    last[ply] = j == k - 1
                    v, status = value(result(s, a), d - 1, ply + 1, False)
                    children[j] = (a, v, status, lines[ply + 1], before)
                best = None
                for a, v, status, line, _ in children:
                    if status == EXACT and (best is None or v[p] > best[p]):
                        best = v
                        lines[ply] = (a, line)
                if best is None:  # every child is one b would not pick: neither would a
                    return children[0][1], NOT_PICKED
                mover[ply] = p
                bound[ply] = best[p]
                return best, EXACT
            if best is None:
                assert fallback is not None, "a non-terminal state must have an action"
                return fallback, NOT_PICKED
            return best, EXACT

        try:
            v, _ = value(state, -1 if depth is None else depth, 0, True)
        finally:
            self.nodes += nodes
            self.cutoffs += cutoffs
            self.re_searches += re_searches
        pv = pv_list(lines[0])
        return Iteration(value=v, action=pv[0], pv=pv, hit_horizon=horizon,
                         extra={"re_searches": self.re_searches})



class ParanoidGame(Game[Any, Any]):
    """The paranoid reduction of ``game`` for ``root`` (Sturtevant & Korf 2000): a
    two-player zero-sum game where player 0 is ``root`` and player 1 the coalition of
    everyone else, worth ``-`` the root's utility (and evaluation). Same states, actions,
    keys, notation and move ordering; the tests compare alpha-beta on it with a
    hand-built two-player tree of the same game."""

    def __init__(self, game: Game[Any, Any], root: int, evaluation: str | None = None
                 ) -> None:
        self.inner, self.root = game, root
        self.name = game.name
        self.description = f"{game.name}, player {root} against the others (paranoid)"
        self.num_players = 2
        self.game_type = GameType(num_players=2)
        self.max_utility = game.max_utility
        self._evaluation = game.evaluation(evaluation)
        self._ordering = game.move_ordering()

    def initial_state(self) -> Any:
        return self.inner.initial_state()

    def to_move(self, state: Any) -> int:
        return 0 if self.inner.to_move(state) == self.root else 1

    def actions(self, state: Any) -> Sequence[Any]:
        return self.inner.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self.inner.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self.inner.is_terminal(state)

    def returns(self, state: Any) -> tuple[float, ...]:
        u = self.inner.utility(state, self.root)
        return (u, -u)

    def utility(self, state: Any, player: int) -> float:
        u = self.inner.utility(state, self.root)
        return u if player == 0 else -u

    def terminal_utility(self, state: Any, player: int) -> float | None:
        u = self.inner.terminal_utility(state, self.root)
        return u if u is None or player == 0 else -u

    def key(self, state: Any) -> Hashable:
        return self.inner.key(state)

    def search_start(self, state: Any) -> Any:
        return self.inner.search_start(state)

    def format_action(self, state: Any, action: Any) -> str:
        return self.inner.format_action(state, action)

    def parse_action(self, state: Any, text: str) -> Any:
        return self.inner.parse_action(state, text)

    def format_state(self, state: Any) -> str:
        return self.inner.format_state(state)

    def evaluation(self, name: str | None = None) -> Evaluation[Any] | None:
        inner = self._evaluation
        if inner is None or name is not None:
            return None
        evaluate, root = inner.evaluate, self.root

        def paranoid(state: Any, player: int) -> float:
            v = evaluate(state, root)
            return v if player == 0 else -v

        return Evaluation(paranoid)

    def move_ordering(self) -> MoveOrdering[Any, Any] | None:
        return self._ordering


#: the negamax engine's options paranoid takes (any of them: paranoid runs the engine)
ENGINE_OPTIONS = ("tt", "ordering", "killers", "history", "pvs", "aspiration", "iterate")


class Paranoid(AlphaBeta):
    """Paranoid alpha-beta (Sturtevant & Korf 2000). Without options it is
    :class:`AlphaBeta` allowed on n players (the same nodes, the counts the tests pin);
    with any of the engine's options (``tt``, ``ordering``, ``killers``, ``history``,
    ``pvs``, ``aspiration``, ``iterate``) it runs the negamax engine on the two-player
    reduction :class:`ParanoidGame` of the root player, one engine (and table) per root
    player, kept from search to search."""

    name: ClassVar[str] = "paranoid"
    summary: ClassVar[str] = "paranoid alpha-beta: every opponent minimises the root player"
    two_player_only: ClassVar[bool] = False

    def __init__(self, game: Game[Any, Any], *, discount: bool = True,
                 zero_eval: bool = False, evaluation: str | None = None,
                 **engine: Any) -> None:
        super().__init__(game, discount=discount, zero_eval=zero_eval, evaluation=evaluation)
        unknown = sorted(set(engine) - set(ENGINE_OPTIONS))
        if unknown:
            raise TypeError(f"unexpected option(s) {', '.join(unknown)}; paranoid takes "
                            f"{', '.join(ENGINE_OPTIONS)}")
        self.engine_options = {k: v for k, v in engine.items() if v is not None}
        self._engines: dict[int, Searcher] = {}

    def engine(self, root: int) -> Searcher:
        """The negamax engine on the reduction for ``root`` (built once)."""
        from .negamax import Negamax

        eng = self._engines.get(root)
        if eng is None:
            eng = Negamax(ParanoidGame(self.game, root, self.evaluation_name),
                          discount=self.discount,
                          zero_eval=self.zero_eval, **self.engine_options)
            eng.time_source = self.time_source
            self._engines[root] = eng
        return eng

    def search(self, state: Any, limit: Limit | None = None,
               callback: Callback | None = None) -> SearchResult:
        if not self.engine_options or self.game.is_terminal(state):
            return super().search(state, limit, callback)
        eng = self.engine(self.game.to_move(self.game.search_start(state)))
        label = self.label

        def relabel(r: SearchResult) -> None:
            r.algorithm = label
            if callback is not None:
                callback(r)

        r = eng.search(state, limit, relabel if callback is not None else None)
        r.algorithm = label
        self.nodes, self.cutoffs, self.tt_hits = r.nodes, r.cutoffs, r.tt_hits
        return r.annotate(self.game, state)
