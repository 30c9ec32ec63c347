"""The registry's spec strings and parameters (strategies/registry.py): a parameter given twice is refused, not
last-wins; an on/off parameter takes on or off, nothing between."""
import pytest

from tricksim.strategies.registry import StrategyError, available, parse_spec, spec_form


@pytest.mark.parametrize("spec", ["heuristic:bag_mode=take,bag_mode=avoid", "heuristic:nil=1, nil=1",
                                  "cautious=heuristic:nil_threshold=2,bag_mode=avoid,nil_threshold=3"])
def test_a_parameter_given_twice_is_refused(spec):
    name = spec.split(":")[1].split("=")[0] if "cautious" not in spec else "nil_threshold"
    with pytest.raises(StrategyError, match=f"parameter '{name}' is given twice in .*: give each parameter once"):
        spec_form(spec)
    with pytest.raises(StrategyError, match="given twice"):
        parse_spec(spec, "spades")


def test_different_parameters_are_all_kept():
    seat = parse_spec("heuristic:bag_mode=avoid,nil_threshold=3", "spades")
    assert seat.values == {"bag_mode": 1.0, "nil_threshold": 3.0}


@pytest.mark.parametrize("text", ["0.5", "2", "-1", "maybe"])
def test_an_on_off_parameter_refuses_anything_between(text):
    with pytest.raises(StrategyError, match=f"invalid value nil='{text}': allowed 1 or 0"):
        parse_spec(f"heuristic:nil={text}", "spades")


@pytest.mark.parametrize("text, value", [("1", 1.0), ("0", 0.0), ("true", 1.0), ("off", 0.0), ("Yes", 1.0)])
def test_an_on_off_parameter_takes_on_and_off(text, value):
    assert parse_spec(f"simple:force_nil={text}", "spades").values == {"force_nil": value}


def test_a_probability_still_takes_values_between_0_and_1():
    assert parse_spec("random:nil_prob=0.5", "spades").values == {"nil_prob": 0.5}


def test_every_parameter_documented_as_on_off_is_a_switch():
    """A parameter whose help says '1 = on' or '1 = yes' is read as a switch (and no other is)."""
    for game in ("spades", "tarot"):
        for strategy in available(game).values():
            for p in strategy.params:
                documented = "(1 = on" in p.help or "(1 = yes" in p.help or p.name == "force_nil"
                assert p.switch == documented, (strategy.name, p.name)
