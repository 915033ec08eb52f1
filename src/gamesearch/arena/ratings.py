"""Ratings from game results: score, Elo difference with a 95% margin, LOS, SPRT.

The model is the logistic Elo curve, ``score = 1 / (1 + 10 ** (-elo / 400))``, with a draw
counted as half a point. The error margin follows cutechess-cli: the standard error of the
mean per-game score (wins 1, draws 1/2, losses 0), ``se = sqrt(var / n)``; the score interval
``s ± 1.96 se`` is mapped through the Elo curve and the margin is half its width.

The SPRT is the generalised SPRT of fishtest (Michel Van den Bergh's approximation for the
logistic model, trinomial results): ``LLR = n (s1 - s0)(2 s - s0 - s1) / (2 var)`` where
``s0, s1`` are the scores of the hypotheses' Elo differences ``elo0`` and ``elo1`` and
``n, s, var`` come from the win/draw/loss counts. It accepts H1 (A is at least ``elo1``
stronger) when ``LLR >= log((1 - beta) / alpha)`` and H0 when ``LLR <= log(beta / (1 -
alpha))``. Departure: each count gets half a game added (a Dirichlet(1/2) prior) before the
formula is applied. Fishtest only raises zero counts to 1e-3, which is harmless after its
first batch of hundreds of games but lets a single won game (variance ~0) "decide" a match
played one game at a time; with the prior, early games cannot decide alone, and the effect
vanishes as games accumulate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: Games added to each of the win, draw and loss counts in the SPRT (see above).
PRIOR = 0.5


def wilson_interval(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``points / n`` (a score with draws as
    half a point, or any count of ``n`` trials); ``(0, 1)`` when ``n`` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def expected_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """Elo difference that gives ``score``; ±inf for a perfect or zero score."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # never -0.0


@dataclass(frozen=True)
class Score:
    """Wins, draws and losses of one side against another (or against a field)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Mean points per game (0.5 when there are no games)."""
        return self.points / self.games if self.games else 0.5

    def flipped(self) -> Score:
        return Score(self.losses, self.draws, self.wins)

    @property
    def variance(self) -> float:
        """Variance of one game's points around the mean score."""
        n = self.games
        if n == 0:
            return 0.0
        s = self.score
        return (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2
                + self.losses * s ** 2) / n

    @property
    def elo(self) -> float:
        return elo_from_score(self.score)

    def elo_margin(self, z: float = Z95) -> float:
        """Half the width of the 95% Elo interval (inf when it is unbounded, nan with no games)."""
        n = self.games
        if n == 0:
            return math.nan
        se = math.sqrt(self.variance / n)
        s = self.score
        high, low = elo_from_score(s + z * se), elo_from_score(s - z * se)
        if math.isinf(high) or math.isinf(low):
            return math.inf
        return (high - low) / 2.0

    @property
    def los(self) -> float:
        """Likelihood of superiority: P(the side is stronger), from wins and losses alone."""
        decisive = self.wins + self.losses
        if decisive == 0:
            return 0.5
        return 0.5 * (1.0 + math.erf((self.wins - self.losses) / math.sqrt(2.0 * decisive)))


def sprt_llr(score: Score, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for ``score``."""
    if score.games == 0:
        return 0.0
    w, d, l = (x + PRIOR for x in (score.wins, score.draws, score.losses))
    n = w + d + l
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2.0 * var)


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of "A is ``elo1`` stronger" against ``elo0``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, score: Score) -> float:
        return sprt_llr(score, self.elo0, self.elo1)

    def decision(self, score: Score) -> str | None:
        """``"H1"`` (accept: stronger by elo1), ``"H0"`` (reject), or ``None`` (play on)."""
        llr = self.llr(score)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self, score: Score) -> str:
        verdict = self.decision(score)
        text = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[verdict]
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
                f"beta={self.beta:g}: LLR {self.llr(score):.2f} "
                f"[{self.lower:.2f}, {self.upper:.2f}] {text}")


def format_elo(elo: float, margin: float | None = None) -> str:
    """``+147.2 ± 66.0``; infinities as ``+inf``."""
    if math.isnan(elo):
        text = "n/a"
    elif math.isinf(elo):
        text = "+inf" if elo > 0 else "-inf"
    else:
        text = f"{elo:+.1f}"
    if margin is not None:
        if math.isnan(margin):
            return text
        text += " ± inf" if math.isinf(margin) else f" ± {margin:.1f}"
    return text


@dataclass(frozen=True)
class Points:
    """An agent's points per game (the game's returns, e.g. backgammon's 1/2/3 for single,
    gammon, backgammon) with a 95 % normal interval, and its win rate with a 95 % Wilson
    interval, over the games that ended by the rules."""

    games: int
    mean: float
    margin: float
    wins: int
    win_rate: float
    win_low: float
    win_high: float

    def describe(self) -> str:
        return (f"{self.mean:+.3f} ± {self.margin:.3f} points/game (95 %), win rate "
                f"{100 * self.win_rate:.1f} % [{100 * self.win_low:.1f}, "
                f"{100 * self.win_high:.1f}] over {self.games} games")


def points_per_game(returns: Sequence[float]) -> Points:
    """:class:`Points` of one agent's returns, one per game (a win: a return above 0)."""
    n = len(returns)
    if n == 0:
        return Points(0, 0.0, math.inf, 0, 0.0, 0.0, 1.0)
    mean = sum(returns) / n
    var = sum((r - mean) ** 2 for r in returns) / (n - 1) if n > 1 else math.inf
    margin = 1.96 * math.sqrt(var / n) if math.isfinite(var) else math.inf
    wins = sum(r > 0 for r in returns)
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Points(n, mean, margin, wins, p, max(0.0, centre - half), min(1.0, centre + half))
