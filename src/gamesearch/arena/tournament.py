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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from .errors import ArenaError
from .play import GameRecord, check_agent_specs
from .ratings import SPRT, Score
from .report import Progress, Standing, pair_score, standings
from .runner import run_local, run_ray
from .schedule import Job, TournamentConfig, load_game
from .store import Store

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


def validate(config: TournamentConfig) -> None:
    """Refuse a configuration before any game: unknown game, bad agent specs."""
    game = load_game(config.game)
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
    validate(config)
    with Store(opts.db) as store:
        tid = store.tournament(config)
        schedule = config.schedule()
        done = store.done_slots(tid)
        todo: list[Job] = [j for j in schedule if j.slot not in done]
        progress = Progress(opts.progress, len(schedule), list(config.agents), opts.sprt,
                            store.games(tid))
        sprt = opts.sprt
        played = 0

        def decided() -> bool:
            if sprt is None:
                return False
            return sprt.decision(progress.pair) is not None

        def on_record(record: GameRecord) -> None:
            nonlocal played
            if store.add_game(tid, record):
                played += 1
                progress.add(record)
            if opts.on_record is not None:
                opts.on_record(record)

        stopped = False
        if todo and not decided():
            if opts.backend == "ray":
                finished = run_ray(todo, opts.workers if opts.workers > 1 else None,
                                   on_record, decided, opts.ray_address)
            else:
                finished = run_local(todo, opts.workers, on_record, decided)
            stopped = not finished
        elif todo:
            stopped = True
        progress.show(final=True)
        records = store.games(tid)
    return TournamentResult(
        config=config, tournament_id=tid, records=records,
        standings=standings(list(config.agents), records), played=played,
        scheduled=len(schedule), sprt=sprt, stopped_by_sprt=stopped,
    )
