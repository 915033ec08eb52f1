"""The UCI agent against a real engine: runs only where python-chess and Stockfish are
installed (``pip install chess``, ``apt-get install stockfish``); skipped otherwise.

The test brings a minimal game of its own built on python-chess, as a user's game would be
(positions are FEN, moves are UCI, which it declares in ``match_hooks().pgn_notation``),
registered from this module (outside the library) for this run.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import Any

import pytest

from gamesearch.arena import RunOptions, TimeControl, TournamentConfig, parse_agents, run_tournament
from gamesearch.capabilities import MatchHooks
from gamesearch.game import Game
from gamesearch.games import GAMES, register

chess: Any = pytest.importorskip("chess", reason="python-chess not installed: UCI agent untested")
ENGINE = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
pytestmark = pytest.mark.skipif(ENGINE is None, reason="no stockfish: UCI agent untested")


class MiniChess(Game[str, str]):
    name = "minichess-test"

    def initial_state(self) -> str:
        return str(chess.STARTING_FEN)

    def match_hooks(self) -> MatchHooks:
        """Positions in FEN and moves in UCI: what lets a uci: agent play this game."""
        return MatchHooks(pgn_notation=True)

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


def test_a_game_without_fen_and_uci_moves_is_refused_in_one_line() -> None:
    """The uci: agent finds the notation by the game's match_hooks().pgn_notation, not
    by its class or name: MiniChess (above) declares it, these do not."""
    import pytest

    from gamesearch.arena import ArenaError
    from gamesearch.arena.play import make_arena_agent
    from gamesearch.games import get_game

    for name in ("tictactoe", "go", "backgammon"):
        with pytest.raises(ArenaError) as info:
            make_arena_agent(get_game(name), f"uci:{ENGINE}", 0)
        assert f"not {name}" in str(info.value) and "pgn_notation" in str(info.value)
