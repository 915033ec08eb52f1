"""Perfect-information Monte Carlo (PIMC): averaging over clairvoyance, as GIB played bridge.

Follows Ginsberg, "GIB: Imperfect information in a computationally challenging game" (JAIR
14, 2001), §3 and the seeds' slides on averaging over clairvoyance: sample ``worlds`` full
states consistent with what the seat sees (the game's :class:`~gamesearch.capabilities.
Observation` ``sample``; Oh Hell's keeps every revealed void), solve each as a perfect-
information game, and play the move whose value, averaged over the worlds, is highest.

Departures, and what the method gets wrong by design:

* the per-world search is any of the library's perfect-information searches, on the
  observation's ``world`` game (the same rules with every hand in view): ``maxn`` (the
  default; general-sum games such as Oh Hell, AIMA Fig 6.4) or ``paranoid`` (the others as
  one coalition against the seat); ``perfect`` (the default when the game has a
  :meth:`~gamesearch.game.Game.perfect_view`: bridge's double dummy) solves each world
  exactly in that view, through its compiled solver when it offers one, else the generic
  solver (:mod:`.solve`), and values each card by the tricks the seat's side takes from
  the decision on, over double-dummy results (cards the view merges as equivalent share
  one solve); ``expectiminimax`` (the default when the world game still has chance nodes:
  Leduc's public card, Goofspiel's prize cards; AIMA §6.5) searches the world from the
  seat's decision to the end, taking the expectation over the chance still to come -- a
  world fixes the hidden past, not the future. Each legal move is searched in each world
  (the child position searched to the end), so every move is valued in every world --
  GIB's "average per card";
* strategy fusion and non-locality (Frank & Basin 1998): each world's value assumes the
  seat will know the hidden cards from then on, so averaging may prefer a move whose worlds
  need *different* continuations over one that is safe in all -- the trace of
  :func:`explain` shows it on the road example;
* ``time`` (and ``max_nodes``) bound the whole decision: worlds stop being sampled once it
  is spent, and the per-world solve of the ``perfect`` search is handed what is left (the
  compiled double-dummy solver and the generic solver stop inside a world), so that a
  decision on a full bridge deal ends on time; a world cut short is dropped, and when not
  even one world is finished, the first legal move is played (the result says 0 worlds).
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidLimitError, SearchTimeout, UnsupportedGameError
from ..game import Game
from .common import SearchResult
from .control import Limit

#: the per-world searches PIMC may run
WORLD_SEARCHES = ("perfect", "maxn", "paranoid", "expectiminimax")


def default_world_search(world_game: Game[Any, Any]) -> str:
    """The world search PIMC runs when none is named: ``perfect`` where the world game has
    a perfect view (bridge's double dummy), ``expectiminimax`` where it still has chance
    nodes (a world fixes what the seat cannot see, not the cards still to be turned:
    Leduc's public card), else ``maxn``."""
    if world_game.perfect_view() is not None:
        return "perfect"
    if world_game.game_type.chance:
        return "expectiminimax"
    return "maxn"


@dataclass
class PimcResult:
    """What one PIMC decision did: ``action`` (the best average), ``averages`` (move ->
    average value for the seat over the worlds), ``worlds`` (each world's values per move,
    in the order sampled), ``nodes`` (all per-world searches, a world cut short by the
    limits included) and ``seconds``."""

    action: Any
    averages: dict[Any, float]
    worlds: list[dict[Any, float]] = field(default_factory=list)
    #: the full states sampled (the worlds themselves; for traces and tests, never shown
    #: to a person at the table)
    states: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def search_result(self) -> SearchResult:
        """The decision as a :class:`~gamesearch.search.SearchResult` (what agents report
        and the web app shows): ``extra["root_stats"]`` holds each move's average and the
        worlds it was valued in, ``extra["samples"]`` the worlds sampled -- statistics
        only, never the sampled hands."""
        n = len(self.worlds)
        stats = [{"action": a, "value": v, "visits": n} for a, v in self.averages.items()]
        return SearchResult("pimc", self.averages.get(self.action), self.action,
                            [self.action], 0, self.nodes, self.seconds,
                            extra={"samples": n, "sample_kind": "worlds",
                                   "root_stats": stats,
                                   "root_values": list(self.averages.items())})


class _ViewSolvers:
    """One generic exact solver per perfect-view game (its table kept across the worlds and
    cards of a decision: the keys are full layouts, so entries of one world never answer
    another's)."""

    def __init__(self) -> None:
        self.solvers: dict[int, Any] = {}

    def solve_score(self, view_game: Game[Any, Any], view_state: Any,
                    limit: Limit | None = None) -> tuple[float, int]:
        from .solve import Solver

        solver = self.solvers.get(id(view_game))
        if solver is None or solver.game is not view_game:
            solver = self.solvers[id(view_game)] = Solver(view_game, 1 << 18)
        r = solver.solve(view_state, best_moves=False, limit=limit)
        return float(r.value), r.nodes


def world_values(world_game: Game[Any, Any], world: Any, seat: int,
                 actions: Sequence[Any], search: str = "maxn",
                 solvers: _ViewSolvers | None = None, limit: Limit | None = None
                 ) -> tuple[dict[Any, float], int]:
    """Each action's value for ``seat`` in the perfect-information ``world``: the child
    searched to the end by ``search``. Returns (values, nodes). ``limit`` (time, nodes)
    bounds the ``perfect`` search: past it :class:`~gamesearch.errors.SearchTimeout`."""
    from . import make_searcher
    from .maxn import ParanoidGame

    if search not in WORLD_SEARCHES:
        raise InvalidLimitError(f"pimc search {search!r}: allowed: {', '.join(WORLD_SEARCHES)}")
    if search == "perfect":
        return perfect_world_values(world_game, world, seat, actions, solvers, limit)
    if search == "expectiminimax":
        return expected_world_values(world_game, world, seat, actions)
    if search == "maxn":
        searcher = make_searcher(world_game, "maxn", discount=False)
    else:  # the seat against the coalition of the others, searched by alpha-beta
        searcher = make_searcher(ParanoidGame(world_game, seat), "alphabeta", discount=False)
    values: dict[Any, float] = {}
    nodes = 0
    for a in actions:
        child = world_game.result(world, a)
        if world_game.is_terminal(child):
            values[a] = float(world_game.returns(child)[seat])
            continue
        r = searcher.search(child, Limit(depth=200))
        nodes += r.nodes
        if search == "maxn":
            values[a] = float(r.value[seat])
        else:  # paranoid: the value for the side to move at the child
            mover = world_game.to_move(child)
            values[a] = float(r.value) if mover == seat else -float(r.value)
    return values, nodes


def expected_world_values(world_game: Game[Any, Any], world: Any, seat: int,
                          actions: Sequence[Any]) -> tuple[dict[Any, float], int]:
    """Each action's value for ``seat`` in ``world`` by expectiminimax (two-player zero-sum
    games): one search from the seat's decision to the end, the chance nodes still to come
    (Leduc's public card) averaged by their probabilities, every root action's value kept.
    Returns (values, nodes)."""
    from . import make_searcher

    searcher = make_searcher(world_game, "expectiminimax", discount=False)
    r = searcher.search(world, Limit(depth=200))
    searched = dict(r.extra["root_values"])
    return {a: float(searched[a]) for a in actions}, r.nodes


def perfect_world_values(game: Game[Any, Any], world: Any, seat: int,
                         actions: Sequence[Any], solvers: _ViewSolvers | None = None,
                         limit: Limit | None = None) -> tuple[dict[Any, float], int]:
    """Each action's value for ``seat`` in ``world`` solved exactly in the game's perfect
    view (bridge: double dummy): the score the seat's side makes from ``world`` on in the
    view's score convention (bridge: its tricks from here), the child of each action solved
    by the view's compiled solver if it has one, else the generic solver. ``limit`` (time,
    nodes) bounds the solves: past it :class:`~gamesearch.errors.SearchTimeout`. Returns
    (values, nodes)."""
    from ..capabilities import RAW_SCORES

    pv = game.perfect_view()
    if pv is None:
        raise UnsupportedGameError(f"pimc search 'perfect': {game.name} has no perfect view "
                                   "to solve each world in (use maxn or paranoid)")
    view_game, root = pv.view(world)
    mine = pv.side(world, seat)
    scores = view_game.score_convention() or RAW_SCORES
    # the card that stands for each (equivalent cards merged by the view share one solve)
    stands_for: dict[Any, Any] = {}
    for rep in view_game.actions(root):
        for a in pv.equivalents(world, rep):
            stands_for.setdefault(a, rep)
    solvers = solvers or _ViewSolvers()
    values: dict[Any, float] = {}
    solved: dict[Any, float] = {}
    nodes = 0
    deadline = None if limit is None or limit.time is None else \
        time.perf_counter() + limit.time
    max_nodes = None if limit is None else limit.nodes
    for a in actions:
        rep = stands_for.get(a, a)
        if rep not in solved:
            child = view_game.result(root, rep)
            if view_game.is_terminal(child):
                value = view_game.utility(child, mine)
            else:
                seconds = None if deadline is None else deadline - time.perf_counter()
                budget = None if max_nodes is None else max_nodes - nodes
                if (seconds is not None and seconds <= 0) or (budget is not None
                                                              and budget <= 0):
                    raise SearchTimeout("pimc: the world's solve ran out of its limit")
                try:
                    if pv.solve is not None:  # the compiled solver, from the full child
                        r = pv.solve(game.result(world, rep), best_moves=False,
                                     max_nodes=budget, seconds=seconds)
                        score, n = float(r["score"]), int(r["nodes"])
                    else:
                        score, n = solvers.solve_score(
                            view_game, child,
                            None if limit is None else Limit(time=seconds, nodes=budget))
                except SearchTimeout as exc:  # (the nodes spent in this world, for pimc)
                    exc.nodes += nodes
                    raise
                nodes += n
                # the child's exact value for its mover: the score's own threshold (the
                # value at which the score is reached), counted from the root of the view
                value = scores.score_threshold(child, score)
                if view_game.to_move(child) != mine:
                    value = -value
            # the seat's side's score from the root on (bridge: its tricks from here)
            solved[rep] = scores.exact_score(root, value) \
                if view_game.to_move(root) == mine else value
        values[a] = solved[rep]
    return values, nodes


def pimc(game: Game[Any, Any], view: Hashable, seat: int, *, worlds: int = 20,
         seconds: float | None = None, search: str | None = None,
         rng: random.Random | None = None, max_nodes: int | None = None) -> PimcResult:
    """PIMC's decision for ``seat`` from its ``view`` (see the module docstring):
    ``seconds`` and ``max_nodes`` bound the whole decision."""
    observation = game.observation()
    if observation is None:
        raise UnsupportedGameError(
            f"pimc needs a game with hidden information and a sampler (an observation); "
            f"{game.name} has none: search it directly")
    world_game = getattr(observation, "world", None)
    if world_game is None:
        raise UnsupportedGameError(f"pimc: {game.name}'s observation offers no "
                                   "perfect-information world game to search")
    if search is None:  # (bridge: double dummy; Leduc: expectiminimax; Oh Hell: maxn)
        search = default_world_search(world_game)
    rng = rng or random.Random()
    t0 = time.perf_counter()
    actions = list(observation.actions(view))
    if not actions:
        raise UnsupportedGameError(f"pimc: seat {seat} has no move in this view")
    make_sampler = getattr(observation, "sampler", None)
    sampler = make_sampler(view)[0] if make_sampler is not None else None
    result = PimcResult(actions[0], {})
    totals = dict.fromkeys(actions, 0.0)
    solvers = _ViewSolvers()
    if len(actions) > 1:
        while len(result.worlds) < worlds:
            world = observation.sample(view, rng, sampler) if sampler is not None \
                else observation.sample(view, rng)
            limit = None
            if seconds is not None or max_nodes is not None:
                limit = Limit(time=None if seconds is None else
                              max(1e-9, seconds - (time.perf_counter() - t0)),
                              nodes=None if max_nodes is None else
                              max(1, max_nodes - result.nodes))
            try:
                values, nodes = world_values(world_game, world, seat, actions, search,
                                             solvers, limit)
            except SearchTimeout as exc:
                result.nodes += exc.nodes  # (spent, though the world is dropped)
                break  # (a world cut short is dropped)
            result.worlds.append(values)
            result.states.append(world)
            result.nodes += nodes
            for a in actions:
                totals[a] += values[a]
            if seconds is not None and time.perf_counter() - t0 >= seconds:
                break
            if max_nodes is not None and result.nodes >= max_nodes:
                break
    n = max(1, len(result.worlds))
    result.averages = {a: totals[a] / n for a in actions}
    result.action = max(actions, key=lambda a: result.averages[a])  # first of equals
    result.seconds = time.perf_counter() - t0
    return result


__all__ = ["WORLD_SEARCHES", "PimcResult", "default_world_search", "expected_world_values",
           "explain", "perfect_world_values", "pimc", "world_values"]


def explain(game: Game[Any, Any], view: Hashable, seat: int, result: PimcResult,
            true_values: dict[Any, float] | None = None) -> str:
    """A ``trace``-style account of a PIMC decision: each world sampled and each move's
    value in it, the average per move, PIMC's choice, and (when given) each move's true
    value from the information set, so that strategy fusion shows as the gap."""
    del view, seat
    lines = [f"PIMC over {len(result.worlds)} worlds ({game.name})"]
    moves = list(result.averages)
    lines.append("world  " + "  ".join(f"{a!s:>8}" for a in moves) + "  (the world)")
    for i, values in enumerate(result.worlds):
        lines.append(f"{i + 1:>5}  " + "  ".join(f"{values[a]:>8.2f}" for a in moves)
                     + f"  {game.format_state(result.states[i])}")
    lines.append("  avg  " + "  ".join(f"{result.averages[a]:>8.2f}" for a in moves))
    if true_values is not None:
        lines.append(" true  " + "  ".join(f"{true_values[a]:>8.2f}" for a in moves))
        best = max(moves, key=lambda a: true_values[a])
        lines.append(f"PIMC plays {result.action} (average {result.averages[result.action]:.2f}"
                     f", true value {true_values[result.action]:.2f}); the best move is "
                     f"{best} (true value {true_values[best]:.2f})"
                     + ("" if best == result.action else
                        ": strategy fusion -- each world's value assumes a clairvoyant "
                        "choice later, which the player cannot make"))
    else:
        lines.append(f"PIMC plays {result.action}")
    return "\n".join(lines)
