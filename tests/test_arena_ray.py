"""The Ray backend gives exactly the local backend's results (one local Ray instance).

Starting Ray costs ~20-30 s on a 2-core machine, so this module starts it once and asks
everything of it in one test. Without Ray installed (``pip install 'gamesearch[ray]'``) the
module is skipped, and says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament
from gamesearch.arena.runner import start_local_ray

TESTS = str(Path(__file__).resolve().parent)
ray: Any = pytest.importorskip(
    "ray", reason="RAY NOT INSTALLED: the Ray backend is untested (pip install 'gamesearch[ray]')"
)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # tests/ on PYTHONPATH, as a user names the folder of their own game or agent module:
    # the local instance's workers inherit it
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [TESTS, saved]))
    try:
        start_local_ray(ray, num_cpus=2)  # as --backend ray does: on 127.0.0.1 only
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved
    try:
        yield
    finally:
        ray.shutdown()


def _listening_ports_of_ray() -> list[str]:
    """The local addresses Ray's own processes listen on (from /proc/net/tcp{,6})."""
    inodes = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
            if b"gcs_server" not in cmd and b"raylet" not in cmd:
                continue
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            for line in fh.readlines()[1:]:
                parts = line.split()
                if parts[3] == "0A" and parts[9] in inodes:  # LISTEN
                    found.append(parts[1])
    return found


def test_the_local_instance_listens_on_loopback_only(ray_instance: None) -> None:
    if not os.path.exists("/proc/net/tcp"):
        pytest.skip("no /proc/net/tcp to read listening sockets from")
    addresses = _listening_ports_of_ray()
    assert addresses, "no listening socket of Ray's processes found"
    loopback = ("0100007F:", "0000000000000000FFFF00000100007F:",
                "00000000000000000000000001000000:")
    assert all(a.startswith(loopback) for a in addresses), addresses


def test_ray_backend_equals_local_backend(ray_instance: None) -> None:
    cfg = TournamentConfig(
        "tictactoe",
        tuple(parse_agents(["alphabeta:depth=2", "negamax:depth=3,tt=64K,ordering=1",
                            "random:seed=5"])),
        games_per_pair=4, seed=11,
    )
    local = run_tournament(cfg, RunOptions(workers=2))
    remote = run_tournament(cfg, RunOptions(backend="ray", workers=2))
    assert len(remote.records) == len(local.records) == 12
    assert sorted(r.outcome_key() for r in remote.records) == sorted(
        r.outcome_key() for r in local.records)
    assert [(s.name, s.score) for s in remote.standings] == [
        (s.name, s.score) for s in local.standings]
    dice = TournamentConfig("pig", tuple(parse_agents(["expectiminimax:depth=2",
                                                       "random:seed=1"])), games_per_pair=2)
    assert sorted(r.outcome_key() for r in run_tournament(
        dice, RunOptions(backend="ray")).records) == sorted(
        r.outcome_key() for r in run_tournament(dice).records)


def test_a_ray_worker_imports_an_outside_game(ray_instance: None) -> None:
    # tests/outside_game.py, named by module: each Ray task imports it (Ray's workers see
    # the driver's PYTHONPATH, as a cluster's nodes see an installed package)
    cfg = TournamentConfig("py:outside_game:Subtraction:pile=9",
                           tuple(parse_agents(["alphabeta", "random:seed=2"])), games_per_pair=2)
    remote = run_tournament(cfg, RunOptions(backend="ray", workers=2))
    assert [r.termination for r in remote.records] == ["normal", "normal"]
    assert all(sum(int(m) for m in r.moves) == 9 for r in remote.records)
    assert sorted(r.outcome_key() for r in remote.records) == sorted(
        r.outcome_key() for r in run_tournament(cfg).records)


def test_ray_plays_three_seats_as_the_local_backend(ray_instance: None) -> None:
    """Three seats (tests/nplayer_game.py's race): each Ray task plays a rotated table and
    sends back its per-seat results, the same as local processes."""
    cfg = TournamentConfig("py:nplayer_game:Race:players=3", tuple(parse_agents(
        ["maxn:depth=2", "paranoid:depth=2", "random:seed=4", "mcts:iterations=20,seed=1"])),
        games_per_pair=3)
    remote = run_tournament(cfg, RunOptions(backend="ray", workers=2))
    assert len(remote.records) == 12 and all(len(r.ranks) == 3 for r in remote.records)
    assert sorted(r.outcome_key() for r in remote.records) == sorted(
        r.outcome_key() for r in run_tournament(cfg).records)


def test_ray_plays_duplicate_bridge_as_the_local_backend(ray_instance: None) -> None:
    """Duplicate bridge (each board at two tables, pairs turned): each Ray task gets a
    board's game spec (its deal) and the seats of both pairs, with the seat-view checker
    as a pair; the same tables as local processes, no forfeit."""
    cfg = TournamentConfig("bridge:contract=3N,declarer=S", tuple(parse_agents(
        ["py:arena_agents:SeatViewOnly", "random:seed=3"])), games_per_pair=4, duplicate=True)
    remote = run_tournament(cfg, RunOptions(backend="ray", workers=2))
    assert len(remote.records) == 4 and all(r.termination == "normal" for r in remote.records)
    assert sorted(r.outcome_key() for r in remote.records) == sorted(
        r.outcome_key() for r in run_tournament(cfg).records)
