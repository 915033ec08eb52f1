"""Checkers endgame databases: every position with up to N pieces, both sides to move, its
value (win, loss or draw for the side to move) and its distance to the end in plies, built
by retrograde analysis slice by slice (:mod:`gamesearch.search.retrograde` gives the method
and the order; :mod:`.compiled` the kernels; the arena's table scheduler runs the slices).

Slices and index: see :mod:`.compiled` (material, the most advanced man of each side, a
perfect colex index). A slice and its mirror image (colours swapped, board turned) hold the
same positions, so only the canonical one of each pair is stored; a probe of the other is
mirrored first.

Distances: ``plies`` counts half-moves to the end of the game under best play (the winner
hurries, the loser delays), the capture or blocking of the last piece included, not to the
next capture (this is a distance-to-win database, not distance-to-conversion). The draw
rules of the game (move limit, repetition) are not part of the values: a win here is a win
with unlimited moves (:meth:`CheckersEndgameDatabase.value`). The game opens its database
with its move limit, and then :meth:`~CheckersEndgameDatabase.probe` (what the engine asks)
answers only what the limit cannot change: a win or loss in ``d`` plies from a position
whose count leaves ``left`` plies is certain when ``d < left`` (the count cannot complete
before the game ends, whatever resets it on the way), and is undecided (``None``: the
engine searches on) otherwise; draws are draws under any limit.

Files (``DIR/checkers/``), for each slice: ``NAME.wld`` (2 bits a position: 0 draw, 1 win,
2 loss; four to a byte) and ``NAME.dtw`` (plies, one byte a position, two when some
distance exceeds 255), each with the checked header of :mod:`gamesearch.tablefiles`, and
``egdb.json`` naming the game, the index version and the piece count built in full.
Each file is written to a temporary name and renamed into place; the WLD file is written
last, so a slice exists only when both files are whole: an interrupted build resumes
slice by slice and never leaves a slice a probe would read.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...capabilities import EndgameValue
from ...errors import GameError, InvalidLimitError, echo
from ...files import InputFileError, read_text
from ...tablefiles import TableFileError, open_table, write_table
from . import compiled as K

#: The largest piece count a build accepts (8: Chinook's 443,748,401,247 positions).
MAX_PIECES = 8
#: The largest ``egdb.json`` read (it holds three short fields).
MAX_MARKER_BYTES = 1 << 16
GAME = "checkers"
#: (black men, black kings, white men, white kings, Black's lead row, White's lead row)
SliceKey = tuple[int, int, int, int, int, int]
VALUES = ("draw", "win", "loss")


def slice_name(key: SliceKey) -> str:
    nbm, nbk, nwm, nwk, lb, lw = key
    lead = "".join("x" if r < 0 else str(r) for r in (lb, lw))
    return f"b{nbm}{nbk}w{nwm}{nwk}-{lead}"


def pieces_of(key: SliceKey) -> int:
    return key[0] + key[1] + key[2] + key[3]


def mirror_key(key: SliceKey) -> SliceKey:
    nbm, nbk, nwm, nwk, lb, lw = key
    return (nwm, nwk, nbm, nbk, lw, lb)


def canonical(key: SliceKey) -> SliceKey:
    return key if K.is_canonical(*key) else mirror_key(key)


def _leads(men: int) -> range:
    """The lead rows possible for ``men`` men (-1 for none)."""
    return range(-1, 0) if men == 0 else range((men - 1) // 4, 7)


def all_keys(pieces: int) -> list[SliceKey]:
    """Every slice (canonical or not) with exactly ``pieces`` pieces."""
    out = []
    for nbm, nbk, nwm in itertools.product(range(pieces + 1), repeat=3):
        nwk = pieces - nbm - nbk - nwm
        if nwk < 0:
            continue
        for lb in _leads(nbm):
            for lw in _leads(nwm):
                out.append((nbm, nbk, nwm, nwk, lb, lw))
    return out


def to_bitboards(state: Any) -> tuple[int, int, int, int, int]:
    """(black men, black kings, white men, white kings, side to move) of a checkers state
    (the rules' ``CheckersState``: black, white, kings, side) or of such a 5-tuple."""
    if hasattr(state, "kings"):
        black, white, kings, side = state.black, state.white, state.kings, state.side
        return black & ~kings, black & kings, white & ~kings, white & kings, side
    bm, bk, wm, wk, stm = state
    return int(bm), int(bk), int(wm), int(wk), int(stm)


def decode(code: int) -> EndgameValue:
    """A code (0 draw, plies + 1) as the capability's value (+1 win, -1 loss, 0 draw)."""
    if code == 0:
        return EndgameValue(0, None)
    plies = code - 1
    return EndgameValue(1 if plies % 2 else -1, plies)


def describe(value: EndgameValue) -> dict[str, Any]:
    """A value for people and JSON: win/loss/draw, plies and moves (the winner's)."""
    word = {1: "win", -1: "loss", 0: "draw"}[value.value]
    moves = None if value.plies is None else (value.plies + 1) // 2
    return {"value": word, "plies": value.plies, "moves": moves}


def open_database(folder: str | Path, draw_plies: int | None = None) -> CheckersEndgameDatabase:
    """The database in ``folder`` (the ``--dir`` of ``gamesearch egdb build``), for the
    game's ``endgame_database()``; ``draw_plies``: the game's move limit, which its probes
    then respect (see the module docstring; ``None``: the values as built). Opened lazily:
    the folder is read at the first probe, which raises a one-line
    :class:`~gamesearch.tablefiles.TableFileError` for a folder that is missing, partial,
    damaged or of another version."""
    return CheckersEndgameDatabase(folder, draw_plies)


class _Arena:
    """Slices loaded into the compiled kernels' lookup form, kept for the life of a worker
    (each slice is read once, however many later slices need it): one growing array of
    codes (0 draw, plies + 1), one of the slices' men offsets, and a dense table from slice
    key to slice number."""

    def __init__(self) -> None:
        self.table = np.full((MAX_PIECES + 1,) * 4 + (8, 8), -1, dtype=np.int64)
        self.ids: dict[SliceKey, int] = {}
        self.codes = np.zeros(1 << 16, dtype=np.uint16)
        self.offs = np.zeros(1 << 12, dtype=np.int64)
        self.used = self.offs_used = 0
        self.base: list[int] = []
        self.half: list[int] = []
        self.off_base: list[int] = []
        self.off_len: list[int] = []
        self._index: tuple[np.ndarray, ...] | None = None

    @staticmethod
    def _room(array: np.ndarray, need: int) -> np.ndarray:
        if need <= len(array):
            return array
        grown = np.zeros(max(need, 2 * len(array)), dtype=array.dtype)
        grown[:len(array)] = array
        return grown

    def add(self, key: SliceKey, codes: np.ndarray, offsets: np.ndarray) -> None:
        if key in self.ids:  # (rewritten: replace in place)
            start = self.base[self.ids[key]]
            self.codes[start:start + len(codes)] = codes
            return
        self.codes = self._room(self.codes, self.used + len(codes))
        self.codes[self.used:self.used + len(codes)] = codes
        self.offs = self._room(self.offs, self.offs_used + len(offsets))
        self.offs[self.offs_used:self.offs_used + len(offsets)] = offsets
        nbm, nbk, nwm, nwk, lb, lw = key
        self.table[nbm, nbk, nwm, nwk, lb + 1, lw + 1] = len(self.base)
        self.ids[key] = len(self.base)
        self.base.append(self.used)
        self.half.append(len(codes) // 2)
        self.off_base.append(self.offs_used)
        self.off_len.append(len(offsets))
        self.used += len(codes)
        self.offs_used += len(offsets)
        self._index = None

    def index(self) -> K.LoadedIndex:
        """The loaded slices' index for the kernels (:data:`.compiled.LoadedIndex`)."""
        if self._index is None:
            self._index = tuple(np.array(x, dtype=np.int64) for x in (
                self.base, self.half, self.off_base, self.off_len))
        base, half, off_base, off_len = self._index
        return self.table, base, half, off_base, off_len, self.offs


class CheckersEndgameDatabase:
    """The checkers endgame database in ``directory`` (default: the per-user data folder):
    its plan (slices and their dependencies), the building of one slice, probing and
    verification. Picklable (a directory and caches), so that workers can build slices."""

    game = GAME
    index_version = K.INDEX_VERSION

    def __init__(self, directory: str | Path, draw_plies: int | None = None) -> None:
        self.root = Path(directory)
        #: the game's move limit, which :meth:`probe` respects (``None``: none)
        self.draw_plies = draw_plies
        self.directory = self.root / GAME
        self._offsets: dict[SliceKey, np.ndarray] = {}
        self._open: dict[SliceKey, tuple[np.ndarray, np.ndarray]] = {}
        self._complete: int | None = None
        self._arena: _Arena | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"root": self.root, "draw_plies": self.draw_plies}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["root"], state.get("draw_plies"))  # type: ignore[misc]

    @property
    def pieces(self) -> int:
        """The most pieces of the positions it holds (every slice built up to there)."""
        return self.complete_pieces()

    # ----- the plan ------------------------------------------------------------------------
    def offsets(self, key: SliceKey) -> np.ndarray:
        if key not in self._offsets:
            nbm, _, nwm, _, lb, lw = key
            self._offsets[key] = K.men_offsets(nbm, nwm, lb, lw)
        return self._offsets[key]

    def half_size(self, key: SliceKey) -> int:
        """Positions of a slice with one side to move."""
        return int(K.slice_size(key[0], key[1], key[2], key[3], self.offsets(key)))

    def slices(self, pieces: int) -> list[SliceKey]:
        """The stored (canonical, non-empty) slices with 1 to ``pieces`` pieces."""
        check_pieces(pieces)
        return [k for p in range(1, pieces + 1) for k in all_keys(p)
                if K.is_canonical(*k) and self.half_size(k) > 0]

    def dependencies(self, key: SliceKey) -> list[SliceKey]:
        """The stored slices one move of a position of ``key`` can lead into (other than
        ``key`` itself): advances of a lead man, crownings, captures."""
        out: set[SliceKey] = set()
        for side_key in (key, mirror_key(key)):  # Black's moves, then White's (mirrored)
            for k in _moves_out(side_key):
                k = k if side_key is key else mirror_key(k)
                if pieces_of(k) > 0 and self.half_size(k) > 0:
                    out.add(canonical(k))
        out.discard(key)
        return sorted(out)

    def positions(self, key: SliceKey) -> int:
        return 2 * self.half_size(key)

    # ----- files ---------------------------------------------------------------------------
    def path(self, key: SliceKey, kind: str) -> Path:
        return self.directory / f"{slice_name(key)}.{kind}"

    def _expect(self, key: SliceKey, kind: str) -> dict[str, Any]:
        return {"game": GAME, "slice": slice_name(key), "kind": kind,
                "index_version": K.INDEX_VERSION}

    def is_built(self, key: SliceKey) -> bool:
        """Both files there with this version's headers (the checksum is checked on open)."""
        from ...tablefiles import read_header

        try:
            return all(all(read_header(self.path(key, kind)).get(f) == v
                           for f, v in self._expect(key, kind).items())
                       for kind in ("dtw", "wld"))
        except TableFileError:
            return False

    def load_codes(self, key: SliceKey, *, check: bool = True) -> np.ndarray:
        """A built slice's codes (0 draw, plies + 1), both sides to move."""
        wld, dtw = self._tables(key, check=check)
        n = self.positions(key)
        values = unpack_wld(wld, n)
        codes = dtw.astype(np.uint16) + 1
        codes[values == 0] = 0
        return codes

    def _tables(self, key: SliceKey, check: bool = True) -> tuple[np.ndarray, np.ndarray]:
        if key not in self._open:
            wld = open_table(self.path(key, "wld"), self._expect(key, "wld"), check=check)
            dtw = open_table(self.path(key, "dtw"), self._expect(key, "dtw"), check=check)
            n = self.positions(key)
            if len(dtw) != n or len(wld) != (n + 3) // 4:
                raise TableFileError(f"{echo(str(self.path(key, 'dtw')))}: {len(dtw)} "
                                     f"positions, the index has {n} (another version)")
            self._open[key] = (wld, dtw)
        return self._open[key]

    def write_slice(self, key: SliceKey, codes: np.ndarray) -> int:
        """Store a solved slice (distances first, values last); returns bytes written. A
        folder that cannot take it (gone, full, read-only) is a one-line
        :class:`TableFileError`."""
        plies = np.where(codes == 0, 0, codes.astype(np.int64) - 1)
        dtype = np.uint8 if plies.max(initial=0) < 256 else np.uint16
        head = {"game": GAME, "slice": slice_name(key), "index_version": K.INDEX_VERSION,
                "positions": len(codes), "distance": "plies"}
        with self._writing():
            self.directory.mkdir(parents=True, exist_ok=True)
            write_table(self.path(key, "dtw"), {**head, "kind": "dtw"}, plies.astype(dtype))
            write_table(self.path(key, "wld"), {**head, "kind": "wld"}, pack_wld(codes))
            self._open.pop(key, None)
            return sum(os.path.getsize(self.path(key, k)) for k in ("dtw", "wld"))

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """OSError (and a NUL byte's ValueError) while writing the folder as one line."""
        try:
            yield
        except (OSError, ValueError) as exc:
            if isinstance(exc, GameError):
                raise
            raise TableFileError(f"cannot write the database folder "
                                 f"{echo(str(self.directory))}: "
                                 f"{getattr(exc, 'strerror', None) or exc}") from None

    # ----- building ------------------------------------------------------------------------
    def loaded(self, keys: Sequence[SliceKey]) -> _Arena:
        """The arena with ``keys`` loaded (each read from its files once)."""
        if self._arena is None:
            self._arena = _Arena()
        for k in keys:
            if k not in self._arena.ids:
                self._arena.add(k, self.load_codes(k), self.offsets(k))
        return self._arena

    def solve(self, key: SliceKey) -> np.ndarray:
        """The codes of a slice, by the compiled kernel, from its built dependencies."""
        nbm, nbk, nwm, nwk, lb, lw = key
        arena = self.loaded(self.dependencies(key))
        codes: np.ndarray = K.solve_slice(nbm, nbk, nwm, nwk, lb, lw, self.offsets(key),
                                          arena.index(), arena.codes)
        if len(codes) != self.positions(key):
            raise GameError(f"checkers egdb: slice {slice_name(key)} reaches a slice that "
                            "is not built")
        return codes

    def build_slice(self, key: SliceKey) -> dict[str, Any]:
        """Solve one slice and store it; its report (positions, seconds, value counts)."""
        start = time.perf_counter()
        codes = self.solve(key)
        size = self.write_slice(key, codes)
        if self._arena is not None:
            self._arena.add(key, codes, self.offsets(key))  # later slices need it
        return {"slice": slice_name(key), "pieces": pieces_of(key), "positions": len(codes),
                "seconds": time.perf_counter() - start, "bytes": size, **value_counts(codes)}

    def mark_complete(self, pieces: int) -> None:
        """Record that every slice up to ``pieces`` pieces is built."""
        with self._writing():
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = self.directory / "egdb.json.part"
            tmp.write_text(json.dumps({"game": GAME, "index_version": K.INDEX_VERSION,
                                       "pieces": pieces}))
            os.replace(tmp, self.directory / "egdb.json")
        self._complete = None

    def complete_pieces(self) -> int:
        """The piece count built in full; one-line errors for a missing, unreadable, foreign
        or damaged folder. The marker is read through :func:`~gamesearch.files.read_text`
        (capped: a marker that is ``/dev/zero`` or a FIFO is refused, not read for ever), and
        its ``pieces`` must be a whole number from 1 to :data:`MAX_PIECES` (JSON's ``"abc"``,
        ``null``, ``1e400``, ``NaN``, ``[2]``, ``2.5`` or ``true`` are damage, not a count
        that ``int()`` crashes on or rounds)."""
        if self._complete is None:
            marker = self.directory / "egdb.json"
            where = echo(str(self.directory))
            try:
                present = marker.exists()
            except (OSError, ValueError) as exc:  # a name too long, a NUL byte
                raise TableFileError(f"cannot read the database folder {where}: "
                                     f"{getattr(exc, 'strerror', None) or exc}") from None
            if not present:
                raise TableFileError(f"no checkers endgame database in {where} (build one "
                                     "with: gamesearch egdb build checkers --pieces N)")
            try:
                info = json.loads(read_text(str(marker), "endgame database marker",
                                            MAX_MARKER_BYTES))
            except InputFileError as exc:
                raise TableFileError(str(exc)) from None
            except ValueError:
                raise TableFileError(f"{echo(str(marker))}: damaged (not JSON)") from None
            if not isinstance(info, dict):
                raise TableFileError(f"{echo(str(marker))}: damaged (not a JSON object)")
            if info.get("game") != GAME or info.get("index_version") != K.INDEX_VERSION:
                raise TableFileError(
                    f"{where}: a database of {echo(info.get('game'))} index version "
                    f"{echo(info.get('index_version'))}, this is {GAME!r} version "
                    f"{K.INDEX_VERSION} (rebuild)")
            pieces = info.get("pieces")
            if type(pieces) is not int or not 1 <= pieces <= MAX_PIECES:
                raise TableFileError(f"{echo(str(marker))}: damaged (pieces {echo(pieces)}: "
                                     f"expected a whole number from 1 to {MAX_PIECES})")
            self._complete = pieces
        return self._complete

    def count(self, pieces: int) -> dict[int, int]:
        """Positions per piece count in Chinook's convention (:func:`count_positions`)."""
        return count_positions(pieces)

    # ----- probing -------------------------------------------------------------------------
    def probe(self, state: Any) -> EndgameValue | None:
        """The value of a position for the side to move under the game's move limit (the
        capability's probe, which the engine asks): :meth:`value`, except that a win or loss
        the limit could cut off -- ``plies`` not below the plies the state's count leaves --
        is ``None``, undecided, like a position with more pieces than the database holds.
        Without a limit (``draw_plies`` None, or a bare 5-tuple without a count) the value
        as built."""
        found = self.value(state)
        if found is None or found.plies is None or self.draw_plies is None:
            return found
        quiet = getattr(state, "quiet", None)
        if quiet is not None and found.plies >= self.draw_plies - quiet:
            return None
        return found

    def value(self, state: Any) -> EndgameValue | None:
        """The database's value of a position for the side to move (no draw rule: a win
        here is a win with unlimited moves), or ``None`` when it has more pieces than the
        database holds in full."""
        bm, bk, wm, wk, stm = to_bitboards(state)
        if (bm | wm) & ~K.FULL or bm & K.BLACK_CROWN or wm & 0xF:
            raise GameError("checkers egdb: a man on its crowning row")
        pieces = K.popcount(bm | bk | wm | wk)
        if pieces == 0 or pieces > self.complete_pieces():
            return None
        return decode(self.probe_code(bm, bk, wm, wk, stm))

    def probe_code(self, bm: int, bk: int, wm: int, wk: int, stm: int) -> int:
        key = tuple(int(x) for x in K.position_key(bm, bk, wm, wk))
        if not K.is_canonical(*key):
            bm, bk, wm, wk = K.mirror(bm, bk, wm, wk)
            stm = 1 - stm
            key = mirror_key(key)  # type: ignore[arg-type]
        skey: SliceKey = key  # type: ignore[assignment]
        wld, dtw = self._tables(skey)
        i = stm * self.half_size(skey) + int(K.rank(bm, bk, wm, wk, skey[1], skey[3], skey[4],
                                                    skey[5], self.offsets(skey)))
        value = (int(wld[i >> 2]) >> (2 * (i & 3))) & 3
        return 0 if value == 0 else int(dtw[i]) + 1

    def slice_value_counts(self, key: SliceKey) -> dict[str, int]:
        """Wins, losses and draws for the side to move in a built slice (both sides to
        move), counted from its value file alone (checked on open)."""
        n = self.positions(key)
        wld = open_table(self.path(key, "wld"), self._expect(key, "wld"))
        if len(wld) != (n + 3) // 4:
            raise TableFileError(f"{echo(str(self.path(key, 'wld')))}: {len(wld)} bytes, "
                                 f"the index has {n} positions (another version)")
        return packed_value_counts(wld, n)

    # ----- verification --------------------------------------------------------------------
    def verify_slice(self, key: SliceKey) -> tuple[int, int]:
        """(positions checked, positions whose value disagrees with their successors')."""
        self._open.pop(key, None)
        codes = self.load_codes(key)
        arena = self.loaded(self.dependencies(key))
        arena.add(key, codes, self.offsets(key))  # (what the files hold now)
        bad = K.verify_codes(*key, self.offsets(key), arena.index(), arena.codes,
                             arena.base[arena.ids[key]])
        return len(codes), int(bad)


def _moves_out(key: SliceKey) -> Iterator[SliceKey]:
    """The slices Black's moves from slice ``key`` may lead into (a superset)."""
    nbm, nbk, nwm, nwk, lb, lw = key
    if nbm and lb < 6:
        yield (nbm, nbk, nwm, nwk, lb + 1, lw)  # the lead man steps forward
    if nbm and lb == 6:
        for lb2 in _leads(nbm - 1):  # a man crowned
            yield (nbm - 1, nbk + 1, nwm, nwk, lb2, lw)
    for j in range(nwm + 1):  # captures: j men and k kings of White's
        for k in range(nwk + 1):
            if j + k == 0:
                continue
            for lw2 in _leads(nwm - j):
                if lw2 > lw:
                    continue
                if nbk:  # by a king
                    yield (nbm, nbk, nwm - j, nwk - k, lb, lw2)
                if nbm:  # by a man, crowned or not
                    for lb2 in _leads(nbm):
                        if lb2 >= lb:
                            yield (nbm, nbk, nwm - j, nwk - k, lb2, lw2)
                    for lb2 in _leads(nbm - 1):
                        yield (nbm - 1, nbk + 1, nwm - j, nwk - k, lb2, lw2)


#: _FIELD_COUNTS[byte]: how many of the byte's four 2-bit fields hold 0 (draw), 1 (win), 2
#: (loss) -- a packed WLD byte's value counts.
_FIELD_COUNTS = np.array([[sum((b >> (2 * i)) & 3 == v for i in range(4)) for v in range(3)]
                          for b in range(256)], dtype=np.int64)


def packed_value_counts(packed: np.ndarray, n: int) -> dict[str, int]:
    """Wins, losses and draws among the first ``n`` positions of a packed WLD array
    (:func:`pack_wld`), counted byte by byte without unpacking."""
    per_byte = np.bincount(np.asarray(packed, dtype=np.uint8), minlength=256)
    counts = per_byte @ _FIELD_COUNTS  # (draws, wins, losses) over every 2-bit field
    pad = 4 * len(packed) - n  # (padding fields hold 0, a draw)
    return {"wins": int(counts[1]), "losses": int(counts[2]), "draws": int(counts[0]) - pad}


def check_pieces(pieces: int) -> None:
    if not 1 <= pieces <= MAX_PIECES:
        raise InvalidLimitError(f"--pieces {pieces}: expected 1 to {MAX_PIECES}")


def pack_wld(codes: np.ndarray) -> np.ndarray:
    """2 bits a position (0 draw, 1 win, 2 loss), four to a byte, the first lowest."""
    plies = codes.astype(np.int64) - 1
    values = np.where(codes == 0, 0, np.where(plies % 2 == 1, 1, 2)).astype(np.uint8)
    pad = (-len(values)) % 4
    values = np.concatenate([values, np.zeros(pad, dtype=np.uint8)]).reshape(-1, 4)
    return (values[:, 0] | (values[:, 1] << 2) | (values[:, 2] << 4)
            | (values[:, 3] << 6)).astype(np.uint8)


def unpack_wld(packed: np.ndarray, n: int) -> np.ndarray:
    b = np.asarray(packed, dtype=np.uint8)
    out = np.stack([b & 3, (b >> 2) & 3, (b >> 4) & 3, b >> 6], axis=1).reshape(-1)
    return out[:n]


def value_counts(codes: np.ndarray) -> dict[str, int]:
    draws = int(np.count_nonzero(codes == 0))
    wins = int(np.count_nonzero((codes != 0) & ((codes.astype(np.int64) - 1) % 2 == 1)))
    return {"wins": wins, "losses": len(codes) - draws - wins, "draws": draws}


def count_positions(pieces: int) -> dict[int, int]:
    """Positions per piece count in Chinook's convention (no side to move; no man on the row
    where it would be crowned), by counting: Black's men on 28 squares (4 of them only
    Black's), White's on 28 (4 only White's, 24 shared), the kings on what is left."""
    from math import comb

    check_pieces(pieces)
    out = {}
    for p in range(1, pieces + 1):
        total = 0
        for nbm, nwm, nbk in itertools.product(range(p + 1), repeat=3):
            nwk = p - nbm - nwm - nbk
            if nwk < 0:
                continue
            men = sum(comb(4, a) * comb(24, nbm - a) * comb(4, b) * comb(24 - nbm + a, nwm - b)
                      for a in range(nbm + 1) for b in range(nwm + 1))
            free = 32 - nbm - nwm
            total += men * comb(free, nbk) * comb(free - nbk, nwk)
        out[p] = total
    return out


# ----- the plain reference build (small slices; the tests compare the kernels with it) --------
Position = tuple[int, int, int, int, int]
Material = tuple[int, int, int, int]


def material_positions(material: Material) -> Iterator[Position]:
    """Every position of a material, both sides to move, by plain enumeration (no index)."""
    nbm, nbk, nwm, nwk = material
    for bmen in itertools.combinations(range(28), nbm):
        bm = sum(1 << s for s in bmen)
        for wmen in itertools.combinations([s for s in range(4, 32) if not bm >> s & 1], nwm):
            wm = sum(1 << s for s in wmen)
            free = [s for s in range(32) if not (bm | wm) >> s & 1]
            for bkings in itertools.combinations(free, nbk):
                bk = sum(1 << s for s in bkings)
                for wkings in itertools.combinations([s for s in free if s not in bkings],
                                                     nwk):
                    wk = sum(1 << s for s in wkings)
                    yield bm, bk, wm, wk, 0
                    yield bm, bk, wm, wk, 1


def plain_successors(position: Position) -> list[Position]:
    bm, bk, wm, wk, stm = position
    out = np.empty((K.MAX_MOVES, 4), dtype=np.int64)
    plain = getattr(K.successors, "py_func", K.successors)  # the source, not compiled
    n, _ = plain(bm, bk, wm, wk, stm, out)
    return [(int(a), int(b), int(c), int(d), 1 - stm) for a, b, c, d in out[:n]]

