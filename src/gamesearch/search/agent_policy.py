"""What an agent's play is worth against a best response: its decision at every information
set of a two-player zero-sum game, gathered into a policy table and measured by the
exploitability of :mod:`gamesearch.search.cfr`.

Why measure it: averaging over clairvoyance (PIMC, Ginsberg's GIB) values each world as if
the seat will see the hidden cards from then on, and so errs by *strategy fusion* and
*non-locality* (Frank & Basin, "Search in games with incomplete information: a case study
using Bridge card play", Artificial Intelligence 100, 1998); Long, Sturtevant, Buro and
Furtak, "Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree
Search" (AAAI 2010) relate how much it costs to the game's properties (leaf correlation,
bias, disambiguation). SO-ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), 2012) grows one tree over the searcher's information
sets instead, so its own later moves cannot depend on cards it does not see (their answer
to strategy fusion); the opponent's moves are merged into the same tree, so the opponent is
modelled as not seeing its own cards either. The exploitability (NashConv / 2) of the
policy each plays is the common yardstick with CFR, whose average policy converges to an
equilibrium (exploitability 0).

How a policy is made (:func:`decisions_policy`): every information set of the game (the
views :func:`gamesearch.search.cfr.information_sets` collects by walking the whole tree,
so a view is a set met in play, never one built by hand) is handed, with a seed derived
from the run's seed and the set's key (:func:`set_seed`: the same policy in any process
and any order), to ``decide(view, seed)``, which answers the move's probabilities. An
agent that picks one move gives a *pure* policy (probability 1 on its choice); one that
knows a distribution (a saved policy) gives it; a tree search may give its root visit
counts (ISMCTS): :func:`gamesearch.agents.agent_decider` builds ``decide`` from an agent
spec and says which. A set is decided once, as if the agent were asked there in play with
that seed; an agent that keeps state between moves of one game (none of PIMC, ISMCTS or a
policy does) would be measured on a fresh start at every set.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import GameError
from ..game import Game
from .cfr import Policy, information_sets

#: ``decide(view, seed)``: the probabilities of the view's legal actions (missing: 0)
Decide = Callable[[Hashable, int], Mapping[Any, float]]


@dataclass
class DecisionsPolicy:
    """The policy an agent plays (``policy``: information-set key -> ``{action:
    probability}``, every set of the game), the CPU seconds its decisions took
    (``time.process_time``; the tree walk not counted) and how many sets were decided."""

    policy: Policy
    seconds: float
    information_sets: int


def set_seed(seed: int, key: Hashable) -> int:
    """The seed of the decision at information set ``key`` in a run seeded ``seed`` (62
    bits of the SHA-256 of both: independent of the order the sets are visited and of the
    process's string hashing)."""
    digest = hashlib.sha256(f"{seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def decisions_policy(game: Game[Any, Any], decide: Decide, seed: int = 0,
                     progress: Callable[[int, int], None] | None = None) -> DecisionsPolicy:
    """``decide`` asked at every information set of ``game`` (a two-player zero-sum game
    with an observation; anything else is refused in one line by
    :func:`~gamesearch.search.cfr.check_game`), in the order the sets are first met depth
    first. A distribution is checked: its actions legal at the set, its probabilities
    finite, non-negative and summing to 1. ``progress(done, total)`` is called after each
    set."""
    sets = information_sets(game)
    policy: Policy = {}
    total = len(sets)
    start = time.process_time()
    for done, (key, infoset) in enumerate(sets.items(), 1):
        probabilities = dict(decide(key, set_seed(seed, key)))
        legal = set(infoset.actions)
        odd = [a for a in probabilities if a not in legal]
        mass = sum(probabilities.values())
        if odd or abs(mass - 1.0) > 1e-9 or any(not p >= 0 for p in probabilities.values()):
            raise GameError(f"decisions_policy: at {str(key)[:60]!r} the decision "
                            f"{str(probabilities)[:80]} is not a distribution over the legal "
                            "actions")
        policy[key] = {a: float(probabilities.get(a, 0.0)) for a in infoset.actions}
        if progress is not None:
            progress(done, total)
    return DecisionsPolicy(policy, time.process_time() - start, total)


__all__ = ["Decide", "DecisionsPolicy", "decisions_policy", "set_seed"]
