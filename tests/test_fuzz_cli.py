"""Fuzzing the command line, in process: every option of every command (issue 13).

Each example takes a cheap, valid invocation of one command and changes one of its inputs —
a positional argument, an option's value (arbitrary text; numbers that are NaN, infinite,
huge, negative or written in other scripts' digits; files that are binary, too large,
``/dev/zero``, a FIFO without a writer, a directory, standard input; results databases that
are foreign, damaged or hold another tournament), a flag — and checks the invariant of
:func:`fuzzing.check`. The options come from the parser itself, so a new option is fuzzed
as soon as it exists; a new command must be added to :data:`BASES` (or :data:`SKIPPED`).

Numbers that are valid but make a command long (``book --max-seconds 1e6``) are drawn only
up to the caps in :data:`CAPS`: the suite tests bad input, not patience.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import LIMIT, MAX_LINE, check, examples, number_texts, run_main, texts
from gamesearch import files
from gamesearch.argtypes import RANGES
from gamesearch.interfaces.cli import build_parser
from gamesearch.search import ALGORITHMS, LIMIT_KEYS, OPTION_READERS

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"

# ----- the commands ------------------------------------------------------------------------
#: A cheap, valid invocation of each command: positionals, then options (None: a flag).
#: ``{tmp}`` is the module's scratch directory.
BASES: dict[str, tuple[list[str], dict[str, str | None]]] = {
    "list": ([], {}),
    "play": (["tictactoe"], {"--first": "random", "--second": "random:seed=2", "--seed": "1",
                             "--time": "0.05"}),
    "analyze": (["tictactoe"], {"--algorithm": "alphabeta:depth=2"}),
    "solve": (["tictactoe"], {"--position": "x...o...."}),
    "book": (["connect4"], {"--plies": "1", "--max-seconds": "0.3", "--tt": "64k",
                            "--out": "{tmp}/book.bin"}),
    "trace": (["fig6.2"], {}),
    "match": (["tictactoe", "random", "random:seed=2"],
              {"--games": "2", "--time-control": "2+0.02", "--quiet": None}),
    "tournament": (["tictactoe"], {"--agents": "random random:seed=2 random:seed=3",
                                   "--games-per-pair": "1", "--time-control": "2+0.02",
                                   "--quiet": None}),
    "perft": (["chess"], {"--depth": "1"}),
    "epd": (["{tmp}/suite.epd"], {"--nodes": "300"}),
    "equilibrium": (["kuhn_poker"], {"--algorithm": "cfr+", "--iterations": "10",
                                     "--json": None}),
    "nash": ([], {"--matrix": "[[0,-1,1],[1,0,-1],[-1,1,0]]"}),
    "tune": (["chess"], {"--db": str(Path(__file__).parent / "data" / "chess"
                                     / "texel_games.sqlite"),
                         "--out": "{tmp}/weights.json", "--iterations": "3"}),
}
#: Commands not fuzzed here, and why.
SKIPPED = {
    "uci": "the UCI engine reads commands until quit; its own fuzz test drives it by pipes",
    "gtp": "the GTP engine reads commands until quit; tests/test_gtp.py fuzzes it by pipes",
    "web": "serves until stopped; tests/test_web_*.py drive the server and its inputs",
    "egdb": "nested sub-commands (build, verify, count, probe) this table cannot hold; "
            "tests/test_egdb_cli.py and tests/test_bad_input.py give each bad input, "
            "tests/test_fuzz_new_inputs.py fuzzes the database folders",
    "gnubg-match": "starts GNU Backgammon and plays it for minutes; "
                   "tests/test_gnubg_external.py and tests/test_bad_input.py give each bad "
                   "argument, tests/test_fuzz_new_inputs.py fuzzes the resume files",
}
#: Valid values of these options are drawn only up to the cap (seconds, games, entries...).
CAPS: dict[tuple[str, str], float] = {
    ("book", "max_seconds"): 0.5,
    ("book", "tt"): 1 << 20,
    ("epd", "time"): 0.1,
    ("epd", "nodes"): 3000,
    ("perft", "depth"): 2,
    ("match", "games"): 4,
    ("match", "workers"): 4,
    ("tournament", "games_per_pair"): 2,
    ("tournament", "workers"): 4,
    ("play", "time"): 0.1,
    ("equilibrium", "iterations"): 300,
    ("tune", "iterations"): 10,
}
#: Games a command may be pointed at and still finish quickly from its base invocation.
CHEAP_GAMES = {
    "play": ["tictactoe", "fig6.2", "fig6.4", "coinflip", "pig", "connect4", "chess",
             "othello"],
    "analyze": ["tictactoe", "fig6.2", "comp3200", "fig6.4", "coinflip", "chance-transform",
                "othello"],
    "solve": ["tictactoe", "fig6.2", "comp3200", "fig6.4", "coinflip", "pig", "connect4"],
    "book": ["connect4", "tictactoe"],
    "trace": ["fig6.2", "comp3200", "fig6.4", "coinflip", "chance-transform", "tictactoe"],
    "match": ["tictactoe", "connect4", "pig", "fig6.4", "chess"],
    "tournament": ["tictactoe", "connect4", "fig6.2"],
    "perft": ["chess", "tictactoe", "othello"],
    "equilibrium": ["kuhn_poker", "leduc_poker", "tictactoe", "ohhell"],
    "tune": ["chess"],
}
POSITIONS = {
    "tictactoe": ["x...o....", ".........", "xoxoxoxox", "xx.oo....", "xxxoo...."],
    "connect4": ["4455", "", "1212121", "44444444", "4" * 7],
    "chess": ["startpos", "8/8/8/8/8/8/8/K6k w - - 0 1",
              "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
              "startpos moves e2e4 e7e5", "8/8/8/8/8/8/8/8 w - - 0 1"],
    "fig6.2": ["A", "B", "root"],
    "pig": ["0-0-0-0", "19-19-0-0", "12-7-5-1r", "20-0-0-0"],
    "othello": ["-" * 27 + "OX------XO" + "-" * 27 + " X",  # the start
                "XXXXXXOXOOXXOOXXOOXOXXXXOOOXXXXXOOXXXOXXOOOOXXXXOO-OOXXXO----OXX O",  # a pass
                "X" * 27 + "XX------XX" + "-" * 27 + " O"],  # over
}
SPEC_DESTS = {"first", "second", "agent", "agents", "algorithm"}
INPUT_FILES = {"file", "openings", "book"}
OUTPUT_FILES = {"plot", "export_jsonl", "export_pgn", "out", "journal"}


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def test_every_command_is_fuzzed_or_skipped_for_a_reason() -> None:
    assert set(subparsers()) == set(BASES) | set(SKIPPED)


# ----- scratch files -----------------------------------------------------------------------
_counter = itertools.count()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The module's directory: a small EPD suite, a finished arena database to damage, a FIFO
    with no writer (given up after 0.3 s here)."""
    tmp = tmp_path_factory.mktemp("fuzz")
    lines = (DATA / "chess" / "wac.epd").read_text(encoding="utf-8").splitlines()[:2]
    (tmp / "suite.epd").write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = str(tmp / "arena.sqlite")
    out = run_main(["match", "tictactoe", "random", "random:seed=2", "--games", "2",
                    "--time-control", "2+0.02", "--quiet", "--db", db])
    assert out.code == 0, out.describe()
    foreign = sqlite3.connect(tmp / "foreign.sqlite")
    foreign.execute("CREATE TABLE games (name TEXT, price REAL)")
    foreign.execute("INSERT INTO games VALUES ('chess set', 30.0)")
    foreign.commit()
    foreign.close()
    os.mkfifo(tmp / "fifo")
    saved = files.IDLE_SECONDS
    files.IDLE_SECONDS = 0.3
    try:
        yield tmp
    finally:
        files.IDLE_SECONDS = saved


def _fresh(tmp: Path, suffix: str = "") -> Path:
    return tmp / f"f{next(_counter)}{suffix}"


def input_files(tmp: Path, lines: list[str]) -> st.SearchStrategy[tuple[str, bytes]]:
    """(path, standard input) for an option that reads a file."""
    def written(data: bytes) -> tuple[str, bytes]:
        path = _fresh(tmp, ".txt")
        path.write_bytes(data)
        return str(path), b""

    good = "\n".join(lines).encode()
    contents = st.one_of(
        st.binary(max_size=3000),
        texts(400).map(lambda t: t.encode("utf-8", "surrogateescape")),
        st.lists(st.sampled_from([*lines, "# comment", "", "\t", "\r", "\ufeff"]),
                 max_size=12).map(lambda ls: "\n".join(ls).encode()),
        st.tuples(st.just(good), st.binary(max_size=8)).map(lambda t: t[0] + t[1]),
        st.just(b"\xff\xfe" + good),
        st.just(b"x" * (files.MAX_TEXT_BYTES + 10)),
    )
    special = st.sampled_from(["/dev/zero", "/dev/null", str(tmp), str(tmp / "missing"),
                               str(tmp / "fifo"), "/proc/self/mem"]).map(lambda p: (p, b""))
    stdin = st.one_of(contents, st.just(good)).map(lambda data: ("-", data))
    return st.one_of(contents.map(written), special, stdin)


def output_files(tmp: Path, command: str) -> st.SearchStrategy[str]:
    places = [str(tmp), str(tmp / "no" / "such" / "dir" / "x")]
    if command != "book":  # (the book writes NAME.tmp beside its output: not in /dev)
        places += ["/dev/full", "/dev/null"]
    names = st.sampled_from([".html", ".svg", ".jsonl", ".pgn", ".bin", "", ".txt"]).map(
        lambda ext: str(_fresh(tmp, ext)))
    return st.one_of(names, st.sampled_from(places))


def databases(tmp: Path) -> st.SearchStrategy[str]:
    """A fresh file, the finished tournament, its copy damaged in the middle, another
    program's database, junk, a directory."""
    def damaged(junk: bytes) -> str:
        path = _fresh(tmp, ".sqlite")
        shutil.copy(tmp / "arena.sqlite", path)
        data = bytearray(path.read_bytes())
        middle = len(data) // 2
        data[middle:middle + len(junk)] = junk
        path.write_bytes(bytes(data))
        return str(path)

    def junk(data: bytes) -> str:
        path = _fresh(tmp, ".sqlite")
        path.write_bytes(data)
        return str(path)

    return st.one_of(
        st.just("").map(lambda _: str(_fresh(tmp, ".sqlite"))),
        st.just(str(tmp / "arena.sqlite")),
        st.binary(min_size=16, max_size=600).map(damaged),
        st.just(str(tmp / "foreign.sqlite")),
        st.binary(max_size=2000).map(junk),
        st.just(b"SQLite format 3\x00" + b"\x00" * 200).map(junk),
        st.sampled_from([str(tmp), ":memory:", "/dev/zero", str(tmp / "no" / "dir.sqlite")]),
    )


# ----- values by kind ----------------------------------------------------------------------
def specs(command: str) -> st.SearchStrategy[str]:
    """Agent and algorithm specs: real names and keys with hostile values, and junk. ``py:``
    and ``uci:`` only name harmless targets (they import and run code)."""
    names = st.sampled_from([*ALGORITHMS, "random", "solver", "human", "ID", " alphabeta "])
    keys = st.sampled_from([*LIMIT_KEYS, *OPTION_READERS, "seed", "book", "time", "x", ""])
    values = st.one_of(number_texts(), st.sampled_from(["1", "0", "on", "1M", "64k", "off",
                                                        "/dev/zero", str(TESTS)]))
    options = st.lists(st.one_of(st.tuples(keys, values).map("=".join), texts(10)),
                       max_size=4).map(",".join)
    harmless = st.sampled_from([
        "py:nosuchmodule:X", "py:json:loads", "py:math:pi", "py:", "py::", "py:a:b:c",
        "py:arena_agents:BrokenFactory", "uci:/nonexistent/engine", "uci:", "uci:/dev/null",
        "uci:/bin/false,elo=٣", "uci:x,threads=0", "uci:x,hash=nan"])
    return st.one_of(
        st.tuples(names, options).map(lambda t: f"{t[0]}:{t[1]}" if t[1] else t[0]),
        harmless, texts(30),
    )


def positions(game: str) -> st.SearchStrategy[str]:
    valid = POSITIONS.get(game, ["A"])
    edited = st.tuples(st.sampled_from(valid), st.integers(0, 80), texts(3)).map(
        lambda t: t[0][:t[1]] + t[2] + t[0][t[1]:])
    return st.one_of(st.sampled_from(valid), edited, texts(60),
                     st.just("4" * 100_000), st.text("xo.XO", max_size=12),
                     st.text("1234567890", max_size=50))


def value_for(command: str, action: argparse.Action, base_game: str, tmp: Path
              ) -> st.SearchStrategy[Any]:
    """What an option (or positional) gets: a string, a list of strings (``nargs``), or
    ``(path, stdin)`` for an input file."""
    dest = action.dest
    name = getattr(action.type, "__name__", "")
    if name in RANGES:
        return number_texts(RANGES[name], CAPS.get((command, dest)))
    if action.choices is not None and dest != "command":
        choices = [c for c in action.choices if not (dest == "backend" and c == "ray")]
        return st.one_of(st.sampled_from(choices), texts(12))
    if dest == "game":
        return st.one_of(st.sampled_from(CHEAP_GAMES.get(command, ["tictactoe"])), texts(20))
    if dest in ("position", "fen", "root"):
        return positions("chess" if dest == "fen" else base_game)
    if dest in SPEC_DESTS:
        return specs(command)
    if dest in INPUT_FILES:
        lines = {"openings": ["5 1", "xo.......", "9", "5 5", "1 4 2 5 3"],
                 "book": []}.get(dest, POSITIONS.get(base_game, ["A"]))
        return input_files(tmp, lines)
    if dest == "db":
        return databases(tmp)
    if dest in OUTPUT_FILES:
        return output_files(tmp, command)
    if dest == "file":  # epd's positional
        return input_files(tmp, (DATA / "chess" / "wac.epd").read_text().splitlines()[:3])
    if dest == "time_control":
        return st.one_of(st.tuples(number_texts(), number_texts()).map("+".join),
                         number_texts(), texts(20))
    if dest == "sprt":
        return st.one_of(st.tuples(number_texts(), number_texts()).map(",".join), texts(20))
    if dest == "ray_address":
        return st.one_of(texts(30), st.sampled_from(["127.0.0.1:1", "auto", "ray://x:1"]))
    return texts(40)


# ----- mutation ----------------------------------------------------------------------------
def _actions(command: str) -> list[argparse.Action]:
    return [a for a in subparsers()[command]._actions
            if not isinstance(a, argparse._HelpAction | argparse._VersionAction)]


def _argv(command: str, tmp: Path, action: argparse.Action | None, value: Any,
          mode: str) -> tuple[list[str], bytes]:
    positionals, options = BASES[command]
    positionals = [p.format(tmp=tmp) for p in positionals]
    opts = {k: (v.format(tmp=tmp) if v is not None else None) for k, v in options.items()}
    stdin = b""
    if isinstance(value, tuple):
        value, stdin = value
    if action is not None and not action.option_strings:  # a positional
        index = [a.dest for a in _actions(command) if not a.option_strings].index(action.dest)
        values = value if isinstance(value, list) else [value]
        positionals = positionals[:index] + values + positionals[index + 1:]
        action = None
    argv = [command, *positionals]
    flag = action.option_strings[-1] if action is not None else None
    if flag is not None:
        for alias in action.option_strings:  # type: ignore[union-attr]
            opts.pop(alias, None)
        if flag in ("--depth", "--time", "--nodes") and command == "analyze":
            opts.pop("--algorithm", None)  # (at most one limit; the base's is in the spec)
    for key, val in opts.items():
        argv += [key] if val is None else [key, *val.split(" ")] if key == "--agents" else [
            key, val]
    if action is not None and flag is not None:
        if action.nargs == 0:
            if mode != "drop":
                argv.append(flag)
        elif mode == "bare":
            argv.append(flag)  # no value at all
        elif mode == "twice":
            argv += [flag, value if isinstance(value, str) else value[0], flag,
                     value if isinstance(value, str) else value[0]]
        elif isinstance(value, list):
            argv += [flag, *value]
        else:
            argv.append(f"{flag}={value}" if value.startswith("-") else flag)
            if not value.startswith("-"):
                argv.append(value)
    return argv, stdin


@st.composite
def invocations(draw: st.DrawFn, command: str, tmp: Path) -> tuple[list[str], bytes]:
    """One change to the command's base invocation."""
    actions = _actions(command)
    base_game = BASES[command][0][0] if BASES[command][0] else "tictactoe"
    if not actions or draw(st.integers(0, 12)) == 0:
        extra = draw(st.lists(texts(20), min_size=1, max_size=3))  # stray arguments
        argv, stdin = _argv(command, tmp, None, None, "set")
        return argv + extra, draw(st.binary(max_size=200))
    action = draw(st.sampled_from(actions))
    mode = draw(st.sampled_from(["set"] * 8 + ["bare", "twice", "drop"]))
    if action.nargs == 0:
        return _argv(command, tmp, action, None, mode)
    value = draw(value_for(command, action, base_game, tmp))
    if action.nargs in ("+", "*") or isinstance(action, argparse._AppendAction):
        more = draw(st.lists(value_for(command, action, base_game, tmp), max_size=3))
        value = [value if isinstance(value, str) else value[0],
                 *(m if isinstance(m, str) else m[0] for m in more)]
    argv, stdin = _argv(command, tmp, action, value, mode)
    if command in ("play", "solve") and not stdin:
        stdin = draw(st.one_of(st.just(b""), st.binary(max_size=100),
                               st.sampled_from([b"5\nq\n", b"zz\n1\n2\n3\n", b"q\n"])))
    return argv, stdin


def fuzz(command: str, n: int) -> Any:
    """A test that runs ``n`` (scaled) changed invocations of ``command``."""

    @examples(n)
    @given(data=st.data())
    def test(scratch: Path, data: st.DataObject) -> None:
        argv, stdin = data.draw(invocations(command, scratch), label="invocation")
        check(run_main(argv, stdin))

    test.__name__ = f"test_fuzz_{command}"
    return test


test_fuzz_list = fuzz("list", 10)
test_fuzz_play = fuzz("play", 100)
test_fuzz_analyze = fuzz("analyze", 150)
test_fuzz_solve = fuzz("solve", 120)
test_fuzz_book = fuzz("book", 40)
test_fuzz_trace = fuzz("trace", 60)
test_fuzz_match = fuzz("match", 100)
test_fuzz_tournament = fuzz("tournament", 60)
test_fuzz_perft = fuzz("perft", 60)
test_fuzz_epd = fuzz("epd", 60)
test_fuzz_equilibrium = fuzz("equilibrium", 80)
test_fuzz_nash = fuzz("nash", 60)
test_fuzz_tune = fuzz("tune", 30)


# ----- through real processes --------------------------------------------------------------
ENVIRONMENTS = [
    {},
    {"PYTHONIOENCODING": "utf-8:strict"},
    {"PYTHONIOENCODING": "ascii:strict", "LC_ALL": "C"},
]


def _bytes(arg: str) -> bytes:
    try:
        return arg.encode("utf-8", "surrogateescape")  # "\udcff" -> the byte 0xff
    except UnicodeEncodeError:
        return arg.encode("utf-8", "surrogatepass")  # other lone surrogates: invalid UTF-8


@examples(30)
@given(data=st.data())
def test_fuzz_through_subprocesses(scratch: Path, data: st.DataObject) -> None:
    """A smaller sample as a user meets it: a real process, argv bytes that are not UTF-8,
    strict and ASCII-only encodings of the standard streams."""
    command = data.draw(st.sampled_from(sorted(BASES)), label="command")
    argv, stdin = data.draw(invocations(command, scratch), label="invocation")
    env = {**os.environ, **data.draw(st.sampled_from(ENVIRONMENTS), label="environment"),
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "gamesearch", *map(_bytes, argv)],
                          input=stdin, capture_output=True, env=env, timeout=LIMIT + 20)
    err = proc.stderr.decode("utf-8", "replace")
    shown = f"{argv!r:.400} -> {proc.returncode}\n{err[-3000:]}"
    assert proc.returncode in (0, 2), shown
    assert "Traceback" not in err, shown
    lines = err.splitlines()
    assert all(len(line) <= MAX_LINE for line in lines if line.startswith("gamesearch:")), shown
    if proc.returncode == 2:
        assert lines and lines[-1].startswith("gamesearch: "), shown
