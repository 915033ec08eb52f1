"""The Connect Four solver against Pons's reference scores (tests/data/connect4).

`make test` solves a fixed sample of at least 200 positions per R1 set and small samples of
the harder sets; `benchmarks/connect4.py --all` solves the whole sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamesearch import get_game, make_searcher
from gamesearch.search.solve import solve

DATA = Path(__file__).resolve().parent / "data" / "connect4"


def sample(name: str, every: int, limit: int | None = None) -> list[tuple[str, int]]:
    path = DATA / name
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    picked = [(moves, int(score)) for moves, score in rows[::every]]
    return picked[:limit] if limit else picked


GAME = get_game("connect4")


def pons_mean_nodes() -> dict[str, float]:
    rows = (DATA / "pons_reference.csv").read_text().splitlines()[1:]
    return {r.split(",")[0]: float(r.split(",")[2]) for r in rows}


@pytest.mark.parametrize(("name", "every"), [
    ("Test_L3_R1", 1),  # all 1000 positions
    ("Test_L2_R1", 1),  # all 1000
    ("Test_L1_R1", 5),  # 200 (the whole set: benchmarks/connect4.py)
    ("Test_L2_R2", 100),  # 10
])
def test_solver_gives_the_reference_scores(name: str, every: int) -> None:
    wrong = []
    nodes = 0
    rows = sample(name, every)
    for moves, score in rows:
        got = solve(GAME, GAME.parse_state(moves), best_moves=False)
        nodes += got.nodes
        if got.value != score:
            wrong.append((moves, score, got.value))
    assert wrong == []
    if len(rows) == 1000:
        # Node efficiency (not speed): explored nodes per position within 1.2x of the mean
        # of Pons's solver on the same whole set (pons_reference.csv, same convention).
        assert nodes / len(rows) <= 1.2 * pons_mean_nodes()[name], nodes / len(rows)


def test_weak_solve_gives_the_sign() -> None:
    for moves, score in sample("Test_L2_R1", 40):
        got = solve(GAME, GAME.parse_state(moves), weak=True, best_moves=False)
        assert got.value == (score > 0) - (score < 0), moves


def test_best_moves_keep_the_score() -> None:
    """After a best move the opponent's score is the negative of ours (Pons's negamax)."""
    for moves, score in sample("Test_L2_R1", 100):
        state = GAME.parse_state(moves)
        got = solve(GAME, state)
        assert got.value == score
        for a in got.best_actions:
            child = GAME.result(state, a)
            if GAME.is_terminal(child):
                assert score > 0
                continue
            assert solve(GAME, child, best_moves=False).value == -score, (moves, a)


def test_plain_alphabeta_to_the_end_agrees_with_the_reference() -> None:
    """Issue 3's independent check: textbook alpha-beta, no hooks, no table."""
    for moves, score in sample("Test_L3_R1", 5):
        state = GAME.parse_state(moves)
        r = make_searcher(GAME, "alphabeta").search(state)
        assert GAME.exact_score(state, r.value) == score, moves
        assert (r.value > 0) == (score > 0) and (r.value < 0) == (score < 0)


def test_textbook_scores_of_the_readme() -> None:
    assert solve(GAME, GAME.parse_state("4455")).value == 18
    assert solve(GAME, GAME.parse_state("44455554221")).value == -15


def test_solver_agent_converts_won_positions() -> None:
    """From won positions the solver agent never lets the win go, against any opponent."""
    from gamesearch.agents import make_agent, play_game

    won = [(m, s) for m, s in sample("Test_L2_R1", 50) if s > 0][:4]
    assert won
    for moves, _ in won:
        state = GAME.parse_state(moves)
        me = GAME.to_move(state)
        for opponent in ("random:seed=1", "alphabeta:depth=4"):
            agents = [make_agent(GAME, "solver:time=5"), make_agent(GAME, opponent, 1.0)]
            if me == 1:
                agents.reverse()
            final, _ = play_game(GAME, agents, state)
            assert GAME.utility(final, me) > 0, (moves, opponent)


def test_a_reused_solver_table_gives_the_same_answers() -> None:
    """Regression: best-move probes must not store bounds under the position's key, and an
    early end at the root must not report a move."""
    from gamesearch.search.solve import make_solver

    engine = make_solver(GAME)
    for moves, score in sample("Test_L2_R1", 10)[:60]:
        state = GAME.parse_state(moves)
        first = solve(GAME, state, solver=engine, best_moves=True)
        again = solve(GAME, state, solver=engine, best_moves=False)
        assert first.value == again.value == score, moves
        assert again.action in first.best_actions, moves
