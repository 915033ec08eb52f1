"""A streamed search whose client leaves before the stream starts gives its place in the
search gate back (else a few impatient clients would leave the server refusing every
search with 429 for good)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("fastapi")

from gamesearch.interfaces.web import create_app

STREAMS = [("/api/think", "game=tictactoe&moves=5&agent=minimax"),
           ("/api/equilibria/solve", "game=kuhn_poker&algorithm=cfr%2B&iterations=10")]


@pytest.mark.parametrize(("path", "query"), STREAMS)
def test_a_client_gone_before_the_first_byte_leaks_no_place(path: str, query: str,
                                                            tmp_path: Any) -> None:
    app = create_app(guide=tmp_path / "no-site", active=1, queue=0)
    gate = app.state.gate

    async def one_request() -> None:
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
                 "http_version": "1.1", "method": "GET", "scheme": "http", "path": path,
                 "raw_path": path.encode(), "query_string": query.encode(),
                 "root_path": "", "headers": [(b"host", b"testserver")],
                 "client": ("127.0.0.1", 1), "server": ("testserver", 80)}

        async def receive() -> dict[str, Any]:
            return {"type": "http.disconnect"}  # the client is already gone

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                await asyncio.sleep(0.05)  # (the disconnect is seen meanwhile)

        await app(scope, receive, send)

    for _ in range(3):  # one place in all: a leaked one would refuse the next request
        asyncio.run(one_request())
        assert gate.admitted == 0 and gate.running == 0
