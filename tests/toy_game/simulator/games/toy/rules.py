"""The toy game's rules: one flag."""
from __future__ import annotations

from dataclasses import dataclass

from tricksim.simulator.rules import Flags, RuleSet
from tricksim.simulator.rules import build_rules as _build_rules


@dataclass(frozen=True, kw_only=True)
class ToyRules(RuleSet):
    bonus_last: bool = False


ToyRules.FLAGS = Flags(choices={}, int_ranges={}, help={"bonus_last": "the last trick scores one more"})

PRESETS = {"plain": ToyRules(), "bonus": ToyRules(bonus_last=True)}


def build_rules(preset: str = "plain", overrides=()) -> ToyRules:
    return _build_rules(PRESETS, preset, overrides)
