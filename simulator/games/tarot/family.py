"""French Tarot for four as a game family of the shared engine (see ``tricksim.simulator.family``)."""
from tricksim.simulator.family import Family
from tricksim.simulator.games.tarot import batch
from tricksim.simulator.games.tarot.policy import SLOTS
from tricksim.simulator.games.tarot.rules import PRESETS, TarotRules, build_rules
from tricksim.simulator.games.tarot.tables import ENCODING

FAMILY = Family(
    name="tarot",
    seats=4,
    modes=("deals",),
    policy_slots=SLOTS,
    rules_type=TarotRules,
    presets=PRESETS,
    build_rules=build_rules,
    tables=lambda mode: ("deals",),
    encoding=ENCODING,
    default_shard={"deals": 1 << 17},
    compute=batch.compute,
    default_preset="cardavia",
    default_strategies=("heuristic", "random"),
    memory_bytes={"deals": 1200},  # blocks, Arrow tables and the Parquet encoder
    disk_bytes={"deals": (173, 146)},
    describe="French Tarot for four, the taker against three defenders (RULES.md Part 2)",
)
