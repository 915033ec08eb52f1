"""The playout refinements of Go (``games/go/fast.py``), each an option of the game and
each checked against the plain Python rules (:class:`Go`), the referee:

* ``no_self_atari``: no playout move leaves a group of two stones or more with one
  liberty without capturing (replayed move by move through the Python rules' groups);
* ``uniform_random``: the random move is uniform over the allowed points (the old
  first-from-a-random-start scan is not: a point after a run of occupied ones is drawn
  far more often, which the same test shows);
* ``capture_any``: a group in atari anywhere is captured before a random move;
* ``answer_last``: the playout starts from the tree's last move, so it saves the group
  that move put in atari and never retakes a ko at once (without it, the first move
  of a playout may be a ko retake the rules forbid).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gamesearch.games import get_game
from gamesearch.games.go import fast
from gamesearch.games.go.rules import BLACK, WHITE, Go, GoState

pytestmark = pytest.mark.skipif(not fast.available(), reason="numba is not installed")

ALL = "no_self_atari=1,capture_any=1,uniform_random=1,answer_last=1"
REFINEMENTS = ("no_self_atari", "capture_any", "uniform_random", "answer_last")


def only(base: str, *on: str) -> str:
    """``base`` with the refinements ``on`` and every other one switched off (they are
    on by default): the policy as it was, plus ``on``."""
    return base + "".join(f",{r}={int(r in on)}" for r in REFINEMENTS)


def go(spec: str) -> Go:
    g = get_game(spec)
    assert isinstance(g, Go)
    return g


def play(g: Go, s: GoState, *vertices: str) -> GoState:
    for v in vertices:
        s = g.result(s, g.parse_action(s, v))
    return s


def first_moves(g: Go, s: GoState, runs: int, seed: int = 1) -> Counter[int]:
    kernels = fast.kernels(g)
    rng = random.Random(seed)
    return Counter(int(kernels.run(s, rng, 1)[1][0]) for _ in range(runs))


def self_ataris(spec: str, games: int) -> tuple[int, int]:
    """(moves that left a group of 2+ stones in atari without capturing, moves) over
    ``games`` playouts from random openings, replayed through the Python rules."""
    g = go(spec)
    kernels = fast.kernels(g)
    rng = random.Random(21)
    bad = moves = 0
    for _ in range(games):
        s = g.initial_state()
        for _ in range(rng.randrange(10)):
            legal = g.actions(s)
            s = g.result(s, legal[rng.randrange(len(legal))])
        _, points, plies = kernels.run(s, random.Random(rng.getrandbits(32)), None)
        for a in points[:plies].tolist():
            after = g.result(s, a)
            if a != g.pass_action:
                moves += 1
                captured = after.board.count(0) > s.board.count(0) - 1
                group_of, stones, libs = g.groups(after)
                k = group_of[a]
                if not captured and len(stones[k]) >= 2 and libs[k] == 1:
                    bad += 1
            s = after
    return bad, moves


def test_no_self_atari_of_groups() -> None:
    bad, moves = self_ataris(f"go:size=9,{ALL}", 25)
    assert moves > 1500 and bad == 0
    bad, moves = self_ataris("go:size=9", 25)  # the default: the same
    assert moves > 1500 and bad == 0
    bad, moves = self_ataris(only("go:size=9"), 25)  # the old policy does play them
    assert moves > 1500 and bad > 20


def test_uniform_random_move() -> None:
    g = go(only("go:size=9,playout=random", "uniform_random"))
    # rows 1 and 2 full of Black's stones: the 63 points of rows 3-9 are allowed
    s = g.position([(p, BLACK) for p in range(18)], 0)
    runs = 12_600
    counts = first_moves(g, s, runs)
    assert set(counts) == set(range(18, 81))
    expected = runs / 63
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in range(18, 81))
    assert chi2 < 62 + 6 * (2 * 62) ** 0.5  # 62 degrees of freedom: about 129 at most
    # the old scan takes the first allowed point from a random start: A3 (point 18)
    # follows the 18 occupied points, so it is drawn about 19 times as often
    old = first_moves(go(only("go:size=9,playout=random")), s, runs)
    assert old[18] > 10 * expected


def test_capture_any() -> None:
    # White's E5 in atari (its liberty E4), far from any last move: Black captures it
    stones = [(g_pt, BLACK) for g_pt in (39, 41, 49)] + [(40, WHITE)]
    g = go(only("go:size=9,playout=captures", "capture_any"))
    s = g.position(stones, 0)
    assert g.vertex(40) == "E5" and g.vertex(31) == "E4"
    assert first_moves(g, s, 200) == Counter({31: 200})
    plain = first_moves(go(only("go:size=9,playout=captures")), s, 200)
    assert plain[31] < 50


def test_answer_last_saves_the_group_in_atari() -> None:
    g = go(f"go:size=9,{ALL}")
    s = g.position([(p, BLACK) for p in (g.parse_vertex("C3"), g.parse_vertex("C4"))]
                   + [(g.parse_vertex(v), WHITE) for v in ("B3", "B4", "C5", "D4")], 1)
    s = play(g, s, "D3")  # White: Black's C3-C4 in atari, its liberty C2
    assert s.last == g.parse_vertex("D3")
    c2 = g.parse_vertex("C2")
    assert first_moves(g, s, 200) == Counter({c2: 200})
    without = first_moves(go(only("go:size=9", "no_self_atari", "capture_any",
                                  "uniform_random")),
                          s, 200)
    assert without[c2] < 50


def test_answer_last_never_retakes_a_ko() -> None:
    # White's D4 in atari by D5, C4, D3; Black takes it at E4 (White's E5, F4, E3
    # around): White may not retake at D4 at once
    g = go(f"go:size=9,{ALL}")
    stones = [(g.parse_vertex(v), BLACK) for v in ("D5", "C4", "D3")] + [
        (g.parse_vertex(v), WHITE) for v in ("D4", "E5", "F4", "E3")]
    s = play(g, g.position(stones, 0), "E4")
    d4 = g.parse_vertex("D4")
    assert s.board[d4] == 0 and not g.is_legal(s, d4)  # the rules: superko
    assert first_moves(g, s, 300)[d4] == 0
    # the playout from a state that does not know its last move (the old policy, or
    # a position set up without it) retakes sometimes
    old = go(only("go:size=9,playout=captures", "capture_any"))
    assert first_moves(old, s, 3000)[d4] > 0


def test_the_refinements_are_on_by_default() -> None:
    g = go("go:size=9")
    assert all(getattr(g, r) for r in REFINEMENTS)
    assert not any(getattr(go(only("go:size=9")), r) for r in REFINEMENTS)
