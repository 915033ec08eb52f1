"""Building a game's endgame tables slice by slice, on local processes or on Ray: the
generic driver of retrograde analysis (:mod:`gamesearch.search.retrograde` gives the order).

A game's database offers the :class:`SliceTables` members: its slices up to a size, each
slice's dependencies, whether a slice is built, and the building of one slice (its kernel,
which writes the slice's files atomically). This driver:

* skips the slices already built (**resume**: an interrupted build starts again where it
  stopped; a slice being written when it stopped is built again, since its files only take
  their names once whole);
* runs the slices whose dependencies are built, up to ``workers`` at once: ``workers=1``
  in this process, else a process pool (``backend="local"``) or Ray tasks
  (``backend="ray"``, the arena's ``--ray-address``; :func:`~.runner.connect_ray`). Each
  worker keeps the database object it was first given (:func:`_build_one`), so a slice is
  read from disk once per worker, not once per slice that needs it;
* reports progress (slices done, positions, positions/s, time left) to a callback after
  each slice.

Every slice is a pure function of its dependencies' files, so the files are the same byte
for byte whatever the backend and the number of workers.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..search.retrograde import dependency_order, ready_slices
from .errors import ArenaError
from .runner import connect_ray


@runtime_checkable
class SliceTables(Protocol):
    """What a game's endgame database offers the driver."""

    game: str

    def slices(self, pieces: int) -> list[Any]: ...

    def dependencies(self, key: Any) -> list[Any]: ...

    def positions(self, key: Any) -> int: ...

    def is_built(self, key: Any) -> bool: ...

    def build_slice(self, key: Any) -> dict[str, Any]: ...

    def mark_complete(self, pieces: int) -> None: ...


@dataclass
class BuildProgress:
    """Where a build stands (passed to the progress callback after each slice)."""

    slices_total: int
    positions_total: int
    slices_done: int = 0
    positions_done: int = 0
    skipped: int = 0  # slices found built (resumed)
    started: float = field(default_factory=time.perf_counter)
    reports: list[dict[str, Any]] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def rate(self) -> float:
        """Positions a second built by this run."""
        built = self.positions_done - self.skipped_positions
        return built / self.seconds if self.seconds > 0 else 0.0

    skipped_positions: int = 0

    @property
    def seconds_left(self) -> float | None:
        rate = self.rate
        if rate <= 0:
            return None
        return (self.positions_total - self.positions_done) / rate


_WORKER_TABLES: dict[bytes, Any] = {}


def _build_one(tables: Any, key: Any) -> dict[str, Any]:
    """Build one slice in a worker, with the worker's own copy of ``tables`` (kept between
    slices so that what it has read stays in memory)."""
    token = pickle.dumps(tables)
    mine = _WORKER_TABLES.setdefault(token, tables)
    return dict(mine.build_slice(key))


def build_tables(tables: SliceTables, pieces: int, *, workers: int = 1,
                 backend: str = "local", ray_address: str | None = None,
                 progress: Callable[[BuildProgress], None] | None = None) -> BuildProgress:
    """Build every slice of ``tables`` up to ``pieces`` that is not built yet, in dependency
    order, then mark the database complete up to ``pieces``."""
    if workers < 1:
        raise ArenaError(f"--workers {workers}: expected 1 or more")
    if backend not in ("local", "ray"):
        raise ArenaError(f"--backend {backend}: expected local or ray")
    plan = tables.slices(pieces)
    depends = {k: tables.dependencies(k) for k in plan}
    order = dependency_order(plan, depends)
    sizes = {k: tables.positions(k) for k in order}
    state = BuildProgress(len(order), sum(sizes.values()))
    done: set[Hashable] = set()
    for k in order:
        if tables.is_built(k):
            done.add(k)
            state.slices_done += 1
            state.positions_done += sizes[k]
    state.skipped, state.skipped_positions = state.slices_done, state.positions_done
    todo = [k for k in order if k not in done]

    def finished(report: dict[str, Any]) -> None:
        state.slices_done += 1
        state.positions_done += int(report.get("positions", 0))
        state.reports.append(report)
        if progress is not None:
            progress(state)

    if progress is not None:
        progress(state)
    if backend == "ray":
        _run_ray(tables, todo, done, depends, workers, ray_address, finished)
    elif workers == 1:
        for k in todo:
            finished(tables.build_slice(k))
            done.add(k)
    else:
        _run_pool(tables, todo, done, depends, workers, finished)
    tables.mark_complete(pieces)
    return state


def _run_pool(tables: SliceTables, todo: Sequence[Any], done: set[Any],
              depends: dict[Any, list[Any]], workers: int,
              finished: Callable[[dict[str, Any]], None]) -> None:
    running: dict[Future[dict[str, Any]], Any] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        try:
            while len(done) < len(done | set(todo)):
                for k in ready_slices(todo, done, set(running.values()), depends):
                    if len(running) >= workers:
                        break
                    running[pool.submit(_build_one, tables, k)] = k
                if not running:
                    raise ArenaError("the slices' dependencies cannot be met")
                finished_now, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished_now:
                    k = running.pop(future)
                    finished(future.result())
                    done.add(k)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _run_ray(tables: SliceTables, todo: Sequence[Any], done: set[Any],
             depends: dict[Any, list[Any]], workers: int, address: str | None,
             finished: Callable[[dict[str, Any]], None]) -> None:
    ray = connect_ray(address)
    remote = ray.remote(num_cpus=1, max_retries=0)(_build_one)
    running: dict[Any, Any] = {}
    try:
        while len(done) < len(done | set(todo)):
            for k in ready_slices(todo, done, set(running.values()), depends):
                if len(running) >= workers:
                    break
                running[remote.remote(tables, k)] = k
            if not running:
                raise ArenaError("the slices' dependencies cannot be met")
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                k = running.pop(ref)
                finished(ray.get(ref))
                done.add(k)
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise


def verify_tables(tables: Any, pieces: int,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Check every built slice up to ``pieces`` against its successors (the game's
    ``verify_slice(key) -> (positions, wrong)``); a report with the wrong slices."""
    plan = tables.slices(pieces)
    checked = wrong = 0
    bad: list[str] = []
    for i, key in enumerate(plan, 1):
        n, errors = tables.verify_slice(key)
        checked += n
        wrong += errors
        if errors:
            bad.append(str(key))
        if progress is not None:
            progress(i, len(plan))
    return {"slices": len(plan), "positions": checked, "wrong": wrong, "bad_slices": bad}
