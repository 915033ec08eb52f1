"""The compiled Othello solver against the plain Python path: the same scores and moves.

The plain path (:func:`gamesearch.search.solve.solve` over the negamax engine with the
game's hooks) is the reference, run here live; the numba solver (``games/othello/compiled.py``:
Edax's endgame techniques on top of the same ordering) must give, position by position, the
same exact score and the same set of best moves, and its move must be one of them. Every
technique is switched off and on in turn (the tuning thresholds), so a wrong cut-off shows
up whichever one it is. The node counts differ by design; the FFO benchmark measures them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import GameError, InvalidPositionError, SearchTimeout
from gamesearch.games.othello import compiled
from gamesearch.games.othello.rules import OState, Othello
from gamesearch.search.solve import solve

np = compiled.np

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


def reference(state: OState, **kw: Any) -> dict[str, Any]:
    r = solve(GAME, state, **kw)
    return {"value": r.value, "moves": sorted(r.best_actions)}


def same(state: OState, ref: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """Solve both ways; assert the same value and best moves, the move among them."""
    fast = compiled.SOLVER.solve(state, best_moves=True, **kw)
    if ref is None:
        ref = reference(state, weak=kw.get("weak", False))
    where = GAME.format_state(state)
    assert fast["value"] == ref["value"], (where, fast, ref)
    assert sorted(fast["moves"]) == ref["moves"], (where, fast, ref)
    assert fast["move"] in ref["moves"], (where, fast, ref)
    return fast


#: Every FFO #1-#39 position played forward (seeded) to 9 empty squares; a seeded third of
#: them to 12.
SMALL = [forward(FFO[n][0], 9, random.Random(n)) for n in sorted(FFO)]
MEDIUM = [forward(FFO[n][0], 12, random.Random(100 + n))
          for n in sorted(random.Random(39).sample(sorted(FFO), 13))]

#: Each technique off (a threshold past the board), and each threshold at its extreme.
VARIANTS = [
    {},
    {"table": 64, "etc": 64, "stability": 64, "parity": 0},  # plain alpha-beta + ordering
    {"table": 64},
    {"etc": 64},
    {"etc": 2, "table": 1},
    {"stability": 64},
    {"stability": 2},
    {"parity": 64},
    {"parity": 0},
    {"grow": 2},
    {"grow": 8},
    {"guess": 0},
    {"guess": 4},  # the tests' positions have 9 and 12 empty squares: a guess that reaches
    {"guess": 9},  # their last 8 (3) squares, or none below 11
    {"guess": 6, "guess_first": 3},  # two guessing searches, their moves handed on
    {"guess": 6, "guess_first": 3, "seed": 0},
    {"guess": 4, "guess_first": 0, "seed": 1},
]


@pytest.fixture
def tuning() -> Any:
    saved = dict(compiled.SOLVER.tuning)
    yield compiled.SOLVER.tuning
    compiled.SOLVER.tuning.clear()
    compiled.SOLVER.tuning.update(saved)


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_same_as_the_python_solver_at_9_empties(index: int) -> None:
    same(SMALL[index])


@pytest.mark.parametrize("index", range(len(MEDIUM)))
def test_same_as_the_python_solver_at_12_empties(index: int) -> None:
    same(MEDIUM[index])


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_every_technique_on_and_off(variant: dict[str, int], tuning: Any) -> None:
    tuning.update(variant)
    refs = REFERENCE_MEDIUM
    for s, ref in zip(MEDIUM[:6], refs, strict=True):
        same(s, ref)
    for s in SMALL[::5]:
        same(s)


REFERENCE_MEDIUM = [reference(s) for s in MEDIUM[:6]]


def test_same_when_the_root_must_pass_and_in_weak_mode() -> None:
    passes = GAME.parse_state(
        "OOOOO-X-XOOOXXX-XOOOXXX-XOXOXOX-XXXOXXOXXOOOXOXOXXOOOXOO-OOOOOOO X")
    got = same(passes)
    assert got["moves"] == [64] and got["move"] == 64
    for s in SMALL[:10]:
        assert same(s, weak=True)["value"] in (-1, 0, 1)


def test_same_with_a_tiny_table_and_with_a_table_kept_from_solve_to_solve() -> None:
    # 16 slots: nearly every store replaces another key
    for s in MEDIUM[:4]:
        same(s, tt_capacity=16)
    compiled.SOLVER.solve(SMALL[0], tt_capacity=1 << 12)
    for s in SMALL[1:8] + MEDIUM[:2]:
        same(s, tt_capacity=1 << 12, keep_table=True)
    assert compiled.SOLVER.table_stats()["entries"] > 0


def test_scores_and_best_moves_on_a_sample_of_ffo_1_39() -> None:
    for n in [*sorted(random.Random(1939).sample(range(1, 24), 8)), 20]:
        state, score, best = FFO[n]
        got = compiled.SOLVER.solve(state, best_moves=True)
        assert got["value"] == score, n
        assert {GAME.format_action(state, a) for a in got["moves"]} == best, n
        assert GAME.format_action(state, got["move"]) in best


def test_stable_discs_are_never_flipped() -> None:
    """The stability bound's premise: the discs :func:`_stable_count` counts keep their
    colour through random games (50 positions x 20 playouts), and the count is not idle
    (corners and full edges are found)."""
    rng = random.Random(5)
    found = 0
    for _ in range(50):
        state = forward(GAME.initial_state(), rng.randrange(4, 40), rng)
        for _ in range(20):
            p, o, side, _ = state
            black = p if side == 0 else o
            white = o if side == 0 else p
            stable_black = stable_discs(black, white)
            assert compiled._stable_count(np.uint64(black), np.uint64(white)) == \
                stable_black.bit_count()
            found += stable_black.bit_count()
            end = compiled.fast_playout(state, rng, None)
            final_black = end[0] if end[2] == 0 else end[1]
            assert stable_black & ~final_black == 0, GAME.format_state(state)
            state = forward(state, max(0, 64 - (p | o).bit_count() - rng.randrange(1, 6)),
                            rng) if not GAME.is_terminal(state) else state
    assert found > 0


def stable_discs(own: int, other: int) -> int:
    """Which discs of ``own`` the compiled count counts, as a Python bitboard: the same
    fixed point written out square by square (the line through a square in direction d
    is safe when full, or when the square is on the border that way, or when the
    neighbour on it is stable)."""
    occ = own | other
    dirs = ((0, 1), (1, 0), (1, 1), (1, -1))

    def line_full(sq: int, dr: int, dc: int) -> bool:
        r, c = divmod(sq, 8)
        for sign in (1, -1):
            rr, cc = r, c
            while 0 <= rr < 8 and 0 <= cc < 8:
                if not occ >> (rr * 8 + cc) & 1:
                    return False
                rr, cc = rr + sign * dr, cc + sign * dc
        return True

    stable = 0
    while True:
        grown = stable
        for sq in range(64):
            if not own >> sq & 1 or grown >> sq & 1:
                continue
            r, c = divmod(sq, 8)
            ok = True
            for dr, dc in dirs:
                if line_full(sq, dr, dc):
                    continue
                ends = [(r + dr, c + dc), (r - dr, c - dc)]
                if any(not (0 <= rr < 8 and 0 <= cc < 8) for rr, cc in ends):
                    continue
                if any(stable >> (rr * 8 + cc) & 1 for rr, cc in ends):
                    continue
                ok = False
                break
            if ok:
                grown |= 1 << sq
        if grown == stable:
            return stable
        stable = grown


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


# ----- compiled random playouts (the game's playouts() capability) ---------------------------
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
    playouts = GAME.playouts()
    assert playouts is not None and playouts.compiled is compiled.fast_playout
    playout = playouts.compiled
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
