"""The Connect Four opening book: its entries against the solver, mirror lookups, building
and resuming, bad files, the commands that use it, and perfect play as first player.

The solver (the compiled one, numba: the ``dev`` extra) is the reference for every entry
checked here; the book's own shallow entries took minutes each to solve, so only the
entries the solver confirms in well under a second are checked against it.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from gamesearch.agents import make_agent, play_game
from gamesearch.cli import main
from gamesearch.errors import SearchTimeout
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.connect4 import compiled as cc
from gamesearch.games.connect4.book import (
    BookError,
    OpeningBook,
    build_book,
    canonical,
    default_book,
    load_book,
    state_of_key,
)

GAME = ConnectFour()
needs_numba = pytest.mark.skipif(
    not cc.available(),
    reason="NUMBA IS NOT INSTALLED: the book is NOT CHECKED against the solver "
    "(pip install -e '.[dev]')",
)


def book_sample(min_stones: int, k: int, seed: int = 1) -> list[tuple[int, object]]:
    """``k`` entries of the package's book with at least ``min_stones`` stones."""
    rows = [(key, e) for key, e in default_book().entries()
            if state_of_key(key)[2] >= min_stones]
    return random.Random(seed).sample(rows, min(k, len(rows)))


def solver_check(state: tuple[int, int, int, float], score: int, move: int,
                 exact: bool) -> None:
    r = cc.solve_fast(state, weak=not exact, best_moves=True)
    assert r["value"] == score, (GAME.format_state(state), score, r)
    assert move in r["moves"], (GAME.format_state(state), move, r)


# ----- the shipped book -----------------------------------------------------------------
def test_the_package_book_covers_both_sides_first_moves() -> None:
    # as second player: an answer to each of the 7 first moves and to each next reply
    book = default_book()
    root = GAME.initial_state()
    for c in GAME.actions(root):
        s = GAME.result(root, c)
        entry = book.lookup(s)
        assert entry is not None, c
        after = GAME.result(s, entry.move)
        for r in GAME.actions(after):
            assert book.lookup(GAME.result(after, r)) is not None, (c, entry.move, r)


def test_the_package_book_loads_and_describes_itself() -> None:
    book = default_book()
    assert len(book) > 0
    assert book.meta["game"] == "connect4"
    assert book.meta["complete_below"] >= 1
    entry = book.lookup(GAME.initial_state())
    assert entry is not None and entry.move == 3  # the centre column: the only win
    assert entry.score == 1  # the first player wins (with its last stone, if exact)


@needs_numba
def test_book_entries_agree_with_the_solver() -> None:
    deepest = max(state_of_key(k)[2] for k, _ in default_book().entries())
    for key, entry in book_sample(max(deepest - 1, 0), 25):
        state = state_of_key(key)
        solver_check(state, entry.score, entry.move, entry.exact)  # type: ignore[attr-defined]


def test_lookup_folds_the_mirror_image() -> None:
    book = default_book()
    for key, entry in book_sample(0, 200, seed=2):
        state = state_of_key(key)
        mirror = GAME.mirror(state)
        assert canonical(state)[0] == canonical(mirror)[0] == key
        got, got_m = book.lookup(state), book.lookup(mirror)
        assert got == entry
        assert got_m is not None and got_m.score == entry.score  # type: ignore[attr-defined]
        symmetric = mirror[:2] == state[:2]  # then the same move, not its mirror image
        assert got_m.move == (got.move if symmetric else 6 - got.move)  # type: ignore[union-attr]


# ----- building -------------------------------------------------------------------------
@needs_numba
def test_build_then_resume_from_the_journal(tmp_path: Path) -> None:
    root = "4453374455"  # ten stones: the whole build takes about a second
    out, journal = tmp_path / "b.bin", tmp_path / "b.journal"
    book = build_book(14, out, journal=journal, root=root, tt_capacity=1 << 20)
    lines = journal.read_text().splitlines()
    assert len(book) == len(lines) > 10
    assert book.meta["complete_below"] == 14
    again = build_book(14, out, journal=journal, root=root, tt_capacity=1 << 20)  # no work
    assert journal.read_text().splitlines() == lines
    assert list(again.words) == list(book.words)
    assert list(OpeningBook.load(out).words) == list(book.words)
    for key, entry in book.entries():
        solver_check(state_of_key(key), entry.score, entry.move, entry.exact)
    # the root's side plays from the root, the other side from each child of the root
    r = GAME.parse_state(root)
    assert book.lookup(r) is not None
    assert all(book.lookup(GAME.result(r, c)) is not None for c in GAME.actions(r))


@needs_numba
def test_an_interrupted_build_keeps_what_it_solved(tmp_path: Path) -> None:
    out = tmp_path / "b.bin"
    book = build_book(14, out, root="4453374455", max_seconds=1e-9, tt_capacity=1 << 20)
    assert book.meta["complete_below"] == 10  # stopped before the first position
    assert (tmp_path / "b.bin.journal").exists()


@needs_numba
def test_solve_fast_node_budget_and_retry_on_the_warm_table() -> None:
    full = cc.solve_fast("2577713147")
    with pytest.raises(SearchTimeout):
        cc.solve_fast("2577713147", max_nodes=full["nodes"] // 10)
    for _ in range(100):  # slices of the budget on the table the last slice left
        try:
            r = cc.solve_fast("2577713147", keep_table=True, max_nodes=full["nodes"] // 10)
            break
        except SearchTimeout:
            continue
    assert r["value"] == full["value"]
    assert cc.solve_fast("2577713147", max_nodes=full["nodes"])["nodes"] == full["nodes"]


# ----- bad input --------------------------------------------------------------------------
def test_missing_or_damaged_book_files_raise_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="cannot read"):
        OpeningBook.load(tmp_path / "nope.bin")
    good = default_book().to_bytes()
    cases = {
        "magic": b"NOTABOOK" + good[8:],
        "truncated": good[:10],
        "checksum": good[:-3] + bytes([good[-3] ^ 1]) + good[-2:],
        "count": good[:-8],
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.bin"
        path.write_bytes(data)
        with pytest.raises(BookError, match="not a valid"):
            OpeningBook.load(path)
    assert load_book("off") is None


def test_the_commands_report_a_bad_book_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"garbage")
    assert main(["analyze", "connect4", "--book", str(bad)], io.StringIO()) == 2
    assert "not a valid gamesearch Connect Four book" in capsys.readouterr().err
    assert main(["play", "connect4", "--first", f"solver:book={bad}", "--second",
                 "random"], io.StringIO()) == 2
    assert "not a valid" in capsys.readouterr().err
    assert main(["book", "tictactoe"], io.StringIO()) == 2
    assert main(["solve", "connect4", "--position", "4455", "--book",
                 str(tmp_path / "missing.bin")], io.StringIO()) == 2


# ----- the commands -----------------------------------------------------------------------
def test_analyze_answers_from_the_book_by_default() -> None:
    out = io.StringIO()
    assert main(["analyze", "connect4"], out) == 0
    assert "best move 4" in out.getvalue() and "opening book" in out.getvalue()
    out = io.StringIO()
    assert main(["analyze", "connect4", "--position", "4453374455", "--no-book",
                 "--depth", "2"], out) == 0
    assert "opening book" not in out.getvalue()


def test_solve_uses_the_book_only_when_asked() -> None:
    out = io.StringIO()
    assert main(["solve", "connect4", "--position", "", "--book", "--weak"], out) == 0
    assert "(book)" in out.getvalue() and "value      1" in out.getvalue()


def test_book_info() -> None:
    out = io.StringIO()
    assert main(["book", "connect4", "--info", "--out", "-"], out) == 0
    assert '"positions"' in out.getvalue()


# ----- perfect play -------------------------------------------------------------------------
@pytest.mark.parametrize("opponent", ["random:seed=7", "alphabeta:depth=4"])
def test_the_solver_as_first_player_never_loses(opponent: str) -> None:
    """For each of the 7 replies to its first move, against random and alpha-beta."""
    for reply in range(7):
        solver = make_agent(GAME, "solver:time=10")
        other = make_agent(GAME, opponent, 1.0)
        first = solver.choose(GAME, GAME.initial_state())
        assert getattr(solver, "solved", {}).get("book")
        state = GAME.result(GAME.result(GAME.initial_state(), first), reply)
        final, _ = play_game(GAME, [solver, other], state)
        assert GAME.utility(final, 0) > 0, (opponent, reply, GAME.format_state(final))


@needs_numba
def test_a_stopped_build_still_takes_the_journal_of_later_plies(tmp_path: Path) -> None:
    # A both-sides build interleaves the two trees ply by ply: when it stops at one side's
    # ply, the other side's deeper plies already in the journal must stay in the book.
    out = tmp_path / "b.bin"
    root = "4453374455"  # ply 10: the root side's tree at plies 10 and 12, the other's at 11, 13
    full = build_book(14, out, root=root, tt_capacity=1 << 20)
    journal = tmp_path / "b.bin.journal"
    lines = journal.read_text().splitlines()
    drop = next(line for line in lines if len(line.split()[0]) == 11)
    journal.write_text("".join(line + "\n" for line in lines if line != drop))
    again = build_book(14, out, root=root, max_seconds=1e-9, tt_capacity=1 << 20)
    assert again.meta["complete_below"] == 11
    assert len(again) < len(full)
    ply12 = [line.split()[0] for line in lines if len(line.split()[0]) == 12]
    assert ply12
    assert all(again.lookup(GAME.parse_state(m)) is not None for m in ply12)
