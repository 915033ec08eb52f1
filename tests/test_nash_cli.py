"""``gamesearch nash``: the answers, the JSON, and every bad input as one line with exit 2.

Mutations checked by hand once (each made the named test fail, then was undone):
* ``nash.parse_json``: ``parse_constant`` dropped (NaN accepted) — test_bad_input["NaN"];
* ``nash.parse_json``: the ``RecursionError`` branch dropped — test_bad_input["deep"];
* ``nash.as_matrix``: the ragged-row check dropped — test_bad_input["ragged"];
* ``nash.as_matrix``: the ``math.isfinite`` check dropped — test_bad_input["1e999"];
* ``nash.as_matrix``: the ``bool`` test dropped — test_bad_input["true"];
* ``nash.check_game``: the support-pair cap dropped — test_the_size_caps_are_refused_clearly;
* ``nash_cli.read_game``: ``read_text`` replaced by ``open(path).read()`` —
  test_bad_files (the missing file, /dev/zero, the binary file, the directory: tracebacks);
* ``nash_cli.solve``: the general-sum check of ``lp`` dropped — test_lp_refuses_a_general_sum_game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_runner import cli
from gamesearch.interfaces import nash_cli
from gamesearch.search import nash

RPS = "[[0,-1,1],[1,0,-1],[-1,1,0]]"
SEXES = ("[[3,0],[0,2]]", "[[2,0],[0,3]]")


def run_json(*argv: str) -> dict:
    code, out, err = cli(["nash", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


def one_line_error(argv: list[str], needle: str) -> str:
    code, out, err = cli(argv)
    assert code == 2, (argv, code, out, err)
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("gamesearch: error:"), err
    assert "Traceback" not in err and needle in lines[-1], lines[-1]
    assert len(lines[-1]) <= 1000
    return lines[-1]


def test_rock_paper_scissors_inline() -> None:
    code, out, _ = cli(["nash", "--matrix", RPS])
    assert code == 0
    assert out.splitlines()[:2] == ["zero-sum 3x3 game, lp: 1 equilibrium",
                                    "value 0 (the row player's payoff)"]
    answer = run_json("--matrix", RPS)
    assert answer["method"] == "lp" and answer["zero_sum"] and answer["value"] == 0
    assert answer["row_strategy"] == pytest.approx([1 / 3] * 3)
    assert answer["column_strategy"] == pytest.approx([1 / 3] * 3)
    for method in ("support", "lemke-howson"):
        other = run_json("--matrix", RPS, "--method", method)
        assert other["value"] == pytest.approx(0, abs=1e-12)
        assert other["row_strategy"] == pytest.approx([1 / 3] * 3)


def test_a_bimatrix_game_lists_every_equilibrium_with_both_payoffs() -> None:
    answer = run_json("--matrix", SEXES[0], "--matrix-b", SEXES[1])
    assert answer["method"] == "support" and answer["value"] is None
    assert not answer["zero_sum"] and answer["constant_sum"] is None
    assert [(e["row_payoff"], e["column_payoff"]) for e in answer["equilibria"]] == [
        (3, 2), (2, 3), (pytest.approx(1.2), pytest.approx(1.2))]
    assert answer["degenerate"] is False and answer["support_pairs"] == 5
    lh = run_json("--matrix", SEXES[0], "--matrix-b", SEXES[1], "--method", "lemke-howson")
    assert len(lh["equilibria"]) == 2
    assert sorted(k for ks in lh["labels"] for k in ks) == [0, 1, 2, 3]
    code, out, _ = cli(["nash", "--matrix", SEXES[0], "--matrix-b", SEXES[1]])
    assert code == 0 and "3 equilibria" in out and "payoffs 1.2, 1.2" in out


def test_a_constant_sum_game_is_solved_by_lp(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"A": [[2, 0], [0, 2]], "B": [[0, 2], [2, 0]]}))
    answer = run_json("--file", str(path))
    assert answer["method"] == "lp" and answer["constant_sum"] == 2 and not answer["zero_sum"]
    assert answer["value"] == pytest.approx(1)
    assert answer["equilibria"][0]["column_payoff"] == pytest.approx(1)


def test_a_file_holds_a_matrix_or_both(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(RPS)
    assert run_json("--file", str(tmp_path / "a.json"))["value"] == 0
    (tmp_path / "ab.json").write_text(json.dumps({"A": json.loads(SEXES[0]),
                                                  "B": json.loads(SEXES[1])}))
    assert len(run_json("--file", str(tmp_path / "ab.json"))["equilibria"]) == 3


def test_the_cli_lists_the_modules_methods() -> None:
    assert nash_cli.METHODS == nash.METHODS


@pytest.mark.parametrize(("matrix", "needle"), [
    ("[[1,2],[3]]", "ragged: row 2 has 1 entry, row 1 has 2"),
    ('[[1,"x"]]', "entry (1, 2) 'x' is not a number"),
    ("[[1,NaN]]", "NaN is not a finite number"),
    ("[[1,Infinity]]", "Infinity is not a finite number"),
    ("[[1,1e999]]", "entry (1, 2) inf is not a finite number"),
    ("[[true,1]]", "is not a number"),
    ("[]", "non-empty list of rows"),
    ("[[]]", "row 1 must be a non-empty list"),
    ("[1,2]", "row 1 must be a non-empty list"),
    ("", "is not JSON"),
    ("[[1,2]", "is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("[[" + "9" * 5000 + "]]", "--matrix:"),
], ids=["ragged", "string", "NaN", "Infinity", "1e999", "true", "empty", "empty row",
        "flat", "nothing", "unclosed", "deep", "huge int"])
def test_bad_input(matrix: str, needle: str) -> None:
    one_line_error(["nash", "--matrix", matrix], needle)


def test_bad_second_matrix_and_combinations(tmp_path: Path) -> None:
    one_line_error(["nash", "--matrix", "[[1,2]]", "--matrix-b", "[[1,2],[3,4]]"],
                   "differ in shape")
    one_line_error(["nash", "--matrix", "[[1,2]]", "--matrix-b", "[[1,NaN]]"], "--matrix-b")
    one_line_error(["nash"], "give the game: --matrix A")
    path = tmp_path / "a.json"
    path.write_text(RPS)
    one_line_error(["nash", "--file", str(path), "--matrix-b", RPS], "--matrix-b goes with")
    one_line_error(["nash", "--file", str(path), "--matrix", RPS], "not allowed with")
    one_line_error(["nash", "--matrix", RPS, "--method", "simplex"], "invalid choice")
    path.write_text('{"A": [[1]], "C": [[2]]}')
    one_line_error(["nash", "--file", str(path)], "needs key \"A\"")


def test_bad_files(tmp_path: Path) -> None:
    one_line_error(["nash", "--file", str(tmp_path / "missing.json")],
                   "No such file or directory")
    one_line_error(["nash", "--file", "/dev/zero"], "not a text file")
    (tmp_path / "bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    one_line_error(["nash", "--file", str(tmp_path / "bin")], "not a text file")
    one_line_error(["nash", "--file", str(tmp_path)], "it is a directory")
    (tmp_path / "big.json").write_text("[[" + "1," * (3 << 20) + "1]]")
    one_line_error(["nash", "--file", str(tmp_path / "big.json")], "too large")
    (tmp_path / "ragged.json").write_text("[[1, 2],\n [3]]")
    one_line_error(["nash", "--file", str(tmp_path / "ragged.json")], "ragged")
    (tmp_path / "text.json").write_text("rock beats scissors")
    one_line_error(["nash", "--file", str(tmp_path / "text.json")], "is not JSON")


def test_the_size_caps_are_refused_clearly() -> None:
    eleven = json.dumps([[0] * 11] * 11)
    one_line_error(["nash", "--matrix", eleven, "--method", "support"],
                   "too large for support enumeration, which is exponential")
    general = json.dumps([[i * j for j in range(11)] for i in range(11)])
    one_line_error(["nash", "--matrix", eleven, "--matrix-b", general],  # (the default)
                   "too large for support enumeration")
    wide = json.dumps([[0] * 101] * 2)
    one_line_error(["nash", "--matrix", wide, "--method", "lemke-howson"],
                   "too large for lemke-howson (at most 100x100)")
    one_line_error(["nash", "--matrix", json.dumps([[0] * 201])], "at most 200 columns")
    one_line_error(["nash", "--matrix", json.dumps([[0]] * 201)], "201 rows (at most 200)")
    assert run_json("--matrix", json.dumps([[1] * 200] * 200))["value"] == 1


def test_lp_refuses_a_general_sum_game() -> None:
    one_line_error(["nash", "--matrix", SEXES[0], "--matrix-b", SEXES[1], "--method", "lp"],
                   "this game is general-sum")
