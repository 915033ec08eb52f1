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

Departures: the tree's edges are actions of every player (the single-observer variant: the
opponents' moves are nodes as the searcher sees them, so their hidden cards merge into one
edge each); rewards are scaled by the game's ``max_utility``; the move played is the root
child visited most. It searches the observation's perfect-information ``world`` game in
each determinization, so it shares the plain rules with PIMC and MCTS
(:func:`gamesearch.game.random_playout` plays the playouts).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from ..errors import UnsupportedGameError
from ..game import Game, random_playout
from .common import SearchResult


@dataclass
class _Node:
    mover: int  # the player who made the move into this node (-1 at the root)
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[Any, _Node] = field(default_factory=dict)


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
    actions, result, is_terminal, to_move = (world_game.actions, world_game.result,
                                             world_game.is_terminal, world_game.to_move)
    root = _Node(-1)
    done = 0
    while done < iterations and (done == 0 or seconds is None
                                 or time.perf_counter() - t0 < seconds):
        done += 1
        state = observation.sample(view, rng, sampler)
        node, path = root, [root]
        while not is_terminal(state):
            legal = actions(state)
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            mover = to_move(state)
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = _Node(mover, available=1)
                node.children[a] = child
                state = result(state, a)
                path.append(child)
                break
            best_a, best_u = legal[0], -math.inf
            for a in legal:
                ch = node.children[a]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.available) / ch.visits)
                if u > best_u:
                    best_a, best_u = a, u
            node = node.children[best_a]
            state = result(state, best_a)
            path.append(node)
        end = random_playout(world_game, state, rng)
        rewards = world_game.returns(end)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.total += rewards[n.mover] * scale
    visits = {a: root.children[a].visits if a in root.children else 0 for a in legal_root}
    means = {a: (root.children[a].total / root.children[a].visits / scale
                 if visits[a] else 0.0) for a in legal_root}
    action = max(legal_root, key=lambda a: visits[a])
    return IsmctsResult(action, visits, means, done, time.perf_counter() - t0)


__all__ = ["IsmctsResult", "ismcts"]
