"""The equilibrium solvers (search/cfr.py, search/cfr_fast.py) against OpenSpiel: CFR and
CFR+ exploitability equal to pyspiel's C++ CFRSolver / CFRPlusSolver to 1e-9 at every
iteration count, DCFR equal to OpenSpiel's Python DCFRSolver, best responses equal to
pyspiel's exploitability on random policies; the fast solver equal to the plain one; Monte
Carlo CFR converging."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamesearch.errors import UnsupportedGameError
from gamesearch.games import get_game
from gamesearch.search.cfr import (
    CFRSolver,
    MCCFRSolver,
    best_response_value,
    exploitability,
    policy_value,
)
from gamesearch.search.cfr_fast import FastCFR, flatten, policy_array

pyspiel = pytest.importorskip("pyspiel")

SOLVERS = {"cfr": "CFRSolver", "cfr+": "CFRPlusSolver"}


def to_openspiel(policy):
    """Our policy as pyspiel's TabularPolicy (our views' str is OpenSpiel's key)."""
    return pyspiel.TabularPolicy({str(k): list(v.items()) for k, v in policy.items()})


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
@pytest.mark.parametrize(("name", "iterations", "checkpoints", "tables"), [
    ("kuhn_poker", 1000, (), 0), ("leduc_poker", 10, (50, 100), 50)])
def test_fast_solver_equals_openspiels_at_every_iteration(name, iterations, checkpoints,
                                                          tables, variant):
    """The exploitability at every iteration 1..N, then at the checkpoints, to 1e-12: the
    arithmetic is OpenSpiel's, so the rounding is (without that, Leduc's exploitabilities
    drift apart from 1e-16 at 100 iterations to 7e-7 at 1,000); and the whole average
    policy at every iteration 1..``tables`` (Leduc: pyspiel's exploitability costs ~0.2 s
    a call, its table 10 ms; ``benchmarks/cfr.py --every-iteration 1000`` compares the
    exploitability at every iteration to 1,000)."""
    ours = FastCFR(get_game(name), variant)
    game = pyspiel.load_game(name)
    theirs = getattr(pyspiel, SOLVERS[variant])(game)
    keys = ours.tree.keys
    for i in range(1, max((iterations, *checkpoints)) + 1):
        ours.iterate()
        theirs.evaluate_and_update_policy()
        if i <= tables:
            table = theirs.tabular_average_policy().policy_table()
            expected_policy = np.array([p for key in keys for _, p in table[str(key)]])
            assert np.abs(ours.average_array() - expected_policy).max() < 1e-12
        if i > iterations and i not in checkpoints:
            continue
        expected = pyspiel.exploitability(game, theirs.average_policy())
        assert ours.exploitability() == pytest.approx(expected, abs=1e-12)
        if i in (1, iterations):  # our policy, judged by OpenSpiel
            assert pyspiel.exploitability(game, to_openspiel(ours.average_policy())) == \
                pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
def test_goofspiel_equals_openspiels_turn_based_game(variant):
    """Goofspiel 4 with hidden bids against OpenSpiel's game made turn-based: the whole
    average policy after each of 10 iterations, the exploitability at the last."""
    ours = FastCFR(get_game("goofspiel"), variant)
    game = pyspiel.convert_to_turn_based(
        pyspiel.load_game("goofspiel(num_cards=4,imp_info=True)"))
    theirs = getattr(pyspiel, SOLVERS[variant])(game)
    tree = ours.tree
    for _ in range(10):
        ours.iterate()
        theirs.evaluate_and_update_policy()
        table = theirs.tabular_average_policy().policy_table()
        expected = np.array([p for key in tree.keys for _, p in table[str(key)]])
        assert np.abs(ours.average_array() - expected).max() < 1e-12
    assert ours.exploitability() == pytest.approx(
        pyspiel.exploitability(game, theirs.average_policy()), abs=1e-12)


def test_liars_dice_average_policy_equals_openspiels():
    """Liar's Dice (294,883 histories), CFR+: the whole average policy, set by set, after
    each of two iterations (pyspiel's exploitability takes ~10 s a call: so the tables)."""
    ours = FastCFR(get_game("liars_dice"), "cfr+")
    theirs = pyspiel.CFRPlusSolver(pyspiel.load_game("liars_dice"))
    tree = ours.tree
    for _ in range(2):
        ours.iterate()
        theirs.evaluate_and_update_policy()
        table = theirs.tabular_average_policy().policy_table()
        assert len(table) == len(tree.keys) == 24_576
        expected = np.array([p for key in tree.keys for _, p in table[str(key)]])
        assert [a for key in tree.keys for a, _ in table[str(key)]] == \
            [a for acts in tree.actions for a in acts]
        assert np.abs(ours.average_array() - expected).max() < 1e-12


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
def test_plain_solver_equals_openspiels_at_every_iteration(variant):
    ours = CFRSolver(get_game("kuhn_poker"), variant)
    game = pyspiel.load_game("kuhn_poker")
    theirs = getattr(pyspiel, SOLVERS[variant])(game)
    for _ in range(100):
        ours.iterate()
        theirs.evaluate_and_update_policy()
        assert exploitability(ours.game, ours.average_policy()) == pytest.approx(
            pyspiel.exploitability(game, theirs.average_policy()), abs=1e-12)


def test_dcfr_equals_openspiels_python_dcfr():
    from open_spiel.python.algorithms import discounted_cfr
    from open_spiel.python.algorithms import exploitability as their_exploitability

    game = pyspiel.load_game("kuhn_poker")
    theirs = discounted_cfr.DCFRSolver(game)
    plain, fast = CFRSolver(get_game("kuhn_poker"), "dcfr"), FastCFR(get_game("kuhn_poker"),
                                                                     "dcfr")
    for _ in range(25):
        theirs.evaluate_and_update_policy()
        plain.iterate()
        fast.iterate()
        expected = their_exploitability.exploitability(game, theirs.average_policy())
        assert exploitability(plain.game, plain.average_policy()) == pytest.approx(
            expected, abs=1e-9)
        assert fast.exploitability() == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("variant", ["cfr", "cfr+", "dcfr"])
def test_fast_solver_equals_the_plain_one(variant):
    game = get_game("leduc_poker")
    plain, fast = CFRSolver(game, variant), FastCFR(game, variant)
    for _ in range(2):
        plain.iterate()
        fast.iterate()
        # the same arithmetic: equal to the last bit
        assert fast.average_policy() == plain.average_policy()
        assert fast.current_policy() == plain.current_policy()


def random_policy(game, seed):
    rng = random.Random(seed)
    out = {}
    for key, actions in zip(flatten(game).keys, flatten(game).actions, strict=True):
        w = [rng.random() ** 3 for _ in actions]
        out[key] = {a: x / sum(w) for a, x in zip(actions, w, strict=True)}
    return out


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_best_responses_equal_openspiels_on_random_policies(name):
    game, theirs = get_game(name), pyspiel.load_game(name)
    tree = flatten(game)
    solver = FastCFR(game, tree=tree)
    for seed in range(3):
        policy = random_policy(game, seed)
        expected = pyspiel.exploitability(theirs, to_openspiel(policy))
        assert exploitability(game, policy) == pytest.approx(expected, abs=1e-9)
        assert solver.exploitability(policy_array(tree, policy)) == pytest.approx(
            expected, abs=1e-9)
        assert solver.value(policy_array(tree, policy)) == pytest.approx(
            policy_value(game, policy), abs=1e-12)


def test_kuhn_equilibrium_value_and_best_response_to_it():
    game = get_game("kuhn_poker")
    solver = FastCFR(game, "cfr+")
    solver.iterate(2000)
    assert solver.exploitability() < 1e-3
    assert solver.value() == pytest.approx(-1 / 18, abs=2e-3)
    policy = solver.average_policy()
    br = best_response_value(game, policy, 0), best_response_value(game, policy, 1)
    assert br[0] + br[1] == pytest.approx(2 * solver.exploitability(), abs=1e-12)


@pytest.mark.parametrize(("sampling", "iterations", "bound"),
                         [("external", 3000, 0.03), ("outcome", 20000, 0.06)])
def test_monte_carlo_cfr_converges_on_kuhn(sampling, iterations, bound):
    """The plain solver (bounds: OpenSpiel's C++ samplers reach 0.013-0.023 at 2,000
    external-sampling iterations and 0.01-0.054 at 20,000 outcome-sampling ones over five
    seeds; the uniform policy is at 0.458; tests/test_mccfr_fast.py compares the trends)."""
    game = get_game("kuhn_poker")
    solver = MCCFRSolver(game, sampling, seed=1)
    solver.iterate(10)
    early = exploitability(game, solver.average_policy())
    solver.iterate(iterations)
    assert exploitability(game, solver.average_policy()) < min(bound, early)
    assert solver.nodes > iterations


@pytest.mark.parametrize("name", ["tictactoe", "ohhell", "connect4"])
def test_the_solvers_refuse_games_they_do_not_handle(name):
    with pytest.raises(UnsupportedGameError, match="equilibrium"):
        CFRSolver(get_game(name))


def test_flat_tree_of_leduc():
    tree = flatten(get_game("leduc_poker"))
    assert len(tree.keys) == 936 and len(tree.parent) == 9457
    assert np.all(tree.set_depth >= 0)


@pytest.mark.parametrize(("name", "value"), [("kuhn_poker", -1 / 18),
                                             ("leduc_poker", -0.085606)])
def test_sequence_form_lp_finds_the_published_values(name, value):
    pytest.importorskip("scipy")
    from gamesearch.search.sequence_lp import solve_lp

    game = get_game(name)
    found, policy = solve_lp(game)
    assert found == pytest.approx(value, abs=1e-6)
    assert exploitability(game, policy) == pytest.approx(0.0, abs=1e-9)
    assert policy_value(game, policy) == pytest.approx(found, abs=1e-9)
