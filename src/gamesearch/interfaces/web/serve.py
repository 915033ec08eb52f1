"""``gamesearch web``: serve the app with uvicorn (loopback unless told otherwise)."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path
from typing import TextIO

from ...errors import GameError


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(host: str, port: int, db: str | None, out: TextIO) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise GameError(f"the web app needs the [web] extra: pip install 'gamesearch[web]' "
                        f"({exc.name} is missing)") from None
    if db is not None and not Path(db).exists():
        raise GameError(f"--db {db!r}: no such file or folder")
    if not is_loopback(host):
        sys.stderr.write(f"gamesearch: warning: binding {host}, not a loopback address: "
                         "anyone who can reach this machine can use the app and its CPU\n")
    app = create_app(db)
    shown = f"[{host}]" if ":" in host else host
    out.write(f"gamesearch web app: http://{shown}:{port}/  (API docs: /docs; Ctrl-C stops)\n")
    out.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
