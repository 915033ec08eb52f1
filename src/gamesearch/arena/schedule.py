"""What a tournament plays: its configuration, openings, and the deterministic schedule.

The schedule is a pure function of the configuration (the command line): the same command
gives the same games in the same slots, with the same seeds, which is what lets a killed
tournament resume (see :mod:`gamesearch.arena.store`). A slot is ``(pair, game_no)``: the
*table* (for two seats, the pair) of agents and the number of the game at it.

Seats come from the game (``GameType.num_players``, set by its options: ``rolit:players=3``).
The tables are every combination of ``seats`` agents (round robin; the gauntlet: every
combination that holds the first agent), in lexicographic order, so that two seats give
today's pairs. When there are more than :data:`MAX_TABLES` combinations, a seeded balanced
sample of :data:`MAX_TABLES` of them is played instead (:func:`balanced_tables`: each table
is made of the agents seated least often so far, ties broken by a shuffle drawn from the
seed, so that any two agents' table counts differ by at most two; by at most one in 193 of
the 201 cases of 7 to 29 agents, 3 to 6 seats and three seeds that the tests draw).

Game ``g`` of a table of ``n`` agents rotates it by ``g % n`` (seat ``k`` gets the table's
agent ``(k + g) % n``) and uses opening ``(g // n) % len(openings)``: every opening is
played ``n`` times, each agent once in every seat. With two seats this is today's rule:
colours swapped every game, every opening played twice.

**Duplicate** (``duplicate=True``, for a game whose seats form two teams:
``MatchHooks.teams``, bridge's partnerships). An agent then plays every seat of its team
(each seat gets its own instance of it, handed only that seat's view), the tables are the
pairs of agents (round robin or gauntlet, as with two seats), and game ``g`` of a table is
board ``g // 2`` played at table ``g % 2``: the table's first agent sits in the first team
at table 0 and in the second at table 1. Board ``b`` is the game's chance outcomes at its
start (bridge: the deal), drawn once from ``board_seed(seed, b)`` (:meth:`TournamentConfig.
board_opening`) and played as the opening of both tables, the same for every pair of agents,
so that the luck of the cards cancels; the game itself (its spec, what the agents are
handed) is the tournament's, which names no deal. Its result is scored by
:mod:`gamesearch.arena.duplicate`.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from ..argtypes import RANGES
from ..errors import GameError, echo
from ..files import InputFileError, iter_lines
from ..game import CHANCE, Game, sample_outcome
from ..games import get_game, portable_spec
from .errors import ArenaError
from .timecontrol import TimeControl

FORMATS = ("round-robin", "gauntlet")
#: Fewest and most seats at an arena table (the game's number of players).
MIN_SEATS, MAX_SEATS = 2, 6
#: Most tables of a tournament: more combinations of agents are sampled (balanced_tables).
MAX_TABLES = 500
#: How a duplicate tournament's boards are made, in its stored configuration: the game's
#: chance at the start, drawn from the board's seed (a store without it made its boards
#: from a game option, bridge's ``deal=``, before deals were chance: not replayed).
BOARDS = "chance"


def check_boards(stored_config: dict[str, Any]) -> None:
    """Refuse, in one line, a stored duplicate tournament whose boards were made the old
    way (a ``deal=`` option per board): its tables do not replay on chance's deals."""
    if stored_config.get("duplicate") and stored_config.get("boards") != BOARDS:
        raise ArenaError("a duplicate tournament stored before boards were dealt by chance "
                         "(its boards were deal= options): this version cannot replay its "
                         "tables; read it with gamesearch 9c03b62 or earlier, or play it again")


def table_count(agents: int, seats: int, fmt: str = "round-robin") -> int:
    """How many tables a tournament of ``agents`` at ``seats`` seats has (see the module's
    docstring): every combination, at most :data:`MAX_TABLES`."""
    if seats <= 2:
        return agents - 1 if fmt == "gauntlet" else agents * (agents - 1) // 2
    if fmt == "gauntlet":
        return min(MAX_TABLES, math.comb(agents - 1, seats - 1))
    return min(MAX_TABLES, math.comb(agents, seats))


def balanced_tables(agents: int, seats: int, count: int, seed: object,
                    fixed: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """``count`` distinct tables of ``seats`` of the ``agents`` (each sorted), chosen so that
    every agent sits at nearly the same number of tables: each new table takes the agents
    seated least often so far, ties broken by a fresh shuffle drawn from ``seed``; a table
    already drawn is replaced by the next-least-seated choice, and when a few shuffles find
    only tables already drawn, by the least-seated of 32 random tables not yet drawn (there
    are always some: ``count`` is below the number of combinations). ``fixed`` agents sit
    at every table (the gauntlet's first agent). Deterministic in its arguments."""
    rng = random.Random(derive_seed("tables", agents, seats, count, seed, *fixed))
    free = [a for a in range(agents) if a not in fixed]
    want = seats - len(fixed)
    counts = dict.fromkeys(free, 0)
    chosen: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    if count > math.comb(len(free), want):
        raise ArenaError(f"{count} tables of {seats} asked; only "
                         f"{math.comb(len(free), want)} exist")
    misses = 0
    while len(chosen) < count:
        order = free[:]
        rng.shuffle(order)
        order.sort(key=lambda a: counts[a])
        table = tuple(sorted((*fixed, *order[:want])))
        k = want
        while table in seen and k < len(order):  # swap in the next least-seated agent
            pick = [*order[:want - 1], order[k]]
            table = tuple(sorted((*fixed, *pick)))
            k += 1
        if table in seen:
            misses += 1
            if misses < 4:
                continue  # (a new shuffle gives other candidates)
            fresh: set[tuple[int, ...]] = set()
            for _ in range(2000):
                candidate = tuple(sorted((*fixed, *rng.sample(free, want))))
                if candidate not in seen:
                    fresh.add(candidate)
                    if len(fresh) >= 32:
                        break
            if not fresh:  # (nearly every combination drawn: list those left)
                fresh = {t for t in (tuple(sorted((*fixed, *c)))
                                     for c in itertools.combinations(free, want))
                         if t not in seen}
            table = min(sorted(fresh), key=lambda t: sum(counts.get(a, 0) for a in t))
        misses = 0
        seen.add(table)
        chosen.append(table)
        for a in table:
            if a in counts:
                counts[a] += 1
    return chosen


def board_seed(seed: int, board: int) -> int:
    """The seed of duplicate board ``board`` of a tournament seeded ``seed`` (62 bits): it
    does not depend on the agents, so every pair of agents plays the same boards."""
    return derive_seed("board", seed, board) >> 1


@functools.lru_cache(maxsize=256)
def _board_opening(spec: str, seed: int) -> Opening:
    game = load_game(spec)
    rng = random.Random(seed)
    state = game.initial_state()
    moves = []
    while not game.is_terminal(state) and game.to_move(state) == CHANCE:
        action = sample_outcome(game, state, rng)
        moves.append(game.format_action(state, action))
        state = game.result(state, action)
    return Opening(None, tuple(moves))


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text: the same parts give the same seed in any process."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Opening:
    """A start position: a position string the game parses (or ``None``: the initial
    position), then moves in the game's notation."""

    position: str | None = None
    moves: tuple[str, ...] = ()

    def state(self, game: Game[Any, Any]) -> Any:
        state = game.initial_state() if self.position is None else game.parse_state(self.position)
        for text in self.moves:
            state = game.play(state, text)
        return state

    def label(self) -> str:
        parts = [] if self.position is None else [f"[{self.position}]"]
        return " ".join([*parts, *self.moves]) or "(start)"


def _check_opening(game: Game[Any, Any], opening: Opening, where: str) -> Opening:
    try:
        state = opening.state(game)
    except GameError as exc:
        raise ArenaError(f"{where}: {exc}") from None
    if game.is_terminal(state):
        raise ArenaError(f"{where}: the opening {opening.label()!r} ends the game")
    return opening


def parse_opening(game: Game[Any, Any], line: str, where: str = "opening") -> Opening:
    """A line of an openings file: moves separated by spaces, or a position string (the game
    says where it ends: :meth:`~gamesearch.game.Game.split_position_line`), optionally
    followed by moves played from it."""
    text = line.strip()
    try:
        state = game.initial_state()
        moves = []
        for m in text.split():  # written back in the game's own notation (SAN -> UCI...)
            if game.is_terminal(state):
                game.play(state, m)  # raises: the game is over
            action = game.parse_action(state, m)
            moves.append(game.format_action(state, action))
            state = game.result(state, action)
        return _check_opening(game, Opening(None, tuple(moves)), where)
    except GameError as move_error:
        try:
            game.parse_state(text)
        except GameError:
            pass
        else:
            return _check_opening(game, Opening(text, ()), where)
        position, rest = game.split_position_line(text)
        try:
            state = game.parse_state(position)
            moves = []
            for m in rest.split():
                action = game.parse_action(state, m)
                moves.append(game.format_action(state, action))
                state = game.result(state, action)
        except GameError:
            raise ArenaError(
                f"{where}: {echo(text)} is neither a move sequence ({move_error}) nor a "
                f"{game.name} position ({game.state_notation or 'no position notation'}), "
                "optionally followed by moves"
            ) from None
        return _check_opening(game, Opening(position, tuple(moves)), where)


def parse_openings(game: Game[Any, Any], lines: Sequence[str], where: str) -> list[Opening]:
    """One opening a line; blank lines and lines starting with ``#`` are skipped."""
    return [
        parse_opening(game, line, f"{where}, line {i}")
        for i, line in enumerate(lines, 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def read_openings(game: Game[Any, Any], path: str) -> list[Opening]:
    """The openings of a file (see :func:`parse_openings`; ``-`` is standard input); an
    error if it has none, is not UTF-8 text or is too large."""
    try:
        openings = parse_openings(game, [line for _, line in iter_lines(path, "openings file")],
                                  echo(path))
    except InputFileError as exc:
        raise ArenaError(str(exc)) from None
    if not openings:
        raise ArenaError(f"openings file {echo(path)} has no openings")
    return openings


def default_openings(game: Game[Any, Any]) -> list[Opening]:
    """The openings a match plays when none are given: the ``arena_openings`` of the game's
    ``match_hooks()`` (chess: 50 balanced book lines), or none (the initial position)."""
    hooks = game.match_hooks()
    if hooks is None or hooks.arena_openings is None:
        return []
    return parse_openings(game, hooks.arena_openings(), f"{game.name}'s default openings")


def random_openings(game: Game[Any, Any], count: int, plies: int, seed: int) -> list[Opening]:
    """``count`` openings of ``plies`` uniformly random moves, reproducible from ``seed``.

    A sequence that ends the game is drawn again (from the next sub-seed)."""
    if plies < 1:
        raise ArenaError(f"--random-plies {plies}: must be at least 1")
    openings: list[Opening] = []
    for index in range(count):
        for attempt in range(1000):
            rng = random.Random(derive_seed("opening", seed, plies, index, attempt))
            state = game.initial_state()
            moves: list[str] = []
            while len(moves) < plies and not game.is_terminal(state):
                if game.to_move(state) == CHANCE:
                    action = sample_outcome(game, state, rng)
                else:
                    action = rng.choice(list(game.actions(state)))
                moves.append(game.format_action(state, action))
                state = game.result(state, action)
            if not game.is_terminal(state):
                openings.append(Opening(None, tuple(moves)))
                break
        else:
            raise ArenaError(f"{game.name}: no random opening of {plies} plies avoids the end")
    return openings


@dataclass(frozen=True)
class AgentEntry:
    """An agent of the tournament: a display name and its full spec."""

    name: str
    spec: str


def parse_agents(args: Sequence[str]) -> list[AgentEntry]:
    """``SPEC`` or ``NAME=SPEC`` per argument; repeated names get ``#2``, ``#3``."""
    entries: list[AgentEntry] = []
    seen: dict[str, int] = {}
    for arg in args:
        head, eq, tail = arg.partition("=")
        if eq and head.strip() and not any(c in head for c in ":,") and tail.strip():
            name, spec = head.strip(), tail.strip()
        else:
            name = spec = arg.strip()
        if not spec:
            raise ArenaError(f"agent {arg!r}: empty spec")
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}#{seen[name]}"
        entries.append(AgentEntry(name, spec))
    return entries


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides which games are played and how: the tournament's identity."""

    game: str  # the game's spec (pig, pig:goal=50, py:MODULE:ATTR)
    agents: tuple[AgentEntry, ...]
    format: str = "round-robin"
    games_per_pair: int = 2
    time_control: TimeControl = field(default_factory=lambda: TimeControl(10.0, 0.1))
    grace: float = 1.0
    openings: tuple[Opening, ...] = ()
    seed: int = 0
    max_plies: int = 1000
    #: every board played at two tables with the teams turned (the module's docstring)
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ArenaError(f"format {self.format!r}; allowed: {', '.join(FORMATS)}")
        if self.duplicate and self.games_per_pair % 2:
            raise ArenaError(f"duplicate plays every board at two tables: games per pair "
                             f"must be even (2 a board); got {self.games_per_pair}")
        if self.duplicate and self.openings:
            raise ArenaError("duplicate boards are the game's own deals (its chance at the "
                             "start): openings do not apply")
        if len(self.agents) < 2:
            raise ArenaError(f"a tournament needs at least 2 agents; got {len(self.agents)}")
        for range_name, what, value in (("games", "games per pair", self.games_per_pair),
                                        ("grace", "grace", self.grace),
                                        ("max_plies", "max plies", self.max_plies)):
            try:
                RANGES[range_name].check(value)
            except (ValueError, TypeError) as exc:
                raise ArenaError(f"{what} {value!r}: {exc}") from None
        n = len(self.agents)
        pairs = n - 1 if self.format == "gauntlet" else n * (n - 1) // 2
        self._check_total(pairs, "pairs")

    def _check_total(self, tables: int, what: str) -> None:
        most = int(RANGES["games"].high)
        if self.games_per_pair * tables > most:
            raise ArenaError(f"{self.games_per_pair * tables:,} games scheduled "
                             f"({self.games_per_pair:,} for each of {tables:,} {what}); a "
                             f"tournament has at most {most:,}")

    @cached_property
    def seats(self) -> int:
        """Seats at a table: the game's number of players (its options decide it)."""
        return load_game(self.game).num_players

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The game's two teams of seats (``MatchHooks.teams``), for duplicate; a one-line
        error for a game without them."""
        game = load_game(self.game)
        hooks = game.match_hooks()
        teams = None if hooks is None else hooks.teams
        if hooks is None or teams is None or len(teams) != 2:
            raise ArenaError(f"{game.name} has no two teams of seats and no boards to play "
                             "duplicate (a game like bridge, whose seats form two "
                             "partnerships); drop --duplicate")
        if game.is_terminal(game.initial_state()) or game.to_move(
                game.initial_state()) != CHANCE:
            raise ArenaError(f"{game.spec}: duplicate plays boards dealt by chance at the "
                             "start, and this game starts without chance (bridge: a fixed "
                             "deal=); drop deal= or --duplicate")
        if sorted(s for team in teams for s in team) != list(range(game.num_players)):
            raise ArenaError(f"{game.name}: its teams {teams} do not cover its "
                             f"{game.num_players} seats once each")
        return teams

    @property
    def boards(self) -> int:
        """Boards of a duplicate tournament at each table of agents (two games a board)."""
        return self.games_per_pair // 2

    def board_spec(self, board: int) -> str:
        """The game of duplicate board ``board``: the tournament's own (a board is its
        opening, :meth:`board_opening`, never an option the agents could read)."""
        return self._portable_game

    def board_opening(self, board: int) -> Opening:
        """Board ``board``: the chance outcomes at the game's start (bridge: the 52 cards
        dealt), drawn from ``board_seed(seed, board)``, as opening moves (remembered: the
        last card dealt chooses bridge's contract, a DDS call)."""
        return _board_opening(self._portable_game, board_seed(self.seed, board))

    def check_seats(self) -> None:
        """Refuse, before anything runs, agents that cannot fill the game's seats."""
        if self.duplicate:
            _ = self.teams  # (refuses a game without two teams)
            return
        n, seats = len(self.agents), self.seats
        if n < seats:
            raise ArenaError(f"{self.game} has {seats} seats but the tournament has only {n} "
                             f"agents; give at least {seats} --agents")
        if seats > 2:
            self._check_total(len(self.pairs()), "tables")

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["time_control"] = str(self.time_control)
        if self.seats > 2:  # (two seats: the key of before, which files hold)
            data["seats"] = self.seats
        if not self.duplicate:  # (the key of before for every other tournament)
            del data["duplicate"]
        else:  # boards dealt by chance (BOARDS): a store of the boards of before is another
            data["boards"] = BOARDS
        return data

    @cached_property
    def _portable_game(self) -> str:
        """The game's spec as a worker in another process loads it (a game registered in
        this process only is named by its module: :func:`gamesearch.games.portable_spec`)."""
        return portable_spec(self.game)

    @cached_property
    def key(self) -> str:
        """A digest of the configuration: the same command finds the same tournament."""
        text = json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def pairs(self) -> list[tuple[int, ...]]:
        """The tables: every combination of :attr:`seats` agents (two seats: the pairs), or
        a balanced sample of :data:`MAX_TABLES` of them (see the module's docstring)."""
        return self._tables

    @cached_property
    def _tables(self) -> list[tuple[int, ...]]:
        n = len(self.agents)
        seats = 2 if self.duplicate else self.seats if self.game else 2
        if seats == 2:  # (today's pairs, in today's order; duplicate: the pairs that meet)
            if self.format == "gauntlet":
                return [(0, j) for j in range(1, n)]
            return [(i, j) for i in range(n) for j in range(i + 1, n)]
        fixed = (0,) if self.format == "gauntlet" else ()
        free = n - len(fixed)
        if math.comb(free, seats - len(fixed)) > MAX_TABLES:
            return balanced_tables(n, seats, MAX_TABLES, self.seed, fixed)
        return [(*fixed, *combo) for combo in
                itertools.combinations(range(len(fixed), n), seats - len(fixed))]

    @property
    def total(self) -> int:
        """How many games the schedule holds (at most ``RANGES["games"].high``)."""
        return self.games_per_pair * len(self.pairs())

    def slot_at(self, index: int) -> tuple[int, int]:
        """The ``index``-th slot of the schedule: rounds interleaved, so partial results
        stay balanced (game 0 of every pair, then game 1, ...)."""
        game_no, pair = divmod(index, len(self.pairs()))
        return pair, game_no

    def job(self, pair: int, game_no: int) -> Job:
        """The game in slot ``(pair, game_no)``, built on demand (a schedule of a million
        games is never held in memory at once)."""
        if self.duplicate:
            return self._duplicate_job(pair, game_no)
        table = self.pairs()[pair]
        n = len(table)
        turn = game_no % n
        seats = table[turn:] + table[:turn]  # (two seats: swapped every other game)
        opening_index = (game_no // n) % len(self.openings) if self.openings else None
        return Job(
            game=self._portable_game,
            pair=pair,
            game_no=game_no,
            seats=seats,
            specs=tuple(self.agents[i].spec for i in seats),
            opening_index=opening_index,
            opening=None if opening_index is None else self.openings[opening_index],
            time_control=self.time_control,
            grace=self.grace,
            seed=derive_seed(self.seed, self.key, pair, game_no),
            max_plies=self.max_plies,
        )

    def _duplicate_job(self, pair: int, game_no: int) -> Job:
        """Board ``game_no // 2`` at table ``game_no % 2`` (the module's docstring)."""
        first, second = self.pairs()[pair]
        board, table = divmod(game_no, 2)
        if table:
            first, second = second, first
        seats = [0] * sum(len(team) for team in self.teams)
        for seat in self.teams[0]:
            seats[seat] = first
        for seat in self.teams[1]:
            seats[seat] = second
        return Job(
            game=self.board_spec(board),
            pair=pair,
            game_no=game_no,
            seats=tuple(seats),
            specs=tuple(self.agents[i].spec for i in seats),
            opening_index=None,
            opening=self.board_opening(board),
            time_control=self.time_control,
            grace=self.grace,
            seed=derive_seed(self.seed, self.key, pair, game_no),
            max_plies=self.max_plies,
        )

    def schedule(self) -> list[Job]:
        """Every game, in schedule order (see :meth:`slot_at`)."""
        return [self.job(*self.slot_at(i)) for i in range(self.total)]


class Slotted:
    """A game's place in the schedule: ``pair`` and ``game_no`` (round = one game per
    rotation of the table: two games, one with each colour, for two seats)."""

    pair: int
    game_no: int
    seats: Any

    @property
    def slot(self) -> tuple[int, int]:
        return (self.pair, self.game_no)

    @property
    def round(self) -> int:
        return self.game_no // max(2, len(self.seats))


@dataclass(frozen=True)
class Job(Slotted):
    """One scheduled game: everything a worker anywhere needs to play it (picklable)."""

    game: str  # the game's spec (pig, pig:goal=50, py:MODULE:ATTR)
    pair: int
    game_no: int
    seats: tuple[int, ...]
    specs: tuple[str, ...]
    opening_index: int | None
    opening: Opening | None
    time_control: TimeControl
    grace: float
    seed: int
    max_plies: int


def load_game(spec: str) -> Game[Any, Any]:
    """The game of ``spec`` (``pig``, ``pig:goal=50``, ``py:MODULE:ATTR``), refused with a
    clear message unless it has 2 to 6 players (:data:`MIN_SEATS`, :data:`MAX_SEATS`)."""
    game = get_game(spec)
    n = game.num_players
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ArenaError(f"the arena seats {MIN_SEATS} to {MAX_SEATS} players; {game.name} "
                         f"has {n}")
    return game
