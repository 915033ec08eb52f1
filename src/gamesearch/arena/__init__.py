"""The arena: matches and tournaments between agents, with results that survive crashes.

* :mod:`~gamesearch.arena.schedule` — configuration, openings, the deterministic schedule;
* :mod:`~gamesearch.arena.play` — one game in this process: clocks, forfeits, the record;
* :mod:`~gamesearch.arena.runner` — games in supervised child processes, locally or on Ray;
* :mod:`~gamesearch.arena.store` — the SQLite result store (WAL, one row per game slot);
* :mod:`~gamesearch.arena.ratings` — score, Elo with 95% margin, LOS, SPRT;
* :mod:`~gamesearch.arena.report` — standings, progress line, plot, JSON lines export;
* :mod:`~gamesearch.arena.tournament` — all of it end to end (:func:`run_tournament`);
* :mod:`~gamesearch.interfaces.arena_cli` — the ``match`` and ``tournament`` commands.
"""

from __future__ import annotations

from .errors import ArenaError
from .play import GameRecord, make_arena_agent, play_job
from .ratings import SPRT, Score, elo_from_score, expected_score, sprt_llr
from .runner import play_slot, run_supervised
from .schedule import (
    AgentEntry,
    Job,
    Opening,
    TournamentConfig,
    default_openings,
    parse_agents,
    random_openings,
    read_openings,
)
from .store import Store
from .timecontrol import TimeControl
from .tournament import RunOptions, TournamentResult, run_tournament

__all__ = [
    "SPRT",
    "AgentEntry",
    "ArenaError",
    "GameRecord",
    "Job",
    "Opening",
    "RunOptions",
    "Score",
    "Store",
    "TimeControl",
    "TournamentConfig",
    "TournamentResult",
    "default_openings",
    "elo_from_score",
    "expected_score",
    "make_arena_agent",
    "parse_agents",
    "play_job",
    "play_slot",
    "random_openings",
    "read_openings",
    "run_supervised",
    "run_tournament",
    "sprt_llr",
]
