"""A bounded load test against 127.0.0.1: concurrent analyse requests with a small time
cap. Only 200 and the documented 429 come back, every search ends within its cap, and the
server's memory stays flat. (The fuller version: ``benchmarks/web_load.py``.)"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from web_load import wave  # noqa: E402
from web_server import rss_mb, web_server  # noqa: E402

CAP = 0.05
SLACK = 0.1  # a clock check every 64 nodes, and the GIL shared with the event loop under load


def test_200_concurrent_analyses_stay_bounded() -> None:
    rng = random.Random(7)
    with web_server() as (base, proc):
        asyncio.run(wave(base, 20, CAP, rng))  # warm up (imports, first tables)
        rss = [rss_mb(proc.pid)]
        waves = []
        for _ in range(3):
            w = asyncio.run(wave(base, 200, CAP, rng))
            waves.append(w)
            rss.append(rss_mb(proc.pid))
        status = httpx.get(base + "/api/status").json()
    for w in waves:
        assert w["other"] == 0, w
        assert w["ok"] >= 10 and w["ok"] + w["busy"] == 200
        assert w["max_search"] <= CAP + SLACK, w
    assert status["running"] == 0 and status["waiting"] == 0
    assert rss[-1] - rss[1] < 25, rss  # flat after the first wave
    assert rss[-1] - rss[0] < 60, rss


def test_a_client_that_leaves_stops_its_search() -> None:
    """The search of an engine move ends soon after its client closes the stream, not at
    its 10 s cap: the slot is free again for others."""
    import time

    with web_server() as (base, _proc), httpx.Client(base_url=base, timeout=30) as client:
        params = {"game": "chess", "agent": "id", "time": "10"}
        with client.stream("GET", "/api/think", params=params) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if line.startswith("event: info"):
                    break  # the search is running: leave
        start = time.perf_counter()
        while client.get("/api/status").json()["running"] and time.perf_counter() - start < 8:
            time.sleep(0.05)
        assert client.get("/api/status").json()["running"] == 0
        assert time.perf_counter() - start < 3
