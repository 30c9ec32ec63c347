"""The Spades run tables: Parquet schemas, how they are written, and the builders from kernel columns.

``hands``: one row per hand; ``games`` (games mode): one row per game.
docs/output.md documents every column.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from tricksim.simulator.columns import column, dictionary_column
from tricksim.simulator.rundir import Encoding, required_schema

HANDS_SCHEMA = required_schema(
    [("game_id", pa.int64()), ("hand_no", pa.int16()), ("dealer", pa.int8()), ("first_leader", pa.int8())]
    + [(f"dealt_{s}", pa.int64()) for s in range(4)]
    + [(f"held_{s}", pa.int64()) for s in range(4)]
    + [(f"bid_{s}", pa.int8()) for s in range(4)]
    + [(f"blind_{s}", pa.bool_()) for s in range(4)]
    + [(f"tricks_{s}", pa.int8()) for s in range(4)]
    + [("score_0", pa.int32()), ("score_1", pa.int32()), ("bags_0", pa.int16()), ("bags_1", pa.int16()),
       ("total_0", pa.int32()), ("total_1", pa.int32())]
    + [(f"strategy_{s}", pa.dictionary(pa.int8(), pa.string())) for s in range(4)]
)
PLAYS_FIELD = pa.field("plays", pa.list_(pa.field("item", pa.int8(), nullable=False), 52), nullable=False)
GAMES_SCHEMA = required_schema([
    ("game_id", pa.int64()), ("hands", pa.int32()), ("total_0", pa.int32()), ("total_1", pa.int32()),
    ("winner", pa.int8()), ("end", pa.dictionary(pa.int8(), pa.string())),
])

# Chosen by measurement (docs/performance.md P9): no compression but for the plays (the random
# 64-bit masks do not compress), small integers delta-encoded, the Blind Nil flags run-length
# encoded, the masks plain; statistics only where readers filter.
ENCODING = Encoding(
    compressed=("plays",),
    delta=("game_id", "hand_no", "dealer", "first_leader", "bid_", "tricks_", "score_", "bags_", "total_", "hands",
           "winner"),
    run_length=("blind_",),
    no_dictionary=("dealt_", "held_", "plays"),
    statistics=("game_id", "hand_no"),
)


def hands_table(seat_specs, hands, plays: np.ndarray | None) -> pa.Table:
    """The hands table from the kernel's hand columns (``kernel.HandColumns``); ``plays`` when recorded."""
    n = hands.game_id.shape[0]
    arrays = [column(hands.game_id), column(hands.hand_no.astype(np.int16)), column(hands.dealer.astype(np.int8)),
              column(hands.first_leader.astype(np.int8))]
    arrays += [column(hands.dealt[s]) for s in range(4)]
    arrays += [column(hands.held[s]) for s in range(4)]
    arrays += [column(hands.bid[s]) for s in range(4)]
    arrays += [column(hands.blind[s].astype(bool)) for s in range(4)]
    arrays += [column(hands.tricks[s]) for s in range(4)]
    arrays += [column(hands.score[0]), column(hands.score[1]), column(hands.bags[0].astype(np.int16)),
               column(hands.bags[1].astype(np.int16)), column(hands.total[0]), column(hands.total[1])]
    no_codes = np.zeros(n, np.int8)  # one strategy a column: every row has code 0
    arrays += [dictionary_column(no_codes, [spec]) for spec in seat_specs]
    schema = HANDS_SCHEMA
    if plays is not None:
        arrays.append(pa.FixedSizeListArray.from_arrays(column(plays.reshape(-1)), 52))
        schema = schema.append(PLAYS_FIELD)
    return pa.Table.from_arrays(arrays, schema=schema)


def games_table(first: int, games, end_names) -> pa.Table:
    """The games table of consecutive games from ``first`` (``kernel.GameColumns``)."""
    n = games.hands.shape[0]
    return pa.Table.from_arrays(
        [column(np.arange(first, first + n, dtype=np.int64)), column(games.hands.astype(np.int32)),
         column(games.total[0].astype(np.int32)), column(games.total[1].astype(np.int32)),
         column(games.winner.astype(np.int8)), dictionary_column(games.end - 1, end_names[1:])],
        schema=GAMES_SCHEMA)
