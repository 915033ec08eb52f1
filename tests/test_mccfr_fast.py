"""The compiled Monte Carlo CFR (search/mccfr_fast.py) against the plain one (search/cfr.py):
the same random stream (SplitMix64, checked against the published first output), the same
samples and the same regrets from one seed; its exploitability against OpenSpiel's C++
samplers' (not bit for bit: another random generator; their trend, over several seeds)."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from gamesearch.games import get_game
from gamesearch.search import equilibrium, mccfr_fast
from gamesearch.search.cfr import MCCFRSolver, SplitMix64, exploitability, sample_index
from gamesearch.search.cfr_fast import flatten
from gamesearch.search.mccfr_fast import FastMCCFR

pytestmark = pytest.mark.skipif(not mccfr_fast.available(), reason="numba not installed")


def test_splitmix64_gives_the_published_stream():
    """Vigna's splitmix64.c from state 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...;
    the double is the top 53 bits."""
    plain = SplitMix64(0)
    compiled = np.zeros(1, dtype=np.uint64)
    for word in (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F):
        expected = (word >> 11) * 2.0 ** -53
        assert plain.random() == expected
        assert mccfr_fast._random(compiled) == expected
    plain, compiled = SplitMix64(2 ** 64 - 5), np.array([2 ** 64 - 5], dtype=np.uint64)
    assert [plain.random() for _ in range(50)] == [mccfr_fast._random(compiled)
                                                   for _ in range(50)]


def test_sampling_skips_zero_weights_and_agrees_compiled():
    assert [sample_index([0.0, 1.0, 0.0], u) for u in (0.0, 0.5, 1 - 2 ** -53)] == [1, 1, 1]
    assert sample_index([0.25, 0.75], 0.2499) == 0
    assert sample_index([0.25, 0.75], 0.25) == 1
    assert sample_index([0.5, 0.5, 0.0], 1.0) == 1  # rounding at the top: not weight 0
    rng = random.Random(3)
    for _ in range(500):
        weights = [rng.choice((0.0, rng.random())) for _ in range(rng.randint(1, 5))]
        weights[rng.randrange(len(weights))] = rng.random() + 0.01
        u = rng.random()
        assert mccfr_fast._sample(np.array(weights), u) == sample_index(weights, u)


def plain_arrays(plain: MCCFRSolver, tree) -> tuple[np.ndarray, np.ndarray]:
    """The plain solver's regrets and cumulative policy in the flat tree's slot order."""
    sets = [plain.infosets[key] for key in tree.keys]
    return (np.array([r for s in sets for r in s.regrets]),
            np.array([c for s in sets for c in s.cumulative]))


@pytest.mark.parametrize(("name", "sampling", "iterations"), [
    ("kuhn_poker", "external", 300), ("leduc_poker", "external", 300),
    ("kuhn_poker", "outcome", 1000), ("leduc_poker", "outcome", 1000)])
def test_fast_equals_plain_seed_for_seed(name, sampling, iterations):
    """The histories touched, the regrets and the cumulative policy after 1, 10 and
    ``iterations`` iterations, to 1e-12 (the same arithmetic: in fact to the last bit)."""
    game = get_game(name)
    tree = flatten(game)
    plain = MCCFRSolver(game, sampling, seed=7)
    fast = FastMCCFR(game, sampling, seed=7, tree=tree)
    done = 0
    for checkpoint in (1, 10, iterations):
        plain.iterate(checkpoint - done)
        fast.iterate(checkpoint - done)
        done = checkpoint
        regrets, cumulative = plain_arrays(plain, tree)
        assert fast.nodes == plain.nodes
        assert np.abs(fast.regrets - regrets).max() <= 1e-12
        assert np.abs(fast.cumulative - cumulative).max() <= 1e-12
    assert np.abs(regrets).max() > 0.1  # (it did learn something)
    assert fast.exploitability() == pytest.approx(
        exploitability(game, plain.average_policy()), abs=1e-12)


def test_another_seed_samples_other_histories():
    game = get_game("leduc_poker")
    a, b = FastMCCFR(game, seed=1), FastMCCFR(game, seed=2)
    a.iterate(20)
    b.iterate(20)
    assert a.nodes != b.nodes or np.abs(a.regrets - b.regrets).max() > 0.1


def test_equilibrium_command_uses_the_fast_solver_and_falls_back_to_the_plain(monkeypatch):
    """Same seed, same stream: with numba or without, the same policy."""
    game = get_game("leduc_poker")
    fast = equilibrium.solve_equilibrium(game, "es-mccfr", 200, seed=5)
    reference = MCCFRSolver(game, "external", seed=5)
    reference.iterate(200)
    assert fast.nodes == reference.nodes
    assert fast.exploitability == pytest.approx(
        exploitability(game, reference.average_policy()), abs=1e-12)
    monkeypatch.setattr(mccfr_fast, "available", lambda: False)
    monkeypatch.setattr(mccfr_fast, "FastMCCFR", None)  # (so that using it would fail)
    plain = equilibrium.solve_equilibrium(game, "es-mccfr", 200, seed=5)
    assert plain.nodes == fast.nodes and plain.table == fast.table


pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize(("name", "sampling", "iterations", "factor"), [
    ("kuhn_poker", "external", 2000, 1.5), ("kuhn_poker", "outcome", 20000, 2.0),
    ("leduc_poker", "external", 3000, 1.5), ("leduc_poker", "outcome", 20000, 1.5)])
def test_exploitability_follows_openspiels_samplers(name, sampling, iterations, factor):
    """Five seeds each: our mean exploitability after ``iterations`` iterations within
    ``factor`` of OpenSpiel's C++ ``ExternalSamplingMCCFRSolver`` /
    ``OutcomeSamplingMCCFRSolver``'s (another random generator, the same algorithm; Kuhn's
    outcome sampling varies most from seed to seed), and below half the uniform
    policy's."""
    game, theirs_game = get_game(name), pyspiel.load_game(name)
    tree = flatten(game)
    ours, theirs = [], []
    for seed in range(1, 6):
        solver = FastMCCFR(game, sampling, seed=seed, tree=tree)
        solver.iterate(iterations)
        ours.append(solver.exploitability())
        peer = (pyspiel.ExternalSamplingMCCFRSolver(theirs_game, seed=seed)
                if sampling == "external" else
                pyspiel.OutcomeSamplingMCCFRSolver(theirs_game, 0.6, seed))
        for _ in range(iterations):
            peer.run_iteration()
        theirs.append(pyspiel.exploitability(theirs_game, peer.average_policy()))
    uniform = FastMCCFR(game, tree=tree).exploitability()
    ratio = statistics.mean(ours) / statistics.mean(theirs)
    assert 1 / factor < ratio < factor, (ours, theirs)
    assert max(ours) < uniform / 2
