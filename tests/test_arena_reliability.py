"""The arena when things go wrong (issue 13): foreign and damaged results files, a file that
holds another tournament, two processes on one file, kills at random moments, tournaments
too large to schedule, a Ray address nobody answers at.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cli_runner import cli
from gamesearch.arena import (
    ArenaError,
    RunOptions,
    Store,
    TournamentConfig,
    parse_agents,
    run_tournament,
)
from gamesearch.arena import runner as runner_module
from gamesearch.arena.store import APPLICATION_ID, Owner
from gamesearch.interfaces.cli import main

TESTS = Path(__file__).resolve().parent
MATCH = ["match", "tictactoe", "random:seed=1", "alphabeta:depth=1", "--games", "30",
         "--time-control", "5+0.05", "--quiet", "--json"]




def env_with_tests() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])}


@pytest.fixture(scope="module")
def finished_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file holding :data:`MATCH`, played to the end."""
    path = tmp_path_factory.mktemp("arena") / "finished.sqlite"
    code, _, err = cli([*MATCH, "--db", str(path)])
    assert code == 0, err
    return path


def assert_refused(argv: list[str], needle: str) -> str:
    code, _, err = cli(argv)
    assert code == 2, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("gamesearch: error:") and needle in last, err
    return last


# ----- foreign and damaged files ------------------------------------------------------------
def test_another_programs_database_is_refused_before_anything_is_written(tmp_path: Path
                                                                         ) -> None:
    shop = tmp_path / "shop.sqlite"
    con = sqlite3.connect(shop)
    con.execute("CREATE TABLE games (name TEXT, price REAL)")  # a `games` table, not ours
    con.commit()
    con.close()
    before = shop.read_bytes()
    assert_refused([*MATCH, "--db", str(shop)], "its games table has no column")
    assert shop.read_bytes() == before
    con = sqlite3.connect(tmp_path / "notes.sqlite")
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    assert_refused([*MATCH, "--db", str(tmp_path / "notes.sqlite")], "other tables: 'notes'")
    con = sqlite3.connect(tmp_path / "app.sqlite")
    con.execute("PRAGMA application_id = 1234")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    assert_refused([*MATCH, "--db", str(tmp_path / "app.sqlite")], "application id 0x000004d2")
    (tmp_path / "junk.sqlite").write_bytes(os.urandom(5000))
    assert_refused([*MATCH, "--db", str(tmp_path / "junk.sqlite")], "is damaged")
    assert_refused([*MATCH, "--db", str(tmp_path)], "results database")


def test_a_results_file_is_marked_as_ours(finished_db: Path) -> None:
    con = sqlite3.connect(finished_db)
    try:
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    finally:
        con.close()


def test_junk_in_the_middle_of_a_results_file_is_a_clear_error(finished_db: Path,
                                                               tmp_path: Path) -> None:
    page = 4096
    data = bytearray(finished_db.read_bytes())
    middle = (len(data) // page // 2) * page
    data[middle:middle + page] = random.Random(5).randbytes(page)
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(bytes(data))
    assert_refused([*MATCH, "--db", str(damaged)], "is damaged")


def test_any_damage_ends_in_exit_0_or_2_never_a_traceback(finished_db: Path,
                                                          tmp_path: Path) -> None:
    """Junk of every size at 30 places: the run either does not notice (the junk fell in
    free space or in a value) or stops with one line; never a traceback."""
    rng = random.Random(7)
    data = finished_db.read_bytes()
    refused = 0
    for i in range(30):
        copy = bytearray(data)
        at, size = rng.randrange(len(copy)), rng.choice([1, 8, 64, 512, 4096])
        copy[at:at + size] = rng.randbytes(min(size, len(copy) - at))
        path = tmp_path / f"d{i}.sqlite"
        path.write_bytes(bytes(copy))
        code, _, err = cli([*MATCH, "--db", str(path)])
        assert code in (0, 2) and "Traceback" not in err, (at, size, err)
        refused += code == 2
        if code == 2:
            assert len(err.strip().splitlines()[-1]) < 600
    assert refused >= 5  # (quick_check and the row checks catch a good share)


def test_damage_met_mid_run_is_one_line_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    """SQLite may notice damage only when it reads the page: any error then is the same
    one-line message (here the store is made to fail at its third game)."""
    calls = {"n": 0}
    real = Store.add_game.__wrapped__  # type: ignore[attr-defined]

    def failing(self: Store, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real(self, *args, **kwargs)

    from gamesearch.arena import store as store_module

    monkeypatch.setattr(Store, "add_game", store_module._guarded(failing))
    assert_refused([*MATCH, "--db", str(tmp_path / "r.sqlite")],
                   "is damaged (database disk image is malformed)")


def test_a_file_holding_another_tournament_says_so(finished_db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(finished_db, copy)
    other = [*MATCH]
    other[other.index("--games") + 1] = "40"
    last = assert_refused([*other, "--db", str(copy)], "holds a different 'tictactoe'")
    assert "games_per_pair '40' here, '30' in the file" in last
    code, out, _ = cli([*MATCH, "--db", str(copy)])  # the command that made it resumes it
    assert code == 0 and json.loads(out)["played"] == 0


# ----- leases ------------------------------------------------------------------------------
def config(games: int = 6) -> TournamentConfig:
    return TournamentConfig("tictactoe", tuple(parse_agents(["random:seed=1",
                                                             "random:seed=2"])),
                            games_per_pair=games)


def test_leases_split_the_slots_and_a_dead_owners_lease_is_taken_over(tmp_path: Path) -> None:
    cfg = config(6)
    slots = [cfg.slot_at(i) for i in range(cfg.total)]
    with Store(str(tmp_path / "l.sqlite")) as store:
        tid = store.tournament(cfg)
        me, them = Owner(), Owner(host="elsewhere", pid=1)
        claimed, stored, held = store.claim(tid, iter(slots), 2, them, seconds=0.5)
        assert claimed == slots[:2] and not stored and not held
        claimed, _, held = store.claim(tid, iter(slots), 2, me)
        assert claimed == slots[2:4] and held == slots[:2]  # theirs, still valid
        time.sleep(0.6)  # their owner stopped renewing: the leases lapse
        claimed, _, held = store.claim(tid, iter(slots[:2]), 2, me)
        assert claimed == slots[:2] and not held
        # a lease of this host whose process is gone is taken over at once
        with subprocess.Popen([sys.executable, "-c", "pass"]) as gone:
            gone.wait()
        dead = Owner(pid=gone.pid)
        assert store.claim(tid, iter(slots[4:5]), 1, dead)[0] == [slots[4]]
        assert store.claim(tid, iter(slots[4:5]), 1, me)[0] == [slots[4]]
        # ... and one whose process lives is not
        with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as alive:
            try:
                owner = Owner(pid=alive.pid)
                assert store.claim(tid, iter(slots[5:]), 1, owner)[0] == [slots[5]]
                assert store.claim(tid, iter(slots[5:]), 1, me)[2] == [slots[5]]
            finally:
                alive.kill()
        store.release(tid, me)
        assert [lease[0] for lease in store.leases(tid)] == [slots[5]]


def _spawn(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "gamesearch", *argv], env=env_with_tests(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


SHARED = ["tournament", "tictactoe", "--agents", "alphabeta:depth=2", "random:seed=3",
          "py:arena_agents:Sleepy", "--games-per-pair", "8", "--random-plies", "1",
          "--seed", "4", "--quiet", "--json"]


def test_two_processes_on_one_file_split_the_games_and_play_each_once(tmp_path: Path
                                                                      ) -> None:
    db = str(tmp_path / "shared.sqlite")
    procs = [_spawn([*SHARED, "--db", db]) for _ in range(2)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    played = [r["played"] for r in results]
    assert sum(played) == results[0]["scheduled"] == 24  # every game played once ...
    assert min(played) >= 3, played  # ... and both did a share of the work
    assert all(r["games"] == 24 for r in results)  # both waited for the other's games
    assert results[0]["standings"] == results[1]["standings"]
    reference_out = io.StringIO()
    assert main([*SHARED, "--db", str(tmp_path / "alone.sqlite")], reference_out) == 0
    assert json.loads(reference_out.getvalue())["standings"] == results[0]["standings"]
    with Store(db) as store:
        (tid,) = store.db.execute("SELECT id FROM tournaments").fetchone()  # type: ignore
        assert store.count_duplicates(tid) == 0 and store.leases(tid) == []
        assert len(store.games(tid)) == 24


#: A gauntlet of a slow but deterministic agent (30 ms a move, asleep: it leaves the CPU
#: to the rest of the suite) against two fast ones: 300 games, about 20 s uninterrupted.
SOAK = ["tournament", "tictactoe", "--agents", "py:arena_agents:Sleepy", "random:seed=1",
        "alphabeta:depth=1", "--format", "gauntlet", "--games-per-pair", "150",
        "--seed", "9", "--quiet", "--json"]
#: SIGKILLs the soak test lands, each at a random moment of a run.
KILLS = 20


def test_soak_sigkill_at_random_moments_ends_with_the_uninterrupted_standings(
        tmp_path: Path) -> None:
    db = tmp_path / "soak.sqlite"
    reference = _spawn([*SOAK, "--db", str(tmp_path / "reference.sqlite")])  # meanwhile
    rng = random.Random(2024)
    start = time.monotonic()
    landed = 0
    for _ in range(KILLS):
        proc = _spawn([*SOAK, "--db", str(db)])
        time.sleep(rng.uniform(0.5, 1.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            landed += 1
        proc.communicate(timeout=60)
    final = _spawn([*SOAK, "--db", str(db)])
    out, err = final.communicate(timeout=180)
    assert final.returncode == 0, err
    elapsed = time.monotonic() - start
    assert elapsed < 150, elapsed  # bounded: the kills cost little and leases free at once
    assert landed == KILLS  # every kill hit a running command ...
    resumed = json.loads(out)
    assert resumed["played"] > 0  # ... and the tournament was not over before the last one
    assert resumed["games"] == resumed["scheduled"] == 300
    ref_out, ref_err = reference.communicate(timeout=180)
    assert reference.returncode == 0, ref_err
    assert resumed["standings"] == json.loads(ref_out)["standings"]
    with Store(str(db)) as store:
        (tid,) = store.db.execute("SELECT id FROM tournaments").fetchone()  # type: ignore
        assert store.count_duplicates(tid) == 0 and store.leases(tid) == []


# ----- size and reach ----------------------------------------------------------------------
def test_a_schedule_too_large_is_refused_and_a_large_one_starts_at_once() -> None:
    assert_refused(["match", "tictactoe", "random", "random", "--games",
                    "99999999999999999999999"], "from 1 to 1,000,000")
    assert_refused(["tournament", "tictactoe", "--agents", "random", "random", "random",
                    "--games-per-pair", "1000000"],
                   "3,000,000 games scheduled (1,000,000 for each of 3 pairs)")

    class Enough(Exception):
        pass

    def stop(record: Any) -> None:
        raise Enough

    start = time.monotonic()
    with pytest.raises(Enough):  # a million games: the first is played without delay
        run_tournament(config(10**6), RunOptions(on_record=stop))
    assert time.monotonic() - start < 10


def test_a_ray_address_nobody_answers_at_fails_within_its_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "RAY_CONNECT_SECONDS", 1.0)
    start = time.monotonic()
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens once it is closed
    with pytest.raises(ArenaError, match="no Ray cluster answers at"):
        runner_module._reachable(f"127.0.0.1:{port}")
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        host, port = silent.getsockname()
        with pytest.raises(ArenaError, match="no answer within 1 s"):
            runner_module._reachable(f"{host}:{port}")
    for bad in ("nowhere", "host:99999", "host:٣"):
        with pytest.raises(ArenaError, match="expected HOST:PORT"):
            runner_module._reachable(bad)
    assert time.monotonic() - start < 8
