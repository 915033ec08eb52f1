"""GTP engines as arena agents (``gtp:PATH[,level=N]``): GNU Go plays a tournament on 5x5
against a random mover through the arena (its store, its clocks) and wins, every move it
sends legal under our rules; bad specs are one-line errors."""

from __future__ import annotations

import shutil

import pytest

from gamesearch.arena import RunOptions, TimeControl, TournamentConfig, parse_agents, run_tournament
from gamesearch.arena.errors import ArenaError
from gamesearch.arena.play import make_arena_agent
from gamesearch.errors import GameError
from gamesearch.games import get_game

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
pytestmark = pytest.mark.skipif(
    GNUGO is None, reason="LOUD SKIP: Debian's gnugo is not installed (make test installs "
    "it): the gtp: agent is untested")


def test_gnugo_beats_a_random_mover_in_the_arena() -> None:
    cfg = TournamentConfig(
        "go:size=5", tuple(parse_agents([f"gnugo=gtp:{GNUGO},level=1", "random:seed=1"])),
        games_per_pair=2, time_control=TimeControl(30, 0.5), max_plies=200)
    result = run_tournament(cfg, RunOptions(workers=1))
    assert [r.termination for r in result.records] == ["normal", "normal"]
    top = result.standings[0]
    assert top.name == "gnugo" and top.score.wins == 2


def test_bad_gtp_specs() -> None:
    go = get_game("go:size=9")
    for spec, words in ((f"gtp:{GNUGO},frob=1", "allowed: level, args"),
                        (f"gtp:{GNUGO},level=99", "level"),
                        ("gtp:", "expected gtp:PATH"),
                        ("gtp:/no/such/engine", "did not start")):
        with pytest.raises(GameError) as info:
            make_arena_agent(go, spec, 0)
        assert words in str(info.value) and "\n" not in str(info.value)
    for name in ("tictactoe", "chess", "backgammon"):  # (found by the gtp() capability)
        with pytest.raises(ArenaError, match=rf"Go Text Protocol .*, not {name}$"):
            make_arena_agent(get_game(name), f"gtp:{GNUGO}", 0)
