"""The Tarot run table: ``deals``, one row per dealt deal (void ones too); docs/output.md documents it."""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from tricksim.simulator.columns import column, dictionary_column
from tricksim.simulator.games.tarot import layout
from tricksim.simulator.rundir import Encoding, required_schema


def deals_schema(seats: int) -> pa.Schema:
    """The deals table's columns for ``seats`` players: the per-seat ones (``dealt_lo_s`` .. ``strategy_s``)
    for s in 0..seats-1."""
    per_seat = range(seats)
    return required_schema(
        [("deal_id", pa.int64()), ("dealer", pa.int8())]
        + [(f"dealt_{w}_{s}", pa.int64()) for s in per_seat for w in ("lo", "hi")]
        + [("chien_lo", pa.int64()), ("chien_hi", pa.int64()), ("void", pa.int8())]
        + [(f"bid_{s}", pa.int8()) for s in per_seat]
        + [("taker", pa.int8()), ("contract", pa.int8()), ("discard_lo", pa.int64()), ("discard_hi", pa.int64())]
        + [(f"poignee_{w}_{s}", pa.int64()) for s in per_seat for w in ("lo", "hi")]
        + [("chelem", pa.int8()), ("first_leader", pa.int8()), ("taker_points", pa.float32()),
           ("oudlers", pa.int8()), ("target", pa.int8()), ("won", pa.int8()), ("petit_au_bout", pa.int8()),
           ("poignee", pa.int16()), ("slam", pa.int8())]
        + ([("called", pa.int8()), ("partner", pa.int8()), ("partner_revealed", pa.int8())] if seats == 5 else [])
        + [(f"score_{s}", pa.int32()) for s in per_seat]
        + [(f"strategy_{s}", pa.dictionary(pa.int8(), pa.string())) for s in per_seat]
    )


DEALS_SCHEMA = deals_schema(4)  # four players
PLAYS_FIELD = pa.field("plays", pa.list_(pa.field("item", pa.int8(), nullable=False)), nullable=False)

ENCODING = Encoding(
    compressed=("plays",),
    # not "taker": a prefix of the float column taker_points, which DELTA_BINARY_PACKED cannot hold
    delta=("deal_id", "dealer", "bid_", "contract", "first_leader", "score_", "target"),
    no_dictionary=("dealt_", "chien_", "discard_", "poignee_lo", "poignee_hi", "plays"),
    statistics=("deal_id",),
)


def deals_table(seat_specs, deal_ids: np.ndarray, words: np.ndarray, codes: np.ndarray, ints: np.ndarray,
                plays: np.ndarray | None) -> pa.Table:
    """The deals table from the kernel's blocks (``layout.W_*``, ``S_*``, ``I_*`` name their rows)."""
    n = deal_ids.shape[0]
    seats = len(seat_specs)
    per_seat = range(seats)
    arrays = [column(deal_ids), column(codes[:, layout.S_DEALER])]
    arrays += [column(words[:, layout.W_DEALT + i]) for i in range(2 * seats)]
    arrays += [column(words[:, layout.W_CHIEN]), column(words[:, layout.W_CHIEN + 1]), column(codes[:, layout.S_VOID])]
    arrays += [column(codes[:, layout.S_BID + s]) for s in per_seat]
    arrays += [column(codes[:, layout.S_TAKER]), column(codes[:, layout.S_CONTRACT]),
               column(words[:, layout.W_DISCARD]), column(words[:, layout.W_DISCARD + 1])]
    arrays += [column(words[:, layout.W_POIGNEE + i]) for i in range(2 * seats)]
    arrays += [column(codes[:, layout.S_CHELEM]), column(codes[:, layout.S_FIRST_LEADER]),
               column((ints[:, layout.I_TAKER_POINTS] / 2).astype(np.float32)), column(codes[:, layout.S_OUDLERS]),
               column(ints[:, layout.I_TARGET].astype(np.int8)), column(codes[:, layout.S_WON]),
               column(codes[:, layout.S_PETIT_AU_BOUT]),
               column(ints[:, layout.I_POIGNEE].astype(np.int16)), column(codes[:, layout.S_SLAM])]
    if seats == 5:  # the call: the called card, its holder (the partner; -1 alone), the trick it was played in
        arrays += [column(codes[:, layout.S_CALLED]), column(codes[:, layout.S_PARTNER]),
                   column(codes[:, layout.S_REVEALED])]
    arrays += [column(ints[:, layout.I_SCORE + s]) for s in per_seat]
    no_codes = np.zeros(n, np.int8)  # one strategy a column: every row has code 0
    arrays += [dictionary_column(no_codes, [spec]) for spec in seat_specs]
    schema = DEALS_SCHEMA if seats == 4 else deals_schema(seats)
    if plays is not None:
        played = codes[:, layout.S_VOID] == 0
        offsets = np.zeros(n + 1, np.int32)
        n_plays = layout.n_plays(seats)
        np.cumsum(np.where(played, n_plays, 0), out=offsets[1:])
        values = np.ascontiguousarray(plays[played][:, :n_plays]).reshape(-1)
        arrays.append(pa.ListArray.from_arrays(column(offsets), column(values)))
        schema = schema.append(PLAYS_FIELD)
    return pa.Table.from_arrays(arrays, schema=schema)
