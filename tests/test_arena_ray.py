"""The Ray backend gives exactly the local backend's results (one local Ray instance).

Starting Ray costs ~20-30 s on a 2-core machine, so this module starts it once and asks
everything of it in one test. Without Ray installed (``pip install 'gamesearch[ray]'``) the
module is skipped, and says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from gamesearch.arena import RunOptions, TournamentConfig, parse_agents, run_tournament

ray: Any = pytest.importorskip(
    "ray", reason="RAY NOT INSTALLED: the Ray backend is untested (pip install 'gamesearch[ray]')"
)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


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
