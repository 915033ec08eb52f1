"""An agent chooses its evaluation (issue 36, item 6): the search option ``evaluation=NAME``
asks the game for ``evaluation(NAME)``, so two seats of one game may search with different
evaluations (backgammon: the TD net against pubeval) where the game option
``backgammon:evaluator=`` made both seats share one.

Mutation seen caught: ``Searcher`` reading ``game.evaluation()`` whatever the option (the
agents' moves equal the default's, and the option's agent differs from the game option's).
"""

from __future__ import annotations

import random

import pytest

from cli_runner import cli
from gamesearch.agents import make_agent
from gamesearch.game import CHANCE, sample_outcome
from gamesearch.games import get_game


def positions(count: int) -> list[object]:
    """Backgammon decision nodes reached by random play (seeded), each with two moves or
    more."""
    game = get_game("backgammon")
    rng = random.Random(5)
    out: list[object] = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(2, 40)):
            if game.is_terminal(state):
                break
            if game.to_move(state) == CHANCE:
                state = game.result(state, sample_outcome(game, state, rng))
            else:
                state = game.result(state, rng.choice(list(game.actions(state))))
        if (not game.is_terminal(state) and game.to_move(state) != CHANCE
                and len(game.actions(state)) > 1):
            out.append(state)
    return out


def test_each_seat_chooses_its_evaluation() -> None:
    """One game object (the default evaluation, pips): an agent with ``evaluation=td``
    plays the moves of the agent on ``backgammon:evaluator=td`` (the game option, the
    independent path), and differs from the default's somewhere."""
    game = get_game("backgammon")
    td_game = get_game("backgammon:evaluator=td")
    by_option = make_agent(game, "expectiminimax:depth=1,evaluation=td")
    by_game = make_agent(td_game, "expectiminimax:depth=1")
    default = make_agent(game, "expectiminimax:depth=1")
    assert by_option.searcher.evaluation.name == "td"  # type: ignore[attr-defined]
    differs = 0
    for state in positions(12):
        move = by_option.choose(game, state)
        assert move == by_game.choose(td_game, state)
        differs += move != default.choose(game, state)
    assert differs > 0


def test_a_match_of_two_evaluations(tmp_path: object) -> None:
    """``gamesearch match`` pits the TD net against pubeval in one game."""
    code, out, err = cli(["match", "backgammon", "expectiminimax:depth=1,evaluation=td",
                          "expectiminimax:depth=1,evaluation=pubeval", "--games", "2",
                          "--seed", "1"])
    assert code == 0, err
    assert "evaluation=td" in out and "evaluation=pubeval" in out


@pytest.mark.parametrize(("spec", "words"), [
    ("backgammon", "expectiminimax:depth=1,evaluation=nope"),
    ("tictactoe", "alphabeta:depth=2,evaluation=td"),
    ("rolit:players=3", "paranoid:depth=1,evaluation=nope"),
    ("backgammon", "expectiminimax:depth=1,evaluation=a/b"),
])
def test_an_unknown_evaluation_is_one_line(spec: str, words: str) -> None:
    code, _out, err = cli(["analyze", spec, "--algorithm", words])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "evaluation" in err
