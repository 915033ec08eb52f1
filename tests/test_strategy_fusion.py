"""Where averaging errs: the road example (games/road.py). PIMC prefers road B, worth 10
in every clairvoyant world, but truly worth -45 from the traveller's information set; road
A (1) is the best move. The true values come from the information-set recursion
(``true_action_values``), checked here against the figures worked by hand."""

from __future__ import annotations

import random

from gamesearch.games.road import BUS, GOLD, JEWELS, Road, true_action_values
from gamesearch.search.pimc import explain, pimc


def _root_view():
    game = Road()
    state = game.result(game.initial_state(), "left")
    return game, game.observation().observe(state, 0)


def test_true_values_by_hand():
    game, view = _root_view()
    truth = true_action_values(game, game.observation().worlds(view), 0)
    assert truth == {"A": GOLD, "B": (JEWELS + BUS) / 2}
    # at the fork the traveller still guesses: each side is worth the same
    fork = game.observation().observe(game.result(("left", ()), "B"), 0)
    assert true_action_values(game, game.observation().worlds(fork), 0) == {
        "left": (JEWELS + BUS) / 2, "right": (JEWELS + BUS) / 2}


def test_pimc_chooses_the_wrong_road_by_strategy_fusion():
    game, view = _root_view()
    r = pimc(game, view, 0, worlds=8, rng=random.Random(2))
    truth = true_action_values(game, game.observation().worlds(view), 0)
    assert r.averages == {"A": GOLD, "B": JEWELS}  # clairvoyance in every world
    assert r.action == "B"
    assert max(truth, key=truth.__getitem__) == "A" and truth["B"] < truth["A"]
    text = explain(game, view, 0, r, truth)
    assert "PIMC plays B" in text and "the best move is A" in text
    assert "strategy fusion" in text and "-45.00" in text
