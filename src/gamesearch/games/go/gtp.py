"""The Go Text Protocol's client side (GTP version 2: Farnebäck's specification,
https://www.lysator.liu.se/~gunnar/gtp/): :class:`GTPClient` runs an engine process and
sends it one command at a time, each with a deadline. The arena's ``gtp:`` agents
(:mod:`gamesearch.arena.gtp_client`), the pattern training (:mod:`.train`) and the referee
checks (``referees/go.py`` at the repository's root, outside the package) use it.

Every wait is bounded, whatever the program at the other end does: the deadline holds for
the whole answer (an engine that trickles lines does not reset it); an answer's first line
must begin with ``=`` or ``?``, so a program that is not a GTP engine (``/bin/cat`` echoes
the command) is an error at once, not a wait for the blank line that ends an answer; and
lines, answers and the lines read ahead are capped (:data:`MAX_LINE_CHARS`,
:data:`MAX_ANSWER_CHARS`, :data:`READ_AHEAD_LINES`), so an engine that writes without end
fills no memory.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time

from ...errors import GameError, echo

#: Seconds an engine has to answer a command that does not search.
COMMAND_SECONDS = 30.0
#: The longest line read from an engine (a longer one is an error: no answer needs it).
MAX_LINE_CHARS = 1 << 16
#: The longest answer read (``showboard`` of 19x19 is about 1,000 characters).
MAX_ANSWER_CHARS = 1 << 20
#: Lines the reader holds before the client asks for them (then the engine waits).
READ_AHEAD_LINES = 256
GNUGO_FLAGS = ("--mode", "gtp", "--chinese-rules", "--positional-superko",
               "--capture-all-dead")


class GTPError(GameError):
    """A GTP engine that failed: it did not start, answered ``?``, or timed out."""


class GTPClient:
    """A GTP engine process: :meth:`send` writes one command and returns the text of its
    ``=`` answer (raising :class:`GTPError` for a ``?`` answer, a dead engine or a
    deadline passed; ``command_seconds`` is the deadline of a command given none).
    :meth:`close` ends it."""

    def __init__(self, argv: list[str], command_seconds: float = COMMAND_SECONDS) -> None:
        self.argv = argv
        self.command_seconds = command_seconds
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            raise GTPError(f"gtp engine {echo(argv[0])} did not start: {exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue(READ_AHEAD_LINES)
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """The engine's output, line by line (a line cut at :data:`MAX_LINE_CHARS`), into
        the bounded queue; ``None`` at its end."""
        stdout = self.proc.stdout
        assert stdout is not None
        try:
            while line := stdout.readline(MAX_LINE_CHARS):
                if not self._put(line):
                    return
        except (OSError, ValueError):  # closed under the reader
            pass
        self._put(None)

    def _put(self, item: str | None) -> bool:
        """Queue ``item``, waiting while the queue is full; False once the client is
        closed (nobody will read it)."""
        while not self._closed.is_set():
            try:
                self._lines.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def send(self, command: str, timeout: float | None = None) -> str:
        """One command; ``timeout`` seconds for its answer (the client's
        ``command_seconds`` when none is given)."""
        if timeout is None:
            timeout = self.command_seconds
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise GTPError(f"gtp engine {echo(self.argv[0])} is not running") from None
        engine = echo(self.argv[0])
        deadline = time.monotonic() + timeout
        answer: list[str] = []
        size = 0
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise GTPError(f"gtp engine {engine} did not answer {echo(command)} within "
                               f"{timeout:g} s") from None
            if line is None:
                raise GTPError(f"gtp engine {engine} ended while answering {echo(command)}")
            if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
                raise GTPError(f"gtp engine {engine}: a line of its answer to {echo(command)} "
                               f"is longer than {MAX_LINE_CHARS} characters")
            line = line.rstrip("\r\n")
            if not answer and not line.strip():
                continue
            if not line.strip():
                break
            if not answer and line[:1] not in ("=", "?"):
                raise GTPError(f"gtp engine {engine}: not a GTP answer to {echo(command)}: "
                               f"{echo(line)} (an answer begins with = or ?)")
            size += len(line)
            if size > MAX_ANSWER_CHARS:
                raise GTPError(f"gtp engine {engine}: its answer to {echo(command)} is "
                               f"longer than {MAX_ANSWER_CHARS} characters")
            answer.append(line)
        head = answer[0]
        text = "\n".join([head[1:].strip(), *answer[1:]]).strip()
        if head.startswith("?"):
            raise GTPError(f"gtp engine {engine} refused {echo(command)}: {echo(text)}")
        return text

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(GTPError):
                self.send("quit", timeout=2.0)
            try:
                self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._closed.set()  # (a reader waiting on a full queue gives up)
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[union-attr]


def gnugo_argv(path: str, level: int | None = None) -> list[str]:
    """GNU Go's command line under the rules of :mod:`gamesearch.games.go`."""
    argv = [path, *GNUGO_FLAGS]
    if level is not None:
        argv += ["--level", str(level)]
    return argv
