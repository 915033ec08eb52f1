"""Misbehaving agents for the arena tests (loaded by spec: ``py:arena_agents:Crash``)."""

from __future__ import annotations

import os
import time
from typing import Any

from gamesearch.agents import Agent, AgentReport
from gamesearch.game import Game
from gamesearch.search import Limit


class _First(Agent):
    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        return game.actions(state)[0]


class _Crash(Agent):
    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        raise RuntimeError("deliberate crash")


class _Slow(Agent):
    """Sleeps 1.7 s, then plays a legal move: late for a 1 s clock + 0.5 s grace, but it
    returns before the runner would kill it (at 2 s)."""

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        time.sleep(1.7)
        return game.actions(state)[0]


class _Hang(Agent):
    """Never returns: the runner must kill its process."""

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        while True:
            time.sleep(3600)


class _Illegal(Agent):
    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        return "no such move"


class _Exit(Agent):
    """Kills its own process (as a segfault in an extension would)."""

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        os._exit(3)


def First(game: Game[Any, Any]) -> Agent:
    return _First()


def Crash(game: Game[Any, Any]) -> Agent:
    return _Crash()


def Slow(game: Game[Any, Any]) -> Agent:
    return _Slow()


def Hang(game: Game[Any, Any]) -> Agent:
    return _Hang()


def Illegal(game: Game[Any, Any]) -> Agent:
    return _Illegal()


def Exit(game: Game[Any, Any]) -> Agent:
    return _Exit()


def BrokenFactory(game: Game[Any, Any]) -> Agent:
    raise ValueError("cannot start")


class _Sleepy(Agent):
    """Deterministic but slow: waits 30 ms, then plays the first legal move."""

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        time.sleep(0.03)
        return game.actions(state)[0]


def Sleepy(game: Game[Any, Any]) -> Agent:
    return _Sleepy()


#: What :class:`Recorder` agents were asked, in order (this process only).
LOG: list[str] = []


class Recorder(Agent):
    """Plays the first legal move, reports 7 nodes a move, and logs its life cycle (reset,
    choose, close) in :data:`LOG`, so tests see what each front end calls."""

    name = "recorder"

    def reset(self) -> None:
        super().reset()
        LOG.append("reset")

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        LOG.append("choose")
        action = game.actions(state)[0]
        self.report = AgentReport("engine", None, 1, 7, 0.0, (action,))
        return action

    def close(self) -> None:
        LOG.append("close")


def Recording(game: Game[Any, Any]) -> Agent:
    return Recorder()


class _SeatViewOnly(Agent):
    """Plays the first legal card of its view, and crashes (a forfeit the test sees) if it
    is handed anything but its own seat's view of a hidden-information game."""

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        observation = game.observation()
        kind = type(state).__name__
        if observation is None or kind not in ("SeatView", "BridgeView"):
            raise RuntimeError(f"handed {kind}, not the seat's own view")
        if kind == "SeatView" and state.mover != state.seat:
            raise RuntimeError("handed another seat's view")
        if kind == "BridgeView":  # its own turn, or declarer's for dummy; no unseen hand
            mover = (state.leader + len(state.trick)) % 4
            if mover != state.seat and not (state.seat == state.declarer
                                            and mover == (state.seat + 2) % 4):
                raise RuntimeError("handed another seat's view")
            if any(state.hands[o] for o in range(4) if not state.seen[o]):
                raise RuntimeError("handed a hand its seat may not see")
        return observation.actions(state)[0]


def SeatViewOnly(game: Game[Any, Any]) -> Agent:
    return _SeatViewOnly()


class Killed(Exception):
    """What :class:`KillAfter` raises: a tournament stopped as if killed."""


class KillAfter:
    """An ``on_record`` callback that stops a tournament (raises :class:`Killed`) once
    ``games`` games are stored: the kill of the resume tests."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.seen = 0

    def __call__(self, record: Any) -> None:
        self.seen += 1
        if self.seen == self.games:
            raise Killed
