"""Information set Monte Carlo tree search, single observer (SO-ISMCTS).

Follows Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 4(2), 2012, Algorithm 2 (SO-ISMCTS): one tree for the searching seat's information
set; each iteration draws a determinization (a full state consistent with the seat's view,
from the game's :class:`~gamesearch.capabilities.Observation` sampler -- Oh Hell's keeps the
revealed voids), descends the tree choosing among the children whose actions are legal in
that determinization by UCB1 with *availability* counts (a child's exploration term uses
the times it was available, not its parent's visits), expands one untried action, plays a
uniformly random playout and backs up each node's reward for the player who made the move
into it (the max^n backup of n-player UCT, as :mod:`gamesearch.search.mcts` does).

The algorithm is :mod:`gamesearch.search.mcts`'s, with its parts: the tree is of
:class:`~gamesearch.search.mcts.Node` (:func:`~gamesearch.search.mcts.information_set_node`),
SELECT and EXPAND in a determinization is
:func:`~gamesearch.search.mcts.select_determinized` (the availability counts), SIMULATE is
:func:`gamesearch.game.random_playout` and BACK-PROPAGATE is
:func:`~gamesearch.search.mcts.backpropagate` (each node adds the reward of the player who
moved into it). What this module adds is the loop over determinizations (the paper's
"choose a determinization at random" at the top of each iteration).

Departures: the tree's edges are actions of every player (the single-observer variant: the
opponents' moves are nodes as the searcher sees them, so their hidden cards merge into one
edge each); rewards are scaled by the game's ``max_utility``; the move played is the root
child visited most. It searches the observation's perfect-information ``world`` game in
each determinization, so it shares the plain rules with PIMC and MCTS
(:func:`gamesearch.game.random_playout` plays the playouts).
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedGameError
from ..game import Game, random_playout
from .common import SearchResult
from .mcts import backpropagate, information_set_node, select_determinized


@dataclass
class IsmctsResult:
    """``action`` (the most visited root move), ``visits`` and ``means`` per root move
    (the mean reward on the utility scale), ``iterations`` and ``seconds``."""

    action: Any
    visits: dict[Any, int]
    means: dict[Any, float]
    iterations: int
    seconds: float

    def search_result(self) -> SearchResult:
        """The decision as a :class:`~gamesearch.search.SearchResult` (what agents report
        and the web app shows): ``extra["root_stats"]`` holds each root move's visits and
        mean reward, ``extra["samples"]`` the iterations (one determinization each)."""
        stats = [{"action": a, "value": self.means[a], "visits": n}
                 for a, n in self.visits.items()]
        return SearchResult("ismcts", self.means.get(self.action), self.action,
                            [self.action], 0, self.iterations, self.seconds,
                            extra={"samples": self.iterations,
                                   "sample_kind": "iterations", "root_stats": stats,
                                   "root_values": [(a, self.means[a]) for a, n in
                                                   self.visits.items() if n]})


def ismcts(game: Game[Any, Any], view: Hashable, seat: int, *, iterations: int = 1000,
           seconds: float | None = None, c: float = 0.7,
           rng: random.Random | None = None) -> IsmctsResult:
    """SO-ISMCTS's move for ``seat`` from its ``view``: ``iterations`` iterations, or
    fewer when ``seconds`` run out (at least one)."""
    observation = game.observation()
    if observation is None:
        raise UnsupportedGameError(
            f"ismcts needs a game with hidden information and a sampler (an observation); "
            f"{game.name} has none: use mcts")
    world_game: Game[Any, Any] = observation.world
    rng = rng or random.Random()
    t0 = time.perf_counter()
    legal_root = list(observation.actions(view))
    if not legal_root:
        raise UnsupportedGameError(f"ismcts: seat {seat} has no move in this view")
    sampler = observation.sampler(view)[0]
    scale = 1.0 / game.max_utility
    players = range(world_game.num_players)
    returns = world_game.returns
    random_ = rng.random
    root = information_set_node(seat)
    done = 0
    while done < iterations and (done == 0 or seconds is None
                                 or time.perf_counter() - t0 < seconds):
        done += 1
        determinization = observation.sample(view, rng, sampler)
        path, state = select_determinized(root, determinization, world_game, random_, c)
        rewards = returns(random_playout(world_game, state, rng))
        backpropagate(path, tuple(x * scale for x in rewards), False, players, None)
    index = root.index or {}
    children = root.children
    visits = {a: children[index[a]].n if a in index else 0  # type: ignore[union-attr]
              for a in legal_root}
    means = {a: (children[index[a]].w / visits[a] / scale  # type: ignore[union-attr]
                 if visits[a] else 0.0) for a in legal_root}
    action = max(legal_root, key=lambda a: visits[a])
    return IsmctsResult(action, visits, means, done, time.perf_counter() - t0)


__all__ = ["IsmctsResult", "ismcts"]
