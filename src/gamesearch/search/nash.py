"""Nash equilibria of matrix games (normal form): linear programming for zero-sum games,
support enumeration and Lemke–Howson for two-player general-sum (bimatrix) games, and
pure-equilibrium enumeration for any number of players.

The row player chooses a row ``i`` of ``A`` (``m`` rows), the column player a column ``j``
(``n`` columns); they receive ``A[i, j]`` and ``B[i, j]``. A *zero-sum* game has ``B = -A``
(a *constant-sum* one ``A + B = c``, solved the same way). A mixed strategy is a probability
vector; an equilibrium is a pair of mutual best responses.

* :func:`solve_zero_sum` — von Neumann's minimax theorem as a linear program (von Stengel,
  "Computing equilibria for two-person games", Handbook of Game Theory vol. 3, 2002, the
  zero-sum case; Nisan, Roughgarden, Tardos & Vazirani, *Algorithmic Game Theory* (AGT),
  2007, ch. 1 and 3): maximise ``v`` subject to ``xᵀA ≥ v·1``, ``Σx = 1``, ``x ≥ 0``,
  solved by scipy's ``linprog(method="highs")``. **Departure**: the column player's
  strategy is read from the LP's dual (HiGHS's marginals of the ``xᵀA ≥ v`` rows), clipped
  at 0 and renormalised, instead of solving a second LP; both strategies are checked to
  hold the value (to 1e-7 of the largest payoff), and the second LP is solved only when
  the dual's does not.
* :func:`support_enumeration` — AGT Algorithm 3.4 (von Stengel, AGT ch. 3): for every pair
  of supports of *equal* size ``k``, solve the two indifference systems and keep the pair if
  both are probability vectors with exactly that support and best responses. On a
  nondegenerate game this finds every equilibrium (their number is odd). The systems of
  many pairs are solved in one batched numpy call (the plain loop, ``batched=False``, is
  the reference the tests hold it to). **Departure**: a
  support pair whose indifference system has many solutions (a degenerate game) is skipped
  and counted in :attr:`SupportEnumeration.singular`; the equilibria found are then only those
  on equal-size supports with unique indifferent strategies (nashpy goes on to enumerate the
  vertices of such components), and :attr:`SupportEnumeration.degenerate` says so.
* :func:`lemke_howson` — von Stengel 2002 (AGT ch. 3, Algorithm 3.6): complementary pivoting
  on the two best-response polytopes ``P = {x ≥ 0 : Bᵀx ≤ 1}`` and ``Q = {y ≥ 0 : Ay ≤ 1}``
  (payoffs shifted to be positive first) from the artificial equilibrium ``(0, 0)``,
  dropping one label ``k`` (0..m-1 the rows, m..m+n-1 the columns). The minimum-ratio test
  is lexicographic (von Stengel's method for degenerate games), so the path cannot cycle:
  ties are broken by the rows of the current basis inverse (the slack columns).
  :func:`lemke_howson_all` runs it from each of the ``m + n`` labels and keeps the distinct
  equilibria (which need not be all of them).
* :func:`pure_equilibria` — the pure profiles from which no player gains by deviating, for
  a game of any number of players given as an array of payoff vectors (textbook definition;
  every profile is checked).

The inputs are checked by :func:`check_game` (finite real numbers, rectangular, not empty,
at most the sizes in :data:`MAX_CELLS`); bad input raises :class:`MatrixGameError`, one line.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import GameError, echo

Matrix = npt.NDArray[np.float64]

#: The largest game each method takes (rows x columns); support enumeration is exponential,
#: so it is bounded by the number of support pairs instead (:data:`MAX_SUPPORT_PAIRS`).
MAX_CELLS = {"lp": 200 * 200, "lemke-howson": 100 * 100}
MAX_ROWS = {"lp": 200, "lemke-howson": 100, "support": 200}
#: No matrix is read with more rows or columns than this (the largest cap above).
MAX_SIDE = 200
#: Support enumeration tries C(m+n, m) - 1 support pairs; more than this is refused.
MAX_SUPPORT_PAIRS = 200_000
#: Lemke–Howson pivots before a path is given up (a safety net: paths end far earlier).
MAX_PIVOTS = 100_000
METHODS = ("lp", "support", "lemke-howson")


class MatrixGameError(GameError, ValueError):
    """A matrix game that cannot be solved as given: ragged, empty, not numbers, too large."""


# ----- results ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Equilibrium:
    """A mixed equilibrium: both strategies (probabilities, one per row / column) and the
    expected payoff of each player."""

    row: tuple[float, ...]
    column: tuple[float, ...]
    row_payoff: float
    column_payoff: float

    @property
    def pure(self) -> bool:
        """Whether both players play one action with probability 1."""
        return max(self.row) > 1 - 1e-9 and max(self.column) > 1 - 1e-9

    def as_dict(self) -> dict[str, Any]:
        return {"row_strategy": list(self.row), "column_strategy": list(self.column),
                "row_payoff": self.row_payoff, "column_payoff": self.column_payoff}


@dataclass(frozen=True)
class ZeroSumSolution:
    """The value of a zero-sum game (the row player's payoff) and optimal strategies."""

    value: float
    row: tuple[float, ...]
    column: tuple[float, ...]

    def as_equilibrium(self, constant: float = 0.0) -> Equilibrium:
        return Equilibrium(self.row, self.column, self.value, constant - self.value)


@dataclass(frozen=True)
class SupportEnumeration:
    """What :func:`support_enumeration` found: the equilibria in the order of their supports
    (size, then rows, then columns), the support pairs tried, and the pairs skipped because
    an indifference system has many solutions (``singular``: the game is degenerate)."""

    equilibria: tuple[Equilibrium, ...]
    pairs: int
    singular: int

    @property
    def degenerate(self) -> bool:
        """True when the game showed itself degenerate (an indifference system with many
        solutions, or an even number of equilibria): the list may then miss equilibria. A
        degenerate game can pass unseen; a nondegenerate one is never flagged."""
        return self.singular > 0 or len(self.equilibria) % 2 == 0


# ----- input -----------------------------------------------------------------------------------
def _reject_constant(name: str) -> float:
    raise MatrixGameError(f"{name} is not a finite number (payoffs are finite real numbers)")


def parse_json(text: str, what: str = "matrix") -> Any:
    """JSON text as Python values; NaN and infinities refused, a syntax error one line."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise MatrixGameError(f"{what} {echo(text)} is not JSON: {exc.msg} at line {exc.lineno} "
                              f"column {exc.colno}") from None
    except RecursionError:
        raise MatrixGameError(f"{what} is nested too deeply (a matrix is a list of rows of "
                              "numbers)") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise MatrixGameError(f"{what}: {exc}") from None


def _entries(k: int) -> str:
    return f"{k} entr{'y' if k == 1 else 'ies'}"


def as_matrix(data: Any, what: str = "matrix") -> Matrix:
    """A list of equally long rows of finite numbers as a float array (``m x n``), at most
    :data:`MAX_SIDE` rows and columns."""
    if not isinstance(data, list) or not data:
        raise MatrixGameError(f"{what} must be a non-empty list of rows, e.g. [[1, -1], [-1, 1]];"
                              f" got {echo(data)}")
    if len(data) > MAX_SIDE:
        raise MatrixGameError(f"{what} has {len(data)} rows (at most {MAX_SIDE})")
    width = None
    for i, row in enumerate(data):
        if not isinstance(row, list) or not row:
            raise MatrixGameError(f"{what}: row {i + 1} must be a non-empty list of numbers; "
                                  f"got {echo(row)}")
        if len(row) > MAX_SIDE:
            raise MatrixGameError(f"{what}: row {i + 1} has {len(row)} entries (at most "
                                  f"{MAX_SIDE} columns)")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise MatrixGameError(f"{what} is ragged: row {i + 1} has {_entries(len(row))}, "
                                  f"row 1 has {width}")
        for j, x in enumerate(row):
            if isinstance(x, bool) or not isinstance(x, int | float):
                raise MatrixGameError(f"{what}: entry ({i + 1}, {j + 1}) {echo(x)} is not a "
                                      "number")
            if not math.isfinite(float(x)):
                raise MatrixGameError(f"{what}: entry ({i + 1}, {j + 1}) {echo(x)} is not a "
                                      "finite number")
    try:
        return np.array(data, dtype=np.float64)
    except OverflowError:  # an integer too large for a float
        raise MatrixGameError(f"{what}: an entry is too large for a float") from None


def check_game(a: Any, b: Any | None = None, method: str = "support") -> tuple[Matrix, Matrix]:
    """``(A, B)`` as float arrays after the checks (``B = -A`` when ``b`` is ``None``):
    both rectangular, non-empty, finite, of the same shape, within ``method``'s size cap."""
    if method not in METHODS:
        raise MatrixGameError(f"unknown method {echo(method)}; known: {', '.join(METHODS)}")
    A = as_matrix(a.tolist() if isinstance(a, np.ndarray) else a, "matrix A")
    B = -A if b is None else as_matrix(b.tolist() if isinstance(b, np.ndarray) else b,
                                       "matrix B")
    if A.shape != B.shape:
        raise MatrixGameError(f"matrices A ({A.shape[0]}x{A.shape[1]}) and B ({B.shape[0]}x"
                              f"{B.shape[1]}) differ in shape")
    m, n = A.shape
    if method == "support":
        pairs = math.comb(m + n, m) - 1
        if max(m, n) > MAX_ROWS["support"] or pairs > MAX_SUPPORT_PAIRS:
            raise MatrixGameError(
                f"a {m}x{n} game is too large for support enumeration, which is exponential: "
                f"{pairs:.3g} support pairs (at most {MAX_SUPPORT_PAIRS:,}, e.g. 10x10); "
                "use lemke-howson (one equilibrium per label) or lp (zero-sum)")
    elif max(m, n) > MAX_ROWS[method] or m * n > MAX_CELLS[method]:
        cap = MAX_ROWS[method]
        raise MatrixGameError(f"a {m}x{n} game is too large for {method} (at most {cap}x{cap})")
    return A, B


def constant_sum(A: Matrix, B: Matrix) -> float | None:
    """``c`` when ``A + B = c`` everywhere (zero-sum: 0), else ``None``."""
    total = A + B
    scale = max(1.0, float(np.abs(A).max()), float(np.abs(B).max()))
    c = float(total.flat[0])
    return c if np.allclose(total, c, rtol=0, atol=1e-12 * scale) else None


def _tolerance(*matrices: Matrix) -> float:
    return 1e-9 * max(1.0, *(float(np.abs(M).max()) for M in matrices))


# ----- zero-sum: linear programming ----------------------------------------------------------
def lp_solver() -> Any:
    """scipy's ``linprog`` (imported on first use: only the LP needs scipy), or a one-line
    error naming the extra to install."""
    try:
        from scipy.optimize import linprog
    except ImportError as exc:
        raise MatrixGameError(f"linear programming needs scipy ({exc}): pip install "
                              "'gamesearch[equilibria]'") from None
    return linprog


def solve_zero_sum(a: Any) -> ZeroSumSolution:
    """The value and optimal mixed strategies of the zero-sum game with row payoffs ``a``
    (module docstring: the LP and its dual). Raises :class:`MatrixGameError` on bad input."""
    A, _ = check_game(a, None, "lp")
    x, value, y = _maximin(A)
    slack = 1e-7 * max(1.0, float(np.abs(A).max()))
    if not (A @ y).max() <= value + slack:  # the dual read badly (or NaN): the column
        y, _, _ = _maximin(-A.T)  # player's own LP
    if not ((x @ A).min() >= value - slack and (A @ y).max() <= value + slack):
        raise MatrixGameError("the linear program's strategies do not hold the value "
                              "(numerical trouble: scale the payoffs)")
    return ZeroSumSolution(value + 0.0, tuple(x.tolist()), tuple(y.tolist()))  # (no -0.0)


def _maximin(M: Matrix) -> tuple[Matrix, float, Matrix]:
    """The row player's maximin strategy of ``M``, its value, and the dual's strategy."""
    linprog = lp_solver()
    m, n = M.shape
    # variables (x_1..x_m, v): minimise -v s.t. v - (x^T M)_j <= 0, sum x = 1, x >= 0
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-M.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    if res.status != 0:  # cannot happen for finite payoffs: the LP is feasible and bounded
        raise MatrixGameError(f"the linear program failed: {res.message}")
    return (_distribution(res.x[:m]), float(res.x[-1]),
            _distribution(-np.asarray(res.ineqlin.marginals)))


def _distribution(p: Matrix) -> Matrix:
    q = np.clip(p, 0.0, None)
    return np.asarray(q / q.sum(), dtype=np.float64)


# ----- support enumeration --------------------------------------------------------------------
def _indifferent(M: Matrix, rows: tuple[int, ...], cols: tuple[int, ...]
                 ) -> Matrix | bool:
    """The opponent's mixed strategy on ``cols`` that makes the player with payoffs ``M``
    indifferent among ``rows`` (square: len(rows) == len(cols)). Unknowns: the ``k``
    probabilities and the common payoff ``u``. A singular system answers ``True`` when it
    has many solutions (a sign of degeneracy), ``False`` when it has none."""
    k = len(rows)
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = M[np.ix_(rows, cols)]
    system[:k, k] = -1.0
    system[k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    try:
        solution = np.linalg.solve(system, rhs)
        if np.abs(solution).max() < 1e12:
            return np.asarray(solution[:k], dtype=np.float64)
    except np.linalg.LinAlgError:
        pass
    solution = np.linalg.lstsq(system, rhs, rcond=None)[0]
    return bool(np.allclose(system @ solution, rhs, rtol=0, atol=1e-9))


def support_enumeration(a: Any, b: Any | None = None, *, batched: bool = True
                        ) -> SupportEnumeration:
    """Every equilibrium of a nondegenerate bimatrix game ``(a, b)`` (``b`` omitted: ``-a``)
    by support enumeration (module docstring: AGT Algorithm 3.4, and the departure for
    degenerate games). ``batched`` solves the indifference systems of many support pairs in
    one numpy call; ``batched=False`` is the plain loop, one pair at a time, which the tests
    hold it to (the same equilibria, in the same order, and the same counts)."""
    A, B = check_game(a, b, "support")
    m, n = A.shape
    tol = _tolerance(A, B)
    found: list[Equilibrium] = []
    pairs = singular = 0
    for k in range(1, min(m, n) + 1):
        row_sets = list(itertools.combinations(range(m), k))
        col_sets = list(itertools.combinations(range(n), k))
        pairs += len(row_sets) * len(col_sets)
        if not batched:
            for rows in row_sets:
                for cols in col_sets:
                    singular += _support_pair(A, B, rows, cols, tol, found)
            continue
        step = max(1, _BATCH // len(col_sets))
        for first in range(0, len(row_sets), step):
            singular += _support_batch(A, B, row_sets[first:first + step], col_sets, tol, found)
    return SupportEnumeration(tuple(found), pairs, singular)


#: Support pairs whose systems :func:`_support_batch` solves in one call.
_BATCH = 4096


def _support_pair(A: Matrix, B: Matrix, rows: tuple[int, ...], cols: tuple[int, ...],
                  tol: float, found: list[Equilibrium]) -> int:
    """The plain step of support enumeration on one support pair: appends its equilibrium
    to ``found`` if it has one; returns 1 if a system had many solutions, else 0."""
    y_part = _indifferent(A, rows, cols)
    x_part = _indifferent(B.T, cols, rows)
    if isinstance(y_part, bool) or isinstance(x_part, bool):
        return int(y_part is True or x_part is True)
    _keep(A, B, rows, cols, x_part, y_part, tol, found)
    return 0


def _keep(A: Matrix, B: Matrix, rows: tuple[int, ...], cols: tuple[int, ...], x_part: Matrix,
          y_part: Matrix, tol: float, found: list[Equilibrium]) -> None:
    """Appends the pair's equilibrium if both parts are positive on their supports and best
    responses."""
    if y_part.min() <= tol or x_part.min() <= tol:
        return
    x = np.zeros(A.shape[0])
    x[list(rows)] = x_part
    y = np.zeros(A.shape[1])
    y[list(cols)] = y_part
    eq = _if_equilibrium(A, B, x, y, tol)
    if eq is not None:
        found.append(eq)


def _bordered(M: Matrix) -> Matrix:
    """The indifference systems ``[[M, -1], [1, 0]]`` of a stack of ``k x k`` blocks."""
    k = M.shape[-1]
    S = np.zeros((*M.shape[:-2], k + 1, k + 1))
    S[..., :k, :k] = M
    S[..., :k, k] = -1.0
    S[..., k, :k] = 1.0
    return S


def _support_batch(A: Matrix, B: Matrix, row_sets: list[tuple[int, ...]],
                   col_sets: list[tuple[int, ...]], tol: float,
                   found: list[Equilibrium]) -> int:
    """:func:`_support_pair` on every pair of ``row_sets x col_sets`` (in that order), the
    regular systems solved in one call; a pair whose system is nearly singular (``|det|``
    below 1e-12 of Hadamard's bound) or whose solution is huge goes the plain way."""
    R = np.array(row_sets)
    C = np.array(col_sets)
    k = R.shape[1]
    index = (R[:, None, :, None], C[None, :, None, :])
    SY = _bordered(A[index]).reshape(-1, k + 1, k + 1)
    SX = _bordered(B[index].swapaxes(-1, -2)).reshape(-1, k + 1, k + 1)
    rhs = np.zeros((SY.shape[0], k + 1, 1))
    rhs[:, k, 0] = 1.0
    regular = np.ones(SY.shape[0], dtype=bool)
    for S in (SY, SX):
        bound = np.prod(np.linalg.norm(S, axis=-1), axis=-1)
        regular &= np.abs(np.linalg.det(S)) > 1e-12 * bound
    y_all = np.full((SY.shape[0], k), np.nan)
    x_all = np.full((SY.shape[0], k), np.nan)
    if regular.any():
        y_all[regular] = np.linalg.solve(SY[regular], rhs[regular])[:, :k, 0]
        x_all[regular] = np.linalg.solve(SX[regular], rhs[regular])[:, :k, 0]
    plain = ~regular | (np.abs(y_all).max(axis=1) >= 1e12) | (np.abs(x_all).max(axis=1) >= 1e12)
    worth = plain | ((y_all.min(axis=1) > tol) & (x_all.min(axis=1) > tol))
    singular = 0
    for p in np.flatnonzero(worth):
        rows, cols = row_sets[p // len(col_sets)], col_sets[p % len(col_sets)]
        if plain[p]:
            singular += _support_pair(A, B, rows, cols, tol, found)
        else:
            _keep(A, B, rows, cols, x_all[p], y_all[p], tol, found)
    return singular


def _if_equilibrium(A: Matrix, B: Matrix, x: Matrix, y: Matrix, tol: float
                    ) -> Equilibrium | None:
    """The equilibrium ``(x, y)`` if each is a best response to the other, else ``None``."""
    row_payoffs = A @ y
    col_payoffs = x @ B
    u, v = _snap(float(x @ row_payoffs), tol), _snap(float(col_payoffs @ y), tol)
    if row_payoffs.max() > u + tol or col_payoffs.max() > v + tol:
        return None
    return Equilibrium(tuple(x.tolist()), tuple(y.tolist()), u, v)


# ----- Lemke–Howson ---------------------------------------------------------------------------
def _tableaux(A: Matrix, B: Matrix) -> tuple[Matrix, Matrix]:
    """The two tableaux, columns indexed by label (0..m-1 rows, m..m+n-1 columns), then the
    right-hand side. P: ``Bᵀx + s = 1`` (basis: the slacks ``s``, labels m..); Q: ``r + Ay
    = 1`` (basis: the slacks ``r``, labels 0..m-1). Payoffs shifted to be positive."""
    m, n = A.shape
    pa = A - A.min() + 1.0
    pb = B - B.min() + 1.0
    P = np.hstack([pb.T, np.eye(n), np.ones((n, 1))])
    Q = np.hstack([np.eye(m), pa, np.ones((m, 1))])
    return P, Q


def _pivot(T: Matrix, basis: list[int], entering: int, slacks: slice) -> int:
    """Pivot ``entering`` into tableau ``T`` by the lexicographic minimum-ratio test (the
    right-hand side's ratio, ties broken by the initial slack columns' ratios in order);
    returns the label that leaves."""
    column = T[:, entering]
    candidates = np.flatnonzero(column > 1e-12)
    if candidates.size == 0:  # cannot happen: both polytopes are bounded
        raise MatrixGameError("Lemke-Howson: unbounded ray (the payoffs are not finite?)")
    ratios = T[candidates, -1] / column[candidates]
    low = float(ratios.min())
    tied = candidates[ratios <= low + 1e-12 * max(1.0, abs(low))]
    best = int(tied[0])
    if tied.size > 1:  # degenerate: the lexicographic rule keeps the path from cycling
        keys = T[tied, slacks] / column[tied, None]
        best_key = keys[0]
        for row, key in zip(tied[1:], keys[1:], strict=True):
            diff = key - best_key
            nz = np.flatnonzero(np.abs(diff) > 1e-12 * max(1.0, float(np.abs(best_key).max())))
            if nz.size and diff[nz[0]] < 0:
                best, best_key = int(row), key
    T[best] /= T[best, entering]
    factors = T[:, entering].copy()
    factors[best] = 0.0
    T -= np.outer(factors, T[best])
    leaving = basis[best]
    basis[best] = entering
    return leaving


def lemke_howson(a: Any, b: Any | None = None, initial_label: int = 0) -> Equilibrium:
    """One equilibrium of the bimatrix game ``(a, b)``: the end of the Lemke–Howson path that
    drops ``initial_label`` (0..m-1: a row, m..m+n-1: a column), module docstring."""
    A, B = check_game(a, b, "lemke-howson")
    m, n = A.shape
    if not 0 <= initial_label < m + n:
        raise MatrixGameError(f"initial label {initial_label} is not a label 0..{m + n - 1}")
    return _lemke_howson(A, B, initial_label)


def _lemke_howson(A: Matrix, B: Matrix, initial_label: int) -> Equilibrium:
    m, n = A.shape
    P, Q = _tableaux(A, B)
    p_basis = list(range(m, m + n))  # P's rows: the column player's constraints
    q_basis = list(range(m))
    entering, in_p = initial_label, initial_label < m
    for _ in range(MAX_PIVOTS):
        if in_p:
            leaving = _pivot(P, p_basis, entering, slice(m, m + n))
        else:
            leaving = _pivot(Q, q_basis, entering, slice(0, m))
        if leaving == initial_label:
            break
        entering, in_p = leaving, not in_p
    else:
        raise MatrixGameError(f"Lemke-Howson: no equilibrium after {MAX_PIVOTS:,} pivots")
    x = np.zeros(m)
    for row, label in enumerate(p_basis):
        if label < m:
            x[label] = P[row, -1]
    y = np.zeros(n)
    for row, label in enumerate(q_basis):
        if label >= m:
            y[label - m] = Q[row, -1]
    x, y = _distribution(x), _distribution(y)
    tol = _tolerance(A, B)
    return Equilibrium(tuple(x.tolist()), tuple(y.tolist()), _snap(float(x @ A @ y), tol),
                       _snap(float(x @ B @ y), tol))


def _snap(x: float, tol: float) -> float:
    """``x``, or 0.0 when it is within rounding noise ``tol`` of zero (no ``-3e-33``)."""
    return 0.0 if abs(x) < tol else x


def lemke_howson_all(a: Any, b: Any | None = None) -> tuple[Equilibrium, ...]:
    """The distinct equilibria reached by Lemke–Howson from each of the ``m + n`` labels,
    in the order first reached (not necessarily every equilibrium of the game)."""
    A, B = check_game(a, b, "lemke-howson")
    found: list[Equilibrium] = []
    for label in range(sum(A.shape)):
        eq = _lemke_howson(A, B, label)
        if not any(same_equilibrium(eq, f) for f in found):
            found.append(eq)
    return tuple(found)


def same_equilibrium(e: Equilibrium, f: Equilibrium, atol: float = 1e-7) -> bool:
    """Whether two equilibria have the same strategies (to ``atol``)."""
    return bool(np.allclose(e.row, f.row, rtol=0, atol=atol)
                and np.allclose(e.column, f.column, rtol=0, atol=atol))


# ----- pure equilibria, any number of players ------------------------------------------------
def pure_equilibria(payoffs: Any) -> list[tuple[int, ...]]:
    """The pure equilibria of an ``N``-player normal-form game whose ``payoffs`` array has
    shape ``(k_1, ..., k_N, N)``: entry ``[a_1, ..., a_N, p]`` is player ``p``'s payoff when
    player ``i`` plays ``a_i``. Profiles in lexicographic order; equal payoffs to ``1e-9``
    (relative) count as no gain."""
    U = np.asarray(payoffs, dtype=np.float64)
    if U.ndim < 2 or U.shape[-1] != U.ndim - 1 or 0 in U.shape:
        raise MatrixGameError(f"payoffs of shape {U.shape} are not (k_1, ..., k_N, N)")
    if not np.all(np.isfinite(U)):
        raise MatrixGameError("payoffs must be finite numbers")
    tol = _tolerance(U)
    stable = np.ones(U.shape[:-1], dtype=bool)
    for p in range(U.shape[-1]):
        best = U[..., p].max(axis=p, keepdims=True)
        stable &= U[..., p] >= best - tol
    return [tuple(int(i) for i in index) for index in np.argwhere(stable)]


def bimatrix_payoffs(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> Matrix:
    """``(A, B)`` as the ``(m, n, 2)`` payoff array of :func:`pure_equilibria`."""
    return np.stack([np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)], axis=-1)
