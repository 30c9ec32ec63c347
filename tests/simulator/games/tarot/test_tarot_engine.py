"""The Tarot engine: the deal against exact probabilities, determinism across threads and shards,
resume after a real kill, a rule-breaking strategy, and invariants of random play.

Whole-run legality and every derived column are checked by the reference replay
(tests/simulator/games/tarot/test_tarot_reference.py); these tests cover what the replay cannot see.
"""
from math import comb
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from killed_run import kill_and_resume
from numba import njit

from tricksim.simulator.engine import RunConfig, RunError, run, run_to_tables
from tricksim.simulator.games.tarot import cards
from tricksim.simulator.games.tarot.policy import CHOOSE_SIG, V_NPLAYED
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.simulator.rundir import read_manifest
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec
from tricksim.strategies.tarot import random as random_strategy

RANDOM = parse_spec("random:chelem_prob=0.1", game="tarot")


def cfg(**kw):
    base = {"game": "tarot", "rules": build_rules("cardavia"), "seats": (RANDOM,) * 4, "seed": 11, "mode": "deals",
            "count": 2000}
    base.update(kw)
    return RunConfig(**base)


def _seat_cards(table, s):
    lo, hi = table.column(f"dealt_lo_{s}").to_numpy(), table.column(f"dealt_hi_{s}").to_numpy()
    return lo, hi


def _count(lo, hi, cards_lo, cards_hi):
    """Number of the given cards (as lo/hi masks) in each (lo, hi) hand."""
    x = np.bitwise_and(lo.view(np.uint64), np.uint64(cards_lo & (2**64 - 1)))
    y = np.bitwise_and(hi.view(np.uint64), np.uint64(cards_hi))
    return np.array([bin(a).count("1") + bin(b).count("1") for a, b in zip(x.tolist(), y.tolist())])


@pytest.mark.needs_jit("20,000 deals: 20 s as pure Python; the deal's code runs in every other test")
def test_oudlers_per_hand_follow_the_hypergeometric_law():
    """Seat 0's oudlers over 20,000 deals against C(3,k) C(75,18-k) / C(78,18): chi-square, 3 d.f."""
    n = 20_000
    t = run_to_tables(cfg(count=n, seed=5))["deals"]
    lo, hi = _seat_cards(t, 0)
    oud_lo, oud_hi = cards.mask_of([cards.PETIT, cards.MONDE, cards.EXCUSE])
    k = _count(lo, hi, oud_lo, oud_hi)
    observed = np.bincount(k, minlength=4)
    expected = n * np.array([comb(3, j) * comb(75, 18 - j) / comb(78, 18) for j in range(4)])
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < 21.1, (observed, expected.round(1), chi2)  # the chi-square(3) quantile at 1 - 1e-4


def test_every_deal_partitions_the_78_cards():
    t = run_to_tables(cfg(count=500))["deals"]
    full = (1 << 78) - 1
    for row in t.select([c for c in t.column_names if c.startswith(("dealt_", "chien_"))]).to_pylist():
        sets = [cards.cards_in(row[f"dealt_lo_{s}"], row[f"dealt_hi_{s}"]) for s in range(4)]
        sets.append(cards.cards_in(row["chien_lo"], row["chien_hi"]))
        assert [len(x) for x in sets] == [18, 18, 18, 18, 6]
        assert sum(1 << c for x in sets for c in x) == full


@pytest.mark.needs_jit("120,000 deals: over 2 min as pure Python; the Petit-sec check runs in the reference replays")
def test_petit_sec_rate_is_the_exact_probability():
    """A deal is void for Petit sec with probability 4 C(56,17) / C(78,18) (one hand holds the Petit, its
    17 other cards all plain), about 0.0021: 100,000 deals, within 4.4 standard errors (p < 1e-5)."""
    n = 100_000
    p = 4 * comb(56, 17) / comb(78, 18)
    void = run_to_tables(cfg(count=n, seed=9))["deals"].column("void").to_numpy()
    k = int((void == 2).sum())
    assert abs(k - n * p) < 4.4 * (n * p * (1 - p)) ** 0.5, (k, n * p)
    # with the flag off the same deals are played
    void_off = run_to_tables(cfg(count=20_000, seed=9, rules=build_rules("cardavia", ["petit_sec_redeal=false"])))[
        "deals"].column("void").to_numpy()
    assert not (void_off == 2).any() and (void[:20_000] == 2).any()


def test_same_data_for_any_threads_and_shard_size():
    c = cfg(count=3000, record_plays=True)
    ref = run_to_tables(c, threads=1)["deals"]
    for threads, shard in [(2, None), (2, 7), (1, 640)]:
        other = run_to_tables(cfg(count=3000, record_plays=True, shard_size=shard), threads=threads)["deals"]
        assert other.equals(ref), (threads, shard)


def test_deal_i_is_fixed_and_seeds_differ():
    a = run_to_tables(cfg(count=300))["deals"]
    b = run_to_tables(cfg(count=600))["deals"]
    assert b.slice(0, 300).equals(a)
    c = run_to_tables(cfg(count=300, seed=12))["deals"]
    assert not c.column("dealt_lo_0").equals(a.column("dealt_lo_0"))


def test_invariants_of_random_play():
    t = run_to_tables(cfg(count=3000, record_plays=True))["deals"].to_pydict()
    n = len(t["deal_id"])
    for i in range(n):
        scores = [t[f"score_{s}"][i] for s in range(4)]
        assert sum(scores) == 0
        if t["void"][i]:
            assert t["taker"][i] == -1 and scores == [0, 0, 0, 0] and t["plays"][i] == []
            continue
        taker = t["taker"][i]
        assert scores[taker] % 3 == 0 and all(scores[s] == -scores[taker] // 3 for s in range(4) if s != taker)
        plays = t["plays"][i]
        # every card is played once but the six set aside: the chien (Garde sans, contre) or the discard
        aside = ("chien", "chien") if t["contract"][i] >= 3 else ("discard", "discard")
        aside = set(cards.cards_in(t[f"{aside[0]}_lo"][i], t[f"{aside[1]}_hi"][i]))
        assert len(aside) == 6 and sorted(plays) == sorted(set(range(78)) - aside)
        assert len(plays) == 72 and len(set(plays)) == 72
        assert t["target"][i] == (56, 51, 41, 36)[t["oudlers"][i]]
        assert t["won"][i] == int(t["taker_points"][i] >= t["target"][i])


def test_a_strategy_that_breaks_the_rules_stops_the_run_cleanly(tmp_path):
    @njit(CHOOSE_SIG)
    def play(seat, suits, trumps, legal_s, legal_t, view, params, rng):  # leads its highest trump whatever is led
        return cards.FIRST_TRUMP + 20 - 1 if view[V_NPLAYED] > 0 else random_strategy.random_of(rng, legal_s, legal_t)

    base = random_strategy.STRATEGY
    cheat = SeatStrategy(Strategy(name="cheat", description="test", policies={**base.policies, "play": play},
                                  params=base.params, game="tarot"))
    c = cfg(seats=(cheat,) + (RANDOM,) * 3, count=2000, shard_size=250)
    with pytest.raises(RunError, match=r"strategy 'cheat' at seat 0 made an illegal card \d+ in deal \d+"):
        run(c, tmp_path / "run", threads=2, progress=False)
    assert not list((tmp_path / "run").rglob("*.tmp"))
    assert read_manifest(tmp_path / "run")["status"] == "running"


@pytest.mark.needs_jit("two 100,000-deal runs in subprocesses, timed against a kill: minutes as pure Python")
def test_resume_after_kill_9(tmp_path):
    """A real process killed once a few shards are on disk, then --resume: exactly the rows of a clean run."""
    args = ["--deals", "100000", "--shard-size", "5000", "--seed", "3", "--strategy", "random", "--quiet",
            "--threads", "1", "--record-plays"]
    out, full = kill_and_resume(tmp_path, "tarot", args, "deals", most=20, poll=0.005)
    assert not list(Path(out).rglob("*.tmp"))
    read = lambda d: pq.read_table(Path(d) / "deals").sort_by("deal_id")  # noqa: E731
    assert read(out).equals(read(full))
