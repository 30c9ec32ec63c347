"""The random strategy's bids follow the Binomial(13, bid_p) it promises (exact probabilities)."""
from math import comb, sqrt

import numpy as np
import pytest

from tricksim.strategies.spades.random import binomial13


@pytest.mark.parametrize("p", [0.1, 0.25, 0.6])
def test_bid_distribution_is_binomial(p):
    n = 100_000
    u = np.random.default_rng(1).random(n)
    k = np.array([binomial13(x, p) for x in u])
    observed = np.bincount(k, minlength=14)
    expected = n * np.array([comb(13, j) * p**j * (1 - p) ** (13 - j) for j in range(14)])
    keep = expected >= 5
    obs = np.r_[observed[keep], observed[~keep].sum()]
    exp = np.r_[expected[keep], expected[~keep].sum()]
    if exp[-1] < 5:  # fold a tiny pooled tail into the last kept bin
        obs, exp = np.r_[obs[:-2], obs[-2:].sum()], np.r_[exp[:-2], exp[-2:].sum()]
    df = len(obs) - 1
    chi2 = ((obs - exp) ** 2 / exp).sum()
    assert chi2 < df * (1 - 2 / (9 * df) + 3.0902 * sqrt(2 / (9 * df))) ** 3  # 99.9 % quantile
    assert binomial13(0.999999, 1.0) == 13 and binomial13(0.5, 0.0) == 0
