"""One entry point to the equilibrium solvers (``gamesearch equilibrium``, the ``cfr``
agent): :func:`solve_equilibrium` runs an algorithm of :data:`EQUILIBRIUM_ALGORITHMS` on a
two-player zero-sum game with an observation and reports the average policy, its
exploitability (NashConv / 2, by best responses on the flat tree), player 0's value under
it, and the solver's CPU seconds (the exploitability and value computations not counted).
CFR, CFR+ and DCFR run on the flat tree (:mod:`.cfr_fast`); the Monte Carlo CFRs compiled
(:mod:`.mccfr_fast`) when numba is installed, else the plain :class:`.cfr.MCCFRSolver`,
which draws the same random numbers and so returns the same policy for the same seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..errors import UnknownNameError
from ..game import Game
from . import mccfr_fast
from .cfr import MCCFRSolver, Policy, check_game
from .cfr_fast import FastCFR, flat_exploitability, flat_values, flatten, policy_array
from .policy_file import PolicyTable

#: name -> what it runs
EQUILIBRIUM_ALGORITHMS = {
    "cfr": "vanilla CFR (Zinkevich et al. 2007), alternating updates, on the flat tree",
    "cfr+": "CFR+ (Tammelin 2014): regrets floored at 0, linear averaging",
    "dcfr": "discounted CFR (Brown & Sandholm 2019), alpha 1.5, beta 0, gamma 2",
    "es-mccfr": "external-sampling Monte Carlo CFR (Lanctot et al. 2009)",
    "os-mccfr": "outcome-sampling Monte Carlo CFR (Lanctot et al. 2009), exploration 0.6",
    "lp": "the sequence-form linear program (scipy's HiGHS): exact; no iterations",
}
#: the Monte Carlo algorithms' sampling schemes (numba compiles them, :mod:`.mccfr_fast`;
#: without it the plain :class:`.cfr.MCCFRSolver` runs)
SAMPLING = {"es-mccfr": "external", "os-mccfr": "outcome"}


@dataclass
class EquilibriumResult:
    game: str
    algorithm: str
    iterations: int
    exploitability: float
    value: float
    seconds: float
    information_sets: int
    nodes: int
    table: PolicyTable

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "algorithm": self.algorithm,
                "iterations": self.iterations, "exploitability": self.exploitability,
                "value": self.value, "seconds": round(self.seconds, 6),
                "information_sets": self.information_sets, "nodes": self.nodes}


def solve_equilibrium(game: Game[Any, Any], algorithm: str = "cfr+", iterations: int = 1000,
                      seed: int | None = None) -> EquilibriumResult:
    """Run ``algorithm`` for ``iterations`` iterations (ignored by ``lp``) on ``game``."""
    if algorithm not in EQUILIBRIUM_ALGORITHMS:
        raise UnknownNameError("equilibrium algorithm", algorithm, EQUILIBRIUM_ALGORITHMS)
    check_game(game)
    start = time.process_time()
    nodes = 0
    policy: Policy
    if algorithm in ("cfr", "cfr+", "dcfr"):
        solver = FastCFR(game, algorithm)
        solver.iterate(iterations)
        tree = solver.tree
        average = solver.average_array()
        seconds = time.process_time() - start
        nodes = 2 * iterations * len(tree.parent)
    elif algorithm != "lp" and mccfr_fast.available():
        fast = mccfr_fast.FastMCCFR(game, SAMPLING[algorithm], seed=seed)
        fast.iterate(iterations)
        seconds = time.process_time() - start
        nodes, tree, average = fast.nodes, fast.tree, fast.average_array()
    else:
        if algorithm == "lp":
            from .sequence_lp import solve_lp

            _, policy = solve_lp(game)
            iterations = 0
        else:  # the plain solver: the same random stream, so the same policy
            mc = MCCFRSolver(game, SAMPLING[algorithm], seed=seed)
            mc.iterate(iterations)
            nodes = mc.nodes
            policy = mc.average_policy()
        seconds = time.process_time() - start
        tree = flatten(game)
        average = policy_array(tree, policy)
    prob = tree.chance.copy()
    decision = tree.slot >= 0
    prob[decision] = average[tree.slot[decision]]
    value = float(flat_values(tree, prob)[0][0])
    exploitability = flat_exploitability(tree, average, game)
    policy_table = {str(key): average[int(lo):int(lo) + len(acts)].tolist()
                    for key, acts, lo in zip(tree.keys, tree.actions, tree.set_start,
                                             strict=True)}
    return EquilibriumResult(game.spec, algorithm, iterations, exploitability, value,
                             seconds, len(tree.keys), nodes, policy_table)
