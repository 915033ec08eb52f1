"""The bad inputs of the new games and tools that a held-out fuzz found (issue 35, item 6),
each given once by hand: every one is a one-line error (exit status 2 on the command
line, ``?`` on GTP), or a bounded wait, never a traceback.

Each test names, in a comment, the line it guards: putting that line back as it was makes
the test fail (checked by hand when the test was written).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from cli_runner import cli
from gamesearch import files
from gamesearch.errors import MAX_MESSAGE_CHARS, GameError
from gamesearch.games import get_game
from gamesearch.games.go.gtp import GTPClient, GTPError
from gamesearch.interfaces.gtp import GTPEngine


def one_line_error(argv: list[str]) -> str:
    """``gamesearch argv``'s one error line (exit status 2, no traceback; argparse's usage
    lines may come before it)."""
    code, _, err = cli(argv)
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    usage = lines[:-1]  # (argparse's own errors come after its usage lines)
    assert not usage or (usage[0].startswith("usage: ") and all(
        u.startswith(" ") for u in usage[1:])), err[-2000:]
    assert lines[-1].startswith("gamesearch: ") and len(lines[-1]) <= MAX_MESSAGE_CHARS + 40
    return lines[-1]


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


# ----- SGF records: play --load and GTP's loadsgf -------------------------------------------
OFF_BOARD = {
    "move.sgf": ("(;GM[1]FF[4]SZ[5];B[zz])", "move 1 is off the 5x5 board"),
    "white.sgf": ("(;GM[1]SZ[5]AB[aa];W[zz])", "move 1 is off the 5x5 board"),
    "later.sgf": ("(;GM[1]SZ[5]KM[7.5];B[aa];W[bb];B[zy])", "move 3 is off the 5x5 board"),
    "setup.sgf": ("(;GM[1]SZ[5]AB[zz])", "setup stones"),
    "player.sgf": ("(;GM[1]SZ[5]AB[aa]PL[x];W[bb])", "PL"),
}


@pytest.mark.parametrize("name", sorted(OFF_BOARD))
def test_sgf_points_off_the_board_are_one_line_errors(name: str, tmp_path: Path) -> None:
    # guards go.sgf's _move() and the try around get_setup_stones / PL (sgfmill raises a
    # bare ValueError for B[zz] on 5x5: a traceback of play --load, "? internal error" of GTP)
    text, words = OFF_BOARD[name]
    path = tmp_path / name
    path.write_text(text)
    line = one_line_error(["play", "go:size=5", "--load", str(path), "--first", "random",
                           "--second", "random"])
    assert words in line and "--load" in line
    e = GTPEngine(io.StringIO(), "random", "go:size=5")
    answer = e.handle(f"loadsgf {path}")
    assert answer is not None and answer.startswith("? cannot load file") and words in answer
    assert answer.count("\n") == 2


@pytest.mark.parametrize("path, words", [
    ("/dev/zero", "too large"),
    ("/", "it is a directory"),
    ("/no/such/record.sgf", "No such file"),
    ("/dev/null", "no SGF data"),
])
def test_play_load_reads_through_the_capped_reader(path: str, words: str) -> None:
    # guards _load_record's read_bytes(path, ..., MAX_RECORD_BYTES) (open().read() of
    # /dev/zero filled the memory)
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    line = one_line_error(["play", "go:size=5", "--load", path, "--first", "random",
                           "--second", "random"])
    assert words in line and "Traceback" not in line


def test_play_load_gives_up_a_fifo_without_writer(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # the FIFO guard of files.read_bytes, shortened for the test (30 s in use)
    monkeypatch.setattr(files, "IDLE_SECONDS", 0.2)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    line = one_line_error(["play", "go:size=5", "--load", str(fifo), "--first", "random",
                           "--second", "random"])
    assert "nothing to read" in line and time.monotonic() - start < 10


# ----- endgame-database folders ---------------------------------------------------------------
@pytest.fixture(scope="module")
def egdb_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A built 2-piece checkers database (0.2 s); tests copy it before damaging it."""
    folder = tmp_path_factory.mktemp("egdb")
    code, _, err = cli(["egdb", "build", "checkers", "--pieces", "2", "--dir", str(folder)])
    assert code == 0, err
    return folder


def damaged_copy(egdb_folder: Path, tmp_path: Path, pieces: str) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(egdb_folder, folder)
    marker = folder / "checkers" / "egdb.json"
    info = json.loads(marker.read_text())
    marker.write_text(json.dumps(info).replace(f'"pieces": {info["pieces"]}',
                                               f'"pieces": {pieces}'))
    return folder


@pytest.mark.parametrize("pieces", ['"abc"', "null", "1e400", "NaN", "[2]", "2.5", "true",
                                    "-5", "99", '"2"'])
def test_egdb_marker_with_a_bad_piece_count_is_damaged(pieces: str, egdb_folder: Path,
                                                       tmp_path: Path) -> None:
    # guards complete_pieces' type(pieces) is int and 1 <= pieces <= MAX_PIECES check
    # (int() crashed on "abc", null, 1e400, NaN, [2]; read 2.5 and true as 2 and 1; took 99)
    folder = damaged_copy(egdb_folder, tmp_path, pieces)
    for argv in (["verify", "checkers"], ["probe", "checkers", "--position", "B:W18:B14"]):
        line = one_line_error(["egdb", *argv, "--dir", str(folder)])
        assert "damaged (pieces" in line, line
    # the intact marker still reads
    assert cli(["egdb", "probe", "checkers", "--dir", str(egdb_folder), "--position",
                "B:W18:B14"])[0] == 0


@pytest.mark.parametrize("content, words", [
    (b"\x00" * 100, "not a text file"),
    (b"[1]", "not a JSON object"),
    (b"{", "not JSON"),
    (b" " * 70_000, "too large"),
])
def test_egdb_marker_that_is_not_a_small_json_object(content: bytes, words: str,
                                                     egdb_folder: Path, tmp_path: Path) -> None:
    # guards complete_pieces reading through read_text (capped) and its isinstance(dict)
    folder = damaged_copy(egdb_folder, tmp_path, "2")
    (folder / "checkers" / "egdb.json").write_bytes(content)
    assert words in one_line_error(["egdb", "verify", "checkers", "--dir", str(folder)])


def bad_folders(tmp_path: Path) -> list[tuple[str, str]]:
    """(--dir, words of its error) for folders no database can be written into."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    found = [(str(a_file), "Not a directory"), ("/proc/gamesearch-test", "cannot write"),
             (str(tmp_path / ("x" * 5000)), "File name too long")]
    if os.geteuid() != 0:  # (root writes into read-only folders)
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        found.append((str(locked / "db"), "cannot write"))
    return found


def test_egdb_folders_that_cannot_be_written_or_read(tmp_path: Path) -> None:
    # guards cmd_build's prepare_folder() and complete_pieces' guarded marker.exists()
    # (each was a NotADirectoryError, FileNotFoundError or "File name too long" traceback)
    for folder, words in bad_folders(tmp_path):
        start = time.monotonic()
        line = one_line_error(["egdb", "build", "checkers", "--pieces", "2", "--dir", folder])
        # named as the --dir, before any slice is solved (write_slice's own guard, the
        # safety net for a disk that fills during a build, says "database folder")
        assert words in line and "--dir" in line and time.monotonic() - start < 5, line
        for argv in (["verify", "checkers"], ["probe", "checkers", "--position", "B:W18:B14"]):
            line = one_line_error(["egdb", *argv, "--dir", folder])
            assert "database" in line, line


def test_prepare_folder_names_a_missing_parent(tmp_path: Path) -> None:
    with pytest.raises(files.OutputFolderError, match="does not exist"):
        files.prepare_folder(tmp_path / "missing" / "out", "--out", parents=False)
    assert files.prepare_folder(tmp_path / "made", "--out", parents=False).is_dir()
    assert files.prepare_folder(tmp_path / "a" / "b", "--dir").is_dir()


def test_egdb_writes_into_a_folder_that_went_bad_are_one_line(tmp_path: Path) -> None:
    # guards CheckersEndgameDatabase._writing() around write_slice and mark_complete (the
    # safety net behind prepare_folder: a folder removed or a disk filled during a build)
    from gamesearch.games.checkers.egdb import open_database
    from gamesearch.tablefiles import TableFileError

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    db = open_database(a_file)
    with pytest.raises(TableFileError, match="cannot write the database folder"):
        db.mark_complete(2)


# ----- gnubg-match: checked before a single game is played -----------------------------------
GOOD_ROW = {"agent": "star2:depth=2", "game": "backgammon", "gnubg_plies": 0, "seed": 1,
            "games": 1, "points": [1], "moves": 30, "error_total": 0.3, "error_rate": 0.01,
            "rating": "Advanced", "seconds": 20.0, "protocol_errors": []}


def row_text(**changes: object) -> str:
    row = {k: v for k, v in {**GOOD_ROW, **changes}.items() if v is not MISSING}
    return json.dumps(row)


MISSING = object()
RESUME_FILES: dict[str, tuple[bytes, str]] = {
    "garbage": (b"garbage\n", "not JSON"),
    "binary": (bytes(range(256)) * 4, "not a text file"),
    "list": (b"[1, 2]\n", "a JSON list, not an object"),
    "number": (b"3\n", "a JSON int, not an object"),
    "missing": (row_text(seed=MISSING).encode(), "'seed' is missing"),
    "mistyped-seed": (row_text(seed="1").encode(), "seed '1'"),
    "bool-games": (row_text(games=True).encode(), "games True"),
    "bad-points": (row_text(points=[1, "x"]).encode(), "points"),
    "too-many-points": (row_text(points=[1, 1]).encode(), "2 points for 1 games"),
    "nan-rate": (row_text(error_rate=0.01).replace("0.01", "NaN").encode(), "NaN"),
    "inf-total": (row_text(error_total=0.3).replace("0.3", "Infinity").encode(),
                  "Infinity"),
    "negative-rate": (row_text(error_rate=-1).encode(), "error_rate -1"),
    "second-line": ((row_text() + "\n{").encode(), "line 2"),
}


def gnubg_error(argv: list[str]) -> str:
    """``gnubg-match``'s one-line error, found within seconds: before gnubg is started (a
    passing check would start a real match, which the time bound would catch)."""
    start = time.monotonic()
    line = one_line_error(["gnubg-match", "--games", "1", *argv])
    assert time.monotonic() - start < 10, line
    return line


@pytest.mark.parametrize("name", sorted(RESUME_FILES))
def test_gnubg_match_resume_file_is_checked_before_playing(name: str, tmp_path: Path) -> None:
    # guards prepare()'s read_resume() before the first chunk: json.loads of garbage,
    # row["seed"] of a list, NaN in the pooled summary... were tracebacks after the match
    content, words = RESUME_FILES[name]
    path = tmp_path / "resume.jsonl"
    path.write_bytes(content)
    line = gnubg_error(["--jsonl", str(path)])
    assert words in line and "--jsonl" in line, line


@pytest.mark.parametrize("where, words", [
    ("/dev/zero", "not a text file"),
    ("{tmp}/no/such/folder/r.jsonl", "does not exist"),
    ("{tmp}", "it is a directory"),
    ("{tmp}/" + "x" * 5000, "File name too long"),
])
def test_gnubg_match_resume_file_that_cannot_be(where: str, words: str,
                                                 tmp_path: Path) -> None:
    # guards prepare()'s folder check and read_resume's capped reader
    line = gnubg_error(["--jsonl", where.format(tmp=tmp_path)])
    assert words in line, line


def test_gnubg_match_resume_of_other_chunk_sizes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "resume.jsonl"
    path.write_text(row_text(games=2, points=[1, -1]) + "\n")
    assert "resume with the same --games and --chunk" in gnubg_error(["--jsonl", str(path)])


def test_gnubg_match_out_folder(tmp_path: Path) -> None:
    # guards prepare()'s prepare_folder(args.out, "--out", parents=False): a file was a
    # traceback after the match, a missing parent was made silently
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    assert "is not a folder" in gnubg_error(["--out", str(a_file)])
    line = gnubg_error(["--out", str(tmp_path / "missing" / "run")])
    assert "the folder" in line and "missing" in line and "does not exist" in line
    assert not (tmp_path / "missing").exists()


def test_gnubg_match_refuses_a_person(tmp_path: Path) -> None:
    # guards prepare()'s agent.interactive check (a human agent read stdin while gnubg
    # waited on the socket)
    assert "unattended" in gnubg_error(["--agent", "human"])


# ----- the GTP client: every wait bounded -------------------------------------------------------
def python_engine(body: str) -> list[str]:
    """A stand-in engine: ``python -c`` running ``body`` (it must end by itself within a few
    seconds, so that a broken guard fails the test instead of hanging it)."""
    return [sys.executable, "-c", body]


TRICKLE = """
import sys, time
sys.stdin.readline()
print("= the start", flush=True)
for _ in range(50):  # a line every 0.1 s for 5 s, never the blank line that ends an answer
    time.sleep(0.1)
    print("more", flush=True)
"""
SPEW = """
import sys
sys.stdin.readline()
sys.stdout.write("= " + "x" * 200_000 + "\\n")
sys.stdout.write("= x\\n" * 200_000)
sys.stdout.flush()
"""


def test_gtp_client_refuses_a_program_that_echoes() -> None:
    # guards GTPClient.send's first-line check (line[:1] not in "=?"): /bin/cat echoed the
    # command, and the client waited for a blank line that never came
    cat = shutil.which("cat")
    if cat is None:
        pytest.skip("no cat here")
    client = GTPClient([cat], command_seconds=8.0)
    start = time.monotonic()
    try:
        with pytest.raises(GTPError, match="not a GTP answer"):
            client.send("protocol_version")
        assert time.monotonic() - start < 4
    finally:
        client.close()


def test_gtp_client_deadline_holds_for_the_whole_answer() -> None:
    # guards the deadline computed once per send (it was the timeout of each line, so an
    # engine that trickles lines was waited for as long as it trickled)
    client = GTPClient(python_engine(TRICKLE))
    start = time.monotonic()
    try:
        with pytest.raises(GTPError, match="within 1 s"):
            client.send("genmove b", timeout=1.0)
        assert time.monotonic() - start < 3.5
    finally:
        client.close()


def test_gtp_client_caps_lines_and_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # guards MAX_LINE_CHARS (readline's limit) and MAX_ANSWER_CHARS
    from gamesearch.games.go import gtp as gtp_protocol

    client = GTPClient(python_engine(SPEW))
    try:
        with pytest.raises(GTPError, match="longer than"):
            client.send("showboard", timeout=10.0)
    finally:
        client.close()
    monkeypatch.setattr(gtp_protocol, "MAX_LINE_CHARS", 1 << 20)
    monkeypatch.setattr(gtp_protocol, "MAX_ANSWER_CHARS", 300_000)
    client = GTPClient(python_engine(SPEW))
    try:
        with pytest.raises(GTPError, match="answer to 'showboard' is longer than 300000"):
            client.send("showboard", timeout=10.0)
    finally:
        client.close()


def test_match_against_an_echoing_gtp_agent_ends_at_once() -> None:
    cat = shutil.which("cat")
    if cat is None:
        pytest.skip("no cat here")
    start = time.monotonic()
    line = one_line_error(["match", "go:size=5", f"gtp:{cat}", "random", "--games", "1",
                           "--time-control", "2+0.1", "--quiet"])
    assert "not a GTP answer" in line and time.monotonic() - start < 20, line


# ----- the GTP engine: every line answered, nothing echoed whole ----------------------------
def gtp_engine() -> GTPEngine:
    return GTPEngine(io.StringIO(), "random", "go:size=5")


@pytest.mark.parametrize("line", [
    " " * 10_001 + "name",
    "\t" * 20_000 + "name",
    " " * 30_000,
    "#" + "x" * 20_000,
    "name " + "x" * 20_000,
])
def test_gtp_over_long_lines_get_one_answer(line: str) -> None:
    # guards handle()'s too_long answer before the empty-line skip (a long line of blanks
    # then a command was cut to blanks and got no answer: the controller waited for ever)
    answer = gtp_engine().handle(line + "\n")
    assert answer is not None and answer.startswith("? line too long"), answer
    assert answer.count("\n") == 2 and len(answer) < 200


@pytest.mark.parametrize("line", ["1" * 10_500 + " name", "7" * 9_000 + " name",
                                  "1" * 19 + " name"])
def test_gtp_over_long_ids_are_not_echoed_whole(line: str) -> None:
    # guards handle()'s MAX_ID_DIGITS check (the id was echoed whole: 10,000 digits back)
    answer = gtp_engine().handle(line + "\n")
    assert answer is not None and answer.startswith("? invalid id") and len(answer) < 200
    assert gtp_engine().handle("123456789012345678 name\n") == "=123456789012345678 gamesearch\n\n"


def test_gtp_reads_an_endless_line_in_pieces() -> None:
    # guards _stdin_lines' readline(MAX_LINE + 2) and the loop that drops the rest
    script = ("import sys, io\n"
              "from gamesearch.interfaces import gtp\n"
              "sys.stdin = io.TextIOWrapper(io.BytesIO(b' ' * 5_000_000 + b'name\\nname\\n'))\n"
              "print([len(x) for x in gtp._stdin_lines()])\n")
    import subprocess

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    from gamesearch.interfaces.gtp import MAX_LINE
    assert done.stdout.strip() == f"[{MAX_LINE + 2}, 5]"


def test_gtp_refuses_a_human_agent() -> None:
    # guards GTPEngine's agent.interactive check (a human agent read the protocol channel
    # as moves)
    line = one_line_error(["gtp", "--agent", "human", "--game", "go:size=5"])
    assert "standard input is the GTP channel" in line


@pytest.mark.parametrize("argv", [
    ["egdb", "count", "checkers", "--pieces", "٣"],
    ["egdb", "build", "checkers", "--pieces", "2", "--workers", "٢"],
    ["gnubg-match", "--games", "٣"],
    ["gnubg-match", "--seed", "1_0"],
    ["gnubg-match", "--move-time", "１"],
    ["gnubg-match", "--timeout", "1e400"],
])
def test_numbers_of_the_new_tools_are_ascii(argv: list[str]) -> None:
    # guards the type=whole_number / real_number / argtype() of egdb and gnubg-match
    # (type=int read "٣" as 3 pieces, 3 games)
    line = one_line_error(argv)
    assert "expected a" in line, line
