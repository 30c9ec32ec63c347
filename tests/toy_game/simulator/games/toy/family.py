"""The toy game as a family of the shared engine."""
from tricksim.simulator.family import Family, LazyFunction
from tricksim.simulator.rundir import Encoding

from .rules import PRESETS, ToyRules, build_rules

FAMILY = Family(
    name="toy",
    seats=3,
    modes=("rounds",),
    mode_help={"rounds": "rounds of three tricks"},
    policy_slots=("play",),
    rules_type=ToyRules,
    presets=PRESETS,
    build_rules=build_rules,
    tables={"rounds": ("rounds",)},
    unit_table="rounds",
    encoding=Encoding(),
    default_shard={"rounds": 1000},
    compute=LazyFunction(f"{__package__}.play:compute"),
    default_preset="plain",
    default_strategies=("low",),
)
