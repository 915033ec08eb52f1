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
(:func:`~gamesearch.arena.ratings.points_per_game`), over every board it played. No
rating model (Elo, openskill) is fed a duplicate tournament: a table alone is half a
board, and its win or loss says more about the cards than about the pair.

While a duplicate tournament runs, :class:`DuplicateProgress` writes lines after each
board whose two tables are stored: the board, each table's outcome in the game's words
(``MatchHooks.table_outcome``, bridge: the contract, the declarer and the tricks) and score,
the board's points, and the running totals and means of :func:`duplicate_summary`, the
one place the board points are added up. :func:`table_views` gives each stored table with
its outcome (:class:`~gamesearch.capabilities.TableOutcome`: text and facts) and its
board's points per team, for the web app's games list and replay and for
``tournament --export-jsonl``: no view of a duplicate tournament shows a rank, a win or
an Elo.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..capabilities import TableOutcome
from ..errors import GameError
from ..game import Game
from .play import GameRecord
from .ratings import Points, points_per_game
from .report import Progress, interval_chart
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


def team_names(config: TournamentConfig) -> tuple[str, str]:
    """What the two teams are called (``MatchHooks.team_names``; bridge: ``N-S``, ``E-W``),
    else ``team 1``, ``team 2``."""
    hooks = load_game(config.game).match_hooks()
    if hooks is not None and hooks.team_names is not None:
        return hooks.team_names
    return ("team 1", "team 2")


def _finite(x: float) -> float | None:  # (JSON has no infinity: one board has no interval)
    return x if math.isfinite(x) else None


def duplicate_summary(config: TournamentConfig, records: Sequence[GameRecord],
                      outcomes: bool = False) -> dict[str, Any]:
    """A duplicate tournament's results as JSON-ready data, the same for the command line
    (``tournament --duplicate --json``) and the web app: the unit, each pair's board points
    (total, mean per board with its 95 % margin, boards won, unscored boards), the head to
    head of each table of agents, and every board with its two tables. ``outcomes``: each
    board also says how its tables ended (:func:`outcome_json` of :func:`table_outcome`,
    ``None`` for a table not stored; bridge: the contract, declarer, tricks and score), at
    the price of replaying every table on its board's game (bridge without a contract: a
    double-dummy table a board)."""
    names = [a.name for a in config.agents]
    boards = board_results(config, records)
    extra: dict[tuple[int, int], dict[str, Any]] = {}
    if outcomes:
        by_slot = {(r.pair, r.game_no): r for r in records}
        games = _BoardGames(config)
        for b in boards:
            found: list[dict[str, Any] | None] = []
            for t in (0, 1):
                record = by_slot.get((b.pair, 2 * b.board + t))
                found.append(None if record is None else outcome_json(
                    table_outcome(config, record, games[b.board])))
            extra[(b.pair, b.board)] = {"outcomes": found}
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
             "difference": b.difference, "points": b.points,
             **extra.get((b.pair, b.board), {})}
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


def render_duplicate_svg(title: str, config: TournamentConfig,
                         records: Sequence[GameRecord]) -> str:
    """The picture of ``tournament --duplicate --plot``: each pair's board points per board
    (bridge: IMPs) with its 95 % interval, from :func:`duplicate_summary`, best first (a
    pair of one board has no interval: its bar spans the picture)."""
    summary = duplicate_summary(config, records)
    unit, rows = summary["unit"], summary["pairs"]
    spans = [abs(r["mean"]) + r["margin"] for r in rows
             if r["boards"] and r["margin"] is not None]
    span = max(1.0, *spans) * 1.1 if spans else 1.0
    x0, x1 = 230, 900 - 170

    def xs(v: float) -> float:
        return x0 + (x1 - x0) * (max(-span, min(span, v)) + span) / (2 * span)

    intervals = []
    for r in rows:
        margin = span * 2 if r["margin"] is None else r["margin"]
        text = ("no board" if not r["boards"] else
                f"{r['mean']:+.2f}" + ("" if r["margin"] is None else f" ± {r['margin']:.2f}")
                + f" over {_boards(r['boards'])}")
        intervals.append((r["agent"], r["mean"], r["mean"] - margin, r["mean"] + margin,
                          text))
    height = 70 + 26 * len(rows)
    out = interval_chart(title, f"{unit} per board against the field, 95% interval "
                         "(a board: its two tables)", 900, height,
                         height - 10, x0, x1, 26, xs, intervals)
    out.append("</svg>")
    return "\n".join(out)


# ----- live lines ------------------------------------------------------------------------
#: how much of a forfeit's detail a board line keeps
DETAIL_CHARS = 80


def table_outcome(config: TournamentConfig, record: GameRecord,
                  game: Game[Any, Any] | None = None) -> TableOutcome:
    """One stored table in a few words and its facts: for a game that ended by its rules,
    the finished table replayed on its board's game and described by the game
    (``MatchHooks.table_outcome``; bridge: the contract, declarer, tricks and score; else
    ``termination``, no facts); else how it ended (a forfeit, the move limit) and why, no
    facts. ``game``: the board's game, if the caller has it."""
    if record.termination != "normal":
        detail = record.detail if len(record.detail) <= DETAIL_CHARS else (
            record.detail[:DETAIL_CHARS - 3] + "...")
        return TableOutcome(record.termination + (f" ({detail})" if detail else ""))
    try:
        if game is None:
            game = board_game(config.board_spec(record.game_no // 2))
        state = (game.parse_state(record.start_position) if record.start_position
                 else game.initial_state())
        for text in record.moves:
            state = game.result(state, game.parse_action(state, text))
    except (GameError, ValueError) as exc:  # (a damaged store: say so, go on)
        return TableOutcome(f"not replayed: {exc}")
    hooks = game.match_hooks()
    describe = None if hooks is None else hooks.table_outcome
    if describe is not None:
        return describe(state)
    return TableOutcome(game.termination(state) or "ended")


def outcome_json(outcome: TableOutcome) -> dict[str, Any]:
    """A table's outcome as JSON: ``text`` and the game's facts beside it (bridge:
    ``contract``, ``declarer``, ``tricks``, ``score``; none for a forfeit)."""
    return {"text": outcome.text, **outcome.facts}


@functools.lru_cache(maxsize=1024)
def board_game(spec: str) -> Game[Any, Any]:
    """The game of a board's spec (``TournamentConfig.board_spec``), remembered: bridge
    without a contract chooses it from the deal's double-dummy table (DDS: a few tenths
    of a second a board), and the web app reads a running tournament's tables again at
    every update. Only to replay stored tables: the arena's agents get games of their own."""
    return load_game(spec)


class _BoardGames(dict[int, "Game[Any, Any]"]):
    """The game of each board, when first asked (:func:`board_game`)."""

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__()
        self.config = config

    def __missing__(self, board: int) -> Game[Any, Any]:
        game = self[board] = board_game(self.config.board_spec(board))
        return game


def table_views(config: TournamentConfig, records: Sequence[GameRecord],
                summary: dict[str, Any] | None = None,
                only: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Each stored table (``records[k]`` for ``k`` in ``only``, default all) as the web
    app's games list and replay and ``tournament --export-jsonl`` show it: ``board`` and
    ``table`` (0-based, as in ``board_results``), ``board_game`` (the spec of the board's
    game, on which the table replays), ``unit``, ``outcome`` (:func:`outcome_json`) and
    ``teams``, one object per team in the order of ``MatchHooks.teams`` with its
    ``name`` (bridge: ``N-S``, ``E-W``), ``agent``, ``score`` (its return at this table;
    ``None`` for a forfeit) and ``points``, the board's points for that agent (bridge:
    IMPs; ``None`` while the board is unscored). The board points are
    :func:`duplicate_summary`'s (``summary``, if the caller has it; with ``outcomes``
    its table outcomes are used too, else each table is replayed here)."""
    if summary is None:
        summary = duplicate_summary(config, records)
    rows = {(b["pair"], b["board"]): b for b in summary["board_results"]}
    names = team_names(config)
    teams, pairs = config.teams, config.pairs()
    games = _BoardGames(config)
    out = []
    for k in range(len(records)) if only is None else only:
        record = records[k]
        board, table = divmod(record.game_no, 2)
        row = rows[(record.pair, board)]
        outcome = (row["outcomes"][table] if row.get("outcomes") is not None else
                   outcome_json(table_outcome(config, record, games[board])))
        views = []
        for name, seats in zip(names, teams, strict=True):
            index = record.seats[seats[0]]
            points = row["points"]
            score = (None if record.termination != "normal" or record.returns is None
                     else record.returns[seats[0]])
            views.append({"name": name, "agent": config.agents[index].name, "score": score,
                          "points": None if points is None else
                          points if index == pairs[record.pair][0] else 0.0 - points})
        out.append({"board": board, "table": table, "board_game": config.board_spec(board),
                    "unit": summary["unit"], "outcome": outcome, "teams": views})
    return out


def _signed(x: float) -> str:
    return f"{x:+g}"


def _per_board(mean: float, margin: float | None, boards: int, unit: str) -> str:
    if not boards:
        return "no board scored"
    if margin is None:  # (one board: no interval)
        return f"{mean:+.2f} {unit}/board"
    return f"{mean:+.2f} ± {margin:.2f} {unit}/board (95 %)"


def _boards(n: int) -> str:
    return f"{n} board" + ("" if n == 1 else "s")


def board_lines(config: TournamentConfig, summary: dict[str, Any], pair: int, board: int,
                outcomes: Sequence[str]) -> list[str]:
    """The lines of board ``board`` of the table of agents ``pair`` (both its tables
    stored), from :func:`duplicate_summary`'s ``summary`` and each table's outcome
    (:func:`table_outcome`): the board and its points for the first agent; each table
    (the first agent's team there, the outcome, the first agent's score); the running
    total and points per board of the two agents head to head; with more than two
    agents, every agent's against the field."""
    names = team_names(config)
    unit = summary["unit"]
    row = next(b for b in summary["board_results"] if b["pair"] == pair and b["board"] == board)
    first, second = row["first"], row["second"]
    result = ("unscored (a table did not end by the rules)" if row["points"] is None else
              f"{first} {_signed(row['difference'])} = {_signed(row['points'])} {unit}")
    lines = [f"board {board + 1}/{config.boards}, {first} vs {second}: {result}"]
    for t, (score, outcome) in enumerate(zip(row["tables"], outcomes, strict=True)):
        mine = "" if score is None else f", {first} {_signed(score)}"
        lines.append(f"  table {t + 1}, {first} {names[t]}: {outcome}{mine}")
    h2h = summary["head_to_head"][pair]
    lines.append(f"  {first} vs {second} after {_boards(h2h['boards'])}: {first} "
                 f"{_signed(h2h['total'])} {unit}, "
                 + _per_board(h2h["mean"], h2h["margin"], h2h["boards"], unit))
    if len(config.agents) > 2:
        lines.append("  field: " + "; ".join(
            f"{p['agent']} {_signed(p['total'])} {unit} in {_boards(p['boards'])}, "
            + _per_board(p["mean"], p["margin"], p["boards"], unit)
            for p in summary["pairs"]))
    return lines


class DuplicateProgress(Progress):
    """The progress of a duplicate tournament (the module's docstring): the lines of each
    board once both its tables are stored, each printed once (no win/draw/loss, no Elo:
    a table is half a board); on a terminal, a bar of the games below them. Resumed, it
    starts from the stored tables, so the lines of the boards still to come are those an
    uninterrupted run prints."""

    def __init__(self, stream: TextIO | None, config: TournamentConfig,
                 records: Sequence[GameRecord] = ()) -> None:
        super().__init__(stream, config.total, list(config.agents), None, records)
        self.config = config
        self.records = list(records)
        self.slots = {r.slot for r in self.records}
        self.boards_done = sum((p, g ^ 1) in self.slots for p, g in self.slots) // 2
        if stream is not None and self.records:
            self._write([f"resumed: {len(self.records)}/{self.total} games stored, "
                         f"{_boards(self.boards_done)} complete"])

    def line(self) -> str:
        every = self.config.boards * len(self.config.pairs())
        return f"games {self.done}/{self.total}, boards {self.boards_done}/{every} complete"

    def add(self, record: GameRecord) -> None:
        self._count(record)
        self.records.append(record)
        self.slots.add(record.slot)
        pair, board = record.pair, record.game_no // 2
        if (pair, record.game_no ^ 1) in self.slots:
            self.boards_done += 1
            if self.stream is not None:
                self._write(self.lines_of(pair, board))
        if self.tty:
            self.show()

    def lines_of(self, pair: int, board: int) -> list[str]:
        """The lines of a complete board, as :meth:`add` prints them."""
        summary = duplicate_summary(self.config, self.records)
        by_slot = {r.slot: r for r in self.records}
        game = board_game(self.config.board_spec(board))
        outcomes = [table_outcome(self.config, by_slot[(pair, 2 * board + t)], game).text
                    for t in (0, 1)]
        return board_lines(self.config, summary, pair, board, outcomes)

    def _write(self, lines: list[str]) -> None:
        assert self.stream is not None
        self.stream.write(("\r\x1b[K" if self.tty else "") + "\n".join(lines) + "\n")
        self.stream.flush()

    def show(self, final: bool = False) -> None:
        if self.stream is None:
            return
        if self.tty:
            super().show(final)
        elif final:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
