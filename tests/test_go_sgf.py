"""Go's SGF records through sgfmill: a game written and read back gives the same states;
a record with handicap stones and a pass; bad records are one-line errors."""

from __future__ import annotations

import random

import pytest

from gamesearch.errors import GameError, IllegalMoveError, InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.go.rules import Go
from gamesearch.games.go.sgf import read_sgf, write_sgf

pytest.importorskip("sgfmill")


def test_a_random_game_round_trips() -> None:
    game = Go(size=9, komi=6.5)
    rng = random.Random(4)
    s = game.initial_state()
    moves, states = [], [s]
    while not game.is_terminal(s) and len(moves) < 200:
        legal = game.actions(s)
        a = legal[rng.randrange(len(legal))]
        moves.append(a)
        s = game.result(s, a)
        states.append(s)
    data = write_sgf(game, moves, black="ours", white="gnugo")
    assert b"SZ[9]" in data and b"KM[6.5]" in data and b"PB[ours]" in data
    assert (b"RE[" + game.result_text(s).encode() + b"]" in data) == game.is_terminal(s)
    read, got = read_sgf(data)
    assert (read.size, read.komi) == (9, 6.5)
    assert [x.board for x in got] == [x.board for x in states]
    assert got[-1] == states[-1]


def test_handicap_record() -> None:
    game = get_game("go:size=9,handicap=2")
    assert isinstance(game, Go)
    data = write_sgf(game, [game.parse_vertex("E5"), game.pass_action])
    assert b"HA[2]" in data and b"AB[" in data
    read, states = read_sgf(data)
    assert states[0].board == game.initial_state().board and states[0].to_move == 1
    assert len(states) == 3 and states[-1].passes == 1
    text = b"(;GM[1]FF[4]SZ[9]KM[0.5]AB[cc][gg];W[ee];B[];W[dd])"
    read, states = read_sgf(text)
    assert read.komi == 0.5 and states[1].board[4 * 9 + 4] == 2
    assert states[-1].board[5 * 9 + 3] == 2  # dd: column d, row 6 from the bottom


@pytest.mark.parametrize(("data", "error", "words"), [
    (b"(;SZ[9;B[zz", InvalidPositionError, "not a valid SGF"),
    (b"not sgf at all", InvalidPositionError, "not a valid SGF"),
    (b"(;GM[1]SZ[4];B[aa])", InvalidPositionError, "size 4"),
    (b"(;GM[1]SZ[21];B[aa])", InvalidPositionError, "size 21"),
    (b"(;GM[1]SZ[9];B[ee];W[ee])", IllegalMoveError, "occupied"),
    (b"(;GM[1]SZ[5];B[cc];W[ba];B[dd];W[ab];B[aa])", IllegalMoveError, "suicide"),
    (b"(;GM[1]SZ[9];B[ee];AB[aa])", InvalidPositionError, "setup stones"),
])
def test_bad_records(data: bytes, error: type[GameError], words: str) -> None:
    with pytest.raises(error) as info:
        read_sgf(data)
    assert words in str(info.value) and "\n" not in str(info.value)
