"""French Tarot (for three, four or five) as a game family of the shared engine (see ``tricksim.simulator.family``)."""
from tricksim.simulator.family import Family, LazyFunction
from tricksim.simulator.games.tarot.rules import PRESETS, TarotRules, build_rules
from tricksim.simulator.games.tarot.session import ENCODING

FAMILY = Family(
    name="tarot",
    seats=5,  # the most: a rules record has its own (TarotRules.seats: 3, 4 or 5)
    modes=("deals", "games"),
    mode_help={"deals": "deals (void deals count)",
               "games": "whole games: deals_per_game deals, or to game_target (rules)"},
    policy_slots=("bid", "discard", "chelem", "poignee", "play", "call"),  # signatures in policy.py
    rules_type=TarotRules,
    presets=PRESETS,
    build_rules=build_rules,
    tables={"deals": ("deals",), "games": ("games", "deals")},
    unit_table="deals",
    encoding=ENCODING,
    default_shard={"deals": 1 << 17, "games": 1 << 13},  # a game: 16 deals by default (session.py)
    compute=LazyFunction("tricksim.simulator.games.tarot.session:compute"),
    default_preset="cardavia",
    default_strategies=("heuristic", "random"),
    memory_bytes={"deals": 1200, "games": 40000},  # blocks, Arrow tables and the Parquet encoder
    disk_bytes={"deals": (173, 146), "games": (3000, 2400)},  # a game: 16 deals
)
