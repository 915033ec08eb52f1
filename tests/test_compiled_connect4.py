"""The compiled Connect Four solver against the Python reference: same scores, same nodes.

The plain Python path (``gamesearch.search.solve`` over the negamax engine) is the reference;
the numba path must give, position by position, the file's exact score and exactly the
Python path's node count (and the same move). The Python path is run here, live, so any
change to the engine that the compiled path does not follow fails these tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import GameError, InvalidPositionError, UnsupportedGameError
from gamesearch.games import numba_support
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.connect4 import compiled as cc
from gamesearch.search.common import SearchResult
from gamesearch.search.solve import make_solver, solve

DATA = Path(__file__).resolve().parent / "data" / "connect4"
GAME = ConnectFour()

needs_numba = pytest.mark.skipif(
    not cc.available(),
    reason="NUMBA IS NOT INSTALLED: the compiled Connect Four solver is NOT TESTED "
    "(pip install -e '.[dev]' or '.[fast]')",
)

#: 20 fixed lines (0-based) of Test_L2_R2: ranks 25, 50, ..., 500 by node count (the
#: easier half of the set, up to its median), so that the Python reference stays ~5 s.
L2_R2_LINES = (59, 214, 257, 261, 318, 336, 361, 372, 481, 497,
               514, 553, 556, 561, 577, 602, 652, 719, 868, 874)


def lines(name: str, which: range | tuple[int, ...]) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(rows[i][0], int(rows[i][1])) for i in which]


def record(r: SearchResult) -> dict[str, Any]:
    """The generic solver's result in the compiled solver's terms."""
    return {"value": r.value, "move": r.action, "moves": r.best_actions, "nodes": r.nodes}


def reference(moves: str, **kw: Any) -> dict[str, Any]:
    tt = kw.pop("tt_capacity", 1 << 22)
    return record(solve(GAME, GAME.parse_state(moves), solver=make_solver(GAME, tt), **kw))


def same(moves: str, **kw: Any) -> dict[str, Any]:
    """Solve both ways; assert identical value, move(s) and node count; the compiled result."""
    kw.setdefault("best_moves", False)
    fast = cc.solve_fast(moves, **kw)
    ref = reference(moves, **kw)
    for key in ("value", "move", "moves", "nodes"):
        assert fast[key] == ref[key], (moves, key, fast[key], ref[key])
    return fast


SAMPLES = [
    ("Test_L3_R1", range(100)),
    ("Test_L2_R1", range(100)),
    ("Test_L1_R1", range(100)),
    ("Test_L2_R2", L2_R2_LINES),
]


@needs_numba
@pytest.mark.parametrize(("name", "which"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_exact_scores_and_identical_node_counts(name: str, which: Any) -> None:
    for moves, score in lines(name, which):
        got = same(moves, best_moves=False)
        assert got["value"] == score, (name, moves)


@needs_numba
@pytest.mark.parametrize(("name", "which"), [
    ("Test_L3_R1", range(0, 100, 4)),
    ("Test_L2_R1", range(0, 100, 4)),
    # a weak solve can take far more nodes than the strong one (line 40: 353k vs 7k), so
    # the lines of the first 100 whose weak solve is small:
    ("Test_L1_R1", (10, 30, 60, 70, 80, 90)),
], ids=["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_weak_signs_and_identical_node_counts(name: str, which: Any) -> None:
    for moves, score in lines(name, which):
        got = same(moves, weak=True, best_moves=False)
        assert got["value"] == (score > 0) - (score < 0), (name, moves)


@needs_numba
def test_best_moves_identical() -> None:
    for name, which in (("Test_L3_R1", range(20)), ("Test_L2_R1", range(20)),
                        ("Test_L1_R1", range(10))):
        for moves, score in lines(name, which):
            assert same(moves, best_moves=True)["value"] == score
    for moves, _ in lines("Test_L2_R1", range(10)):
        same(moves, weak=True, best_moves=True)


@needs_numba
@pytest.mark.parametrize("capacity", [1, 64, 1024])
def test_tiny_tables_clear_identically(capacity: int) -> None:
    """A table that fills up is emptied at the same moments: the node counts still agree."""
    resets = 0
    for moves, score in lines("Test_L2_R1", range(30)) + lines("Test_L1_R1", range(3)):
        assert same(moves, tt_capacity=capacity, best_moves=False)["value"] == score
        resets += cc.last_table_stats()["resets"]
    assert resets > 0  # the clearing policy was exercised


@needs_numba
def test_kept_table_like_one_engine_for_a_sequence() -> None:
    """keep_table=True is one solver engine reused: the same warm table, the same counts."""
    engine = make_solver(GAME, 1 << 12)
    for i, (moves, score) in enumerate(lines("Test_L2_R1", range(40))
                                       + lines("Test_L1_R1", range(5))):
        fast = cc.solve_fast(moves, tt_capacity=1 << 12, keep_table=i > 0,
                             best_moves=i % 3 == 0)
        ref = record(solve(GAME, GAME.parse_state(moves), solver=engine,
                           best_moves=i % 3 == 0))
        assert (fast["value"], fast["moves"], fast["nodes"]) == (score, ref["moves"],
                                                                 ref["nodes"]), moves


@needs_numba
def test_small_positions_and_inputs() -> None:
    for moves in ["4455", "44455554221", "33445", "2252576253462244111563365343671351441",
                  "444444333333222222", "4444443333332222"]:
        same(moves, best_moves=True)
        same(moves, weak=True)  # (weak best moves of an early position: a long search)
    # a win at once is found before any search: no node
    assert cc.solve_fast("4455")["value"] == 18
    assert cc.solve_fast("112233")["nodes"] == 0
    # a state works as well as a move string
    assert cc.solve_fast(GAME.parse_state("4455"))["value"] == 18


@needs_numba
def test_bad_inputs() -> None:
    with pytest.raises(InvalidPositionError):
        cc.solve_fast("4448")
    with pytest.raises(GameError, match="already over"):
        cc.solve_fast("1212121")
    with pytest.raises(GameError):
        cc.solve_fast(42)  # type: ignore[arg-type]
    # states that are not positions are refused before any search
    for bad in [(0, 0b101, 2, 0.0),  # a gap in column 1
                (0b11, 0b11, 2, 0.0),  # the side to move has both stones
                (0, 0b1, 2, 0.0),  # one stone, two counted
                (1 << 6, 1 << 6, 1, 0.0)]:  # a stone on a sentinel
        with pytest.raises(InvalidPositionError):
            cc.solve_fast(bad)
    with pytest.raises(GameError, match="already over"):
        cc.solve_fast(GAME.parse_state("1212121"))


def test_without_numba_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numba_support, "njit", None)  # as if numba did not import
    assert not cc.available()
    with pytest.raises(UnsupportedGameError, match="numba"):
        cc.solve_fast("4455")
