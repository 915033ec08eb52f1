"""When the Go program passes: the bug of the 5 s match against GNU Go (the program passed
in lost positions while GNU Go took the board) and the passes it must still make.

The cause: RAVE's statistics of the pass. The playouts never report the pass (every one
ends with two), so the pass's all-moves-as-first value was its prior alone (the virtual
visits of ``prior_visits``, worth about -0.67), washed out only by its own visits, while
every other move's fell with the real results to -1 in a lost position: the pass won the
ties of a lost position. Now an action the playouts never report (``Playouts.untraced``)
keeps its prior only until its first visit, then its own mean alone judges it.

The positions are real: replayed from the match's stored games (``tests/data/go/``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gamesearch.errors import InvalidLimitError
from gamesearch.games import get_game
from gamesearch.games.go import Go, GoState, fast
from gamesearch.search import Limit
from gamesearch.search.mcts import MCTS, amaf_update
from mcts_trees import node

pytestmark = pytest.mark.skipif(not fast.available(), reason="numba is not installed")

GAMES = json.loads((Path(__file__).parent / "data" / "go" / "gnugo5_games.json").read_text())
PROGRAM = {"rave": True, "prior_visits": 20.0, "c": 0.1}


def replayed(game: Go, number: str, plies: int) -> GoState:
    """The state of a stored game after ``plies`` moves (its whole history kept)."""
    state = game.initial_state()
    for move in GAMES["games"][number]["moves"][:plies]:
        state = game.result(state, game.parse_vertex(move))
    return state


def program_move(game: Go, state: GoState, iterations: int, seed: int, **extra: float
                 ) -> tuple[str, dict[str, dict[str, object]]]:
    searcher = MCTS(game, seed=seed, **PROGRAM, **extra)  # type: ignore[arg-type]
    r = searcher.search(state, Limit(nodes=iterations))
    children = {c["move"]: c for c in r.extra["root_children"]}
    return game.vertex(r.action), children


@pytest.mark.parametrize(("number", "ply"), [("5", 63), ("7", 65)])
def test_the_program_does_not_pass_in_the_lost_positions_of_the_match(number: str,
                                                                      ply: int) -> None:
    # the program (White) passed here in the match, GNU Go played on and took the board;
    # the position is lost (every playout), so the pass must not win the ties
    g = Go(9, 7.5)
    state = replayed(g, number, ply)
    assert GAMES["games"][number]["moves"][ply] == "pass" and state.to_move == 1
    for seed in (0, 1):
        move, children = program_move(g, state, 1500, seed)
        assert move != "pass"
        visits = sorted((int(c["visits"]), m) for m, c in children.items())  # type: ignore[call-overload]
        ranks = [m for _, m in reversed(visits)]
        assert ranks.index("pass") >= 5  # no longer a favourite either
        assert int(children["pass"]["visits"]) > 0  # type: ignore[call-overload]


def test_the_program_passes_to_end_a_won_game() -> None:
    # game 4 of the match (the program Black, won by 1.5): GNU Go has passed; the
    # program's pass ends the game with a win, as it did in the match
    g = Go(9, 7.5)
    state = replayed(g, "4", 70)
    assert state.passes == 1 and state.to_move == 0 and g.score(state) == 1.5
    for seed in (0, 1):
        move, _ = program_move(g, state, 1000, seed)
        assert move == "pass"


def test_the_program_passes_when_every_move_fills_its_own_eye() -> None:
    # White's only moves fill one of its own two eyes (Black then captures all fourteen
    # stones); passing keeps White's 12.5-point win
    g = Go(5, 7.5)
    state = g.parse_state("XXOOO/.XOO./XXOOO/.XOO./XXOOO w")
    assert sorted(g.legal_action_strings(state)) == ["E2", "E4", "pass"]
    for seed in (0, 1):
        move, children = program_move(g, state, 600, seed)
        assert move == "pass"
        assert children["E4"]["value"] is None or float(children["E4"]["value"]) < 0  # type: ignore[arg-type]


def test_amaf_update_leaves_the_untraced_actions_alone() -> None:
    root, child, grandchild = node(0, (9, 1, 2)), node(1, (9, 1)), node(0, (9, 2))
    root.children[0] = child
    child.children[0] = grandchild
    # the tree: player 0 passes (9), player 1 passes; the playout: player 0 plays 2
    amaf_update([root, child, grandchild], [0, 0], [(0, 2)], (1.0, -1.0), 2,
                frozenset({9}))
    assert root.amaf_n == [0, 0, 1] and child.amaf_n == [0, 0]
    amaf_update([root, child, grandchild], [0, 0], [(0, 2)], (1.0, -1.0), 2)
    assert root.amaf_n == [1, 0, 2] and child.amaf_n == [1, 0]  # without: counted


def test_go_declares_the_pass_untraced_and_its_margin() -> None:
    g = Go(5, 7.5)
    playouts = g.playouts()
    assert playouts is not None and playouts.untraced == frozenset({g.pass_action})
    assert playouts.margin is not None
    state = g.parse_state("XXOOO/.XOO./XXOOO/.XOO./XXOOO w")
    assert playouts.margin(state) == pytest.approx((10 - 15 - 7.5) / 25)
    wide = Go(5, -7.5)  # Black by 25 + 7.5 points: more than the board, clipped
    assert wide.playouts().margin(wide.parse_state("XXXXX/X.X.X/XXXXX/X.X.X/XXXXX w")) == 1.0  # type: ignore[union-attr,misc]


def test_a_playout_after_a_pass_ends_at_the_next_pass() -> None:
    # Black has passed; White has no move but its own eyes, so the playout's pass ends
    # the game at once (it used to start counting passes from zero and play on)
    g = Go(5, 7.5)
    state = g.result(g.parse_state("XXOOO/.XOO./XXOOO/.XOO./XXOOO b"), g.pass_action)
    assert state.passes == 1
    end, moves, plies = fast.kernels(g).run(state, random.Random(1), None)
    assert plies == 1 and int(moves[0]) == g.pass_action
    assert end.board == state.board and g.is_terminal(end)


def test_the_margin_option() -> None:
    g = Go(5, 7.5)
    # Black to move after White's pass: Black's pass ends the game, lost by 12.5 points;
    # with margin=0.1 the finished game is worth 0.9 * -1 + 0.1 * (-12.5 / 25) to Black
    state = g.result(g.parse_state("XXOOO/.XOO./XXOOO/.XOO./XXOOO w"), g.pass_action)
    searcher = MCTS(g, seed=1, margin=0.1, **PROGRAM)  # type: ignore[arg-type]
    r = searcher.search(state, Limit(nodes=200))
    passed = next(c for c in r.extra["root_children"] if c["move"] == "pass")
    assert passed["value"] == pytest.approx(0.9 * -1.0 + 0.1 * (-12.5 / 25))
    plain = MCTS(g, seed=1, **PROGRAM)  # type: ignore[arg-type]
    r = plain.search(state, Limit(nodes=200))
    passed = next(c for c in r.extra["root_children"] if c["move"] == "pass")
    assert passed["value"] == -1.0
    for game, options in ((g, {"margin": 1.0}), (g, {"margin": -0.1}),
                          (g, {"margin": 0.1, "wdl": True}),
                          (get_game("tictactoe"), {"margin": 0.1})):
        with pytest.raises(InvalidLimitError):
            MCTS(game, **options)  # type: ignore[arg-type]
