"""Running games: each in its own supervised child process, K at a time, here or on Ray.

One code path for every backend: :func:`run_supervised` starts a child process per game
(:func:`play_job` inside it), listens to the moves the child reports, and kills the child
when an agent's move runs past its clock plus the grace period (plus ``SLACK``): a hang of
any kind — a sleep, an endless loop, a C extension that never returns — costs that agent
the game ("timeout"), and a child that dies (``os._exit``, a segfault) costs the agent who
was moving the game ("crash"). The tournament goes on either way.

* ``--workers K`` (local backend): one loop supervises up to K children at once.
* ``--backend ray``: each game is a Ray task running :func:`play_slot`, which is the same
  supervisor with one child. A local Ray instance started here listens on 127.0.0.1 only;
  a cluster named by ``--ray-address`` must answer within :data:`RAY_CONNECT_SECONDS`.

Both loops take their games from a :class:`JobSource` as they have room: a plain list, or
the tournament's leased schedule (:mod:`gamesearch.arena.tournament`), which claims slots
in the database so that several processes on one file share the work.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import socket
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol, runtime_checkable

from ..errors import echo
from .errors import ArenaError
from .play import GameRecord, forfeit_scores, now_iso, play_job
from .schedule import Job

#: Seconds past an agent's deadline before its process is killed (the child itself
#: judges a move that returns late; the kill is for moves that never return).
SLACK = 0.5
#: Seconds allowed for work outside an agent's move (starting agents, the game's rules).
#: Generous: on a loaded machine (a load average of 39 on 2 cores) starting an engine
#: process and a game's first compiled code took more than a minute, and a hang here stops
#: the whole run.
HARNESS_SECONDS = 300.0
#: Seconds between two looks at a job source that has nothing to start yet.
POLL_SECONDS = 0.25
#: Seconds a Ray cluster named by an address has to accept a connection.
RAY_CONNECT_SECONDS = 10.0


@runtime_checkable
class JobSource(Protocol):
    """Where a backend takes its games: ``take(room)`` gives up to ``room`` jobs to start
    now (it is called on every turn of the loop, ``room`` 0 included, so a source can renew
    what it holds); ``exhausted()`` says that no job will come any more."""

    def take(self, room: int) -> list[Job]: ...

    def exhausted(self) -> bool: ...


class JobList:
    """A fixed list of jobs as a :class:`JobSource`."""

    def __init__(self, jobs: Iterable[Job]) -> None:
        self.pending = deque(jobs)

    def take(self, room: int) -> list[Job]:
        return [self.pending.popleft() for _ in range(min(room, len(self.pending)))]

    def exhausted(self) -> bool:
        return not self.pending


def _source(jobs: Iterable[Job] | JobSource) -> JobSource:
    return jobs if isinstance(jobs, JobSource) else JobList(jobs)


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
    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)
    #: the seat whose agent is thinking (None: the harness is running)
    thinking: int | None = None
    started: float = 0.0
    remaining: float = 0.0
    record: GameRecord | None = None
    error: str | None = None

    def __post_init__(self) -> None:
        n = len(self.job.seats)
        self.times, self.nodes, self.plies = [0.0] * n, [0] * n, [0] * n


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
        scores=forfeit_scores(loser, len(job.seats)), termination=termination, detail=detail,
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
    jobs: Iterable[Job] | JobSource,
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
    source = _source(jobs)
    live: dict[Connection, _Live] = {}
    try:
        while True:
            if should_stop():
                return False
            for job in source.take(workers - len(live)):
                parent_conn, child_conn = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child_main, args=(job, child_conn), daemon=True)
                proc.start()
                child_conn.close()
                live[parent_conn] = _Live(job, proc, parent_conn,
                                          time.monotonic() + HARNESS_SECONDS)
            if not live:
                if source.exhausted():
                    return True
                time.sleep(POLL_SECONDS)  # others hold the rest: look again soon
                continue
            timeout = max(0.0, min(x.deadline for x in live.values()) - time.monotonic())
            if not source.exhausted():
                timeout = min(timeout, POLL_SECONDS)
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
                    last = item.error.strip().splitlines()[-1] if item.error.strip() else "?"
                    raise ArenaError(f"game {item.job.slot} failed inside the arena (not an "
                                     f"agent's fault): {last}")
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
    run_supervised(JobList([job]), 1, out.append, start_method=start_method)
    return out[0]


# ----- backends ---------------------------------------------------------------------------
def run_local(
    jobs: Iterable[Job] | JobSource,
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


#: What a gRPC server (Ray's GCS and its client server are) answers first: HTTP/2 SETTINGS.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def _reachable(address: str) -> None:
    """Refuse, within :data:`RAY_CONNECT_SECONDS`, a cluster address where no gRPC server
    answers (``ray.init`` itself would wait for ever, both when nothing listens and when
    something that is not Ray does): connect, send HTTP/2's preface, expect SETTINGS."""
    if address in ("auto", "local"):
        return
    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise ArenaError(f"--ray-address {echo(address)}: expected HOST:PORT (or "
                         "ray://HOST:PORT), e.g. 10.0.0.5:6379")
    where = f"no Ray cluster answers at {echo(address)}"
    try:
        with socket.create_connection((host.strip("[]"), int(port)),
                                      timeout=RAY_CONNECT_SECONDS) as conn:
            if os.environ.get("RAY_USE_TLS", "0") not in ("", "0"):
                return  # TLS: the handshake is Ray's to do
            conn.settimeout(RAY_CONNECT_SECONDS)
            conn.sendall(_HTTP2_PREFACE)
            head = conn.recv(9)
    except TimeoutError:
        raise ArenaError(f"{where} (no answer within {RAY_CONNECT_SECONDS:g} s)") from None
    except OSError as exc:
        raise ArenaError(f"{where} ({exc.strerror or exc})") from None
    if len(head) < 4 or head[3] != 0x04:
        raise ArenaError(f"{where}: something listens there, but it does not speak gRPC")


def _loopback(address: str) -> bool:
    host = address.split("://", 1)[-1].rpartition(":")[0].strip("[]")
    return host in ("127.0.0.1", "::1", "localhost")


def start_local_ray(ray: Any, **options: Any) -> None:
    """Start a local Ray instance that listens on 127.0.0.1 only (Ray's own default is every
    interface). Ray picks the node's address when it is imported or starts, from
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``: off, it uses the loopback address."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    with contextlib.suppress(Exception):  # already imported: the flag is read from here
        constants: Any = importlib.import_module("ray._private.ray_constants")
        constants.ENABLE_RAY_CLUSTER = False
    ray.init(**{"include_dashboard": False, "log_to_driver": False,
                "configure_logging": False, **options})
    gcs = str(getattr(ray.get_runtime_context(), "gcs_address", "") or "")
    if gcs and not _loopback(gcs):
        ray.shutdown()
        raise ArenaError(f"the local Ray instance would listen on {echo(gcs)}, not on "
                         "127.0.0.1 only; start a cluster yourself (ray start --head "
                         "--node-ip-address=...) and give its --ray-address")


def connect_ray(address: str | None) -> Any:
    """Ray, initialised: the running instance, the cluster at ``address`` (or
    ``RAY_ADDRESS``), else a new local instance on 127.0.0.1."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ArenaError("--backend ray needs Ray: pip install 'gamesearch[ray]'") from None
    if ray.is_initialized():
        return ray
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is None or address == "local":
        start_local_ray(ray)
        return ray
    _reachable(address)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        raise ArenaError(f"cannot join the Ray cluster at {echo(address)}: "
                         f"{type(exc).__name__}: {first}") from None
    return ray


def run_ray(
    jobs: Iterable[Job] | JobSource,
    workers: int | None,
    on_record: Callable[[GameRecord], None],
    should_stop: Callable[[], bool] = lambda: False,
    address: str | None = None,
) -> bool:
    """Play ``jobs`` as Ray tasks (at most ``workers`` in flight; default: the cluster's CPUs).

    Uses the running Ray instance if there is one (see :func:`connect_ray`)."""
    ray = connect_ray(address)
    in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
    source = _source(jobs)
    running: list[Any] = []
    try:
        while True:
            if should_stop():
                return False
            running.extend(remote.remote(job) for job in source.take(in_flight - len(running)))
            if not running:
                if source.exhausted():
                    return True
                time.sleep(POLL_SECONDS)
                continue
            done, running = ray.wait(running, num_returns=1,
                                     timeout=None if source.exhausted() else POLL_SECONDS)
            for ref in done:
                record = ray.get(ref)
                on_record(record)
    finally:
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)

