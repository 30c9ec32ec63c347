"""Deals against exact probabilities: spade length per seat is hypergeometric."""
from math import comb, sqrt

import numpy as np
import pytest

from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import parse_spec


def chi2_critical(df: int, z: float = 3.0902) -> float:
    """Upper quantile of chi-square (Wilson-Hilferty); z = 3.0902 is the 99.9 % normal quantile."""
    return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3


def spade_lengths(masks: np.ndarray) -> np.ndarray:
    spades = np.int64(((1 << 13) - 1) << 39) | np.int64(3 << 52)
    return np.bitwise_count(masks & spades) if hasattr(np, "bitwise_count") else np.array(
        [bin(int(m)).count("1") for m in masks & spades])


@pytest.mark.needs_jit("a statistical test over 100,000 deals: about 50 s as pure Python; the pure-Python "
                        "deals are the compiled ones, hash for hash (test_data_hashes.py runs in both modes)")
@pytest.mark.parametrize("jokers", [False, True])
def test_spade_length_per_seat_is_hypergeometric(jokers):
    n = 100_000
    h = run_to_tables(RunConfig(rules=build_rules("cardems", [f"jokers={str(jokers).lower()}"]),
                                   seats=(parse_spec("simple"),) * 4, seed=11, count=n))["hands"]
    n_spades = 15 if jokers else 13  # jokers are spades; the removed 2s are red
    # exact P(k spades in 13 of 52 cards with n_spades spades)
    p = np.array([comb(n_spades, k) * comb(52 - n_spades, 13 - k) / comb(52, 13) for k in range(14)])
    assert abs(p.sum() - 1) < 1e-12
    for seat in range(4):
        k = spade_lengths(h[f"dealt_{seat}"].to_numpy())
        observed = np.bincount(k, minlength=14)
        expected = n * p
        # pool the tails so every expected count is at least 5
        lo, hi = 0, 13
        while expected[: lo + 1].sum() < 5:
            lo += 1
        while expected[hi:].sum() < 5:
            hi -= 1
        obs = np.r_[observed[: lo + 1].sum(), observed[lo + 1:hi], observed[hi:].sum()]
        exp = np.r_[expected[: lo + 1].sum(), expected[lo + 1:hi], expected[hi:].sum()]
        chi2 = ((obs - exp) ** 2 / exp).sum()
        assert chi2 < chi2_critical(len(obs) - 1), (seat, chi2, obs, exp.round())
        # the mean is exact too: 13 * n_spades / 52, standard error from the hypergeometric variance
        var = 13 * (n_spades / 52) * (1 - n_spades / 52) * (52 - 13) / 51
        assert abs(k.mean() - 13 * n_spades / 52) < 4 * sqrt(var / n)


@pytest.mark.needs_jit("a statistical test over 40,000 deals: about 20 s as pure Python; the pure-Python "
                        "deals are the compiled ones, hash for hash (test_data_hashes.py runs in both modes)")
def test_each_card_goes_to_each_seat_a_quarter_of_the_time():
    n = 40_000
    h = run_to_tables(RunConfig(rules=build_rules("cardems"), seats=(parse_spec("simple"),) * 4, seed=5, count=n))["hands"]
    counts = np.zeros((52, 4))
    for seat in range(4):
        m = h[f"dealt_{seat}"].to_numpy()
        counts[:, seat] = [(m >> c & 1).sum() for c in range(52)]
    assert (counts.sum(axis=1) == n).all()  # every card dealt exactly once per hand
    chi2 = ((counts - n / 4) ** 2 / (n / 4)).sum()
    assert chi2 < chi2_critical(52 * 3)
