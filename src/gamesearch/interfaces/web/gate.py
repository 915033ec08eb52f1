"""A bounded number of searches at once: the rest wait in a short queue or get HTTP 429.

Searches are CPU-bound Python; running more of them at once than the machine has cores
only makes each slower. :class:`SearchGate` lets ``active`` searches run, keeps up to
``queue`` more waiting their turn, and refuses the next one at once (the caller answers
429 with ``Retry-After``), so memory and latency stay bounded under any load.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio.to_thread
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

T = TypeVar("T")


class Busy(Exception):
    """Every search slot and every queue place is taken."""


class SearchGate:
    def __init__(self, active: int = 2, queue: int = 8) -> None:
        if active < 1 or queue < 0:
            raise ValueError("SearchGate: active >= 1 and queue >= 0")
        self.active = active
        self.queue = queue
        self._admitted = 0
        self._running = 0
        self._semaphore: asyncio.Semaphore | None = None
        #: counters for /api/status and the load test
        self.served = 0
        self.refused = 0

    @property
    def admitted(self) -> int:
        return self._admitted

    @property
    def running(self) -> int:
        return self._running

    def reserve(self) -> None:
        """Take a place (running or queued) now, or raise :class:`Busy`."""
        if self._admitted >= self.active + self.queue:
            self.refused += 1
            raise Busy(f"the server is busy: {self._running} searches running and "
                       f"{self._admitted - self._running} waiting; try again shortly")
        self._admitted += 1

    def release_reservation(self) -> None:
        self._admitted -= 1

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Wait for a search slot (after :meth:`reserve`); give both back at the end."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.active)
        try:
            async with self._semaphore:
                self._running += 1
                try:
                    yield
                finally:
                    self._running -= 1
                    self.served += 1
        finally:
            self._admitted -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Reserve, wait for a slot, run ``fn(*args)`` in a worker thread."""
        self.reserve()
        async with self.turn():
            return await anyio.to_thread.run_sync(fn, *args)


class GatedStream(StreamingResponse):
    """A streamed answer holding a place of ``gate`` (taken by :meth:`SearchGate.reserve`):
    its ``body`` gives the place back as it runs (``gate.turn()``). A client that leaves
    before the body starts (Starlette then never iterates it, so the body's own ``finally``
    never runs) would keep the place for good, and a few such clients would leave the
    server refusing every search; the response gives it back itself in that case."""

    def __init__(self, gate: SearchGate, body: AsyncGenerator[str, None], **kwargs: Any
                 ) -> None:
        self._gate = gate
        self._started = False

        async def tracked() -> AsyncIterator[str]:
            self._started = True
            try:
                async for chunk in body:
                    yield chunk
            finally:
                await body.aclose()

        super().__init__(tracked(), **kwargs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if not self._started:
                self._gate.release_reservation()
