"""Duplicate scoring: each board played at two tables with the teams turned.

A duplicate tournament (:class:`~gamesearch.arena.schedule.TournamentConfig` with
``duplicate=True``; the schedule is in :mod:`gamesearch.arena.schedule`) stores one
:class:`~gamesearch.arena.play.GameRecord` per table, like any other tournament, so that
its store, resume, leases and backends are the arena's own. This module reads those records
back a board at a time: agent ``a`` of a table of agents ``(a, b)`` sat in the first team
at table 0 and in the second at table 1; its *difference* on the board is the sum of its
team's returns at the two tables (the game's returns are zero-sum between the teams, so
this is its result at one table less the other pair's result with the same cards), and its
*board points* the game's conversion of it (``MatchHooks.board_points``: bridge's IMP
scale, the Laws of Duplicate Bridge 2017, Law 78B), ``b``'s being the negative.

A board is scored when both its tables ended by the game's rules; a board with a table not
yet played, or lost to a forfeit (crash, timeout, illegal move) or the move limit, is
counted apart (``unscored``) and left out of the means: the standings say how many.
An agent's result is its mean board points with a 95 % normal interval
(:func:`~gamesearch.arena.ratings.points_per_game`), over every board it played.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .play import GameRecord
from .ratings import Points, points_per_game
from .schedule import TournamentConfig, load_game


@dataclass(frozen=True)
class BoardResult:
    """One board between the agents of a table (``first`` sat in the first team at table
    0): ``first``'s difference of returns and its board points (``second``'s are the
    negatives), or ``None`` for an unscored board."""

    pair: int
    board: int
    first: int
    second: int
    difference: float | None
    points: float | None
    #: the first agent's team's returns at table 0 and table 1 (``None``: no result)
    tables: tuple[float | None, float | None]

    @property
    def scored(self) -> bool:
        return self.points is not None


def _team_return(record: GameRecord, agent: int) -> float | None:
    if record.termination != "normal" or record.returns is None:
        return None
    return record.returns[record.seats.index(agent)]


def board_results(config: TournamentConfig, records: Sequence[GameRecord]
                  ) -> list[BoardResult]:
    """Every board of the schedule that has at least one table stored, in (pair, board)
    order."""
    hooks = load_game(config.game).match_hooks()
    convert = None if hooks is None else hooks.board_points
    by_slot = {(r.pair, r.game_no): r for r in records}
    pairs = config.pairs()
    out = []
    for pair, board in sorted({(r.pair, r.game_no // 2) for r in records}):
        first, second = pairs[pair]
        tables = tuple(None if (pair, 2 * board + t) not in by_slot else
                       _team_return(by_slot[(pair, 2 * board + t)], first) for t in (0, 1))
        t0, t1 = tables
        difference = None if t0 is None or t1 is None else t0 + t1
        points = None if difference is None else (
            float(convert(difference)) if convert is not None else difference)
        out.append(BoardResult(pair, board, first, second, difference, points, (t0, t1)))
    return out


@dataclass(frozen=True)
class PairStanding:
    """An agent (a pair: it plays every seat of its team) over its scored boards."""

    index: int
    name: str
    spec: str
    points: Points
    total: float
    unscored: int


def pair_standings(config: TournamentConfig, records: Sequence[GameRecord]
                   ) -> list[PairStanding]:
    """Every agent's board points against the field, best mean first."""
    boards = board_results(config, records)
    rows = []
    for k, agent in enumerate(config.agents):
        mine = [b for b in boards if k in (b.first, b.second)]
        values = [b.points if b.first == k else -b.points
                  for b in mine if b.points is not None]
        rows.append(PairStanding(k, agent.name, agent.spec, points_per_game(values),
                                 sum(values), sum(not b.scored for b in mine)))
    return sorted(rows, key=lambda r: (-(r.points.mean if r.points.games else -1e18), r.index))


def head_to_head(config: TournamentConfig, records: Sequence[GameRecord]
                 ) -> list[tuple[int, int, Points]]:
    """Each table of agents ``(a, b)``: ``a``'s board points against ``b``."""
    boards = board_results(config, records)
    return [(a, b, points_per_game([x.points for x in boards
                                    if x.pair == pair and x.points is not None]))
            for pair, (a, b) in enumerate(config.pairs())]


def board_unit(config: TournamentConfig) -> str:
    """What a board scores in: ``IMPs`` for a game with a board-points scale (bridge),
    else the game's own ``points``."""
    hooks = load_game(config.game).match_hooks()
    return "IMPs" if hooks is not None and hooks.board_points is not None else "points"


def _finite(x: float) -> float | None:  # (JSON has no infinity: one board has no interval)
    return x if math.isfinite(x) else None


def duplicate_summary(config: TournamentConfig, records: Sequence[GameRecord]
                      ) -> dict[str, Any]:
    """A duplicate tournament's results as JSON-ready data, the same for the command line
    (``tournament --duplicate --json``) and the web app: the unit, each pair's board points
    (total, mean per board with its 95 % margin, boards won, unscored boards), the head to
    head of each table of agents, and every board with its two tables."""
    names = [a.name for a in config.agents]
    boards = board_results(config, records)
    totals = [sum(b.points for b in boards if b.pair == pair and b.points is not None)
              for pair in range(len(config.pairs()))]
    return {
        "unit": board_unit(config),
        "boards": config.boards,
        "pairs": [
            {"agent": p.name, "spec": p.spec, "boards": p.points.games, "total": p.total,
             "mean": p.points.mean, "margin": _finite(p.points.margin),
             "boards_won": p.points.wins, "unscored": p.unscored}
            for p in pair_standings(config, records)],
        "head_to_head": [
            {"first": names[a], "second": names[b], "boards": p.games, "mean": p.mean,
             "margin": _finite(p.margin), "boards_won": p.wins, "total": totals[pair]}
            for pair, (a, b, p) in enumerate(head_to_head(config, records))],
        "board_results": [
            {"pair": b.pair, "board": b.board, "first": names[b.first],
             "second": names[b.second], "tables": list(b.tables),
             "difference": b.difference, "points": b.points}
            for b in boards],
    }


def render_duplicate(config: TournamentConfig, records: Sequence[GameRecord]) -> str:
    """The standings and head-to-head table of a duplicate tournament, as text."""
    unit = board_unit(config)
    lines = [f" #  pair              boards   {unit:>6} total   {unit}/board (95 %)   "
             "unscored"]
    for place, row in enumerate(pair_standings(config, records), 1):
        p = row.points
        mean = f"{p.mean:+.2f} ± {p.margin:.2f}" if p.games > 1 else (
            f"{p.mean:+.2f}" if p.games else "--")
        lines.append(f"{place:2d}  {row.name[:16]:16s} {p.games:7d}   {row.total:+11.0f}   "
                     f"{mean:>18s}   {row.unscored:8d}")
    lines.append("head to head (the first pair's " + unit + " per board):")
    for a, b, p in head_to_head(config, records):
        mean = f"{p.mean:+.2f} ± {p.margin:.2f}" if p.games > 1 else (
            f"{p.mean:+.2f}" if p.games else "--")
        lines.append(f"  {config.agents[a].name} vs {config.agents[b].name}: {p.games} "
                     f"boards, {mean} {unit}/board, boards won {p.wins}")
    return "\n".join(lines)
