"""Property tests (hypothesis) for every game family: random rule-flag combinations, strategy parameters
and seeds; every game ends, every play is legal and every score follows the rules, as the plain-Python
references replay them (tests/reference_spades.py, tests/reference_tarot.py).

Each example is a small engine run; the examples are drawn anew from a fixed database-free seed, so
the test is the same in every CI run (``derandomize``) and covers many combinations across the flags.
"""
import reference_spades as spades_ref
import reference_tarot as tarot_ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tricksim.simulator import engine
from tricksim.simulator.games.spades.rules import PRESETS as SPADES_PRESETS
from tricksim.simulator.games.spades.rules import SpadesRules
from tricksim.simulator.games.tarot.rules import PRESETS as TAROT_PRESETS
from tricksim.simulator.games.tarot.rules import TarotRules
from tricksim.simulator.rules import RulesError
from tricksim.strategies.registry import parse_spec

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def flag_values(rules_type):
    """A hypothesis strategy for a dict of every flag of ``rules_type``, each drawn from its allowed values
    (integers from a few typical values and the range's ends)."""
    return st.fixed_dictionaries(flag_strategies(rules_type))


def flag_strategies(rules_type) -> dict:
    """Flag name -> the hypothesis strategy its values are drawn from."""
    spec = rules_type.FLAGS
    fields = {}
    for name in rules_type.flag_names():
        if name in spec.choices:
            fields[name] = st.sampled_from(spec.choices[name])
        elif name in spec.int_ranges:
            lo, hi = spec.int_ranges[name]
            fields[name] = st.sampled_from(sorted({lo, hi, min(max(lo, 10), hi), min(max(lo, 100), hi),
                                                   min(max(lo, 1), hi), min(max(lo, 3), hi)}))
        elif name in spec.optional:
            lo, hi = spec.optional[name][:2]
            fields[name] = st.one_of(st.none(), st.sampled_from([hi, -200, -500]))
        else:
            fields[name] = st.booleans()
    return fields


def test_every_flag_is_drawn():
    """The random rule sets vary every flag, those added later (Spades ``breaking``) included."""
    for rules_type in (SpadesRules, TarotRules):
        assert list(flag_strategies(rules_type)) == rules_type.flag_names()
    assert "breaking" in flag_strategies(SpadesRules)


def built(rules_type, presets, values):
    try:
        return rules_type.from_dict({**next(iter(presets.values())).to_dict(), **values})
    except RulesError:
        assume(False)


SPADES_SEAT = st.one_of(
    st.builds(lambda n, b, p: f"random:nil_prob={n},blind_nil_prob={b},bid_p={p}",
              st.sampled_from([0, 0.1, 0.5]), st.sampled_from([0, 0.3, 1]), st.sampled_from([0.1, 0.25, 0.6])),
    st.just("simple"),
    st.sampled_from(["heuristic", "heuristic:bag_mode=avoid", "heuristic:bag_mode=set"]),
)


@SETTINGS
@given(values=flag_values(SpadesRules), seats=st.lists(SPADES_SEAT, min_size=4, max_size=4),
       seed=st.integers(0, 2**40), mode=st.sampled_from(["hands", "games"]))
def test_spades_random_rule_sets_follow_the_rules(values, seats, seed, mode):
    rules = built(SpadesRules, SPADES_PRESETS, values)
    count, hand_limit = (40, 1) if mode == "hands" else (4, 40)
    # the first rules.seats of the drawn strategies: four, or three in a three-player rule set (seats=3)
    cfg = engine.RunConfig(rules=rules, seats=tuple(parse_spec(s) for s in seats[:rules.seats]), seed=seed, mode=mode,
                           count=count, hand_limit=hand_limit, record_plays=True)
    tables = engine.run_to_tables(cfg)
    seen = spades_ref.replay(rules, seed, mode, hand_limit, tables["hands"], tables.get("games"), count=count)
    assert seen["hands"] == tables["hands"].num_rows > 0
    if mode == "games":  # every game ended: by the target or mercy rule, or at the hand limit
        assert set(tables["games"].column("end").to_pylist()) <= {"target", "mercy", "limit"}


TAROT_SEAT = st.one_of(
    st.builds(lambda p: f"random:chelem_prob={p}", st.sampled_from([0, 0.05, 0.5, 1])),
    st.sampled_from(["heuristic", "heuristic:prise_threshold=40,garde_threshold=50", "heuristic:chelem_losers=2",
                     "heuristic:defender_poignee=1,charge=0"]),
)


@SETTINGS
@given(values=flag_values(TarotRules), seats=st.lists(TAROT_SEAT, min_size=4, max_size=4),
       seed=st.integers(0, 2**40))
def test_tarot_random_rule_sets_follow_the_rules(values, seats, seed):
    rules = built(TarotRules, TAROT_PRESETS, values)
    cfg = engine.RunConfig(game="tarot", rules=rules, seats=tuple(parse_spec(s, game="tarot") for s in seats),
                           seed=seed, mode="deals", count=60, record_plays=True)
    table = engine.run_to_tables(cfg)["deals"]
    seen = tarot_ref.replay_table(table, rules.to_dict(), count=60, plays_required=True)
    assert sum(table.column(f"score_{s}").to_numpy() for s in range(4)).tolist() == [0] * 60
    assert seen  # the replay counted what it checked
