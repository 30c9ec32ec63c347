"""Spades as a game family of the shared engine (see ``tricksim.simulator.family``)."""
from tricksim.simulator.family import Family, LazyFunction
from tricksim.simulator.games.spades.rules import PRESETS, SpadesRules, build_rules
from tricksim.simulator.games.spades.tables import ENCODING

FAMILY = Family(
    name="spades",
    seats=4,
    modes=("hands", "games"),
    mode_help={"hands": "independent hands (fresh scores each)", "games": "whole games to the target"},
    policy_slots=("blind_nil", "bid", "exchange", "play"),
    rules_type=SpadesRules,
    presets=PRESETS,
    build_rules=build_rules,
    tables={"hands": ("hands",), "games": ("games", "hands")},
    unit_table="hands",
    encoding=ENCODING,
    default_shard={"hands": 1 << 18, "games": 1 << 13},
    compute=LazyFunction("tricksim.simulator.games.spades.batch:compute"),
    default_preset="cardems",
    default_strategies=("heuristic", "simple"),
    partnerships=True,
    default=True,
    memory_bytes={"hands": 600, "games": 20000},  # blocks, Arrow tables and the Parquet encoder
    disk_bytes={"hands": (75, 212), "games": (650, 1800)},  # a game: about 8.5 hands of the default players
)
