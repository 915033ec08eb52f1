"""The result store: SQLite (standard library ``sqlite3``) in WAL mode, one row per game.

Tables: ``tournaments`` (one per configuration, found again by its ``key``), ``agents``
(name and full spec of every agent), ``games`` (moves, result per seat, termination
reason, time used and nodes per seat). ``UNIQUE (tournament_id, pair, game_no)`` names the
scheduled slot, so a resumed run can never store a game twice. Each game is committed on
its own, so a killed process (SIGKILL included) loses at most the games still being played.
``synchronous=NORMAL`` (WAL's usual setting) skips the fsync per game: a power failure may
also lose the last few commits, which a resumed run simply plays again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

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
"""


class Store:
    """A results database (a file, or ``":memory:"``)."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA busy_timeout=10000")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise ArenaError(f"results database {path!r}: {exc}") from None

    @classmethod
    def open_readonly(cls, path: str) -> Store:
        """An existing results file opened read-only (SQLite's ``mode=ro`` URI): for
        readers such as the web app, which must never write to it."""
        from pathlib import Path
        from urllib.parse import quote

        store = cls.__new__(cls)
        store.path = path
        try:
            store.db = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro",
                                       uri=True, isolation_level=None,
                                       check_same_thread=False)
            store.db.execute("PRAGMA busy_timeout=2000")
            store.db.execute("SELECT COUNT(*) FROM tournaments").fetchone()
        except sqlite3.Error as exc:
            raise ArenaError(f"results database {path!r}: {exc}") from None
        return store

    def list_tournaments(self) -> list[dict[str, Any]]:
        """Every tournament in the file: id, key, game, config (a dict), created, games."""
        rows = self.db.execute(
            "SELECT t.id, t.key, t.game, t.config, t.created, "
            "(SELECT COUNT(*) FROM games g WHERE g.tournament_id = t.id) "
            "FROM tournaments t ORDER BY t.id").fetchall()
        return [{"id": int(i), "key": k, "game": g, "config": json.loads(c), "created": cr,
                 "games": int(n)} for i, k, g, c, cr, n in rows]

    def agents(self, tournament_id: int) -> list[tuple[str, str]]:
        """The tournament's agents as ``(name, spec)`` in their order."""
        return [(str(n), str(s)) for n, s in self.db.execute(
            "SELECT name, spec FROM agents WHERE tournament_id = ? ORDER BY idx",
            (tournament_id,))]

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def journal_mode(self) -> str:
        return str(self.db.execute("PRAGMA journal_mode").fetchone()[0])

    def tournament(self, config: TournamentConfig) -> int:
        """The id of ``config``'s tournament, created (with its agents) if new."""
        key = config.key
        row = self.db.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return int(row[0])
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO tournaments (key, game, config, created) VALUES (?, ?, ?, ?)",
                (key, config.game, json.dumps(config.as_json(), sort_keys=True), now_iso()),
            )
            tid = int(cur.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO agents (tournament_id, idx, name, spec) VALUES (?, ?, ?, ?)",
                [(tid, i, a.name, a.spec) for i, a in enumerate(config.agents)],
            )
        return tid

    def _transaction(self) -> Any:
        db = self.db

        class _Tx:
            def __enter__(self) -> None:
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type: object, *rest: object) -> None:
                db.execute("ROLLBACK" if exc_type is not None else "COMMIT")

        return _Tx()

    def add_game(self, tournament_id: int, r: GameRecord) -> bool:
        """Store one game; False (and nothing written) when its slot is already stored."""
        with self._transaction():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games (tournament_id, pair, game_no, round, opening, "
                "agent0, agent1, start_position, opening_plies, moves, score0, score1, "
                "termination, detail, time0, time1, nodes0, nodes1, plies0, plies1, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, r.pair, r.game_no, r.round, r.opening_index,
                 r.seats[0], r.seats[1], r.start_position, r.opening_plies,
                 json.dumps(r.moves), r.scores[0], r.scores[1], r.termination, r.detail,
                 r.times[0], r.times[1], r.nodes[0], r.nodes[1], r.plies[0], r.plies[1],
                 r.finished_at),
            )
        return cur.rowcount == 1

    def done_slots(self, tournament_id: int) -> set[tuple[int, int]]:
        rows = self.db.execute(
            "SELECT pair, game_no FROM games WHERE tournament_id = ?", (tournament_id,))
        return {(int(p), int(g)) for p, g in rows}

    def games(self, tournament_id: int) -> list[GameRecord]:
        """The tournament's games in slot order (specs filled in from the agents table)."""
        specs = {int(i): s for i, s in self.db.execute(
            "SELECT idx, spec FROM agents WHERE tournament_id = ?", (tournament_id,))}
        return list(self._records(tournament_id, specs))

    def _records(self, tid: int, specs: dict[int, str]) -> Iterator[GameRecord]:
        rows = self.db.execute(
            "SELECT pair, game_no, opening, agent0, agent1, start_position, opening_plies, "
            "moves, score0, score1, termination, detail, time0, time1, nodes0, nodes1, "
            "plies0, plies1, finished_at FROM games WHERE tournament_id = ? "
            "ORDER BY pair, game_no", (tid,))
        for (pair, game_no, opening, a0, a1, start, oplies, moves, s0, s1, term, detail,
             t0, t1, n0, n1, p0, p1, finished) in rows:
            yield GameRecord(
                pair=pair, game_no=game_no, seats=[a0, a1], specs=[specs[a0], specs[a1]],
                opening_index=opening, start_position=start, opening_plies=oplies,
                moves=json.loads(moves), scores=[s0, s1], termination=term, detail=detail,
                times=[t0, t1], nodes=[n0, n1], plies=[p0, p1], finished_at=finished,
            )

    def count_duplicates(self, tournament_id: int) -> int:
        """Slots stored more than once (always 0: the UNIQUE constraint; for tests)."""
        row = self.db.execute(
            "SELECT COUNT(*) - COUNT(DISTINCT pair || ':' || game_no) FROM games "
            "WHERE tournament_id = ?", (tournament_id,)).fetchone()
        return int(row[0])
