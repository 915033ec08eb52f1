"""Best-reply search (BRS) and BRS+ for several players.

* ``brs`` — Schadd & Winands, "Best Reply Search for Multiplayer Games", IEEE TCIAIG 3(1),
  2011: the root player (MAX) against its opponents, searched with alpha-beta; at a MIN
  layer the moves of *all* opponents are merged and only the best reply of any one of them
  is searched: each opponent in turn order from the one to move plays each of its moves
  from the current position (out of turn, the others passing), then the root player moves
  again. Out-of-turn moves need the game's :class:`~gamesearch.capabilities.TurnPassing`
  (``turn_passing()``) on three or more players; a game without it is refused with a
  one-line error pointing to ``brs+``.
* ``brs+`` — Esser, Gras, Winands, Schadd & Lanctot, "Improving Best-Reply Search"
  (Computers and Games 2013): the same MIN layer, but the opponents who do not play the
  best reply play a move instead of passing — the first of the game's move ordering
  (``move_ordering()``; without one, the first legal action) — so every position searched
  is one of the real game, in its real turn order, and no capability is needed.

Shared: the value is the root player's (its utility at the leaves, ``evaluate(s, root)``
at the cut-off; wins discounted by their distance in layers, as alpha-beta discounts them
by plies), fail-soft alpha-beta, a principal variation, ``nodes`` (every position
generated, the forced moves of BRS+ included), ``cutoffs``, and iterative deepening under
the driver's :class:`~gamesearch.search.control.Limit`. Depth counts *layers*: a MAX layer
is one move of the root player, a MIN layer one opponent's reply (BRS+: with the other
opponents' ordered moves around it). On two players a MIN layer is the opponent's move, so
both are alpha-beta (:mod:`gamesearch.search.alphabeta`), and the tests check that they
return its value and move.

Departures: the MIN layer's opponents are taken in turn order starting from the one to
move (the papers fix no order; order matters only for ties and for node counts); in BRS+
the line where every opponent plays its ordered move is searched once, not once per
opponent; a MIN node whose opponents have no move at all passes to the root player. The
principal variation of ``brs`` may contain out-of-turn moves (the notation cuts it where a
move is not legal in the real game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar

from ..errors import UnsupportedGameError
from ..game import Game
from .base import Searcher
from .common import INF, Iteration
from .control import Clock
from .minimax import pv_list


class BestReply(Searcher):
    name: ClassVar[str] = "brs"
    summary: ClassVar[str] = ("best-reply search (Schadd & Winands 2011): the root player "
                              "against the best reply of any one opponent")
    two_player_only: ClassVar[bool] = False
    #: BRS+ (the other opponents play their first ordered move instead of passing)
    plus: ClassVar[bool] = False

    def __init__(self, game: Game[Any, Any], *, discount: bool = True,
                 zero_eval: bool = False, evaluation: str | None = None) -> None:
        super().__init__(game, discount=discount, zero_eval=zero_eval, evaluation=evaluation)
        self._give_turn: Callable[[Any, int], Any] | None = None
        passing = game.turn_passing()
        if passing is not None:
            self._give_turn = passing.give_turn
        elif game.num_players > 2 and not self.plus:
            raise UnsupportedGameError(
                f"brs lets an opponent move out of turn, and {game.name} offers no "
                "turn_passing() for it; use brs+ (real turn order), paranoid or maxn")
        ordering = game.move_ordering()
        self._order = ordering.order_actions if ordering is not None else None

    def first_move(self, state: Any) -> Any:
        """The move an opponent plays in BRS+ when it is not the one replying: the first
        of the game's move ordering (else the first legal action)."""
        acts = self.game.actions(state)
        if self._order is not None:
            acts = self._order(state, acts)
        return acts[0]

    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        game = self.game
        terminal_utility, to_move, actions, result, evaluate = self.rules()
        is_terminal = game.is_terminal
        me, maxu, step = to_move(state), game.max_utility, self.win_step
        n = game.num_players
        give_turn, plus, first_move = self._give_turn, self.plus, self.first_move
        nodes = cutoffs = 0
        next_check = clock.begin(self.nodes)
        horizon = False
        lines: list[Any] = [None] * 512
        cutoff = -1 if depth is None else depth

        def count() -> None:
            nonlocal nodes, next_check
            nodes += 1
            if nodes >= next_check:
                next_check = clock.check(nodes)

        def replies(s: Any) -> Iterator[tuple[Sequence[Any], Any]]:
            """The MIN layer's children of ``s`` on three or more players, generated (and
            counted) as the search asks for them: (the actions played, the position)."""
            if not plus:
                assert give_turn is not None
                q = to_move(s)
                for k in range(n):
                    o = (q + k) % n
                    if o == me:
                        continue
                    so = s if o == q else give_turn(s, o)
                    for a in actions(so):
                        c = result(so, a)
                        count()
                        if not is_terminal(c) and to_move(c) != me:
                            c = give_turn(c, me)
                        yield (a,), c
                return
            # BRS+: the line of ordered moves up to the root player's turn ...
            line: list[tuple[Any, Any]] = []  # (position, its ordered move)
            t = s
            while not is_terminal(t) and to_move(t) != me and len(line) < 2 * n:
                a = first_move(t)
                line.append((t, a))
                t = result(t, a)
                count()
            # ... and, for each opponent on it, each of its moves with the ordered rest
            for k, (base, ordered) in enumerate(line):
                prefix = [m for _, m in line[:k]]
                for a in actions(base):
                    if k and a == ordered:
                        continue  # the all-ordered line: already searched at k = 0
                    seq = [*prefix, a]
                    c = result(base, a)
                    count()
                    while not is_terminal(c) and to_move(c) != me and len(seq) < 2 * n:
                        m = first_move(c)
                        seq.append(m)
                        c = result(c, m)
                        count()
                    yield seq, c

        def value(s: Any, alpha: float, beta: float, layer: int, counted: bool) -> float:
            nonlocal horizon, cutoffs
            if not counted:
                count()
            u = terminal_utility(s, me)
            if u is not None:
                lines[layer] = None
                if step and (u >= maxu or u <= -maxu):
                    return u - layer * step if u > 0 else u + layer * step
                return u
            if layer == cutoff:
                horizon = True
                lines[layer] = None
                return evaluate(s, me)
            if to_move(s) == me:  # MAX
                v = -INF
                for a in actions(s):
                    v2 = value(result(s, a), alpha, beta, layer + 1, False)
                    if v2 > v:
                        v = v2
                        lines[layer] = (a, lines[layer + 1])
                        if v > alpha:
                            alpha = v
                    if v >= beta:
                        cutoffs += 1
                        break
                return v
            if n == 2:  # the opponent's moves: alpha-beta's MIN-VALUE
                children: Iterable[tuple[Sequence[Any], Any]] = (
                    ((a,), result(s, a)) for a in actions(s))
            else:
                children = replies(s)
            v = INF
            counted_here = n > 2  # replies() counted the positions it generated
            for seq, c in children:
                v2 = value(c, alpha, beta, layer + 1, counted_here)
                if v2 < v:
                    v = v2
                    rest = lines[layer + 1]
                    for m in reversed(seq):
                        rest = (m, rest)
                    lines[layer] = rest
                    if v < beta:
                        beta = v
                if v <= alpha:
                    cutoffs += 1
                    break
            if v == INF:  # no opponent could move: the turn passes to the root player
                assert give_turn is not None
                return value(give_turn(s, me), alpha, beta, layer + 1, False)
            return v

        try:
            v = value(state, -INF, INF, 0, False)
        finally:
            self.nodes += nodes
            self.cutoffs += cutoffs
        pv = pv_list(lines[0])
        return Iteration(value=v, action=pv[0], pv=pv, hit_horizon=horizon)


class BestReplyPlus(BestReply):
    name: ClassVar[str] = "brs+"
    summary: ClassVar[str] = ("BRS+ (Esser et al. 2013): best-reply search where the other "
                              "opponents play their first ordered move instead of passing")
    plus: ClassVar[bool] = True
