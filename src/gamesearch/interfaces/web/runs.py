"""Tournaments started from the web page: one at a time, bounded, stoppable.

A person on the Tournaments page names a game, two to :attr:`RunCaps.agents` agents, the
games at each pair and the seconds per move; the server checks them with the same parsers
and caps as every other request (:mod:`.validation`), then runs ``gamesearch tournament``
(the arena's own runner and store, :mod:`gamesearch.arena`) as a child process writing a
new results file in a folder of its own. The event loop never waits on it: the process
runs beside the server, the page watches the file with the live view every stored
tournament has (``/api/tournaments/{file}/{id}/live``), and *stop* ends the process (the
games stored so far stay; the arena's lease lets the same command resume it).

Only one runs at a time (a second start is refused with 409 while one runs), and by
default only a request from the machine itself (loopback) may start or stop one: a server
bound to another address would otherwise let anyone spend its CPU (``create_app(runs=)``:
``"loopback"``, ``"anyone"`` or ``"nobody"``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...arena.errors import ArenaError
from ...arena.schedule import TournamentConfig, parse_agents
from ...arena.timecontrol import TimeControl
from ...errors import GameError
from . import validation
from .serve import is_loopback
from .validation import Caps, WebInputError

#: who may start and stop a tournament from the web
POLICIES = ("loopback", "anyone", "nobody")


@dataclass(frozen=True)
class RunCaps:
    """What a tournament started from the web may ask for (beside :class:`Caps`: an
    agent's own time and nodes within ``Caps.time`` and ``Caps.nodes``)."""

    #: agents in one tournament
    agents: int = 6
    #: games at each pair (table)
    games_per_pair: int = 20
    #: games in the whole tournament
    games: int = 200
    #: seconds per move (the time control is a few moves' worth plus this per move)
    move_time: float = 2.0


@dataclass
class Run:
    """The tournament the server runs (or ran last)."""

    file: str
    path: Path
    command: list[str]
    process: subprocess.Popen[bytes]
    log: Path
    started: float
    stopped: bool = False

    def running(self) -> bool:
        return self.process.poll() is None


class Runs:
    """The one tournament a server runs from the web at a time."""

    def __init__(self, policy: str = "loopback", caps: RunCaps | None = None,
                 folder: Path | None = None) -> None:
        if policy not in POLICIES:
            raise ValueError(f"runs {policy!r}; allowed: {', '.join(POLICIES)}")
        self.policy = policy
        self.caps = caps or RunCaps()
        self._folder = folder
        self.current: Run | None = None
        self._lock = threading.Lock()
        self._count = 0

    @property
    def folder(self) -> Path:
        """Where the results files of these runs go (made on the first start)."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="gamesearch-web-runs-"))
        return self._folder

    def files(self) -> dict[str, Path]:
        """Name -> path of every results file these runs wrote (what the Library lists)."""
        if self._folder is None or not self._folder.is_dir():
            return {}
        return {p.name: p for p in sorted(self._folder.glob("*.sqlite"))}

    def allowed(self, host: str | None) -> None:
        """Refuse a start or a stop from ``host`` unless the policy allows it (403)."""
        if self.policy == "anyone":
            return
        if self.policy == "nobody":
            raise WebInputError("this server does not run tournaments from the web "
                                "(use `gamesearch tournament`)", status=403)
        if host is None or not is_loopback(host):
            raise WebInputError("tournaments are started and stopped from this machine only "
                                "(a request from the loopback address)", status=403)

    def check(self, game: str | None, agents: list[str], games_per_pair: int | None,
              move_time: float | None, caps: Caps) -> TournamentConfig:
        """The tournament's configuration, every input read by the server's parsers and
        held to its caps; a bad one is a 400 saying what is wrong."""
        rc = self.caps
        g = validation.game(game, caps)
        texts = [a.strip() for a in agents if a and a.strip()]
        if not 2 <= len(texts) <= rc.agents:
            raise WebInputError(f"agents: {len(texts)} given; a tournament here takes 2 to "
                                f"{rc.agents}")
        for k, text in enumerate(texts):
            validation.text(f"agent {k + 1}", text, caps)
        try:
            entries = tuple(parse_agents(texts))
        except (ArenaError, GameError) as exc:
            raise WebInputError(str(exc)) from None
        for k, entry in enumerate(entries):
            if entry.spec.partition(":")[0].strip().lower() == "human":
                raise WebInputError("agent 'human': a tournament is played by engines")
            validation.spec(f"agent {k + 1}", entry.spec, caps)
        per_pair = games_per_pair if games_per_pair is not None else 2
        if not 1 <= per_pair <= rc.games_per_pair:
            raise WebInputError(f"games per pair {per_pair}: 1 to {rc.games_per_pair} here")
        seconds = move_time if move_time is not None else 0.5
        if not 0 < seconds <= min(rc.move_time, caps.time):
            raise WebInputError(f"seconds per move {seconds:g}: above 0 and at most "
                                f"{min(rc.move_time, caps.time):g} here")
        try:
            config = TournamentConfig(g.spec, entries,
                                      games_per_pair=per_pair,
                                      time_control=TimeControl(5 * seconds, seconds))
            total = config.total
        except (ArenaError, GameError) as exc:
            raise WebInputError(str(exc)) from None
        if total > rc.games:
            raise WebInputError(f"{total} games: at most {rc.games} in a tournament here "
                                "(fewer agents or games per pair)")
        for entry in config.agents:  # every agent builds for the game (then is closed)
            try:
                validation.agent(g, entry.spec, seconds, None, caps).close()
            except GameError as exc:
                raise WebInputError(f"agent {entry.spec!r}: {exc}") from None
        return config

    def start(self, config: TournamentConfig) -> Run:
        """Start ``config`` as a child process (``gamesearch tournament``): refused (409)
        while another runs. Returns at once."""
        with self._lock:
            if self.current is not None and self.current.running():
                raise WebInputError(f"a tournament is running ({self.current.file}): stop it "
                                    "or wait for its end; one runs at a time", status=409)
            self._count += 1
            name = f"web-{time.strftime('%Y%m%d-%H%M%S')}-{self._count}.sqlite"
            path = self.folder / name
            tc = config.time_control
            command = [sys.executable, "-m", "gamesearch", "tournament", config.game,
                       "--agents", *[a.spec if a.name == a.spec else f"{a.name}={a.spec}"
                                     for a in config.agents],
                       "--games-per-pair", str(config.games_per_pair),
                       "--time-control", f"{tc.base:g}+{tc.increment:g}",
                       "--db", str(path), "--quiet"]
            log = path.with_suffix(".log")
            with log.open("wb") as out:
                process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                           stdin=subprocess.DEVNULL, start_new_session=True)
            self.current = Run(name, path, command, process, log, time.time())
            return self.current

    def stop(self) -> Run:
        """Stop the running tournament (its process group: the arena's workers too)."""
        with self._lock:
            run = self.current
            if run is None or not run.running():
                raise WebInputError("no tournament is running", status=409)
            run.stopped = True
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                os.killpg(run.process.pid, signal.SIGTERM)
        try:
            run.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck worker
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.wait(timeout=10)
        return run

    def status(self) -> dict[str, Any]:
        """The current (or last) run: its file, whether it runs, how it ended."""
        run = self.current
        out: dict[str, Any] = {"policy": self.policy, "caps": {
            "agents": self.caps.agents, "games_per_pair": self.caps.games_per_pair,
            "games": self.caps.games, "move_time": self.caps.move_time}, "run": None}
        if run is None:
            return out
        code = run.process.poll()
        tail = ""
        if code is not None:
            try:
                tail = run.log.read_text(errors="replace")[-600:]
            except OSError:
                tail = ""
        out["run"] = {"file": run.file, "id": 1, "running": code is None,
                      "stopped": run.stopped, "returncode": code,
                      "seconds": round(time.time() - run.started, 1),
                      "output": tail if code not in (None, 0) and not run.stopped else ""}
        return out

    def close(self) -> None:
        """Stop a run still going when the server ends."""
        run = self.current
        if run is not None and run.running():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.process.pid, signal.SIGTERM)
