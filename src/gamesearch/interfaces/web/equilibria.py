"""The Equilibria page: CFR run live on Kuhn or Leduc poker, and the equilibria of a matrix
game.

A poker run is :class:`gamesearch.search.cfr_fast.FastCFR` (the algorithms of Zinkevich et
al. 2007, Tammelin 2014 and Brown & Sandholm 2019, OpenSpiel's schedule) stepped one
iteration at a time in a worker thread (:class:`SolveRun`), so that a stop (the page's
button, the client leaving, the server's time cap) takes effect within one iteration. The
exploitability of the average policy (NashConv / 2, best responses on the flat tree) is
computed only at the log-spaced checkpoints of :func:`checkpoints` (1, 2, 3, 5, 10, 20,
30, 50, ...: four a decade) and at the last iteration, so its cost stays a few best
responses a decade however long the run (the ``done`` event reports both CPU times). The
page receives the points as server-sent events and draws them on log-log axes; at the end,
the average policy of every information set with readable labels (on Kuhn poker, the page
points out the family of equilibria of Kuhn, "A simplified two-person poker", 1950: player
1 bets the jack with any alpha in [0, 1/3] and the king with 3 alpha).

The solved policy is played on the play page as the agent ``cfr:iterations=N,algorithm=A``
(:func:`cfr_agent`): the solvers are deterministic, so that spec names exactly the policy
the run ended with. The run leaves its table in a small cache (:data:`SOLVED`) under that
spec, so the play page's agent reads it instead of solving again; an agent spec not in the
cache (typed by hand, or after a restart) is solved once within the same caps (iterations
and seconds) and cached. A request never names a file: ``policy:FILE`` is the command
line's.

A matrix game is solved by the command line's own function (``gamesearch nash --json``:
:func:`gamesearch.interfaces.nash_cli.solve`): the value and optimal strategies of a
zero-sum game (linear programming), every equilibrium of a small general-sum game (support
enumeration).
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import anyio
import anyio.to_thread
from fastapi.responses import StreamingResponse

from ...agents import PolicyAgent
from ...errors import GameError, echo
from ...game import Game
from ...search.cfr_fast import FastCFR, FlatTree, flatten
from ...search.policy_file import PolicyTable
from ...spec import read_int, split_spec
from . import validation
from .gate import GatedStream, SearchGate
from .thinking import relay, sse
from .validation import Caps, WebInputError

#: the games the page solves (two-player zero-sum poker with OpenSpiel's information sets)
POKER_GAMES = ("kuhn_poker", "leduc_poker")
#: the algorithms of a run (the flat solver's); the command line has more (MCCFR, the LP)
ALGORITHMS = {"cfr": "vanilla CFR (Zinkevich et al. 2007)",
              "cfr+": "CFR+ (Tammelin 2014)",
              "dcfr": "discounted CFR (Brown & Sandholm 2019)"}
#: iterations of a run when the request gives none
DEFAULT_ITERATIONS = 1000
#: seconds between two ``progress`` events (the iteration count between checkpoints)
PROGRESS_EVERY = 0.25
#: solved policies kept for the play page's agents
CACHE_SIZE = 16
#: the presets of the matrix form (``gamesearch nash --matrix``'s JSON)
MATRIX_PRESETS = {
    "matching pennies": {"a": [[1, -1], [-1, 1]], "b": None},
    "rock-paper-scissors": {"a": [[0, -1, 1], [1, 0, -1], [-1, 1, 0]], "b": None},
    "battle of the sexes (general-sum)": {"a": [[3, 0], [0, 2]], "b": [[2, 0], [0, 3]]},
}


def checkpoints(last: int) -> list[int]:
    """The iterations at which a run of ``last`` iterations measures its exploitability:
    1, 2, 3, 5 times each power of ten up to ``last``, and ``last`` itself."""
    out: list[int] = []
    decade = 1
    while decade <= last:
        out += [k * decade for k in (1, 2, 3, 5) if k * decade <= last]
        decade *= 10
    if not out or out[-1] != last:
        out.append(last)
    return out


def agent_spec(algorithm: str, iterations: int) -> str:
    """The agent that plays the policy of ``algorithm`` after ``iterations`` iterations."""
    return f"cfr:iterations={iterations},algorithm={algorithm}"


# ----- the request's inputs ------------------------------------------------------------
def poker_game(name: str | None, caps: Caps) -> Game[Any, Any]:
    """One of :data:`POKER_GAMES` (400 for any other)."""
    if not name or name.strip() not in POKER_GAMES:
        raise WebInputError(f"game {echo(name or '')}: the equilibria page solves "
                            f"{' and '.join(POKER_GAMES)} (a matrix game: /api/equilibria/"
                            "matrix; other games: gamesearch equilibrium)")
    return validation.game(name.strip(), caps)


def algorithm_name(text: str | None) -> str:
    name = (text or "cfr+").strip().lower()
    if name not in ALGORITHMS:
        raise WebInputError(f"algorithm {echo(text or '')}: the page runs "
                            f"{', '.join(ALGORITHMS)} (the command line has MCCFR and the LP)")
    return name


def iteration_count(text: str | None, caps: Caps) -> int:
    """Iterations: a whole number from 1 to the server's cap (NaN, words, negatives and
    numbers above the cap refused, saying the range)."""
    if text is None or text.strip() == "":
        return min(DEFAULT_ITERATIONS, caps.equilibrium_iterations)
    n = validation.number("iterations", text, whole=True, high=caps.equilibrium_iterations)
    assert n is not None
    return int(n)


# ----- the caches: flat trees, solved policies ------------------------------------------
#: game spec -> its flat tree (read only by the solver; Leduc's is built in 0.1 s, Liar's
#: Dice's in 1.5 s), the last few kept
TREES: OrderedDict[str, FlatTree] = OrderedDict()
TREE_CACHE_SIZE = 4
_TREES_LOCK = threading.Lock()


def flat_tree(game: Game[Any, Any]) -> FlatTree:
    """``game``'s flat tree, built once (a game the solvers do not take: its one-line
    error, 400)."""
    with _TREES_LOCK:
        found = TREES.get(game.spec)
        if found is not None:
            TREES.move_to_end(game.spec)
            return found
    tree = flatten(game)
    with _TREES_LOCK:
        TREES[game.spec] = tree
        while len(TREES) > TREE_CACHE_SIZE:
            TREES.popitem(last=False)
    return tree


#: (game spec, algorithm, iterations) -> the average policy (``policy_file``'s table)
SOLVED: OrderedDict[tuple[str, str, int], PolicyTable] = OrderedDict()
_SOLVED_LOCK = threading.Lock()


def remember(game: str, algorithm: str, iterations: int, table: PolicyTable) -> None:
    with _SOLVED_LOCK:
        SOLVED[(game, algorithm, iterations)] = table
        SOLVED.move_to_end((game, algorithm, iterations))
        while len(SOLVED) > CACHE_SIZE:
            SOLVED.popitem(last=False)


def recalled(game: str, algorithm: str, iterations: int) -> PolicyTable | None:
    with _SOLVED_LOCK:
        return SOLVED.get((game, algorithm, iterations))


def table(solver: FastCFR) -> PolicyTable:
    """The solver's average policy as ``policy_file``'s table (the one
    :func:`gamesearch.search.equilibrium.solve_equilibrium` reports)."""
    tree, average = solver.tree, solver.average_array()
    return {str(key): average[int(lo):int(lo) + len(acts)].tolist()
            for key, acts, lo in zip(tree.keys, tree.actions, tree.set_start, strict=True)}


# ----- the cfr agent of the web --------------------------------------------------------
def check_agent_spec(name: str, spec: str, caps: Caps) -> tuple[str, int, int | None]:
    """``cfr:iterations=N,algorithm=A,seed=N`` read as the command line's agent reads it
    (the same defaults: 1,000 iterations of CFR+; any 64-bit seed), for the web: the
    algorithm one of :data:`ALGORITHMS`, the iterations within the server's cap. Returns
    the algorithm, the iterations and the seed (of the agent's sampling of its moves)."""
    options = split_spec(spec).options
    unknown = set(options) - {"iterations", "algorithm", "seed"}
    if unknown:
        raise WebInputError(f"{name} {echo(spec)}: option {echo(min(unknown))}; a cfr agent "
                            "takes iterations=N, algorithm=A, seed=N")
    algorithm = algorithm_name(options.get("algorithm"))
    iterations = iteration_count(options.get("iterations") or str(DEFAULT_ITERATIONS), caps)
    seed = read_int("seed", options["seed"], -(1 << 63), 1 << 63) if "seed" in options \
        else None
    return algorithm, iterations, seed


def cfr_agent(game: Game[Any, Any], spec: str, caps: Caps) -> PolicyAgent:
    """The ``cfr`` agent of a web request: the policy from :data:`SOLVED`, else solved
    here within the server's caps (the iterations, and ``caps.equilibrium_time`` seconds:
    beyond them the spec is refused, saying so) and remembered. Any game the solvers take
    (two players, zero-sum, an observation), as the command line's agent."""
    algorithm, iterations, seed = check_agent_spec("agent", spec, caps)
    found = recalled(game.spec, algorithm, iterations)
    if found is None:
        run = SolveRun(game, algorithm, iterations, caps.equilibrium_time, measure=False,
                       tree=flat_tree(game))
        result = run.run(lambda _kind, _data: None)
        if result["stopped"]:
            raise WebInputError(f"not solved within the {caps.equilibrium_time:g} s this "
                                "server allows: fewer iterations, or the command line "
                                "(gamesearch equilibrium --out)")
        found = recalled(game.spec, algorithm, iterations)
        assert found is not None
    return PolicyAgent(game, found, spec, seed)


# ----- a run ---------------------------------------------------------------------------
@dataclass
class SolveRun:
    """One run of ``algorithm`` on ``game``: up to ``iterations`` iterations within
    ``seconds`` (wall clock: the time it holds a search slot), stopped early by
    :attr:`stop`. ``measure``: the exploitability at the checkpoints (off for an agent's
    solve, which needs only the policy)."""

    game: Game[Any, Any]
    algorithm: str
    iterations: int
    seconds: float
    measure: bool = True
    #: the game's flat tree, when built already (else built by :meth:`run`)
    tree: FlatTree | None = None
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, emit: Callable[[str, dict[str, Any]], None]) -> dict[str, Any]:
        """Iterate, emitting ``point`` at each checkpoint and ``progress`` now and then;
        returns the ``done`` event's data (and caches the policy)."""
        start = time.perf_counter()
        deadline = start + self.seconds
        cpu_start = time.process_time()
        solver = FastCFR(self.game, self.algorithm, tree=self.tree)
        exploit_cpu = 0.0
        marks = set(checkpoints(self.iterations))
        points: list[dict[str, Any]] = []
        last_progress = start
        stopped = ""

        def record_point() -> None:
            nonlocal exploit_cpu
            before = time.process_time()
            e = solver.exploitability()
            exploit_cpu += time.process_time() - before
            point = {"iteration": solver.iteration, "exploitability": e,
                     "seconds": round(time.perf_counter() - start, 4)}
            points.append(point)
            emit("point", point)

        while solver.iteration < self.iterations:
            if self.stop.is_set():
                stopped = "asked to stop"
                break
            now = time.perf_counter()
            if now > deadline:
                stopped = f"at the server's time cap of {self.seconds:g} s"
                break
            solver.iterate(1)
            if self.measure and solver.iteration in marks:
                record_point()
            elif now - last_progress > PROGRESS_EVERY:
                last_progress = now
                emit("progress", {"iteration": solver.iteration,
                                  "seconds": round(now - start, 4)})
        done = solver.iteration
        if self.measure and done and (not points or points[-1]["iteration"] != done):
            record_point()  # (a run stopped between checkpoints: its last policy too)
        policy = table(solver)
        if done:
            remember(self.game.spec, self.algorithm, done, policy)
        cpu = time.process_time() - cpu_start
        out: dict[str, Any] = {
            "run": self.id, "game": self.game.spec, "algorithm": self.algorithm,
            "iterations": done, "asked": self.iterations, "stopped": stopped,
            "exploitability": points[-1]["exploitability"] if points else None,
            "value": solver.value() if done else None, "evaluations": len(points),
            "solver_cpu": round(cpu - exploit_cpu, 4),
            "exploitability_cpu": round(exploit_cpu, 4),
            "seconds": round(time.perf_counter() - start, 4),
        }
        if self.measure:
            out["information_sets"] = information_sets(self.game, solver.tree, policy)
            if done:
                spec = agent_spec(self.algorithm, done)
                out["agent"] = spec
                out["play"] = [f"/play?game={quote(self.game.spec)}&" + "&".join(
                    f"agent={quote(a)}" for a in seats) for seats in
                    (("human", spec), (spec, "human"))]
        return out


def stream_run(gate: SearchGate, run: SolveRun, running: dict[str, SolveRun]
               ) -> StreamingResponse:
    """The response that streams a run (the caller has reserved the gate's place): ``start``
    (the run's id, for the stop button; its checkpoints), then ``point`` and ``progress``
    while it runs in a worker thread, then ``done`` (or ``error``). The run is in
    ``running`` (what ``/api/equilibria/stop`` finds) while it goes; a client that leaves
    stops it, and the gate's slot is freed once its thread has ended."""
    start = {"run": run.id, "game": run.game.spec, "algorithm": run.algorithm,
             "iterations": run.iterations, "checkpoints": checkpoints(run.iterations),
             "seconds": run.seconds,
             "information_sets": len(run.tree.keys) if run.tree is not None else None,
             "histories": len(run.tree.parent) if run.tree is not None else None}

    async def stream() -> AsyncGenerator[str, None]:
        async with gate.turn():
            loop = asyncio.get_running_loop()
            events: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

            def emit(kind: str, data: dict[str, Any]) -> None:
                loop.call_soon_threadsafe(events.put_nowait, (kind, data))

            running[run.id] = run
            task = asyncio.ensure_future(anyio.to_thread.run_sync(run.run, emit))
            try:
                yield sse("start", start)
                async for line in relay(task, events, "done"):
                    yield line
            finally:
                if not task.done():  # the client left: stop the run, then free the slot
                    run.stop.set()
                    with anyio.CancelScope(shield=True):
                        await asyncio.wait({task})
                running.pop(run.id, None)

    return GatedStream(gate, stream(), media_type="text/event-stream",
                       headers={"Cache-Control": "no-cache"})


# ----- information sets for people -----------------------------------------------------
def information_sets(game: Game[Any, Any], tree: FlatTree, policy: PolicyTable
                     ) -> list[dict[str, Any]]:
    """Each information set with readable labels (player from 1, card, public card,
    betting so far, round), its actions' names and the average policy's probabilities."""
    out = []
    for key, actions in zip(tree.keys, tree.actions, strict=True):
        row = describe_set(game, key)
        row["key"] = str(key)
        row["actions"] = action_names(game, key, actions)
        row["probabilities"] = policy[str(key)]
        out.append(row)
    return out


def describe_set(game: Game[Any, Any], view: Hashable) -> dict[str, Any]:
    """Kuhn's and Leduc's views (their seat, card, public card, bets) in words."""
    from ...games import kuhn_poker, leduc_poker

    seat = int(getattr(view, "seat", 0))
    if isinstance(view, kuhn_poker.KuhnView):
        bets = [kuhn_poker.ACTIONS[b] for b in view.bets]
        return {"player": seat + 1, "card": kuhn_poker.CARDS[view.card], "public": "",
                "round": 1, "history": " ".join(bets) or "(first to act)"}
    if isinstance(view, leduc_poker.LeducView):
        rounds = [" ".join(leduc_poker.ACTIONS[a] for a in bets)
                  for bets in (view.round1, view.round2)]
        second = view.public >= 0
        history = f"round 1: {rounds[0] or '-'}" + (f"; round 2: {rounds[1] or '-'}"
                                                     if second else "")
        return {"player": seat + 1, "card": leduc_poker.card_name(view.card),
                "public": leduc_poker.card_name(view.public) if second else "",
                "round": 2 if second else 1, "history": history}
    return {"player": seat + 1, "card": "", "public": "", "round": 1, "history": str(view)}


def action_names(game: Game[Any, Any], view: Hashable, actions: list[Any]) -> list[str]:
    """The names of a set's actions, read at a state of the set (the game's notation)."""
    try:
        hidden = game.candidates(view)  # type: ignore[attr-defined]
        state = game.assemble(view, hidden[0])  # type: ignore[attr-defined]
        return [game.format_action(state, a) for a in actions]
    except (AttributeError, IndexError, GameError):  # (not a history game: the numbers)
        return [str(a) for a in actions]


# ----- matrix games --------------------------------------------------------------------
def matrix_game(a: str | None, b: str | None, caps: Caps) -> dict[str, Any]:
    """``gamesearch nash --matrix A [--matrix-b B] --json``'s object: zero-sum (B empty)
    by linear programming, general-sum by support enumeration (every equilibrium of a
    nondegenerate game), within the library's size caps."""
    from ...search import nash
    from ..nash_cli import solve

    if a is None or not a.strip():
        raise WebInputError("a: missing; the row player's payoffs as JSON rows, e.g. "
                            "[[0,-1,1],[1,0,-1],[-1,1,0]]")
    rows = nash.parse_json(a, "matrix A")
    other = None if b is None or not b.strip() else nash.parse_json(b, "matrix B")
    return solve(rows, other, None)


__all__ = ["ALGORITHMS", "MATRIX_PRESETS", "POKER_GAMES", "SOLVED", "SolveRun",
           "agent_spec", "cfr_agent", "check_agent_spec", "checkpoints", "flat_tree",
           "matrix_game"]
