"""Go's rules against the referees (:mod:`referees.go`): OpenSpiel's
``go`` (legal moves at every ply but positional superko's, the final boards and returns)
and GNU Go over GTP (``is_legal`` on positions of those games and on a superko cycle;
``final_score`` of games it plays out with ``--capture-all-dead``). Samples here;
``benchmarks/go_referees.py`` runs the full counts."""

from __future__ import annotations

import shutil

import pytest

from gamesearch.games.go.gtp import GTPClient, gnugo_argv
from gamesearch.games.go.rules import Go
from referees.go import (
    compare_gnugo_legal,
    compare_gnugo_scores,
    compare_openspiel,
)
from test_go import SUPERKO_LINES

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
needs_gnugo = pytest.mark.skipif(
    GNUGO is None, reason="LOUD SKIP: Debian's gnugo is not installed (make test installs "
    "it): the GNU Go referee checks did not run")


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


needs_openspiel = pytest.mark.skipif(
    not openspiel_available(), reason="LOUD SKIP: open_spiel (the dev extra) is not "
    "installed: the OpenSpiel referee checks did not run")


@needs_openspiel
@pytest.mark.parametrize(("size", "games"), [(5, 60), (9, 30)])
def test_openspiel_agrees(size: int, games: int) -> None:
    tally = compare_openspiel(games, size=size, seed=11)
    assert tally.mismatches == []
    assert tally.games == games and tally.positions > games * 20
    assert tally.cap_ends > 0  # the games that never pass reach OpenSpiel's cap


@needs_openspiel
@needs_gnugo
def test_gnugo_is_legal_agrees_on_random_game_positions() -> None:
    lines: list[list[int]] = []
    compare_openspiel(4, size=9, seed=3, keep=lines)
    assert GNUGO is not None
    tally = compare_gnugo_legal(GNUGO, lines, size=9, every=15)
    assert tally.mismatches == [] and tally.positions >= 20


@needs_gnugo
def test_gnugo_agrees_on_a_superko_cycle() -> None:
    assert GNUGO is not None
    game = Go(size=5)
    line, move = SUPERKO_LINES[0]
    tally = compare_gnugo_legal(GNUGO, [[game.parse_vertex(w) for w in line.split()]],
                                size=5, every=1)
    assert tally.mismatches == [] and tally.positions == len(line.split())
    client = GTPClient(gnugo_argv(GNUGO))
    try:
        client.send("boardsize 5")
        for i, w in enumerate(line.split()):
            client.send(f"play {'bw'[i % 2]} {w}")
        assert client.send(f"is_legal w {move}") == "0"  # simple ko would allow it
    finally:
        client.close()


@needs_gnugo
def test_gnugo_final_score_equals_our_area_count() -> None:
    assert GNUGO is not None
    tally = compare_gnugo_scores(GNUGO, 2, size=9, seed=5, level=1)
    assert tally.mismatches == [] and tally.games == 2
