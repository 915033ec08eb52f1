"""SO-ISMCTS (search/ismcts.py) and OpenSpiel's ISMCTSBot at our table."""

from __future__ import annotations

import random

import pytest

from gamesearch.agents import make_agent, play_game
from gamesearch.errors import UnsupportedGameError
from gamesearch.games import get_game
from gamesearch.games.road import Road
from gamesearch.search.ismcts import ismcts
from gamesearch.search.pimc import pimc


def test_ismcts_takes_the_safe_road_where_pimc_errs():
    """One tree over the information set: at the fork both worlds share a node, so road B
    backs up about (10 - 100) / 2, below road A's 1; PIMC's clairvoyant worlds say 10."""
    game = Road()
    view = game.observation().observe(game.result(game.initial_state(), "right"), 0)
    r = ismcts(game, view, 0, iterations=2000, rng=random.Random(1))
    assert r.action == "A"
    assert r.means["B"] < 0 < r.means["A"]
    assert pimc(game, view, 0, worlds=10, rng=random.Random(1)).action == "B"


def test_ismcts_refuses_perfect_information_and_plays_ohhell_from_views():
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        make_agent(get_game("tictactoe"), "ismcts")
    game = get_game("ohhell")
    agents = [make_agent(game, "ismcts:iterations=50,seed=1"),
              make_agent(game, "random:seed=2"), make_agent(game, "ismcts:iterations=30")]
    final, moves = play_game(game, agents, rng=random.Random(3))
    assert game.is_terminal(final) and len(moves) == 23


def test_openspiel_ismcts_bot_at_our_table():
    pytest.importorskip("pyspiel", reason="open_spiel (the dev extra) is the opponent")
    from gamesearch.arena.openspiel_ohhell import OpenSpielIsmcts

    game = get_game("ohhell")
    for seed in range(3):
        agents = [OpenSpielIsmcts(50, seed=seed), make_agent(game, "random:seed=1"),
                  OpenSpielIsmcts(30, seed=seed + 7)]
        final, _ = play_game(game, agents, rng=random.Random(seed))
        assert game.is_terminal(final)
    with pytest.raises(UnsupportedGameError, match="seat's view"):
        OpenSpielIsmcts(10).choose(game, final)
