"""Monte Carlo tree search — AIMA 4th ed. §6.4 and Figure 6.11.

The textbook's algorithm, which the loop in :meth:`MCTS._run` follows step by step::

    function MONTE-CARLO-TREE-SEARCH(state) returns an action
        tree <- NODE(state)
        while IS-TIME-REMAINING() do
            leaf  <- SELECT(tree)           # descend by the selection policy (UCT)
            child <- EXPAND(leaf)           # add one new node below the leaf
            result <- SIMULATE(child)       # play out to the end (the playout policy)
            BACK-PROPAGATE(result, child)   # update the statistics on the path
        return the move in ACTIONS(state) whose node has the highest number of playouts

Sources, and what each contributes here:

* Kocsis & Szepesvári 2006, "Bandit based Monte-Carlo planning" (UCT): select the child
  maximising ``Q + c * sqrt(ln N / n)``, ``Q`` the mean return of the child for the player
  choosing, ``N`` and ``n`` the parent's and the child's visit counts.
* Browne et al. 2012, "A survey of Monte Carlo tree search methods": the four-step
  vocabulary, the robust child (most visits) as the final move, the heuristic cut-off of
  playouts, transpositions (shared nodes, back-up along the path taken: UCT1 of Childs,
  Brodeur & Kocsis 2008) and subtree reuse between moves.
* Silver et al. 2016-2018 (AlphaGo, AlphaZero), PUCT: select by
  ``Q + c * P(s, a) * sqrt(N) / (1 + n)`` with a prior ``P`` from the ``priors`` of the
  game's ``playouts()`` capability (uniform without them).
* Winands, Björnsson & Saito 2008, "Monte-Carlo tree search solver": proven values back up
  through the tree (a proven win for the player to move proves its parent at once), proven
  children are not selected again, and the search stops when the root is proven; its value
  is then exact. The proofs are the score bounds of Cazenave & Saffidine 2010 ("Score
  bounded Monte-Carlo tree search"): every node keeps a pessimistic and an optimistic bound
  on its value, a child whose optimistic bound cannot beat its parent's pessimistic one is
  cut from selection, and a node is proven when its bounds meet, so draws and the textbook
  trees' arbitrary values are proven as well as wins and losses.
* Gelly & Silver 2007, "Combining online and offline knowledge in UCT" (ICML), with the
  "rapid action value estimate" (RAVE) of all-moves-as-first (AMAF): ``rave=1`` keeps, at
  every node and for each of its actions, the returns of every iteration in which the
  node's player played that action at any later point of the iteration (in the tree or in
  the playout; its first time only), and selects by ``(1 - β) Q + β Q_amaf`` with their
  hand-picked schedule ``β = sqrt(k / (3 n + k))`` (``rave_k``; they found ``k = 1000``
  best on 9x9 Go). Their *prior knowledge* is ``prior_visits=N``: each action's AMAF
  statistics start with ``N`` virtual visits worth ``max_utility · (2h - 1)``, ``h = ρ /
  (ρ + 1)`` for ``ρ`` the game's prior of the action over the uniform one (their
  heuristic ``Q_prior`` with ``n_prior`` equivalent experience: a move ``ρ`` times more
  likely than average is worth ``ρ : 1`` odds). Departures: their selection has no
  exploration term (``c = 0``); here an unvisited child competes by its AMAF value plus
  ``c · span · sqrt(ln(N + 1) / (n + 1))``, so ``c`` still explores but does not force
  every child to be tried first (set ``c=0`` for theirs); an action never played in any
  playout gets the optimistic ``max_utility``. The playout's moves come from the game's
  traced playout (``Playouts.traced``; Go's follows MoGo's patterns), or a traced uniform
  one written here. An action the game's trace never reports (``Playouts.untraced``: Go's
  pass, which every playout plays at its end) has no AMAF evidence, so it keeps no AMAF
  statistics: its prior (or, when it ends the game, its exact value) stands until its
  first visit, then its own mean alone judges it (β = 0). Before, the pass's prior was
  washed out by its own visits only, while every other move's AMAF value fell with the
  real results, so in a lost position the pass won every tie and the program passed
  while GNU Go took the board (``tests/test_go_pass.py``, docs/results/go.md).
  Under RAVE a decision node is made unopened: its actions, priors and AMAF statistics
  are listed when a later iteration first selects through it (:meth:`MCTS._open`, which
  also applies the AMAF update of the node's first iteration, kept until then), so the
  many leaves visited once never pay for them; the search is the same, seed for seed
  (``tests/test_mcts_rave.py``), 1.3-1.6x the iterations a second on 9x9 Go
  (``benchmarks/go_playouts.py --ab-rounds``; docs/results/go.md).
  With numba installed the RAVE tree is *compact* (:mod:`.rave_kernels`): each opened
  node keeps its children's visits and means, AMAF statistics and an action-code-to-child
  table in arrays, selection (:func:`compact_index`) and the AMAF back-up
  (:func:`compact_backup`) are compiled loops over them, and the game may hand its
  playout's moves over as integer arrays (``Playouts.traced_codes``). It is the same
  search, seed for seed, as the plain Python tree (:func:`rave_index`,
  :func:`amaf_update`), which stays as its reference (``MCTS._compact = False``;
  ``tests/test_mcts_compact.py``).
* Sturtevant 2008, "An analysis of UCT in multi-player games": with ``n`` players every
  node keeps the mean return of the player who moved into it, so each player maximises its
  own return (the max^n back-up, AIMA Fig 6.4); chance nodes are sampled by probability.

Departures from the figure, and why:

* **Scale.** The figure's playouts return win/loss; ours return the game's ``returns``
  vector, whatever its scale (Connect Four ±1000, the textbook trees' 2..14). The
  exploration term is multiplied by the range of returns seen so far in the search
  (the min-max normalisation of Schrittwieser et al.'s MuZero), so ``c`` means the same on
  every game: it is the constant of UCB1 for returns in [0, 1]. Default ``c = 0.5``, below
  the √2 of Kocsis & Szepesvári's bound: tuned on Connect Four at 0.05 s a move, where it
  beat ``c = 1.4`` (+41 =1 -18), ``c = 1.0`` (+61 =3 -36), ``c = 0.7`` (+57 =5 -38) and
  held ``c = 0.3`` (+50 =8 -42) (benchmarks/mcts_match.py). A small ``c`` exploits: where
  a large return is rare, a move can starve after a few unlucky playouts (the tests' chance
  tree needs ``c = 1.4``); raise it there.
* **Simulation.** :func:`gamesearch.game.random_playout`: uniformly random moves (in the
  game's compiled playout, the ``compiled`` of its ``playouts()``, when it has one:
  Connect Four's and Othello's, numba); chance by probability. ``playout_depth=N`` cuts a
  playout after ``N`` plies and scores the position with the game's evaluation, which is
  on the utility scale (strictly inside ``±max_utility``, capabilities.py), so it backs up
  like a return. ``wdl=1`` backs up only win, draw or loss, for games whose utility is a margin.
* **Expansion order.** EXPAND picks an untried action at random (with the search's seeded
  generator), so the game's action order does not bias which children get visited first.
* **The solver on any values.** Proven values are utility vectors, not only win/loss, and
  the score bounds are kept for every game: with two players (zero-sum) on player 0's
  value; with ``n`` players one pair per player (the mover's pessimistic bound is the best
  of its children's, the others span the children not cut), and a node is proven when every
  child not cut is proven, taking the first best for its mover (max^n's tie rule, AIMA
  Fig 6.4). Chance nodes sum their outcomes' bounds weighted by probability (an outcome not
  sampled yet counts as ``±max_utility``). Proven children are not selected again. So on
  small trees the root's value becomes the minimax / max^n / expectiminimax value. A proven
  win is discounted by its distance as the other algorithms do (``search/common.py``) — the
  distance of the proven line, which need not be the shortest win.
* **Budget.** Iterations replace nodes: the ``nodes`` limit counts iterations (one playout
  each), as does the ``iterations`` option; ``time`` is wall-clock, checked between
  iterations. There is no depth limit (``playout_depth`` cuts the playouts instead).
* **Transpositions** (``transpositions=1``) share nodes by ``game.key``; statistics are
  backed up along the path taken only. A node keeps the returns of the player who moved into
  it when it was made (in alternating games that is always the same player). A position
  already on the current path is not entered again (games with cycles, like Pig's passes).
  Proofs over shared nodes assume the value of a position does not depend on its history.

Hidden-information games are refused by :class:`MCTS`: they are searched by SO-ISMCTS
(:mod:`gamesearch.search.ismcts`, Cowling, Powley & Whitehouse 2012), which is built on this
module's parts: its tree is of :class:`Node` (one per information set of the searcher: the
node's ``actions`` grow as determinizations show them, ``index`` finds an action's child,
``available`` is the availability count), its SELECT and EXPAND is
:func:`select_determinized` (UCB1 over the children legal in the iteration's
determinization, availability counts in place of the parent's visits), and its back-up is
this module's :func:`backpropagate` (each node adds the return of the player who moved into
it, as for ``n`` players here). The loop's :meth:`MCTS.determinization` and
:meth:`MCTS.backup_hook` stay plug-in points of :class:`MCTS` itself (RAVE's statistics are
updated in the loop, :func:`amaf_update`, since they need the playout's moves).
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate
from math import log, sqrt
from typing import Any, ClassVar

from ..errors import GameError, InvalidLimitError, UnsupportedGameError
from ..game import CHANCE, Game, random_playout
from . import rave_kernels
from .base import Searcher, zero_evaluation
from .common import INF, Callback, Iteration, SearchResult, win_step, win_threshold
from .control import NEVER, Clock, Limit

#: The exploration constant of UCB1 for returns normalised to [0, 1] (tuned: see above).
DEFAULT_C = 0.5
#: How far below the old root a reused tree looks for the new root (plies, chance included).
REUSE_PLIES = 4


class Node:
    """One position of the search tree: a record whose fields the loop reads directly.

    ``owner`` is the player who moved into the node (at the root: the player to move);
    ``n`` its visits; ``w`` the sum of the returns of ``owner`` over them; ``q = w / n`` the
    ``Q`` its parent's mover maximises and ``u = 1 / sqrt(n)`` (both kept for selection's
    inner loop; ``u`` is infinite before the first visit); ``wv`` the sum of whole return
    vectors (games other than two-player zero-sum, for reporting ``n``-player values);
    ``exact`` the proven return vector (terminal nodes, and proven ones under the solver) or
    ``None``; ``lo`` and ``hi`` the solver's bounds on player 0's value (two-player zero-sum).
    ``actions`` and ``children`` are aligned (``None``: not expanded yet); ``untried`` lists
    the indices UCT has not expanded; ``priors`` holds PUCT's priors, or a chance node's
    probabilities with ``cum`` their running sums.
    """

    __slots__ = (
        "actions",
        "amaf_n",
        "amaf_w",
        "available",
        "children",
        "cum",
        "exact",
        "hi",
        "index",
        "lo",
        "n",
        "owner",
        "pending",
        "player",
        "priors",
        "q",
        "slot",
        "state",
        "stats",
        "u",
        "untried",
        "w",
        "wv",
    )

    def __init__(self, state: Any, player: int, owner: int, exact: tuple[float, ...] | None,
                 actions: Sequence[Any], priors: Sequence[float] | None,
                 wv: list[float] | None, lo: Any, hi: Any) -> None:
        self.state = state
        self.player = player
        self.owner = owner
        self.n = 0
        self.w = 0.0
        self.q = 0.0
        self.u = INF
        self.wv = wv
        self.exact = exact
        self.lo = lo
        self.hi = hi
        self.actions = actions
        self.children: list[Node | None] = [None] * len(actions)
        self.untried = list(range(len(actions)))
        self.priors = priors
        self.cum: list[float] | None = None
        #: RAVE (``rave=1``): AMAF visits and returns of each action for ``player``, and
        #: the index of each action
        self.amaf_n: list[float] | None = None
        self.amaf_w: list[float] | None = None
        self.index: dict[Any, int] | None = None
        #: RAVE's compact tree (:mod:`.rave_kernels`): the children's visits, means
        #: (copied by the back-up) and AMAF statistics in four rows (``amaf_n`` and
        #: ``amaf_w`` are views of the last two), and the child index of each action code
        self.stats: Any = None
        self.slot: Any = None
        #: RAVE's lazy opening: a decision node made as a leaf whose actions are not
        #: listed yet (``True``), or, after its first iteration, the actions its player
        #: played later in that iteration and the return (their AMAF update, applied when
        #: the node is opened; in the compact tree the iteration's move arrays, the
        #: node's place among them and the return); ``None``: opened
        self.pending: Any = None
        #: ISMCTS: the iterations in which this node's action was legal in the
        #: determinization (its availability count)
        self.available = 0


class MCTS(Searcher):
    """Monte Carlo tree search (see the module docstring). Options:

    * ``c`` — exploration constant (UCB1's for returns in [0, 1]); ``puct=True`` uses PUCT
      with the game's priors (its ``playouts()``; uniform without them);
    * ``solver`` — MCTS-Solver: back up proven values, stop when the root is proven;
    * ``playout_depth`` — cut playouts after this many plies and score the position with
      the game's evaluation (0: evaluate the new node itself); ``None``: play to the end;
    * ``transpositions`` — share nodes between paths by ``game.key``;
    * ``reuse`` — keep the tree between searches and continue from the subtree of the new
      position when it is found within a few plies of the old root;
    * ``seed`` — seed of the search's random generator (expansion order, playouts, chance);
      with an iteration budget, equal seeds give equal searches;
    * ``iterations`` — an iteration budget of its own (also: the limit's ``nodes``);
    * ``fast`` — play the playouts in the game's compiled playout when it has one
      (the same policy, uniform random; ``fast=0``: the plain Python ``random_playout``);
    * ``wdl`` — back up only win, draw or loss (``±max_utility``, 0) instead of the size of
      the outcome, so the search maximises the chance of winning rather than the expected
      margin (two-player zero-sum games with graded utilities: disc counts, points). Proofs
      keep the exact values.
    * ``margin`` — mix the size of the win into the returns of two-player zero-sum games
      whose playouts offer it (``Playouts.margin``, Go's area score): a finished playout
      or terminal node is worth ``(1 - margin) · u + margin · max_utility · m`` for
      player 0 (``u`` its utility, ``m`` the margin in [-1, 1]); Fuego's "score
      modification" (its ``uct_score_modification``, 0.02 on a [0, 1] scale). With win
      or loss alone, a position where every playout is lost (or won) gives every move the
      same value and leaves the choice to the priors and to chance; the margin still
      tells the moves apart. 0: off.
    """

    name: ClassVar[str] = "mcts"
    summary: ClassVar[str] = (
        "Monte Carlo tree search, AIMA Fig 6.11: UCT/PUCT, MCTS-Solver, chance, n players")
    two_player_only: ClassVar[bool] = False
    handles_chance: ClassVar[bool] = True

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        c: float = DEFAULT_C,
        solver: bool = True,
        puct: bool = False,
        playout_depth: int | None = None,
        transpositions: bool = False,
        reuse: bool = True,
        seed: int | None = None,
        iterations: int | None = None,
        fast: bool = True,
        wdl: bool = False,
        discount: bool = True,
        rave: bool = False,
        rave_k: float = 1000.0,
        prior_visits: float = 0.0,
        margin: float = 0.0,
        evaluation: str | None = None,
    ) -> None:
        super().__init__(game, discount=discount, evaluation=evaluation)
        gt = game.game_type
        if not gt.perfect_information:
            raise UnsupportedGameError(
                f"mcts cannot search {game.name} yet: it has hidden information "
                "(determinisation is not implemented)")
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c < INF:
            raise InvalidLimitError(f"mcts c={c!r}: must be a finite number >= 0")
        for key, val, least in (("iterations", iterations, 1), ("playout_depth", playout_depth, 0)):
            if val is not None and (isinstance(val, bool) or not isinstance(val, int)
                                    or val < least):
                raise InvalidLimitError(f"mcts {key}={val!r}: must be a whole number >= {least}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidLimitError(f"mcts seed={seed!r}: must be a whole number")
        chosen = self.evaluation  # (the game's, or the one ``evaluation=`` names)
        if playout_depth is not None and chosen is None:
            raise InvalidLimitError(
                f"mcts playout_depth={playout_depth}: {game.name} has no evaluation to score "
                "the position where a playout is cut off")
        self.c = float(c)
        self.solver = bool(solver)
        self.puct = bool(puct)
        self.playout_depth = playout_depth
        self.transpositions = bool(transpositions)
        self.reuse = bool(reuse)
        self.seed = seed
        self.iterations = iterations
        self.fast = bool(fast)
        if wdl and not (gt.num_players == 2 and gt.zero_sum):
            raise InvalidLimitError(f"mcts wdl=1: only for two-player zero-sum games, not "
                                    f"{game.name}")
        self.wdl = bool(wdl)
        if isinstance(margin, bool) or not isinstance(margin, int | float) or not (
                0 <= margin < 1):
            raise InvalidLimitError(f"mcts margin={margin!r}: must be a number >= 0 and "
                                    "below 1")
        if margin and (wdl or not (gt.num_players == 2 and gt.zero_sum)):
            raise InvalidLimitError(f"mcts margin={margin:g}: only for two-player zero-sum "
                                    f"games and without wdl=1 ({game.name})")
        self.margin = float(margin)
        for name, amount in (("rave_k", rave_k), ("prior_visits", prior_visits)):
            if isinstance(amount, bool) or not isinstance(amount, int | float) or not (
                    0 <= amount < INF):
                raise InvalidLimitError(f"mcts {name}={amount!r}: must be a finite number "
                                        ">= 0")
        if rave and (gt.chance or puct or transpositions):
            raise InvalidLimitError(f"mcts rave=1: not with chance nodes ({game.name}), "
                                    "puct or transpositions")
        if prior_visits and not rave:
            raise InvalidLimitError("mcts prior_visits: the priors as AMAF visits need rave=1")
        self.rave = bool(rave)
        self.rave_k = float(rave_k)
        self.prior_visits = float(prior_visits)
        #: open decision nodes lazily (:meth:`_open`); RAVE's descent opens them
        self._lazy = self.rave
        #: RAVE's compact tree (:mod:`.rave_kernels`: per-node arrays, compiled selection
        #: and AMAF back-up); ``False``: the plain Python tree, its reference
        self._compact = self.rave and rave_kernels.available()
        #: the compact tree's codes of actions, for games whose actions are not the
        #: integers below ``Playouts.action_codes``
        self._codes: dict[Any, int] = {}
        self._no_priors = rave_kernels.np.zeros(0) if self._compact else None
        self._no_moves = (rave_kernels.np.zeros(0, dtype=rave_kernels.np.int64)
                          if self._compact else None)
        #: the game's evaluation (for cut-off playouts), read once
        self._evaluate = chosen.evaluate if chosen is not None else zero_evaluation
        #: the game's playout policy and priors; a compiled playout is loaded (and run
        #: once) here rather than on a clock
        self._policies = policies(game, self.fast)
        #: the returns of a finished game with its margin mixed in (``margin``), or None
        self._blend: Callable[[float, Any], float] | None = None
        if self.margin:
            if self._policies.margin is None:
                raise InvalidLimitError(f"mcts margin={margin:g}: {game.name} offers no "
                                        "margin of a finished game (Playouts.margin)")
            self._blend = margin_blend(self._policies.margin, self.margin,
                                       game.max_utility)
        if self._policies.compiled:
            self._policies.playout(game.initial_state(), random.Random(0), 1)
        self.rng = random.Random(seed)
        #: two players, zero-sum: returns are (u, -u), and proven wins may be discounted
        self._two = gt.num_players == 2 and gt.zero_sum
        self._step = win_step(game.max_utility) if self._two and discount else 0.0
        self._threshold = win_threshold(game.max_utility)
        #: the bounds of a node nothing is known of: player 0's value (two players), or
        #: every player's (n players)
        top = game.max_utility
        self._unknown: tuple[Any, Any] = (
            (-top, top) if self._two
            else ((-top,) * gt.num_players, (top,) * gt.num_players))
        self._root: Node | None = None
        self._table: dict[Hashable, Node] | None = None
        self._range = [INF, -INF]  # lowest and highest return seen (the normalisation)
        self._created = 0
        self._seldepth = 0

    # -- the search control -------------------------------------------------------------
    def search(
        self, state: Any, limit: Limit | None = None, callback: Callback | None = None
    ) -> SearchResult:
        limit = limit or Limit()
        if isinstance(limit, Limit):
            if limit.depth is not None:
                raise InvalidLimitError(
                    "mcts has no depth limit: give time=, nodes= (iterations) or iterations=; "
                    "playout_depth=N cuts the playouts")
            if not limit.budgeted and self.iterations is None:
                raise InvalidLimitError(
                    "mcts needs a budget: time=S, nodes=N or iterations=N")
        return super().search(state, limit, callback)

    def _budget(self, clock: Clock) -> tuple[int, float, threading.Event | None]:
        """The one place that reads the search control: the iterations allowed (the
        ``iterations`` option and the limit's ``nodes``), the deadline (``INF``: none) and
        the stop event; the loop checks them between iterations.

        MCTS is an anytime loop of short iterations, so it runs to the clock's *target*
        (:attr:`Clock.target_deadline`: a game clock's allocation, or a plain ``time``),
        never past the hard deadline; the soft deadline is iterative deepening's and is not
        read here."""
        cap = self.iterations if self.iterations is not None else NEVER
        if clock.max_nodes is not None:
            cap = min(cap, clock.max_nodes)
        return cap, min(clock.deadline, clock.target_deadline), clock.stop

    # -- one search ---------------------------------------------------------------------
    def iteration(self, state: Any, depth: int | None, clock: Clock) -> Iteration:
        self._created = 0
        root, reused = self._root_for(state)
        cap, deadline, stop = self._budget(clock)
        self._seldepth = 0
        now = clock.now
        start = now()
        done = self._run(root, cap, deadline, stop, now)
        seconds = now() - start
        self.nodes += done
        self.seldepth = self._seldepth
        game = self.game
        me = game.to_move(state)
        index = self._best_index(root)
        pv = self._principal_line(root)
        value = self._value(root, index, me)
        stats = []
        for i, (a, ch) in enumerate(zip(root.actions, root.children, strict=True)):
            stats.append({
                "move": game.format_action(state, a),
                "visits": 0 if ch is None else ch.n,
                "value": None if ch is None or not ch.n else ch.w / ch.n,
                "proven": None if ch is None else self._proven(ch, me),
                **({"prior": root.priors[i]} if root.priors is not None else {}),
            })
        extra: dict[str, Any] = {
            "iterations": done,
            "iterations_per_second": round(done / seconds) if seconds > 0 else 0,
            "tree_size": self._created + reused,
            "reused_visits": reused,
            "root_visits": root.n,
            "proven": root.exact is not None,
            "root_values": [(a, s["proven"] if s["proven"] is not None else s["value"])
                            for a, s in zip(root.actions, stats, strict=True)
                            if s["visits"]],
            "root_children": stats,
        }
        return Iteration(value=value, action=root.actions[index], pv=pv, hit_horizon=False,
                         extra=extra)

    def _root_for(self, state: Any) -> tuple[Node, int]:
        """The root of this search and the visits it brings from earlier searches: the old
        tree's node of ``state`` (``reuse``) or a new node."""
        old = self._root
        if self.reuse and old is not None:
            found = self._find(old, state)
            if found is not None:
                self._root = found
                if found.pending is not None:
                    self._open(found)
                if self._table is not None:  # forget what the new root cannot reach
                    self._table = self._reachable(found)
                return found, found.n
        self._table = {} if self.transpositions else None
        self._range = [INF, -INF]
        self._root = root = self._new_node(state, self.game.to_move(state))
        if root.pending is not None:
            self._open(root)
        if self._table is not None:
            self._table[self.game.key(state)] = root
        return root, 0

    def _find(self, old: Node, state: Any) -> Node | None:
        if self._table is not None:
            return self._table.get(self.game.key(state))
        frontier = [old]
        for _ in range(REUSE_PLIES + 1):
            below: list[Node] = []
            for node in frontier:
                if node.state == state:
                    return node
                below.extend(ch for ch in node.children if ch is not None)
            frontier = below
        return None

    def _reachable(self, root: Node) -> dict[Hashable, Node]:
        key = self.game.key
        table = {key(root.state): root}
        todo = [root]
        while todo:
            for ch in todo.pop().children:
                if ch is not None:
                    k = key(ch.state)
                    if k not in table:
                        table[k] = ch
                        todo.append(ch)
        return table

    def _new_node(self, state: Any, owner: int) -> Node:
        """A node for ``state``: terminal (its returns are exact), a chance node (its outcomes
        and their running probabilities) or a decision node (its actions, PUCT's priors).
        Under RAVE a decision node is left unopened (:meth:`_open`; a root is opened at
        once)."""
        self._created += 1
        game = self.game
        wv = None if self._two else [0.0] * game.num_players
        lo, hi = self._unknown
        if self._two:
            u = game.terminal_utility(state, 0)
            if u is not None:
                if self._blend is not None:
                    u = self._blend(u, state)
                return Node(state, owner, owner, (u, -u), (), None, wv, u, u)
        elif game.is_terminal(state):
            r = tuple(game.returns(state))
            return Node(state, owner, owner, r, (), None, wv, r, r)
        player = game.to_move(state)
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            node = Node(state, CHANCE, owner, None, tuple(o for o, _ in outcomes),
                        tuple(p for _, p in outcomes), wv, lo, hi)
            node.cum = list(accumulate(node.priors))  # type: ignore[arg-type]
            return node
        if self._lazy:
            node = Node(state, player, owner, None, (), None, wv, lo, hi)
            node.pending = True
            return node
        actions = tuple(game.actions(state))
        priors: Sequence[float] | None = None
        if self.puct:
            hook = self._policies.priors
            priors = (prior_list(hook(state)) if hook is not None
                      else (1.0 / len(actions),) * len(actions))
            if len(priors) != len(actions):
                raise GameError(f"{game.name}: its priors gave {len(priors)} priors for "
                                f"{len(actions)} actions")
        node = Node(state, player, owner, None, actions, priors, wv, lo, hi)
        if self.rave:
            self._rave_stats(node)
        return node

    def _open(self, node: Node) -> None:
        """Open a decision node left unopened by :meth:`_new_node` (RAVE): list its actions,
        make its AMAF statistics, and apply the AMAF update of its first iteration. The
        search is the same as if it had been opened when made (the tests compare them,
        seed for seed); what it saves is the legal moves and the priors of the many leaves
        that no later iteration selects through (measured in ``benchmarks/go_playouts.py``)."""
        first = node.pending
        node.pending = None
        actions = tuple(self.game.actions(node.state))
        node.actions = actions
        node.children = [None] * len(actions)
        node.untried = list(range(len(actions)))
        self._rave_stats(node)
        if first is not True and first is not None and self._compact:
            tree_players, tree_codes, start, players, codes, x = first
            rave_kernels.amaf_add(node.stats, node.slot, node.player, x, tree_players,
                                  tree_codes, start, players, codes)
        elif first is not True and first is not None:
            seen, x = first
            index, amaf_n, amaf_w = node.index, node.amaf_n, node.amaf_w
            for a in seen:
                i = index.get(a)  # type: ignore[union-attr]
                if i is not None:
                    amaf_n[i] += 1  # type: ignore[index]
                    amaf_w[i] += x  # type: ignore[index]

    def _rave_stats(self, node: Node) -> None:
        """RAVE's statistics of a new decision node, with the priors as virtual visits
        (``prior_visits``; Gelly & Silver's prior knowledge, see the module docstring)."""
        actions = node.actions
        count = len(actions)
        hook = self._policies.priors
        pv = self.prior_visits
        if self._compact:
            self._compact_stats(node, None if not pv or hook is None else hook(node.state))
            if self._policies.untraced:
                self._untraced_ends(node)
            return
        node.index = {a: i for i, a in enumerate(actions)}
        if not pv or hook is None:
            node.amaf_n = [0.0] * count
            node.amaf_w = [0.0] * count
        else:
            priors = prior_list(hook(node.state))
            if len(priors) != count:
                raise GameError(f"{self.game.name}: its priors gave {len(priors)} priors "
                                f"for {count} actions")
            top = self.game.max_utility
            node.amaf_n = [pv] * count
            amaf_w = []
            for x in priors:
                ratio = x * count  # the prior over the uniform one
                amaf_w.append(pv * top * (2 * ratio / (ratio + 1) - 1))
            node.amaf_w = amaf_w
        if self._policies.untraced:
            self._untraced_ends(node)

    def _compact_stats(self, node: Node, priors: Sequence[float] | None) -> None:
        """:meth:`_rave_stats` for the compact tree: the same numbers in arrays (the
        children's visits and means, the AMAF statistics with the priors as virtual
        visits, computed operation for operation as the plain tree does), and the child
        index of each action code (:mod:`.rave_kernels`)."""
        np_ = rave_kernels.np
        actions = node.actions
        count = len(actions)
        width = self._policies.action_codes
        if width:
            codes = np_.array(actions, dtype=np_.int64)
        else:
            table = self._codes
            codes = np_.array([table.setdefault(a, len(table)) for a in actions],
                              dtype=np_.int64)
            width = len(table)
        if priors is not None and len(priors) != count:
            raise GameError(f"{self.game.name}: its priors gave {len(priors)} priors for "
                            f"{count} actions")
        node.slot, stats = rave_kernels.open_arrays(
            codes, width, self._no_priors if priors is None
            else np_.asarray(priors, dtype=np_.float64),
            self.prior_visits, float(self.game.max_utility))
        node.stats = stats
        node.amaf_n = stats[2]
        node.amaf_w = stats[3]

    def _code(self, action: Any) -> int:
        """The compact tree's code of ``action`` (:mod:`.rave_kernels`)."""
        if self._policies.action_codes:
            return action  # type: ignore[no-any-return]
        table = self._codes
        code = table.get(action)
        if code is None:
            code = table[action] = len(table)
        return code

    def _traced_codes(self) -> Callable[[Any, random.Random, int | None], tuple[Any, Any]]:
        """The compact tree's traced playout: ``(state reached, (players, codes))``, the
        playout's moves as two ``int64`` arrays: the game's ``traced_codes`` when it has
        one, else its traced playout's moves converted."""
        policies_ = self._policies
        np_ = rave_kernels.np
        if policies_.traced_codes is not None and policies_.action_codes:
            own = policies_.traced_codes

            def traced(state: Any, rng: random.Random, depth: int | None
                       ) -> tuple[Any, Any]:
                end, players, codes = own(state, rng, depth)
                return end, (players, codes)

            return traced
        plain, code = policies_.traced, self._code

        def converted(state: Any, rng: random.Random, depth: int | None
                      ) -> tuple[Any, Any]:
            end, moves = plain(state, rng, depth)
            players = np_.array([q for q, _ in moves], dtype=np_.int64)
            codes = np_.array([code(a) for _, a in moves], dtype=np_.int64)
            return end, (players, codes)

        return converted

    def _untraced_ends(self, node: Node) -> None:
        """An untraced action (Go's pass) that ends the game is worth, until its first
        visit, its exact value rather than its prior: the pass that wins after the
        opponent's pass is then tried at once (and proves the node, MCTS-Solver), the one
        that loses is not."""
        game = self.game
        index = node.index
        for a in self._policies.untraced:
            if index is not None:
                i = index.get(a)
            else:  # the compact tree: the action's slot
                code = self._code(a)
                i = int(node.slot[code]) if code < len(node.slot) else -1
                i = None if i < 0 else i
            if i is None:
                continue
            end = game.result(node.state, a)
            if not game.is_terminal(end):
                continue
            if self._two:
                u = game.terminal_utility(end, 0)
                if u is None:
                    continue
                if self._blend is not None:
                    u = self._blend(u, end)
                value = u if node.player == 0 else -u
            else:
                value = tuple(game.returns(end))[node.player]
            node.amaf_n[i] = 1.0  # type: ignore[index]
            node.amaf_w[i] = value  # type: ignore[index]

    # -- where the coming issues plug in (no-ops today) --------------------------------
    def determinization(self) -> Callable[[Node, random.Random], Any] | None:
        """ISMCTS's point (Cowling, Powley & Whitehouse 2012): a function called at the
        start of every iteration with the root and the search's generator, which samples a
        state from the root player's information set for SELECT to descend with (a node
        then stands for an information set, and only the actions legal in the sample are
        selectable). ``None`` (every game today): perfect information, the tree's states
        are the game's."""
        return None

    def backup_hook(self) -> Callable[[list[Node], tuple[float, ...]], None] | None:
        """RAVE's point (Gelly & Silver 2007, all-moves-as-first): a function called after
        each BACK-PROPAGATE with the path and the returns, to update statistics kept
        beside the visit counts (RAVE will also have SIMULATE report the playout's moves).
        ``None``: nothing beyond UCT's statistics."""
        return None

    # -- the four steps ------------------------------------------------------------------
    def _run(self, root: Node, cap: int, deadline: float, stop: threading.Event | None,
             now: Callable[[], float]) -> int:
        """Iterate SELECT, EXPAND, SIMULATE, BACK-PROPAGATE until the budget is spent or the
        root is proven; return the number of iterations. Each step is a module function
        given what it reads (OpenSpiel's ``_apply_tree_policy`` shape): :func:`select`
        (with :func:`uct_child` / :func:`puct_index`), :func:`expand`, the ``simulate`` of
        :func:`playout_returns` (the game's playout policy, :func:`policies`) and
        :func:`backpropagate` (proofs climb by :meth:`_tighten` / :meth:`_tighten_n`).
        Splitting them out of one function of closures cost nothing: measured with
        ``benchmarks/ab.py --rounds 3`` against the closures, the same tree sizes at
        1.008x the speed (Connect Four, 60,000 iterations, compiled playouts), 1.022x
        (``fast=0,puct=1,transpositions=1``) and 1.024x (Pig), i.e. 0 % cost."""
        game = self.game
        rng = self.rng
        random_ = rng.random
        two, solver, puct, c = self._two, self.solver, self.puct, self.c
        table = self._table
        players = range(game.num_players)
        vector = not two
        bounds = solver and two
        top = game.max_utility
        climb = (self._tighten if bounds else self._tighten_n) if solver else None
        simulate = playout_returns(game, self._policies.playout, self._evaluate,
                                   self.playout_depth, two, rng, self._blend)
        rave = self.rave
        compact = self._compact
        pick: Callable[[Node, float, float, float], int] = rave_index
        if rave:
            traced = traced_returns(
                game, self._traced_codes() if compact else self._policies.traced,
                self._evaluate, self.playout_depth, two, rng, self._blend)
            rave_k, fpu = self.rave_k, top
            open_ = self._open
        if compact:
            pick, code = compact_index, self._code
            no_trace = (self._no_moves, self._no_moves)
        untraced = self._policies.untraced if rave else frozenset()
        new_node, result, key = self._new_node, game.result, game.key
        determinize = self.determinization()
        on_backup = self.backup_hook()
        wdl = self.wdl
        win, loss, draw = (top, -top), (-top, top), (0.0, 0.0)
        timed = deadline != INF or stop is not None
        done = 0
        span_of = self._range
        lo, hi = span_of
        span = hi - lo if hi > lo else 1.0
        seldepth = self._seldepth
        trace: Any = ()  # the playout's moves: a list, or two arrays (compact tree)
        chosen: list[int] = []
        while done < cap and root.exact is None:
            if timed and (now() >= deadline or (stop is not None and stop.is_set())):
                break
            if determinize is not None:
                determinize(root, rng)
            if rave:
                path, chosen, i = select_rave(root, c * span, rave_k, fpu, open_, pick)
            else:
                path, i = select(root, random_, c * span, puct, bounds, solver, top, table)
            leaf = path[-1]
            if i >= 0:
                if untraced and leaf.actions[i] in untraced:
                    # an action no playout reports has no AMAF evidence: its prior (the
                    # virtual AMAF visits) stands until its first visit, then its own
                    # mean alone (β = 0)
                    leaf.amaf_n[i] = leaf.amaf_w[i] = 0.0  # type: ignore[index]
                child = expand(leaf, i, result, new_node, table, key)
                if table is None or child not in path:
                    path.append(child)
                    leaf = child
            if leaf.exact is not None:
                r = leaf.exact
                trace = no_trace if compact else ()
            elif rave:
                r, trace = traced(leaf.state)
            else:
                r = simulate(leaf.state)
            if wdl:
                r = win if r[0] > 0 else loss if r[0] < 0 else draw
            backpropagate(path, r, vector, players, climb)
            if compact:
                compact_backup(path, chosen, trace, r, code, untraced)
            elif rave:
                amaf_update(path, chosen, trace, r, game.num_players, untraced)
            if on_backup is not None:
                on_backup(path, r)
            for x in r:  # the range of returns that scales the exploration term
                if x < lo or x > hi:
                    lo, hi = min(lo, x), max(hi, x)
                    span = hi - lo if hi > lo else 1.0
            if len(path) > seldepth:
                seldepth = len(path)
            done += 1
        span_of[:] = [lo, hi]
        self._seldepth = seldepth - 1
        return done

    def _tighten(self, node: Node, child: Node) -> bool:
        """Score bounds (two players): recompute the bounds of ``node`` on player 0's
        value from its children's; True when they changed. A proven win for the mover
        proves the node at once (Winands et al.); the node is proven when lo == hi."""
        top, disc = self.game.max_utility, self._disc
        children = node.children
        p = node.player
        if p == CHANCE:
            lo = hi = 0.0
            for ch, prob in zip(children, node.priors, strict=True):  # type: ignore[arg-type]
                if ch is None:
                    lo -= prob * top
                    hi += prob * top
                else:
                    lo += prob * disc(ch.lo)
                    hi += prob * disc(ch.hi)
        elif child.exact is not None and (child.lo >= self._threshold if p == 0
                                          else child.lo <= -self._threshold):
            lo = hi = disc(child.lo)
        elif p == 0:  # MAX: lo = max of the children's lo, hi = max of their hi
            lo = hi = -top
            for ch in children:
                if ch is None:
                    hi = top
                else:
                    x = disc(ch.lo)
                    if x > lo:
                        lo = x
                    x = disc(ch.hi)
                    if x > hi:
                        hi = x
        else:  # MIN: lo = min of the children's lo, hi = min of their hi
            lo = hi = top
            for ch in children:
                if ch is None:
                    lo = -top
                else:
                    x = disc(ch.lo)
                    if x < lo:
                        lo = x
                    x = disc(ch.hi)
                    if x < hi:
                        hi = x
        if lo == node.lo and hi == node.hi:
            return False
        node.lo, node.hi = lo, hi
        if lo >= hi:
            node.hi = lo
            node.exact = (lo, -lo)
        return True

    def _tighten_n(self, node: Node, child: Node) -> bool:
        """Score bounds on n players (the two-player rule, one bound per player): the
        mover's pessimistic bound is the best of its children's, its optimistic one the
        best optimistic; a child whose optimistic bound for the mover is below that
        pessimistic bound is cut, the other players' bounds span the children not cut.
        The node is proven when every child not cut is proven: it takes the first best
        for the mover (max^n's tie rule). True when the bounds changed."""
        top = self.game.max_utility
        players = range(self.game.num_players)
        children = node.children
        p = node.player
        exact: tuple[float, ...] | None = None
        if p == CHANCE:
            lo_c = [0.0] * len(players)
            hi_c = [0.0] * len(players)
            for ch, prob in zip(children, node.priors, strict=True):  # type: ignore[arg-type]
                for q in players:
                    lo_c[q] += prob * (ch.lo[q] if ch is not None else -top)
                    hi_c[q] += prob * (ch.hi[q] if ch is not None else top)
            lo, hi = tuple(lo_c), tuple(hi_c)
            if lo == hi:  # every outcome proven
                exact = lo
        else:
            best = max((ch.lo[p] for ch in children if ch is not None), default=-top)
            live = [ch for ch in children if ch is None or ch.hi[p] >= best]
            lo = tuple(best if q == p else min(-top if ch is None else ch.lo[q]
                                               for ch in live) for q in players)
            hi = tuple(max(top if ch is None else ch.hi[q] for ch in live)
                       for q in players)
            proven = [ch.exact for ch in live if ch is not None and ch.exact is not None]
            if len(proven) == len(live):
                exact = proven[0]
                for e in proven:  # the first best, in action order
                    if e[p] > exact[p]:
                        exact = e
                lo = hi = exact
        if lo == node.lo and hi == node.hi:
            return False
        node.lo, node.hi = lo, hi
        if exact is not None:
            node.exact = exact
        return True

    # -- the answer ----------------------------------------------------------------------
    def _result(self, state: Any, it: Iteration, depth: int, per_depth: list[int],
                clock: Clock, completed: bool) -> SearchResult:
        # The driver counts depths of iterative deepening; here the depth is the principal
        # line's length and ``seldepth`` the deepest selection.
        return super()._result(state, it, len(it.pv), [], clock, completed)

    def _disc(self, x: float) -> float:
        """A proven value one ply further up: a win or a loss loses one ``step`` of size
        (two-player zero-sum games with ``discount``; the conventions of search/common.py)."""
        if x >= self._threshold:
            return x - self._step
        if x <= -self._threshold:
            return x + self._step
        return x

    def _proven(self, node: Node, player: int) -> float | None:
        """The proven value of ``node`` seen from its parent, for ``player``."""
        if not self.solver or node.exact is None:
            return None
        if self._two:
            v = self._disc(node.exact[0])
            return v if player == 0 else -v
        return node.exact[player]

    def _best_index(self, node: Node) -> int:
        """The move to play at ``node``: when it is proven, the proven child that gives its
        value; else the most visited unproven child (the robust child; ties to the higher
        mean, then to the first action) unless a proven child is worth at least its mean
        and is not a loss."""
        p = node.player
        proven_i, proven_v = -1, -INF
        robust, robust_key = -1, (-1.0, -INF)
        for i, ch in enumerate(node.children):
            if ch is None or not ch.n:
                continue
            v = self._proven(ch, p)
            if v is not None:
                if v > proven_v:
                    proven_i, proven_v = i, v
                continue
            key = (float(ch.n), ch.w / ch.n)
            if key > robust_key:
                robust, robust_key = i, key
        # a proven loss is never preferred to a move not proven (however bad its mean:
        # a discounted loss is worth a little more than -max_utility, a mean of lost
        # playouts exactly that, and the playouts are only an estimate)
        if proven_i >= 0 and (node.exact is not None or robust < 0
                              or (proven_v >= robust_key[1]
                                  and proven_v > -self._threshold)):
            return proven_i
        return max(robust, 0)

    def _principal_line(self, root: Node) -> list[Any]:
        """The moves from the root by :meth:`_best_index`, down to a leaf or a chance node."""
        pv: list[Any] = []
        node: Node | None = root
        while (node is not None and node.player != CHANCE and len(pv) < 500
               and any(ch is not None and ch.n for ch in node.children)):
            i = self._best_index(node)
            pv.append(node.actions[i])
            node = node.children[i]
        return pv

    def _value(self, root: Node, index: int, me: int) -> Any:
        """The root's value for the player to move (a vector in n-player games): exact when
        proven, else the mean return of the chosen move."""
        if root.exact is not None and self.solver:
            return root.exact[me] if self._two else root.exact
        ch = root.children[index]
        if ch is None or not ch.n:
            return 0.0 if self._two else tuple(0.0 for _ in range(self.game.num_players))
        if self._two:
            v = self._proven(ch, me)
            return v if v is not None else ch.w / ch.n
        if self.solver and ch.exact is not None:
            return ch.exact
        return tuple(x / ch.n for x in ch.wv)  # type: ignore[union-attr]


# -- what MCTS asks of a game beyond the rules, read in one place ----------------------------
@dataclass(frozen=True)
class Policies:
    """The game's policies for MCTS: ``playout(state, rng, max_plies)`` returns the state a
    playout reaches (SIMULATE's policy); ``compiled`` says it is the game's compiled
    ``Playouts.compiled``; ``priors(state)`` gives PUCT's prior of each action (``None``:
    uniform). Pattern playouts and priors (Go) arrive here."""

    playout: Callable[[Any, random.Random, int | None], Any]
    compiled: bool
    priors: Callable[[Any], Sequence[float]] | None
    traced: Callable[[Any, random.Random, int | None],
                     tuple[Any, Sequence[tuple[int, Any]]]]
    margin: Callable[[Any], float] | None = None
    untraced: frozenset[Any] = frozenset()
    traced_codes: Callable[[Any, random.Random, int | None], tuple[Any, Any, Any]] | None = None
    action_codes: int = 0


def prior_list(priors: Sequence[float]) -> Sequence[float]:
    """A game's priors as Python floats (a game may give a numpy array, whose scalars
    would make the plain tree's arithmetic slow; the values are the same)."""
    tolist = getattr(priors, "tolist", None)
    return tolist() if tolist is not None else tuple(priors)


def policies(game: Game[Any, Any], fast: bool) -> Policies:
    """The one place MCTS reads the game's :class:`~gamesearch.capabilities.Playouts`
    capability for its policies: the playout (its ``compiled`` one when ``fast``, else
    uniform random moves, :func:`gamesearch.game.random_playout`) and its ``priors``."""
    playouts = game.playouts()
    compiled = playouts.compiled if fast and playouts is not None else None
    priors = playouts.priors if playouts is not None else None
    traced = playouts.traced if fast and playouts is not None else None
    # the actions the game's traced playout never reports (the plain one reports all)
    untraced = playouts.untraced if traced is not None else frozenset()  # type: ignore[union-attr]
    if traced is None:
        traced = partial(traced_random_playout, game)
    margin = playouts.margin if playouts is not None else None
    # the compact RAVE tree's traced playout with its moves as arrays, and the action codes
    traced_codes = playouts.traced_codes if fast and playouts is not None else None
    action_codes = playouts.action_codes if playouts is not None else 0
    if compiled is not None:
        return Policies(compiled, True, priors, traced, margin, untraced, traced_codes,
                        action_codes)
    return Policies(partial(random_playout, game, fast=False), False, priors, traced, margin,
                    untraced, traced_codes, action_codes)


def traced_random_playout(game: Game[Any, Any], state: Any, rng: random.Random,
                          max_plies: int | None = None
                          ) -> tuple[Any, list[tuple[int, Any]]]:
    """:func:`gamesearch.game.random_playout` (uniform moves, plain Python) that also
    returns the moves it played, ``(player, action)``: RAVE's input for a game without a
    traced playout of its own."""
    terminal_utility, actions, result, to_move = (
        game.terminal_utility, game.actions, game.result, game.to_move)
    random_ = rng.random
    moves: list[tuple[int, Any]] = []
    left = -1 if max_plies is None else max_plies
    while left and terminal_utility(state, 0) is None:
        left -= 1
        legal = actions(state)
        action = legal[int(random_() * len(legal))]
        moves.append((to_move(state), action))
        state = result(state, action)
    return state, moves


# -- the four steps (AIMA Fig 6.11), each given what it reads --------------------------------
def uct_child(node: Node, c_span: float, bounds: bool, solver: bool, top: float) -> Node:
    """UCB1: the child maximising Q + c·span·sqrt(ln N / n) (``q + k·u``, ``u`` the cached
    1/sqrt(n); ``c_span`` is c·span). Under the solver, children whose bounds cannot beat
    the node's are cut (``bounds``: two players, else n players), and so are proven
    children (they have nothing left to tell)."""
    k = c_span * sqrt(log(node.n))
    p = node.player
    mode, cut_lo, cut_hi = 0, -INF, INF  # 0: no cut; 1: two players; 2: n players
    if bounds:
        if node.lo > -top or node.hi < top:  # some bound is known
            mode = 1
            cut_lo, cut_hi = (node.lo, INF) if p == 0 else (-INF, node.hi)
    elif solver:
        mode, cut_lo = 2, node.lo[p]
    best, pick = -INF, None
    if mode:
        for ch in node.children:
            if mode == 1:
                if ch.hi <= cut_lo or ch.lo >= cut_hi:  # type: ignore[union-attr]
                    continue
            elif ch.exact is not None or ch.hi[p] < cut_lo:  # type: ignore[union-attr]
                continue
            s = ch.q + k * ch.u  # type: ignore[union-attr]
            if s > best:
                best, pick = s, ch
        if pick is not None:
            return pick
    for ch in node.children:  # plain UCB1 (also: every child cut, by rounding)
        s = ch.q + k * ch.u  # type: ignore[union-attr]
        if s > best:
            best, pick = s, ch
    return pick  # type: ignore[return-value]


def puct_index(node: Node, c_span: float, bounds: bool, solver: bool) -> int:
    """PUCT: the index maximising Q + c·span·P·sqrt(N) / (1 + n); children are cut as in
    :func:`uct_child`. An unvisited child's Q is the mean of its visited siblings
    (first-play urgency)."""
    p = node.player
    k = c_span * sqrt(node.n)
    priors = node.priors
    cut_lo, cut_hi = (node.lo, INF) if p == 0 else (-INF, node.hi)
    best, pick, sw, sn = -INF, -1, 0.0, 0
    best_prior, unvisited = -1.0, -1
    for i, ch in enumerate(node.children):
        if ch is None or not ch.n:
            if priors[i] > best_prior:  # type: ignore[index]
                best_prior, unvisited = priors[i], i  # type: ignore[index]
            continue
        n = ch.n
        sw += ch.w
        sn += n
        if bounds:
            if ch.hi <= cut_lo or ch.lo >= cut_hi:
                continue
            s = ch.q
        else:
            if solver and (ch.exact is not None or ch.hi[p] < node.lo[p]):
                continue
            s = ch.q
        s += k * priors[i] / (1 + n)  # type: ignore[index]
        if s > best:
            best, pick = s, i
    if unvisited >= 0 and (pick < 0 or (sw / sn if sn else 0.0) + k * best_prior > best):
        return unvisited
    return pick if pick >= 0 else 0


def select(root: Node, random_: Callable[[], float], c_span: float, puct: bool, bounds: bool,
           solver: bool, top: float, table: dict[Hashable, Node] | None
           ) -> tuple[list[Node], int]:
    """SELECT: descend from the root while the node is fully expanded (chance nodes by
    their probabilities, decision nodes by :func:`puct_index` or :func:`uct_child`; UCT
    expands every child, in random order, before it selects among them). Returns the path
    and the index of the child to expand below its last node (-1: the last node is
    terminal or proven, or entering the chosen child would close a cycle: ``table``, the
    transpositions)."""
    node = root
    path = [node]
    while node.exact is None:
        if node.player == CHANCE:  # sample an outcome by its probability
            cum = node.cum
            i = bisect_right(cum, random_() * cum[-1])  # type: ignore[arg-type,index]
            i = min(i, len(node.actions) - 1)
            below = node.children[i]
        elif puct:
            i = puct_index(node, c_span, bounds, solver)
            below = node.children[i]
        elif node.untried:  # UCT expands every child before it selects among them
            untried = node.untried
            j = int(random_() * len(untried))
            i = untried[j]
            untried[j] = untried[-1]
            untried.pop()
            return path, i
        else:
            below = uct_child(node, c_span, bounds, solver, top)
        if below is None:
            return path, i
        if table is not None and below in path:
            return path, -1
        path.append(below)
        node = below
    return path, -1


def expand(node: Node, i: int, result: Callable[[Any, Any], Any],
           new_node: Callable[[Any, int], Node], table: dict[Hashable, Node] | None,
           key: Callable[[Any], Hashable]) -> Node:
    """EXPAND: the child of ``node`` by its ``i``-th action or outcome (with transpositions,
    ``table``'s existing node of that position if there is one)."""
    state = result(node.state, node.actions[i])
    owner = node.owner if node.player == CHANCE else node.player
    if table is None:
        child = new_node(state, owner)
    else:
        k = key(state)
        shared = table.get(k)
        child = table[k] = new_node(state, owner) if shared is None else shared
    node.children[i] = child
    return child


def margin_blend(margin: Callable[[Any], float], weight: float, top: float
                 ) -> Callable[[float, Any], float]:
    """MCTS's ``margin`` option: ``blend(u, state)``, player 0's utility ``u`` of the
    finished game ``state`` with the game's ``margin`` of it (in [-1, 1]) mixed in by
    ``weight``, on the utility scale (``top``: ``max_utility``)."""
    keep = 1.0 - weight
    scale = weight * top

    def blend(u: float, state: Any) -> float:
        return keep * u + scale * margin(state)

    return blend


def playout_returns(game: Game[Any, Any], playout: Callable[[Any, random.Random, int | None], Any],
                    evaluate: Callable[[Any, int], float], playout_depth: int | None,
                    two: bool, rng: random.Random,
                    blend: Callable[[float, Any], float] | None = None
                    ) -> Callable[[Any], tuple[float, ...]]:
    """SIMULATE for one search: ``simulate(state)`` plays ``playout`` (a :class:`Policies`
    playout) and returns the returns at its end, or ``evaluate`` (the game's evaluation)
    where ``playout_depth`` cuts it (``two``: a two-player zero-sum game, whose returns are
    ``(u, -u)``; ``blend``: the ``margin`` option's mix of a finished game's utility with
    its margin, :func:`margin_blend`)."""
    terminal_utility, is_terminal = game.terminal_utility, game.is_terminal
    returns = game.returns
    players = range(game.num_players)

    def simulate(state: Any) -> tuple[float, ...]:
        end = playout(state, rng, playout_depth)
        if two:
            u = terminal_utility(end, 0)
            if u is None:
                u = evaluate(end, 0)
            elif blend is not None:
                u = blend(u, end)
            return (u, -u)
        if is_terminal(end):
            return tuple(returns(end))
        return tuple(evaluate(end, q) for q in players)

    return simulate


def traced_returns(game: Game[Any, Any],
                   traced: Callable[[Any, random.Random, int | None],
                                    tuple[Any, Sequence[tuple[int, Any]]]],
                   evaluate: Callable[[Any, int], float], playout_depth: int | None,
                   two: bool, rng: random.Random,
                   blend: Callable[[float, Any], float] | None = None
                   ) -> Callable[[Any], tuple[tuple[float, ...], Sequence[tuple[int, Any]]]]:
    """SIMULATE for RAVE: :func:`playout_returns` with the playout's moves beside the
    returns."""
    end_returns = playout_returns(game, lambda s, _rng, _d: s, evaluate, None, two, rng,
                                  blend)

    def simulate(state: Any) -> tuple[tuple[float, ...], Sequence[tuple[int, Any]]]:
        end, moves = traced(state, rng, playout_depth)
        return end_returns(end), moves

    return simulate


def rave_index(node: Node, c_span: float, k: float, fpu: float) -> int:
    """UCT-RAVE's choice (Gelly & Silver 2007): the action maximising ``(1 - β) Q + β
    Q_amaf + c·span·sqrt(ln(N + 1) / (n + 1))``, ``β = sqrt(k / (3 n + k))``; a child not
    visited yet is worth its AMAF value (``fpu`` when its action was never played)."""
    log_n = log(node.n + 1)
    first = c_span * sqrt(log_n)  # the exploration term of an unvisited child
    best, pick = -INF, 0
    amaf_n: list[float] = node.amaf_n  # type: ignore[assignment]
    amaf_w: list[float] = node.amaf_w  # type: ignore[assignment]
    for i, (ch, a_n, a_w) in enumerate(zip(node.children, amaf_n, amaf_w, strict=True)):
        if ch is None or not ch.n:
            score = (a_w / a_n if a_n else fpu) + first
        else:
            n = ch.n
            q = ch.q
            if a_n:
                q += sqrt(k / (3 * n + k)) * (a_w / a_n - q)
            score = q + c_span * sqrt(log_n / (n + 1))
        if score > best:
            best, pick = score, i
    return pick


def compact_index(node: Node, c_span: float, k: float, fpu: float) -> int:
    """:func:`rave_index` on the compact tree's arrays (:func:`.rave_kernels.rave_pick`)."""
    return rave_kernels.rave_pick(node.stats, float(node.n), c_span, k, fpu)


def select_rave(root: Node, c_span: float, k: float, fpu: float,
                open_: Callable[[Node], None] | None = None,
                pick: Callable[[Node, float, float, float], int] = rave_index
                ) -> tuple[list[Node], list[int], int]:
    """SELECT under RAVE: descend by :func:`rave_index` (or ``pick``: the compact tree's
    :func:`compact_index`) until a child not made yet (or a terminal or proven node),
    opening (``open_``) the unopened nodes it passes. Returns the path, the index chosen at
    each of its nodes, and the index to expand below the last one (-1: none)."""
    node = root
    path = [node]
    chosen: list[int] = []
    while node.exact is None:
        if node.pending is not None and open_ is not None:
            open_(node)
        if not node.children:
            break
        i = pick(node, c_span, k, fpu)
        chosen.append(i)
        below = node.children[i]
        if below is None:
            return path, chosen, i
        path.append(below)
        node = below
    return path, chosen, -1


#: what :func:`amaf_update` writes in place of an untraced action of the tree's moves
_NO_ACTION = object()


def amaf_update(path: list[Node], chosen: list[int], trace: Sequence[tuple[int, Any]],
                r: tuple[float, ...], num_players: int,
                untraced: frozenset[Any] = frozenset()) -> None:
    """RAVE's back-up (all moves as first): every node of the path counts, for each of its
    actions that its player played later in the iteration (in the tree below it, or in
    the playout), the visit and that player's return (an unopened leaf keeps those moves
    and the return until :meth:`MCTS._open`). The ``untraced`` actions (those the
    playouts never report: Go's pass) get no AMAF statistics (see :meth:`MCTS._run`)."""
    moves = [(path[j].player, path[j].actions[i]) for j, i in enumerate(chosen)]
    if untraced:
        moves = [(q, _NO_ACTION if a in untraced else a) for q, a in moves]
    moves.extend(trace)
    seen: list[set[Any]] = [set() for _ in range(num_players)]
    pos = len(moves)
    for j in range(len(path) - 1, -1, -1):
        while pos > j:
            pos -= 1
            q, a = moves[pos]
            seen[q].add(a)
        node = path[j]
        index = node.index
        if index is None:
            if node.pending is True:  # an unopened leaf: its update waits for its opening
                node.pending = (set(seen[node.player]), r[node.player])
            continue
        p = node.player
        x = r[p]
        amaf_n, amaf_w = node.amaf_n, node.amaf_w
        for a in seen[p]:
            i = index.get(a)
            if i is not None:
                amaf_n[i] += 1  # type: ignore[index]
                amaf_w[i] += x  # type: ignore[index]


def compact_backup(path: list[Node], chosen: list[int], trace: tuple[Any, Any],
                   r: tuple[float, ...], code: Callable[[Any], int],
                   untraced: frozenset[Any]) -> None:
    """RAVE's back-up on the compact tree, after :func:`backpropagate`: each node's visits
    and mean are copied into its parent's ``stats``, and each node counts its player's
    later moves (:func:`amaf_update`'s rule, :func:`.rave_kernels.amaf_add`): the tree's
    moves below it (an untraced action's code is -1), then the playout's (``trace``: two
    arrays, players and codes); an unopened leaf keeps them until :meth:`MCTS._open`."""
    np_ = rave_kernels.np
    tree_players = []
    tree_codes = []
    for j, i in enumerate(chosen):
        node = path[j]
        tree_players.append(node.player)
        a = node.actions[i]
        tree_codes.append(-1 if a in untraced else code(a))
    tp = np_.array(tree_players, dtype=np_.int64)
    tc = np_.array(tree_codes, dtype=np_.int64)
    players, codes = trace
    add = rave_kernels.amaf_add
    for j, node in enumerate(path):
        if j:
            stats = path[j - 1].stats
            i = chosen[j - 1]
            stats[0, i] = node.n
            stats[1, i] = node.q
        if node.slot is None:
            if node.pending is True:  # an unopened leaf: its update waits for its opening
                node.pending = (tp, tc, j, players, codes, r[node.player])
            continue
        add(node.stats, node.slot, node.player, r[node.player], tp, tc, j, players, codes)


def information_set_node(owner: int) -> Node:
    """An ISMCTS node: the information set reached by ``owner``'s move (at the root: the
    searching seat), no state of its own, its actions added as determinizations show them."""
    node = Node(None, owner, owner, None, [], None, None, None, None)
    node.index = {}
    return node


def select_determinized(root: Node, state: Any, game: Game[Any, Any],
                        random_: Callable[[], float], c: float) -> tuple[list[Node], Any]:
    """SELECT and EXPAND of SO-ISMCTS (Cowling, Powley & Whitehouse 2012, Algorithm 2) in
    one determinization: from ``root`` (made by :func:`information_set_node`) descend with
    ``state``, a full state of ``game`` sampled from the root's information set. At each
    node the children of the actions legal in ``state`` count one more availability; while
    some legal action has no child, one of them (chosen at random) is added and the descent
    stops below it; else the child maximising ``Q + c sqrt(ln available / n)`` is taken
    (the first best in the game's action order). Returns the path (root to new node, or to
    a terminal state's node) and the state at its end, for SIMULATE."""
    actions, result, is_terminal, to_move = (game.actions, game.result, game.is_terminal,
                                             game.to_move)
    node, path = root, [root]
    while not is_terminal(state):
        legal = actions(state)
        index, children = node.index, node.children
        untried = []
        for a in legal:
            i = index.get(a)  # type: ignore[union-attr]
            if i is None:
                untried.append(a)
            else:
                children[i].available += 1  # type: ignore[union-attr]
        if untried:
            a = untried[int(random_() * len(untried))]
            child = information_set_node(to_move(state))
            child.available = 1
            index[a] = len(children)  # type: ignore[index]
            node.actions.append(a)  # type: ignore[attr-defined]
            children.append(child)
            path.append(child)
            return path, result(state, a)
        best, best_a, pick = -INF, legal[0], None
        for a in legal:
            ch: Node = children[index[a]]  # type: ignore[index,assignment]
            s = ch.q + c * sqrt(log(ch.available) / ch.n)
            if s > best:
                best, best_a, pick = s, a, ch
        node = pick  # type: ignore[assignment]
        path.append(node)
        state = result(state, best_a)
    return path, state


def backpropagate(path: list[Node], r: tuple[float, ...], vector: bool, players: range,
                  climb: Callable[[Node, Node], bool] | None) -> None:
    """BACK-PROPAGATE: every node on the path counts the visit and adds the return of the
    player who moved into it (``vector``: also the whole return vector); then, under the
    solver (``climb``: the bounds' update of one node from a child), proofs climb from a
    proven leaf as far as they reach."""
    for node in path:
        n = node.n + 1
        w = node.w + r[node.owner]
        node.n = n
        node.w = w
        node.q = w / n
        node.u = 1.0 / sqrt(n)
    if vector:
        for node in path:
            wv = node.wv
            for q in players:
                wv[q] += r[q]  # type: ignore[index]
    if climb is not None and path[-1].exact is not None:
        for j in range(len(path) - 2, -1, -1):
            if not climb(path[j], path[j + 1]):
                break
