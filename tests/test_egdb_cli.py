"""The ``gamesearch egdb`` commands and the generic slice scheduler (arena/tables.py):
builds on one process, on a pool of two and on Ray give the same files byte for byte; a
build resumes slice by slice; probes, counts and verification from the command line."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from gamesearch.arena.tables import build_tables
from gamesearch.games.checkers.egdb import CheckersEndgameDatabase, open_database
from gamesearch.interfaces.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((folder / "checkers").glob("*.*")) if p.suffix != ".json"}


def test_one_process_and_a_pool_of_two_build_the_same_files(tmp_path: Path) -> None:
    code, text = run("egdb", "build", "checkers", "--pieces", "3", "--dir",
                     str(tmp_path / "one"), "--json")
    assert code == 0
    report = json.loads(text)
    assert report["positions"] == sum(r["positions"] for r in report["reports"]) > 260_000
    assert run("egdb", "build", "checkers", "--pieces", "3", "--dir", str(tmp_path / "two"),
               "--workers", "2")[0] == 0
    one, two = digests(tmp_path / "one"), digests(tmp_path / "two")
    assert len(one) == 2 * report["slices"] and one == two


def test_ray_builds_the_same_files(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray (the ray extra) runs the slices as tasks")
    build_tables(open_database(tmp_path / "one"), 2)
    build_tables(open_database(tmp_path / "ray"), 2, workers=2, backend="ray")
    assert digests(tmp_path / "one") == digests(tmp_path / "ray")


def test_a_build_resumes_slice_by_slice(tmp_path: Path) -> None:
    class Interrupt(Exception):
        pass

    built: list[Any] = []

    def stop_after_five(progress: Any) -> None:
        built[:] = progress.reports
        if len(progress.reports) == 5:
            raise Interrupt

    db = open_database(tmp_path)
    with pytest.raises(Interrupt):
        build_tables(db, 2, progress=stop_after_five)
    assert not (tmp_path / "checkers" / "egdb.json").exists()  # not complete
    assert not list((tmp_path / "checkers").glob("*.part"))
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "checkers").iterdir()}
    state = build_tables(open_database(tmp_path), 2)
    assert state.skipped == 5 and len(state.reports) == state.slices_total - 5
    after = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "checkers").iterdir()}
    assert all(after[name] == t for name, t in before.items())  # the five were kept
    assert open_database(tmp_path).pieces == 2


def test_probe_count_verify_from_the_command_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(tmp_path)
    assert run("egdb", "build", "checkers", "--pieces", "2", "--dir", folder)[0] == 0
    code, text = run("egdb", "probe", "checkers", "--dir", folder, "--position",
                     "B:WK32:BK1", "--json")
    assert code == 0 and json.loads(text) == {"position": "B:WK32:BK1", "value": "draw",
                                              "plies": None, "moves": None}
    code, text = run("egdb", "probe", "checkers", "--dir", folder, "--position", "W:W:BK1")
    assert code == 0 and text.startswith("loss for the side to move in 0 plies")
    code, text = run("egdb", "count", "checkers", "--pieces", "8", "--json")
    assert json.loads(text)["total"] == 443_748_401_247
    code, text = run("egdb", "verify", "checkers", "--dir", folder, "--json")
    assert code == 0 and json.loads(text)["wrong"] == 0
    db = CheckersEndgameDatabase(folder)
    key = (0, 1, 0, 1, -1, -1)
    codes = db.load_codes(key).copy()
    codes[codes > 0] += 2
    db.write_slice(key, codes)
    assert run("egdb", "verify", "checkers", "--dir", folder)[0] == 2
    assert "disagree with their successors" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["probe", "checkers", "--position", "B:W:B"], "no checkers endgame database"),
    (["build", "checkers", "--pieces", "0"], "--pieces 0: expected 1 to 8"),
    (["count", "checkers", "--pieces", "9"], "--pieces 9: expected 1 to 8"),
    (["count", "tictactoe", "--pieces", "3"], "tictactoe has no endgame databases"),
    (["probe", "checkers", "--position", "B:W33:B1"], "33"),
    (["build", "checkers", "--pieces", "2", "--workers", "0"], "--workers 0"),
])
def test_bad_input_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 argv: list[str], message: str) -> None:
    code, _ = run("egdb", *argv, "--dir", str(tmp_path / "none"))
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err
