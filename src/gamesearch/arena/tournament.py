"""Running a tournament or a match end to end: schedule, store, backend, ratings, reports.

>>> from gamesearch.arena import TournamentConfig, parse_agents, run_tournament
>>> config = TournamentConfig("tictactoe", tuple(parse_agents(["alphabeta:depth=9",
...                           "random:seed=1"])), games_per_pair=2)
>>> result = run_tournament(config)          # in memory; RunOptions(db=...) to keep it
>>> [r.termination for r in result.records], result.standings[0].name
(['normal', 'normal'], 'alphabeta:depth=9')
>>> result.standings[0].score.losses
0
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from .duplicate import DuplicateProgress
from .errors import ArenaError
from .play import GameRecord, check_agent_specs
from .ratings import SPRT, Score
from .report import Progress, Standing, pair_score, standings
from .runner import POLL_SECONDS, run_local, run_ray
from .schedule import Job, TournamentConfig, load_game
from .store import LEASE_SECONDS, Owner, Slot, Store

BACKENDS = ("local", "ray")


@dataclass
class RunOptions:
    """How to run (none of it changes which games are played or their results)."""

    db: str = ":memory:"
    workers: int = 1
    backend: str = "local"
    ray_address: str | None = None
    sprt: SPRT | None = None
    progress: TextIO | None = None
    #: called with each new record after it is stored (tests use it to interrupt a run)
    on_record: Callable[[GameRecord], None] | None = None
    #: seconds a claimed game stays leased to this run without a renewal
    lease_seconds: float = LEASE_SECONDS


@dataclass
class TournamentResult:
    config: TournamentConfig
    tournament_id: int
    records: list[GameRecord]
    standings: list[Standing]
    #: games played by this run (the rest were in the database already)
    played: int
    scheduled: int
    sprt: SPRT | None = None
    stopped_by_sprt: bool = False
    warnings: list[str] = field(default_factory=list)

    @property
    def match_score(self) -> Score:
        """The first agent's result against the second (the match view)."""
        return pair_score(self.records, 0, 1)

    @property
    def sprt_decision(self) -> str | None:
        return None if self.sprt is None else self.sprt.decision(self.match_score)


class LeasedSchedule:
    """The tournament's schedule as a :class:`~gamesearch.arena.runner.JobSource` that claims
    its games in the database (:meth:`Store.claim`), so that every process running the same
    command on the same file plays a share of the games and none plays a game twice.

    Slots are offered in schedule order from a cursor; a slot another live process holds
    is set aside and offered again later (its owner may die, and its lease then lapses).
    Games the others store are read back (``on_foreign``), so progress and an SPRT see the
    whole tournament. Leases are renewed every third of their length while games run."""

    def __init__(self, store: Store, tid: int, config: TournamentConfig, owner: Owner,
                 on_foreign: Callable[[GameRecord], None], lease_seconds: float,
                 last_id: int) -> None:
        self.store, self.tid, self.config, self.owner = store, tid, config, owner
        self.on_foreign, self.lease_seconds = on_foreign, lease_seconds
        self.total = config.total
        self.done = store.done_slots(tid)
        self.cursor = 0
        self.held: list[Slot] = []  # leased by others when last looked at
        self.mine: set[Slot] = set()
        self.last_id = last_id
        self.renewed = self.looked = time.monotonic()

    def stored(self, slot: Slot) -> None:
        """This run stored (or lost to another) the game in ``slot``."""
        self.done.add(slot)
        self.mine.discard(slot)

    def _candidates(self) -> Iterator[Slot]:
        retry, self.held = self.held, []
        for slot in retry:
            if slot not in self.done:
                yield slot
        while self.cursor < self.total:
            slot = self.config.slot_at(self.cursor)
            self.cursor += 1
            if slot not in self.done and slot not in self.mine:
                yield slot

    def refresh(self) -> None:
        """Read the games others stored since the last look (``on_foreign``)."""
        for rowid, record in self.store.games_with_ids(self.tid, self.last_id):
            self.last_id = max(self.last_id, rowid)
            if record.slot not in self.done:
                self.done.add(record.slot)
                self.on_foreign(record)

    def take(self, room: int) -> list[Job]:
        now = time.monotonic()
        if self.mine and now - self.renewed > self.lease_seconds / 3:
            self.store.renew(self.tid, self.owner, self.lease_seconds)
            self.renewed = now
        if room <= 0 or self.exhausted():
            return []
        if self.cursor >= self.total and now - self.looked < POLL_SECONDS:
            return []  # only others' games are left: look again after a while
        self.looked = now
        self.refresh()
        claimed, stored, held = self.store.claim(self.tid, self._candidates(), room,
                                                 self.owner, self.lease_seconds)
        if stored:  # (stored by another process since the look above: count them too)
            self.refresh()
        self.done.update(stored)
        self.held.extend(held)
        self.mine.update(claimed)
        return [self.config.job(*slot) for slot in claimed]

    def exhausted(self) -> bool:
        return len(self.done) >= self.total or (self.cursor >= self.total and not self.held)


def validate(config: TournamentConfig) -> None:
    """Refuse a configuration before any game: unknown game, bad agent specs."""
    game = load_game(config.game)
    config.check_seats()
    check_agent_specs(game, [a.spec for a in config.agents])


def run_tournament(config: TournamentConfig, options: RunOptions | None = None
                   ) -> TournamentResult:
    """Play every scheduled game not yet in ``options.db`` and return the standings."""
    opts = options or RunOptions()
    if opts.backend not in BACKENDS:
        raise ArenaError(f"backend {opts.backend!r}; allowed: {', '.join(BACKENDS)}")
    if opts.workers < 1:
        raise ArenaError(f"workers {opts.workers}: must be at least 1")
    if opts.sprt is not None and len(config.agents) != 2:
        raise ArenaError("SPRT needs a match: exactly two agents")
    if opts.sprt is not None and config.duplicate:
        raise ArenaError("SPRT tests Elo from won and lost games; a duplicate tournament "
                         "scores boards (IMPs): run it without SPRT")
    validate(config)
    with Store(opts.db) as store:
        tid = store.tournament(config)
        known = store.games_with_ids(tid)
        progress = (DuplicateProgress(opts.progress, config, [r for _, r in known])
                    if config.duplicate else
                    Progress(opts.progress, config.total, list(config.agents), opts.sprt,
                             [r for _, r in known]))
        sprt = opts.sprt
        played = 0
        owner = Owner()
        queue = LeasedSchedule(store, tid, config, owner, progress.add, opts.lease_seconds,
                               max((i for i, _ in known), default=0))
        del known

        def decided() -> bool:
            if sprt is None:
                return False
            return sprt.decision(progress.pair) is not None

        def on_record(record: GameRecord) -> None:
            nonlocal played
            if store.add_game(tid, record, owner):
                played += 1
                progress.add(record)
            else:  # (another process stored this slot first: its game is the one counted)
                queue.refresh()
            queue.stored(record.slot)
            if opts.on_record is not None:
                opts.on_record(record)

        stopped = False
        try:
            if not queue.exhausted() and not decided():
                if opts.backend == "ray":
                    finished = run_ray(queue, opts.workers if opts.workers > 1 else None,
                                       on_record, decided, opts.ray_address)
                else:
                    finished = run_local(queue, opts.workers, on_record, decided)
                stopped = not finished
            elif not queue.exhausted():
                stopped = True
        finally:
            with contextlib.suppress(ArenaError):  # (a damaged file: the first error tells)
                store.release(tid, owner)
        progress.show(final=True)
        records = store.games(tid)
    return TournamentResult(
        config=config, tournament_id=tid, records=records,
        standings=[] if config.duplicate else  # (duplicate: see arena.duplicate)
        standings(list(config.agents), records, config.seats), played=played,
        scheduled=config.total, sprt=sprt, stopped_by_sprt=stopped,
    )
