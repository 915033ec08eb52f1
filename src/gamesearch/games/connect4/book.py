"""The Connect Four opening book: solved positions near the start, made by our own solver.

Follows the idea of Pascal Pons's opening book ("Solving Connect 4", part 12): the
positions the solver is too slow for are solved once, ahead of time, and looked up in play.
Pons stores *every* position up to a depth; this book is a *policy* book, which is what
perfect play needs and far smaller:

* as first player, the positions at even plies reached when we play the book's move and
  the opponent plays anything (at most 7 per position of the previous level);
* as second player, the positions at odd plies after any first move, then likewise.

Each entry is a position with the side to move, its score in Pons's convention (the empty
board is +1; see ``gamesearch.games.connect4``) and the move the book plays, which is one
of the best moves. An entry is *exact* (the strong score, solved with the exact solver) or
*weak* (only the sign is known: +1 win, 0 draw, -1 loss, and the move keeps it), for the
positions where a strong solve was beyond the build's node budget.

Positions are folded under the mirror symmetry: the key is the smaller of Pons's
``current + mask`` keys of the position and its mirror image, and the move is stored for
the position with that key (mirrored back on lookup).

The file (``data/book.bin`` in this package, package data) is binary: the magic ``GSC4BOOK``, a
4-byte little-endian header length, a JSON header (format version, entry counts, how it was
built), a CRC-32 of the header and the entries, then one little-endian 64-bit word per
entry, sorted: ``key << 10 | exact << 9 | (score + 32) << 3 | move``. Lookup is a binary
search over an ``array``: no numpy needed, so the book works without the ``fast`` extra.

:func:`build_book` makes the book with the compiled solver
(:func:`gamesearch.games.connect4.compiled.solve_fast`), ply by ply, keeping its table
warm between positions, and records every solved position in a text journal as it goes,
so an interrupted build resumes where it stopped (``gamesearch book connect4``).

:func:`upgrade_book` (``gamesearch book connect4 --upgrade BOOK``) makes a book's weak
entries near the start exact afterwards, one journaled null-window test at a time starting
from what the weak result proved (Pons's part 7 narrowing, begun at the weak bound), and
backs positions up from exact children; the package's book is exact after one move so.

The game offers both as capabilities (:mod:`gamesearch.capabilities`):
``ConnectFour.opening_book(spec)`` is :func:`load_book` and ``ConnectFour.book_builder()``
is :func:`build_book`.
"""

from __future__ import annotations

import json
import struct
import sys
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from ...errors import GameError, SearchTimeout, echo
from ...files import MAX_BINARY_BYTES, InputFileError, iter_lines, read_bytes
from ...game import BOOK_OFF, BOOK_ON, BookEntry, solve_until
from .rules import C4State, ConnectFour, mirror_bits

__all__ = [
    "BookEntry",
    "BookError",
    "OpeningBook",
    "build_book",
    "default_book",
    "load_book",
    "state_of_key",
    "upgrade_book",
]

MAGIC = b"GSC4BOOK"
VERSION = 1
#: The package's book (``data/`` beside this module).
DEFAULT_NAME = "book.bin"
_KEY_SHIFT = 10
_EXACT_BIT = 1 << 9
_SCORE_BIAS = 32
_NO_MOVE = 7
_GAME = ConnectFour()


class BookError(GameError):
    """A missing, unreadable or corrupt opening book file."""


def canonical(state: C4State) -> tuple[int, bool]:
    """(the mirror-folded key of ``state``, True when that key is the mirror image's)."""
    k = state[0] + state[1]
    m = mirror_bits(k)
    return (k, False) if k <= m else (m, True)


def state_of_key(key: int) -> C4State:
    """The position with Pons's key ``current + mask`` (each column of the key is
    ``2**h - 1`` plus the side to move's stones there, ``h`` the column's height)."""
    cur = mask = 0
    for c in range(7):
        col = key >> (7 * c) & 0x7F
        h = (col + 1).bit_length() - 1
        cur |= (col - ((1 << h) - 1)) << (7 * c)
        mask |= ((1 << h) - 1) << (7 * c)
    return _GAME.state_from_bitboards(cur, mask)


def _pack(key: int, score: int, move: int, exact: bool) -> int:
    if not -21 <= score <= 21 or not 0 <= move <= _NO_MOVE:
        raise ValueError(f"book entry out of range: score {score}, move {move}")
    return key << _KEY_SHIFT | (_EXACT_BIT if exact else 0) | (score + _SCORE_BIAS) << 3 | move


class OpeningBook:
    """A set of solved Connect Four positions, looked up by state (see the module doc)."""

    def __init__(self, words: array, meta: dict[str, Any] | None = None) -> None:
        self.words = words
        self.meta = dict(meta or {})

    @classmethod
    def from_entries(cls, entries: dict[int, tuple[int, int, bool]],
                     meta: dict[str, Any] | None = None) -> OpeningBook:
        """A book from ``{canonical key: (score, move for that key, exact)}``."""
        words = array("Q", sorted(_pack(k, s, m, e) for k, (s, m, e) in entries.items()))
        return cls(words, meta)

    def __len__(self) -> int:
        return len(self.words)

    def lookup(self, state: C4State) -> BookEntry | None:
        """The entry of ``state`` (a ConnectFour state), or None if the book lacks it."""
        key, mirrored = canonical(state)
        words = self.words
        i = bisect_left(words, key << _KEY_SHIFT)
        if i == len(words) or words[i] >> _KEY_SHIFT != key:
            return None
        w = words[i]
        move = w & 7
        if mirrored and move != _NO_MOVE:
            move = 6 - move
        if move not in _GAME.actions(state):  # a damaged or crafted file: never play it
            raise BookError(f"opening book: its move for position {key} is column {move + 1}, "
                            "which is not legal there; the book is damaged (rebuild it with: "
                            "gamesearch book connect4)")
        return BookEntry(((w >> 3) & 63) - _SCORE_BIAS, move, bool(w & _EXACT_BIT))

    def entries(self) -> Iterator[tuple[int, BookEntry]]:
        """Every (canonical key, entry), the move for the key's own orientation."""
        for w in self.words:
            yield w >> _KEY_SHIFT, BookEntry(((w >> 3) & 63) - _SCORE_BIAS, w & 7,
                                             bool(w & _EXACT_BIT))

    # ----- the file ------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        header = json.dumps({"format": VERSION, "entries": len(self.words), **self.meta},
                            sort_keys=True).encode()
        words = array("Q", self.words)
        if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
            words.byteswap()
        body = words.tobytes()
        crc = zlib.crc32(body, zlib.crc32(header))
        return MAGIC + struct.pack("<I", len(header)) + header + struct.pack("<I", crc) + body

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(self.to_bytes())
        tmp.replace(path)

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "opening book") -> OpeningBook:
        def bad(why: str) -> BookError:
            return BookError(f"{where}: not a valid gamesearch Connect Four book ({why}); "
                             "rebuild it with: gamesearch book connect4")

        if data[:8] != MAGIC:
            raise bad("wrong magic bytes")
        if len(data) < 16:
            raise bad("truncated header")
        (hlen,) = struct.unpack_from("<I", data, 8)
        if 12 + hlen + 4 > len(data):
            raise bad("truncated header")
        header = data[12:12 + hlen]
        (crc,) = struct.unpack_from("<I", data, 12 + hlen)
        body = data[16 + hlen:]
        if zlib.crc32(body, zlib.crc32(header)) != crc:
            raise bad("checksum mismatch: the file is damaged")
        try:
            meta = json.loads(header)
        except ValueError:
            raise bad("unreadable header") from None
        if not isinstance(meta, dict) or meta.get("format") != VERSION:
            raise bad(f"format {meta.get('format') if isinstance(meta, dict) else '?'}, "
                      f"expected {VERSION}")
        if len(body) % 8 or len(body) // 8 != meta.get("entries"):
            raise bad("entry count does not match the header")
        words = array("Q")
        words.frombytes(body)
        if sys.byteorder == "big":  # pragma: no cover
            words.byteswap()
        if any(words[i] >= words[i + 1] for i in range(len(words) - 1)):
            raise bad("entries not sorted")
        meta.pop("format", None)
        meta.pop("entries", None)
        return cls(words, meta)

    @classmethod
    def load(cls, path: str | Path) -> OpeningBook:
        """Read a book file; a missing or damaged file raises :class:`BookError`."""
        try:
            data = read_bytes(str(path), "opening book")
        except InputFileError as exc:
            raise BookError(str(exc)) from None
        return cls.from_bytes(data, f"opening book {echo(str(path))}")


@lru_cache(maxsize=1)
def default_book() -> OpeningBook:
    """The book shipped in the package (``data/book.bin`` beside this module), read once."""
    ref = resources.files(__package__ or "gamesearch.games.connect4") / "data" / DEFAULT_NAME
    try:
        data = ref.read_bytes()
    except OSError as exc:
        raise BookError(f"the package's opening book ({DEFAULT_NAME}) is missing: "
                        f"{exc.strerror or exc}; reinstall gamesearch or rebuild it with "
                        "gamesearch book connect4") from None
    return OpeningBook.from_bytes(data, f"the package's opening book ({DEFAULT_NAME})")


def load_book(spec: str | None) -> OpeningBook | None:
    """``None``/``"on"``/``"default"``: the package's book; ``"off"``: None; else a path."""
    if spec is None or spec.strip().lower() in BOOK_ON:
        return default_book()
    if spec.strip().lower() in BOOK_OFF:
        return None
    return OpeningBook.load(spec)


# ----- building ------------------------------------------------------------------------


def _open_journal(journal: Path) -> TextIO:
    """The journal opened for appending (its folder made), or a one-line BookError."""
    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
        return journal.open("a")
    except OSError as exc:
        raise BookError(f"cannot write the journal {echo(str(journal))}: "
                        f"{exc.strerror or exc}") from None


def _journal_lines(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """A journal's lines (number, text, words), without blank and ``#`` lines; none when
    the journal does not exist yet (a build's or an upgrade's first run)."""
    if not path.exists():
        return
    for i, line in iter_lines(str(path), "book journal", MAX_BINARY_BYTES):
        parts = line.split()
        if parts and not parts[0].startswith("#"):
            yield i, line, parts


def _journal_read(path: Path) -> dict[str, tuple[int, int, bool, int, float] | None]:
    """Moves string -> (score, move, exact, nodes, seconds), or None when unsolved."""
    done: dict[str, tuple[int, int, bool, int, float] | None] = {}
    for i, line, parts in _journal_lines(path):
        try:
            moves = "" if parts[0] == "-" else parts[0]
            if parts[1] == "?":
                done[moves] = None
            else:
                done[moves] = (int(parts[1]), int(parts[2]) - 1, parts[3] == "exact",
                               int(parts[4]), float(parts[5]))
        except (IndexError, ValueError):
            raise BookError(f"journal {echo(str(path))} line {i}: cannot read {echo(line)}"
                            ) from None
    return done


def _children(moves: str, state: C4State, move: int) -> Iterator[tuple[str, C4State]]:
    """The positions after our ``move`` and any reply that does not end the game."""
    game = _GAME
    after = game.result(state, move)
    if game.terminal_utility(after, 0) is not None:
        return
    for r in game.actions(after):
        child = game.result(after, r)
        if game.terminal_utility(child, 0) is None:
            yield f"{moves}{move + 1}{r + 1}", child


def build_book(
    plies: int,
    out: str | Path,
    *,
    root: str = "",
    sides: str = "both",
    journal: str | Path | None = None,
    tt_capacity: int = 1 << 24,
    strong_nodes: int | None = 100_000_000,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    log: Callable[[str], None] = lambda _: None,
    command: str = "",
    upgrade: str | None = None,
) -> OpeningBook:
    """Build (or resume building) the policy book of every position with fewer than
    ``plies`` stones, write it to ``out`` and return it. ``root`` (a move string, default the
    empty board) starts both trees elsewhere: its side to move plays from it, the other
    side from each of its children.

    ``sides``: ``both``, ``first`` (only the tree of the root's side to move) or
    ``second`` (only the other side's). Each position is solved strongly with the compiled
    solver within ``strong_nodes`` nodes; past that, weakly (the sign) within ``max_nodes``
    (None: no limit); past that too it stays out of the book (and so does the line below
    it). The table is kept between positions (``tt_capacity`` entries). ``journal``
    (default ``out`` + ``.journal``) gets one line per position as it is solved; a build
    started again with the same journal skips them.
    ``max_seconds`` stops the build after that long (resume it later); the book written
    then holds every position solved so far.

    ``upgrade`` (a book file, or ``on`` for the package's): build nothing; instead
    :func:`upgrade_book` makes that book's weak entries with fewer than ``plies`` stones
    exact (``root``, ``sides`` and the node budgets do not apply; ``journal`` defaults to
    ``out`` + ``.upgrade``).
    """
    if upgrade is not None:
        return upgrade_book(upgrade, plies, out, journal=journal, tt_capacity=tt_capacity,
                            max_seconds=max_seconds, log=log, command=command)
    from . import compiled as cc

    game = _GAME
    root_state = game.parse_state(root)
    if game.terminal_utility(root_state, 0) is not None:
        raise BookError(f"book root {root!r}: the game is already over")
    first = root_state[2]
    if plies <= first:
        raise BookError(f"a book to {plies} plies from a root with {first} stones is empty")
    out = Path(out)
    journal = Path(journal) if journal is not None else out.with_name(out.name + ".journal")
    done = _journal_read(journal)
    if not cc.available():
        raise BookError("building the book needs the compiled solver (numba): "
                        "pip install 'gamesearch[fast]'")
    start = time.perf_counter()
    entries: dict[int, tuple[int, int, bool]] = {}
    stats: dict[int, dict[str, float]] = {}
    stopped = False
    # level[p]: the positions of ply p to solve, by canonical key (first seen wins)
    if sides not in ("both", "first", "second"):
        raise BookError(f"book sides {sides!r}: allowed: both, first, second")
    level: dict[int, dict[int, tuple[str, C4State]]] = {first: {}, first + 1: {}}
    if sides != "second":
        level[first][canonical(root_state)[0]] = (root, root_state)
    for c in game.actions(root_state) if sides != "first" else ():
        s = game.result(root_state, c)
        if game.terminal_utility(s, 0) is None:
            level[first + 1].setdefault(canonical(s)[0], (f"{root}{c + 1}", s))
    complete = first - 1  # every ply from ``first`` up to this one is fully solved
    for path in (out, journal):
        if path.is_dir():
            raise BookError(f"cannot write {echo(str(path))}: it is a directory")
    jf = _open_journal(journal)
    with jf:
        for ply in range(first, plies):
            todo = level.get(ply, {})
            nxt: dict[int, tuple[str, C4State]] = {}
            level[ply + 2] = nxt
            st = stats[ply] = {"positions": len(todo), "solved": 0, "exact": 0, "seconds": 0.0,
                               "max_seconds": 0.0, "nodes": 0, "max_nodes": 0}
            for key, (moves, state) in todo.items():
                if moves in done:
                    res = done[moves]
                else:
                    if stopped or (max_seconds is not None
                                   and time.perf_counter() - start > max_seconds):
                        # Out of time: no new solves, but the later plies still take what
                        # the journal has (a both-sides build interleaves the two trees).
                        stopped = True
                        continue
                    deadline = None if max_seconds is None else start + max_seconds
                    try:
                        res = _solve_one(cc.solve_fast, state, tt_capacity, strong_nodes,
                                         max_nodes, deadline)
                    except _OutOfTime:
                        stopped = True
                        continue
                    jf.write(_journal_line(moves, res) + "\n")
                    jf.flush()
                    done[moves] = res
                if res is None:
                    continue
                score, move, exact, nodes, secs = res
                st["solved"] += 1
                st["exact"] += exact
                st["seconds"] += secs
                st["max_seconds"] = max(st["max_seconds"], secs)
                st["nodes"] += nodes
                st["max_nodes"] = max(st["max_nodes"], nodes)
                _, mirrored = canonical(state)
                entries[key] = (score, 6 - move if mirrored else move, exact)
                for cm, child in _children(moves, state, move):
                    nxt.setdefault(canonical(child)[0], (cm, child))
            if st["solved"] == st["positions"] and complete == ply - 1:
                complete = ply
            log(f"ply {ply}: {int(st['solved'])}/{len(todo)} positions solved "
                f"({int(st['exact'])} exact), {st['seconds']:.1f} s, "
                f"slowest {st['max_seconds']:.2f} s, {int(st['nodes'])} nodes")
    meta = {
        "game": "connect4",
        "root": root,
        "plies": plies,
        "complete_below": complete + 1,
        "command": command,
        "sides": sides,
        "tt_capacity": tt_capacity,
        "strong_nodes": strong_nodes,
        "max_nodes": max_nodes,
        "per_ply": {str(p): {k: round(v, 3) for k, v in s.items()} for p, s in stats.items()},
    }
    book = OpeningBook.from_entries(entries, meta)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        book.save(out)
    except OSError as exc:
        raise BookError(f"cannot write the book {echo(str(out))}: {exc.strerror or exc}"
                        ) from None
    log(f"{len(book)} positions written to {out} ({out.stat().st_size} bytes); plies "
        f"{first}-{complete} complete" + (" (stopped on --max-seconds: run again to resume)"
                                     if stopped else ""))
    return book


def _journal_line(moves: str, res: tuple[int, int, bool, int, float] | None) -> str:
    name = moves or "-"
    if res is None:
        return f"{name} ? unsolved"
    score, move, exact, nodes, secs = res
    return f"{name} {score} {move + 1} {'exact' if exact else 'weak'} {nodes} {secs:.3f}"


class _OutOfTime(Exception):
    """``--max-seconds`` ran out in the middle of a position (it is not journaled)."""


def _solve_one(solve_fast: Callable[..., dict[str, Any]], state: C4State, cap: int,
               strong_nodes: int | None, max_nodes: int | None, deadline: float | None = None,
               ) -> tuple[int, int, bool, int, float] | None:
    """(score, move, exact, nodes, seconds): strong within ``strong_nodes``, else weak
    within ``max_nodes``; None if neither finished. With a ``deadline`` the solves run in
    slices of nodes that look at the clock between them (:func:`gamesearch.game.solve_until`:
    the same scores and moves; the nodes then count the re-searched part too), and
    :class:`_OutOfTime` ends them."""
    t = time.perf_counter()
    spent = 0
    for weak, budget in ((False, strong_nodes), (True, max_nodes)):
        try:
            if deadline is None:
                r = solve_fast(state, weak=weak, tt_capacity=cap, keep_table=True,
                               max_nodes=budget)
            else:
                sliced = solve_until(solve_fast, state, deadline, weak=weak, tt_capacity=cap,
                                     keep_table=True, max_nodes=budget, slice_seconds=0.1)
                if sliced is None:
                    raise _OutOfTime
                r = sliced
        except SearchTimeout:
            spent += budget or 0
            continue
        # a weak draw is the exact score: Pons's score of a draw is 0
        exact = not weak or int(r["value"]) == 0
        return (int(r["value"]), int(r["move"]), exact, spent + int(r["nodes"]),
                time.perf_counter() - t)
    return None


# ----- upgrading weak entries to exact scores --------------------------------------------
#: One journal line of :func:`upgrade_book` per finished null-window test:
#: ``test MOVES SCORE above|below BOUND MOVE NODES CPU_SECONDS SECONDS`` (MOVE ``-`` when
#: the test gave none; MOVES ``-`` for the empty board).
_TEST_LINE = "test"


def _upgrade_journal_read(path: Path) -> dict[str, list[tuple[int, bool, int, int | None, int,
                                                                float, float]]]:
    """Moves string -> its finished tests (score, above, bound, move, nodes, cpu, seconds)."""
    tests: dict[str, list[tuple[int, bool, int, int | None, int, float, float]]] = {}
    for i, line, parts in _journal_lines(path):
        try:
            if parts[0] != _TEST_LINE or parts[3] not in ("above", "below") or len(parts) != 9:
                raise ValueError
            moves = "" if parts[1] == "-" else parts[1]
            tests.setdefault(moves, []).append(
                (int(parts[2]), parts[3] == "above", int(parts[4]),
                 None if parts[5] == "-" else int(parts[5]) - 1, int(parts[6]),
                 float(parts[7]), float(parts[8])))
        except (IndexError, ValueError):
            raise BookError(f"journal {echo(str(path))} line {i}: cannot read {echo(line)} "
                            "(an upgrade journal has lines: test MOVES SCORE above|below BOUND "
                            "MOVE NODES CPU_SECONDS SECONDS)") from None
    return tests


def _moves_of(state: C4State) -> str:
    """A move string that reaches ``state`` (a book position), for the journal: each move
    puts the player's stone where ``state`` has one of theirs, lowest cells first."""
    cur, mask, n = state[0], state[1], state[2]
    target = [((mask >> (7 * c)) & 0x7F).bit_length() for c in range(7)]
    # the side to move owns ``cur``; the first player is to move when n is even
    first_cells = cur if n % 2 == 0 else cur ^ mask

    def walk(heights: list[int], out: list[int]) -> bool:
        if len(out) == n:
            return True
        first = len(out) % 2 == 0
        for c in range(7):
            h = heights[c]
            if h < target[c] and bool(first_cells >> (7 * c + h) & 1) == first:
                heights[c] += 1
                out.append(c)
                line = "".join(str(x + 1) for x in out)
                if (len(out) == n or _GAME.terminal_utility(_GAME.parse_state(line), 0) is None
                        ) and walk(heights, out):
                    return True
                out.pop()
                heights[c] -= 1
        return False

    out: list[int] = []
    if not walk([0] * 7, out):  # pragma: no cover - every book position has a line
        raise BookError(f"book position {cur + mask}: no move sequence reaches it")
    return "".join(str(c + 1) for c in out)


def _known(entry: BookEntry, state: C4State) -> tuple[int, int]:
    """What a book entry proves of the score: [score, score] if exact; a weak win
    ``[1, max]``, a weak loss ``[min, -1]`` (Pons's initial window), a weak draw 0."""
    if entry.exact or entry.score == 0:  # a draw's exact score is 0 (Pons's convention)
        return entry.score, entry.score
    n = state[2]
    most = (43 - n) // 2  # a win at the side to move's next move: (44 - (n + 1)) // 2
    least = -((42 - n) // 2)  # a loss at the opponent's next-but-one move
    return (1, most) if entry.score > 0 else (least, -1)


def _next_test(lo: int, hi: int) -> int:
    """The next null-window test of a score known to lie in [lo, hi] (lo < hi): next to the
    known bound nearest zero (opening positions have small scores: Pons's part 12 table
    after one move is within -2..2), so a score found one step from a weak result costs one
    test; Pons's zero-biased pivot when the window holds zero inside."""
    if lo >= 0:
        return lo  # "above lo?": below means the score is lo
    if hi <= 0:
        return hi - 1  # "above hi - 1?": above means the score is hi
    med = lo + (hi - lo) // 2
    if med <= 0 and int(lo / 2) < med:
        med = int(lo / 2)
    elif med >= 0 and int(hi / 2) > med:
        med = int(hi / 2)
    return med


def upgrade_book(
    source: str | Path | None,
    plies: int,
    out: str | Path,
    *,
    journal: str | Path | None = None,
    tt_capacity: int = 1 << 26,
    max_seconds: float | None = None,
    log: Callable[[str], None] = lambda _: None,
    command: str = "",
) -> OpeningBook:
    """Turn the weak entries of the book ``source`` (a path; None or ``on``: the package's)
    with fewer than ``plies`` stones into exact ones, write the result to ``out`` (it may
    be the source: ``data/book.bin`` to update the package's book) and return it.

    A weak draw is exact already (Pons's score of a draw is 0). A weak win or loss bounds
    the score (``[1, max]``, ``[min, -1]``); the score is then narrowed by null-window
    tests of the compiled solver (:func:`~gamesearch.games.connect4.compiled.
    null_window_fast`), each next to the known bound nearest zero, the table kept from test
    to test (``tt_capacity`` entries). The move of the entry becomes the one that proved
    the exact score (a win's weak move when the score is the weak bound 1). A position all
    of whose children are exact in the book (or end the game) is backed up from them
    instead, without search; the positions are taken from the most stones down, so the
    empty board is backed up from the seven after it.

    Every finished test is a line of the ``journal`` (default ``out`` + ``.upgrade``), so a
    build stopped by ``max_seconds`` (checked between slices of nodes; the test in progress
    is started again) or killed resumes with every bound proven so far. The book's header
    gains ``upgrade``: the command, and per position its tests, nodes and CPU seconds
    (``time.process_time``).
    """
    from . import compiled as cc

    if not cc.available():
        raise BookError("upgrading the book needs the compiled solver (numba): "
                        "pip install 'gamesearch[fast]'")
    book = load_book(None if source is None else str(source))
    if book is None:
        raise BookError("book --upgrade: give the book to upgrade (a file, or on)")
    out = Path(out)
    journal = Path(journal) if journal is not None else out.with_name(out.name + ".upgrade")
    for path in (out, journal):
        if path.is_dir():
            raise BookError(f"cannot write {echo(str(path))}: it is a directory")
    done = _upgrade_journal_read(journal)
    entries = {k: (e.score, e.move, e.exact) for k, e in book.entries()}
    work = sorted(((state_of_key(k), k) for k, e in book.entries()
                   if not e.exact and state_of_key(k)[2] < plies),
                  key=lambda sk: (-sk[0][2], sk[1]))
    start = time.perf_counter()
    # what earlier upgrades of the source did stays on record (upgrading an upgraded book)
    earlier = book.meta.get("upgrade")
    report: dict[str, dict[str, Any]] = dict(earlier.get("positions", {})) if isinstance(
        earlier, dict) else {}
    stopped = False
    jf = _open_journal(journal)
    with jf:
        for state, key in work:
            if stopped:
                break
            score, move, _ = entries[key]
            moves = _moves_of(state)
            # (a position the journal has tests of keeps them: their cost is on record)
            backed = _back_up(state, entries) if moves not in done else None
            if backed is not None:
                entries[key] = (backed[0], backed[1], True)
                report[moves or "-"] = {"score": backed[0], "how": "backed up from the children"}
                log(f"{moves or '-'}: {backed[0]} backed up from its children")
                continue
            lo, hi = _known(BookEntry(score, move, False), state)
            if lo == hi:  # a weak draw
                entries[key] = (score, move, True)
                report[moves or "-"] = {"score": score, "how": "a weak draw: its score is 0"}
                continue
            # the best move so far and the score it is proven to keep: a weak win's move
            # keeps a score of 1, a weak draw's 0 (a weak loss's move proves nothing)
            best, best_for = (move, min(score, 1)) if score >= 0 else (None, lo)
            tests = list(done.get(moves, []))
            for t_score, above, bound, t_move, *_ in tests:
                lo, hi, best, best_for = _narrow(lo, hi, best, best_for, t_score, above,
                                                 bound, t_move)
            while lo < hi and not stopped:
                t = _next_test(lo, hi)
                res = _timed_test(cc.null_window_fast, state, t, tt_capacity, start,
                                  max_seconds)
                if res is None:
                    stopped = True
                    break
                above, bound, t_move, nodes, cpu, secs = res
                line = (f"{_TEST_LINE} {moves or '-'} {t} {'above' if above else 'below'} "
                        f"{bound} {'-' if t_move is None else t_move + 1} {nodes} "
                        f"{cpu:.3f} {secs:.3f}")
                jf.write(line + "\n")
                jf.flush()
                log(line)
                tests.append((t, above, bound, t_move, nodes, cpu, secs))
                lo, hi, best, best_for = _narrow(lo, hi, best, best_for, t, above, bound,
                                                 t_move)
            report[moves or "-"] = {  # each test: score, answer, bound, nodes, CPU seconds
                "tests": [[t[0], "above" if t[1] else "below", t[2], t[4], round(t[5], 3)]
                          for t in tests],
                "nodes": sum(t[4] for t in tests),
                "cpu_seconds": round(sum(t[5] for t in tests), 3),
                "seconds": round(sum(t[6] for t in tests), 3)}
            if lo < hi:
                continue  # stopped: the bounds so far are in the journal
            if best is None or best_for < lo:  # no test proved a move: probe the columns
                r = cc.solve_fast(state, bounds=(lo, lo), tt_capacity=tt_capacity,
                                  keep_table=True)
                best, best_for = int(r["move"]), lo
            # (the tests ran on the key's own orientation: the move is the key's, as stored)
            entries[key] = (lo, best, True)
            report[moves or "-"]["score"] = lo
    meta = dict(book.meta)
    meta["upgrade"] = {"command": command, "plies": plies, "tt_capacity": tt_capacity,
                       "written": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                       "positions": report}
    new = OpeningBook.from_entries(entries, meta)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        new.save(out)
    except OSError as exc:
        raise BookError(f"cannot write the book {echo(str(out))}: {exc.strerror or exc}"
                        ) from None
    left = sum(1 for k, e in new.entries() if not e.exact and state_of_key(k)[2] < plies)
    log(f"{len(new)} positions written to {out}; {left} weak entries left below {plies} "
        "stones" + (" (stopped on --max-seconds: run again to resume)" if stopped else ""))
    return new


def _narrow(lo: int, hi: int, best: int | None, best_for: int, score: int, above: bool,
            bound: int, move: int | None) -> tuple[int, int, int | None, int]:
    """[lo, hi], the best move so far and the score it keeps, after a test at ``score``
    that proved ``bound`` (above: the score is at least ``bound`` and ``move`` keeps that)."""
    if above:
        lo = max(lo, bound, score + 1)
        if move is not None:
            best, best_for = move, max(bound, score + 1)
        return lo, hi, best, best_for
    return lo, min(hi, bound, score), best, best_for


def _back_up(state: C4State, entries: dict[int, tuple[int, int, bool]]) -> tuple[int, int] | None:
    """(score, move) from the children when every child is exact in ``entries``, else None.
    Pons's score is negamax over the children's: the best of minus each child's score."""
    best: tuple[int, int] | None = None
    for c in _GAME.actions(state):
        child = _GAME.result(state, c)
        if _GAME.terminal_utility(child, 0) is not None:
            return None  # (a move that ends the game: the solver's business, not a book's)
        e = entries.get(canonical(child)[0])
        if e is None or not e[2]:
            return None
        if best is None or -e[0] > best[0]:
            best = (-e[0], c)
    return best  # (``state`` is a key's own orientation: so is the move)


def _timed_test(test: Callable[..., dict[str, Any]], state: C4State, score: int, cap: int,
                start: float, max_seconds: float | None,
                ) -> tuple[bool, int, int | None, int, float, float] | None:
    """One null-window test, warm table: (above, bound, move, nodes, CPU s, s); None when
    ``max_seconds`` ran out first. Under ``max_seconds`` it runs in slices of nodes (the
    table keeps what each slice proved; the nodes then count the re-searched part too)."""
    t0, c0 = time.perf_counter(), time.process_time()
    nodes = 0
    budget = 2_000_000
    while True:
        if max_seconds is not None and time.perf_counter() - start > max_seconds:
            return None
        try:
            r = test(state, score, tt_capacity=cap, keep_table=True,
                     max_nodes=None if max_seconds is None else budget)
        except SearchTimeout:
            nodes += budget
            budget = min(budget * 2, 200_000_000)
            continue
        return (r["above"], r["bound"], r["move"], nodes + r["nodes"],
                time.process_time() - c0, time.perf_counter() - t0)
