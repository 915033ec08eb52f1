"""Chess in the arena: SAN openings stored as UCI, PGN export that python-chess reads back.

Runs where python-chess (the ``[chess]`` extra) is installed; skipped otherwise.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from gamesearch.games import GAMES
from gamesearch.interfaces.cli import main

chess: Any = pytest.importorskip("chess", reason="python-chess not installed: chess untested")
pytestmark = pytest.mark.skipif("chess" not in GAMES, reason="no chess game registered")


def test_openings_in_san_and_pgn_export(tmp_path: Path) -> None:
    import chess.pgn

    openings = tmp_path / "openings.txt"
    openings.write_text("e4 e5 Nf3\n"
                        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
                        encoding="utf-8")
    pgn, jsonl = tmp_path / "games.pgn", tmp_path / "games.jsonl"
    out = io.StringIO()
    code = main(["match", "chess", "random:seed=1", "random:seed=2", "--games", "4",
                 "--openings", str(openings), "--max-plies", "20", "--quiet",
                 "--export-pgn", str(pgn), "--export-jsonl", str(jsonl)], out)
    assert code == 0, out.getvalue()
    with pgn.open(encoding="utf-8") as handle:
        games = [chess.pgn.read_game(handle) for _ in range(4)]
    assert all(g is not None for g in games)
    first = games[0]
    assert first.headers["White"] == "random:seed=1" and first.headers["Black"] == "random:seed=2"
    assert [m.uci() for m in first.mainline_moves()][:3] == ["e2e4", "e7e5", "g1f3"]
    assert games[2].headers["FEN"].startswith("rnbqkbnr/pppppppp/8/8/3P4")
    for g in games:
        assert g.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert g.headers["Termination"] in ("normal", "adjudication")


def test_pgn_export_refuses_other_games(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    code = main(["match", "tictactoe", "random", "random", "--quiet",
                 "--export-pgn", str(tmp_path / "x.pgn")], io.StringIO())
    assert code == 2 and "PGN export is for chess" in capsys.readouterr().err
