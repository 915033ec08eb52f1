"""The arena with 3 to 6 seats (issue 21): tables and rotations, per-seat results and ranks,
the schema migration of older results files, openskill ratings, the CLI, resume after
SIGKILL. The game is ``tests/nplayer_game.py``'s race (``py:nplayer_game:Race:players=N``);
Rolit and Chinese Checkers (``rolit:players=N``) go through the same code.

Each test names the mutation (a line of the arena broken by hand) that it was seen to catch.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from cli_runner import cli
from gamesearch.arena import RunOptions, Store, TournamentConfig, parse_agents, run_tournament
from gamesearch.arena.play import (
    GameRecord,
    forfeit_scores,
    ranks_of,
    scores_from_ranks,
    scores_from_returns,
)
from gamesearch.arena.report import openskill_ratings, standings
from gamesearch.arena.schedule import MAX_TABLES, balanced_tables
from gamesearch.arena.store import SCHEMA_VERSION
from gamesearch.arena.timecontrol import TimeControl

TESTS = Path(__file__).resolve().parent
RACE3 = "py:nplayer_game:Race:players=3"


@pytest.fixture(autouse=True)
def _tests_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setenv("PYTHONPATH", str(TESTS))




def config(game: str, agents: list[str], games: int = 3, fmt: str = "round-robin",
           seed: int = 0) -> TournamentConfig:
    return TournamentConfig(game, tuple(parse_agents(agents)), format=fmt,
                            games_per_pair=games, seed=seed)


# ----- results per seat ---------------------------------------------------------------------
def test_ranks_share_the_better_rank_on_ties_and_scores_count_the_table_beaten() -> None:
    """Mutation caught: ``w > v`` as ``w >= v`` in ranks_of (ties no longer share rank 1)."""
    assert ranks_of([3.0, 1.0, 3.0, 0.0]) == [1, 3, 1, 4]
    assert ranks_of([2.0, 2.0, 2.0]) == [1, 1, 1]
    assert scores_from_ranks([1, 3, 1, 4]) == [pytest.approx(2.5 / 3), pytest.approx(1 / 3),
                                               pytest.approx(2.5 / 3), 0.0]
    # two seats: exactly the arena's 1-0, 0-1, 1/2-1/2 of before
    assert scores_from_returns([1, -1]) == [1.0, 0.0]
    assert scores_from_returns([-1, 1]) == [0.0, 1.0]
    assert scores_from_returns([0, 0]) == [0.5, 0.5]
    assert forfeit_scores(0) == [0.0, 1.0] and forfeit_scores(1, 2) == [1.0, 0.0]
    assert forfeit_scores(1, 4) == [pytest.approx(2 / 3), 0.0, pytest.approx(2 / 3),
                                    pytest.approx(2 / 3)]


# ----- schedule -----------------------------------------------------------------------------
def test_every_combination_is_seated_and_every_agent_sits_in_every_seat() -> None:
    """Mutation caught: no rotation (``seats = table``): seat counts no longer equal."""
    cfg = config(RACE3, ["a=random", "b=random", "c=random", "d=random", "e=random"], games=3)
    assert cfg.seats == 3
    assert cfg.pairs() == list(itertools.combinations(range(5), 3))
    jobs = cfg.schedule()
    assert len(jobs) == 10 * 3 == cfg.total
    for table in range(10):
        seatings = [j.seats for j in jobs if j.pair == table]
        for seat in range(3):  # each agent of the table once in every seat
            assert sorted(s[seat] for s in seatings) == sorted(cfg.pairs()[table])
    seat_counts = Counter((a, seat) for j in jobs for seat, a in enumerate(j.seats))
    assert set(seat_counts.values()) == {6}  # C(4, 2) tables each, once per seat


def test_the_gauntlet_seats_its_first_agent_at_every_table() -> None:
    cfg = config(RACE3, ["a=random", "b=random", "c=random", "d=random"], fmt="gauntlet")
    assert cfg.pairs() == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]


def test_two_seats_keep_the_old_pairs_colours_and_openings() -> None:
    """Two seats: pairs, colours swapped every game, opening ``g // 2`` (unchanged)."""
    cfg = TournamentConfig("tictactoe", tuple(parse_agents(["random", "random", "random"])),
                           games_per_pair=4)
    assert cfg.pairs() == [(0, 1), (0, 2), (1, 2)]
    assert [cfg.job(1, g).seats for g in range(4)] == [(0, 2), (2, 0), (0, 2), (2, 0)]


def test_too_many_combinations_are_a_balanced_seeded_sample() -> None:
    """Mutation caught: dropping ``order.sort(key=counts)`` (seat counts spread by ~10)."""
    tables = balanced_tables(12, 6, MAX_TABLES, seed=1)
    assert len(tables) == len(set(tables)) == MAX_TABLES  # C(12, 6) = 924 > 500
    assert all(len(set(t)) == 6 and list(t) == sorted(t) for t in tables)
    counts = Counter(a for t in tables for a in t)
    assert len(counts) == 12 and max(counts.values()) - min(counts.values()) <= 1
    assert balanced_tables(12, 6, MAX_TABLES, seed=1) == tables  # deterministic
    assert balanced_tables(12, 6, MAX_TABLES, seed=2) != tables  # ... from the seed
    cfg = config("py:nplayer_game:Race:players=6", [f"r{i}=random" for i in range(12)],
                 games=6, seed=1)
    assert cfg.pairs() == tables
    gauntlet = balanced_tables(14, 6, 50, seed=0, fixed=(0,))
    assert all(0 in t for t in gauntlet)


def test_the_sample_always_ends_and_stays_balanced() -> None:
    """Every size from 7 to 29 agents at 3 to 6 seats (three seeds each): 500 distinct tables,
    seat counts within 2, and no endless search, also where 500 is nearly every combination
    (16 agents at 3 seats: 560). Mutation caught: without the fallback to random unseen
    tables (``misses < 4`` as ``True``), (16, 3) searches for ever; the alarm turns that
    into a failure."""
    def alarm(*_: object) -> None:
        raise TimeoutError("balanced_tables did not end")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(60)
    try:
        for agents in range(7, 30):
            for seats in (3, 4, 5, 6):
                if math.comb(agents, seats) <= MAX_TABLES:
                    continue
                for seed in range(3):
                    tables = balanced_tables(agents, seats, MAX_TABLES, seed)
                    assert len(set(tables)) == MAX_TABLES
                    counts = Counter(a for t in tables for a in t)
                    assert max(counts.values()) - min(counts.values()) <= 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ----- playing, storing, rating -------------------------------------------------------------
def test_a_three_seat_tournament_stores_returns_and_ranks_per_seat(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    cfg = config(RACE3, ["maxn:depth=2", "paranoid:depth=2", "random:seed=2",
                         "mcts:iterations=30,seed=1"])
    result = run_tournament(cfg, RunOptions(db=db))
    assert len(result.records) == 4 * 3
    for r in result.records:
        assert len(r.seats) == len(r.ranks) == len(r.scores) == len(r.times) == 3
        assert r.returns is not None and r.ranks == ranks_of(r.returns)
        assert r.termination == "normal"
    with Store(db) as store:  # read back the same
        again = store.games(result.tournament_id)
        assert [r.outcome_key() for r in again] == [r.outcome_key() for r in result.records]
        assert store.db is not None
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # two workers (separate processes) play the same games
    parallel = run_tournament(cfg, RunOptions(workers=2))
    assert ([r.outcome_key() for r in parallel.records]
            == [r.outcome_key() for r in result.records])


@pytest.mark.parametrize(("agent", "termination"), [
    ("py:arena_agents:Crash", "crash"), ("py:arena_agents:Illegal", "illegal-move"),
    ("py:arena_agents:Exit", "crash"), ("py:arena_agents:Hang", "timeout")])
def test_a_forfeit_at_a_three_seat_table_ranks_the_offender_last(agent: str, termination: str
                                                                 ) -> None:
    """The offender last, the two others tied first, whichever seat offends and whether the
    game's process survives it (Exit, Hang: the runner's record). Mutation caught:
    ``forfeit_ranks`` returning ``1`` for the loser and ``seats`` for the others."""
    cfg = TournamentConfig(RACE3, tuple(parse_agents([agent, "random:seed=1",
                                                      "random:seed=2"])),
                           games_per_pair=3, time_control=TimeControl(0.5, 0.0), grace=0.2)
    result = run_tournament(cfg)
    assert len(result.records) == 3
    for r in result.records:
        assert r.termination == termination, r.detail
        bad = r.seats.index(0)
        assert r.ranks == [3 if seat == bad else 1 for seat in range(3)]
        assert r.scores[bad] == 0.0 and all(s == 0.75 for k, s in enumerate(r.scores)
                                            if k != bad)
    assert sorted(r.seats.index(0) for r in result.records) == [0, 1, 2]
    (row,) = [s for s in result.standings if s.index == 0]
    assert row.forfeits == 3 and row.mean_rank == 3.0


def _record(pair: int, game_no: int, seats: list[int], ranks: list[int]) -> GameRecord:
    n = len(seats)
    return GameRecord(pair=pair, game_no=game_no, seats=seats, specs=["x"] * n,
                      opening_index=None, start_position=None, opening_plies=0, moves=[],
                      scores=scores_from_ranks(ranks), termination="normal",
                      times=[0.0] * n, nodes=[0] * n, plies=[1] * n, ranks=ranks)


def test_openskill_ratings_follow_the_ranks_in_schedule_order() -> None:
    """The ratings are openskill's Plackett-Luce fed each game's ranks by agent (checked
    against the library called directly), independent of the order games finished.
    Mutation caught: ``teams = [[ratings[a]] for a in range(len(r.seats))]`` (seats, not
    agents, rated)."""
    games = [_record(0, 0, [2, 0, 1], [1, 2, 3]), _record(0, 1, [0, 1, 2], [3, 1, 1]),
             _record(0, 2, [1, 2, 0], [2, 1, 3])]
    model = PlackettLuce()
    r = [model.rating() for _ in range(3)]
    for rec in games:
        rated = model.rate([[r[a]] for a in rec.seats], ranks=[float(k) for k in rec.ranks])
        for a, team in zip(rec.seats, rated, strict=True):
            r[a] = team[0]
    expected = [v for x in r for v in (x.mu, x.sigma)]
    shuffled = games[:]
    random.Random(3).shuffle(shuffled)
    got = [v for pair in openskill_ratings(3, shuffled) for v in pair]
    assert got == pytest.approx(expected)
    agents = parse_agents(["a=random", "b=random", "c=random"])
    rows = standings(agents, games, 3)
    assert [row.name for row in rows] == ["c", "b", "a"]  # agent 2 first, 1, 3 ...
    c = rows[0]
    assert (c.games, c.firsts, c.mean_rank) == (3, 3, 1.0)
    assert c.mean_score == pytest.approx(2.75 / 3) and c.mu > rows[1].mu > rows[2].mu
    assert [c.seat_score(k) for k in range(3)] == [1.0, 1.0, 0.75]  # tied first in seat 3
    a = rows[2]
    assert a.seat_score(0) == 0.0 and a.mean_rank == pytest.approx(8 / 3)


# ----- an older results file --------------------------------------------------------------
#: The standings main's code printed for the fixture's tournament played to the end.
V0_ARGV = ["tournament", "tictactoe", "--agents", "alphabeta:depth=2", "random:seed=3",
           "alphabeta:depth=1", "--games-per-pair", "4", "--random-plies", "1", "--seed", "4",
           "--quiet", "--json"]
V0_KEY = "b9def63cf6b1596886748999fa5079cf"
V0_POINTS = {"alphabeta:depth=2": (5, 3, 0), "alphabeta:depth=1": (3, 3, 2),
             "random:seed=3": (0, 2, 6)}
V0_ELO = {"alphabeta:depth=2": 254.72883903486968, "alphabeta:depth=1": 43.65778777002724,
          "random:seed=3": -338.0392160057027}


def test_a_file_written_before_per_seat_results_migrates_and_resumes(tmp_path: Path) -> None:
    """tests/data/arena/v0_tictactoe.sqlite: written by main's arena (schema 0), 7 of 12
    games. It is read (also read-only, unmigrated), migrated when opened for writing, and
    resumed under the same key to the standings main's code gave for the whole run.
    Mutation caught: skipping ``_migrate`` (the insert names a column the file lacks)."""
    db = tmp_path / "old.sqlite"
    shutil.copy(TESTS / "data" / "arena" / "v0_tictactoe.sqlite", db)
    with Store.open_readonly(str(db)) as ro:
        assert ro.db is not None
        assert ro.db.execute("PRAGMA user_version").fetchone()[0] == 0
        [t] = ro.list_tournaments()
        assert t["key"] == V0_KEY and t["games"] == 7
        old = ro.games(t["id"])
        assert all(len(r.ranks) == 2 and r.returns is None for r in old)
        assert all(r.ranks == ranks_of(r.scores) for r in old)
    code, out, err = cli([*V0_ARGV, "--db", str(db)])
    assert code == 0, err
    data = json.loads(out)
    assert data["tournament"] == V0_KEY
    assert (data["played"], data["games"]) == (5, 12)
    for row in data["standings"]:
        assert (row["wins"], row["draws"], row["losses"]) == V0_POINTS[row["agent"]]
        assert row["elo"] == pytest.approx(V0_ELO[row["agent"]])
    with Store(str(db)) as store:
        assert store.db is not None
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.count_duplicates(1) == 0


def test_a_file_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    shutil.copy(TESTS / "data" / "arena" / "v0_tictactoe.sqlite", db)
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.close()
    code, _, err = cli([*V0_ARGV, "--db", str(db)])
    assert code == 2 and "Traceback" not in err
    assert "newer than this gamesearch" in err.strip().splitlines()[-1]


# ----- the command line ---------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "needle"), [
    (["tournament", RACE3, "--agents", "random", "random"], "has 3 seats but"),
    (["tournament", RACE3, "--agents", "alphabeta:depth=2", "random", "random"],
     "two-player"),
    (["match", RACE3, "maxn", "random"], "match is for two-player games"),
    (["tournament", "py:nplayer_game:Race:players=7", "--agents", "random", "random"],
     "must be from 2 to 6"),
])
def test_agents_and_seats_that_do_not_fit_are_one_line_errors(argv: list[str], needle: str
                                                              ) -> None:
    code, out, err = cli([*argv, "--quiet"])
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and needle in err, err


def test_the_tournament_command_prints_n_player_standings(tmp_path: Path) -> None:
    jsonl, plot = tmp_path / "g.jsonl", tmp_path / "p.html"
    code, out, err = cli(["tournament", "py:nplayer_game:Race:players=4", "--agents",
                          "maxn:depth=2", "paranoid:depth=2", "random:seed=1",
                          "random:seed=2", "mcts:iterations=20,seed=3", "--games-per-pair",
                          "4", "--quiet", "--export-jsonl", str(jsonl), "--plot", str(plot)])
    assert code == 0, err
    assert "4 seats, 5 tables" in out
    head = out.splitlines()[1]
    for column in ("1st", "rank", "score ± 95%", "seat1", "seat4", "rating ± 95%"):
        assert column in head
    assert "head to head" in out
    lines = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert len(lines) == 20
    assert all(len(x["ranks"]) == 4 and x["result"] == "-".join(map(str, x["ranks"]))
               for x in lines)
    assert "openskill" in plot.read_text()


def _spawn(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "gamesearch", *argv],
                            env={**__import__("os").environ, "PYTHONPATH": str(TESTS)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


#: A slow deterministic agent (30 ms a move, asleep) among fast ones, three seats: 8 tables.
SOAK3 = ["tournament", "py:nplayer_game:Race:players=3,goal=16", "--agents",
         "py:arena_agents:Sleepy", "maxn:depth=1", "paranoid:depth=2", "random:seed=5",
         "--games-per-pair", "9", "--seed", "2",
         "--quiet", "--json"]


def test_a_three_seat_tournament_resumes_after_sigkill_to_the_same_standings(
        tmp_path: Path) -> None:
    """Kills land at random moments; the resumed file holds every game once and the same
    standings (ranks, scores, openskill ratings) as an uninterrupted run."""
    db = tmp_path / "soak.sqlite"
    reference = _spawn([*SOAK3, "--db", str(tmp_path / "reference.sqlite")])
    rng = random.Random(21)
    landed = 0
    for _ in range(4):
        proc = _spawn([*SOAK3, "--db", str(db)])
        time.sleep(rng.uniform(0.6, 1.4))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            landed += 1
        proc.communicate(timeout=60)
    final = _spawn([*SOAK3, "--db", str(db)])
    out, err = final.communicate(timeout=180)
    assert final.returncode == 0, err
    assert landed >= 3
    resumed = json.loads(out)
    assert resumed["played"] > 0 and resumed["games"] == resumed["scheduled"] == 36
    ref_out, ref_err = reference.communicate(timeout=180)
    assert reference.returncode == 0, ref_err
    assert resumed["standings"] == json.loads(ref_out)["standings"]
    with Store(str(db)) as store:
        assert store.count_duplicates(1) == 0 and store.leases(1) == []


# ----- play in the terminal -------------------------------------------------------------------
def test_play_seats_any_mix_of_people_and_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--agents`` one spec a seat, ``--seat K=SPEC`` over it; max^n's vector is shown per
    player; the end lists every seat's rank. Mutation caught: ``specs[int(seat) - 1]`` as
    ``specs[int(seat)]`` (seat 3's human lands in no seat: no prompt is read)."""
    asked: list[str] = []

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return "1"

    monkeypatch.setattr("builtins.input", answer)
    code, out, err = cli(["play", RACE3, "--agents", "maxn:depth=2", "random:seed=1",
                          "random:seed=2", "--seat", "3=human", "--seed", "1"])
    assert code == 0, err
    assert asked, "the human in seat 3 was never asked"
    assert "human (player 3) plays 1" in out
    assert "maxn:depth=2 (player 1) plays" in out and "values by player 1: " in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("game over: 1. player ") and last.count("player ") == 3


@pytest.mark.parametrize(("argv", "needle"), [
    (["--agents", "random", "random"], "has 3 seats; --agents gave 2"),
    (["--seat", "4=random"], "has seats 1 to 3"),
    (["--seat", "two=random"], "expected SEAT=SPEC"),
    (["--agents", "random", "random", "random", "--second", "maxn"], "not both"),
    (["--agents", "alphabeta", "random", "random"], "two-player"),
])
def test_play_refuses_seats_that_do_not_fit_in_one_line(argv: list[str], needle: str) -> None:
    code, _, err = cli(["play", RACE3, *argv])
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and needle in err, err
