"""Load on the web app, against 127.0.0.1 only: waves of concurrent analyse requests.

Starts ``gamesearch web`` on a free loopback port, sends each wave of N concurrent
``GET /api/analyze`` requests with a small time cap, and prints one table row per wave:
answers (200 / 429 / other), latency, the longest search's own ``seconds`` against its cap,
and the server's resident memory (RSS) after the wave. Bounded: a fixed number of waves,
each request with a timeout.

    .venv/bin/python benchmarks/web_load.py [--concurrency 50 200 500] [--waves 3] [--time 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web_server import rss_mb, web_server

POSITIONS = ["", "4", "44", "4455", "435", "3344", "123", "7766", "4444443", "1234567"]


async def wave(base: str, n: int, seconds: float, rng: random.Random) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        async def one() -> tuple[int, float, float | None]:
            params = {"game": "connect4", "algorithm": "alphabeta", "time": str(seconds),
                      "position": rng.choice(POSITIONS)}
            t0 = time.perf_counter()
            r = await client.get("/api/analyze", params=params)
            took = time.perf_counter() - t0
            searched = r.json().get("seconds") if r.status_code == 200 else None
            return r.status_code, took, searched

        t0 = time.perf_counter()
        results = await asyncio.gather(*(one() for _ in range(n)))
        wall = time.perf_counter() - t0
    codes = [c for c, _, _ in results]
    latencies = sorted(t for _, t, _ in results)
    searched = [s for _, _, s in results if s is not None]
    return {"requests": n, "ok": codes.count(200), "busy": codes.count(429),
            "other": sum(1 for c in codes if c not in (200, 429)), "wall": wall,
            "p50": statistics.median(latencies),
            "p95": latencies[int(0.95 * (len(latencies) - 1))],
            "max_search": max(searched, default=0.0)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--concurrency", type=int, nargs="+", default=[50, 200, 500])
    p.add_argument("--waves", type=int, default=3)
    p.add_argument("--time", type=float, default=0.05, help="seconds per search (cap)")
    args = p.parse_args()
    rng = random.Random(1)
    with web_server() as (base, proc):
        httpx.get(base + "/api/analyze", params={"game": "connect4", "time": "0.05"})
        print(f"server pid {proc.pid}, RSS at start {rss_mb(proc.pid):.1f} MB, "
              f"search cap {args.time} s each")
        print(f"{'conc':>5} {'wave':>4} {'200':>5} {'429':>5} {'other':>5} {'wall s':>7} "
              f"{'p50 s':>7} {'p95 s':>7} {'max search s':>12} {'RSS MB':>7}")
        other = 0
        for n in args.concurrency:
            for k in range(args.waves):
                w = asyncio.run(wave(base, n, args.time, rng))
                other += w["other"]
                print(f"{n:>5} {k + 1:>4} {w['ok']:>5} {w['busy']:>5} {w['other']:>5} "
                      f"{w['wall']:>7.2f} {w['p50']:>7.3f} {w['p95']:>7.3f} "
                      f"{w['max_search']:>12.3f} {rss_mb(proc.pid):>7.1f}")
        status = httpx.get(base + "/api/status").json()
        print(f"served {status['served']}, refused {status['refused']}, "
              f"errors other than 429: {other}")
    return 1 if other else 0


if __name__ == "__main__":
    sys.exit(main())
