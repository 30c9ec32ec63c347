"""Rule sets: the presets are RULES.md 1.7 to the letter; bad values fail in one line."""
import pytest

from tricksim.simulator.games.spades.rules import PRESETS, RulesError, SpadesRules, build_rules

# RULES.md 1.7, column by column
TABLE_1_7 = {
    "cardems": dict(nil=True, nil_value=100, blind_nil=False, nil_tricks="bags", bag_overflow="carry",
                    forced_spade_lead_breaks=False, breaking=True, first_lead="left_of_dealer", target=500,
                    mercy=None, min_team_bid=0, jokers=False),
    "zone": dict(nil=True, nil_value=100, blind_nil=False, blind_nil_value=200, blind_nil_exchange=0,
                 nil_tricks="bags", bag_overflow="reset", forced_spade_lead_breaks=False, breaking=True,
                 first_lead="left_of_dealer", target=500, mercy=None, min_team_bid=0, jokers=False),
    "classic": dict(nil=True, nil_value=100, blind_nil=True, blind_nil_value=200, blind_nil_exchange=3,
                    nil_tricks="bags", bag_overflow="carry", forced_spade_lead_breaks=True, breaking=True,
                    first_lead="left_of_dealer", target=500, mercy=None, min_team_bid=0, jokers=False),
}


@pytest.mark.parametrize("preset", sorted(TABLE_1_7))
def test_presets_match_rules_table(preset):
    rules = PRESETS[preset]
    for flag, value in TABLE_1_7[preset].items():
        assert getattr(rules, flag) == value, (preset, flag)
    # shared defaults of RULES.md 1.4
    assert (rules.bag_limit, rules.bag_penalty, rules.bag_points, rules.nil_trick_points) == (10, 100, 1, 1)


def test_every_flag_overridable_on_every_preset():
    for preset in PRESETS:
        if not PRESETS[preset].partnerships:
            continue  # cutthroat refuses the team flags (test_cutthroat.py)
        # whiz and mirror fix the bid by the cards (no team minimum, Mirror no Blind Nil): back to free bidding
        free = ["bid_rule=free"] if PRESETS[preset].bid_rule in ("whiz", "mirror") else []
        r = build_rules(preset, free + ["target=300", "mercy=-200", "min_team_bid=4", "jokers=true", "first_lead=two_of_clubs",
                                 "bag_overflow=reset", "blind_nil=true", "blind_nil_eligibility=trailing"])
        assert (r.target, r.mercy, r.min_team_bid, r.jokers, r.first_lead) == (300, -200, 4, True, "two_of_clubs")
        assert r.bag_overflow == "reset" and r.blind_nil and r.blind_nil_eligibility == "trailing"


def test_kernel_tuple_has_one_int_per_flag():
    k = build_rules("zone", ["bag_overflow=carry", "first_lead=two_of_clubs"]).to_kernel()
    assert all(isinstance(v, int) for v in k)
    assert k.bag_overflow == 0 and k.first_lead == 1 and k.target == 500


@pytest.mark.parametrize("overrides, message", [
    (["foo=1"], "unknown rule flag 'foo': allowed nil, "),
    (["target=abc"], "invalid value target='abc': allowed an integer from 1 to 100000"),
    (["target=0"], "invalid value target=0: allowed an integer from 1 to 100000"),
    (["bag_overflow=keep"], "invalid value bag_overflow='keep': allowed carry | reset"),
    (["nil=maybe"], "invalid value nil='maybe': allowed true | false"),
    (["breaking=sometimes"], "invalid value breaking='sometimes': allowed true | false"),
    (["mercy=100"], "invalid value mercy=100: allowed none or a negative integer"),
    (["nil=false", "blind_nil=true"], "invalid combination blind_nil=true with nil=false"),
    (["jokers=true", "joker_removes=2c2d", "first_lead=two_of_clubs"], "invalid combination first_lead=two_of_clubs"),
    (["target"], "bad rule override 'target': expected key=value"),
    (["bid_rule=cutthroat"], "invalid value bid_rule='cutthroat': allowed free | suicide | whiz | mirror"),
    (["zero_bid=none"], "invalid value zero_bid='none': allowed nil | zero"),
    (["big_bid_set=double"], "invalid value big_bid_set='double': allowed tens | value"),
    (["big_bid_threshold=14"], "invalid value big_bid_threshold=14: allowed an integer from 0 to 13"),
    (["big_bid_value=-5"], "invalid value big_bid_value=-5: allowed an integer from 0 to 10000"),
    (["zero_bid=zero", "blind_nil=true"], "invalid combination zero_bid=zero with blind_nil=true"),
    (["bid_rule=suicide", "zero_bid=zero"], "invalid combination bid_rule=suicide with zero_bid=zero"),
    (["bid_rule=whiz", "nil=false"], "invalid combination bid_rule=whiz with nil=false"),
    (["bid_rule=mirror", "min_team_bid=3"], "invalid combination bid_rule=mirror with min_team_bid=3"),
    (["bid_rule=mirror", "blind_nil=true"], "invalid combination bid_rule=mirror with blind_nil=true"),
])
def test_bad_rules_are_refused_with_one_line(overrides, message):
    with pytest.raises(RulesError) as e:
        build_rules("cardems", overrides)
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown preset 'bridge': allowed cardems | zone | classic"):
        build_rules("bridge")


def test_json_round_trip():
    r = build_rules("classic", ["mercy=-250"])
    assert SpadesRules.from_dict(r.to_dict()) == r


def test_breaking_flag_defaults_overrides_and_kernel_value():
    assert SpadesRules().breaking is True
    r = build_rules("cardems", ["breaking=false"])
    assert r.breaking is False and r == PRESETS["cardems"].replace(breaking=False)
    assert build_rules("classic", ["breaking=true", "first_lead=two_of_clubs"]).breaking is True
    assert r.to_kernel().breaking == 0 and PRESETS["zone"].to_kernel().breaking == 1
    assert SpadesRules.from_dict(r.to_dict()) == r


def test_rules_written_before_the_breaking_flag_read_as_breaking_true():
    old = PRESETS["classic"].to_dict()
    del old["breaking"]  # a manifest from before the flag
    assert SpadesRules.from_dict(old) == PRESETS["classic"] and SpadesRules.from_dict(old).breaking is True
