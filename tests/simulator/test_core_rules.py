"""The shared rules validator (``tricksim.simulator.rules``) on a rule set of its own, as a new family would use it."""
from dataclasses import dataclass

import pytest

from tricksim.simulator.rules import Flags, RulesError, RuleSet, build_rules


@dataclass(frozen=True, kw_only=True)
class ToyRules(RuleSet):
    contract: str = "garde"
    target: int = 56
    cap: int | None = None
    redeal: bool = True

    FLAGS = Flags(choices={"contract": ("prise", "garde")}, int_ranges={"target": (0, 91)},
                  help={"contract": "", "target": "", "cap": "", "redeal": ""},
                  optional={"cap": (1, 10, -1, "none or an integer from 1 to 10")})

    def check(self):
        if self.cap is not None and self.cap > self.target:
            raise RulesError(f"invalid combination cap={self.cap} with target={self.target}: cap must not exceed target")


PRESETS = {"plain": ToyRules(), "short": ToyRules(target=36, redeal=False)}


@pytest.mark.parametrize("override, message", [
    ("contract=chelem", "invalid value contract='chelem': allowed prise | garde"),
    ("target=92", "invalid value target=92: allowed an integer from 0 to 91"),
    ("target=x", "invalid value target='x': allowed an integer from 0 to 91"),
    ("cap=11", "invalid value cap=11: allowed none or an integer from 1 to 10"),
    ("redeal=maybe", "invalid value redeal='maybe': allowed true | false"),
    ("colour=red", "unknown rule flag 'colour': allowed contract, target, cap, redeal"),
    ("target", "bad rule override 'target': expected key=value, with key one of contract, target, cap, redeal"),
])
def test_one_line_errors_name_the_flag_and_the_allowed_values(override, message):
    with pytest.raises(RulesError) as e:
        build_rules(PRESETS, "plain", [override])
    assert str(e.value) == message


def test_presets_overrides_combinations_and_the_kernel_values():
    r = build_rules(PRESETS, "short", ["contract=prise", "cap=none", "redeal=on"])
    assert r == ToyRules(contract="prise", target=36, cap=None, redeal=True)
    assert r.kernel_values() == {"contract": 0, "target": 36, "cap": -1, "redeal": 1}
    assert ToyRules.from_dict(r.to_dict()) == r
    with pytest.raises(RulesError, match="invalid combination cap=10 with target=5"):
        build_rules(PRESETS, "plain", ["target=5", "cap=10"])
    with pytest.raises(RulesError, match="unknown preset 'long': allowed plain | short"):
        build_rules(PRESETS, "long")
