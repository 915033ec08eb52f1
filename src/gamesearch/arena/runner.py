"""Running games: each in its own supervised child process, K at a time, here or on Ray.

One code path for every backend: :func:`run_supervised` starts a child process per game
(:func:`play_job` inside it), listens to the moves the child reports, and kills the child
when an agent's move runs past its clock plus the grace period (plus ``SLACK``): a hang of
any kind — a sleep, an endless loop, a C extension that never returns — costs that agent
the game ("timeout"), and a child that dies (``os._exit``, a segfault) costs the agent who
was moving the game ("crash"). The tournament goes on either way.

* ``--workers K`` (local backend): one loop supervises up to K children at once.
* ``--backend ray``: each game is a Ray task running :func:`play_slot`, which is the same
  supervisor with one child.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .errors import ArenaError
from .play import GameRecord, forfeit_scores, now_iso, play_job
from .schedule import Job

#: Seconds past an agent's deadline before its process is killed (the child itself
#: judges a move that returns late; the kill is for moves that never return).
SLACK = 0.5
#: Seconds allowed for work outside an agent's move (starting agents, the game's rules).
HARNESS_SECONDS = 60.0


def default_start_method() -> str:
    """``fork`` on Linux (cheap, and the supervisor is single-threaded); ``spawn`` elsewhere."""
    methods = multiprocessing.get_all_start_methods()
    return "fork" if sys.platform.startswith("linux") and "fork" in methods else "spawn"


def _libc() -> Any:
    """The C library, loaded once in the supervisor (so that forked children need not)."""
    global _LIBC
    if _LIBC is None and sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            _LIBC = ctypes.CDLL("libc.so.6", use_errno=True)
    return _LIBC


_LIBC: Any = None


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this child when its supervisor dies (even by SIGKILL)."""
    libc = _libc()
    if libc is not None:
        with contextlib.suppress(Exception):
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _child_main(job: Job, conn: Connection) -> None:
    _die_with_parent()
    try:
        record = play_job(job, conn.send)
        conn.send(("done", record.to_dict()))
    except BaseException:  # report anything to the supervisor
        with contextlib.suppress(Exception):
            conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()
        # Leave at once: threads an agent left behind must not keep the process alive.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(0)


@dataclass
class _Live:
    job: Job
    proc: Any
    conn: Connection
    deadline: float
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=lambda: [0.0, 0.0])
    nodes: list[int] = field(default_factory=lambda: [0, 0])
    plies: list[int] = field(default_factory=lambda: [0, 0])
    #: the seat whose agent is thinking (None: the harness is running)
    thinking: int | None = None
    started: float = 0.0
    remaining: float = 0.0
    record: GameRecord | None = None
    error: str | None = None


def _fallback_record(live: _Live, termination: str, detail: str) -> GameRecord:
    job = live.job
    opening = job.opening
    loser = live.thinking if live.thinking is not None else 0
    return GameRecord(
        pair=job.pair, game_no=job.game_no, seats=list(job.seats), specs=list(job.specs),
        opening_index=job.opening_index,
        start_position=opening.position if opening is not None else None,
        opening_plies=len(opening.moves) if opening is not None else 0,
        moves=[*(opening.moves if opening is not None else ()), *live.moves],
        scores=forfeit_scores(loser), termination=termination, detail=detail,
        times=live.times, nodes=live.nodes, plies=live.plies, finished_at=now_iso(),
    )


def _handle(live: _Live, event: tuple[Any, ...], now: float) -> None:
    kind = event[0]
    if kind == "start":
        _, _, player, remaining = event
        live.thinking, live.started, live.remaining = player, now, remaining
        live.deadline = now + max(remaining, 0.0) + live.job.grace + SLACK
    elif kind == "move":
        _, text, player, seconds, nodes = event
        live.moves.append(text)
        if player >= 0:
            live.times[player] += seconds
            live.nodes[player] += nodes
            live.plies[player] += 1
        live.thinking = None
        live.deadline = now + HARNESS_SECONDS
    elif kind == "done":
        live.record = GameRecord.from_dict(event[1])
    elif kind == "error":
        live.error = event[1]


def _kill(live: _Live) -> None:
    with contextlib.suppress(Exception):
        live.proc.kill()
    live.proc.join(5)
    live.conn.close()


def run_supervised(
    jobs: Iterable[Job],
    workers: int,
    on_record: Callable[[GameRecord], None],
    should_stop: Callable[[], bool] = lambda: False,
    start_method: str | None = None,
) -> bool:
    """Play ``jobs`` with up to ``workers`` child processes; ``on_record`` gets each record
    as its game ends (in finishing order). Returns False when ``should_stop`` ended it early
    (games still running then are killed and not reported)."""
    if workers < 1:
        raise ArenaError(f"workers {workers}: must be at least 1")
    ctx: Any = multiprocessing.get_context(start_method or default_start_method())
    _libc()
    pending = deque(jobs)
    live: dict[Connection, _Live] = {}
    try:
        while pending or live:
            if should_stop():
                return False
            while pending and len(live) < workers:
                job = pending.popleft()
                parent_conn, child_conn = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child_main, args=(job, child_conn), daemon=True)
                proc.start()
                child_conn.close()
                live[parent_conn] = _Live(job, proc, parent_conn,
                                          time.monotonic() + HARNESS_SECONDS)
            timeout = max(0.0, min(x.deadline for x in live.values()) - time.monotonic())
            ready = wait(list(live), timeout=timeout)
            now = time.monotonic()
            finished: list[tuple[_Live, GameRecord]] = []
            for conn in ready:
                assert isinstance(conn, Connection)
                item = live[conn]
                closed = False
                try:
                    while conn.poll():
                        _handle(item, conn.recv(), now)
                except (EOFError, OSError):
                    closed = True
                if not closed and item.record is None and item.error is None:
                    continue
                del live[conn]
                item.proc.join(5)
                if item.proc.is_alive():
                    _kill(item)
                else:
                    conn.close()
                if item.error is not None:
                    raise ArenaError(f"game {item.job.slot} failed inside the arena "
                                     f"(not an agent's fault):\n{item.error}")
                if item.record is None:
                    who = (item.job.specs[item.thinking] if item.thinking is not None
                           else "an agent")
                    item.record = _fallback_record(
                        item, "crash",
                        f"the game's process died (exit code {item.proc.exitcode}) "
                        f"while {who} was to move")
                finished.append((item, item.record))
            for conn, item in list(live.items()):
                if now < item.deadline:
                    continue
                del live[conn]
                _kill(item)
                if item.thinking is None:
                    raise ArenaError(f"game {item.job.slot} hung outside any agent's move "
                                     f"for {HARNESS_SECONDS:g} s")
                spec = item.job.specs[item.thinking]
                item.times[item.thinking] += now - item.started
                finished.append((item, _fallback_record(
                    item, "timeout",
                    f"{spec} did not move within {item.remaining:.3f} s on its clock + "
                    f"{item.job.grace:g} s grace; its process was killed")))
            for _, record in sorted(finished, key=lambda x: x[1].slot):
                on_record(record)
        return True
    finally:
        for item in live.values():
            _kill(item)


def play_slot(job: Job, start_method: str | None = None) -> GameRecord:
    """Play one scheduled game in a supervised child process; the unit every backend runs."""
    out: list[GameRecord] = []
    run_supervised([job], 1, out.append, start_method=start_method)
    return out[0]


# ----- backends ---------------------------------------------------------------------------
def run_local(
    jobs: list[Job],
    workers: int,
    on_record: Callable[[GameRecord], None],
    should_stop: Callable[[], bool] = lambda: False,
) -> bool:
    return run_supervised(jobs, workers, on_record, should_stop)


def _ray_play(job: Job) -> GameRecord:
    # fork() from Ray's threaded worker: the child runs only gamesearch code and leaves by
    # os._exit. (forkserver and spawn would re-run Ray's worker script as the child's
    # __main__, which costs seconds per game and can fail.)
    return play_slot(job)


def run_ray(
    jobs: list[Job],
    workers: int | None,
    on_record: Callable[[GameRecord], None],
    should_stop: Callable[[], bool] = lambda: False,
    address: str | None = None,
) -> bool:
    """Play ``jobs`` as Ray tasks (at most ``workers`` in flight; default: the cluster's CPUs).

    Uses the running Ray instance if there is one, else ``ray.init(address)`` (``None``: a
    new local instance, or the cluster named by ``RAY_ADDRESS``)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ArenaError("--backend ray needs Ray: pip install 'gamesearch[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
    pending = deque(jobs)
    running: list[Any] = []
    try:
        while pending or running:
            if should_stop():
                return False
            while pending and len(running) < in_flight:
                running.append(remote.remote(pending.popleft()))
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                record = ray.get(ref)
                on_record(record)
        return True
    finally:
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)

