"""The Go Text Protocol's client side (GTP version 2: Farnebäck's specification,
https://www.lysator.liu.se/~gunnar/gtp/): :class:`GTPClient` runs an engine process and
sends it one command at a time, each with a deadline. The arena's ``gtp:`` agents
(:mod:`gamesearch.arena.gtp_client`) and the referee checks (:mod:`.referees`) use it."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading

from ...errors import GameError, echo

#: Seconds an engine has to answer a command that does not search.
COMMAND_SECONDS = 30.0
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
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line)
        self._lines.put(None)

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
        answer: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise GTPError(f"gtp engine {echo(self.argv[0])} did not answer "
                               f"{echo(command)} within {timeout:g} s") from None
            if line is None:
                raise GTPError(f"gtp engine {echo(self.argv[0])} ended while answering "
                               f"{echo(command)}")
            line = line.rstrip("\r\n")
            if not answer and not line.strip():
                continue
            if not line.strip():
                break
            answer.append(line)
        head = answer[0]
        text = "\n".join([head[1:].strip(), *answer[1:]]).strip()
        if head.startswith("?"):
            raise GTPError(f"gtp engine {echo(self.argv[0])} refused {echo(command)}: "
                           f"{text}")
        if not head.startswith("="):
            raise GTPError(f"gtp engine {echo(self.argv[0])}: not a GTP answer: {echo(head)}")
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
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[union-attr]


def gnugo_argv(path: str, level: int | None = None) -> list[str]:
    """GNU Go's command line under the rules of :mod:`gamesearch.games.go`."""
    argv = [path, *GNUGO_FLAGS]
    if level is not None:
        argv += ["--level", str(level)]
    return argv
