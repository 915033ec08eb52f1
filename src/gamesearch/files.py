"""Reading the files a person names (positions, EPD suites, openings, books, journals) in one
guarded place.

* A size cap: a file larger than the cap is refused before it is read (``too large``), and a
  device or pipe that never ends (``/dev/zero``, ``yes |``) is cut off at the cap.
* Text must be UTF-8 without NUL bytes, else ``not a text file`` (with the offset of the
  first bad byte) instead of a ``UnicodeDecodeError`` deep inside a parser.
* A named FIFO or device that sends nothing for :data:`IDLE_SECONDS` is given up (a FIFO
  with no writer would otherwise block the open, or the first read, for ever).
* ``-`` is standard input (size cap only: the person at the other end decides the pace).

Every failure is a :class:`InputFileError` (a :class:`~gamesearch.errors.GameError`): one line
naming the file and what is wrong with it.

The folders a command writes into are checked before the work that fills them
(:func:`prepare_folder`): a path that is a file, under a missing folder, read-only, under
``/proc`` or too long is a one-line :class:`OutputFolderError` at the start, not a traceback
once an hour of building or a whole match is done.
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import GameError, echo

#: The largest text input (positions, EPD, openings, journals) read, in bytes.
MAX_TEXT_BYTES = 16 << 20
#: The largest binary input (opening books) read, in bytes.
MAX_BINARY_BYTES = 64 << 20
#: Seconds a named FIFO or device may stay silent before it is given up.
IDLE_SECONDS = 30.0
_CHUNK = 1 << 16


class InputFileError(GameError, ValueError):
    """A file that cannot be read, is too large, or is not text."""


def _mib(n: int) -> str:
    return f"{n / (1 << 20):g} MiB"


def _open(path: str, what: str) -> tuple[int, bool, float | None]:
    """(descriptor, whether to close it, idle timeout or None)."""
    if path == "-":
        try:
            return sys.stdin.fileno(), False, None
        except (AttributeError, OSError, ValueError):
            return -1, False, None  # a stream without a descriptor (tests): read it directly
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (reads then wait in select)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(f"cannot read {what} {echo(path)}: "
                             f"{exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(f"cannot read {what} {echo(path)}: it is a directory")
        if stat.S_ISREG(info.st_mode):
            return fd, True, None
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # select() says when a read will not wait
        return fd, True, IDLE_SECONDS
    except BaseException:
        os.close(fd)
        raise


def iter_chunks(path: str, what: str, limit: int) -> Iterator[bytes]:
    """The bytes of ``path`` (``-``: standard input) as they arrive, at most ``limit``."""
    fd, close, idle = _open(path, what)
    total = 0
    try:
        if fd >= 0 and close:
            size = os.fstat(fd).st_size
            if size > limit:
                raise InputFileError(f"{what} {echo(path)} is too large ({_mib(size)}; at "
                                     f"most {_mib(limit)})")
        while True:
            if fd < 0:
                stream = getattr(sys.stdin, "buffer", None)
                raw = stream.read(_CHUNK) if stream is not None else sys.stdin.read(_CHUNK)
                chunk = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
            else:
                if idle is not None:
                    deadline = time.monotonic() + idle
                    ready: list[int] = []
                    while not ready:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise InputFileError(f"{what} {echo(path)}: nothing to read for "
                                                 f"{idle:g} s (a FIFO with no writer?)")
                        ready = select.select([fd], [], [], left)[0]
                try:
                    chunk = os.read(fd, _CHUNK)
                except OSError as exc:
                    raise InputFileError(f"cannot read {what} {echo(path)}: "
                                         f"{exc.strerror or exc}") from None
            if not chunk:
                return
            total += len(chunk)
            if total > limit:
                raise InputFileError(f"{what} {echo(path)} is too large (more than "
                                     f"{_mib(limit)})")
            yield chunk
    finally:
        if close:
            with contextlib.suppress(OSError):
                os.close(fd)


def read_bytes(path: str, what: str, limit: int = MAX_BINARY_BYTES) -> bytes:
    """All of ``path`` (``-``: standard input), at most ``limit`` bytes."""
    return b"".join(iter_chunks(path, what, limit))


def _not_text(path: str, what: str, data: bytes, index: int, offset: int) -> InputFileError:
    return InputFileError(f"{what} {echo(path)} is not a text file (byte 0x{data[index]:02x} "
                          f"at offset {offset + index} is not UTF-8 text)")


def iter_lines(path: str, what: str, limit: int = MAX_TEXT_BYTES) -> Iterator[tuple[int, str]]:
    """``(number, line)`` of a UTF-8 text file (``-``: standard input) as the lines arrive,
    numbered from 1, without their line ends; a byte-order mark is skipped."""
    parts: list[bytes] = []
    offset = line_offset = number = 0  # of the chunk, of the line being gathered

    def line() -> tuple[int, str]:
        raw = b"".join(parts)
        parts.clear()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_text(path, what, raw, exc.start, line_offset) from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        return number, text.removesuffix("\r")

    for chunk in iter_chunks(path, what, limit):
        nul = chunk.find(b"\0")
        if nul >= 0:  # binary: say so before it is gathered into one enormous "line"
            raise _not_text(path, what, chunk, nul, offset)
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            parts.append(chunk[start:end])
            number += 1
            yield line()
            start = end + 1
            line_offset = offset + start
        parts.append(chunk[start:])
        offset += len(chunk)
    if any(parts):
        number += 1
        yield line()


def read_text(path: str, what: str, limit: int = MAX_TEXT_BYTES) -> str:
    """All of a UTF-8 text file (``-``: standard input), lines joined by ``\\n``."""
    return "\n".join(line for _, line in iter_lines(path, what, limit))


class OutputFolderError(GameError, ValueError):
    """A folder that cannot be made or written into."""


def _reason(exc: OSError | ValueError) -> str:
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or \
        type(exc).__name__


def prepare_folder(path: str | Path, what: str, *, parents: bool = True) -> Path:
    """The folder ``path``, made if missing and checked to take a new file (one is written
    and removed), before any work is done for it. With ``parents`` its missing parents are
    made too; without, the folder it is in must exist (a mistyped parent is an error naming
    it, not a tree made silently). :class:`OutputFolderError` names the folder and the fault.
    """
    folder = Path(path)
    try:
        if not folder.is_dir():
            if folder.exists():
                raise OutputFolderError(f"{what} {echo(str(folder))} is not a folder")
            parent = folder.parent
            if not parents and not parent.is_dir():
                raise OutputFolderError(f"{what} {echo(str(folder))}: the folder "
                                        f"{echo(str(parent))} does not exist")
            folder.mkdir(parents=parents, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OutputFolderError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise OutputFolderError(f"{what} {echo(str(folder))}: cannot write there: "
                                f"{_reason(exc)}") from None
    return folder
