"""Interval estimates, streaming moments and sample-size rules.

Every number tricksim prints to a user carries its sample size and an
interval; this module is where those intervals come from:

* proportions -> Wilson score interval (:func:`wilson_interval`, :func:`proportion`);
* means -> Student-t interval (:func:`mean_ci`, or :class:`Moments` when the data
  arrive batch by batch);
* paired designs (duplicate matches) -> t interval on per-pair differences
  (:func:`paired_diff_ci`);
* ratios of sums (bags per hand over games of unequal length) -> delta-method
  interval (:func:`ratio_ci`);
* medians of a few noisy timings (the benchmark's repeats) -> distribution-free
  order-statistic interval (:func:`median_ci`);
* sample sizes -> :func:`n_two_proportions`, :func:`n_paired`, :func:`n_one_proportion`.

Pure numpy + the standard library (no scipy): the Student-t quantile is exact
for integer degrees of freedom up to 200 (closed-form CDF, bisection) and a
fifth-order Cornish-Fisher expansion beyond, where its error is below 1e-9.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = [
    "Estimate",
    "Moments",
    "z_value",
    "t_quantile",
    "wilson_interval",
    "proportion",
    "mean_ci",
    "mean_from_moments",
    "paired_diff_ci",
    "ratio_ci",
    "median_ci",
    "fmt_rate",
    "fmt_mean",
    "fmt_int",
    "n_two_proportions",
    "n_one_proportion",
    "n_paired",
]


# ----------------------------------------------------------------- quantiles
def z_value(conf: float = 0.95) -> float:
    """Two-sided standard-normal quantile for confidence ``conf`` (0.95 -> 1.959964)."""
    if not 0.0 < conf < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {conf!r}")
    return NormalDist().inv_cdf(0.5 + conf / 2.0)


def _t_two_sided_cdf(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df == 1:
        return 2.0 * theta / math.pi
    if df % 2 == 1:
        term, total = 1.0, 1.0
        for j in range(3, df - 1, 2):  # terms 2/3 c^2, (2*4)/(3*5) c^4, ...
            term *= (j - 1) / j * c2
            total += term
        return 2.0 / math.pi * (theta + s * c * total)
    term, total = 1.0, 1.0
    for j in range(2, df - 1, 2):  # terms 1/2 c^2, (1*3)/(2*4) c^4, ...
        term *= (j - 1) / j * c2
        total += term
    return s * total


def t_quantile(conf: float, df: float) -> float:
    """Two-sided Student-t quantile: the ``t`` with P(|T| < t) = conf for ``df`` degrees of freedom.

    ``df`` is rounded down to an integer (>= 1); for ``df`` > 200 a Cornish-Fisher
    expansion around the normal quantile is used (A&S 26.7.5).
    """
    z = z_value(conf)
    if not math.isfinite(df) or df > 200:
        if not math.isfinite(df):
            return z
        v = float(df)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
        return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4
    k = max(1, int(df))
    if k == 1:
        return math.tan(math.pi * conf / 2.0)
    lo, hi = z, z
    while _t_two_sided_cdf(hi, k) < conf:
        hi *= 2.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if _t_two_sided_cdf(mid, k) < conf:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return 0.5 * (lo + hi)


# ------------------------------------------------------------------ estimates
@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval and sample size.

    ``kind`` is ``"rate"`` (a proportion; ``k`` successes out of ``n``) or
    ``"mean"``. ``str()`` gives the user-facing form with n and the interval.
    """

    value: float
    lo: float
    hi: float
    n: int
    kind: str = "mean"
    k: int | None = None
    conf: float = 0.95

    def __str__(self) -> str:
        if self.kind == "rate" and self.k is not None:
            return fmt_rate(self.k, self.n, conf=self.conf)
        return fmt_mean(self.value, self.lo, self.hi, self.n)

    def as_dict(self, prefix: str = "") -> dict:
        d = {f"{prefix}value": self.value, f"{prefix}lo": self.lo, f"{prefix}hi": self.hi, f"{prefix}n": self.n}
        if self.k is not None:
            d[f"{prefix}k"] = self.k
        return d


def wilson_interval(k, n, conf: float = 0.95, z: float | None = None):
    """Wilson score interval for ``k`` successes in ``n`` trials.

    Works on scalars or numpy arrays (broadcast). ``z`` overrides ``conf``.
    Where ``n == 0`` the bounds are NaN.

        center = (p + z²/2n) / (1 + z²/n)
        half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
    """
    if z is None:
        z = z_value(conf)
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        z2 = z * z
        denom = 1.0 + z2 / n
        center = (p + z2 / (2.0 * n)) / denom
        half = z / denom * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
        # exact bounds at the edges (k = 0 or k = n) instead of round-off
        lo = np.where(n > 0, np.where(k <= 0, 0.0, np.clip(center - half, 0.0, 1.0)), np.nan)
        hi = np.where(n > 0, np.where(k >= n, 1.0, np.clip(center + half, 0.0, 1.0)), np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def proportion(k, n, conf: float = 0.95) -> Estimate:
    """``k``/``n`` with its Wilson interval, as an :class:`Estimate`."""
    k, n = int(k), int(n)
    lo, hi = wilson_interval(k, n, conf)
    return Estimate(k / n if n else math.nan, lo, hi, n, kind="rate", k=k, conf=conf)


def mean_from_moments(n: int, mean: float, var: float, conf: float = 0.95) -> Estimate:
    """Mean with a Student-t interval from n, mean and the sample variance (ddof=1)."""
    n = int(n)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, conf=conf)
    if n == 1 or not math.isfinite(var):
        return Estimate(float(mean), math.nan, math.nan, n, conf=conf)
    half = t_quantile(conf, n - 1) * math.sqrt(max(var, 0.0) / n)
    return Estimate(float(mean), float(mean) - half, float(mean) + half, n, conf=conf)


def mean_ci(x, conf: float = 0.95) -> Estimate:
    """Mean of ``x`` with a Student-t ``conf`` interval (normal for large n)."""
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    if n == 0:
        return mean_from_moments(0, math.nan, math.nan, conf)
    var = float(x.var(ddof=1)) if n > 1 else math.nan
    return mean_from_moments(n, float(x.mean()), var, conf)


def paired_diff_ci(a, b, conf: float = 0.95) -> Estimate:
    """Mean of the per-pair differences ``a - b`` with a t interval.

    For duplicate matches: ``a[i]`` and ``b[i]`` are the outcomes of the same
    deal(s) with the seats swapped, so deal luck cancels in ``a - b``.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.size} vs {b.size}")
    return mean_ci(a - b, conf)


def ratio_ci(y, x, conf: float = 0.95) -> Estimate:
    """Ratio of sums R = Σy / Σx over clusters, with a delta-method interval.

    Use it when the unit of sampling is a cluster (a game, a duplicate pair)
    but the quantity is per element (bags per *hand*):
    var(R) ≈ Σ(y_i − R x_i)² / ((n − 1) n x̄²).
    """
    y = np.asarray(y, dtype=np.float64).ravel()
    x = np.asarray(x, dtype=np.float64).ravel()
    n = y.size
    sx = float(x.sum())
    if n == 0 or sx == 0:
        return Estimate(math.nan, math.nan, math.nan, n, conf=conf)
    r = float(y.sum()) / sx
    if n == 1:
        return Estimate(r, math.nan, math.nan, n, conf=conf)
    xbar = sx / n
    var = float(((y - r * x) ** 2).sum()) / ((n - 1) * n * xbar * xbar)
    half = z_value(conf) * math.sqrt(var)
    return Estimate(r, r - half, r + half, n, conf=conf)


def median_ci(x, conf: float = 0.95) -> Estimate:
    """Median of ``x`` with a distribution-free interval from its order statistics.

    [x_(k), x_(n+1-k)] (sorted, 1-based) covers the true median with probability
    1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), whatever the distribution: the
    largest k reaching ``conf`` is used. Few values cannot reach it (5 give at
    most 1 - 2/32 = 93.75 %): then k = 1, and ``conf`` of the result says the
    coverage actually had, so nothing claims more than it holds.
    """
    x = np.sort(np.asarray(x, dtype=np.float64).ravel())
    n = x.size
    if n < 2:
        return Estimate(float(x[0]) if n else math.nan, math.nan, math.nan, n, conf=conf)

    def coverage(k: int) -> float:
        return 1.0 - 2.0 * sum(math.comb(n, i) for i in range(k)) / 2.0 ** n

    k = 1
    while k < (n + 1) // 2 and coverage(k + 1) >= conf:
        k += 1
    return Estimate(float(np.median(x)), float(x[k - 1]), float(x[n - k]), n, conf=coverage(k))


class Moments:
    """Streaming count / mean / variance, merged batch by batch.

    ``m.update(array)`` adds a batch; ``m.estimate()`` gives the mean with its
    t interval. While every value is an integer (scores, bags, lengths: the usual case) the sums of the
    values and of their squares are kept exactly, so the result does not depend on how the data were
    split into batches or shards (a Dask run reads them in other groups than a local one). Other values
    use Chan et al.'s stable merge (no running sum of squares).
    """

    __slots__ = ("n", "_mean", "m2", "s1", "s2")
    EXACT_LIMIT = 2**20  # |value| below this: a batch's sum of squares cannot overflow int64

    def __init__(self) -> None:
        self.n = 0
        self._mean = 0.0
        self.m2 = 0.0
        self.s1 = self.s2 = 0  # exact sums (Python ints) while every value is an integer, else None

    def update(self, x) -> "Moments":
        x = np.asarray(x, dtype=np.float64).ravel()
        nb = x.size
        if nb == 0:
            return self
        if self.s1 is not None:
            if np.abs(x).max() < self.EXACT_LIMIT and (x == np.rint(x)).all():
                xi = x.astype(np.int64)
                self.s1 += int(xi.sum())
                self.s2 += int((xi * xi).sum())
            else:
                self.s1 = self.s2 = None
        mb = float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        self._merge(nb, mb, m2b)
        return self

    def merge(self, other: "Moments") -> "Moments":
        if other.n:
            if self.s1 is not None and other.s1 is not None:
                self.s1 += other.s1
                self.s2 += other.s2
            else:
                self.s1 = self.s2 = None
            self._merge(other.n, other._mean, other.m2)
        return self

    def _merge(self, nb: int, mb: float, m2b: float) -> None:
        na = self.n
        n = na + nb
        delta = mb - self._mean
        self._mean += delta * nb / n
        self.m2 += m2b + delta * delta * na * nb / n
        self.n = n

    @property
    def mean(self) -> float:
        if self.s1 is not None and self.n:
            return self.s1 / self.n
        return self._mean

    @property
    def var(self) -> float:
        if self.n < 2:
            return math.nan
        if self.s1 is not None:
            return (self.n * self.s2 - self.s1 * self.s1) / (self.n * (self.n - 1))  # exact integers, one division
        return self.m2 / (self.n - 1)

    def estimate(self, conf: float = 0.95) -> Estimate:
        return mean_from_moments(self.n, self.mean if self.n else math.nan, self.var, conf)


# ----------------------------------------------------------------- formatting
def fmt_int(n) -> str:
    """Integer with thousands separators: 6512 -> '6,512'."""
    return f"{int(n):,}"


def fmt_rate(k, n, conf: float = 0.95, digits: int = 1) -> str:
    """'41.3 % [40.1, 42.5] (n=6,512)': percentage, Wilson interval, sample size."""
    k, n = int(k), int(n)
    if n == 0:
        return "— (n=0)"
    lo, hi = wilson_interval(k, n, conf)
    return f"{100 * k / n:.{digits}f} % [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}] (n={fmt_int(n)})"


def fmt_mean(mean, lo, hi, n, digits: int = 2) -> str:
    """'52.31 [51.90, 52.72] (n=6,512)': mean, interval, sample size."""
    n = int(n)
    if n == 0 or not math.isfinite(mean):
        return f"— (n={fmt_int(n)})"
    def f(x: float) -> str:
        return f"{round(x, digits) + 0.0:.{digits}f}"  # + 0.0: no '-0.00'

    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{f(mean)} [—] (n={fmt_int(n)})"
    return f"{f(mean)} [{f(lo)}, {f(hi)}] (n={fmt_int(n)})"


# --------------------------------------------------------------- sample sizes
def n_two_proportions(p1: float, p2: float, conf: float = 0.95, power: float = 0.8) -> float:
    """Trials *per group* for a two-sided test of p1 vs p2 to have ``power``.

    Fleiss (no continuity correction):
    n = (z_a √(2 p̄ q̄) + z_b √(p1 q1 + p2 q2))² / (p1 − p2)².
    Returns ``inf`` when p1 == p2.
    """
    if p1 == p2:
        return math.inf
    za, zb = z_value(conf), NormalDist().inv_cdf(power)
    pbar = (p1 + p2) / 2
    num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return float(math.ceil(num * num / (p1 - p2) ** 2))


def n_one_proportion(p: float, p0: float = 0.5, conf: float = 0.95, power: float = 0.8) -> float:
    """Trials for a two-sided test that a rate ``p`` differs from ``p0`` (e.g. a 50 % win rate).

    n = (z_a √(p0 q0) + z_b √(p q))² / (p − p0)²; ``inf`` when p == p0.
    """
    if p == p0:
        return math.inf
    za, zb = z_value(conf), NormalDist().inv_cdf(power)
    num = za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p * (1 - p))
    return float(math.ceil(num * num / (p - p0) ** 2))


def n_paired(diff: float, sd: float, conf: float = 0.95, power: float = 0.8) -> float:
    """Pairs needed to resolve a mean paired difference ``diff`` whose per-pair SD is ``sd``.

    n = ((z_a + z_b) · sd / diff)²; ``inf`` when diff == 0.
    """
    if diff == 0 or not math.isfinite(diff):
        return math.inf
    za, zb = z_value(conf), NormalDist().inv_cdf(power)
    return float(math.ceil(((za + zb) * sd / diff) ** 2))
