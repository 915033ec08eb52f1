"""The Connect Four opening book: its entries against the solver, mirror lookups, building
and resuming, bad files, the commands that use it, and perfect play as first player.

The solver (the compiled one, numba: the ``dev`` extra) is the reference for the entries
checked here: a seeded sample at every ply of the book, in about two seconds. The shallow
entries took the build minutes each, so they are checked through the book's own lines (see
:func:`check_down_a_line`): each entry against the entries two plies below it, down a best
defence to an entry the solver confirms within a node budget (or to the end of the game).
"""

from __future__ import annotations

import io
import random
from functools import lru_cache
from pathlib import Path

import pytest

from gamesearch.agents import make_agent, play_game
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
from gamesearch.interfaces.cli import main

GAME = ConnectFour()
needs_numba = pytest.mark.skipif(
    not cc.available(),
    reason="NUMBA IS NOT INSTALLED: the book is NOT CHECKED against the solver "
    "(pip install -e '.[dev]')",
)


def book_sample(min_stones: int, k: int, seed: int = 1) -> list[tuple[int, object]]:
    """``k`` entries of the package's book with at least ``min_stones`` stones."""
    book = default_book()
    keys = sorted(key for ply, keys in keys_by_ply().items() if ply >= min_stones
                  for key in keys)
    return [(key, book.lookup(state_of_key(key)))
            for key in random.Random(seed).sample(keys, min(k, len(keys)))]


def solver_check(state: tuple[int, int, int, float], score: int, move: int,
                 exact: bool, max_nodes: int | None = None) -> None:
    """The solver gives the entry's score (its sign if not ``exact``) and the entry's move
    among the best; past ``max_nodes`` nodes it raises :class:`SearchTimeout`."""
    r = cc.solve_fast(state, weak=not exact, best_moves=True, max_nodes=max_nodes)
    assert r["value"] == score, (GAME.format_state(state), score, r)
    assert move in r["moves"], (GAME.format_state(state), move, r)


#: Book entries sampled at each ply (seeded), and the seed.
PER_PLY, SEED = 3, 12
#: From this ply on the solver checks an entry directly, within ``CHECK_NODES`` nodes (the
#: build took 1-40 ms a position there on average, minutes for the shallowest ones); an
#: entry over the budget is checked like a shallower one, one book move further down.
SOLVER_PLY, CHECK_NODES = 12, 2_000_000


#: A column's height from its 7 bits of Pons's key (``2**h - 1`` plus the mover's stones).
_HEIGHT = [(v + 1).bit_length() - 1 for v in range(128)]


def ply_of_key(k: int) -> int:
    """The stones of the position with Pons's key ``k`` (``state_of_key(k)[2]``, 25x faster
    for the 200,000 keys of the book)."""
    h = _HEIGHT
    return (h[k & 127] + h[k >> 7 & 127] + h[k >> 14 & 127] + h[k >> 21 & 127]
            + h[k >> 28 & 127] + h[k >> 35 & 127] + h[k >> 42 & 127])


@lru_cache(maxsize=1)
def keys_by_ply() -> dict[int, list[int]]:
    """The keys of the package's book, by the number of stones."""
    by_ply: dict[int, list[int]] = {}
    for key, _ in default_book().entries():
        by_ply.setdefault(ply_of_key(key), []).append(key)
    return by_ply


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def value_of(book: OpeningBook, state: tuple[int, int, int, float]) -> tuple[int, bool]:
    """(score, exact) of a position for its side to move: by the rules when the game is
    over (Pons's score of a loss with the opponent's last stone, or a draw), else its book
    entry, which must be there."""
    u = GAME.terminal_utility(state, GAME.to_move(state))
    if u is not None:
        return int(GAME.exact_score(state, u)), True
    entry = book.lookup(state)
    assert entry is not None, f"{GAME.format_state(state)!r} is not in the book"
    return entry.score, entry.exact


def negamax(values: list[tuple[int, bool]]) -> tuple[int, bool]:
    """(score, exact) of a position from its children's values (for their side to move):
    Pons's scores count the winner's stones from the start, so a parent's is the best
    negated child's; only the sign when any child has only its sign."""
    if all(exact for _, exact in values):
        return max(-s for s, _ in values), True
    return max(-sign(s) for s, _ in values), False


def agrees(score: int, exact: bool, value: tuple[int, bool]) -> bool:
    if exact and value[1]:
        return score == value[0]
    return sign(score) == sign(value[0])


def check_down_a_line(book: OpeningBook, state: tuple[int, int, int, float],
                      rng: random.Random) -> str:
    """Check the entry of ``state``, then entries down a seeded line of the book, until the
    solver confirms one (returns ``"solver"``) or the line reaches the end of the game
    (``"rules"``: the last entry's move wins at once, or every best reply ends the game).

    Each entry on the way is checked against the book two plies deeper: its move keeps its
    score (the score is the least the replies leave, each reply's position being in the book
    or over), and where the book holds every move's position (the root, and where the two
    sides' trees cross) no move does better. The line goes on along a best defence (one of
    the replies that leave the least, at random), so an entry at ply ``p`` stands on entries
    of plies ``p + 2, p + 4, ...`` that the solver or the rules confirm in the end."""
    while True:
        entry = book.lookup(state)
        assert entry is not None
        where = GAME.format_state(state)
        if state[2] >= SOLVER_PLY:
            deepest = state[2] + 2 >= book.meta["complete_below"]  # (no replies in the book)
            try:
                solver_check(state, entry.score, entry.move, entry.exact,
                             max_nodes=None if deepest else CHECK_NODES)
                return "solver"
            except SearchTimeout:
                pass
        children = [GAME.result(state, c) for c in GAME.actions(state)]
        if all(GAME.is_terminal(c) or book.lookup(c) is not None for c in children):
            assert agrees(entry.score, entry.exact,
                          negamax([value_of(book, c) for c in children])), where
        after = GAME.result(state, entry.move)
        if GAME.is_terminal(after):  # the book's move wins at once (or fills the board)
            assert agrees(entry.score, entry.exact, negamax([value_of(book, after)])), where
            return "rules"
        replies = [GAME.result(after, r) for r in GAME.actions(after)]
        values = [value_of(book, r) for r in replies]
        after_value = negamax(values)  # for the opponent, to move after the book's move
        assert agrees(entry.score, entry.exact, negamax([after_value])), where
        best = [r for r, (s, exact) in zip(replies, values, strict=True)
                if agrees(-s, exact, after_value) and not GAME.is_terminal(r)]
        if not best:
            return "rules"
        state = rng.choice(best)


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
def test_a_seeded_sample_at_every_ply_agrees_with_the_solver() -> None:
    """``PER_PLY`` entries of each ply, each checked down a line (:func:`check_down_a_line`);
    most lines end in the solver, the others in a win at once."""
    book = default_book()
    by_ply = keys_by_ply()
    assert sorted(by_ply) == list(range(book.meta["complete_below"]))
    rng = random.Random(SEED)
    ends = {"solver": 0, "rules": 0}
    for ply, keys in sorted(by_ply.items()):
        for key in rng.sample(keys, min(PER_PLY, len(keys))):
            assert state_of_key(key)[2] == ply
            ends[check_down_a_line(book, state_of_key(key), rng)] += 1
    assert ends["solver"] > 3 * ends["rules"]  # (the sample, seeded, ends 38 to 8)


@needs_numba
@pytest.mark.parametrize("ply", [1, 6, 13])
def test_the_check_finds_a_wrong_score_at_any_depth(ply: int) -> None:
    """The check above can fail: a copy of the book with one score off, at a shallow, a
    middle and a deep ply (the sign flipped, for an entry that only has its sign)."""
    book = default_book()
    key = random.Random(SEED).choice(sorted(keys_by_ply()[ply]))
    entry = book.lookup(state_of_key(key))
    assert entry is not None
    wrong = entry.score + 1 if entry.exact else (0 if entry.score else 1)
    entries = {k: (e.score, e.move, e.exact) for k, e in book.entries()}
    entries[key] = (wrong, entry.move, entry.exact)
    bad = OpeningBook.from_entries(entries, book.meta)
    check_down_a_line(book, state_of_key(key), random.Random(SEED))  # the book's own: right
    with pytest.raises(AssertionError):
        check_down_a_line(bad, state_of_key(key), random.Random(SEED))


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
        assert solver.report is not None and solver.report.source == "book"
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
