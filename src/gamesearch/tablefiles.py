"""The file format of precomputed tables (endgame databases): a checked header, then the
payload, memory-mapped for probing.

Layout: the 8-byte magic ``GSTABLE1``, a 4-byte little-endian header length, the header as
UTF-8 JSON (``game``, ``slice``, ``kind``, ``index_version``, ``entries``, ``dtype``,
``payload_bytes``, ``crc32``), padded with spaces to :data:`HEADER_BYTES` so that the payload
starts page-aligned. ``crc32`` is zlib's CRC-32 of the payload.

:func:`write_table` writes a temporary file beside the target, syncs it and renames it into
place, so that an interrupted writer never leaves a file a reader would take for whole.
:func:`open_table` checks everything the caller expects (game, slice, kind, index version),
the size and the checksum, and raises :class:`TableFileError` (one line naming the file and
the fault) on any mismatch, as the arena checks its SQLite files.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from .errors import GameError, echo

MAGIC = b"GSTABLE1"
HEADER_BYTES = 4096


class TableFileError(GameError, ValueError):
    """A table file that is missing, damaged, partial or from another version."""


def write_table(path: str | Path, header: dict[str, Any], payload: np.ndarray) -> None:
    """Write ``payload`` (any numpy array, stored as its raw bytes) under ``header`` (the
    caller's identity fields) to ``path``, atomically."""
    data = np.ascontiguousarray(payload)
    raw = data.tobytes()
    full = {**header, "dtype": data.dtype.str, "entries": int(data.size),
            "payload_bytes": len(raw), "crc32": zlib.crc32(raw)}
    text = json.dumps(full, sort_keys=True).encode()
    if len(text) + 12 > HEADER_BYTES:
        raise TableFileError(f"{echo(str(path))}: header too long")
    head = MAGIC + len(text).to_bytes(4, "little") + text
    head += b" " * (HEADER_BYTES - len(head))
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as f:
        f.write(head)
        f.write(raw)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_header(path: str | Path) -> dict[str, Any]:
    """The header of a table file (no checksum check)."""
    name = echo(str(path))
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
    except FileNotFoundError:
        raise TableFileError(f"{name}: missing") from None
    except OSError as exc:
        raise TableFileError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if len(head) < 12 or head[:8] != MAGIC:
        raise TableFileError(f"{name}: not a gamesearch table file (bad magic)")
    length = int.from_bytes(head[8:12], "little")
    try:
        header = json.loads(head[12:12 + length])
    except ValueError:
        raise TableFileError(f"{name}: damaged header") from None
    if not isinstance(header, dict):
        raise TableFileError(f"{name}: damaged header")
    return header


def open_table(path: str | Path, expect: dict[str, Any], *, check: bool = True) -> np.ndarray:
    """The payload of a table file, memory-mapped read-only, after checking that its header
    holds ``expect``'s values, that its size is whole and (``check``) its checksum."""
    name = echo(str(path))
    header = read_header(path)
    for field, value in expect.items():
        if header.get(field) != value:
            raise TableFileError(f"{name}: {field} is {header.get(field)!r}, expected "
                                 f"{value!r} (another version or another table: rebuild)")
    size = os.path.getsize(path)
    if size != HEADER_BYTES + header.get("payload_bytes", -1):
        raise TableFileError(f"{name}: {size} bytes, expected "
                             f"{HEADER_BYTES + header.get('payload_bytes', 0)} (partial)")
    dtype = np.dtype(header["dtype"])
    if header["payload_bytes"] == 0:
        return np.zeros(0, dtype=dtype)
    data: np.ndarray = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_BYTES,
                                 shape=(header["entries"],))
    if check and zlib.crc32(data.view(np.uint8).data) != header["crc32"]:
        raise TableFileError(f"{name}: checksum mismatch (damaged)")
    return data
