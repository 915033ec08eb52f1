"""gnubg's external-player interface: FIBS board lines parsed (recorded from Debian's gnubg
1.07, ``tests/data/backgammon/gnubg_protocol.txt``), gnubg's match statistics read, and a
live one-game match against gnubg when Debian's ``gnubg`` is installed (``make test``
installs it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamesearch.errors import InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.backgammon.fibs import parse_fibs_board
from gamesearch.games.backgammon.rules import BAR
from gamesearch.interfaces.gnubg_match import (
    GNUBG,
    MatchReport,
    answer_board,
    gnubg_script,
    read_results,
    run_match,
)

DATA = Path(__file__).parent / "data" / "backgammon"
game = get_game("backgammon")

# gnubg's first board of a game: gnubg (O) opened 42 with 8/4 6/4; we (X) have 61
FIRST = ("board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-2:0:-4:0:-2:0:0:2:0:1:1:"
         "6:1:6:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")


def recorded() -> list[tuple[str, str]]:
    lines = (DATA / "gnubg_protocol.txt").read_text().split("\n")
    return list(zip(lines[0::2], lines[1::2], strict=False))[:77]


def test_first_board_line() -> None:
    b = parse_fibs_board(FIRST)
    own, opp, seat, d1, d2 = b.state
    assert (seat, d1, d2) == (1, 6, 1) and b.match_length == 0 and b.cube == 1
    assert own[5] == 5 and own[7] == 3 and own[12] == 5 and own[23] == 2  # the start
    # gnubg's 8/4 6/4, in its own numbering: 2 on its 4-point, 4 on its 6, 2 on its 8
    assert opp[3] == 2 and opp[5] == 4 and opp[7] == 2 and sum(opp) == 15
    assert "13/7 8/7" in game.legal_action_strings(b.state)


def test_recorded_lines_parse_and_our_answers_were_legal() -> None:
    pairs = recorded()
    assert len(pairs) == 77
    on_bar = 0
    for line, reply in pairs:
        state = parse_fibs_board(line).state
        on_bar += state[0][BAR] > 0
        legal = game.legal_action_strings(state)
        if reply == "":
            assert legal == ["pass"], line
        else:
            assert reply in legal, (line, reply)
            game.parse_action(state, reply)
    assert on_bar > 0  # the bar, written in B[25] by gnubg, was read


def test_answer_board_plays_the_agents_move() -> None:
    from gamesearch.agents import make_agent

    agent = make_agent(game, "expectiminimax:depth=1", None)
    reply = answer_board(game, agent, FIRST, None)
    assert reply in game.legal_action_strings(parse_fibs_board(FIRST).state)


@pytest.mark.parametrize("line, words", [
    ("board:a:b:0", "fields"),
    ("hello", "fields"),
    (FIRST.replace(":5:0:3:", ":5:0:4:", 1), "add up to"),
    (FIRST.replace(":1:-1:0:25:", ":3:-1:0:25:", 1), "colour"),
    (FIRST.replace("root:0:0:0", "root:0:x:0", 1), "whole number"),
    (FIRST.replace(":1:6:1:6:", ":1:7:1:6:", 1), "dice"),
])
def test_bad_board_lines_one_line_errors(line: str, words: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        parse_fibs_board(line)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_statistics_read() -> None:
    report = MatchReport()
    read_results((DATA / "gnubg_statistics.txt").read_text(), report)
    assert report.points == [-2, -1, -1] and report.games == 3
    assert report.moves == 77
    assert report.error_total == pytest.approx(3.203)
    assert report.error_rate == pytest.approx(0.0582)
    assert report.rating == "Awful!"
    assert "3 games: -1.333" in report.summary()


def test_script_listens_only_on_loopback() -> None:
    script = gnubg_script(40000, 3, 7, 0, 0, None)
    assert "set player 1 external 127.0.0.1:40000" in script
    assert script.count("new game") == 2 and "set cube use off" in script
    assert "set seed 7" in script and script.endswith("quit\n")


@pytest.mark.skipif(not os.path.exists(GNUBG),
                    reason="LOUD SKIP: Debian's gnubg is not installed (make test installs it)")
def test_a_live_game_against_gnubg(tmp_path: Path) -> None:
    report = run_match(1, "expectiminimax:depth=1", seed=3, timeout=120, out=str(tmp_path))
    assert report.protocol_errors == []
    assert report.games == 1 and report.points[0] in (-3, -2, -1, 1, 2, 3)
    assert report.moves > 5 and report.error_rate is not None and report.rating
    assert (tmp_path / "match.sgf").exists() and (tmp_path / "protocol.txt").exists()


def test_bad_arguments_are_one_line_errors() -> None:
    import io

    from gamesearch.interfaces.gnubg_match import main

    for argv, words in ((["--game", "pig", "--games", "1"], "(a gnubg_player() capability"),
                        (["--agent", "nonesuch", "--games", "1"], "nonesuch"),
                        (["--game", "backgammon:evaluator=zz", "--games", "1"], "evaluator")):
        out = io.StringIO()
        assert main(argv, out) == 2
        text = out.getvalue()
        assert text.startswith("error: ") and words in text and text.count("\n") == 1, text


@pytest.mark.parametrize("argv, words", [
    (["--games", "0"], "--games: 1 to 10000"),
    (["--games", "10", "--chunk", "11"], "--chunk: 1 to --games"),
    (["--gnubg-plies", "9"], "--gnubg-plies: 0 to 4"),
    (["--analysis-plies", "-1"], "--analysis-plies"),
    (["--move-time", "0"], "--move-time"),
    (["--timeout", "-5"], "--timeout"),
    (["--games", "x"], "expected a whole number"),
    (["--games", "٣"], "expected a whole number"),
    (["--move-time", "nan"], "expected a finite number"),
    (["--games", "1", "--game", "pig"], "(a gnubg_player() capability"),
    (["--games", "1", "--agent", "nonesuch"], "nonesuch"),
])
def test_gamesearch_gnubg_match_bad_arguments(argv: list[str], words: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from gamesearch.interfaces.cli import main as cli_main

    code = 0
    try:
        code = cli_main(["gnubg-match", *argv], io.StringIO())
    except SystemExit as exc:  # argparse's own type errors
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    line = err.strip().splitlines()[-1]
    assert line.startswith("gamesearch: error: ") and words in line, err


def test_pooled_summary_weighs_chunks_by_unforced_moves() -> None:
    from gamesearch.interfaces.gnubg_match import pooled_summary, rating_band

    chunks = [{"points": [1, -2], "moves": 40, "error_total": 1.0, "error_rate": 0.01},
              {"points": [-1], "moves": 30, "error_total": 3.0, "error_rate": 0.03}]
    text = pooled_summary(chunks)
    # 4.0 points of error over 100 + 100 unforced moves
    assert "3 games: -0.667" in text and "error rate 0.0200 a move (Casual player)" in text
    assert "over 200 unforced moves" in text
    assert [rating_band(r) for r in (0.001, 0.0119, 0.012, 0.0179, 0.05)] == [
        "Supernatural", "Advanced", "Intermediate", "Intermediate", "Awful!"]
