"""Matrix games' equilibria (search/nash.py) against nashpy, the seeds' claims, and an
alliance that changes a three-player outcome.

The referee is nashpy (0.0.43 here): its *vertex enumeration* for the set of equilibria
(its support enumeration compares floats exactly and drops genuine mixed equilibria of
random real-valued games: on the first game of seed 1 below it reports 2 of the 3 that
vertex enumeration and we find), its ``linear_program`` for zero-sum values, and its
Lemke–Howson where that ends in an equilibrium (on some games with more rows than columns
it ends elsewhere, or never, and its integer pivoting overflows to NaN on some 4x5 games:
those labels are checked against our own set only).

Mutations checked by hand once (each made the named test fail, then was undone):
* the positivity rule on a support (``_keep``'s ``<= tol`` and ``_support_batch``'s
  ``worth`` filter both turned to ``< -tol``: strategies with zero entries kept) —
  test_support_enumeration_lists_each_equilibrium_once_on_degenerate_games (``_keep``
  alone is caught by test_batched_support_enumeration_is_the_plain_loop);
* ``_if_equilibrium``: the best-response test dropped —
  test_support_enumeration_equals_nashpys_vertex_enumeration and
  test_prisoners_dilemma_has_one_equilibrium_both_defect;
* ``_support_batch``: the column sets' order reversed (``C = np.array(col_sets[::-1])``) —
  test_batched_support_enumeration_is_the_plain_loop;
* ``solve_zero_sum``: the dual's sign (``_distribution(res.ineqlin.marginals)``) with the
  fallback to the column player's LP skipped — test_lp_value_and_strategies_against_nashpy
  (the wrong sign alone is repaired by the fallback); the fallback skipped alone —
  test_lp_solves_the_column_players_lp_when_the_dual_does_not_hold_the_value;
* ``_pivot``: the ratio test without its lexicographic tie-break (``if tied.size > 1`` never)
  — test_lemke_howson_does_not_cycle_on_degenerate_games (the path cycles until
  MAX_PIVOTS); the minimum ratio turned into a maximum (``ratios.max()``) —
  test_lemke_howson_against_nashpy;
* ``pure_equilibria``: ``max`` -> ``min`` — test_the_alliance_in_normal_form and
  test_matching_pennies_and_rock_paper_scissors_have_only_the_mixed_equilibrium;
* the alliance's summed utility (``alliance_tree``: ``(va, vc)`` for ``(va + vb, vc)``) —
  test_an_alliance_changes_the_max_n_outcome.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from gamesearch.games.trees import TreeGame, node
from gamesearch.search import nash, search
from gamesearch.search.nash import (
    Equilibrium,
    MatrixGameError,
    bimatrix_payoffs,
    lemke_howson,
    lemke_howson_all,
    pure_equilibria,
    same_equilibrium,
    solve_zero_sum,
    support_enumeration,
)

nashpy = pytest.importorskip("nashpy")

SEEDS = range(60)


def random_game(seed: int, low: int = 2, high: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """A random real-valued (so nondegenerate with probability one) m x n bimatrix game."""
    rng = np.random.default_rng(seed)
    m, n = rng.integers(low, high + 1, size=2)
    return rng.random((m, n)) * 10 - 5, rng.random((m, n)) * 10 - 5


def as_set(pairs: list[tuple[np.ndarray, np.ndarray]] | tuple[Equilibrium, ...]
           ) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    out = []
    for p in pairs:
        row, col = (p.row, p.column) if isinstance(p, Equilibrium) else p
        out.append((tuple(np.round(row, 9) + 0.0), tuple(np.round(col, 9) + 0.0)))
    return sorted(out)


def is_equilibrium(A: np.ndarray, B: np.ndarray, e: Equilibrium, tol: float = 1e-9) -> bool:
    x, y = np.array(e.row), np.array(e.column)
    return bool((A @ y).max() <= x @ A @ y + tol and (x @ B).max() <= x @ B @ y + tol)


# ----- against nashpy ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_support_enumeration_equals_nashpys_vertex_enumeration(seed: int) -> None:
    A, B = random_game(seed)
    ours = support_enumeration(A, B)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = list(nashpy.Game(A, B).vertex_enumeration())
    assert as_set(ours.equilibria) == as_set(theirs)
    assert len(ours.equilibria) % 2 == 1 and not ours.degenerate
    for e in ours.equilibria:
        x, y = np.array(e.row), np.array(e.column)
        assert e.row_payoff == pytest.approx(x @ A @ y, abs=1e-9)
        assert e.column_payoff == pytest.approx(x @ B @ y, abs=1e-9)


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_batched_support_enumeration_is_the_plain_loop(seed: int) -> None:
    A, B = random_game(seed, 1, 7)
    assert support_enumeration(A, B) == support_enumeration(A, B, batched=False)
    rng = np.random.default_rng(seed)  # small integers: singular systems, degenerate games
    A, B = rng.integers(-2, 3, size=A.shape), rng.integers(-2, 3, size=A.shape)
    assert support_enumeration(A, B) == support_enumeration(A, B, batched=False)


def test_support_enumeration_lists_each_equilibrium_once_on_degenerate_games() -> None:
    rng = np.random.default_rng(3)
    for _ in range(100):
        m, n = rng.integers(1, 5, size=2)
        A, B = rng.integers(0, 3, size=(m, n)), rng.integers(0, 3, size=(m, n))
        found = support_enumeration(A, B).equilibria
        assert len(set(as_set(found))) == len(found), (A, B)
        assert all(is_equilibrium(A, B, e) for e in found)
        for e in found:  # each found on its own support pair: the sizes are equal
            assert np.count_nonzero(e.row) == np.count_nonzero(e.column), (A, B, e)


def test_lemke_howson_against_nashpy() -> None:
    agreed = 0
    for seed in SEEDS:
        A, B = random_game(seed)
        everything = support_enumeration(A, B).equilibria
        m, n = A.shape
        for label in range(m + n):
            ours = lemke_howson(A, B, label)
            assert any(same_equilibrium(ours, e) for e in everything), (seed, label)
            if m > n:
                continue  # nashpy's path may end outside the equilibria, or loop (4x1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                row, col = nashpy.Game(A, B).lemke_howson(initial_dropped_label=label)
            if not (np.all(np.isfinite(row)) and np.all(np.isfinite(col))  # (it overflows)
                    and is_equilibrium(A, B, Equilibrium(tuple(row), tuple(col), 0, 0))):
                continue
            assert np.allclose(ours.row, row, atol=1e-9), (seed, label)
            assert np.allclose(ours.column, col, atol=1e-9), (seed, label)
            agreed += 1
        found = lemke_howson_all(A, B)
        assert len({as_set([e])[0] for e in found}) == len(found)
    assert agreed > 200


def test_lemke_howson_on_a_degenerate_game_ends_in_an_equilibrium() -> None:
    # von Stengel (2002) §2.6's degenerate game: the top row has two best responses (a whole
    # segment of equilibria with the top row); support enumeration sees two, and says so
    A = np.array([[3, 3], [2, 5], [0, 6]])
    B = np.array([[3, 3], [2, 6], [3, 1]])
    for label in range(5):
        assert is_equilibrium(A, B, lemke_howson(A, B, label)), label
    found = support_enumeration(A, B)
    assert len(found.equilibria) == 2 and found.degenerate


#: Degenerate games on which Lemke-Howson's path cycles without the lexicographic tie-break
#: (found by a search over small integer games; the label that cycles last)
CYCLING = [
    ([[2, 0, 0], [1, 1, 0], [0, 1, 1], [2, 1, 0]], [[0, 0, 1], [2, 0, 2], [1, 2, 2], [1, 2, 2]]),
    ([[2, 0, 2, 1], [1, 2, 0, 1], [2, 2, 0, 0], [1, 1, 2, 2]],
     [[1, 1, 1, 2], [1, 0, 1, 2], [1, 2, 1, 0], [0, 2, 1, 2]]),
    ([[0, 1, 2, 1], [0, 2, 2, 0], [1, 1, 0, 0]], [[0, 0, 2, 0], [1, 1, 0, 2], [0, 1, 1, 0]]),
]


@pytest.mark.parametrize(("a", "b"), CYCLING)
def test_lemke_howson_does_not_cycle_on_degenerate_games(a: list, b: list) -> None:
    A, B = np.array(a), np.array(b)
    for label in range(sum(A.shape)):
        assert is_equilibrium(A, B, lemke_howson(A, B, label)), label


def test_every_lemke_howson_path_of_small_integer_games_ends_in_an_equilibrium() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        m, n = rng.integers(1, 5, size=2)
        A, B = rng.integers(0, 3, size=(m, n)), rng.integers(0, 3, size=(m, n))
        for label in range(m + n):
            assert is_equilibrium(A, B, lemke_howson(A, B, label)), (A, B, label)


@pytest.mark.parametrize("seed", SEEDS)
def test_lp_value_and_strategies_against_nashpy(seed: int) -> None:
    A, _ = random_game(seed, 1, 8)
    ours = solve_zero_sum(A)
    row, col = nashpy.Game(A).linear_program()
    assert ours.value == pytest.approx(row @ A @ col, abs=1e-9)
    x, y = np.array(ours.row), np.array(ours.column)
    assert x.min() >= 0 and y.min() >= 0 and x.sum() == pytest.approx(1)
    assert y.sum() == pytest.approx(1)
    assert (x @ A).min() >= ours.value - 1e-9  # the row player guarantees the value
    assert (A @ y).max() <= ours.value + 1e-9  # and the column player holds it there


def test_lp_solves_the_column_players_lp_when_the_dual_does_not_hold_the_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = nash._maximin, []

    def spoiled(M: np.ndarray) -> tuple:  # the first call's dual strategy shifted by one
        x, v, y = real(M)
        calls.append(M.shape)
        return x, v, (np.roll(y, 1) if len(calls) == 1 else y)

    monkeypatch.setattr(nash, "_maximin", spoiled)
    sol = solve_zero_sum([[3, 2, 8], [1, 4, 0]])
    assert calls == [(2, 3), (3, 2)]
    assert sol.value == pytest.approx(2.5) and sol.column == pytest.approx((0.5, 0.5, 0))


@pytest.mark.parametrize("seed", range(20))
def test_lp_value_is_every_zero_sum_equilibriums_payoff(seed: int) -> None:
    A, _ = random_game(seed)
    value = solve_zero_sum(A).value
    for e in support_enumeration(A).equilibria:
        assert e.row_payoff == pytest.approx(value, abs=1e-9)
        assert e.column_payoff == pytest.approx(-value, abs=1e-9)


# ----- the seeds' claims ---------------------------------------------------------------------
PENNIES = [[1, -1], [-1, 1]]
RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
PRISONERS = ([[3, 0], [5, 1]], [[3, 5], [0, 1]])  # (cooperate, defect) for each
SEXES = ([[3, 0], [0, 2]], [[2, 0], [0, 3]])  # (opera, football)


@pytest.mark.parametrize(("game", "mixed"), [(PENNIES, 1 / 2), (RPS, 1 / 3)])
def test_matching_pennies_and_rock_paper_scissors_have_only_the_mixed_equilibrium(
        game: list[list[int]], mixed: float) -> None:
    A = np.array(game)
    assert pure_equilibria(bimatrix_payoffs(A, -A)) == []
    lp = solve_zero_sum(A)
    assert lp.value == pytest.approx(0, abs=1e-12)
    assert lp.row == pytest.approx([mixed] * len(game)) and lp.column == pytest.approx(
        [mixed] * len(game))
    for found in (support_enumeration(A).equilibria, lemke_howson_all(A)):
        assert len(found) == 1
        assert found[0].row == pytest.approx([mixed] * len(game), abs=1e-12)
        assert found[0].column == pytest.approx([mixed] * len(game), abs=1e-12)
        assert not found[0].pure


def test_prisoners_dilemma_has_one_equilibrium_both_defect() -> None:
    A, B = PRISONERS
    assert pure_equilibria(bimatrix_payoffs(A, B)) == [(1, 1)]
    (only,) = support_enumeration(A, B).equilibria
    assert only == Equilibrium((0.0, 1.0), (0.0, 1.0), 1.0, 1.0) and only.pure
    assert lemke_howson_all(A, B) == (only,)


def test_battle_of_the_sexes_has_three_equilibria() -> None:
    A, B = SEXES
    assert pure_equilibria(bimatrix_payoffs(A, B)) == [(0, 0), (1, 1)]
    found = support_enumeration(A, B)
    assert [e.row for e in found.equilibria] == [(1, 0), (0, 1), pytest.approx((0.6, 0.4))]
    assert [e.column for e in found.equilibria] == [(1, 0), (0, 1), pytest.approx((0.4, 0.6))]
    assert [e.row_payoff for e in found.equilibria] == [3, 2, pytest.approx(1.2)]
    assert [e.column_payoff for e in found.equilibria] == [2, 3, pytest.approx(1.2)]
    assert not found.degenerate
    # Lemke-Howson reaches the two pure ones from every label, never the mixed one
    assert as_set(lemke_howson_all(A, B)) == as_set(found.equilibria[:2])


# ----- an alliance changes the outcome (AIMA 4th ed. §6.2.2) ----------------------------------
#: A and B are weak, C strong: each of A, then B, attacks C or the other weak player.
#: (vA, vB, vC) after A's and B's choices.
LEAVES = {
    ("C", "C"): (3, 3, 0),  # both attack C: C is destroyed
    ("C", "A"): (0, 5, 2),  # A attacks C, B stabs A in the back
    ("B", "C"): (4, 0, 3),  # A attacks B, B still attacks C
    ("B", "A"): (1, 1, 5),  # they fight each other: C wins
}


def alliance_tree(allied: bool) -> TreeGame:
    """The game as a tree; ``allied``: A and B one player whose utility is their sum."""

    def leaf(a: str, b: str) -> tuple[float, ...]:
        va, vb, vc = LEAVES[(a, b)]
        return (va + vb, vc) if allied else (va, vb, vc)

    b_player = 0 if allied else 1
    root = node("A", 0, [
        (f"attack-{a}", node(f"B{a}", b_player, [(f"attack-{b}", leaf(a, b)) for b in "CA"]))
        for a in "CB"])
    return TreeGame(root, name="alliance")


def test_an_alliance_changes_the_max_n_outcome() -> None:
    alone = search(alliance_tree(False), 0, "maxn")
    allied = search(alliance_tree(True), 0, "maxn")
    # selfish: B would stab A, so A attacks B; the two weak players fight and C wins
    assert alone.pv == ["attack-B", "attack-A"] and tuple(alone.value) == (1, 1, 5)
    # allied (one player, summed utility): both attack C, and both are better off
    assert allied.pv == ["attack-C", "attack-C"] and tuple(allied.value) == (6, 0)
    # yet the alliance is not self-enforcing: B alone gains by breaking it (5 > 3)
    assert LEAVES[("C", "A")][1] > LEAVES[("C", "C")][1]


def test_the_alliance_in_normal_form() -> None:
    """The same story as a simultaneous three-player game: each of A and B attacks C or the
    other; C defends or not. Pure equilibria by enumeration, then with A and B allied."""
    # payoffs[a, b, c] = (vA, vB, vC); a, b: 0 attack C, 1 attack the other; c: 0 defend, 1 not
    base = np.array(list(LEAVES.values()), dtype=float).reshape(2, 2, 3)
    payoffs = np.stack([base - [0, 0, 1], base], axis=2)  # defending costs C one point
    alone = pure_equilibria(payoffs)
    assert alone == [(1, 1, 1)]  # the weak fight each other, C needs no defence
    allied = payoffs[..., [0, 1]].sum(axis=-1)  # one player choosing (a, b), utility vA + vB
    two = np.stack([allied.reshape(4, 2), payoffs[..., 2].reshape(4, 2)], axis=-1)
    assert pure_equilibria(two) == [(0, 1)]  # (C, C): both attack C
    assert tuple(payoffs[0, 0, 1]) == (3, 3, 0)


def test_pure_equilibria_of_any_number_of_players_by_the_definition() -> None:
    rng = np.random.default_rng(5)
    for shape in [(2, 3, 2), (3, 2, 2, 3), (2, 2, 2, 2, 4)]:
        U = rng.integers(0, 3, size=shape).astype(float)
        players = U.shape[-1]
        expected = []
        for profile in itertools.product(*(range(k) for k in shape[:-1])):
            if all(U[profile][p] >= max(U[(*profile[:p], d, *profile[p + 1:])][p]
                                        for d in range(shape[p])) for p in range(players)):
                expected.append(profile)
        assert pure_equilibria(U) == expected


# ----- the API's bad input ---------------------------------------------------------------
@pytest.mark.parametrize(("a", "b", "needle"), [
    ([[1, 2], [3]], None, "ragged"),
    ([[1, "x"]], None, "not a number"),
    ([[float("nan")]], None, "finite"),
    ([], None, "non-empty"),
    ([[1, 2]], [[1, 2, 3]], "differ in shape"),
    (np.zeros((11, 11)).tolist(), None, "too large for support enumeration"),
])
def test_bad_games_are_one_line_errors(a: object, b: object, needle: str) -> None:
    with pytest.raises(MatrixGameError, match=needle):
        support_enumeration(a, b)


def test_the_size_caps() -> None:
    with pytest.raises(MatrixGameError, match="at most 200"):
        solve_zero_sum(np.zeros((201, 2)))
    with pytest.raises(MatrixGameError, match="too large for lemke-howson"):
        lemke_howson(np.zeros((101, 2)), np.zeros((101, 2)))
    with pytest.raises(MatrixGameError, match="initial label 4"):
        lemke_howson(PENNIES, None, 4)
    assert solve_zero_sum(np.eye(200)).value == pytest.approx(1 / 200)
