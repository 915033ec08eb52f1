"""The bad inputs of the new games and tools that a held-out fuzz found (issue 35, item 6),
each given once by hand: every one is a one-line error (exit status 2 on the command
line, ``?`` on GTP), or a bounded wait, never a traceback.

Each test names, in a comment, the line it guards: putting that line back as it was makes
the test fail (checked by hand when the test was written).
"""

from __future__ import annotations

import pytest

from cli_runner import cli
from gamesearch.errors import MAX_MESSAGE_CHARS, GameError
from gamesearch.games import get_game


def one_line_error(argv: list[str]) -> str:
    """``gamesearch argv``'s one error line (exit status 2, no traceback)."""
    code, _, err = cli(argv)
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamesearch: "), err[-2000:]
    assert len(lines[0]) <= MAX_MESSAGE_CHARS + 40
    return lines[0]


def refused(call: object) -> str:
    """The message of the :class:`GameError` ``call()`` raises (one bounded line)."""
    assert callable(call)
    with pytest.raises(GameError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text and len(text) <= MAX_MESSAGE_CHARS
    return text


# ----- positions and options: ASCII digits only ---------------------------------------------
OHHELL_DEAL = "2.3.45.- 6.7.89.- T.J.QK.- S5"  # three hands of three cards and the trump


@pytest.mark.parametrize("dealer", ["²", "٢", "１", "⁰"])
def test_ohhell_dealer_in_other_digits_is_refused(dealer: str) -> None:
    # guards ohhell parse_state's ascii_digits(words[0]) (isdigit() took "²", int() did not)
    text = refused(lambda: get_game("ohhell").parse_state(f"{dealer} {OHHELL_DEAL}"))
    assert "dealer 0-2" in text
    assert "dealer 0-2" in one_line_error(["play", "ohhell", "--position",
                                           f"² {OHHELL_DEAL}"])


@pytest.mark.parametrize("move", ["²-3", "٩-١٣", "9-١٣", "009-13"])
def test_checkers_moves_in_other_digits_are_refused(move: str) -> None:
    # guards checkers parse_action's ascii_digits(p) ("²" crashed int(), "٩" was read as 9)
    game = get_game("checkers")
    assert "a move is its squares" in refused(
        lambda: game.parse_action(game.initial_state(), move))


@pytest.mark.parametrize("fen", ["B:W٢١,22:B1", "B:W²:B1", "B:W21-٢٤:B1",
                                 "B:W" + "9" * 5000 + ":B1"])
def test_checkers_fen_squares_in_other_digits_are_refused(fen: str) -> None:
    # guards _fen_squares' ascii_digits checks (int() read "٢١" as 21)
    assert "bad square" in refused(lambda: get_game("checkers").parse_state(fen))


@pytest.mark.parametrize("value", ["٣", "1_0", "0", "9" * 40, "nan", ""])
def test_checkers_draw_plies_is_a_whole_number_in_range(value: str) -> None:
    # guards _read_draw_plies reading through read_int (int() took "٣", "1_0", 10**40)
    assert "draw_plies" in refused(lambda: get_game(f"checkers:draw_plies={value}"))
    assert get_game("checkers:draw_plies=40").draw_plies == 40


def test_pig_face_in_other_digits_is_refused() -> None:
    # guards Pig parse_action's ascii_digits(word) ("²" crashed int())
    game = get_game("pig")
    state = game.result(game.initial_state(), game.actions(game.initial_state())[0])
    assert "give a face" in refused(lambda: game.parse_action(state, "²"))
