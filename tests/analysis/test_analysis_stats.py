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


# ------------------------------------------------------------------ clustered rates and means (issue #19)
# Four games (clusters) of 3, 2, 3 and 1 hands. Worked by hand from the ratio-estimator variance
# Var(r) = G/(G-1) · Σ_g (y_g − r·n_g)² / (Σ_g n_g)² (Cochran, Sampling Techniques, 6.9 / 11.8):
GAMES = np.array([0, 0, 0, 1, 1, 2, 2, 2, 3])
MADE = np.array([1, 1, 1, 0, 0, 1, 0, 1, 0])            # y_g = 3, 0, 2, 0; n_g = 3, 2, 3, 1
SCORE = np.array([10, 20, 30, -5, 5, 0, 0, 60, 15])     # y_g = 60, 0, 60, 15


def test_clustered_rate_worked_by_hand():
    # r = 5/9; residuals y_g − r n_g = 4/3, −10/9, 1/3, −5/9; squares sum to 278/81
    # Var = 4/3 · (278/81) / 81 = 1112/19683 = 0.0564955; the independent-hands variance r(1−r)/n = 20/729,
    # so deff = 1112/540 = 2.059259 and n_eff = 9 / deff = 4.370504.
    # Wilson at p = 5/9, n = 4.370504: z²/n = 0.878951, centre = (0.555556 + 0.439475) / 1.878951 = 0.529568,
    # half = 1.043116 · sqrt(0.056496 + 0.050277) = 0.340849 -> [0.18872, 0.87042]
    c = S.ClusterRatio().update(GAMES, MADE)
    assert (c.k, c.n, c.n_clusters) == (5, 9, 4) and c.value == pytest.approx(5 / 9)
    assert c.variance == pytest.approx(1112 / 19683, rel=1e-12)
    assert c.effective_n() == pytest.approx(4.370504, abs=1e-6)
    e = c.rate()
    assert (e.lo, e.hi) == pytest.approx((0.18872, 0.87042), abs=1e-5)
    lo, hi = S.wilson_interval(5, 9)
    assert e.hi - e.lo > hi - lo  # wider than the interval that takes the nine hands as independent
    assert str(e) == "55.6 % [18.9, 87.0] (n=9)"


def test_clustered_mean_worked_by_hand():
    # r = 135/9 = 15; residuals 60 − 45, 0 − 30, 60 − 45, 15 − 15: squares 1350; Var = 4/3 · 1350/81 = 22.2222,
    # SE = 4.714045; t(0.975, G − 1 = 3) = 3.182446 (tables) -> half-width 15.00219
    e = S.ClusterRatio().update(GAMES, SCORE).estimate()
    assert e.value == 15 and e.n == 9 and e.clusters == 4
    assert (e.lo, e.hi) == pytest.approx((15 - 15.00219, 15 + 15.00219), abs=1e-4)


def test_clustered_figures_match_a_groupby_computation_whatever_the_batches():
    from analysis_helpers import clustered

    rng = np.random.default_rng(11)
    sizes = rng.integers(1, 12, 300)                          # 300 games of 1 to 11 hands
    games = np.repeat(np.arange(300) * 3 + 7, sizes)          # ids ascending, not contiguous
    effect = np.repeat(rng.normal(0, 1, 300), sizes)          # a game effect: hands of a game agree
    y = (rng.normal(0, 1, games.size) + effect > 0.3).astype(np.int64)
    value = np.rint(40 * effect + rng.normal(0, 30, games.size)).astype(np.int64)
    ref_rate, ref_mean = clustered(games, y), clustered(games, value, kind="mean")
    for cuts in ([], [1, 2, 3], sorted(rng.choice(games.size, 25, replace=False).tolist())):
        rate, mean = S.ClusterRatio(), S.ClusterRatio()
        for part in np.split(np.arange(games.size), cuts):   # batches cut anywhere, games across them
            rate.update(games[part], y[part])
            mean.update(games[part], value[part])
        e = rate.rate()
        assert (e.k, e.n, e.clusters) == (ref_rate["k"], ref_rate["n"], 300)
        assert rate.variance == pytest.approx(ref_rate["var"], rel=1e-9)
        assert (e.lo, e.hi) == pytest.approx((ref_rate["lo"], ref_rate["hi"]), rel=1e-9)
        m = mean.estimate()
        assert (m.value, m.lo, m.hi) == pytest.approx((ref_mean["value"], ref_mean["lo"], ref_mean["hi"]), rel=1e-9)
    # shards merged in any order give the very same floats (exact integer sums)
    half = np.searchsorted(games, games[games.size // 2])     # a cut between two games, as between two files
    a, b = S.ClusterRatio().update(games[:half], value[:half]), S.ClusterRatio().update(games[half:], value[half:])
    whole = S.ClusterRatio().update(games, value)
    merged = S.ClusterRatio().merge(b).merge(a)
    assert (merged.value, merged.variance, merged.n_clusters) == (whole.value, whole.variance, whole.n_clusters)
    # with this game effect the clustered interval is much wider than the one over independent hands
    assert e.hi - e.lo > 1.5 * np.subtract(*S.wilson_interval(e.k, e.n)[::-1])


def test_independent_observations_get_the_plain_intervals():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 500)
    x = rng.integers(-100, 100, 500)
    ids = np.arange(500)
    e = S.ClusterRatio().update(ids, y).rate()
    assert (e.lo, e.hi) == S.wilson_interval(int(y.sum()), 500)
    m = S.ClusterRatio().update(ids, x).estimate()
    ref = S.mean_ci(x)
    assert (m.value, m.lo, m.hi) == pytest.approx((ref.value, ref.lo, ref.hi), rel=1e-12)


def test_all_or_nothing_counts_each_cluster_once():
    # 0 of 12 in 3 games of 4: the clustering cannot be estimated; n_eff = the 3 games (Wilson 0 of 3)
    e = S.ClusterRatio().update(np.repeat([1, 2, 3], 4), np.zeros(12, int)).rate()
    assert (e.value, e.lo) == (0.0, 0.0) and e.hi == pytest.approx(3.841459 / (3 + 3.841459), abs=1e-6)
    one = S.ClusterRatio().update([5, 5], [1, 0]).rate()   # a single game: one observation's worth
    assert one.n == 2 and (one.lo, one.hi) == pytest.approx(S.wilson_interval(0.5, 1))


def test_rows_of_a_game_must_come_together():
    with pytest.raises(S.ClusterOrderError, match="game 1"):
        S.ClusterRatio().update([1, 2, 1], [0, 1, 0])
    c = S.ClusterRatio().update([1, 2], [0, 1])
    c.update([2, 3], [1, 1])                                 # game 2 goes on in the next batch: fine
    with pytest.raises(S.ClusterOrderError, match="game 2"):
        c.update([2], [0])                                   # but not after game 3 began
    assert c.n == 4 and c.n_clusters == 3


def test_update_by_key_keeps_each_keys_rows_in_order():
    from analysis_helpers import clustered

    keys = np.array([1, 0, 1, 1, 0, 0, 1])
    games = np.array([0, 0, 0, 1, 1, 2, 2])
    y = np.array([1, 0, 1, 0, 1, 1, 1])
    store = S.update_by_key({}, keys, games, y)
    for k in (0, 1):
        ref = clustered(games[keys == k], y[keys == k])
        e = store[k].rate()
        assert (e.k, e.n, e.clusters) == (ref["k"], ref["n"], ref["clusters"])
        assert (e.lo, e.hi) == pytest.approx((ref["lo"], ref["hi"]))


def test_intervals_print_with_enough_decimals_to_differ_from_the_value():
    # the example: a difference of -0.2249 with an interval [-0.2281, -0.2217] read "-0.22 [-0.23, -0.22]"
    assert S.fmt_mean(-0.2249, -0.2281, -0.2217, 5000) == "-0.225 [-0.228, -0.222] (n=5,000)"
    assert S.fmt_mean(52.3141, 51.9, 52.72, 6512) == "52.31 [51.90, 52.72] (n=6,512)"  # unchanged when enough
    assert S.fmt_rate(1, 8168) == "0.01 % [0.00, 0.07] (n=8,168)"  # not '0.0 % [0.0, 0.1]'
    assert S.fmt_rate(0, 10) == "0.0 % [0.0, 27.8] (n=10)"      # a bound equal to the value stays as it is
    assert S.fmt_mean(1.0, 1.0, 1.0, 4) == "1.00 [1.00, 1.00] (n=4)"
