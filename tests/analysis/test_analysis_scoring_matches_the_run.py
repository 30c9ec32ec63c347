"""The analysis scores recorded hands with the kernel's own function: checked against a real run's scores."""
import numpy as np

from tricksim.analysis.games.spades.outcomes import kernel_rules, team_outcomes
from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.scoring import team_hand
from tricksim.strategies.registry import parse_spec


def test_recorded_scores_are_recomputed_exactly_from_bids_and_tricks():
    rules = build_rules("classic", ["bag_overflow=reset", "nil_bags_when_set=false"])
    seats = (parse_spec("random:nil_prob=0.3,blind_nil_prob=0.3"), parse_spec("heuristic")) * 2
    hands = run_to_tables(RunConfig(rules=rules, seats=seats, seed=9, mode="games", count=40))["hands"]
    a = {c: hands[c].to_numpy().astype(np.int64) for c in hands.column_names if not c.startswith("strategy")}
    first = a["hand_no"] == 0
    for team in (0, 1):
        # the bags before each hand: 0 at a game's start, else the previous row's bags after
        before = np.where(first, 0, np.roll(a[f"bags_{team}"], 1))
        points, bags, contract, made, taken = team_hand(
            kernel_rules(rules.to_dict()), a[f"bid_{team}"], a[f"bid_{team + 2}"], a[f"blind_{team}"],
            a[f"blind_{team + 2}"], a[f"tricks_{team}"], a[f"tricks_{team + 2}"], before)
        assert np.array_equal(points, a[f"score_{team}"]) and np.array_equal(bags, a[f"bags_{team}"])
        out = team_outcomes(a, team, rules.to_dict())
        assert np.array_equal(out["made"], made.astype(bool)) and np.array_equal(out["bags"], taken)
    assert a["blind_0"].any() and (a["bid_0"] == 0).any()  # Nil and Blind Nil hands were scored too
