"""External engines that speak UCI, through python-chess's ``chess.engine`` (optional).

Spec: ``uci:PATH[,elo=N][,threads=N][,hash=MB][,depth=N][,nodes=N]``, for example
``uci:/usr/games/stockfish,elo=1350``. The engine gets the arena's clocks as UCI clocks and
allocates its own time (``depth``/``nodes`` given in the spec are passed on as well).

UCI is chess's protocol, so the game must write positions as FEN (``format_state``) and
read moves in UCI notation (``parse_action``), as :mod:`gamesearch.games.chess` does: a
game says so in its ``match_hooks().pgn_notation`` (a game without it is refused).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import Iterator
from typing import Any

from ..agents import Agent, AgentReport
from ..argtypes import option_value
from ..errors import echo
from ..game import Game
from ..search import Limit
from .errors import ArenaError


def _chess() -> tuple[Any, Any]:
    try:
        return importlib.import_module("chess"), importlib.import_module("chess.engine")
    except ImportError:
        raise ArenaError("uci agents need python-chess: pip install chess") from None


#: Seconds an engine has to answer ``uci`` with ``uciok``.
START_SECONDS = 10.0


@contextlib.contextmanager
def _quiet_asyncio() -> Iterator[None]:
    """Keep asyncio's own warnings (a child watcher's "Loop ... is closed" after an engine
    that did not start) off the terminal: the error message says what went wrong."""
    logger = logging.getLogger("asyncio")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


class UCIAgent(Agent):
    """A UCI engine process; :meth:`close` ends it (the arena calls it after each game)."""

    def __init__(self, game: Game[Any, Any], path: str, options: dict[str, Any] | None = None,
                 depth: int | None = None, nodes: int | None = None) -> None:
        chess, engine_module = _chess()
        self._chess, self._engine_module = chess, engine_module
        hooks = game.match_hooks()
        if hooks is None or not hooks.pgn_notation:  # (UCI speaks FEN and UCI moves)
            raise ArenaError(f"uci agents play a game written in FEN and UCI moves "
                             f"(match_hooks().pgn_notation: chess), not {game.name}")
        with _quiet_asyncio():
            try:
                self.engine = engine_module.SimpleEngine.popen_uci(path,
                                                                   timeout=START_SECONDS)
            except TimeoutError:
                raise ArenaError(f"uci engine {echo(path)} did not answer 'uci' with 'uciok' "
                                 f"within {START_SECONDS:g} s: is it a UCI engine?") from None
            except (OSError, engine_module.EngineError) as exc:
                raise ArenaError(f"uci engine {echo(path)} did not start: "
                                 f"{exc or type(exc).__name__}") from None
        if options:
            try:
                self.engine.configure(options)
            except Exception as exc:
                self.close()
                raise ArenaError(f"uci engine {echo(path)} refused the options "
                                 f"{sorted(options)}: {exc or type(exc).__name__}") from None
        self.name = f"uci:{path}"
        self.depth, self.nodes = depth, nodes

    @classmethod
    def from_spec(cls, game: Game[Any, Any], rest: str) -> UCIAgent:
        path, *parts = [p.strip() for p in rest.split(",")]
        if not path:
            raise ArenaError("uci agent: expected uci:PATH[,elo=N][,threads=N][,hash=MB]")
        options: dict[str, Any] = {}
        depth = nodes = None
        ranges = {"elo": "uci_elo", "threads": "threads", "hash": "hash", "depth": "depth",
                  "nodes": "nodes"}
        for part in parts:
            key, _, val = part.partition("=")
            key = key.strip().lower()
            if key not in ranges:
                raise ArenaError(f"uci option {echo(key)}; allowed: elo, threads, hash, depth, "
                                 "nodes")
            n = option_value(key, val, ranges[key])
            if key == "elo":
                options.update({"UCI_LimitStrength": True, "UCI_Elo": n})
            elif key == "threads":
                options["Threads"] = n
            elif key == "hash":
                options["Hash"] = n
            elif key == "depth":
                depth = n
            elif key == "nodes":
                nodes = n
        return cls(game, path, options, depth, nodes)

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        """Ask the engine: the arena's clocks go to it as UCI's ``wtime``/``btime``/``winc``/
        ``binc`` (it allocates its own time), a plain time as ``movetime``."""
        board = self._chess.Board(game.format_state(state))
        kwargs: dict[str, Any] = {"depth": self.depth, "nodes": self.nodes}
        if limit is not None:
            if limit.clocks is not None:
                incs = limit.increments or (0.0, 0.0)
                kwargs.update(white_clock=limit.clocks[0], black_clock=limit.clocks[-1],
                              white_inc=incs[0], black_inc=incs[-1],
                              remaining_moves=limit.moves_to_go)
            if limit.time is not None:
                kwargs["time"] = limit.time
        played = self.engine.play(board, self._engine_module.Limit(**kwargs),
                                  info=self._engine_module.INFO_BASIC)
        info = played.info
        depth = info.get("depth")
        # what the engine said of its move (nodes 0 when it reports none)
        self.report = AgentReport("engine", None, depth if isinstance(depth, int) else None,
                                  int(info.get("nodes", 0)), float(info.get("time", 0.0)))
        return game.parse_action(state, played.move.uci())

    def close(self) -> None:
        """End the engine process (the arena calls it after each game; twice is harmless)."""
        with _quiet_asyncio(), contextlib.suppress(Exception):
            self.engine.quit()
