"""The command line: every --json output parses, every bad input exits 2 with a message."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gamesearch.interfaces.cli import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run the real command in a fresh interpreter (as a user would)."""
    proc = subprocess.run(
        [sys.executable, "-m", "gamesearch", *argv],
        input=stdin, capture_output=True, text=True, timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def run_inline(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_list_names_games_and_algorithms() -> None:
    code, out = run_inline("list")
    assert code == 0
    for name in ("tictactoe", "fig6.2", "minimax", "alphabeta", "id", "maxn", "human"):
        assert name in out
    code, out = run_inline("list", "--json")
    data = json.loads(out)
    assert "tictactoe" in data["games"] and "expectiminimax" in data["algorithms"]


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        (["analyze", "tictactoe", "--depth", "9", "--json"], {"value": 0, "depth": 9}),
        (["analyze", "tictactoe", "--algorithm", "minimax", "--json", "--depth", "9"],
         {"nodes": 549_946, "value": 0}),
        (["analyze", "fig6.2", "--algorithm", "alphabeta", "--json", "--depth", "2"],
         {"value": 3, "move": "a1"}),
        (["analyze", "comp3200", "--algorithm", "minimax", "--json", "--depth", "4"],
         {"value": 7}),
        (["analyze", "fig6.4", "--json", "--depth", "3"], {"value": [1, 2, 6], "move": "a1"}),
        (["analyze", "coinflip", "--json", "--depth", "2"],
         {"value": 3, "move": "a1", "root_values": {"a1": 3, "a2": -1}}),
        (["analyze", "tictactoe", "--position", "xx.oo....", "--json", "--nodes", "5000"],
         {"move": "3"}),
    ],
)
def test_analyze_json(argv: list[str], expect: dict[str, object]) -> None:
    code, out = run_inline(*argv)
    assert code == 0
    data = json.loads(out)
    for key in ("game", "position", "algorithm", "value", "move", "pv", "depth", "nodes",
                "seconds", "nps"):
        assert key in data
    for key, value in expect.items():
        assert data[key] == value, key


def test_solve_json_one_object_per_position(tmp_path: Path) -> None:
    f = tmp_path / "positions.txt"
    f.write_text("x...o....\nxo.......  ignored-score\n\nxxxoo....\n.........\n")
    code, out = run_inline("solve", "tictactoe", "--file", str(f), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["position"] for r in rows] == ["x...o....", "xo.......", "........."]
    assert rows[1]["value"] > 0 and rows[2]["value"] == 0  # X wins after 1. x 2. o-edge
    for r in rows:
        assert set(r) >= {"game", "algorithm", "position", "value", "move", "moves", "nodes",
                          "seconds"}
        assert r["game"] == "tictactoe" and r["algorithm"] == "solve"
    assert code == 2  # the terminal position on line 4 was reported, the others solved


def test_solve_without_a_position_solves_the_start_and_never_waits_for_input() -> None:
    # standard input left open and empty: the command must not read it
    proc = subprocess.Popen([sys.executable, "-m", "gamesearch", "solve", "tictactoe",
                             "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    row = json.loads(out)
    assert row["value"] == 0 and row["position"] == "........."
    code, out, _ = run("solve", "tictactoe", "--file", "-", stdin="x...o....\n")
    assert code == 0 and json.loads(json.dumps(out.split()))[0] == "x...o...."


def test_trace_text_and_dot() -> None:
    code, out = run_inline("trace", "fig6.2", "--algorithm", "alphabeta")
    assert code == 0 and "pruned leaves: a2/c2, a2/c3" in out and "A MAX = 3" in out
    code, out = run_inline("trace", "fig6.2", "--dot")
    assert code == 0 and out.startswith("digraph") and "style=dashed" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["analyze", "nope"], "unknown game 'nope'"),
        (["analyze", "tictactoe", "--position", "xx......."], "X has 2 marks"),
        (["analyze", "tictactoe", "--position", "abc"], "expected nine characters"),
        (["analyze", "tictactoe", "--time", "-1"], "above 0"),
        (["analyze", "tictactoe", "--depth", "0"], "from 1 to 10,000"),
        (["analyze", "tictactoe", "--algorithm", "magic"], "unknown algorithm 'magic'"),
        (["analyze", "tictactoe", "--algorithm", "alphabeta:depth=x"], "depth"),
        (["analyze", "fig6.4", "--algorithm", "alphabeta"], "two-player"),
        (["analyze", "tictactoe", "--position", "xxxoo...."], "terminal"),
        (["play", "tictactoe", "--first", "wizard"], "unknown agent 'wizard'"),
        (["solve", "tictactoe", "--file", "/nonexistent/file"], "cannot read"),
        (["trace", "tictactoe"], "too big"),
        (["bogus"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_message(argv: list[str], needle: str) -> None:
    code, _out, err = run(*argv)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_play_refuses_illegal_moves_and_quits_cleanly() -> None:
    code, out, err = run("play", "tictactoe", "--second", "alphabeta", stdin="5\nzz\n5\nq\n")
    assert code == 0, err
    assert "illegal move 'zz'" in out
    assert "illegal move '5'" in out  # the square is taken
    assert "bye" in out


def test_play_engine_against_engine_to_the_end() -> None:
    code, out, err = run("play", "tictactoe", "--first", "alphabeta", "--second", "id",
                         "--time", "0.2")
    assert code == 0, err
    assert "game over: draw" in out


def test_play_connect4_puts_the_solver_against_you_by_default() -> None:
    code, out, err = run("play", "connect4", "--time", "0.2", stdin="4\nq\n")
    assert code == 0, err
    assert "solver (player 2) plays" in out
