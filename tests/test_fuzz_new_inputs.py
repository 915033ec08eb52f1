"""Fuzzing the notations and files of the new games and tools (issue 35, item 6): positions,
moves and game options written with other scripts' digits and numbers of every shape; game
records for ``play --load``; endgame-database folders; ``gnubg-match`` resume files; GTP
command lines. Each example is either taken or refused with a one-line
:class:`~gamesearch.errors.GameError` (``?`` on GTP), within a bounded time, never a
traceback.

Seeded and bounded like the other fuzz suites (:mod:`fuzzing`: the same examples every run,
``GAMESEARCH_FUZZ=4`` for more); the games come from the registry, so a new game is fuzzed
without editing this file.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_runner import cli
from fuzzing import NASTY_NUMBERS, check, examples, number_texts, run_main, texts
from gamesearch.errors import MAX_MESSAGE_CHARS, GameError
from gamesearch.game import CHANCE
from gamesearch.games import GAMES, game_options, get_game
from gamesearch.interfaces import gnubg_match
from gamesearch.interfaces.gtp import MAX_LINE, GTPEngine
from test_fuzz_notation import reachable_states

#: One parse, one game built, one GTP line: at most this many seconds.
SECONDS = 2.0
#: Digits of other scripts, superscripts and fractions: ``isdigit()`` or ``int()`` takes some.
ODD_DIGITS = ["²", "³", "¹", "٣", "١٠", "１", "௫", "Ⅻ", "½", "⁰", "𝟗", "߁"]
_DIGITS = re.compile(r"[0-9]+")


def bounded(exc: GameError) -> None:
    text = str(exc)
    assert "\n" not in text and len(text) <= MAX_MESSAGE_CHARS, text[:2000]


def with_numbers_replaced(samples: list[str]) -> st.SearchStrategy[str]:
    """A sample with one of its numbers (a dealer, a square, a count) written otherwise:
    odd digits, NaN, huge, negative, empty."""
    def replace(args: tuple[str, int, str]) -> str:
        text, k, new = args
        runs = list(_DIGITS.finditer(text))
        if not runs:
            return new + text
        m = runs[k % len(runs)]
        return text[:m.start()] + new + text[m.end():]

    return st.tuples(st.sampled_from(samples), st.integers(0, 50),
                     st.sampled_from(ODD_DIGITS + NASTY_NUMBERS)).map(replace)


def dealt_states(name: str) -> list[Any]:
    """States along a few random lines, past the deals (chance) too."""
    game = get_game(name)
    found = []
    for seed in range(3):
        found += reachable_states(game, count=12, seed=seed)
    return found


# ----- positions, moves and options of every game --------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_numbers_in_positions_and_moves(name: str) -> None:
    game = get_game(name)
    states = dealt_states(name)
    positions = sorted({game.format_state(s) for s in states})
    movers = [s for s in states if not game.is_terminal(s) and game.to_move(s) != CHANCE]
    moves = sorted({t for s in movers for t in game.legal_action_strings(s)}) or ["1"]

    @examples(40)
    @given(position=with_numbers_replaced(positions), move=with_numbers_replaced(moves),
           index=st.integers(0, max(0, len(movers) - 1)))
    def run(position: str, move: str, index: int) -> None:
        start = time.monotonic()
        try:
            game.parse_state(position)
        except GameError as exc:
            bounded(exc)
        if movers:
            state = movers[index]
            try:
                action = game.parse_action(state, move)
            except GameError as exc:
                bounded(exc)
            else:
                assert action in list(game.actions(state)), (move, action)
        assert time.monotonic() - start < SECONDS

    run()


def _safe_options(name: str) -> bool:
    try:
        return bool(_fuzzed_options(name))
    except GameError:  # an optional dependency is missing: the game is not offered
        return False


def option_values(option: Any) -> st.SearchStrategy[str]:
    if option.type in (int, float):
        return number_texts()
    if option.type is bool:
        return st.one_of(st.sampled_from(["0", "1", "yes", "²", "٣", "nan", ""]), texts(8))
    words = list(option.range) if isinstance(option.range, tuple) else ["x"]
    return st.one_of(st.sampled_from([str(w) for w in words]), texts(20),
                     with_numbers_replaced([str(w) for w in words]))


def _fuzzed_options(name: str) -> list[Any]:
    return [o for o in game_options(name) if o.name != "egdb"]  # (a folder: below)


#: the registry's games that take options (the others have none to fuzz)
WITH_OPTIONS = [name for name in sorted(GAMES) if _safe_options(name)]


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_game_options(name: str) -> None:
    options = _fuzzed_options(name)
    assert options

    @examples(40)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        option = data.draw(st.sampled_from(options))
        value = data.draw(option_values(option))
        if "," in value or "=" in value:  # (the spec's own separators: another option)
            value = value.replace(",", "").replace("=", "")
        start = time.monotonic()
        try:
            get_game(f"{name}:{option.name}={value}")
        except GameError as exc:
            bounded(exc)
        assert time.monotonic() - start < SECONDS

    run()


# ----- game records for play --load -------------------------------------------------------------
def recorded_games() -> Iterator[tuple[str, bytes]]:
    """(game spec, a record of a short random game) for each game with a record format."""
    for name in sorted(GAMES):
        game = get_game(name)
        record = game.game_record()
        if record is None:
            continue
        if "size" in {o.name for o in game_options(name)}:
            name, game = f"{name}:size=5", get_game(f"{name}:size=5")
            record = game.game_record()
        rng = random.Random(1)
        state, moves = game.initial_state(), []
        while len(moves) < 10 and not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                break
            action = rng.choice(list(game.actions(state)))
            moves.append(action)
            state = game.result(state, action)
        yield name, record.write(game.initial_state(), moves, ["a", "b"])


RECORDS = list(recorded_games())
RECORD_JUNK = [b"zz", b"tt", b"[", b"]", b"(", b")", b";", b"AB[zz]", b"AE[aa]", b"PL[x]",
               b"SZ[0]", b"SZ[99]", b"KM[nan]", b"KM[1e999]", b"HA[x]", b"B[]", b"W[zz]",
               b"\xff", b"\x00", b"CA[foo]", "²".encode(), "٣".encode(), b"9" * 5000]


def mutated(data: bytes) -> st.SearchStrategy[bytes]:
    def edit(args: tuple[int, int, bytes]) -> bytes:
        at, cut, junk = args
        at %= len(data) + 1
        return data[:at] + junk + data[at + cut:]

    return st.one_of(
        st.just(data),
        st.tuples(st.integers(0, 10**6), st.integers(0, 6),
                  st.one_of(st.sampled_from(RECORD_JUNK), st.binary(max_size=6))).map(edit),
        st.binary(max_size=200))


@pytest.mark.skipif(not RECORDS, reason="no game with a record format (sgfmill missing?)")
@pytest.mark.parametrize("spec, data", RECORDS, ids=[s for s, _ in RECORDS])
def test_records_read_or_refused(spec: str, data: bytes, tmp_path: Path) -> None:
    game = get_game(spec)
    record = game.game_record()
    path = tmp_path / "record"

    @examples(60)
    @given(junk=mutated(data))
    def run(junk: bytes) -> None:
        start = time.monotonic()
        try:
            record.read(junk)
        except GameError as exc:
            bounded(exc)
        assert time.monotonic() - start < SECONDS

    run()

    @examples(6)
    @given(junk=mutated(data))
    def through_the_cli(junk: bytes) -> None:  # (a few: the whole command, game played)
        path.write_bytes(junk)
        check(run_main(["play", spec, "--load", str(path), "--first", "random", "--second",
                        "random", "--seed", "1"], limit=20))

    through_the_cli()


# ----- endgame-database folders -----------------------------------------------------------------
def json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                        st.floats(allow_nan=True, allow_infinity=True), texts(10))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(texts(5), inner, max_size=3)),
        max_leaves=6)


def egdb_games() -> list[str]:
    return sorted(n for n in GAMES if "egdb" in {o.name for o in game_options(n)})


@pytest.mark.parametrize("name", egdb_games())
def test_database_folders(name: str, tmp_path: Path) -> None:
    built = tmp_path / "built"
    code, _, err = cli(["egdb", "build", name, "--pieces", "2", "--dir", str(built)])
    assert code == 0, err
    (marker,) = built.glob("*/egdb.json")
    good = json.loads(marker.read_text())

    @examples(40)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["field", "object", "bytes"]))
        if kind == "field":
            key = data.draw(st.sampled_from(sorted(good)))
            text = json.dumps({**good, key: data.draw(json_values())})
            marker.write_text(text)
        elif kind == "object":
            marker.write_text(json.dumps(data.draw(json_values())))
        else:
            marker.write_bytes(data.draw(mutated(json.dumps(good).encode())))
        argv = data.draw(st.sampled_from([["verify", name], ["probe", name, "--position",
                                                             "B:W18:B14"]]))
        check(run_main(["egdb", *argv, "--dir", str(built)], limit=20))

    run()
    marker.write_text(json.dumps(good))

    @examples(10)
    @given(folder=st.one_of(texts(30), st.sampled_from(
        ["/proc/x", "/proc", "/dev/null", str(marker), "x" * 5000, "/" * 3, "-"])))
    def folders(folder: str) -> None:
        if not folder.strip() or folder.startswith("-"):
            folder = "./" + folder
        where = folder if folder.startswith("/") or folder.startswith("x" * 5000) \
            else str(tmp_path / "f" / folder)
        check(run_main(["egdb", "verify", name, "--dir", where], limit=20))
        check(run_main(["egdb", "build", name, "--pieces", "1", "--dir", where], limit=20))

    folders()


# ----- gnubg-match resume files -----------------------------------------------------------------
GOOD_ROW = {"agent": "star2:depth=2", "game": "backgammon", "gnubg_plies": 0, "seed": 1,
            "games": 1, "points": [1], "moves": 30, "error_total": 0.3, "error_rate": 0.01,
            "rating": "Advanced", "seconds": 20.0, "protocol_errors": []}


def test_resume_files(tmp_path: Path) -> None:
    path = tmp_path / "resume.jsonl"
    args = argparse.Namespace(game="backgammon", agent="random", move_time=None,
                              jsonl=path, out=None, gnubg_plies=0)

    @examples(80)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["field", "drop", "object", "bytes", "constant"]))
        row: Any = dict(GOOD_ROW)
        if kind == "field":
            row[data.draw(st.sampled_from(sorted(row)))] = data.draw(json_values())
        elif kind == "drop":
            del row[data.draw(st.sampled_from(sorted(row)))]
        elif kind == "object":
            row = data.draw(json_values())
        text = json.dumps(row).encode()
        if kind == "bytes":
            text = data.draw(mutated(text))
        elif kind == "constant":
            text = text.replace(b"0.01", data.draw(st.sampled_from(
                [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-0.0"])))
        path.write_bytes(text + b"\n" + data.draw(st.sampled_from([b"", text, b"{"])))
        start = time.monotonic()
        try:
            rows = gnubg_match.prepare(args)
        except GameError as exc:
            bounded(exc)
        else:  # a row taken is a row the summary can use
            for taken in rows.values():
                assert gnubg_match.pooled_summary([taken])
        assert time.monotonic() - start < SECONDS

    run()


# ----- GTP command lines --------------------------------------------------------------------------
def gtp_lines() -> st.SearchStrategy[str]:
    commands = ["name", "play b C3", "genmove w", "boardsize 5", "komi 6.5", "undo",
                "known_command name", "loadsgf /dev/zero", "time_left b 10 0"]
    fill = st.sampled_from([" ", "\t", "1", "x", "#", "\x00", "\x7f", "é", "²"])
    long_part = st.tuples(fill, st.integers(MAX_LINE - 10, MAX_LINE + 10)).map(
        lambda t: t[0] * t[1])
    return st.one_of(
        st.tuples(st.one_of(st.just(""), long_part, texts(5)), st.sampled_from(commands),
                  st.one_of(st.just(""), long_part, texts(5))).map(
            lambda t: f"{t[0]}{t[1]} {t[2]}"),
        st.tuples(st.integers(0, 10**30).map(str) | st.sampled_from(["1" * 19, "0", "٣"])
                  | st.integers(1, MAX_LINE + 100).map(lambda n: "7" * n),  # ids of any length
                  st.sampled_from(commands)).map(" ".join),
        texts(60))


def test_gtp_lines() -> None:
    engine = GTPEngine(io.StringIO(), "random", "go:size=5")

    @examples(150)
    @given(line=gtp_lines())
    def run(line: str) -> None:
        start = time.monotonic()
        answer = engine.handle(line + "\n")
        assert time.monotonic() - start < SECONDS
        cleaned = "".join(c for c in line if c >= " " and c != "\x7f").split("#")[0]
        if cleaned.strip() or len(line) > MAX_LINE:
            assert answer is not None, repr(line[:100])  # every command gets its answer
        if answer is None:
            return
        assert answer[0] in "=?" and answer.endswith("\n\n")
        assert len(answer) < MAX_MESSAGE_CHARS + 40, answer[:300]  # nothing echoed whole
        assert "internal error" not in answer, answer[:300]
        if answer[0] == "?":
            assert answer.count("\n") == 2 and len(answer) < MAX_MESSAGE_CHARS + 40, \
                answer[:300]

    run()

