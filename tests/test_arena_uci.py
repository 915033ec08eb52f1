"""The UCI agent against a real engine: runs only where python-chess and Stockfish are
installed (``pip install chess``, ``apt-get install stockfish``); skipped otherwise.

The library has no chess game yet, so the test brings a minimal one built on python-chess
(positions are FEN, moves are UCI), registered from this module (outside the library) for this run.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import Any

import pytest

from gamesearch.arena import RunOptions, TimeControl, TournamentConfig, parse_agents, run_tournament
from gamesearch.game import Game
from gamesearch.games import GAMES, register

chess: Any = pytest.importorskip("chess", reason="python-chess not installed: UCI agent untested")
ENGINE = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
pytestmark = pytest.mark.skipif(ENGINE is None, reason="no stockfish: UCI agent untested")


class MiniChess(Game[str, str]):
    name = "minichess-test"

    def initial_state(self) -> str:
        return str(chess.STARTING_FEN)

    def to_move(self, state: str) -> int:
        return 0 if chess.Board(state).turn else 1

    def actions(self, state: str) -> Sequence[str]:
        return [m.uci() for m in chess.Board(state).legal_moves]

    def result(self, state: str, action: str) -> str:
        board = chess.Board(state)
        board.push_uci(action)
        return str(board.fen())

    def is_terminal(self, state: str) -> bool:
        return bool(chess.Board(state).is_game_over())

    def returns(self, state: str) -> Sequence[float]:
        winner = chess.Board(state).outcome().winner
        return (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner else (-1.0, 1.0))

    def format_state(self, state: str) -> str:
        return state

    def parse_state(self, text: str) -> str:
        return str(chess.Board(text).fen())


def test_uci_engine_beats_a_random_mover() -> None:
    register("minichess-test", f"{__name__}:MiniChess", "test only")
    try:
        cfg = TournamentConfig(
            "minichess-test",
            tuple(parse_agents([f"sf=uci:{ENGINE},elo=1350", "random:seed=1"])),
            games_per_pair=2, time_control=TimeControl(5, 0.05), max_plies=300)
        result = run_tournament(cfg, RunOptions(workers=2))
    finally:
        GAMES.pop("minichess-test", None)
    assert [r.termination for r in result.records] in (["normal", "normal"],
                                                       ["normal", "move-limit"],
                                                       ["move-limit", "normal"],
                                                       ["move-limit", "move-limit"])
    top = result.standings[0]
    assert top.name == "sf" and top.score.losses == 0
