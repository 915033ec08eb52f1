"""What a person sees: standings, pairwise results, a progress line, a rating plot, exports.

Two seats: points, Elo against the field with its 95 % margin (:mod:`.ratings`), as ever.
Three to six seats (:func:`standings` with ``seats > 2``): games, first places, mean rank, the
mean score (the share of the table beaten, a tie counting half) with its 95 % interval (the
mean ± 1.96 standard errors), the mean score in each seat, and a rating from the
``openskill`` library (Weng and Lin's Bayesian approximation, its Plackett-Luce model, the
library's defaults: mu 25, sigma 25/3), fed every game's ranks in schedule order so that
the rating does not depend on the order in which workers finished; its 95 % interval is
``mu ± 1.96 sigma``. Agents are ordered by mean score, then by rating.
"""

from __future__ import annotations

import html
import importlib
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..game import Game
from .errors import ArenaError
from .play import GameRecord
from .ratings import SPRT, Z95, Score, format_elo
from .schedule import AgentEntry

FORFEITS = ("crash", "timeout", "illegal-move")


def _score_of(value: float) -> Score:
    if value == 1.0:
        return Score(1, 0, 0)
    if value == 0.0:
        return Score(0, 0, 1)
    return Score(0, 1, 0)


@dataclass
class Standing:
    index: int
    name: str
    spec: str
    score: Score = field(default_factory=Score)
    forfeits: int = 0
    seconds: float = 0.0
    nodes: int = 0
    moves: int = 0
    #: seats at a table (3 to 6: the fields below are filled, ``score`` stays empty)
    seats: int = 2
    games: int = 0
    #: games ranked first (alone or tied)
    firsts: int = 0
    rank_sum: float = 0.0
    #: per-game scores (share of the table beaten), for the mean and its interval
    points: list[float] = field(default_factory=list)
    #: score sum and games in each seat
    seat_points: list[float] = field(default_factory=list)
    seat_games: list[int] = field(default_factory=list)
    #: openskill rating (mean, uncertainty)
    mu: float = math.nan
    sigma: float = math.nan

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else math.nan

    @property
    def mean_score(self) -> float:
        return sum(self.points) / len(self.points) if self.points else math.nan

    @property
    def score_margin(self) -> float:
        """Half the 95 % interval of the mean score (nan below two games)."""
        n = len(self.points)
        if n < 2:
            return math.nan
        mean = self.mean_score
        var = sum((x - mean) ** 2 for x in self.points) / (n - 1)
        return Z95 * math.sqrt(var / n)

    def seat_score(self, seat: int) -> float:
        games = self.seat_games[seat] if seat < len(self.seat_games) else 0
        return self.seat_points[seat] / games if games else math.nan

    @property
    def rating_margin(self) -> float:
        return Z95 * self.sigma

    @property
    def elo(self) -> float:
        return self.score.elo

    @property
    def margin(self) -> float:
        return self.score.elo_margin()


def openskill_ratings(count: int, records: Sequence[GameRecord]
                      ) -> list[tuple[float, float]]:
    """(mu, sigma) of every agent after rating every game's ranks with openskill's
    Plackett-Luce model, games in schedule order (round, then table)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ArenaError("ratings of 3 to 6 seats need openskill: "
                         "pip install 'gamesearch[arena]'") from None
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(count)]
    for r in sorted(records, key=lambda x: (x.game_no, x.pair)):
        teams = [[ratings[a]] for a in r.seats]
        rated = model.rate(teams, ranks=[float(k) for k in r.ranks])
        for a, team in zip(r.seats, rated, strict=True):
            ratings[a] = team[0]
    return [(float(x.mu), float(x.sigma)) for x in ratings]


def standings(agents: Sequence[AgentEntry], records: Sequence[GameRecord],
              seats: int = 2) -> list[Standing]:
    """Every agent's result against the field, best first: two seats by points, then Elo,
    then order; more seats by mean score, then rating, then order."""
    if seats > 2:
        return _nplayer_standings(agents, records, seats)
    table = [Standing(i, a.name, a.spec) for i, a in enumerate(agents)]
    for r in records:
        for seat in range(2):
            st = table[r.seats[seat]]
            st.score = st.score + _score_of(r.scores[seat])
            st.seconds += r.times[seat]
            st.nodes += r.nodes[seat]
            st.moves += r.plies[seat]
            if r.termination in FORFEITS and r.scores[seat] == 0.0:
                st.forfeits += 1
    return sorted(table, key=lambda s: (-s.score.points, -s.score.score, s.index))


def _nplayer_standings(agents: Sequence[AgentEntry], records: Sequence[GameRecord],
                       seats: int) -> list[Standing]:
    table = [Standing(i, a.name, a.spec, seats=seats, seat_points=[0.0] * seats,
                      seat_games=[0] * seats) for i, a in enumerate(agents)]
    for r in records:
        for seat, agent in enumerate(r.seats):
            st = table[agent]
            st.games += 1
            st.firsts += r.ranks[seat] == 1
            st.rank_sum += r.ranks[seat]
            st.points.append(r.scores[seat])
            if seat < seats:
                st.seat_points[seat] += r.scores[seat]
                st.seat_games[seat] += 1
            st.seconds += r.times[seat]
            st.nodes += r.nodes[seat]
            st.moves += r.plies[seat]
            if r.termination in FORFEITS and r.ranks[seat] == len(r.seats) > 1 and \
                    r.scores[seat] == 0.0:
                st.forfeits += 1
    for st, (mu, sigma) in zip(table, openskill_ratings(len(agents), records), strict=True):
        st.mu, st.sigma = mu, sigma
    return sorted(table, key=lambda s: (-(s.mean_score if s.games else -1.0), -s.mu, s.index))


def pair_score(records: Sequence[GameRecord], a: int, b: int) -> Score:
    """Agent ``a``'s wins, draws and losses against agent ``b``: in the games where both
    sat, a better rank is a win, the same rank a draw (two seats: the game's result)."""
    total = Score()
    for r in records:
        if a not in r.seats or b not in r.seats or a == b:
            continue
        if len(r.seats) == 2:
            total = total + _score_of(r.scores[r.seats.index(a)])
            continue
        ra, rb = r.ranks[r.seats.index(a)], r.ranks[r.seats.index(b)]
        total = total + (Score(1, 0, 0) if ra < rb else Score(0, 0, 1) if ra > rb
                         else Score(0, 1, 0))
    return total


def repeated_games(records: Sequence[GameRecord]) -> int:
    """How many games repeat an earlier one move for move, from the same position with the
    same agents in the same seats (deterministic agents, e.g. at a fixed node count, and
    fewer openings than games). A repeat is not a new sample: the Elo margin and the SPRT,
    which count it as one, overstate what the match shows."""
    seen: set[tuple[Any, ...]] = set()
    repeats = 0
    for r in records:
        key = (tuple(r.seats), r.start_position, tuple(r.moves))
        if key in seen:
            repeats += 1
        else:
            seen.add(key)
    return repeats


def repeats_warning(records: Sequence[GameRecord]) -> str | None:
    """The report's line about repeated games, or ``None`` when every game is new."""
    repeats = repeated_games(records)
    if not repeats:
        return None
    return (f"warning: {repeats} of {len(records)} games repeat an earlier game move for move "
            f"(deterministic agents, too few openings): the Elo margin and the SPRT count "
            f"them as new games; give more openings (--random-plies N, --openings FILE)")


def _num(x: float, fmt: str) -> str:
    return "n/a" if math.isnan(x) else format(x, fmt)


def render_nplayer_standings(rows: Sequence[Standing]) -> str:
    """The table of 3 to 6 seats (see the module's docstring)."""
    seats = rows[0].seats if rows else 3
    width = max(5, *(len(r.name) for r in rows))
    seat_head = " ".join(f"{'seat' + str(k + 1):>6}" for k in range(seats))
    lines = [f"{'#':>2}  {'agent':<{width}}  {'games':>5}  {'1st':>4}  {'rank':>5}  "
             f"{'score ± 95%':>15}  {seat_head}  {'rating ± 95%':>14}  {'forfeits':>8}  "
             f"{'s/move':>7}  {'nodes/move':>10}"]
    for k, r in enumerate(rows, 1):
        per_move = r.seconds / r.moves if r.moves else 0.0
        nodes = r.nodes / r.moves if r.moves else 0.0
        score = (f"{100 * r.mean_score:.1f}% ± {100 * r.score_margin:.1f}"
                 if not math.isnan(r.score_margin) else _num(100 * r.mean_score, ".1f") + "%")
        per_seat = " ".join(f"{_num(100 * r.seat_score(s), '5.1f'):>5}%" for s in range(seats))
        lines.append(
            f"{k:>2}  {r.name:<{width}}  {r.games:>5}  {r.firsts:>4}  "
            f"{_num(r.mean_rank, '.2f'):>5}  {score:>15}  {per_seat}  "
            f"{_num(r.mu, '.1f') + ' ± ' + _num(r.rating_margin, '.1f'):>14}  "
            f"{r.forfeits:>8}  {per_move:>7.3f}  {nodes:>10.0f}")
    return "\n".join(lines)


def render_standings(rows: Sequence[Standing]) -> str:
    if rows and rows[0].seats > 2:
        return render_nplayer_standings(rows)
    width = max(5, *(len(r.name) for r in rows))
    lines = [f"{'#':>2}  {'agent':<{width}}  {'games':>5}  {'W':>4}  {'D':>4}  {'L':>4}  "
             f"{'points':>7}  {'score':>6}  {'Elo vs field':>16}  {'forfeits':>8}  "
             f"{'s/move':>7}  {'nodes/move':>10}"]
    for rank, r in enumerate(rows, 1):
        sc = r.score
        per_move = r.seconds / r.moves if r.moves else 0.0
        nodes = r.nodes / r.moves if r.moves else 0.0
        lines.append(
            f"{rank:>2}  {r.name:<{width}}  {sc.games:>5}  {sc.wins:>4}  {sc.draws:>4}  "
            f"{sc.losses:>4}  {sc.points:>7.1f}  {100 * sc.score:>5.1f}%  "
            f"{format_elo(r.elo, r.margin):>16}  {r.forfeits:>8}  {per_move:>7.3f}  "
            f"{nodes:>10.0f}")
    return "\n".join(lines)


def render_pairs(agents: Sequence[AgentEntry], records: Sequence[GameRecord],
                 pairs: Sequence[tuple[int, ...]]) -> str:
    lines = []
    for a, b in pairs:
        sc = pair_score(records, a, b)
        if sc.games == 0:
            continue
        lines.append(f"  {agents[a].name} vs {agents[b].name}: +{sc.wins} ={sc.draws} "
                     f"-{sc.losses}  score {100 * sc.score:.1f}%  Elo "
                     f"{format_elo(sc.elo, sc.elo_margin())}  LOS {100 * sc.los:.1f}%")
    return "\n".join(lines)


class Progress:
    """A live line on a terminal (redrawn in place), plain lines elsewhere (at most one a
    second, and the last one). Keeps running scores, so each game costs O(agents)."""

    def __init__(self, stream: TextIO | None, total: int, agents: Sequence[AgentEntry],
                 sprt: SPRT | None = None, records: Sequence[GameRecord] = ()) -> None:
        self.stream, self.total, self.agents, self.sprt = stream, total, agents, sprt
        self.done = 0
        #: every agent's score against the field, and agent 0's against agent 1
        self.scores = [Score() for _ in agents]
        #: every agent's score sum and games (any number of seats)
        self.points = [0.0 for _ in agents]
        self.games = [0 for _ in agents]
        self.seats = 2
        self.pair = Score()
        self._last = 0.0
        self._printed = ""
        for r in records:
            self._count(r)

    @property
    def tty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def _count(self, r: GameRecord) -> None:
        self.done += 1
        self.seats = len(r.seats)
        for seat, i in enumerate(r.seats):
            self.scores[i] = self.scores[i] + _score_of(r.scores[seat])
            self.points[i] += r.scores[seat]
            self.games[i] += 1
        if set(r.seats) == {0, 1}:
            self.pair = self.pair + _score_of(r.scores[r.seats.index(0)])

    def line(self) -> str:
        head = f"games {self.done}/{self.total}"
        if len(self.agents) == 2:
            sc = self.pair
            text = (f"{head}  {self.agents[0].name} vs {self.agents[1].name}: "
                    f"+{sc.wins} ={sc.draws} -{sc.losses} ({100 * sc.score:.1f}%)  Elo "
                    f"{format_elo(sc.elo, sc.elo_margin())}")
            if self.sprt is not None:
                text += f"  LLR {self.sprt.llr(sc):.2f}"
            return text
        if not self.done:
            return head
        if self.seats > 2:
            lead = max(range(len(self.agents)), key=lambda i: (
                self.points[i] / self.games[i] if self.games[i] else -1.0, -i))
            return (f"{head}  leader {self.agents[lead].name} "
                    f"{100 * self.points[lead] / max(1, self.games[lead]):.1f}% of "
                    f"{self.games[lead]} games")
        best = max(range(len(self.agents)),
                   key=lambda i: (self.scores[i].points, self.scores[i].score, -i))
        top = self.scores[best]
        return (f"{head}  leader {self.agents[best].name} {top.points:g}/{top.games} "
                f"Elo {format_elo(top.elo, top.elo_margin())}")

    def add(self, record: GameRecord) -> None:
        self._count(record)
        self.show()

    def show(self, final: bool = False) -> None:
        if self.stream is None:
            return
        now, text = time.monotonic(), self.line()
        if self.tty:
            filled = min(20, round(20 * self.done / self.total)) if self.total else 20
            bar = "[" + "#" * filled + "-" * (20 - filled) + "] "
            self.stream.write("\r\x1b[K" + bar + text + ("\n" if final else ""))
        elif text != self._printed and (
                final or now - self._last >= 1.0 or self.done == self.total):
            self.stream.write(text + "\n")
            self._last, self._printed = now, text
        self.stream.flush()


# ----- export ----------------------------------------------------------------------------
def result_text(scores: Sequence[float], ranks: Sequence[int] = ()) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2``; for more seats the ranks by seat, ``1-3-2``."""
    if len(ranks) > 2:
        return "-".join(map(str, ranks))
    return {1.0: "1-0", 0.0: "0-1"}.get(scores[0], "1/2-1/2")


def game_json(record: GameRecord, agents: Sequence[AgentEntry], game: str,
              tournament: str) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "game": game,
        "pair": record.pair,
        "game_no": record.game_no,
        "round": record.round,
        "opening": record.opening_index,
        "start_position": record.start_position,
        "opening_plies": record.opening_plies,
        "agents": [agents[i].name for i in record.seats],
        "specs": [agents[i].spec for i in record.seats],
        "moves": record.moves,
        "result": result_text(record.scores, record.ranks),
        "scores": record.scores,
        "ranks": record.ranks,
        "returns": record.returns,
        "termination": record.termination,
        "detail": record.detail,
        "seconds": [round(t, 6) for t in record.times],
        "nodes": record.nodes,
        "agent_moves": record.plies,
        "finished_at": record.finished_at,
    }


def write_jsonl(path: str, records: Sequence[GameRecord], agents: Sequence[AgentEntry],
                game: str, tournament: str,
                extras: Sequence[Mapping[str, Any]] | None = None) -> None:
    """Every game as one JSON object a line (:func:`game_json`); ``extras[k]``, if given,
    is put over the object of ``records[k]`` (a duplicate tournament's table: its
    outcome and board points, ``arena.duplicate.table_views``)."""
    with open(path, "w", encoding="utf-8") as handle:
        for k, r in enumerate(records):
            row = game_json(r, agents, game, tournament)
            if extras is not None:
                row.update(extras[k])
            handle.write(json.dumps(row) + "\n")


#: PGN's Termination tag for the arena's reasons.
PGN_TERMINATION = {"normal": "normal", "timeout": "time forfeit", "illegal-move":
                   "rules infraction", "crash": "abandoned", "move-limit": "adjudication"}


def check_pgn_notation(game: Game[Any, Any]) -> None:
    """Refuse PGN export for a game whose notations are not PGN's (the ``pgn_notation`` of
    its ``match_hooks()``)."""
    hooks = game.match_hooks()
    if hooks is None or not hooks.pgn_notation:
        raise ArenaError(f"PGN export is for chess (positions in FEN, moves in UCI); "
                         f"{game.name} games: use --export-jsonl")


def write_pgn(path: str, records: Sequence[GameRecord], agents: Sequence[AgentEntry],
              game: Game[Any, Any], tournament: str) -> None:
    """Chess games as PGN (needs python-chess; the game must write positions in FEN and
    moves in UCI: its ``pgn_notation``)."""
    check_pgn_notation(game)
    try:
        chess = importlib.import_module("chess")
        chess_pgn = importlib.import_module("chess.pgn")
    except ImportError:
        raise ArenaError("PGN export needs python-chess: pip install chess") from None
    with open(path, "w", encoding="utf-8") as handle:
        for r in records:
            pgn = chess_pgn.Game()
            if r.start_position is not None:
                fen = game.format_state(game.parse_state(r.start_position))
                pgn.setup(chess.Board(fen))
            white, black = (agents[i].name for i in r.seats)
            pgn.headers.update({
                "Event": f"gamesearch arena {tournament}", "Site": "gamesearch",
                "Date": r.finished_at[:10].replace("-", "."), "Round": f"{r.round + 1}",
                "White": white, "Black": black, "Result": result_text(r.scores),
                "Termination": PGN_TERMINATION.get(r.termination, r.termination),
            })
            node = pgn
            for text in r.moves:
                node = node.add_variation(chess.Move.from_uci(text))
            if r.detail:
                node.comment = r.detail
            handle.write(str(pgn) + "\n\n")


# ----- plot ------------------------------------------------------------------------------
PLOT_CLAMP = 800.0


def _clamp(x: float) -> float:
    if math.isnan(x):
        return 0.0
    return max(-PLOT_CLAMP, min(PLOT_CLAMP, x))


def _running(agents: Sequence[AgentEntry], records: Sequence[GameRecord]
             ) -> list[tuple[str, list[tuple[int, float, float]]]]:
    """Elo (and margin) after each game in schedule order: A vs B for two agents, else each
    agent against the field."""
    ordered = sorted(records, key=lambda r: (r.game_no, r.pair))
    if len(agents) == 2:
        series = [(f"{agents[0].name} vs {agents[1].name}", [0])]
    else:
        series = [(a.name, [i]) for i, a in enumerate(agents)]
    out = []
    for label, (idx,) in series:
        sc, points = Score(), []
        for n, r in enumerate(ordered, 1):
            if idx in r.seats:
                sc = sc + _score_of(r.scores[r.seats.index(idx)])
                points.append((n, sc.elo, sc.elo_margin()))
        out.append((label, points))
    return out


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")


def render_svg(title: str, agents: Sequence[AgentEntry], records: Sequence[GameRecord],
               seats: int = 2) -> str:
    """Two panels: Elo against the field with 95% bars, and Elo as the games came in. For
    more than two seats, one panel: each agent's openskill rating (mu, centred on the
    library's starting 25) with its 95% interval."""
    if seats > 2:
        return _render_rating_svg(title, standings(agents, records, seats))
    rows = standings(agents, records)
    w, row_h, left = 900, 26, 230
    h1 = 50 + row_h * len(rows)
    h2 = 300
    height = h1 + h2 + 70
    finite = [abs(_clamp(r.elo)) + (_clamp(r.margin) if math.isfinite(r.margin) else 0)
              for r in rows]
    span = max(50.0, *finite) * 1.1
    x0, x1 = left, w - 170

    def xs(elo: float) -> float:
        return x0 + (x1 - x0) * (_clamp(elo) + span) / (2 * span)

    esc = html.escape
    intervals = []
    for r in rows:
        m = r.margin if math.isfinite(r.margin) else PLOT_CLAMP
        intervals.append((r.name, r.elo, r.elo - m, r.elo + m,
                          esc(format_elo(r.elo, r.margin))))
    out = interval_chart(title, f"Elo against the field, 95% margin (clamped at "
                          f"±{PLOT_CLAMP:g})", w, height, h1, x0, x1, row_h, xs, intervals)
    # running Elo
    series = _running(agents, records)
    top = h1 + 40
    n = max(1, len(records))
    vals = [abs(_clamp(e)) for _, pts in series for _, e, _ in pts] or [50.0]
    vspan = max(50.0, *vals) * 1.1

    def px(i: int) -> float:
        return x0 + (x1 - x0) * i / n

    def py(elo: float) -> float:
        return top + h2 / 2 - (h2 / 2 - 10) * _clamp(elo) / vspan

    out += [f'<text x="{x0}" y="{top - 14}" fill="#555">Elo after each game '
            f'(games in schedule order)</text>',
            f'<rect x="{x0}" y="{top}" width="{x1 - x0}" height="{h2}" fill="none" '
            f'stroke="#ccc"/>',
            f'<line x1="{x0}" y1="{py(0):.1f}" x2="{x1}" y2="{py(0):.1f}" stroke="#aaa" '
            f'stroke-dasharray="4 3"/>',
            f'<text x="{x0 - 6}" y="{py(vspan) + 10:.1f}" text-anchor="end">'
            f'+{vspan:.0f}</text>',
            f'<text x="{x0 - 6}" y="{py(0) + 4:.1f}" text-anchor="end">0</text>',
            f'<text x="{x0 - 6}" y="{py(-vspan):.1f}" text-anchor="end">-{vspan:.0f}</text>',
            f'<text x="{x1}" y="{top + h2 + 16}" text-anchor="end">{len(records)} games</text>',
            f'<text x="{x0}" y="{top + h2 + 16}">1</text>']
    for k, (label, pts) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        if len(series) == 1 and pts:
            band = [(i, e, m) for i, e, m in pts if math.isfinite(m) and math.isfinite(e)]
            if band:
                upper = " ".join(f"{px(i):.1f},{py(e + m):.1f}" for i, e, m in band)
                lower = " ".join(f"{px(i):.1f},{py(e - m):.1f}" for i, e, m in reversed(band))
                out.append(f'<polygon points="{upper} {lower}" fill="{colour}" '
                           f'fill-opacity="0.15"/>')
        line = " ".join(f"{px(i):.1f},{py(e):.1f}" for i, e, _ in pts)
        if line:
            out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                       f'stroke-width="1.5"/>')
        out.append(f'<text x="{x1 + 12}" y="{top + 14 + 16 * k}" '
                   f'fill="{colour}">{esc(label[:24])}</text>' if len(series) > 1 else "")
    out.append("</svg>")
    return "\n".join(x for x in out if x)


def _render_rating_svg(title: str, rows: Sequence[Standing]) -> str:
    w, row_h, left = 900, 26, 230
    height = 70 + row_h * len(rows)
    spans = [abs(r.mu - 25.0) + r.rating_margin for r in rows
             if math.isfinite(r.mu) and math.isfinite(r.sigma)]
    span = max(5.0, *spans) * 1.1 if spans else 5.0
    x0, x1 = left, w - 170

    def xs(v: float) -> float:
        return x0 + (x1 - x0) * (max(-span, min(span, v)) + span) / (2 * span)

    intervals = [(r.name, r.mu - 25.0, r.mu - 25.0 - r.rating_margin,
                  r.mu - 25.0 + r.rating_margin, f"{r.mu:.1f} ± {r.rating_margin:.1f}")
                 for r in rows]
    out = interval_chart(title, "openskill rating (Plackett-Luce), 95% interval; the "
                          "dashed line is the starting 25", w, height, height - 10, x0, x1,
                          row_h, xs, intervals)
    out.append("</svg>")
    return "\n".join(out)


def interval_chart(title: str, caption: str, width: int, height: float, zero_to: float,
                    x0: float, x1: float, row_h: int, xs: Callable[[float], float],
                    intervals: Sequence[tuple[str, float, float, float, str]]) -> list[str]:
    """The standings picture's top, one for the Elo and the openskill plots: the SVG's
    head, the title, the caption and the dashed zero line (down to ``zero_to``), then a row
    an agent from ``(name, value, low, high, text)``: the interval as a line, the value as
    a dot, ``text`` (escaped by the caller) at the right. ``xs`` maps a value to x."""
    esc = html.escape
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<text x="10" y="20" font-size="15" font-weight="bold">{esc(title)}</text>',
           f'<text x="{x0}" y="38" fill="#555">{caption}</text>',
           f'<line x1="{xs(0):.1f}" y1="44" x2="{xs(0):.1f}" y2="{zero_to}" stroke="#aaa" '
           f'stroke-dasharray="4 3"/>']
    for k, (name, value, low, high, text) in enumerate(intervals):
        y = 58 + row_h * k
        out += [f'<text x="10" y="{y + 4}">{esc(name[:34])}</text>',
                f'<line x1="{xs(low):.1f}" y1="{y}" x2="{xs(high):.1f}" y2="{y}" '
                f'stroke="#333"/>',
                f'<circle cx="{xs(value):.1f}" cy="{y}" r="4" fill="{COLOURS[0]}"/>',
                f'<text x="{x1 + 12}" y="{y + 4}" fill="#555">{text}</text>']
    return out


def write_plot(path: str, title: str, agents: Sequence[AgentEntry],
               records: Sequence[GameRecord], seats: int = 2) -> None:
    """``.svg``: the picture alone; anything else: a self-contained HTML page holding it."""
    write_picture(path, title, render_svg(title, agents, records, seats),
                  render_standings(standings(agents, records, seats)))


def write_picture(path: str, title: str, svg: str, table: str) -> None:
    """``.svg``: ``svg`` alone; anything else: a self-contained HTML page holding ``svg``
    and the text ``table`` below it."""
    if path.lower().endswith(".svg"):
        text = svg + "\n"
    else:
        text = ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>"
                f"{html.escape(title)}</title></head><body>\n{svg}\n"
                f"<pre>{html.escape(table)}</pre>\n</body></html>\n")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
