"""Texel's tuning method for the chess evaluation: the evaluation as a linear function of its
weights, the scaling constant K, and the weights that minimise the prediction error.

Follows the Chess Programming Wiki's "Texel's Tuning Method" (Peter Österlund, 2014): with
quiet positions labelled by their games' results R (1, 0.5, 0 for White), first choose K to
minimise the mean squared error E = mean((R - sigmoid(K q))^2) of the current evaluation q,
then, K fixed, choose the weights that minimise E.

Where it departs from the wiki's local search (one weight at a time, ±1): for a fixed game
phase the evaluation is linear in its weights (material, piece-square tables, pawn
structure, king shield, bishop pair and tempo; :func:`features` gives each position's
coefficients, and everything else, mobility and the rounding, is kept as a fixed offset), so
E is minimised by L-BFGS (SciPy) with its exact gradient over all weights at once, plus an
L2 pull toward the starting weights (``l2 * sum((w - w0)^2)``) that keeps rarely seen
piece-square entries near PeSTO's numbers and fixes the value a material weight and its
table share. The weights are then rounded to whole centipawns. The sigmoid is the logistic
``1 / (1 + exp(-k q))`` with ``q`` in centipawns; the wiki's K (in ``10^(-K q / 400)``) is
``k * 400 / ln 10``.

Needs numpy and SciPy (``pip install 'gamesearch[equilibria]'``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from chess import BB_FILE_A, BB_FILE_H, BB_SQUARES, Board

from . import evaluation as ev
from .board import BB_ALL
from .weights import PIECES, Weights

Coefs = dict[int, float]


# ----- the weight vector --------------------------------------------------------------
def _param_names() -> list[str]:
    names = [f"mg_value.{p}" for p in PIECES[:5]] + [f"eg_value.{p}" for p in PIECES[:5]]
    for table in ("mg_pst", "eg_pst"):
        for p in PIECES:
            for i in range(64):
                if p == "P" and (i < 8 or i >= 56):
                    continue  # a pawn never stands there
                names.append(f"{table}.{p}.{i}")
    names += [f"passed_mg.{r}" for r in range(1, 7)] + [f"passed_eg.{r}" for r in range(1, 7)]
    names += ["doubled.0", "doubled.1", "isolated.0", "isolated.1", "shield_bonus",
              "open_file_near_king", "bishop_pair.0", "bishop_pair.1", "tempo"]
    return names


#: the tuned weights, in the order of the vector (``field.index`` or ``table.piece.index``)
PARAMS: tuple[str, ...] = tuple(_param_names())
INDEX: dict[str, int] = {name: i for i, name in enumerate(PARAMS)}


def to_vector(w: Weights) -> np.ndarray:
    """The weights as a float vector in :data:`PARAMS` order."""
    out = np.zeros(len(PARAMS))
    for i, name in enumerate(PARAMS):
        field, *rest = name.split(".")
        value = getattr(w, field)
        if len(rest) == 2:
            value = value[rest[0]][int(rest[1])]
        elif len(rest) == 1:
            value = value["PNBRQ".index(rest[0])] if field.endswith("_value") \
                else value[int(rest[0])]
        out[i] = value
    return out


def from_vector(v: np.ndarray, like: Weights) -> Weights:
    """``like`` with the tuned weights taken from ``v``, rounded to whole centipawns."""
    w = like.copy()
    for i, name in enumerate(PARAMS):
        n = round(float(v[i]))
        field, *rest = name.split(".")
        if not rest:
            setattr(w, field, n)
        elif len(rest) == 2:
            getattr(w, field)[rest[0]][int(rest[1])] = n
        elif field.endswith("_value"):
            getattr(w, field)["PNBRQ".index(rest[0])] = n
        else:
            getattr(w, field)[int(rest[0])] = n
    return w


# ----- the evaluation's coefficients ----------------------------------------------------
def _add(c: Coefs, name: str, x: float) -> None:
    if x:
        i = INDEX[name]
        c[i] = c.get(i, 0.0) + x


def features(board: Board, phase: int) -> Coefs:
    """The coefficient of each weight in the evaluation of ``board`` from White's view
    (tempo included, mobility not): for a fixed ``phase`` (the state's, 0..24) the
    evaluation is ``sum(c[i] * w[i]) + mobility``, before rounding towards zero."""
    p = min(phase, 24)
    a, b = p / 24, (24 - p) / 24
    mg: Coefs = {}
    eg: Coefs = {}
    for color, sign in ((True, 1.0), (False, -1.0)):
        for pt in range(1, 7):
            bb = board.pieces_mask(pt, color)
            letter = PIECES[pt - 1]
            while bb:
                sq = bb.bit_length() - 1
                bb ^= BB_SQUARES[sq]
                i = sq ^ 56 if color else sq  # the a8-first tables
                if pt < 6:
                    _add(mg, f"mg_value.{letter}", sign)
                    _add(eg, f"eg_value.{letter}", sign)
                _add(mg, f"mg_pst.{letter}.{i}", sign)
                _add(eg, f"eg_pst.{letter}.{i}", sign)
    white, black = board.occupied_co[1], board.occupied_co[0]
    wp, bp = board.pawns & white, board.pawns & black
    # pawn structure (evaluation.pawn_structure, counted instead of weighted)
    w_files = ev._south_fill(ev._north_fill(wp))
    b_files = ev._south_fill(ev._north_fill(bp))
    doubled = (bp & (ev._north_fill(bp) << 8)).bit_count() \
        - (wp & (ev._north_fill(wp) << 8)).bit_count()
    isolated = (bp & ~(((b_files & ~BB_FILE_A) >> 1) | ((b_files & ~BB_FILE_H) << 1))).bit_count() \
        - (wp & ~(((w_files & ~BB_FILE_A) >> 1) | ((w_files & ~BB_FILE_H) << 1))).bit_count()
    _add(mg, "doubled.0", doubled)
    _add(eg, "doubled.1", doubled)
    _add(mg, "isolated.0", isolated)
    _add(eg, "isolated.1", isolated)
    passed = wp & ~ev._sides(ev._south_fill(bp >> 8))
    while passed:
        sq = passed.bit_length() - 1
        passed ^= BB_SQUARES[sq]
        _add(mg, f"passed_mg.{sq >> 3}", 1)
        _add(eg, f"passed_eg.{sq >> 3}", 1)
    passed = bp & ~ev._sides(ev._north_fill(wp << 8))
    while passed:
        sq = passed.bit_length() - 1
        passed ^= BB_SQUARES[sq]
        _add(mg, f"passed_mg.{7 - (sq >> 3)}", -1)
        _add(eg, f"passed_eg.{7 - (sq >> 3)}", -1)
    # king shield (evaluation.king_shield, middlegame only)
    wk = (board.kings & white).bit_length() - 1
    bk = (board.kings & black).bit_length() - 1
    for sign, ksq, own, is_white in ((1.0, wk, wp, True), (-1.0, bk, bp, False)):
        f, r = ksq & 7, ksq >> 3
        if 2 < f < 5:
            continue
        files = ev.FILES[f] | ev.ADJACENT_FILES[f]
        if is_white:
            near = files & ((0xFF << 8 * (r + 1)) | (0xFF << 8 * (r + 2))) & BB_ALL \
                if r < 6 else 0
        else:
            near = files & ((0xFF << 8 * (r - 1)) | (0xFF << 8 * (r - 2))) if r > 1 else 0
        _add(mg, "shield_bonus", sign * min((own & near).bit_count(), 3))
        for ff in (f - 1, f, f + 1):
            if 0 <= ff < 8 and not own & ev.FILES[ff]:
                _add(mg, "open_file_near_king", -sign)
    wb, bb2 = board.bishops & white, board.bishops & black
    pair = (1 if wb & (wb - 1) else 0) - (1 if bb2 & (bb2 - 1) else 0)
    _add(mg, "bishop_pair.0", pair)
    _add(eg, "bishop_pair.1", pair)
    out: Coefs = {i: x * a for i, x in mg.items()}
    for i, x in eg.items():
        out[i] = out.get(i, 0.0) + x * b
    out[INDEX["tempo"]] = 1.0 if board.turn else -1.0
    return out


# ----- the data set and the fit ------------------------------------------------------------
@dataclass
class Dataset:
    """Quiet positions: coefficient rows ``X`` (sparse, n x len(PARAMS)), the fixed rest of
    each evaluation ``offset`` (mobility and rounding, White's view), the results ``y`` (1,
    0.5, 0 for White) and each position's game number ``game`` (to split by game)."""

    X: Any  # scipy.sparse.csr_matrix
    offset: np.ndarray
    y: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.y.shape[0])

    def subset(self, mask: np.ndarray) -> Dataset:
        return Dataset(self.X[mask], self.offset[mask], self.y[mask], self.game[mask])


def build_dataset(rows: Iterable[tuple[Coefs, float, float, int]]) -> Dataset:
    """``rows``: ``(coefficients, white_eval, result, game)``, the evaluation at the weights
    the coefficients will be multiplied with first (its offset is what they do not cover)."""
    from scipy.sparse import csr_matrix

    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    evals: list[float] = []
    ys: list[float] = []
    games: list[int] = []
    for coefs, white_eval, result, game in rows:
        indices.extend(coefs)
        data.extend(coefs.values())
        indptr.append(len(indices))
        evals.append(white_eval)
        ys.append(result)
        games.append(game)
    X = csr_matrix((np.array(data), np.array(indices, dtype=np.int64), np.array(indptr)),
                   shape=(len(ys), len(PARAMS)))
    return Dataset(X, np.array(evals), np.array(ys), np.array(games, dtype=np.int64))


def with_offsets(d: Dataset, w0: np.ndarray) -> Dataset:
    """``d`` whose evaluations (given in ``offset``) become offsets: eval - X w0."""
    return Dataset(d.X, d.offset - d.X @ w0, d.y, d.game)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0))))


def evals(d: Dataset, w: np.ndarray) -> np.ndarray:
    return np.asarray(d.X @ w + d.offset)


def error(d: Dataset, w: np.ndarray, k: float) -> float:
    """Mean squared error of ``sigmoid(k * eval)`` against the results."""
    return float(np.mean((d.y - _sigmoid(k * evals(d, w))) ** 2))


def fit_k(d: Dataset, w: np.ndarray) -> float:
    """The ``k`` (per centipawn) that minimises :func:`error` at the weights ``w``."""
    from scipy.optimize import minimize_scalar

    q = evals(d, w)
    res = minimize_scalar(lambda k: float(np.mean((d.y - _sigmoid(k * q)) ** 2)),
                          bounds=(1e-5, 0.1), method="bounded",
                          options={"xatol": 1e-7})
    return float(res.x)


def wiki_k(k: float) -> float:
    """``k`` as the wiki's K (the sigmoid written ``1 / (1 + 10^(-K q / 400))``)."""
    return k * 400 / math.log(10)


@dataclass
class TuneResult:
    weights: np.ndarray  # rounded
    raw: np.ndarray
    iterations: int
    converged: bool


def tune(d: Dataset, w0: np.ndarray, k: float, iterations: int = 200, l2: float = 1e-6,
         fixed: Sequence[str] = ()) -> TuneResult:
    """Minimise ``error(d, w, k) + l2 * |w - w0|^2`` by L-BFGS from ``w0`` (``fixed``: names
    of weights kept at ``w0``), then round to whole centipawns."""
    from scipy.optimize import minimize

    n = len(d)
    X = d.X
    Xt = X.T.tocsr()
    free = np.ones(len(PARAMS), dtype=bool)
    for name in fixed:
        free[INDEX[name]] = False

    def f(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = _sigmoid(k * (X @ w + d.offset))
        r = s - d.y
        g = (2.0 / n) * (Xt @ (r * s * (1.0 - s) * k))
        dw = w - w0
        g = g + 2.0 * l2 * dw
        g[~free] = 0.0
        return float(np.mean(r * r) + l2 * float(dw @ dw)), g

    res = minimize(f, w0.copy(), jac=True, method="L-BFGS-B",
                   options={"maxiter": iterations, "maxfun": iterations * 2 + 20,
                            "ftol": 1e-14, "gtol": 1e-12})
    raw = np.where(free, res.x, w0)
    return TuneResult(np.round(raw), raw, int(res.nit), bool(res.success))
