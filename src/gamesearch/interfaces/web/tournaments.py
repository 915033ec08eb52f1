"""The Tournaments page: the arena's SQLite files, read-only, as standings, pairwise
results, Elo with 95 % intervals, the rating plot and every game move by move. A tournament
of 3 to 6 seats (``seats`` in its stored configuration) shows the n-player standings of
:mod:`gamesearch.arena.report` instead: first places, mean rank, mean score with its 95 %
interval, the score in every seat and the openskill rating with its 95 % interval; its
pairwise table is head to head (a better rank in a game both played is a win). A
duplicate tournament (bridge: each board at two tables with the pairs turned) shows what
the command line shows instead (:func:`gamesearch.arena.duplicate.duplicate_summary`): each
pair's IMPs, total and per board with the 95 % interval, the head to head of each table of
agents and every board's two tables, each with its outcome in the game's words (bridge:
contract, declarer, tricks and score, ``arena.duplicate.table_outcome``); a win table or an
Elo plot of its single games would mean nothing, so it has none, and no rank is shown. Its
tables replay on their board's deal and end on their outcome and the board's points of
each team (:func:`gamesearch.arena.duplicate.table_views`).

The server is given one results file or one folder (``gamesearch web --db``). Requests name
a file only by its name as listed here (:class:`Library`); nothing a request sends is ever
used as a path. Each read opens the file read-only (``mode=ro``: the store cannot write)
and closes it again, so a tournament still running in another process shows its new
games on the next read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...arena.duplicate import duplicate_summary, table_views, team_names
from ...arena.errors import ArenaError
from ...arena.ratings import Score, format_elo
from ...arena.report import Standing, pair_score, render_svg, result_text, standings
from ...arena.schedule import AgentEntry, TournamentConfig, check_boards, table_count
from ...arena.store import Store
from .validation import WebInputError

SUFFIXES = (".sqlite", ".sqlite3", ".db")


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _score(sc: Score) -> dict[str, Any]:
    return {"games": sc.games, "wins": sc.wins, "draws": sc.draws, "losses": sc.losses,
            "points": sc.points, "score": sc.score, "elo": _num(sc.elo),
            "margin": _num(sc.elo_margin()), "elo_text": format_elo(sc.elo, sc.elo_margin()),
            "los": sc.los}


class Library:
    """The results files the server may read: ``path`` itself, or the files in it."""

    def __init__(self, path: str | Path | None,
                 extra: Callable[[], dict[str, Path]] | None = None) -> None:
        self.root = None if path is None else Path(path).resolve()
        #: more files: the tournaments started from the web (:mod:`.runs`), listed after
        self.extra = extra

    def files(self) -> dict[str, Path]:
        """Name -> path of every results file (names are what requests use)."""
        found: dict[str, Path] = {}
        if self.root is not None and self.root.is_dir():
            found = {p.name: p for p in sorted(self.root.iterdir())
                     if p.is_file() and p.suffix.lower() in SUFFIXES}
        elif self.root is not None and self.root.is_file():
            found = {self.root.name: self.root}
        if self.extra is not None:
            for name, path in self.extra().items():
                found.setdefault(name, path)
        return found

    def open(self, name: str) -> Store:
        path = self.files().get(name)
        if path is None:
            known = ", ".join(self.files()) or "(none)"
            raise WebInputError(f"unknown results file {name!r}; known: {known}", 404)
        try:
            return Store.open_readonly(str(path))
        except ArenaError as exc:
            raise WebInputError(str(exc)) from None

    def listing(self) -> list[dict[str, Any]]:
        out = []
        for name in self.files():
            try:
                with self.open(name) as store:
                    items = [_summary(store, t) for t in store.list_tournaments()]
                out.append({"file": name, "tournaments": items})
            except WebInputError as exc:
                out.append({"file": name, "error": str(exc), "tournaments": []})
        return out

    def tournament(self, name: str, tid: int) -> dict[str, Any]:
        with self.open(name) as store:
            found = [t for t in store.list_tournaments() if t["id"] == tid]
            if not found:
                raise WebInputError(f"{name}: no tournament {tid}", 404)
            info = _summary(store, found[0])
            agents = [AgentEntry(n, s) for n, s in store.agents(tid)]
            records = store.games(tid)
        duplicate = _duplicate_config(name, found[0], agents)
        if duplicate is not None:
            return _duplicate_view(info, name, duplicate, records)
        seats = int(info["seats"])
        rows = standings(agents, records, seats)
        n = len(agents)
        pairs = ([(0, j) for j in range(1, n)] if info["format"] == "gauntlet"
                 else [(i, j) for i in range(n) for j in range(i + 1, n)])
        title = (f"{info['game']}: " + " vs ".join(a.name for a in agents) if n == 2
                 else f"{info['game']} {info['format']}, {n} agents")
        info.update({
            "file": name,
            "duplicate": None,
            "agents": [{"name": a.name, "spec": a.spec} for a in agents],
            "standings": [{"agent": s.name, "spec": s.spec,
                           **(_score(s.score) if seats == 2 else _nplayer(s)),
                           "forfeits": s.forfeits,
                           "seconds_per_move": s.seconds / s.moves if s.moves else 0.0,
                           "nodes_per_move": s.nodes / s.moves if s.moves else 0.0}
                          for s in rows],
            "pairs": [{"a": agents[a].name, "b": agents[b].name,
                       **_score(pair_score(records, a, b))} for a, b in pairs],
            "table": [[None if i == j else _score(pair_score(records, i, j))
                       for j in range(n)] for i in range(n)],
            "plot": _scalable(render_svg(title, agents, records, seats)),
            "records": [{"index": k, "pair": r.pair, "game_no": r.game_no, "round": r.round,
                       "agents": [agents[i].name for i in r.seats], "ranks": r.ranks,
                       "result": result_text(r.scores, r.ranks), "termination": r.termination,
                       "plies": len(r.moves), "finished_at": r.finished_at}
                      for k, r in enumerate(records)],
        })
        return info

    def game(self, name: str, tid: int, index: int) -> dict[str, Any]:
        with self.open(name) as store:
            found = [t for t in store.list_tournaments() if t["id"] == tid]
            if not found:
                raise WebInputError(f"{name}: no tournament {tid}", 404)
            agents = store.agents(tid)
            records = store.games(tid)
        if not 0 <= index < len(records):
            raise WebInputError(f"{name}: tournament {tid} has {len(records)} games; "
                                f"no game {index}", 404)
        r = records[index]
        duplicate = _duplicate_config(name, found[0],
                                      [AgentEntry(n, s) for n, s in agents])
        out = {"game": found[0]["game"], "index": index, "start_position": r.start_position,
               "opening_plies": r.opening_plies, "moves": r.moves,
               "agents": [agents[i][0] for i in r.seats], "ranks": r.ranks,
               "returns": r.returns, "result": result_text(r.scores, r.ranks),
               "termination": r.termination, "detail": r.detail,
               "seconds": r.times, "nodes": r.nodes, "duplicate": None}
        if duplicate is not None:
            # a table of a board: played on its board's deal, not the tournament's game;
            # its result is the game's outcome (bridge: contract, tricks, score) and the
            # board's points per team, not ranks
            try:
                view = table_views(duplicate, records, only=[index])[0]
            except ArenaError as exc:
                raise WebInputError(f"{name}: {exc}") from None
            del out["ranks"]
            out.update(game=view["board_game"], result=view["outcome"]["text"],
                       duplicate=view)
        return out

    def count(self, name: str, tid: int) -> int:
        with self.open(name) as store:
            for t in store.list_tournaments():
                if t["id"] == tid:
                    return int(t["games"])
        raise WebInputError(f"{name}: no tournament {tid}", 404)


def _duplicate_config(name: str, stored: dict[str, Any], agents: list[AgentEntry]
                      ) -> TournamentConfig | None:
    """The schedule of a stored duplicate tournament (what scoring its boards needs: the
    game, the agents, the pairs and the boards' seeds); ``None`` for any other one."""
    cfg = stored["config"]
    if not cfg.get("duplicate"):
        return None
    try:
        check_boards(cfg)
        return TournamentConfig(str(cfg.get("game", stored["game"])), tuple(agents),
                                format=str(cfg.get("format", "round-robin")),
                                games_per_pair=int(cfg["games_per_pair"]),
                                seed=int(cfg.get("seed", 0)), duplicate=True)
    except (ArenaError, KeyError, TypeError, ValueError) as exc:
        raise WebInputError(f"{name}: tournament {stored['id']}: cannot read its duplicate "
                            f"schedule: {exc}") from None


def _duplicate_view(info: dict[str, Any], name: str, config: TournamentConfig,
                    records: list[Any]) -> dict[str, Any]:
    """The page's object for a duplicate tournament (the module's docstring)."""
    try:
        summary = duplicate_summary(config, records, outcomes=True)
        views = table_views(config, records, summary)
        names = team_names(config)
    except ArenaError as exc:
        raise WebInputError(f"{name}: {exc}") from None
    info.update({
        "file": name,
        "agents": [{"name": a.name, "spec": a.spec} for a in config.agents],
        "duplicate": {**summary, "team_names": list(names)},
        "standings": [], "pairs": [], "table": [], "plot": "",
        "records": [{"index": k, "pair": r.pair, "game_no": r.game_no, "round": r.round,
                     "board": view["board"], "table": view["table"],
                     "agents": [config.agents[i].name for i in r.seats],
                     "returns": r.returns,
                     # (each team's agent, return and board points: a team's seats hold
                     # one agent)
                     "teams": [t["agent"] for t in view["teams"]],
                     "team_returns": None if r.returns is None else
                     [t["score"] for t in view["teams"]],
                     "team_points": [t["points"] for t in view["teams"]],
                     "outcome": view["outcome"], "result": view["outcome"]["text"],
                     "termination": r.termination, "plies": len(r.moves),
                     "finished_at": r.finished_at}
                    for (k, r), view in zip(enumerate(records), views, strict=True)],
    })
    return info


def _scalable(svg: str) -> str:
    """The report's plot with a view box, so that a page can scale it to its width."""
    m = re.match(r'<svg ([^>]*?)width="(\d+)" height="(\d+)"', svg)
    if m is None or "viewBox" in svg[: m.end()]:
        return svg
    w, h = m.group(2), m.group(3)
    return svg.replace(m.group(0), f'<svg {m.group(1)}viewBox="0 0 {w} {h}" width="{w}" '
                       f'height="{h}"', 1)


def _nplayer(s: Standing) -> dict[str, Any]:
    return {"games": s.games, "firsts": s.firsts, "mean_rank": _num(s.mean_rank),
            "score": _num(s.mean_score), "score_margin": _num(s.score_margin),
            "seat_scores": [_num(s.seat_score(k)) for k in range(s.seats)],
            "rating": _num(s.mu), "rating_margin": _num(s.rating_margin)}


def _summary(store: Store, t: dict[str, Any]) -> dict[str, Any]:
    cfg = t["config"]
    n = len(cfg.get("agents", []))
    fmt = cfg.get("format", "round-robin")
    seats = int(cfg.get("seats", 2))
    tables = 2 if cfg.get("duplicate") else seats  # (duplicate: the pairs of agents)
    scheduled = table_count(n, tables, fmt) * int(cfg.get("games_per_pair", 0))
    return {"id": t["id"], "key": t["key"], "game": t["game"], "format": fmt, "seats": seats,
            "created": t["created"], "games": t["games"], "scheduled": scheduled,
            "duplicate": bool(cfg.get("duplicate")),
            "time_control": cfg.get("time_control"),
            "agent_names": [a.get("name") for a in cfg.get("agents", [])]}
