"""Go's compiled playouts and priors against the plain Python rules (the referee): every
playout move is legal (the playout knows the simple ko, not superko) and the boards agree
move by move; the pattern table holds MoGo's patterns; the priors' features agree with a
plain-Python computation from :meth:`Go.groups`."""

from __future__ import annotations

import random

import pytest

from gamesearch.games import get_game
from gamesearch.games.go import fast
from gamesearch.games.go.patterns import (
    CAPTURE_BIT,
    SAVE_BIT,
    SYMMETRIES,
    canonical_codes,
    code_of,
    load_weights,
    mogo_table,
)

pytestmark = pytest.mark.skipif(not fast.available(), reason="numba is not installed")


@pytest.mark.parametrize("spec", ["go:size=5", "go:size=9", "go:size=13,playout=captures",
                                  "go:size=9,playout=random",
                                  "go:size=9,no_self_atari=1,capture_any=1,uniform_random=1,"
                                  "answer_last=1",
                                  "go:size=7,playout=captures,no_self_atari=1,uniform_random=1"])
def test_playouts_follow_the_rules(spec: str) -> None:
    g = get_game(spec)
    playouts = g.playouts()
    assert playouts is not None and playouts.traced is not None
    rng = random.Random(7)
    for _ in range(40):
        s = g.initial_state()
        for _ in range(rng.randrange(8)):
            legal = g.actions(s)
            s = g.result(s, legal[rng.randrange(len(legal))])
        seed = rng.getrandbits(32)
        end, points, plies = fast.kernels(g).run(s, random.Random(seed), None)
        traced_end, traced = playouts.traced(s, random.Random(seed), None)
        assert traced_end.board == end.board
        # the trace: the same stones, passes left out, each with its player
        assert [a for _, a in traced] == [a for a in points[:plies] if a != g.pass_action]
        two_back = None
        for a in points[:plies].tolist():
            if a != g.pass_action:
                assert (g.to_move(s), a) in traced
                assert s.board[a] == 0
                played = g._play(s, a)
                assert played is not None, "suicide in a playout"
                assert played[1] != two_back, "a simple-ko recapture in a playout"
            two_back = s.hash
            s = g.result(s, a)
        assert s.board == end.board
        assert g.is_terminal(end)


def test_playout_cut_by_max_plies_is_a_real_position() -> None:
    g = get_game("go:size=9")
    playouts = g.playouts()
    assert playouts is not None and playouts.compiled is not None
    s = playouts.compiled(g.initial_state(), random.Random(1), 10)
    assert s.moves == 10 and not g.is_terminal(s)
    assert g.position([(p, c) for p, c in enumerate(s.board) if c], 0).hash == s.hash


def test_mogo_table_holds_the_patterns() -> None:
    table = mogo_table()
    # the enclosing hane XOX / ... / ??? (X the mover, O the opponent, all on the board)
    hane = code_of([2, 1, 0, 0, 0, 0, 0, 1])  # N=O, NE=X, rest empty but NW=X
    assert table[hane]
    for perm in SYMMETRIES:  # every rotation and reflection, and the colours swapped
        values = [[2, 1, 0, 0, 0, 0, 0, 1][perm[i]] for i in range(8)]
        assert table[code_of(values)]
        assert table[code_of([{1: 2, 2: 1}.get(v, v) for v in values])]
    assert not table[0]  # the empty neighbourhood is no pattern
    assert 0 < int(table.sum()) < 1 << 16


def test_canonical_codes_are_invariant() -> None:
    canon = canonical_codes()
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.randrange(4) for _ in range(8)]
        images = {int(canon[code_of([values[p[i]] for i in range(8)])]) for p in SYMMETRIES}
        assert len(images) == 1 and images.pop() <= code_of(values)


def test_features_agree_with_the_python_rules() -> None:
    g = get_game("go:size=9")
    kernels = fast.kernels(g)
    canon = canonical_codes()
    rng = random.Random(5)
    for _ in range(30):
        s = g.initial_state()
        for _ in range(rng.randrange(60)):
            legal = g.actions(s)
            s = g.result(s, legal[rng.randrange(len(legal))])
        if g.is_terminal(s):
            continue
        actions = g.actions(s)
        group_of, _stones, libs = g.groups(s)
        me = s.to_move + 1
        for a, f in zip(actions, kernels.features(s, actions), strict=True):
            if a == g.pass_action:
                assert f == -1
                continue
            r, c = divmod(a, 9)
            values = []
            for dr, dc in ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1),
                           (1, -1)):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < 9 and 0 <= cc < 9):
                    values.append(3)
                else:
                    x = s.board[rr * 9 + cc]
                    values.append(0 if not x else 1 if x == me else 2)
            want = int(canon[code_of(values)])
            for q in g.neighbours[a]:
                if s.board[q] and libs[group_of[q]] == 1:
                    want |= SAVE_BIT if s.board[q] == me else CAPTURE_BIT
            assert f == want


@pytest.mark.parametrize("spec", ["go:size=5", "go:size=7", "go:size=9"])
def test_compiled_rules_agree_with_the_python_rules(spec: str) -> None:
    """The compiled legal moves, stone play and area count (what ``Go.actions``,
    ``Go.result`` and the playouts' scores use) against the plain Python rules, at every
    ply of random games (5x5 fills up: captures, ko, superko refusals)."""
    g = get_game(spec)
    kernels = fast.kernels(g)
    rng = random.Random(11)
    plies = refused = captures = superko = 0
    for _ in range(12):
        s = g.initial_state()
        while not g.is_terminal(s) and s.moves < 3 * g.points:
            plain = g._legal_points(s)
            assert kernels.legal_points(s) == plain
            for p in range(g.points):
                if not s.board[p]:
                    played = kernels.play(s, p)
                    assert played == g._play(s, p)
                    refused += played is None
                    superko += played is not None and played[1] in s.history
            assert kernels.area(s.board) == g.area(s.board)
            stones = [a for a in plain if a != g.pass_action]
            a = rng.choice(stones) if stones and rng.random() < 0.97 else g.pass_action
            after = g.result(s, a)
            captures += a != g.pass_action and after.board.count(0) > s.board.count(0) - 1
            s = after
            plies += 1
    assert plies > 300 and refused > 0 and captures > 0 and superko > 0


def test_priors_are_the_learned_weights_of_the_features() -> None:
    """The compiled priors: each action's learned weight (its feature's from
    :meth:`GoKernels.features`, the pass's ``PASS_WEIGHT``) over their sum, in order."""
    g = get_game("go:size=9")
    kernels = fast.kernels(g)
    weights = load_weights()[0]
    rng = random.Random(8)
    for _ in range(20):
        s = g.initial_state()
        for _ in range(rng.randrange(50)):
            legal = g.actions(s)
            s = g.result(s, legal[rng.randrange(len(legal))])
        if g.is_terminal(s):
            continue
        raw = [fast.PASS_WEIGHT if f < 0 else float(weights[f])
               for f in kernels.features(s, g.actions(s))]
        assert kernels.priors(s).tolist() == [x / sum(raw) for x in raw]
