"""External Go engines that speak GTP (the Go Text Protocol, version 2: Farnebäck's
specification, https://www.lysator.liu.se/~gunnar/gtp/), as arena agents.

Spec: ``gtp:PATH[,level=N][,args=ARGS]``, for example ``gtp:/usr/games/gnugo,level=10``
(Debian puts GNU Go in its games folder, off the usual ``PATH``). GNU Go (a ``PATH`` whose
name contains ``gnugo``) is started with ``--mode gtp --chinese-rules --positional-superko
--capture-all-dead`` and the ``level`` as ``--level N``: the rules of :mod:`gamesearch.
games.go`; another engine gets ``ARGS`` (words split at spaces) and nothing else.

The agent keeps the engine's board in step with the game: at each move it finds the
opponent's move that leads from the position the engine has to the one it is asked about,
and sends it with ``play``; when the position is not one move on (another game, a position
given as text), it starts again with ``boardsize``, ``clear_board``, ``komi`` and the
stones placed by ``play`` (GTP lets a colour play twice; the engine then does not know the
game's history for superko). A ``resign`` answer ends the game: the agent raises
:class:`~.errors.ArenaError`, and the arena scores it as a loss for the engine (a forfeit).

Time: the arena's clock judges the engine, as it judges every agent (a move past the clock
and its grace is a "timeout"). The client's own deadline on ``genmove`` is only the guard
against an engine that never answers, and it is generous, so that a slow answer on a loaded
machine is not a forfeit: the engine's clock plus :data:`GENMOVE_GRACE`, and never less than
:data:`GENMOVE_LIMIT` (10 minutes). Every other command (``play``, ``boardsize``...) has
:data:`COMMAND_LIMIT`. Only an engine that passes these is scored a crash. Each deadline holds
for the whole answer, and a program whose output is not GTP (``gtp:/bin/cat`` echoes the
command) is an error at its first line, so no wait outlasts these limits.

:class:`~gamesearch.games.go.gtp.GTPClient` is the protocol alone (one command, one
answer, a deadline on each).
"""

from __future__ import annotations

import os
from typing import Any

from ..agents import Agent, AgentReport
from ..argtypes import option_value
from ..capabilities import GTPBoard
from ..errors import echo
from ..game import Game
from ..games.go.gtp import GTPClient, GTPError, gnugo_argv
from ..search import Limit
from .errors import ArenaError

__all__ = ["GTPAgent", "GTPClient", "GTPError"]

#: Seconds ``genmove`` may take beyond the engine's clock or move time (GNU Go plays by
#: level, not time, and a loaded machine slows it down).
GENMOVE_GRACE = 60.0
#: The least time ``genmove`` is given before the engine is taken for hung.
GENMOVE_LIMIT = 600.0
#: Seconds any other command may take (they do not search; this is for a loaded machine).
COMMAND_LIMIT = 120.0


def genmove_deadline(limit: Limit | None, player: int) -> float:
    """Seconds the client waits for ``genmove``'s answer: the engine's own clock (or its
    move time) plus :data:`GENMOVE_GRACE`, at least :data:`GENMOVE_LIMIT`."""
    budget = 0.0
    if limit is not None:
        if limit.clocks is not None:
            budget = max(0.0, limit.clocks[min(player, len(limit.clocks) - 1)])
        if limit.time is not None:
            budget = max(budget, limit.time)
    return max(GENMOVE_LIMIT, budget + GENMOVE_GRACE)


class GTPAgent(Agent):
    """A GTP engine as an arena agent (see the module docstring), for a game that speaks
    GTP (its ``gtp()`` capability: Go)."""

    def __init__(self, game: Game[Any, Any], argv: list[str], name: str) -> None:
        board = game.gtp()
        if board is None:
            raise ArenaError(f"gtp agents play a game that speaks the Go Text Protocol (a "
                             f"gtp() capability: go), not {game.name}")
        self.game = game
        self.board: GTPBoard[Any, Any] = board
        self.client = GTPClient(argv, COMMAND_LIMIT)
        self.name = name
        self.report = None
        self._known: Any = None
        try:
            self.client.send("protocol_version")
        except GTPError:
            self.close()
            raise

    @classmethod
    def from_spec(cls, game: Game[Any, Any], rest: str) -> GTPAgent:
        path, *parts = [p.strip() for p in rest.split(",")]
        if not path:
            raise ArenaError("gtp agent: expected gtp:PATH[,level=N][,args=ARGS]")
        level: int | None = None
        args: list[str] = []
        for part in parts:
            key, _, val = part.partition("=")
            key = key.strip().lower()
            if key == "level":
                level = option_value(key, val, "gtp_level")
            elif key == "args":
                args = val.split()
            else:
                raise ArenaError(f"gtp option {echo(key)}; allowed: level, args")
        if "gnugo" in os.path.basename(path):
            argv = gnugo_argv(path, level) + args
        else:
            if level is not None:
                raise ArenaError("gtp option level is GNU Go's (--level); give other "
                                 "engines their flags with args=")
            argv = [path, *args]
        return cls(game, argv, f"gtp:{rest.strip()}")

    def reset(self) -> None:
        self._known = None

    def _colour(self, player: int) -> str:
        return "b" if player == 0 else "w"

    def _restart(self, state: Any) -> None:
        board, send = self.board, self.client.send
        send(f"boardsize {board.size}")
        send("clear_board")
        send(f"komi {board.komi:g}")
        start = self.game.initial_state()
        if state == start:
            stones = [p for p, c in enumerate(board.stones(start)) if c]
            if stones:
                send("set_free_handicap " + " ".join(board.vertex(p) for p in stones))
            self._known = start
            return
        for p, c in enumerate(board.stones(state)):  # the stones, in any order
            if c:
                send(f"play {'b' if c == 1 else 'w'} {board.vertex(p)}")
        self._known = state

    def _sync(self, state: Any) -> None:
        game = self.game
        known = self._known
        if known is not None and known == state:
            return
        if known is not None and not game.is_terminal(known):
            for a in game.actions(known):
                if game.result(known, a) == state:
                    colour = self._colour(game.to_move(known))
                    self.client.send(f"play {colour} {self.board.vertex(a)}")
                    self._known = state
                    return
        self._restart(state)

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        self._sync(state)
        seconds = limit.time if limit is not None and limit.time is not None else None
        if seconds is not None:
            self.client.send(f"time_settings 0 {max(1, round(seconds))} 1")
        player = game.to_move(state)
        answer = self.client.send(f"genmove {self._colour(player)}",
                                  timeout=genmove_deadline(limit, player))
        if answer.lower() == "resign":
            raise ArenaError(f"{self.name} resigned")
        action = game.parse_action(state, answer)
        self._known = game.result(state, action)
        self.report = AgentReport("engine")
        return action

    def close(self) -> None:
        self.client.close()
