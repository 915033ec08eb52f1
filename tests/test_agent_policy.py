"""What averaging over clairvoyance costs (issue 37): an agent's decision at every
information set as a policy (``search/agent_policy.py``, ``agents.agent_decider``), its
exploitability by our best response against ``pyspiel.exploitability`` on the same tabular
policy; PIMC's worlds with chance still to come (Leduc's public card) searched by
expectiminimax, against a textbook expectiminimax written here; and the NashConv of a
perfect-information profile in exact arithmetic (``search/perfect_profile.py``): the
minimax profile of tic-tac-toe at exactly 0, wrong profiles of the seeds' trees at the gap
their published values give."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from gamesearch.agents import agent_decider, make_agent
from gamesearch.errors import GameError
from gamesearch.game import CHANCE
from gamesearch.games import get_game
from gamesearch.search import Limit, make_searcher
from gamesearch.search.agent_policy import decisions_policy, set_seed
from gamesearch.search.cfr import exploitability
from gamesearch.search.cfr_fast import flat_exploitability, flatten, policy_array
from gamesearch.search.equilibrium import solve_equilibrium
from gamesearch.search.perfect_profile import nash_conv_exact, search_profile
from gamesearch.search.pimc import default_world_search, expected_world_values, pimc
from gamesearch.search.policy_file import save_policy

pyspiel = pytest.importorskip("pyspiel")


def openspiel_exploitability(name: str, policy: dict[Any, dict[Any, float]]) -> float:
    """pyspiel's exploitability of our table (our views' ``str`` is OpenSpiel's key)."""
    table = pyspiel.TabularPolicy({str(k): list(v.items()) for k, v in policy.items()})
    return float(pyspiel.exploitability(pyspiel.load_game(name), table))


# ----- PIMC on a game with chance left in its worlds -------------------------------------
def textbook_expectiminimax(game: Any, state: Any, seat: int) -> float:
    """AIMA §6.5 written out: max at the seat's nodes, min at the other's, the weighted
    sum at chance nodes (the reference the library's search is held to)."""
    if game.is_terminal(state):
        return float(game.returns(state)[seat])
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(p * textbook_expectiminimax(game, game.result(state, a), seat)
                   for a, p in game.chance_outcomes(state))
    values = [textbook_expectiminimax(game, game.result(state, a), seat)
              for a in game.actions(state)]
    return max(values) if mover == seat else min(values)


def test_pimc_searches_worlds_with_chance_left_by_expectiminimax() -> None:
    game = get_game("leduc_poker")
    observation = game.observation()
    world_game = observation.world
    assert default_world_search(world_game) == "expectiminimax"
    assert make_agent(game, "pimc:worlds=2").search == "expectiminimax"  # type: ignore[attr-defined]
    # Qs to player 0, Kh to player 1, player 0 calls: player 1 decides before the board
    state = (2, 5, 1)
    seat = game.to_move(state)
    values, nodes = expected_world_values(world_game, state, seat, game.actions(state))
    assert nodes > 0
    truth = {a: textbook_expectiminimax(world_game, world_game.result(state, a), seat)
             for a in game.actions(state)}
    assert values == pytest.approx(truth, abs=1e-12)
    # and the decision from the view: every world valued so, the best average played
    r = pimc(game, observation.observe(state, seat), seat, worlds=6, rng=random.Random(4))
    assert len(r.worlds) == 6
    for world, worth in zip(r.states, r.worlds, strict=True):
        assert worth == pytest.approx(
            {a: textbook_expectiminimax(world_game, world_game.result(world, a), seat)
             for a in worth}, abs=1e-12)
    assert r.action == max(r.averages, key=lambda a: r.averages[a])


@pytest.mark.parametrize("name", ["leduc_poker", "goofspiel"])
def test_pimc_plays_whole_games_with_chance_left_in_the_worlds(name: str) -> None:
    """Before expectiminimax was PIMC's default here, max^n refused these worlds."""
    from gamesearch.agents import play_game

    game = get_game(name)
    for seed in range(3):
        agents = [make_agent(game, "pimc:worlds=3,seed=1"), make_agent(game, "random:seed=2")]
        state, _ = play_game(game, agents[::-1] if seed % 2 else agents,
                             rng=random.Random(seed))
        assert game.is_terminal(state)


# ----- an agent's decisions as a policy ---------------------------------------------------
def test_a_saved_policy_played_as_an_agent_keeps_its_exploitability(tmp_path: Any) -> None:
    game = get_game("kuhn_poker")
    solved = solve_equilibrium(game, "cfr+", 300)
    path = tmp_path / "kuhn.policy.json"
    save_policy(path, game, solved.table, algorithm="cfr+", iterations=300)
    made = decisions_policy(game, agent_decider(game, f"policy:{path}"), seed=1)
    assert made.information_sets == solved.information_sets == 12
    ours = exploitability(game, made.policy)
    assert ours == pytest.approx(solved.exploitability, abs=1e-12)
    assert ours == pytest.approx(openspiel_exploitability("kuhn_poker", made.policy),
                                 abs=1e-12)
    assert 0 < ours < 0.01  # (a mixed policy, recorded as mixed: not its sampled moves)


@pytest.mark.parametrize(("spec", "kind"), [("pimc:worlds=3", "choice"),
                                            ("ismcts:iterations=60", "choice"),
                                            ("ismcts:iterations=60", "visits")])
def test_a_search_agents_policy_is_measured_as_openspiel_measures_it(spec: str,
                                                                     kind: str) -> None:
    game = get_game("kuhn_poker")
    made = decisions_policy(game, agent_decider(game, spec, kind), seed=7)
    again = decisions_policy(game, agent_decider(game, spec, kind), seed=7)
    assert made.policy == again.policy  # a set's seed is its own: the same policy
    if kind == "choice":  # pure: probability 1 on one move at every set
        assert all(sorted(p.values()) == [0.0] * (len(p) - 1) + [1.0]
                   for p in made.policy.values())
    else:  # ISMCTS plays its most visited move: the visits' mode is the choice's move
        assert any(0 < q < 1 for p in made.policy.values() for q in p.values())
        chosen = decisions_policy(game, agent_decider(game, spec), seed=7).policy
        for key, p in made.policy.items():
            assert max(p, key=lambda a: p[a]) == max(chosen[key], key=chosen[key].__getitem__)
    ours = exploitability(game, made.policy)
    tree = flatten(game)
    assert flat_exploitability(tree, policy_array(tree, made.policy), game) == \
        pytest.approx(ours, abs=1e-12)
    assert ours == pytest.approx(openspiel_exploitability("kuhn_poker", made.policy),
                                 abs=1e-12)
    assert ours > 0.01  # averaging over worlds is not an equilibrium of Kuhn poker


def test_each_sets_seed_is_the_runs_and_the_sets() -> None:
    assert set_seed(1, "a") == set_seed(1, "a")
    assert len({set_seed(s, k) for s in (1, 2) for k in ("a", "b")}) == 4


def test_bad_requests_are_one_line_errors() -> None:
    kuhn = get_game("kuhn_poker")
    for spec, kind, words in [("pimc:worlds=2,seed=3", "choice", "drop seed="),
                              ("pimc:worlds=2", "visits", "no root visit counts"),
                              ("pimc:worlds=2", "mean", "unknown decision kind")]:
        with pytest.raises(GameError, match=words) as info:
            decisions_policy(kuhn, agent_decider(kuhn, spec, kind))
        assert "\n" not in str(info.value)
    with pytest.raises(GameError, match="no observation") as info:
        decisions_policy(get_game("tictactoe"), lambda view, seed: {})
    with pytest.raises(GameError, match="not a distribution"):
        decisions_policy(kuhn, lambda view, seed: {99: 1.0})


# ----- perfect information: NashConv of a profile, exactly ------------------------------
def minimax_profile(game: Any) -> dict[Any, Any]:
    """The move the library's minimax (expectiminimax where there is chance) picks at
    every decision state."""
    searcher = make_searcher(game, "expectiminimax" if game.game_type.chance else "minimax")
    return search_profile(game, lambda s: searcher.search(s, Limit()).action)


def test_tictactoes_minimax_profile_has_nash_conv_exactly_zero() -> None:
    game = get_game("tictactoe")
    profile = minimax_profile(game)
    assert len(profile) == 4520  # every decision state (5,478 with the terminal ones)
    for memo in (True, False):
        r = nash_conv_exact(game, profile, memo=memo)
        assert r.nash_conv == 0 and isinstance(r.nash_conv, Fraction)
        assert r.on_profile == (0, 0)  # tic-tac-toe is a draw
    # a profile that is not an equilibrium is caught: X's first legal square everywhere
    first = {s: (game.actions(s)[0] if game.to_move(s) == 0 else m)
             for s, m in profile.items()}
    r = nash_conv_exact(game, first)
    assert r.nash_conv > 0 and r.nash_conv == nash_conv_exact(game, first, False).nash_conv


@pytest.mark.parametrize(("name", "gap"), [("fig6.2", 3 - 2), ("coinflip", 3 - (-1))])
def test_a_wrong_root_move_costs_the_gap_the_seeds_values_give(name: str, gap: int) -> None:
    """Fig 6.2 (B = 3, C = 2) and the slides' coin flip (chance nodes worth 3 and -1): MAX
    moving to the second child instead of the first gives up exactly the difference; the
    minimax profile gives up nothing."""
    game = get_game(name)
    profile = minimax_profile(game)
    root = game.initial_state()
    assert nash_conv_exact(game, profile).nash_conv == 0
    wrong = {**profile, root: game.actions(root)[1]}
    r = nash_conv_exact(game, wrong)
    assert r.nash_conv == gap
    assert r.best_response[0] - r.on_profile[0] == gap  # MAX's gain; MIN has none


def test_nash_conv_exact_refuses_what_it_cannot_check() -> None:
    with pytest.raises(GameError, match="hidden information"):
        nash_conv_exact(get_game("kuhn_poker"), {})
    game = get_game("fig6.2")
    with pytest.raises(GameError, match="no move at"):
        nash_conv_exact(game, {})
    bad = {**minimax_profile(game), game.initial_state(): "z9"}
    with pytest.raises(GameError, match="not a legal move"):
        nash_conv_exact(game, bad)
