import math

import numpy as np
import pytest

from analysis import stats as S
from analysis.stats import Moments

Z95 = 1.959963984540054


def test_z_value():
    assert S.z_value(0.95) == pytest.approx(Z95, abs=1e-12)
    assert S.z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    with pytest.raises(ValueError):
        S.z_value(1.0)


def test_wilson_hand_computed_7_of_10():
    # k=7, n=10, z=1.959964, z² = 3.841459
    # center = (0.7 + z²/20) / (1 + z²/10) = (0.7 + 0.192073) / 1.384146 = 0.644493
    # half   = z / (1 + z²/10) * sqrt(0.7*0.3/10 + z²/400)
    #        = 1.416010 * sqrt(0.021 + 0.009604) = 1.416010 * 0.174939 = 0.247716
    # -> [0.396778, 0.892209]
    z = Z95
    center = (0.7 + z * z / 20) / (1 + z * z / 10)
    half = z / (1 + z * z / 10) * math.sqrt(0.7 * 0.3 / 10 + z * z / 400)
    lo, hi = S.wilson_interval(7, 10)
    assert lo == pytest.approx(center - half, abs=1e-12)
    assert hi == pytest.approx(center + half, abs=1e-12)
    assert lo == pytest.approx(0.396778, abs=1e-6)
    assert hi == pytest.approx(0.892209, abs=1e-6)


def test_wilson_edges_and_vectorised():
    lo, hi = S.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.277533, abs=1e-6)  # z²/(n+z²) = 3.841459/13.841459
    lo, hi = S.wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(1 - 0.277533, abs=1e-6)
    lo, hi = S.wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    lo, hi = S.wilson_interval(np.array([7, 0, 3]), np.array([10, 0, 3]))
    assert lo.shape == (3,) and np.isnan(lo[1]) and lo[0] == pytest.approx(0.396778, abs=1e-6)
    # any z: z=1 gives a narrower interval
    lo1, hi1 = S.wilson_interval(7, 10, z=1.0)
    assert lo1 > 0.396778 and hi1 < 0.892209


def test_t_quantile_matches_tables():
    # two-sided 95 % Student t critical values (standard tables)
    for df, t in [(1, 12.706205), (2, 4.302653), (5, 2.570582), (10, 2.228139), (30, 2.042272),
                  (120, 1.979930), (1000, 1.962339)]:
        assert S.t_quantile(0.95, df) == pytest.approx(t, abs=2e-6)
    assert S.t_quantile(0.99, 10) == pytest.approx(3.169273, abs=2e-6)
    assert S.t_quantile(0.95, math.inf) == pytest.approx(Z95)


def test_mean_ci_and_moments_streaming():
    rng = np.random.default_rng(0)
    x = rng.normal(3.0, 2.0, 1001)
    e = S.mean_ci(x)
    half = S.t_quantile(0.95, 1000) * x.std(ddof=1) / math.sqrt(1001)
    assert e.value == pytest.approx(x.mean()) and e.hi - e.value == pytest.approx(half)
    m = S.Moments()
    for part in np.array_split(x, 7):
        m.update(part)
    m.update(np.array([]))
    assert m.n == 1001 and m.mean == pytest.approx(x.mean(), abs=1e-12)
    assert m.var == pytest.approx(x.var(ddof=1), rel=1e-12)
    other = S.Moments().update(x[:500])
    assert other.merge(S.Moments().update(x[500:])).var == pytest.approx(x.var(ddof=1), rel=1e-12)
    # mean of 1, 2, 3: sd 1, t(0.975, 2) = 4.302653 -> half = 4.302653 / sqrt(3) = 2.484138
    e = S.mean_ci([1, 2, 3])
    assert (e.value, e.lo, e.hi, e.n) == pytest.approx((2.0, 2 - 2.484138, 2 + 2.484138, 3), abs=1e-6)
    assert math.isnan(S.mean_ci([]).value) and math.isnan(S.mean_ci([5]).lo)


def test_paired_and_ratio():
    a, b = np.array([3.0, 5, 4, 6]), np.array([1.0, 4, 4, 3])
    e = S.paired_diff_ci(a, b)
    assert e.value == pytest.approx(1.5) and e.n == 4
    with pytest.raises(ValueError):
        S.paired_diff_ci([1, 2], [1])
    # ratio of sums: y = bags per game, x = hands per game
    y, x = np.array([10.0, 20, 30]), np.array([5.0, 10, 15])
    r = S.ratio_ci(y, x)
    assert r.value == pytest.approx(2.0) and r.lo == pytest.approx(2.0) and r.hi == pytest.approx(2.0)
    y = np.array([10.0, 22, 27])
    r = S.ratio_ci(y, x)
    resid = y - (59 / 30) * x
    var = (resid ** 2).sum() / (2 * 3 * 10.0 ** 2)
    assert r.value == pytest.approx(59 / 30) and r.hi - r.value == pytest.approx(Z95 * math.sqrt(var))


def test_median_ci_order_statistics():
    # n = 5: k = 1 covers 1 - 2 * (1/2)^5 = 30/32 = 0.9375 < 0.95, the best 5 values can do
    e = S.median_ci([5.0, 1, 4, 2, 3])
    assert (e.value, e.lo, e.hi, e.n) == (3.0, 1.0, 5.0, 5) and e.conf == 0.9375
    # n = 9: P(B <= 1) = (1 + 9)/512, k = 2 covers 1 - 20/512 = 0.9609 >= 0.95;
    # P(B <= 2) = (1 + 9 + 36)/512, k = 3 would cover 1 - 92/512 = 0.8203: so [x(2), x(8)]
    e = S.median_ci([9.0, 3, 7, 1, 5, 8, 2, 6, 4])
    assert (e.value, e.lo, e.hi, e.n) == (5.0, 2.0, 8.0, 9) and e.conf == pytest.approx(492 / 512)
    # asking for less coverage narrows it: 0.80 allows k = 3 (0.8203) at n = 9
    e = S.median_ci(np.arange(1.0, 10.0), conf=0.80)
    assert (e.lo, e.hi) == (3.0, 7.0) and e.conf == pytest.approx(420 / 512)
    # n = 6: median between the middle two; k = 1 covers 1 - 2/64 = 0.96875
    e = S.median_ci([1.0, 2, 3, 4, 5, 6])
    assert (e.value, e.lo, e.hi) == (3.5, 1.0, 6.0) and e.conf == pytest.approx(62 / 64)
    one = S.median_ci([2.0])
    assert one.value == 2.0 and math.isnan(one.lo) and one.n == 1
    assert S.median_ci([]).n == 0


def test_formatting():
    assert S.fmt_rate(2689, 6512) == "41.3 % [40.1, 42.5] (n=6,512)"
    assert S.fmt_rate(0, 0) == "— (n=0)"
    assert S.fmt_mean(52.3141, 51.9, 52.72, 6512) == "52.31 [51.90, 52.72] (n=6,512)"
    assert S.fmt_mean(1.0, math.nan, math.nan, 1) == "1.00 [—] (n=1)"
    assert str(S.proportion(7, 10)) == "70.0 % [39.7, 89.2] (n=10)"
    assert "n=3" in str(S.mean_ci([1, 2, 3]))


def test_sample_sizes():
    # two proportions 0.5 vs 0.6, per group:
    # pbar = 0.55; za*sqrt(2*.55*.45) = 1.959964*0.703562 = 1.378956
    # zb*sqrt(.5*.5 + .6*.4) = 0.841621*0.7 = 0.589135; (1.968091)² / 0.01 = 387.3 -> 388
    assert S.n_two_proportions(0.5, 0.6) == 388
    assert S.n_two_proportions(0.5, 0.5) == math.inf
    # paired: diff 0.1, sd 0.5: ((1.959964 + 0.841621) * 0.5 / 0.1)² = 14.007925² = 196.2 -> 197
    assert S.n_paired(0.1, 0.5) == 197
    assert S.n_paired(0.0, 0.5) == math.inf
    # one proportion 0.55 vs 0.5: (1.959964*0.5 + 0.841621*0.497494)² / 0.0025 = 1.398688² / 0.0025 = 782.5 -> 783
    assert S.n_one_proportion(0.55) == 783


def test_moments_of_integers_do_not_depend_on_the_split():
    """Shards read in other groups (a Dask run) must give the very same printed figures: exact sums."""
    rng = np.random.default_rng(3)
    x = rng.integers(-900, 900, 10_001)
    whole = Moments().update(x)
    parts = [Moments().update(x[i:i + 997]) for i in range(0, x.size, 997)]
    merged = parts[-1]
    for p in parts[-2::-1]:
        merged.merge(p)  # another order too
    assert (merged.n, merged.mean, merged.var) == (whole.n, whole.mean, whole.var)
    assert whole.mean == x.sum() / x.size and whole.var == pytest.approx(x.var(ddof=1), rel=1e-15)
    f = Moments().update([0.5, 1.5]).merge(Moments().update([2]))  # not integers: the stable merge
    assert f.s1 is None and f.mean == pytest.approx(4 / 3) and f.var == pytest.approx(np.var([0.5, 1.5, 2], ddof=1))
