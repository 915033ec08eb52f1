"""Exact scores in the Connect Four opening book (issue 36, web item 2): the package's book
against Pons's published scores after one move, the quick scores of the web API, and the
pieces that made them: the solvers' ``bounds`` option and single null-window tests (the
compiled path node for node against the plain Python one, the scores against a full
strong solve and the reference test sets), and ``upgrade_book`` with its journal.

The independent truths: Pons's table of the empty board's seven moves (Pascal Pons,
"Solving Connect 4", part 12, and his online solver: -2 -1 0 1 0 -1 -2 for the side that
moves), and the scores of his test sets in ``tests/data/connect4``.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import GameError, InvalidLimitError
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.connect4 import compiled as cc
from gamesearch.games.connect4.book import (
    BookError,
    OpeningBook,
    canonical,
    default_book,
    state_of_key,
    upgrade_book,
)
from gamesearch.interfaces.cli import main
from gamesearch.search.solve import make_solver

DATA = Path(__file__).resolve().parent / "data" / "connect4"
GAME = ConnectFour()
#: Pons's scores of the empty board's moves, columns 1 to 7, for the player who moves.
PONS_FIRST_MOVES = (-2, -1, 0, 1, 0, -1, -2)

needs_numba = pytest.mark.skipif(
    not cc.available(),
    reason="NUMBA IS NOT INSTALLED: the compiled solver's bounds are NOT TESTED "
    "(pip install -e '.[dev]')",
)


def rows(name: str, count: int, start: int = 0) -> list[tuple[str, int]]:
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(m, int(s)) for m, s in lines[start:start + count]]


# ----- the package's book -------------------------------------------------------------------
def test_the_package_book_has_pons_exact_scores_after_one_move() -> None:
    book = default_book()
    root = GAME.initial_state()
    for c, pons in enumerate(PONS_FIRST_MOVES):
        entry = book.lookup(GAME.result(root, c))
        assert entry is not None and entry.exact, (c + 1, entry)
        assert -entry.score == pons, (c + 1, entry)  # the mover's score: minus the child's
    entry = book.lookup(root)
    assert entry is not None and entry.exact and entry.score == max(PONS_FIRST_MOVES)
    assert entry.move == PONS_FIRST_MOVES.index(max(PONS_FIRST_MOVES))
    upgrade = book.meta["upgrade"]  # how the exact entries were made, and what they cost
    assert upgrade["command"].startswith("gamesearch book connect4 --upgrade")
    tested = [p for p in upgrade["positions"].values() if "tests" in p]
    assert tested and all(p["nodes"] > 0 and p["cpu_seconds"] > 0 for p in tested)


def test_the_package_book_is_exact_after_the_centre_opening() -> None:
    """The positions after 4 and each reply are exact too (``--plies 3``), and the entry of
    the position after 4 is the negamax of theirs: minus the best of them."""
    book = default_book()
    after4 = GAME.result(GAME.initial_state(), 3)
    replies = [book.lookup(GAME.result(after4, c)) for c in GAME.actions(after4)]
    assert all(e is not None and e.exact for e in replies), replies
    entry = book.lookup(after4)
    assert entry is not None and entry.exact
    assert entry.score == max(-e.score for e in replies if e is not None) == -1


def test_quick_scores_of_the_empty_board_come_from_the_book() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from gamesearch.interfaces.web.app import create_app

    data = TestClient(create_app()).get(
        "/api/scores", params={"game": "connect4", "quick": "1"}).json()
    assert [s["move"] for s in data["scores"]] == [str(c) for c in range(1, 8)]
    assert [s["score"] for s in data["scores"]] == list(PONS_FIRST_MOVES)
    assert {s["source"] for s in data["scores"]} == {"book"}
    assert data["complete"] is True


# ----- bounds and single tests: compiled against plain, node for node -----------------------
def known(score: int) -> tuple[int, int]:
    """What a weak solve proves of ``score``: its sign's side of Pons's window."""
    return (1, 21) if score > 0 else (-21, -1) if score < 0 else (0, 0)


@needs_numba
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_bounded_solves_identical_nodes_and_exact_scores(name: str) -> None:
    """``bounds`` from the weak result: the file's score, the compiled node count equal to
    the plain solver's, and fewer nodes in all than the unbounded solves."""
    bounded = unbounded = 0
    for moves, score in rows(name, 25):
        bounds = known(score)
        fast = cc.solve_fast(moves, bounds=bounds, tt_capacity=1 << 16)
        plain = make_solver(GAME, 1 << 16).solve(GAME.parse_state(moves), bounds=bounds,
                                                 best_moves=False)
        assert fast["value"] == plain.value == score, (moves, fast, plain.value)
        assert fast["nodes"] == plain.nodes, (moves, fast["nodes"], plain.nodes)
        full = cc.solve_fast(moves, tt_capacity=1 << 16)
        assert full["value"] == score
        bounded += fast["nodes"]
        unbounded += full["nodes"]
    assert bounded < unbounded, (bounded, unbounded)


@needs_numba
def test_null_window_tests_identical_nodes_on_a_kept_table() -> None:
    """A sequence of tests on one table (as the book's upgrade runs them): the same answer,
    bound, move and nodes both ways; the answer agrees with the file's score."""
    solver = make_solver(GAME, 1 << 14)  # small: the table fills and is emptied identically
    first = True
    for moves, score in rows("Test_L2_R1", 12) + rows("Test_L3_R1", 8):
        for t in (score - 1, score, 0, -3):
            plain = solver.null_window(GAME.parse_state(moves), t)
            fast = cc.null_window_fast(moves, t, tt_capacity=1 << 14, keep_table=not first)
            first = False
            assert (fast["above"], fast["bound"], fast["move"], fast["nodes"]) == (
                plain.above, plain.bound, plain.action, plain.nodes), (moves, t)
            assert fast["above"] == (score > t), (moves, t, score)
            assert fast["bound"] > t if fast["above"] else fast["bound"] <= t
            assert (score >= fast["bound"]) if fast["above"] else (score <= fast["bound"])
            if fast["move"] is not None:  # it proves the bound: after it, at most -bound
                after = GAME.result(GAME.parse_state(moves), fast["move"])
                if not GAME.is_terminal(after):  # (the plain solver: the compiled table stays)
                    value = make_solver(GAME, 1 << 16).solve(after, best_moves=False).value
                    assert value <= -fast["bound"], (moves, t, fast)


@needs_numba
def test_bad_bounds_and_tests_say_so() -> None:
    with pytest.raises(InvalidLimitError, match="bounds"):
        cc.solve_fast("4", bounds=(2, 1))
    with pytest.raises(InvalidLimitError, match="bounds"):
        cc.solve_fast("4", bounds=(0,))  # type: ignore[arg-type]
    with pytest.raises(InvalidLimitError, match="null-window"):
        cc.null_window_fast("4", 1.5)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="bounds"):
        make_solver(GAME, 1 << 10).solve(GAME.parse_state("4"), bounds=(1, -1))
    with pytest.raises(GameError, match="over"):
        cc.null_window_fast("4455667", 0)


# ----- upgrade_book ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def weak_entries() -> tuple[dict[int, tuple[int, int, bool]], dict[int, int]]:
    """Weak entries (a sign and a move that keeps it) for positions of a test set and their
    children, and {key: the exact score, from the solver}."""
    entries: dict[int, tuple[int, int, bool]] = {}
    truth: dict[int, int] = {}
    for moves, _ in rows("Test_L2_R1", 4) + rows("Test_L2_R2", 2):
        state = GAME.parse_state(moves)
        for s in [state] + [GAME.result(state, c) for c in GAME.actions(state)]:
            if GAME.is_terminal(s):
                continue
            key, mirrored = canonical(s)
            weak = cc.solve_fast(s, weak=True, tt_capacity=1 << 16)
            entries[key] = (weak["value"], 6 - weak["move"] if mirrored else weak["move"],
                            False)
            truth[key] = cc.solve_fast(s, tt_capacity=1 << 16)["value"]
    return entries, truth


def small_weak_book(path: Path) -> dict[int, int]:
    """:func:`weak_entries` saved as a book at ``path``; the exact scores."""
    entries, truth = weak_entries()
    OpeningBook.from_entries(entries, {"game": "connect4"}).save(path)
    return truth


@needs_numba
def test_upgrade_makes_weak_entries_exact_with_best_moves(tmp_path: Path) -> None:
    truth = small_weak_book(tmp_path / "weak.bin")
    logged: list[str] = []
    book = upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "exact.bin",
                        tt_capacity=1 << 16, log=logged.append, command="test")
    assert len(book) == len(truth)
    backed = 0
    for key, entry in book.entries():
        assert entry.exact and entry.score == truth[key], (key, entry, truth[key])
        best = cc.solve_fast(state_of_key(key), best_moves=True, tt_capacity=1 << 16)
        assert entry.move in best["moves"], (key, entry, best)
    positions = book.meta["upgrade"]["positions"]
    backed = sum(1 for p in positions.values() if p.get("how") == "backed up from the children")
    assert backed >= 3  # the test-set positions: each child is in the book
    draws = [k for k, s in truth.items() if s == 0]
    assert draws  # (a weak draw is exact with no test at all)
    assert any(line.startswith("test ") for line in logged)
    journal = (tmp_path / "exact.bin.upgrade").read_text().splitlines()
    assert len(journal) == sum(len(p.get("tests", [])) for p in positions.values())


@needs_numba
def test_upgrade_resumes_from_its_journal(tmp_path: Path) -> None:
    small_weak_book(tmp_path / "weak.bin")
    whole = upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "a.bin", tt_capacity=1 << 16)
    lines = (tmp_path / "a.bin.upgrade").read_text().splitlines()
    # a build killed after three tests: its journal holds them; the next run starts there
    (tmp_path / "b.bin.upgrade").write_text("".join(line + "\n" for line in lines[:3]))
    stopped = upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "b.bin",
                           tt_capacity=1 << 16, max_seconds=1e-9)
    assert sum(not e.exact for _, e in stopped.entries()) > 0
    assert (tmp_path / "b.bin.upgrade").read_text().splitlines() == lines[:3]
    again = upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "b.bin", tt_capacity=1 << 16)
    assert [(k, e.score) for k, e in again.entries()] == [
        (k, e.score) for k, e in whole.entries()]
    resumed = (tmp_path / "b.bin.upgrade").read_text().splitlines()
    # (the tests after the three may differ from the first run's: another table state
    # gives other fail-soft bounds, so other next tests; the scores are the same)
    assert resumed[:3] == lines[:3] and len(resumed) > 3
    # a finished upgrade run again: nothing new is searched, the same book comes out
    third = upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "b.bin", tt_capacity=1 << 16)
    assert list(third.words) == list(again.words)
    assert (tmp_path / "b.bin.upgrade").read_text().splitlines() == resumed


@needs_numba
def test_upgrade_from_the_command_line_and_bad_journals(tmp_path: Path) -> None:
    truth = small_weak_book(tmp_path / "weak.bin")
    out = io.StringIO()
    assert main(["book", "connect4", "--upgrade", str(tmp_path / "weak.bin"), "--plies", "42",
                 "--tt", "65536", "--out", str(tmp_path / "x.bin")], out) == 0
    book = OpeningBook.load(tmp_path / "x.bin")
    assert all(e.exact and e.score == truth[k] for k, e in book.entries())
    (tmp_path / "y.bin.upgrade").write_text("test 44 nonsense\n")
    with pytest.raises(BookError, match="line 1"):
        upgrade_book(tmp_path / "weak.bin", 43, tmp_path / "y.bin", tt_capacity=1 << 16)


def test_a_weak_draw_counts_as_exact_in_a_build(tmp_path: Path) -> None:
    """Pons's score of a draw is 0: a weak solve that finds a draw has found the score."""
    from gamesearch.games.connect4.book import _solve_one

    def weak_only(state: Any, *, weak: bool, **_: Any) -> dict[str, Any]:
        if not weak:
            from gamesearch.errors import SearchTimeout
            raise SearchTimeout("over budget")
        return {"value": 0, "move": 3, "nodes": 5}

    res = _solve_one(weak_only, GAME.initial_state(), 1 << 10, 1, None)
    assert res is not None and res[0] == 0 and res[2] is True


def test_a_builder_that_cannot_upgrade_says_so(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def plain_builder(plies: int, out: str, **_: Any) -> OpeningBook:  # pragma: no cover
        raise AssertionError("not to be called with --upgrade")

    def no_upgrade(plies: int, out: str, *, journal: Any = None, tt_capacity: int = 1,
                   max_seconds: Any = None, log: Any = None, command: str = "") -> OpeningBook:
        return plain_builder(plies, out)

    monkeypatch.setattr(ConnectFour, "book_builder", lambda self: no_upgrade)
    assert main(["book", "connect4", "--upgrade", "on", "--plies", "2"], io.StringIO()) == 2
    assert "cannot upgrade" in capsys.readouterr().err
