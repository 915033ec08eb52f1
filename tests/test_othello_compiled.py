"""The compiled Othello solver against the Python reference: same scores, moves and nodes.

The plain Python path (:func:`gamesearch.search.solve.solve` over the negamax engine with the
game's hooks) is the reference; the numba path (``games/othello/compiled.py``) must give,
position by position, the same value, the same move, the same best-move set AND the same
node count. The Python path runs here, live, so a change to the engine or to the game's
ordering that the compiled path does not follow fails these tests.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import GameError, InvalidPositionError, SearchTimeout
from gamesearch.games.othello import compiled
from gamesearch.games.othello.rules import OState, Othello
from gamesearch.search.solve import Solver, solve

DATA = Path(__file__).resolve().parent / "data" / "othello"
GAME = Othello()

pytestmark = pytest.mark.skipif(
    not compiled.available(),
    reason="NUMBA IS NOT INSTALLED: the compiled Othello solver is NOT TESTED "
    "(pip install -e '.[dev]' or '.[fast]')")


def suite() -> dict[int, tuple[OState, int, set[str]]]:
    out = {}
    for line in (DATA / "ffo_1_39.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            out[int(f[0])] = (GAME.parse_state(f"{f[2]} {f[3]}"), int(f[4]),
                              set(f[5].lower().split(",")))
    return out


FFO = suite()


def forward(state: OState, empties: int, rng: random.Random) -> OState:
    """``state`` after random moves, down to ``empties`` empty squares (or the last
    position before the game ends)."""
    while 64 - (state[0] | state[1]).bit_count() > empties:
        child = GAME.result(state, rng.choice(GAME.actions(state)))
        if GAME.is_terminal(child):
            break
        state = child
    return state


def reference(state: OState, solver: Solver | None = None, **kw: Any) -> dict[str, Any]:
    r = solve(GAME, state, solver=solver, **kw)
    return {"value": r.value, "move": r.action, "moves": r.best_actions, "nodes": r.nodes}


def same(state: OState, solver: Solver | None = None, **kw: Any) -> dict[str, Any]:
    """Solve both ways; assert the same value, move(s) and node count."""
    best = kw.pop("best_moves", True)
    fast_kw = dict(kw)
    if solver is not None:
        fast_kw["tt_capacity"] = solver.table.size
    fast = compiled.SOLVER.solve(state, best_moves=best, **fast_kw)
    kw.pop("keep_table", None)
    ref = reference(state, solver, best_moves=best, **kw)
    for key in ("value", "move", "moves", "nodes"):
        assert fast[key] == ref[key], (GAME.format_state(state), key, fast[key], ref[key])
    return fast


#: Every FFO #1-#39 position played forward (seeded) to 9 empty squares; a seeded third of
#: them to 12.
SMALL = [forward(FFO[n][0], 9, random.Random(n)) for n in sorted(FFO)]
MEDIUM = [forward(FFO[n][0], 12, random.Random(100 + n))
          for n in sorted(random.Random(39).sample(sorted(FFO), 13))]


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_identical_to_the_python_solver_at_9_empties(index: int) -> None:
    same(SMALL[index])


@pytest.mark.parametrize("index", range(len(MEDIUM)))
def test_identical_to_the_python_solver_at_12_empties(index: int) -> None:
    same(MEDIUM[index], best_moves=False)


def test_identical_when_the_root_must_pass_and_in_weak_mode() -> None:
    passes = GAME.parse_state(
        "OOOOO-X-XOOOXXX-XOOOXXX-XOXOXOX-XXXOXXOXXOOOXOXOXXOOOXOO-OOOOOOO X")
    got = same(passes)
    assert got["moves"] == [64] and got["move"] == 64
    for s in SMALL[:10]:
        assert same(s, weak=True)["value"] in (-1, 0, 1)


def test_identical_with_a_small_table_that_fills_up() -> None:
    # 256 entries: the table is emptied many times in each solve, as the engine's dict is
    for s in MEDIUM[:4]:
        same(s, solver=Solver(GAME, tt=256), best_moves=False)
        assert compiled.SOLVER.table_stats()["resets"] > 0


def test_identical_with_a_table_kept_from_solve_to_solve() -> None:
    solver = Solver(GAME, tt=1 << 12)
    compiled.SOLVER.solve(SMALL[0], tt_capacity=1 << 12, best_moves=True)  # fresh, then kept
    solver.solve(SMALL[0])
    for s in SMALL[1:6] + MEDIUM[:2]:
        same(s, solver=solver, keep_table=True)


def test_scores_and_best_moves_on_a_sample_of_ffo_1_39() -> None:
    for n in [*sorted(random.Random(1939).sample(range(1, 24), 8)), 20]:
        state, score, best = FFO[n]
        got = compiled.SOLVER.solve(state, best_moves=True)
        assert got["value"] == score, n
        assert {GAME.format_action(state, a) for a in got["moves"]} == best, n
        assert GAME.format_action(state, got["move"]) in best


def test_node_budget_and_bad_input() -> None:
    s = MEDIUM[0]
    with pytest.raises(SearchTimeout):
        compiled.SOLVER.solve(s, max_nodes=50)
    full = compiled.SOLVER.solve(s)
    assert compiled.SOLVER.solve(s, max_nodes=full["nodes"])["value"] == full["value"]
    with pytest.raises(GameError, match="already over"):
        compiled.SOLVER.solve("X" * 27 + "XX------XX" + "-" * 27 + " O")
    with pytest.raises(InvalidPositionError):
        compiled.SOLVER.solve((1, 2))  # type: ignore[arg-type]
    assert GAME.fast_solver() is compiled.SOLVER
    text = GAME.format_state(SMALL[0])
    assert compiled.SOLVER.solve(text)["value"] == compiled.SOLVER.solve(SMALL[0])["value"]


# ----- compiled random playouts (the game's fast_playout hook) ------------------------------
def exact_outcomes(state: OState) -> dict[float, float]:
    """The distribution of the final score (black's) under uniformly random play."""
    if GAME.is_terminal(state):
        return {GAME.utility(state, 0): 1.0}
    out: dict[float, float] = {}
    moves = GAME.actions(state)
    for a in moves:
        for u, p in exact_outcomes(GAME.result(state, a)).items():
            out[u] = out.get(u, 0.0) + p / len(moves)
    return out


def test_fast_playouts_follow_the_random_policy() -> None:
    playout = GAME.fast_playout()
    assert playout is compiled.fast_playout
    # FFO #20 (6 empties): the exact distribution of the final score against 20,000 playouts
    state = FFO[20][0]
    exact = exact_outcomes(state)
    rng = random.Random(7)
    seen: dict[float, int] = {}
    for _ in range(20_000):
        end = playout(state, rng, None)
        assert GAME.is_terminal(end)
        u = GAME.utility(end, 0)
        seen[u] = seen.get(u, 0) + 1
    distance = sum(abs(seen.get(u, 0) / 20_000 - p) for u, p in exact.items()) / 2
    assert set(seen) <= set(exact) and distance < 0.02, (distance, exact, seen)
    # seeded: the same playout again; max_plies: stops there, a state like any other
    assert playout(state, random.Random(3), None) == playout(state, random.Random(3), None)
    start = GAME.initial_state()
    for plies in (0, 1, 5, 20):
        s = playout(start, random.Random(plies), plies)
        assert (s[0] | s[1]).bit_count() == 4 + plies and s[2] == plies % 2
        assert s == GAME.parse_state(GAME.format_state(s))
    passing = GAME.parse_state(
        "OOOOO-X-XOOOXXX-XOOOXXX-XOXOXOX-XXXOXXOXXOOOXOXOXXOOOXOO-OOOOOOO X")
    assert playout(passing, random.Random(1), 1) == GAME.result(passing, 64)
