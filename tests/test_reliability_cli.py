"""The invocations issue 13 reported, each now a one-line message and exit status 2 (or a
clean stop within its limit), plus the helpers that fix their classes: the numeric ranges of
:mod:`gamesearch.argtypes`, the guarded reading of :mod:`gamesearch.files`, bounded
messages (:func:`gamesearch.errors.one_line`)."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from fuzzing import check, run_main
from gamesearch import files
from gamesearch.argtypes import RANGES, option_value
from gamesearch.errors import ECHO_CHARS, GameError, InvalidLimitError, one_line
from gamesearch.search import parse_spec


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        # 1. numbers out of range, NaN, infinity, other scripts' digits, a key given twice
        (["analyze", "tictactoe", "--algorithm", "id:tt=inf", "--depth", "2"],
         "table size 'inf'"),
        (["match", "tictactoe", "random", "random", "--grace", "99999999999999999999999"],
         "from 0 to 3,600"),
        (["match", "tictactoe", "random", "random", "--time-control", "1e308+1e308"],
         "time control '1e308+1e308'"),
        (["book", "connect4", "--tt", "99999999999999999999999"], "to 2^28"),
        (["analyze", "tictactoe", "--algorithm", "id:aspiration=nan"], "aspiration='nan'"),
        (["analyze", "tictactoe", "--algorithm", "id:soft_share=nan"], "soft_share='nan'"),
        (["match", "tictactoe", "random", "random", "--sprt", "0,inf"], "--sprt '0,inf'"),
        (["epd", "x.epd", "--hash", "99999999999999"], "from 1 to 4,096"),
        (["analyze", "tictactoe", "--algorithm", "alphabeta:depth=2,depth=3"],
         "option 'depth' given twice"),
        (["analyze", "tictactoe", "--depth", "٣"], "'٣': expected a whole number"),
        (["analyze", "tictactoe", "--depth", "10001"], "from 1 to 10,000"),
        (["match", "tictactoe", "random:seed=²", "random"], "option seed='²'"),
        (["match", "tictactoe", "uci:x,elo=٣", "random"], "option elo='٣'"),
        # 2. files that are not UTF-8 text, or never end
        (["solve", "tictactoe", "--file", "/dev/zero"], "is not a text file"),
        (["match", "tictactoe", "random", "random", "--openings", "/dev/zero"],
         "is not a text file"),
        (["analyze", "connect4", "--book", "/dev/zero"], "is too large"),
        # 4. a schedule too large to build
        (["match", "tictactoe", "random", "random", "--games", "99999999999999999999999"],
         "from 1 to 1,000,000"),
        # 6. agents that only the arena runs; an input quoted back in full
        (["play", "tictactoe", "--first", "uci:/bin/cat"], "agents play in the arena only"),
        (["analyze", "tictactoe", "--position", "x" * 100_000], "xxx…': expected nine"),
        (["analyze", "tictactoe", "--algorithm", "q" * 100_000], "qqq…'; known:"),
    ],
)
def test_the_reported_inputs_are_clear_errors(argv: list[str], needle: str) -> None:
    outcome = run_main([*argv, *(["--quiet"] if argv[0] == "match" else [])])
    check(outcome)
    assert outcome.code == 2
    last = outcome.stderr.strip().splitlines()[-1]
    assert needle in last, last
    assert len(last) < 400


def test_files_that_are_not_text_are_refused_by_every_reader(tmp_path: Path) -> None:
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"4455\n\xff\xfe\x00junk\n")
    for argv in (["solve", "connect4", "--file", str(binary)],
                 ["epd", str(binary), "--nodes", "10"],
                 ["match", "tictactoe", "random", "random", "--quiet", "--openings",
                  str(binary)]):
        outcome = run_main(argv)
        check(outcome)
        assert outcome.code == 2 and "is not a text file" in outcome.stderr, outcome.describe()
    big = tmp_path / "big.txt"
    big.write_bytes(b"4455\n" * (files.MAX_TEXT_BYTES // 5 + 1))
    outcome = run_main(["solve", "connect4", "--file", str(big)])
    assert outcome.code == 2 and "is too large" in outcome.stderr


def test_standard_input_and_fifos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = run_main(["solve", "tictactoe", "--file", "-"], stdin=b"x...o....\n\xff\n")
    assert outcome.code == 2 and "offset 10" in outcome.stderr
    lines = (Path(__file__).parent / "data" / "chess" / "wac.epd").read_bytes()
    outcome = run_main(["epd", "-", "--nodes", "50", "--limit", "1"], stdin=lines)
    assert outcome.code == 0 and "solved" in outcome.stdout, outcome.describe()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(files, "IDLE_SECONDS", 0.5)
    start = time.monotonic()
    outcome = run_main(["solve", "tictactoe", "--file", str(fifo)])  # no writer, ever
    assert outcome.code == 2 and "nothing to read for 0.5 s" in outcome.stderr
    assert time.monotonic() - start < 5

    def writer() -> None:
        with open(fifo, "wb") as fh:
            fh.write(b"x...o....\n")

    thread = threading.Thread(target=writer)
    thread.start()
    outcome = run_main(["solve", "tictactoe", "--file", str(fifo)])  # a writer: read it
    thread.join()
    assert outcome.code == 0 and "x...o...." in outcome.stdout, outcome.describe()


def test_an_epd_line_without_bm_or_am_is_not_counted_as_solved(tmp_path: Path) -> None:
    suite = tmp_path / "s.epd"
    suite.write_text('8/8/8/8/8/8/8/K6k w - - id "no target";\n', encoding="utf-8")
    outcome = run_main(["epd", str(suite), "--nodes", "50"])
    assert outcome.code == 2 and "no bm or am operation" in outcome.stderr


def test_a_crafted_book_move_is_never_played(tmp_path: Path) -> None:
    from gamesearch.games import get_game
    from gamesearch.games.connect4.book import OpeningBook, canonical

    game = get_game("connect4")
    state = game.parse_state("4444")
    key, _ = canonical(state)
    path = tmp_path / "crafted.bin"
    OpeningBook.from_entries({key: (1, 7, True)}).save(path)  # column 8: no such column
    outcome = run_main(["analyze", "connect4", "--position", "4444", "--book", str(path)])
    assert outcome.code == 2 and "column 8, which is not legal" in outcome.stderr
    full = game.parse_state("444444")
    OpeningBook.from_entries({canonical(full)[0]: (1, 3, True)}).save(path)  # a full column
    outcome = run_main(["analyze", "connect4", "--position", "444444", "--book", str(path)])
    assert outcome.code == 2 and "column 4, which is not legal" in outcome.stderr


def test_book_max_seconds_stops_inside_a_solve(tmp_path: Path) -> None:
    from gamesearch.games.connect4 import compiled

    if not compiled.available():
        pytest.skip("the book needs the compiled solver (numba)")
    compiled.solve_fast("4455")  # (compiled once, outside the measured time)
    start = time.monotonic()
    outcome = run_main(["book", "connect4", "--plies", "1", "--max-seconds", "1",
                        "--out", str(tmp_path / "b.bin")])
    elapsed = time.monotonic() - start
    check(outcome)
    assert outcome.code == 0 and "stopped on --max-seconds" in outcome.stderr
    assert elapsed < 1 + 5, elapsed  # the empty board alone takes minutes (slack: a loaded CI)


def test_ranges_refuse_what_python_would_accept() -> None:
    assert int("٣") == 3 and float("１") == 1.0  # Python's own view
    for key, text in [("depth", "٣"), ("time", "１"), ("time", "nan"), ("time", "inf"),
                      ("time", "1e999"), ("nodes", "1_000"), ("depth", "2.0"),
                      ("book_tt", "inf"), ("seed", "9" * 20), ("grace", "-1")]:
        with pytest.raises(InvalidLimitError):
            option_value(key, text)
    assert option_value("book_tt", "1M") == 1 << 20 and option_value("time", ".5") == 0.5
    assert option_value("depth", " 7 ") == 7
    for name, rng in RANGES.items():  # every range says what it takes
        assert rng.describe().startswith(("a whole number", "a number")), name


def test_the_command_line_ranges_are_the_limits_ranges() -> None:
    from gamesearch.search.control import MAX_DEPTH_LIMIT, MAX_NODES, MAX_SECONDS

    assert RANGES["depth"].high == MAX_DEPTH_LIMIT and RANGES["nodes"].high == MAX_NODES
    assert RANGES["time"].high == MAX_SECONDS


def test_spec_keys_are_checked_and_may_not_repeat() -> None:
    assert parse_spec("alphabeta:depth=6,tt=1M")[0] == "alphabeta"
    with pytest.raises(InvalidLimitError, match="given twice"):
        parse_spec("id:tt=1M,TT=2M")
    with pytest.raises(GameError, match="unknown algorithm 'uci'"):
        parse_spec("uci:/bin/cat")


def test_messages_are_one_bounded_line() -> None:
    long = "z" * 100_000
    text = one_line(f"illegal move {long!r}; legal moves: 1 2\nsecond line")
    assert "\n" not in text and "legal moves: 1 2" in text
    assert len(text) < ECHO_CHARS + 60
    assert len(str(GameError("x" * 5000))) <= 1000


def test_the_console_script_exits_2_on_bad_input() -> None:
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "gamesearch", "analyze", "tictactoe",
                           "--depth", "٣"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_a_program_that_is_not_a_uci_engine_is_named_with_the_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("chess")
    from gamesearch.arena import engines as uci

    monkeypatch.setattr(uci, "START_SECONDS", 1.0)
    outcome = run_main(["match", "chess", "uci:/bin/cat", "random", "--games", "1", "--quiet"])
    check(outcome)
    assert outcome.code == 2
    assert "'/bin/cat' did not answer 'uci' with 'uciok' within 1 s" in outcome.stderr
    assert "Loop" not in outcome.stderr and "asyncio" not in outcome.stderr  # no stray line
    outcome = run_main(["match", "chess", "uci:/nonexistent/engine", "random", "--quiet"])
    assert outcome.code == 2 and "did not start: " in outcome.stderr
