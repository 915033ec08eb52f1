"""SGF from the command line: ``gamesearch play go ... --record F.sgf`` writes the game
played (read back by sgfmill itself and replayed through our rules), ``--load F.sgf`` goes
on from the end of a record (its moves kept in the next record), and a bad record is one
line on stderr with exit code 2, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gamesearch.games import get_game
from gamesearch.interfaces.cli import main

sgf = pytest.importorskip("sgfmill.sgf")


def play(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def replay(path: Path, size: int) -> tuple[list[tuple[str, str]], object]:
    """The moves of a record as sgfmill reads them, and the final state replayed through
    our rules move by move (every move must be legal)."""
    record = sgf.Sgf_game.from_bytes(path.read_bytes())
    game = get_game(f"go:size={size}")
    s = game.initial_state()
    moves = []
    for node in record.get_main_sequence()[1:]:
        colour, point = node.get_move()
        text = "pass" if point is None else game.vertex(point[0] * size + point[1])
        assert "bw"[s.to_move] == colour
        s = game.play(s, text)
        moves.append((colour, text))
    return moves, s


def test_a_played_game_is_recorded_and_a_record_is_loaded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first.sgf"
    code, out, err = play(["play", "go:size=5", "--agents", "random:seed=1", "random:seed=2",
                           "--seed", "3",
                           "--record", str(first)], capsys)
    assert code == 0, err
    moves, final = replay(first, 5)
    game = get_game("go:size=5")
    assert game.is_terminal(final)
    assert len(moves) > 5 and f"{len(moves)} moves)" in out
    record = sgf.Sgf_game.from_bytes(first.read_bytes())
    assert record.get_komi() == 7.5 and record.get_root().get("PB") == "random:seed=1"
    assert record.get_root().get("RE") == game.result_text(final)  # type: ignore[attr-defined]

    # a record cut before its end: --load plays on from there, --record keeps its moves
    cut = sgf.Sgf_game.from_bytes(first.read_bytes())
    for node in cut.get_main_sequence()[6:]:
        node.delete()
    cut_path = tmp_path / "cut.sgf"
    cut_path.write_bytes(cut.serialise())
    second = tmp_path / "second.sgf"
    code, out, err = play(["play", "go:size=5", "--agents", "random:seed=3", "random:seed=4",
                           "--seed", "4",
                           "--load", str(cut_path), "--record", str(second)], capsys)
    assert code == 0, err
    assert "loaded 5 moves" in out
    again, final2 = replay(second, 5)
    assert again[:5] == moves[:5] and len(again) > 5
    assert game.is_terminal(final2)


def test_a_person_who_quits_still_gets_the_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["C3", "q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    path = tmp_path / "quit.sgf"
    code, out, _ = play(["play", "go:size=5", "--second", "random", "--seed", "1",
                         "--record", str(path)], capsys)
    assert code == 0 and "bye" in out
    moves, _ = replay(path, 5)
    assert moves[0] == ("b", "C3") and len(moves) == 2


@pytest.mark.parametrize(("content", "argv_extra", "message"), [
    (b"this is not SGF", [], "not a valid SGF record"),
    (b"(;FF[4]GM[1]SZ[9]KM[7.5];B[ee];W[ee])", [], "SGF move 2"),  # an occupied point
    (b"(;FF[4]GM[1]SZ[7]KM[7.5];B[dd])", [], "play it as go:size=7,komi=7.5"),
    (b"(;FF[4]GM[1]SZ[9]KM[6.5];B[dd])", [], "play it as go:size=9,komi=6.5"),
    (b"(;FF[4]GM[1]SZ[30];B[aa])", [], "SGF"),
    (b"(;FF[4]GM[1]SZ[9]KM[7.5];B[dd])", ["--position", "........./" * 8 + "......... b"],
     "either with --position or with --load"),
])
def test_bad_records_are_one_line_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
        argv_extra: list[str], message: str) -> None:
    path = tmp_path / "bad.sgf"
    path.write_bytes(content)
    code, out, err = play(["play", "go:size=9", "--agents", "random", "random",
                           "--load", str(path), *argv_extra], capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("gamesearch: error:") and message in err
    assert "Traceback" not in err + out


def test_missing_files_and_games_without_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(["play", "go:size=9", "--agents", "random", "random",
                         "--load", str(tmp_path / "absent.sgf")], capsys)
    assert code == 2 and "--load" in err and err.count("\n") == 1
    code, _, err = play(["play", "tictactoe", "--agents", "random", "random",
                         "--record", str(tmp_path / "t.sgf")], capsys)
    assert code == 2 and "no game-record format" in err and err.count("\n") == 1
    assert not (tmp_path / "t.sgf").exists()
    code, _, err = play(["play", "go:size=5", "--agents", "random", "random", "--seed", "1",
                         "--record", str(tmp_path / "no-such-dir" / "g.sgf")], capsys)
    assert code == 2 and "--record" in err and err.count("\n") == 1


def test_a_colour_moving_twice_starts_the_line_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SGF allows a colour to move twice running; the position there becomes the start
    of the line replayed (its stones are the record's setup when it is written again)."""
    path = tmp_path / "twice.sgf"
    path.write_bytes(b"(;FF[4]GM[1]SZ[5]KM[7.5];B[aa];B[bb];W[cc];B[dd])")
    out_path = tmp_path / "out.sgf"
    code, out, err = play(["play", "go:size=5", "--agents", "random:seed=1", "random:seed=2",
                           "--load", str(path), "--record", str(out_path)], capsys)
    assert code == 0, err
    assert "loaded 3 moves" in out  # B B2 (after B A1, set up), W C3, B D4
    written = sgf.Sgf_game.from_bytes(out_path.read_bytes())
    black, white, _ = written.get_root().get_setup_stones()
    assert black == {(4, 0)} and not white  # (sgfmill counts rows from the bottom)
    first = [n.get_move() for n in written.get_main_sequence()[1:4]]
    assert first == [("b", (3, 1)), ("w", (2, 2)), ("b", (1, 3))]
