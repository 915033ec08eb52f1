"""Go's rules on hand-picked positions: ko, a positional-superko cycle, snapback, suicide
(illegal, and Tromp-Taylor's option), seki left on the board at the end, handicap stones,
notation and bad input. The referees (OpenSpiel, GNU Go) are in tests/test_go_referees.py."""

from __future__ import annotations

import pytest

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.go.rules import Go


def board(*rows: str, to_move: str = "b") -> str:
    return "/".join(rows) + " " + to_move


def play_line(game: Go, moves: str):  # type: ignore[no-untyped-def]
    s = game.initial_state()
    for m in moves.split():
        s = game.play(s, m)
    return s


def test_spec_and_sizes() -> None:
    g = get_game("go:size=13,komi=6.5")
    assert (g.size, g.komi, g.spec) == (13, 6.5, "go:size=13,komi=6.5")
    assert get_game("go").spec == "go"
    for bad in ("go:size=4", "go:size=20", "go:komi=0.3", "go:handicap=1"):
        with pytest.raises(InvalidLimitError):
            get_game(bad)


def test_simple_ko() -> None:
    g = Go(size=5)
    s = g.parse_state(board(".....", ".....", ".XO..", "XO.O.", ".XO.."))
    s = g.play(s, "C2")  # Black takes the ko: B2 is captured
    assert s.board[g.parse_vertex("B2")] == 0
    assert g.parse_vertex("B2") not in g.actions(s)
    with pytest.raises(IllegalMoveError, match="ko"):
        g.play(s, "B2")
    s = g.play(g.play(s, "E5"), "E4")  # a ko threat and its answer
    s = g.play(s, "B2")  # now White may retake
    assert s.board[g.parse_vertex("C2")] == 0


#: Positional-superko cycles found by playing random games on 5x5 side by side with
#: OpenSpiel's ``go`` (as :func:`referees.go.compare_openspiel` does, seed
#: 0, moves uniform among those both allow, games capped at 50 moves). OpenSpiel, whose ko rule is
#: the simple one, allows the last move; it would repeat the board of three plies before,
#: with the other side to move, so positional superko forbids it.
SUPERKO_LINES = [
    ("C3 pass E3 B1 E2 A5 E4 B4 B3 D5 C4 C2 D3 D1 D2 E1 C1", "D1"),
    ("E3 B1 C5 A3 E4 E5 B4 D4 D5 C2 B2 B5 A1 D2 D1 D3 B3 E2 E5 pass A4 C4 A5 A2 E5 E3 pass "
     "E1 A1 C3 A3 E4 C1 B1", "D1"),
]


@pytest.mark.parametrize(("line", "move"), SUPERKO_LINES)
def test_positional_superko_cycle(line: str, move: str) -> None:
    g = Go(size=5)
    s = g.initial_state()
    boards = [s.board]
    for m in line.split():
        s = g.play(s, m)
        boards.append(s.board)
    point = g.parse_vertex(move)
    assert point not in g.actions(s)
    with pytest.raises(IllegalMoveError, match="superko"):
        g.play(s, move)
    # the board it would make is the one of three plies before, not two (not a simple ko)
    after = g.result(s, point).board
    assert after == boards[-3] and after != boards[-2]
    assert Go(size=5).parse_state(g.format_state(s)).history == frozenset({s.hash})


def test_snapback() -> None:
    g = Go(size=5)
    s = g.parse_state(board(".....", ".....", "XXXX.", "OOOX.", "..OX."))
    s = g.play(s, "B1")  # the throw-in: White is in atari, and so is the stone
    s = g.play(s, "A1")  # White takes it
    assert s.board[g.parse_vertex("B1")] == 0
    white_before = s.board.count(2)
    s = g.play(s, "B1")  # and Black takes back five stones
    assert white_before == 5 and s.board.count(2) == 0


def test_suicide_illegal_and_tromp_taylor() -> None:
    pos = board(".....", ".....", "O....", ".O...", "XO...")
    g = Go(size=5)
    s = g.parse_state(pos)
    a2 = g.parse_vertex("A2")
    assert a2 not in g.actions(s)
    with pytest.raises(IllegalMoveError, match="suicide"):
        g.play(s, "A2")
    tt = Go(size=5, suicide=True)
    s = tt.parse_state(pos)
    assert a2 in tt.actions(s)
    s = tt.play(s, "A2")  # the two black stones are removed
    assert s.board.count(1) == 0 and s.board.count(2) == 3
    # a single-stone suicide would repeat the board: positional superko forbids it
    s = tt.parse_state(board(".....", ".....", ".....", "O....", ".O..."))
    assert tt.parse_vertex("A1") not in tt.actions(s)


def test_seki_at_the_end() -> None:
    g = Go(size=5, komi=0.5)
    pos = board(".OX..", "XOX..", "XOX..", "XOX..", ".OX..")
    s = g.parse_state(pos)
    # A5 and A1 are shared liberties: the one who fills one is captured
    s2 = g.play(g.play(s, "A5"), "A1")
    assert s2.board.count(1) == 5  # the four black stones in the corner were taken
    end = g.play(g.play(s, "pass"), "pass")
    assert g.is_terminal(end)
    assert g.area(end.board) == (18, 5)  # A5 and A1 belong to no one
    assert g.score(end) == 12.5 and g.returns(end) == (1.0, -1.0)
    assert g.result_text(end) == "B+12.5"


def test_two_passes_end_and_komi() -> None:
    g = Go(size=5)
    s = play_line(g, "pass pass")
    assert g.is_terminal(s) and g.returns(s) == (-1.0, 1.0)  # komi 7.5 wins for White
    assert g.actions(s) == []
    assert Go(size=5, komi=0).returns(s) == (0.0, 0.0)
    capped = Go(size=5, max_moves=3)
    assert capped.is_terminal(play_line(capped, "C3 pass C4"))


def test_handicap() -> None:
    g = get_game("go:size=19,handicap=4")
    s = g.initial_state()
    assert g.to_move(s) == 1
    assert sorted(g.vertex(p) for p, c in enumerate(s.board) if c == 1) == [
        "D16", "D4", "Q16", "Q4"]
    g9 = get_game("go:size=9,handicap=5")
    assert sorted(g9.vertex(p) for p, c in enumerate(g9.initial_state().board) if c) == [
        "C3", "C7", "E5", "G3", "G7"]
    with pytest.raises(InvalidLimitError):
        get_game("go:size=8,handicap=5")


def test_notation_and_bad_input() -> None:
    g = Go(size=9)
    s = g.initial_state()
    assert g.format_action(s, g.parse_action(s, "j9")) == "J9"
    assert g.parse_action(s, "PASS") == g.pass_action
    for bad, why in (("I5", "vertex"), ("K5", "off the"), ("A10", "off the"), ("D", "vertex"),
                     ("A0", "off the"), ("", "vertex"), ("D4x", "vertex")):
        with pytest.raises(IllegalMoveError, match=why):
            g.parse_action(s, bad)
    s = g.play(s, "D4")
    with pytest.raises(IllegalMoveError, match="occupied"):
        g.play(s, "D4")
    for bad in ("", "x b", "........./ b", ".........:" * 9 + " b",
                "/".join(["........."] * 9) + " x", "/".join(["....Z...."] * 9) + " b"):
        with pytest.raises(InvalidPositionError):
            g.parse_state(bad)
    with pytest.raises(InvalidPositionError, match="liberty"):
        Go(size=5).parse_state(board("XO...", "O....", ".....", ".....", "....."))
    text = g.format_state(s)
    assert g.format_state(g.parse_state(text)) == text
    assert "D" in g.render(s) and "white to move" in g.render(s)


def test_drawing_marks_moves_pass_and_territory() -> None:
    g = Go(size=5)
    s = g.parse_state(board(".OX..", "XOX..", "XOX..", "XOX..", ".OX.."))
    svg = g.render_svg(s)
    assert svg is not None
    assert 'data-move="pass"' in svg and 'data-move="D3"' in svg
    assert 'data-move="C3"' not in svg  # occupied
    end = g.play(g.play(s, "pass"), "pass")
    svg = g.render_svg(end)
    assert svg is not None and svg.count("territory-b") == 10 and "territory-w" not in svg
