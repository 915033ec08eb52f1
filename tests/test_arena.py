"""The arena: ratings against hand-worked examples, the schedule, forfeits, determinism
across workers, resume after SIGKILL, the store, and the ``match``/``tournament`` commands.

Correctness only: no assertion depends on how fast anything ran. Misbehaving agents live in
``tests/arena_agents.py`` and are loaded by spec (``py:arena_agents:Crash``).
"""

from __future__ import annotations

import io
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gamesearch.arena import (
    SPRT,
    ArenaError,
    GameRecord,
    Opening,
    RunOptions,
    Score,
    Store,
    TimeControl,
    TournamentConfig,
    elo_from_score,
    expected_score,
    parse_agents,
    play_job,
    random_openings,
    read_openings,
    run_tournament,
    sprt_llr,
)
from gamesearch.arena.report import pair_score
from gamesearch.errors import GameError
from gamesearch.games import get_game
from gamesearch.interfaces.cli import main

TESTS = Path(__file__).resolve().parent


def config(agents: list[str], game: str = "tictactoe", **kw: Any) -> TournamentConfig:
    return TournamentConfig(game, tuple(parse_agents(agents)), **kw)


def outcomes(records: list[GameRecord]) -> list[tuple[object, ...]]:
    return sorted(r.outcome_key() for r in records)


# ----- ratings: worked by hand ----------------------------------------------------------
def test_elo_and_margin_match_a_worked_example() -> None:
    # 60 wins, 20 draws, 20 losses in 100 games.
    # score s = (60 + 20/2) / 100 = 0.7
    # Elo = -400 log10(1/0.7 - 1) = 400 log10(0.7/0.3) = 400 * 0.367977 = 147.19
    # per-game variance = (60 (1-0.7)^2 + 20 (0.5-0.7)^2 + 20 (0-0.7)^2) / 100
    #                   = (5.4 + 0.8 + 9.8) / 100 = 0.16;  standard error = sqrt(0.16/100) = 0.04
    # 95% score interval 0.7 ± 1.96 * 0.04 = [0.6216, 0.7784]
    # Elo(0.7784) = 400 log10(0.7784/0.2216) = 218.25;  Elo(0.6216) = 400 log10(0.6216/0.3784)
    # = 86.22;  margin = (218.25 - 86.22) / 2 = 66.02
    sc = Score(60, 20, 20)
    assert sc.games == 100 and sc.points == 70.0
    assert sc.score == pytest.approx(0.7)
    assert sc.variance == pytest.approx(0.16)
    assert sc.elo == pytest.approx(147.19, abs=0.01)
    assert sc.elo_margin() == pytest.approx(66.02, abs=0.02)
    # LOS = (1 + erf((60 - 20) / sqrt(2 * 80))) / 2 = (1 + erf(3.1623)) / 2 = 0.999996
    assert sc.los == pytest.approx(0.999996, abs=1e-6)
    # symmetric from the other side
    assert sc.flipped().elo == pytest.approx(-147.19, abs=0.01)
    assert sc.flipped().elo_margin() == pytest.approx(66.02, abs=0.02)


def test_elo_curve_edges() -> None:
    assert elo_from_score(0.5) == 0.0 and math.copysign(1, elo_from_score(0.5)) == 1
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    for elo in (-300.0, -50.0, 0.0, 120.0):
        assert elo_from_score(expected_score(elo)) == pytest.approx(elo)
    assert Score(5, 0, 0).elo_margin() == math.inf
    assert math.isnan(Score().elo_margin())


def test_sprt_llr_matches_a_worked_example() -> None:
    # H0: elo 0 -> s0 = 0.5;  H1: elo 10 -> s1 = 1 / (1 + 10^(-10/400)) = 1 / 1.944061 = 0.514387
    # +60 =20 -20 with half a game added to each count: 60.5, 20.5, 20.5, n = 101.5
    # s = (60.5 + 20.5/2) / 101.5 = 0.697044
    # var = (60.5 * 0.302956^2 + 20.5 * 0.197044^2 + 20.5 * 0.697044^2) / 101.5
    #     = (5.55281 + 0.79594 + 9.96034) / 101.5 = 0.160681
    # LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)
    #     = 101.5 * 0.014387 * (1.394089 - 1.014387) / 0.321362 = 1.7254
    sc = Score(60, 20, 20)
    assert expected_score(10) == pytest.approx(0.514387, abs=1e-6)
    assert sprt_llr(sc, 0, 10) == pytest.approx(1.7254, abs=1e-3)
    test = SPRT(0, 10, 0.05, 0.05)
    # bounds log(0.05 / 0.95) = -2.944 and log(0.95 / 0.05) = +2.944
    assert test.lower == pytest.approx(-2.9444, abs=1e-4)
    assert test.upper == pytest.approx(2.9444, abs=1e-4)
    assert test.decision(sc) is None
    assert test.decision(Score(120, 40, 40)) == "H1"  # twice the games: LLR 3.46
    # weaker: 60.5, 120.5, 120.5, n = 301.5, s = 0.400498,
    # var = (60.5 * 0.599502^2 + 120.5 * 0.099502^2 + 120.5 * 0.400498^2) / 301.5 = 0.140182
    # LLR = 301.5 * 0.014387 * (0.800995 - 1.014387) / 0.280364 = -3.3015 < -2.944
    assert sprt_llr(Score(60, 120, 120), 0, 10) == pytest.approx(-3.3015, abs=1e-3)
    assert test.decision(Score(60, 120, 120)) == "H0"
    # a few games decide nothing, even without draws or losses (zero variance)
    for few in (Score(1, 0, 0), Score(0, 2, 0), Score(5, 0, 0), Score(0, 0, 5)):
        assert test.decision(few) is None


# ----- time control, agents, openings, schedule -------------------------------------------
def test_time_control_parse() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse(" 60 ") == TimeControl(60.0, 0.0)
    assert str(TimeControl(10, 0.1)) == "10+0.1"
    for bad in ("", "x", "0+1", "-5", "10+-1", "10+y", "inf"):
        with pytest.raises(GameError, match="time control"):
            TimeControl.parse(bad)


def test_parse_agents_names() -> None:
    entries = parse_agents(["ab=alphabeta:depth=2", "random:seed=1", "id", "id"])
    assert [(e.name, e.spec) for e in entries] == [
        ("ab", "alphabeta:depth=2"), ("random:seed=1", "random:seed=1"), ("id", "id"),
        ("id#2", "id")]


def test_schedule_alternates_colours_and_plays_each_opening_from_both_sides() -> None:
    game = get_game("tictactoe")
    openings = tuple(random_openings(game, 2, 2, seed=1))
    cfg = config(["a=random:seed=1", "b=random:seed=2", "c=random:seed=3"],
                 games_per_pair=6, openings=openings)
    jobs = cfg.schedule()
    assert len(jobs) == 3 * 6
    assert len({j.slot for j in jobs}) == len(jobs)
    assert [j.pair for j in jobs[:3]] == [0, 1, 2]  # interleaved by round
    for p, (a, b) in enumerate(cfg.pairs()):
        mine = [j for j in jobs if j.pair == p]
        assert [j.seats for j in mine] == [(a, b), (b, a)] * 3
        assert [j.opening_index for j in mine] == [0, 0, 1, 1, 0, 0]
    assert cfg.schedule() == jobs and cfg.key == config(
        ["a=random:seed=1", "b=random:seed=2", "c=random:seed=3"],
        games_per_pair=6, openings=openings).key
    assert config(["random", "random"], seed=1).key != config(["random", "random"]).key
    gauntlet = config(["a=random", "b=random", "c=random"], format="gauntlet")
    assert gauntlet.pairs() == [(0, 1), (0, 2)]
    with pytest.raises(GameError, match="format"):
        config(["random", "random"], format="swiss")
    with pytest.raises(GameError, match="at least 2 agents"):
        config(["random"])


def test_openings_file_moves_positions_and_errors(tmp_path: Path) -> None:
    game = get_game("tictactoe")
    path = tmp_path / "openings.txt"
    path.write_text("# tic-tac-toe openings\n5 1\n\nxo.......\n9\n", encoding="utf-8")
    ops = read_openings(game, str(path))
    assert ops == [Opening(None, ("5", "1")), Opening("xo.......", ()), Opening(None, ("9",))]
    assert game.format_state(ops[1].state(game)) == "xo......."
    path.write_text("5 5\n", encoding="utf-8")
    with pytest.raises(GameError, match="line 1"):
        read_openings(game, str(path))
    path.write_text("1 4 2 5 3\n", encoding="utf-8")  # x wins: nothing left to play
    with pytest.raises(GameError, match="ends the game"):
        read_openings(game, str(path))
    with pytest.raises(GameError, match="cannot read"):
        read_openings(game, str(tmp_path / "missing.txt"))
    again = random_openings(game, 4, 3, seed=9)
    assert again == random_openings(game, 4, 3, seed=9) != random_openings(game, 4, 3, seed=8)
    assert all(len(o.moves) == 3 and not game.is_terminal(o.state(game)) for o in again)


def test_games_from_an_opening_start_there() -> None:
    game = get_game("tictactoe")
    cfg = config(["alphabeta:depth=9", "alphabeta:depth=9"], games_per_pair=2,
                 openings=(Opening(None, ("1", "2")),))
    result = run_tournament(cfg)
    for r in result.records:
        assert r.moves[:2] == ["1", "2"] and r.opening_plies == 2
        assert r.termination == "normal"
    # after 1 2 the first player wins with perfect play, whoever holds it
    assert [r.scores for r in result.records] == [[1.0, 0.0], [1.0, 0.0]]
    assert pair_score(result.records, 0, 1) == Score(1, 0, 1)
    for r in result.records:  # the stored moves replay to the stored result
        state = game.initial_state()
        for move in r.moves:
            state = game.play(state, move)
        assert game.is_terminal(state) and game.returns(state)[0] > game.returns(state)[1]


# ----- forfeits ---------------------------------------------------------------------------
def test_misbehaving_agents_lose_with_the_reason_and_the_tournament_goes_on() -> None:
    bad = {"Crash": "crash", "Slow": "timeout", "Hang": "timeout",
           "Illegal": "illegal-move", "Exit": "crash"}
    cfg = config(["alphabeta:depth=2", *(f"{k}=py:arena_agents:{k}" for k in bad)],
                 format="gauntlet", games_per_pair=2, time_control=TimeControl(1.0, 0.0),
                 grace=0.5)
    result = run_tournament(cfg, RunOptions(workers=2))
    assert len(result.records) == 2 * len(bad)
    for r in result.records:
        culprit = 1 - r.seats.index(0)
        name = cfg.agents[r.seats[culprit]].name
        assert r.termination == bad[name], (name, r.detail)
        assert r.scores[culprit] == 0.0 and r.scores[1 - culprit] == 1.0
        assert name in r.detail or f"py:arena_agents:{name}" in r.detail
        if name == "Hang":
            assert "killed" in r.detail
        if name == "Exit":
            assert "process died (exit code 3)" in r.detail
    top = result.standings[0]
    assert (top.name, top.score) == ("alphabeta:depth=2", Score(10, 0, 0))
    assert all(s.forfeits == 2 for s in result.standings[1:])


def test_an_agent_that_cannot_start_loses_by_crash() -> None:
    cfg = config(["alphabeta:depth=2", "py:arena_agents:BrokenFactory"])
    with pytest.raises(ArenaError, match="could not be built"):
        run_tournament(cfg)
    job = cfg.schedule()[0]
    record = play_job(job)
    assert record.termination == "crash" and record.scores == [1.0, 0.0]
    assert "cannot start" in record.detail


# ----- determinism, store, resume ---------------------------------------------------------
DETERMINISTIC = ["alphabeta:depth=2", "negamax:depth=3,tt=64K,ordering=1", "random:seed=5",
                 "random"]


def test_results_are_identical_with_one_and_two_workers() -> None:
    game = get_game("tictactoe")
    cfg = config(DETERMINISTIC, games_per_pair=4,
                 openings=tuple(random_openings(game, 2, 1, seed=3)))
    one = run_tournament(cfg, RunOptions(workers=1))
    two = run_tournament(cfg, RunOptions(workers=2))
    assert len(one.records) == 6 * 4
    assert outcomes(one.records) == outcomes(two.records)
    assert [(s.name, s.score) for s in one.standings] == [
        (s.name, s.score) for s in two.standings]


def test_dice_games_are_deterministic_too() -> None:
    cfg = config(["expectiminimax:depth=2", "random:seed=1"], game="pig", games_per_pair=4)
    a = run_tournament(cfg, RunOptions(workers=1))
    b = run_tournament(cfg, RunOptions(workers=2))
    assert outcomes(a.records) == outcomes(b.records)
    assert all(r.termination == "normal" for r in a.records)


def test_connect4_games() -> None:
    cfg = config(["alphabeta:depth=3", "random:seed=2"], game="connect4", games_per_pair=2)
    result = run_tournament(cfg)
    assert all(r.termination == "normal" for r in result.records)
    assert result.standings[0].name == "alphabeta:depth=3"
    assert all(m in "1234567" for r in result.records for m in r.moves)


def test_store_is_wal_and_never_stores_a_slot_twice(tmp_path: Path) -> None:
    db = str(tmp_path / "results.sqlite")
    cfg = config(["alphabeta:depth=2", "random:seed=1"], games_per_pair=2)
    result = run_tournament(cfg, RunOptions(db=db))
    assert result.played == 2
    with Store(db) as store:
        assert store.journal_mode == "wal"
        tid = store.tournament(cfg)
        assert tid == result.tournament_id
        assert store.add_game(tid, result.records[0]) is False
        assert store.done_slots(tid) == {(0, 0), (0, 1)}
        assert store.count_duplicates(tid) == 0
        # the same command again finds the tournament and plays nothing
        rows = store.db.execute("SELECT name, spec FROM agents WHERE tournament_id = ?",
                                (tid,)).fetchall()
        assert rows == [("alphabeta:depth=2", "alphabeta:depth=2"),
                        ("random:seed=1", "random:seed=1")]
    again = run_tournament(cfg, RunOptions(db=db))
    assert again.played == 0 and outcomes(again.records) == outcomes(result.records)
    # a different configuration is refused: the file holds another tournament
    with pytest.raises(ArenaError, match=r"holds a different .*random:seed=2.* here"):
        run_tournament(config(["alphabeta:depth=2", "random:seed=2"]), RunOptions(db=db))


def _count_games(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


RESUME_ARGS = ["tournament", "tictactoe", "--agents", "alphabeta:depth=2", "random:seed=3",
               "py:arena_agents:Sleepy", "--games-per-pair", "12", "--random-plies", "1",
               "--seed", "4", "--workers", "2", "--quiet", "--json"]


def test_resume_after_sigkill_gives_the_uninterrupted_result(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])}
    argv = [sys.executable, "-m", "gamesearch", *RESUME_ARGS, "--db", str(db)]
    killed_mid_run = 0
    for threshold in (0, 4, 12, 24):
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while proc.poll() is None and _count_games(db) < threshold and (
                time.monotonic() < deadline):
            time.sleep(0.01)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            if 0 < _count_games(db) < 36:
                killed_mid_run += 1
        proc.wait()
    final = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert final.returncode == 0, final.stderr
    assert killed_mid_run >= 2  # kills really landed between the first and the last game
    resumed = json.loads(final.stdout)
    assert resumed["games"] == resumed["scheduled"] == 36

    reference_db = tmp_path / "reference.sqlite"
    out = io.StringIO()
    assert main([*RESUME_ARGS, "--db", str(reference_db)], out) == 0
    reference = json.loads(out.getvalue())
    assert reference["played"] == 36
    assert resumed["standings"] == reference["standings"]

    with Store(str(db)) as a, Store(str(reference_db)) as b:
        (tid,) = a.db.execute("SELECT id FROM tournaments").fetchone()
        assert a.count_duplicates(tid) == 0
        assert a.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 36
        assert outcomes(a.games(tid)) == outcomes(b.games(tid))


# ----- the commands -----------------------------------------------------------------------
def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_match_stops_early_when_the_sprt_decides() -> None:
    code, text = run_cli("match", "tictactoe", "alphabeta:depth=9", "random:seed=1",
                         "--games", "200", "--sprt", "0,100", "--json", "--quiet")
    assert code == 0
    data = json.loads(text)
    assert data["sprt"]["decision"] == "H1" and data["sprt"]["stopped_early"]
    assert data["sprt"]["llr"] >= data["sprt"]["upper"]
    assert data["games"] < 200
    assert data["match"]["losses"] == 0


def test_match_text_output_plot_and_export(tmp_path: Path) -> None:
    plot, export = tmp_path / "elo.html", tmp_path / "games.jsonl"
    code, text = run_cli("match", "tictactoe", "ab=alphabeta:depth=2", "random:seed=4",
                         "--games", "6", "--plot", str(plot), "--export-jsonl", str(export),
                         "--quiet")
    assert code == 0
    assert "ab vs random:seed=4: +" in text and "Elo" in text and "terminations:" in text
    assert "<svg" in plot.read_text(encoding="utf-8")
    lines = [json.loads(x) for x in export.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 6
    assert {x["termination"] for x in lines} == {"normal"}
    assert lines[0]["agents"] == ["ab", "random:seed=4"]
    assert lines[1]["agents"] == ["random:seed=4", "ab"]
    assert all(x["result"] in ("1-0", "0-1", "1/2-1/2") for x in lines)
    code, _ = run_cli("tournament", "tictactoe", "--agents", "random:seed=1", "random:seed=2",
                      "random:seed=3", "--plot", str(tmp_path / "t.svg"), "--quiet")
    assert code == 0 and (tmp_path / "t.svg").read_text(encoding="utf-8").startswith("<svg")


def test_progress_lines_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run_cli("tournament", "tictactoe", "--agents", "alphabeta:depth=2",
                         "random:seed=1", "random:seed=2", "--games-per-pair", "2")
    assert code == 0
    err = capsys.readouterr().err
    assert "games 6/6" in err and "\r" not in err
    assert "pairs:" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "tictactoe", "random", "random", "--time-control", "fast"], "time control"),
        (["match", "tictactoe", "random", "nosuch"], "nosuch"),
        (["match", "nosuchgame", "random", "random"], "unknown game"),
        (["match", "tictactoe", "random", "human"], "human"),
        (["match", "tictactoe", "random", "random", "--sprt", "10,0"], "elo1"),
        (["match", "tictactoe", "random", "random", "--sprt", "x"], "ELO0,ELO1"),
        (["match", "tictactoe", "random", "alphabeta:depth=0"], "depth"),
        (["match", "tictactoe", "random", "random", "--openings", "/nonexistent/o.txt"],
         "cannot read"),
        (["match", "fig6.4", "maxn", "maxn"], "two-player"),
        (["tournament", "tictactoe", "--agents", "random"], "at least 2 agents"),
        (["match", "tictactoe", "random", "py:nosuchmodule:X"], "nosuchmodule"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_cli(*argv, "--quiet")
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("gamesearch: error:") and message in err
    assert "Traceback" not in err


def test_argparse_rejects_bad_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["match", "tictactoe", "random", "random", "--games", "0"],
                 ["tournament", "tictactoe", "--agents", "random", "random", "--workers", "0"],
                 ["tournament", "tictactoe", "--agents", "random", "random", "--format", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(argv, io.StringIO())
        assert exc.value.code == 2
    capsys.readouterr()


def test_repeated_games_are_counted_and_reported() -> None:
    """Deterministic agents from one position replay the same two games over and over: the
    report says so (a repeat is no new sample for the Elo margin or the SPRT)."""
    args = ("match", "tictactoe", "ab2=alphabeta:depth=2", "ab1=alphabeta:depth=1",
            "--games", "6", "--quiet")
    code, text = run_cli(*args)
    assert code == 0
    assert "warning: 4 of 6 games repeat an earlier game move for move" in text
    code, text = run_cli(*args, "--json")
    assert code == 0 and json.loads(text)["repeated_games"] == 4
    # distinct openings, each played once with either colour: nothing repeats
    code, text = run_cli(*args, "--random-plies", "2", "--json")
    assert code == 0 and json.loads(text)["repeated_games"] == 0
    code, text = run_cli(*args, "--random-plies", "2")
    assert code == 0 and "repeat" not in text
