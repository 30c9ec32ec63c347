import numpy as np
import pytest

from tricksim.analysis.games.spades.outcomes import PerGame, penalties_fresh, team_outcomes


def rows(bids, tricks):
    """Columns for hands given per-hand lists of 4 bids and 4 tricks."""
    b, t = np.array(bids, np.int8), np.array(tricks, np.int8)
    a = {f"bid_{s}": b[:, s] for s in range(4)}
    a.update({f"tricks_{s}": t[:, s] for s in range(4)})
    return a


def test_worked_examples_rules_1_8():
    # RULES.md 1.8 (002): team seats 0+2 bid 4+3 = 7 and take 8 -> made, 1 bag;
    # team 1+3 bid 3+2 = 5 and take 5 -> made, no bag.
    a = rows([[4, 3, 3, 2]], [[5, 3, 3, 2]])
    o0, o1 = team_outcomes(a, 0), team_outcomes(a, 1)
    assert o0["contract"].tolist() == [7] and o0["made"].tolist() == [True] and o0["bags"].tolist() == [1]
    assert o1["contract"].tolist() == [5] and o1["bags"].tolist() == [0] and not o1["set"][0]
    # 004: bid 5, take 7 -> 2 bags
    a = rows([[5, 4, 0, 4]], [[7, 3, 0, 3]])
    assert team_outcomes(a, 0)["bags"].tolist() == [2]


def test_nil_tricks_and_flags():
    # seat 0 bids 4 and takes 3, partner (seat 2) bids Nil and takes 2: contract 4 failed (k=3),
    # the Nil bidder's 2 tricks are bags (nil_bags_when_set) and do not help the contract.
    a = rows([[4, 3, 0, 3]], [[3, 4, 2, 4]])
    o = team_outcomes(a, 0)
    assert o["contract"].tolist() == [4] and not o["made"][0] and o["set"][0] and o["bags"].tolist() == [2]
    assert team_outcomes(a, 0, {"nil_bags_when_set": False})["bags"].tolist() == [0]
    # nil_tricks=contract: the Nil bidder's tricks count toward the contract: 3+2 = 5 >= 4, 1 bag
    o = team_outcomes(a, 0, {"nil_tricks": "contract"})
    assert o["made"][0] and o["bags"].tolist() == [1]
    # both partners Nil: no contract (has_contract False, made True), their tricks are bags
    a = rows([[0, 5, 0, 5]], [[1, 6, 0, 6]])
    o = team_outcomes(a, 0)
    assert not o["has_contract"][0] and o["made"][0] and not o["set"][0] and o["bags"].tolist() == [1]
    assert o["nil_bids"].tolist() == [2]


def test_penalties_fresh():
    # carry: 12 bags taken from 0 -> one penalty, 2 left; reset: one penalty, 0 left
    assert penalties_fresh([12, 3, 0], [2, 3, 0]).tolist() == [1, 0, 0]
    assert penalties_fresh([12, 3, 0], [0, 3, 0], {"bag_overflow": "reset"}).tolist() == [1, 0, 0]


@pytest.mark.parametrize("overflow", ["carry", "reset"])
@pytest.mark.parametrize("base", [0, 1])
def test_per_game_penalties_match_fake_engine(overflow, base):
    from analysis_helpers import fake_games

    rules = {"bag_overflow": overflow}
    hands, games = fake_games(12, seed=7, rules=rules, target=150, hand_no_base=base)
    pg = PerGame(games["game_id"], games["hands"], rules)
    # feed the hands in shuffled chunks: the join does not rely on order
    order = np.random.default_rng(0).permutation(len(hands["game_id"]))
    for chunk in np.array_split(order, 5):
        pg.add({k: np.asarray(v)[chunk] for k, v in hands.items()})
    pg.min_hand_no = base
    for t in (0, 1):
        assert pg.bags[t].tolist() == list(games[f"_bags_{t}"])
        assert pg.penalties[t].tolist() == list(games[f"_pen_{t}"])
