"""The result store: SQLite (standard library ``sqlite3``) in WAL mode, one row per game.

Tables: ``tournaments`` (one per configuration, found again by its ``key``), ``agents``
(name and full spec of every agent), ``games`` (moves, result per seat, termination
reason, time used and nodes per seat). ``UNIQUE (tournament_id, pair, game_no)`` names the
scheduled slot, so a resumed run can never store a game twice. Each game is committed on
its own, so a killed process (SIGKILL included) loses at most the games still being played.
``synchronous=NORMAL`` (WAL's usual setting) skips the fsync per game: a power failure may
also lose the last few commits, which a resumed run simply plays again.

``leases`` (one row per game being played: the owner's host, pid and run token, and when
the lease expires) lets several processes share one file: each claims the next unplayed,
unleased slots in a transaction, renews its leases while it plays, and removes a lease in
the transaction that stores the game. A lease whose owner died is taken over: at once when
the owner ran on this host (its pid is gone), else when it expires.

**Schema versions** (SQLite's ``PRAGMA user_version``). Version 0 is the first layout, with
two seats in columns (``agent0``, ``score1``, ...). Version 1 (:data:`SCHEMA_VERSION`) adds
``games.seat_results``, a JSON object of per-seat lists for any number of seats (``seats``:
the agents, ``scores``, ``ranks``, ``returns``, ``times``, ``nodes``, ``plies``); the two-seat
columns hold seats 0 and 1 as before. Opening a version-0 file for writing migrates it in one
transaction (the column is added, rows written before keep ``NULL`` there and are read from
the columns, their ranks derived from their scores); its tournaments keep their keys, so the
same command resumes them. A file of a newer version is refused.

The file is checked when it is opened: another program's database (a foreign
``application_id``, other tables, or a ``games`` table without our columns) and a damaged
one (``PRAGMA quick_check``) are refused with a one-line :class:`ArenaError`, and so is any
damage SQLite finds later, mid-run. A file that holds a different tournament is not
silently given a second one: :meth:`Store.tournament` says what differs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ..errors import echo
from .errors import ArenaError
from .play import GameRecord, now_iso
from .schedule import TournamentConfig

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id       INTEGER PRIMARY KEY,
    key      TEXT NOT NULL UNIQUE,
    game     TEXT NOT NULL,
    config   TEXT NOT NULL,
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agents (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    idx           INTEGER NOT NULL,
    name          TEXT NOT NULL,
    spec          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, idx)
);
CREATE TABLE IF NOT EXISTS games (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    pair           INTEGER NOT NULL,
    game_no        INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    opening        INTEGER,
    agent0         INTEGER NOT NULL,
    agent1         INTEGER NOT NULL,
    start_position TEXT,
    opening_plies  INTEGER NOT NULL,
    moves          TEXT NOT NULL,
    score0         REAL NOT NULL,
    score1         REAL NOT NULL,
    termination    TEXT NOT NULL,
    detail         TEXT NOT NULL,
    time0          REAL NOT NULL,
    time1          REAL NOT NULL,
    nodes0         INTEGER NOT NULL,
    nodes1         INTEGER NOT NULL,
    plies0         INTEGER NOT NULL,
    plies1         INTEGER NOT NULL,
    finished_at    TEXT NOT NULL,
    UNIQUE (tournament_id, pair, game_no)
);
CREATE TABLE IF NOT EXISTS leases (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    pair          INTEGER NOT NULL,
    game_no       INTEGER NOT NULL,
    host          TEXT NOT NULL,
    pid           INTEGER NOT NULL,
    owner         TEXT NOT NULL,
    expires       REAL NOT NULL,
    PRIMARY KEY (tournament_id, pair, game_no)
);
"""
#: ``PRAGMA user_version`` of a results file written now (see the module's docstring).
SCHEMA_VERSION = 1
#: ``PRAGMA application_id`` of a results file ("GSAR").
APPLICATION_ID = 0x47534152
#: The tables and columns a results file must have (``leases`` is added to older files).
TABLES = {
    "tournaments": ("id", "key", "game", "config", "created"),
    "agents": ("tournament_id", "idx", "name", "spec"),
    "games": ("id", "tournament_id", "pair", "game_no", "round", "opening", "agent0", "agent1",
              "start_position", "opening_plies", "moves", "score0", "score1", "termination",
              "detail", "time0", "time1", "nodes0", "nodes1", "plies0", "plies1",
              "finished_at"),
    "leases": ("tournament_id", "pair", "game_no", "host", "pid", "owner", "expires"),
}
#: Seconds a lease lasts unless renewed (its owner renews it every third of that).
LEASE_SECONDS = 30.0

Slot = tuple[int, int]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Owner:
    """Who plays a game: this host and process, and a token for this run."""

    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def _pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (a zombie counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    with contextlib.suppress(OSError, IndexError), open(
            f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
        return fh.read().rpartition(")")[2].split()[0] != "Z"
    return True


def _guarded(method: F) -> F:
    """SQLite errors met after the open (a damaged page, a full disk, a lock held too long)
    become one-line :class:`ArenaError` messages naming the file."""

    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise self.error(exc) from None

    return cast(F, wrapper)


class Store:
    """A results database (a file, or ``":memory:"``), checked when it is opened."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        self.db: sqlite3.Connection | None = None
        self._seat_results: bool | None = None
        with self._opening():
            self.db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
            self._check()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA busy_timeout=10000")
            self.db.executescript(SCHEMA)
            if self.db.execute("PRAGMA application_id").fetchone()[0] == 0:
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._migrate()

    def _version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        """Bring the file to :data:`SCHEMA_VERSION`, in one transaction (a second process
        opening the same old file at once finds it done)."""
        if self._version() >= SCHEMA_VERSION:
            return
        with self._transaction():
            version = self._version()
            if version < 1:
                have = {str(row[1]) for row in self._db.execute("PRAGMA table_info(games)")}
                if "seat_results" not in have:
                    self._db.execute("ALTER TABLE games ADD COLUMN seat_results TEXT")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _has_seat_results(self) -> bool:
        if self._seat_results is None:
            have = {str(row[1]) for row in self._db.execute("PRAGMA table_info(games)")}
            self._seat_results = "seat_results" in have
        return self._seat_results

    @contextlib.contextmanager
    def _opening(self) -> Iterator[None]:
        """Any failure while the file is opened closes it and is one :class:`ArenaError`."""
        try:
            yield
        except sqlite3.Error as exc:
            error = self.error(exc)
            self.close()
            raise error from None
        except ArenaError:
            self.close()
            raise

    def error(self, exc: sqlite3.Error) -> ArenaError:
        """The one-line message for an SQLite error on this file."""
        text = str(exc) or type(exc).__name__
        where = f"results database {echo(self.path)}"
        if isinstance(exc, sqlite3.DatabaseError) and any(
                w in text for w in ("malformed", "not a database", "corrupt", "disk image")):
            return ArenaError(f"{where} is damaged ({text}); give a new --db (sqlite3's "
                              "'.recover' may save the games stored in it)")
        if "locked" in text or "busy" in text:
            return ArenaError(f"{where} is busy ({text}): another process holds it too long")
        return ArenaError(f"{where}: {text}")

    def _foreign(self, why: str) -> ArenaError:
        return ArenaError(f"results database {echo(self.path)} is not a gamesearch arena file "
                          f"({why}); give a new --db file")

    def _check(self) -> None:
        """Refuse another program's database and a damaged one before anything is written."""
        db = self._db
        app = int(db.execute("PRAGMA application_id").fetchone()[0])
        if app not in (0, APPLICATION_ID):
            raise self._foreign(f"application id 0x{app:08x}")
        tables = {str(name) for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        if not tables:
            return
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise ArenaError(f"results database {echo(self.path)} has schema version "
                             f"{version}, newer than this gamesearch's {SCHEMA_VERSION}: "
                             "open it with a newer gamesearch, or give a new --db")
        others = sorted(tables - set(TABLES))
        if others:
            listed = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            raise self._foreign(f"it holds other tables: {echo(listed)}")
        for table, columns in TABLES.items():
            if table in tables:
                have = {str(row[1]) for row in db.execute(f"PRAGMA table_info({table})")}
                missing = [c for c in columns if c not in have]
                if missing:
                    raise self._foreign(f"its {table} table has no column "
                                        f"{echo(', '.join(missing))}")
        absent = [t for t in TABLES if t not in tables and t != "leases"]  # (leases: added)
        if absent:
            raise self._foreign(f"no {absent[0]} table")
        problems = [str(row[0]) for row in db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError("database disk image is malformed: "
                                        + "; ".join(problems))

    @property
    def _db(self) -> sqlite3.Connection:
        assert self.db is not None
        return self.db

    @classmethod
    def open_readonly(cls, path: str) -> Store:
        """An existing results file opened read-only (SQLite's ``mode=ro`` URI): for
        readers such as the web app, which must never write to it."""
        from pathlib import Path
        from urllib.parse import quote

        store = cls.__new__(cls)
        store.path = path
        store.db = None
        store._seat_results = None
        with store._opening():
            store.db = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro",
                                       uri=True, isolation_level=None,
                                       check_same_thread=False)
            store.db.execute("PRAGMA busy_timeout=2000")
            store._check()
            store.db.execute("SELECT COUNT(*) FROM tournaments").fetchone()
        return store

    @_guarded
    def list_tournaments(self) -> list[dict[str, Any]]:
        """Every tournament in the file: id, key, game, config (a dict), created, games."""
        rows = self._db.execute(
            "SELECT t.id, t.key, t.game, t.config, t.created, "
            "(SELECT COUNT(*) FROM games g WHERE g.tournament_id = t.id) "
            "FROM tournaments t ORDER BY t.id").fetchall()
        return [{"id": int(i), "key": k, "game": g, "config": json.loads(c), "created": cr,
                 "games": int(n)} for i, k, g, c, cr, n in rows]

    @_guarded
    def agents(self, tournament_id: int) -> list[tuple[str, str]]:
        """The tournament's agents as ``(name, spec)`` in their order."""
        return [(str(n), str(s)) for n, s in self._db.execute(
            "SELECT name, spec FROM agents WHERE tournament_id = ? ORDER BY idx",
            (tournament_id,))]

    def close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    @_guarded
    def journal_mode(self) -> str:
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    @_guarded
    def tournament(self, config: TournamentConfig) -> int:
        """The id of ``config``'s tournament, created (with its agents) if the file holds
        no tournament yet. A file that holds another tournament is refused (with what
        differs), instead of growing a second tournament beside the first."""
        key = config.key
        with self._transaction():
            row = self._db.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return int(row[0])
            other = self._db.execute(
                "SELECT config FROM tournaments ORDER BY id LIMIT 1").fetchone()
            if other is not None:
                raise ArenaError(self._different(config, str(other[0])))
            cur = self._db.execute(
                "INSERT INTO tournaments (key, game, config, created) VALUES (?, ?, ?, ?)",
                (key, config.game, json.dumps(config.as_json(), sort_keys=True), now_iso()),
            )
            tid = int(cur.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO agents (tournament_id, idx, name, spec) VALUES (?, ?, ?, ?)",
                [(tid, i, a.name, a.spec) for i, a in enumerate(config.agents)],
            )
        return tid

    def _different(self, config: TournamentConfig, stored: str) -> str:
        try:
            theirs = json.loads(stored)
        except ValueError:
            theirs = {}
        ours = json.loads(json.dumps(config.as_json()))
        if not isinstance(theirs, dict):
            theirs = {}
        differs = [k for k in ours if ours.get(k) != theirs.get(k)]
        def text(value: Any) -> str:
            if isinstance(value, list) and all(isinstance(a, dict) for a in value):
                return ", ".join(str(a.get("spec")) for a in value)  # the agents
            return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))

        shown = [f"{k} {echo(text(ours.get(k)), 40)} here, {echo(text(theirs.get(k)), 40)} in "
                 "the file" for k in differs[:3]]
        game = theirs.get("game", "?")
        return (f"results database {echo(self.path)} holds a different {echo(game, 30)} "
                f"tournament (it differs in {'; '.join(shown) or 'its configuration'}); "
                "rerun the command that made it to resume it, or give another --db")

    def _transaction(self) -> Any:
        db = self._db

        class _Tx:
            def __enter__(self) -> None:
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type: object, *rest: object) -> None:
                if exc_type is not None:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                else:
                    db.execute("COMMIT")

        return _Tx()

    @_guarded
    def add_game(self, tournament_id: int, r: GameRecord, owner: Owner | None = None) -> bool:
        """Store one game (and end ``owner``'s lease of its slot, in the same transaction);
        False (and nothing written) when its slot is already stored."""
        per_seat = json.dumps({"seats": r.seats, "scores": r.scores, "ranks": r.ranks,
                               "returns": r.returns, "times": r.times, "nodes": r.nodes,
                               "plies": r.plies}, separators=(",", ":"))
        with self._transaction():
            cur = self._db.execute(
                "INSERT OR IGNORE INTO games (tournament_id, pair, game_no, round, opening, "
                "agent0, agent1, start_position, opening_plies, moves, score0, score1, "
                "termination, detail, time0, time1, nodes0, nodes1, plies0, plies1, finished_at, "
                "seat_results) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, r.pair, r.game_no, r.round, r.opening_index,
                 r.seats[0], r.seats[1], r.start_position, r.opening_plies,
                 json.dumps(r.moves), r.scores[0], r.scores[1], r.termination, r.detail,
                 r.times[0], r.times[1], r.nodes[0], r.nodes[1], r.plies[0], r.plies[1],
                 r.finished_at, per_seat),
            )
            if owner is not None:
                self._db.execute(
                    "DELETE FROM leases WHERE tournament_id = ? AND pair = ? AND game_no = ? "
                    "AND owner = ?", (tournament_id, r.pair, r.game_no, owner.token))
        return cur.rowcount == 1

    # ----- leases -------------------------------------------------------------------------
    @_guarded
    def claim(self, tournament_id: int, candidates: Iterable[Slot], want: int, owner: Owner,
              seconds: float = LEASE_SECONDS) -> tuple[list[Slot], list[Slot], list[Slot]]:
        """Lease up to ``want`` of ``candidates`` (read lazily, in order) for ``owner``, in one
        transaction. Returns (claimed, already stored, leased by a live owner)."""
        claimed: list[Slot] = []
        stored: list[Slot] = []
        held: list[Slot] = []
        db = self._db
        with self._transaction():
            now = time.time()
            for slot in candidates if want > 0 else ():
                key = (tournament_id, *slot)
                if db.execute("SELECT 1 FROM games WHERE tournament_id = ? AND pair = ? AND "
                              "game_no = ?", key).fetchone() is not None:
                    stored.append(slot)
                    continue
                lease = db.execute("SELECT host, pid, owner, expires FROM leases WHERE "
                                   "tournament_id = ? AND pair = ? AND game_no = ?",
                                   key).fetchone()
                if lease is not None and lease[2] != owner.token and not self._stale(
                        lease, owner, now):
                    held.append(slot)
                    continue
                db.execute("INSERT OR REPLACE INTO leases (tournament_id, pair, game_no, host, "
                           "pid, owner, expires) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (*key, owner.host, owner.pid, owner.token, now + seconds))
                claimed.append(slot)
                if len(claimed) >= want:
                    break  # (before the next candidate is drawn: none is lost)
        return claimed, stored, held

    @staticmethod
    def _stale(lease: tuple[Any, ...], owner: Owner, now: float) -> bool:
        host, pid, _, expires = lease
        if float(expires) < now:
            return True
        return bool(host == owner.host and int(pid) != owner.pid and not _pid_alive(int(pid)))

    @_guarded
    def renew(self, tournament_id: int, owner: Owner, seconds: float = LEASE_SECONDS) -> None:
        """Push back the expiry of every lease ``owner`` holds."""
        with self._transaction():
            self._db.execute("UPDATE leases SET expires = ? WHERE tournament_id = ? AND "
                             "owner = ?", (time.time() + seconds, tournament_id, owner.token))

    @_guarded
    def release(self, tournament_id: int, owner: Owner) -> None:
        """End every lease ``owner`` holds (its run is over)."""
        with self._transaction():
            self._db.execute("DELETE FROM leases WHERE tournament_id = ? AND owner = ?",
                             (tournament_id, owner.token))

    @_guarded
    def leases(self, tournament_id: int) -> list[tuple[Slot, str, int, str, float]]:
        """Every lease: (slot, host, pid, owner token, expiry as Unix time)."""
        rows = self._db.execute("SELECT pair, game_no, host, pid, owner, expires FROM leases "
                                "WHERE tournament_id = ? ORDER BY pair, game_no",
                                (tournament_id,))
        return [((int(p), int(g)), str(h), int(pid), str(o), float(e))
                for p, g, h, pid, o, e in rows]

    # ----- reading ------------------------------------------------------------------------
    @_guarded
    def done_slots(self, tournament_id: int) -> set[Slot]:
        rows = self._db.execute(
            "SELECT pair, game_no FROM games WHERE tournament_id = ?", (tournament_id,))
        return {(int(p), int(g)) for p, g in rows}

    @_guarded
    def games(self, tournament_id: int, after: int = 0) -> list[GameRecord]:
        """The tournament's games in slot order (specs filled in from the agents table);
        with ``after``, only those stored after the row id ``after``, in storing order."""
        return [r for _, r in self.games_with_ids(tournament_id, after)]

    @_guarded
    def games_with_ids(self, tournament_id: int, after: int = 0
                       ) -> list[tuple[int, GameRecord]]:
        """(row id, record) of :meth:`games`: the ids say where to read on from."""
        specs = {int(i): s for i, s in self._db.execute(
            "SELECT idx, spec FROM agents WHERE tournament_id = ?", (tournament_id,))}
        return list(self._records(tournament_id, specs, after))

    def _records(self, tid: int, specs: dict[int, str], after: int
                 ) -> Iterator[tuple[int, GameRecord]]:
        rows = self._db.execute(
            "SELECT id, pair, game_no, opening, agent0, agent1, start_position, opening_plies, "
            "moves, score0, score1, termination, detail, time0, time1, nodes0, nodes1, "
            "plies0, plies1, finished_at, "
            + ("seat_results" if self._has_seat_results() else "NULL")
            + " FROM games WHERE tournament_id = ? AND id > ? "
            + ("ORDER BY pair, game_no" if after == 0 else "ORDER BY id"), (tid, after))
        for (rowid, pair, game_no, opening, a0, a1, start, oplies, moves, s0, s1, term,
             detail, t0, t1, n0, n1, p0, p1, finished, per_seat) in rows:
            try:
                seat: dict[str, Any]
                if per_seat is None:  # (a row of a version-0 file: two seats in columns)
                    seat = {"seats": [a0, a1], "scores": [s0, s1], "ranks": [],
                            "returns": None, "times": [t0, t1], "nodes": [n0, n1],
                            "plies": [p0, p1]}
                else:
                    seat = json.loads(per_seat)
                record = GameRecord(
                    pair=pair, game_no=game_no, seats=seat["seats"],
                    specs=[specs[a] for a in seat["seats"]],
                    opening_index=opening, start_position=start, opening_plies=oplies,
                    moves=json.loads(moves), scores=seat["scores"], termination=term,
                    detail=detail, times=seat["times"], nodes=seat["nodes"],
                    plies=seat["plies"], finished_at=finished, ranks=seat["ranks"],
                    returns=seat["returns"],
                )
            except (KeyError, TypeError, ValueError):
                raise ArenaError(f"results database {echo(self.path)}: game {pair}:{game_no} "
                                 "is not readable (a damaged or edited row); give a new --db"
                                 ) from None
            yield int(rowid), record

    @_guarded
    def count_duplicates(self, tournament_id: int) -> int:
        """Slots stored more than once (always 0: the UNIQUE constraint; for tests)."""
        row = self._db.execute(
            "SELECT COUNT(*) - COUNT(DISTINCT pair || ':' || game_no) FROM games "
            "WHERE tournament_id = ?", (tournament_id,)).fetchone()
        return int(row[0])
