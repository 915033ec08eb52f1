"""Playing one scheduled game in this process: agents, clocks, forfeits, the record.

:func:`play_job` is what every backend ends up running (inside a supervised child process,
see :mod:`gamesearch.arena.runner`). It never raises because of an agent: an agent that
raises loses by ``crash``, one that overruns its clock by more than the grace period loses
by ``timeout``, one that returns an action not in ``game.actions(state)`` loses by
``illegal-move``. A game longer than ``max_plies`` (after the opening) is a draw by
``move-limit``. All randomness (random agents, dice) comes from seeds derived from the
job's slot, never from process state, so a game is the same on any worker.

Results are kept per seat, for any number of seats: the game's ``returns`` (None when the
game did not end by its rules), the *ranks* (1 is best; players with equal returns share the
better rank, "1224" competition ranking) and the *score* of each seat, the share of the other
seats it beat, a tie counting half (two seats: 1, ½, 0 as ever). A forfeit ranks the
forfeiting seat last and the others tied first; a move-limit draw ties everyone.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from ..agents import (
    Agent,
    IsmctsAgent,
    PimcAgent,
    RandomAgent,
    make_agent,
    play_game,
    seat_game,
    seat_view,
)
from ..errors import GameError, echo
from ..game import Game
from ..games import import_outside_module
from ..search import Limit
from ..search.base import gc_paused
from ..spec import split_spec
from .errors import ArenaError
from .schedule import Job, Slotted, derive_seed, load_game

TERMINATIONS = ("normal", "crash", "timeout", "illegal-move", "move-limit")

#: What a running game reports to its supervisor (see :mod:`gamesearch.arena.runner`).
Event = tuple[Any, ...]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class GameRecord(Slotted):
    """One finished game, as stored. Per-seat lists are indexed by seat (0 moves first)."""

    pair: int
    game_no: int
    seats: list[int]
    specs: list[str]
    opening_index: int | None
    start_position: str | None
    opening_plies: int
    moves: list[str]
    scores: list[float]
    termination: str
    detail: str = ""
    times: list[float] = field(default_factory=lambda: [0.0, 0.0])
    nodes: list[int] = field(default_factory=lambda: [0, 0])
    #: moves each seat's agent made (chance moves and the opening not counted)
    plies: list[int] = field(default_factory=lambda: [0, 0])
    finished_at: str = field(default_factory=now_iso)
    #: rank of every seat (1 best, ties share); derived from ``scores`` when not given
    ranks: list[int] = field(default_factory=list)
    #: the game's returns per seat (``None``: the game did not end by its rules)
    returns: list[float] | None = None

    def __post_init__(self) -> None:
        if not self.ranks:
            self.ranks = ranks_of(self.scores)


    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(**data)

    def outcome_key(self) -> tuple[Any, ...]:
        """What must not depend on the machine: everything but clock times and timestamps."""
        return (self.pair, self.game_no, tuple(self.seats), self.opening_index,
                tuple(self.moves), tuple(self.scores), self.termination, tuple(self.nodes),
                tuple(self.ranks), None if self.returns is None else tuple(self.returns))


def ranks_of(values: Any) -> list[int]:
    """Competition ranks ("1224") of ``values``, higher values better: 1 plus the number of
    strictly better values, so equal values share the better rank."""
    vals = [float(v) for v in values]
    return [1 + sum(w > v for w in vals) for v in vals]


def scores_from_ranks(ranks: Any) -> list[float]:
    """Each seat's share of the other seats it ranks above, a shared rank counting half
    (two seats: 1-0, 0-1 or ½-½)."""
    n = len(ranks)
    if n < 2:
        return [0.5] * n
    return [(sum(r < o for o in ranks) + 0.5 * (sum(r == o for o in ranks) - 1)) / (n - 1)
            for r in ranks]


def forfeit_ranks(loser: int, seats: int = 2) -> list[int]:
    """The forfeiting seat last, every other seat tied first."""
    return [seats if seat == loser else 1 for seat in range(seats)]


def forfeit_scores(loser: int, seats: int = 2) -> list[float]:
    return scores_from_ranks(forfeit_ranks(loser, seats))


def scores_from_returns(returns: Any) -> list[float]:
    return scores_from_ranks(ranks_of(returns))


def import_agent_module(name: str) -> ModuleType:
    """Import ``name`` for a ``py:`` agent, by the rule of every ``py:`` spec (games too):
    never from the current directory (see :func:`gamesearch.games.import_outside_module`)."""
    return import_outside_module(name)


def _load_factory(target: str) -> Callable[..., Agent]:
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ArenaError(f"agent {echo('py:' + target)}: expected py:MODULE:FACTORY, e.g. "
                         "py:mypackage.agents:MyAgent")
    try:
        factory = getattr(import_agent_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ArenaError(f"agent {echo('py:' + target)}: {exc} (py: agents are imported from "
                         "installed packages or PYTHONPATH, never from the current "
                         "directory)") from None
    if not callable(factory):
        raise ArenaError(f"agent {echo('py:' + target)}: {echo(attr)} is not callable")
    return factory  # type: ignore[no-any-return]


def make_arena_agent(game: Game[Any, Any], spec: str, seed: int) -> Agent:
    """Build the agent ``spec`` for one game; ``seed`` seeds any randomness it has.

    Specs: every search spec (``alphabeta:depth=4``, ``id:time=0.1``), ``random`` or
    ``random:seed=N`` (the game's seed is mixed in, so games differ but repeat exactly; the
    same for the sampling agents ``pimc`` and ``ismcts``, whose worlds are drawn from it),
    ``uci:PATH[,elo=N][,threads=N]`` (an external UCI engine; chess only, needs the
    ``chess`` package), ``gtp:PATH[,level=N][,args=ARGS]`` (an external GTP engine, Go
    only: :mod:`.gtp_client`) and ``py:MODULE:FACTORY`` (your own: ``FACTORY(game)`` returns an
    :class:`~gamesearch.agents.Agent`; this imports and so *runs* MODULE, from an installed
    package or ``PYTHONPATH``, never from the current directory: see
    :func:`import_agent_module`).
    """
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind == "human":
        raise ArenaError("human agents cannot play in the arena (use gamesearch play)")
    if kind == "random":
        base = make_agent(game, spec)  # validates the options
        assert isinstance(base, RandomAgent)
        agent = RandomAgent(derive_seed(base.seed, seed))
        agent.name = spec
        return agent
    if kind in ("pimc", "ismcts"):  # (their worlds from the game's seed: a rerun repeats)
        sampler = make_agent(game, spec, default_time=None)
        assert isinstance(sampler, PimcAgent | IsmctsAgent)
        given = split_spec(spec).options.get("seed", "0")
        sampler.rng = random.Random(derive_seed(int(given), seed))
        return sampler
    if kind == "py":
        made = _load_factory(rest.strip())(game)
        if not isinstance(made, Agent):
            raise ArenaError(f"agent {spec!r}: the factory returned {type(made).__name__}, "
                             "not a gamesearch Agent")
        return made
    if kind == "uci":
        from .engines import UCIAgent

        return UCIAgent.from_spec(game, rest)
    if kind == "gtp":
        from .gtp_client import GTPAgent

        return GTPAgent.from_spec(game, rest)
    return make_agent(game, spec, default_time=None)


def check_agent_specs(game: Game[Any, Any], specs: list[str]) -> None:
    """Build each agent once, so a typo is reported before any game is played."""
    for spec in specs:
        try:
            agent = make_arena_agent(game, spec, 0)
        except GameError:
            raise
        except Exception as exc:
            raise ArenaError(f"agent {spec!r} could not be built: "
                             f"{type(exc).__name__}: {exc}") from None
        agent.close()


def _nodes(agent: Agent) -> int:
    """Nodes of the agent's last move, as its :attr:`~gamesearch.agents.Agent.report` says
    (0 when it reports none)."""
    report = agent.report
    return report.nodes if report is not None and isinstance(report.nodes, int) else 0


def play_job(job: Job, emit: Callable[[Event], None] | None = None) -> GameRecord:
    """Play ``job`` to the end in this process and return its record.

    ``emit`` receives ``("start", ply, player, remaining)`` before each agent move and
    ``("move", text, player, seconds, nodes)`` after every move (chance moves included).
    """
    send: Callable[[Event], None] = emit if emit is not None else (lambda event: None)
    game = load_game(job.game)
    n = len(job.seats)
    opening = job.opening
    state = opening.state(game) if opening is not None else game.initial_state()
    moves = list(opening.moves) if opening is not None else []
    record = GameRecord(
        pair=job.pair, game_no=job.game_no, seats=list(job.seats), specs=list(job.specs),
        opening_index=job.opening_index,
        start_position=opening.position if opening is not None else None,
        opening_plies=len(moves), moves=moves, scores=[0.5] * n, termination="normal",
        times=[0.0] * n, nodes=[0] * n, plies=[0] * n,
    )

    def finish(termination: str, ranks: list[int], detail: str = "",
               returns: list[float] | None = None) -> GameRecord:
        record.termination, record.detail = termination, detail
        record.ranks, record.scores, record.returns = ranks, scores_from_ranks(ranks), returns
        record.finished_at = now_iso()
        for agent in agents:
            with contextlib.suppress(Exception):  # closing must not change the result
                agent.close()
        return record

    agents: list[Agent] = []
    seated = seat_game(game)  # (hidden information: the rules without the holder's secrets)
    for seat, spec in enumerate(job.specs):
        try:
            agents.append(make_arena_agent(seated, spec, derive_seed(job.seed, "seat", seat)))
        except Exception as exc:
            return finish("crash", forfeit_ranks(seat, n),
                          f"{spec} could not start: {type(exc).__name__}: {exc}")

    tc = job.time_control
    remaining = [tc.base] * n

    def choose(player: int, s: Any) -> Any:
        """One agent move under the clocks: timed, checked, and a failure a forfeit."""
        agent, spec = agents[player], job.specs[player]
        send(("start", len(record.moves), player, remaining[player]))
        limit = Limit(clocks=tuple(max(r, 0.0) for r in remaining),
                      increments=(tc.increment,) * n)
        # The collector waits until the move is timed: both seats' tables share this
        # process's heap, so a collection the mover's search happens to set off (0.1-1 s
        # with two engines' tables on a busy machine) is not the mover's thinking time.
        with gc_paused():
            start = time.perf_counter()
            try:
                action = agent.choose(seated, seat_view(game, s, player), limit)
            except Exception as exc:
                record.times[player] += time.perf_counter() - start
                raise Forfeit("crash", player, f"{spec} raised {type(exc).__name__}: "
                              f"{exc}") from None
            seconds = time.perf_counter() - start
        record.times[player] += seconds
        record.plies[player] += 1
        moved_nodes = _nodes(agent)
        record.nodes[player] += moved_nodes
        if seconds > remaining[player] + job.grace:
            raise Forfeit("timeout", player,
                          f"{spec} took {seconds:.3f} s with {remaining[player]:.3f} s "
                          f"on its clock (grace {job.grace:g} s)")
        try:
            legal = action in list(game.actions(s))
        except Exception:
            legal = False
        if not legal:
            raise Forfeit("illegal-move", player, f"{spec} played {action!r}; legal: "
                          + " ".join(game.legal_action_strings(s)))
        remaining[player] += tc.increment - seconds
        last_move[player] = (seconds, moved_nodes)
        return action

    last_move: dict[int, tuple[float, int]] = {}

    def on_move(s: Any, action: Any, player: int) -> None:
        text = game.format_action(s, action)
        seconds, nodes = last_move.pop(player, (0.0, 0))
        send(("move", text, player, seconds, nodes))
        record.moves.append(text)

    chance_rng = random.Random(derive_seed(job.seed, "chance"))
    try:
        state, _ = play_game(game, agents, state, chance_rng, on_move, job.max_plies, choose)
    except Forfeit as forfeit:
        return finish(forfeit.termination, forfeit_ranks(forfeit.loser, n), forfeit.detail)
    if game.is_terminal(state):
        returns = [float(v) for v in game.returns(state)]
        return finish("normal", ranks_of(returns), returns=returns)
    return finish("move-limit", [1] * n, f"no result after {job.max_plies} plies")


class Forfeit(Exception):
    """An agent lost the game by ``termination`` (crash, timeout, illegal move)."""

    def __init__(self, termination: str, loser: int, detail: str) -> None:
        super().__init__(detail)
        self.termination, self.loser, self.detail = termination, loser, detail
