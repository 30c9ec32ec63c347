"""The Spades run tables: Parquet schemas, how they are written, and the builders from kernel columns.

``hands``: one row per hand; ``games`` (games mode): one row per game.
docs/output.md documents every column.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from tricksim.simulator.columns import column, dictionary_column
from tricksim.simulator.rundir import Encoding, required_schema


def _hands_schema(sides: int, seats: int = 4):
    """The hands table's schema: the columns of each of ``seats`` players, and score, bags and total columns
    for each of ``sides`` (2 teams, or each player alone); with two players the draw record ``drawn``."""
    return required_schema(
        [("game_id", pa.int64()), ("hand_no", pa.int16()), ("dealer", pa.int8()), ("first_leader", pa.int8())]
        + ([("drawn", pa.int32())] if seats == 2 else [])
        + [(f"dealt_{s}", pa.int64()) for s in range(seats)]
        + [(f"held_{s}", pa.int64()) for s in range(seats)]
        + [(f"bid_{s}", pa.int8()) for s in range(seats)]
        + [(f"blind_{s}", pa.bool_()) for s in range(seats)]
        + [(f"tricks_{s}", pa.int8()) for s in range(seats)]
        + [(f"score_{k}", pa.int32()) for k in range(sides)] + [(f"bags_{k}", pa.int16()) for k in range(sides)]
        + [(f"total_{k}", pa.int32()) for k in range(sides)]
        + [(f"strategy_{s}", pa.dictionary(pa.int8(), pa.string())) for s in range(seats)]
    )


def _games_schema(sides: int):
    return required_schema(
        [("game_id", pa.int64()), ("hands", pa.int32())] + [(f"total_{k}", pa.int32()) for k in range(sides)]
        + [("winner", pa.int8()), ("end", pa.dictionary(pa.int8(), pa.string()))])


# score_k, bags_k, total_k and the games' total_k: k is a team (0: seats 0+2, 1: seats 1+3), or in cutthroat
# (rules partnerships=false) a seat; winner likewise. Three players (cutthroat3): every per-seat column for
# seats 0..2, and plays of 51 cards.
HANDS_SCHEMA, CUTTHROAT_HANDS_SCHEMA = _hands_schema(2), _hands_schema(4)
GAMES_SCHEMA, CUTTHROAT_GAMES_SCHEMA = _games_schema(2), _games_schema(4)
THREE_HANDS_SCHEMA, THREE_GAMES_SCHEMA = _hands_schema(3, 3), _games_schema(3)
# Two players (twohanded): seats 0, 1 each alone (the games table is the partnerships' one: total_0, total_1), and
# ``drawn``: bit i set when the drawer of turn i (the non-dealer at even turns) kept the top card shown; with the
# stock (the deal stream's shuffle) it gives both hands and both players' discards (docs/output.md).
TWO_HANDS_SCHEMA = _hands_schema(2, 2)
HANDS_SCHEMAS = {2: HANDS_SCHEMA, 3: THREE_HANDS_SCHEMA, 4: CUTTHROAT_HANDS_SCHEMA}  # by sides (four seats, or three)
GAMES_SCHEMAS = {2: GAMES_SCHEMA, 3: THREE_GAMES_SCHEMA, 4: CUTTHROAT_GAMES_SCHEMA}


def plays_field(cards: int = 52) -> pa.Field:
    """The plays column: every card of the hand in play order (52, or 51 with three players)."""
    return pa.field("plays", pa.list_(pa.field("item", pa.int8(), nullable=False), cards), nullable=False)


PLAYS_FIELD = plays_field()

# Chosen by measurement (docs/performance.md P9): no compression but for the plays (the random
# 64-bit masks do not compress), small integers delta-encoded, the Blind Nil flags run-length
# encoded, the masks plain; statistics only where readers filter.
ENCODING = Encoding(
    compressed=("plays",),
    delta=("game_id", "hand_no", "dealer", "first_leader", "bid_", "tricks_", "score_", "bags_", "total_", "hands",
           "winner"),
    run_length=("blind_",),
    no_dictionary=("dealt_", "held_", "plays", "drawn"),
    statistics=("game_id", "hand_no"),
)


def hands_table(seat_specs, hands, plays: np.ndarray | None) -> pa.Table:
    """The hands table from the kernel's hand columns (``kernel.HandColumns``); ``plays`` when recorded."""
    n = hands.game_id.shape[0]
    arrays = [column(hands.game_id), column(hands.hand_no.astype(np.int16)), column(hands.dealer.astype(np.int8)),
              column(hands.first_leader.astype(np.int8))]
    seats = hands.dealt.shape[0]
    if seats == 2:
        arrays.append(column(hands.drawn.astype(np.int32)))
    arrays += [column(hands.dealt[s]) for s in range(seats)]
    arrays += [column(hands.held[s]) for s in range(seats)]
    arrays += [column(hands.bid[s]) for s in range(seats)]
    arrays += [column(hands.blind[s].astype(bool)) for s in range(seats)]
    arrays += [column(hands.tricks[s]) for s in range(seats)]
    sides = hands.score.shape[0]
    arrays += [column(x) for x in hands.score] + [column(x.astype(np.int16)) for x in hands.bags]
    arrays += [column(x) for x in hands.total]
    no_codes = np.zeros(n, np.int8)  # one strategy a column: every row has code 0
    arrays += [dictionary_column(no_codes, [spec]) for spec in seat_specs]
    schema = TWO_HANDS_SCHEMA if seats == 2 else HANDS_SCHEMAS[sides]
    if plays is not None:
        arrays.append(pa.FixedSizeListArray.from_arrays(column(plays.reshape(-1)), plays.shape[1]))
        schema = schema.append(plays_field(plays.shape[1]))
    return pa.Table.from_arrays(arrays, schema=schema)


def games_table(first: int, games, end_names) -> pa.Table:
    """The games table of consecutive games from ``first`` (``kernel.GameColumns``)."""
    n, sides = games.hands.shape[0], games.total.shape[0]
    return pa.Table.from_arrays(
        [column(np.arange(first, first + n, dtype=np.int64)), column(games.hands.astype(np.int32))]
        + [column(x.astype(np.int32)) for x in games.total]
        + [column(games.winner.astype(np.int8)), dictionary_column(games.end - 1, end_names[1:])],
        schema=GAMES_SCHEMAS[sides])
