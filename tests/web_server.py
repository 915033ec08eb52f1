"""A real ``gamesearch web`` server on 127.0.0.1 and a free port, for the browser and load
tests (imported by them; started once per test module)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.request import urlopen

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def skip_without_browser() -> None:
    """Skip the calling browser-test module, loudly, when Debian's Chromium is missing (``make
    test`` installs it)."""
    import pytest

    if not os.path.exists(CHROMIUM):  # pragma: no cover - make test installs it
        pytest.skip(f"SKIPPED LOUDLY: no browser at {CHROMIUM}; install Debian's chromium "
                    "(apt-get install chromium, as `make test` does) to run the browser tests",
                    allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def web_server(db: Path | None = None, env: dict[str, str] | None = None
               ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    argv = [sys.executable, "-m", "gamesearch", "web", "--host", "127.0.0.1",
            "--port", str(port)]
    if db is not None:
        argv += ["--db", str(db)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError("the web server died: "
                                   + (proc.stderr.read().decode() if proc.stderr else ""))
            try:
                with urlopen(base + "/api/status", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the web server did not start in 30 s")
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")
