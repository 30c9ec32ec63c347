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
* rates and means over hands (or seat-hands) that share a game -> cluster-robust
  intervals from per-game sums, streamed batch by batch (:class:`ClusterRatio`);
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

from tricksim.simulator.errors import ClusterOrderError  # noqa: F401  (re-exported)

__all__ = [
    "Estimate",
    "Moments",
    "ClusterRatio",
    "ClusterOrderError",
    "Clusters",
    "update_by_key",
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
    "fmt_estimate",
    "fmt_rate_interval",
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
    ``"mean"``. ``clusters``: the number of independent clusters (games, deal pairs) the interval
    rests on, when the observations were grouped into them. ``str()`` gives the user-facing form with
    n and the interval.
    """

    value: float
    lo: float
    hi: float
    n: int
    kind: str = "mean"
    k: int | None = None
    conf: float = 0.95
    clusters: int | None = None

    def __str__(self) -> str:
        return fmt_estimate(self)

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


def _exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """Σ a·b of two int64 arrays as an exact Python integer (int64 when it cannot overflow)."""
    if not a.size:
        return 0
    m = max(int(np.abs(a).max()), int(np.abs(b).max()))
    if m < 2**31 and m * m * a.size < 2**62:
        return int((a * b).sum())
    return sum(x * y for x, y in zip(a.tolist(), b.tolist()))


def _integers(x, what: str) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind in "biu":
        return x.astype(np.int64, copy=False)
    xf = x.astype(np.float64)
    if not (xf == np.rint(xf)).all():
        raise TypeError(f"ClusterRatio sums integers; {what} holds other numbers")
    return xf.astype(np.int64)


class Clusters:
    """The runs of equal cluster ids in one batch of rows, found once for the several
    :class:`ClusterRatio` updates of that batch (``ratio.update(Clusters(ids), y)``)."""

    __slots__ = ("gid", "ids", "sizes", "starts")

    def __init__(self, ids) -> None:
        ids = np.asarray(ids, dtype=np.int64).ravel()
        self.ids = ids
        self.starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1]))) if ids.size else \
            np.zeros(0, np.int64)
        self.gid = ids[self.starts]
        self.sizes = np.diff(np.append(self.starts, ids.size))
        if self.gid.size > 1 and not (np.diff(self.gid) > 0).all():
            raise ClusterOrderError(int(self.gid[1:][np.diff(self.gid) <= 0][0]))


class ClusterRatio:
    """A rate or mean over observations grouped in clusters (the hands of a game), with a cluster-robust
    interval, accumulated batch by batch and mergeable.

    Each observation carries a cluster id, a value ``y`` and a weight ``n`` (1 by default): the estimate
    is the ratio r = Σy / Σn (a rate when y is 0/1 and n = 1, e.g. contracts made over team-hands; a mean
    when y is a value, e.g. points per hand). The clusters are the independent units; its variance is
    the linearisation (ratio-estimator) variance over the G clusters, with y_g, n_g the sums of cluster g:

        Var(r) ≈ G / (G − 1) · Σ_g (y_g − r·n_g)² / (Σ_g n_g)²

    (Cochran, *Sampling Techniques*, 3rd ed., 6.9 and 11.8; the usual cluster-robust "sandwich"). A
    mean's interval is r ± t(G − 1) · √Var. A rate's is the Wilson score interval at the effective
    sample size n / deff, with the design effect deff = Var / (r(1 − r) / n) floored at 1 (Korn and
    Graubard, 1998, Survey Methodology 24: 193-201); where it cannot be estimated (every observation a
    success or every one a failure, or a single cluster) the effective size is the number of clusters
    holding observations, the widest the clustering could make it. When no cluster holds more than one
    observation the observations are independent and the intervals are exactly the plain Wilson and t
    intervals.

    Rows must come cluster by cluster: the rows of a cluster consecutive, the clusters in increasing id
    order (tricksim writes each game's hands together, games in order, a game in one file). A cluster
    can span two batches, so the last one stays open until a row of another cluster (or the end) comes.
    The sums are exact integers, so the figures do not depend on how the rows were split into batches
    or files (a Dask run merges other groups of files than a local one).
    """

    __slots__ = ("_last", "_open", "clusters", "max_size", "nonempty", "sn", "snn", "sy", "syn", "syy")

    def __init__(self) -> None:
        self.clusters = 0     # closed clusters
        self.nonempty = 0     # closed clusters with n_g > 0
        self.max_size = 0     # the largest n_g
        self.sy = self.sn = self.syy = self.snn = self.syn = 0  # Σy_g, Σn_g, Σy_g², Σn_g², Σy_g·n_g
        self._open: tuple[int, int, int] | None = None          # (id, y, n) of the cluster still open
        self._last: int | None = None                           # id of the last closed cluster

    def update(self, cluster, y, n=None) -> ClusterRatio:
        """Add rows: ``cluster`` ids (or their :class:`Clusters`), values ``y`` and weights ``n`` (default 1),
        aligned integer arrays."""
        runs = cluster if isinstance(cluster, Clusters) else Clusters(cluster)
        if not runs.ids.size:
            return self
        y = _integers(y, "y").ravel()
        if y.shape != runs.ids.shape or (n is not None and np.shape(n) != runs.ids.shape):
            raise ValueError("cluster, y and n must have the same length")
        single = runs.starts.size == runs.ids.size  # every row its own cluster (independent hands)
        gid = runs.gid
        yg = y.copy() if single else np.add.reduceat(y, runs.starts)
        if n is None:
            ng = runs.sizes.copy()
        else:
            n = _integers(n, "n").ravel()
            ng = n.copy() if single else np.add.reduceat(n, runs.starts)
        if self._open is not None and gid[0] == self._open[0]:  # the open cluster goes on in this batch
            yg[0] += self._open[1]
            ng[0] += self._open[2]
            self._open = None
        self.close()
        if self._last is not None and gid[0] <= self._last:
            raise ClusterOrderError(int(gid[0]))
        self._add(yg[:-1], ng[:-1])
        if gid.size > 1:
            self._last = int(gid[-2])
        self._open = (int(gid[-1]), int(yg[-1]), int(ng[-1]))
        return self

    def _add(self, yg: np.ndarray, ng: np.ndarray) -> None:
        if not yg.size:
            return
        self.clusters += int(yg.size)
        self.nonempty += int((ng > 0).sum())
        self.max_size = max(self.max_size, int(ng.max()))
        self.sy += int(yg.sum())
        self.sn += int(ng.sum())
        self.syy += _exact_dot(yg, yg)
        self.snn += _exact_dot(ng, ng)
        self.syn += _exact_dot(yg, ng)

    def close(self) -> ClusterRatio:
        """Close the open cluster (no more rows of it will come)."""
        if self._open is not None:
            oid, oy, on = self._open
            self._open = None
            self._add(np.array([oy], np.int64), np.array([on], np.int64))
            self._last = oid
        return self

    def merge(self, other: ClusterRatio) -> ClusterRatio:
        """Add the clusters of ``other`` (other files: no cluster is in both)."""
        self.close()
        other = other._closed()
        for name in ("clusters", "nonempty", "sy", "sn", "syy", "snn", "syn"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.max_size = max(self.max_size, other.max_size)
        self._last = None  # ids from here on come from other files
        return self

    def _closed(self) -> ClusterRatio:
        """A copy with the open cluster closed (estimates never change the object: more rows may come)."""
        c = ClusterRatio()
        for name in self.__slots__:
            setattr(c, name, getattr(self, name))
        return c.close()

    # ------------------------------------------------------------ estimates
    @property
    def n(self) -> int:
        """Σn: the observations (the denominator)."""
        return self._closed().sn

    @property
    def k(self) -> int:
        """Σy (successes, for a rate)."""
        return self._closed().sy

    @property
    def value(self) -> float:
        c = self._closed()
        return c.sy / c.sn if c.sn else math.nan

    mean = value

    @property
    def n_clusters(self) -> int:
        return self._closed().clusters

    @property
    def independent(self) -> bool:
        """No cluster holds more than one observation: the plain intervals apply."""
        return self._closed().max_size <= 1

    @property
    def variance(self) -> float:
        """Var(r) ≈ G/(G−1) · Σ(y_g − r n_g)² / (Σn)², computed from exact integer sums."""
        c = self._closed()
        g, sy, sn = c.clusters, c.sy, c.sn
        if g < 2 or sn == 0:
            return math.nan
        # Σ(y_g − r n_g)² · sn² = Σ(y_g sn − sy n_g)²: an exact integer
        num = c.syy * sn * sn - 2 * sy * sn * c.syn + sy * sy * c.snn
        return g / (g - 1) * (num / sn**4)

    def effective_n(self) -> float:
        """The sample size whose plain Wilson interval is the rate's clustered interval (n / deff)."""
        c = self._closed()
        n = c.sn
        if c.max_size <= 1:
            return float(n)
        p = c.sy / n if n else math.nan
        var = c.variance
        if not (0 < p < 1) or not math.isfinite(var):
            return float(min(n, c.nonempty))
        return n / max(1.0, var / (p * (1 - p) / n))

    def rate(self, conf: float = 0.95) -> Estimate:
        """The rate Σy/Σn with its clustered Wilson interval (y 0/1, n 1 per observation)."""
        c = self._closed()
        n, k = c.sn, c.sy
        if n == 0:
            return Estimate(math.nan, math.nan, math.nan, 0, kind="rate", k=0, conf=conf, clusters=c.clusters)
        ne = c.effective_n()
        lo, hi = wilson_interval(k / n * ne, ne, conf)
        return Estimate(k / n, lo, hi, n, kind="rate", k=k, conf=conf, clusters=c.clusters)

    def estimate(self, conf: float = 0.95) -> Estimate:
        """The mean Σy/Σn with a t interval on G − 1 degrees of freedom and the clustered standard error."""
        c = self._closed()
        n, r, var = c.sn, c.value, c.variance
        if n == 0 or not math.isfinite(var):
            return Estimate(r, math.nan, math.nan, n, conf=conf, clusters=c.clusters)
        half = t_quantile(conf, c.clusters - 1) * math.sqrt(max(var, 0.0))
        return Estimate(r, r - half, r + half, n, conf=conf, clusters=c.clusters)


def update_by_key(store: dict, keys, cluster, y, n=None, *, key_of=None) -> dict:
    """``store[key].update(...)`` for the rows of each distinct key (a :class:`ClusterRatio` per key, made
    when first seen), keeping the row order within each key; ``key_of`` maps a key to the one stored."""
    keys = np.asarray(keys).ravel()
    if not keys.size:
        return store
    cluster = np.asarray(cluster).ravel()
    y = np.asarray(y).ravel()
    n = None if n is None else np.asarray(n).ravel()
    key_of = key_of or (lambda k: k)
    if keys.dtype.kind in "iub" and int(keys.max()) - int(keys.min()) < 65536:
        # small integer codes (the usual case): a stable radix sort on 8 or 16 bits, linear in the rows
        low, span = int(keys.min()), int(keys.max()) - int(keys.min())
        idx = (keys.astype(np.int64) - low).astype(np.uint8 if span < 256 else np.uint16)
        counts = np.bincount(idx)
        slots = np.flatnonzero(counts)
        found = (slots + low).tolist()
    else:
        uniq, inv = np.unique(keys, return_inverse=True)
        idx = inv.ravel()
        counts = np.bincount(idx)
        slots, found = np.arange(uniq.size), uniq.tolist()
    if len(found) == 1:
        store.setdefault(key_of(found[0]), ClusterRatio()).update(cluster, y, n)
        return store
    order = np.argsort(idx, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(counts)))
    for slot, key in zip(slots.tolist(), found):
        rows = order[bounds[slot]:bounds[slot + 1]]
        store.setdefault(key_of(key), ClusterRatio()).update(cluster[rows], y[rows], None if n is None else n[rows])
    return store
    order = np.argsort(idx, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(counts)))
    for key in uniq.tolist():
        i = key - low if keys.dtype.kind in "iub" and idx.dtype != np.intp else int(np.searchsorted(uniq, key))
        rows = order[bounds[i]:bounds[i + 1]]
        store.setdefault(key_of(key), ClusterRatio()).update(cluster[rows], y[rows], None if n is None else n[rows])
    return store


# ----------------------------------------------------------------- formatting
def fmt_int(n) -> str:
    """Integer with thousands separators: 6512 -> '6,512'."""
    return f"{int(n):,}"


def _decimals(value: float, lo: float, hi: float, digits: int, extra: int = 4) -> int:
    """The fewest decimals (``digits`` to ``digits + extra``) that tell the bounds from the value wherever they
    differ, so that an interval never reads '-0.22 [-0.23, -0.22]'."""
    for d in range(digits, digits + extra + 1):
        if all(b == value or not math.isfinite(b) or round(b, d) != round(value, d) for b in (lo, hi)):
            return d
    return digits + extra


def _fixed(x: float, d: int) -> str:
    return f"{round(x, d) + 0.0:.{d}f}"  # + 0.0: no '-0.00'


def fmt_rate(k, n, conf: float = 0.95, digits: int = 1) -> str:
    """'41.3 % [40.1, 42.5] (n=6,512)': percentage, Wilson interval, sample size."""
    k, n = int(k), int(n)
    if n == 0:
        return "— (n=0)"
    lo, hi = wilson_interval(k, n, conf)
    return fmt_rate_interval(k / n, lo, hi, n, digits)


def fmt_rate_interval(rate, lo, hi, n, digits: int = 1) -> str:
    """A rate with a given interval (all as fractions): '41.3 % [40.1, 42.5] (n=6,512)'."""
    n = int(n)
    if n == 0 or not math.isfinite(rate):
        return f"— (n={fmt_int(n)})"
    v, lo, hi = 100 * rate, 100 * lo, 100 * hi
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{_fixed(v, digits)} % [—] (n={fmt_int(n)})"
    d = _decimals(v, lo, hi, digits)
    return f"{_fixed(v, d)} % [{_fixed(lo, d)}, {_fixed(hi, d)}] (n={fmt_int(n)})"


def fmt_mean(mean, lo, hi, n, digits: int = 2) -> str:
    """'52.31 [51.90, 52.72] (n=6,512)': mean, interval, sample size (more decimals where the interval is
    narrower than the last one shown)."""
    n = int(n)
    if n == 0 or not math.isfinite(mean):
        return f"— (n={fmt_int(n)})"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{_fixed(mean, digits)} [—] (n={fmt_int(n)})"
    d = _decimals(mean, lo, hi, digits)
    return f"{_fixed(mean, d)} [{_fixed(lo, d)}, {_fixed(hi, d)}] (n={fmt_int(n)})"


def fmt_estimate(e: Estimate, digits: int | None = None) -> str:
    """An :class:`Estimate` as printed: a rate in % with its own interval, a mean with its interval, and n."""
    if e.kind == "rate":
        return fmt_rate_interval(e.value, e.lo, e.hi, e.n, 1 if digits is None else digits)
    return fmt_mean(e.value, e.lo, e.hi, e.n, 2 if digits is None else digits)


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
