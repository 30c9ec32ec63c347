"""Tarot games mode: whole games (sessions) of deals with running totals, the deal passing to the right.

A Tarot deal depends on nothing before it: no player sees the running totals, so a game is a sequence of
ordinary deals (the per-deal kernel's, unchanged: ``batch.compute``) folded into running totals here, in
NumPy. Deal ``j`` (from 0) of game ``g`` is the deal whose id is ``g * stride + j`` with
``stride = 2**17 * seats + 1`` (``deal_stride``): its cards and its players' streams are those of that deal
id (so a deals run's machinery replays it), and since ``stride % seats == 1`` its dealer,
``deal_id % seats``, is ``(g + j) % seats``: game g's first dealer is seat ``g % seats`` and the deal passes
to the next seat, the one to the dealer's right (docs/rules.md, "Tarot games").

How long a game lasts is the rules' (``TarotRules`` session flags): ``deals_per_game`` deals, or until a
player's total reaches ``game_target`` or falls to ``game_floor``; at most ``hand_limit`` deals in any case.
Where the length is not known in advance the deals are played a chunk at a time for the games still going
and the deals after a game's end are dropped: the data do not depend on the chunks (each deal is a pure
function of its id), only the time does.

``compute(cfg, unit_ids, workers)`` is the family's: deals mode goes to ``batch.compute``; games mode returns
the ``games`` table and the ``deals`` table (the deals mode's columns with ``game_id``, ``deal_no`` in front
and each seat's running total ``total_s`` after the scores). docs/output.md documents both.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from tricksim.simulator.columns import column, dictionary_column
from tricksim.simulator.games.tarot.tables import ENCODING as DEALS_ENCODING
from tricksim.simulator.rundir import Encoding, required_schema

# numba-free at import (the family record imports ENCODING): the kernel's driver, ``batch``, is imported by
# ``compute`` when it runs

STRIDE_BITS = 17  # 2**17 > the most deals a game may have (hand_limit <= 100,000)
END_RUNNING, END_DEALS, END_TARGET, END_FLOOR, END_LIMIT = 0, 1, 2, 3, 4
END_NAMES = ("deals", "target", "floor", "limit")  # the games table's ``end``: codes 1..4
CHUNK = 8  # deals played at once for each game still going, where a game's length is not known in advance

ENCODING = Encoding(
    compressed=DEALS_ENCODING.compressed,
    delta=DEALS_ENCODING.delta + ("game_id", "deal_no", "total_", "deals", "winner", "margin"),
    run_length=DEALS_ENCODING.run_length,
    no_dictionary=DEALS_ENCODING.no_dictionary,
    statistics=DEALS_ENCODING.statistics + ("game_id",),
)


def deal_stride(seats: int) -> int:
    """Deal ids a game spans: ``2**17 * seats + 1``, one more than a multiple of ``seats`` (so that the dealer,
    ``deal_id % seats``, moves one seat a deal from game to game as within a game)."""
    return (1 << STRIDE_BITS) * seats + 1


def deal_ids(seats: int, game_id, deal_no):
    """The deal id of deal ``deal_no`` of game ``game_id``: ``game_id * deal_stride(seats) + deal_no``."""
    return np.asarray(game_id, np.int64) * deal_stride(seats) + np.asarray(deal_no, np.int64)


def games_schema(seats: int) -> pa.Schema:
    return required_schema(
        [("game_id", pa.int64()), ("deals", pa.int32())] + [(f"total_{s}", pa.int32()) for s in range(seats)]
        + [("winner", pa.int8()), ("winners", pa.int16()), ("margin", pa.int32()),
           ("end", pa.dictionary(pa.int8(), pa.string()))])


def compute(cfg, unit_ids: np.ndarray, workers: int = 1) -> dict:
    """The run's tables for ``unit_ids``: deals (deals mode) or games, in that order, on ``workers`` threads."""
    from tricksim.simulator.games.tarot import batch

    if cfg.mode != "games":
        return batch.compute(cfg, unit_ids, workers)
    game_ids = np.ascontiguousarray(unit_ids, np.int64)
    if game_ids.size and not np.array_equal(game_ids, np.arange(game_ids[0], game_ids[0] + game_ids.size)):
        raise ValueError("a games table needs consecutive game ids")
    return play_games(cfg, game_ids, workers)


def stop_points(rules, hand_limit: int, played, counted, totals, scores, counts, valid):
    """Where each game still going stops within a chunk of its next deals, from the scores alone.

    ``played``, ``counted`` (the deals so far, and those of them that count: void deals count unless
    ``void_deals_count`` is false), ``totals`` (seat totals so far, [games, seats]); ``scores`` [games, chunk,
    seats], ``counts`` [games, chunk] (the deal counts as one of the game's), ``valid`` [games, chunk] (a deal
    played: within the hand limit). Returns (stop, end, running): the index in the chunk of the game's last
    deal (chunk - 1 when it goes on), its end code (END_RUNNING when it goes on) and the running totals after
    each deal of the chunk. Plain NumPy, for the kernel and the tests alike."""
    g, c = counts.shape
    running = totals[:, None, :] + np.cumsum(scores, axis=1)
    number = played[:, None] + 1 + np.arange(c)[None, :]           # the deal's number in the game, from 1
    counted_after = counted[:, None] + np.cumsum(counts, axis=1)
    end = np.zeros((g, c), np.int8)
    end[valid & (number >= hand_limit)] = END_LIMIT                 # the real ends below take precedence
    if rules.game_target is None and rules.game_floor is None:
        end[valid & counts & (counted_after >= rules.game_deals())] = END_DEALS
    else:
        if rules.game_floor is not None:
            end[valid & (running <= rules.game_floor).any(axis=2)] = END_FLOOR
        if rules.game_target is not None:
            end[valid & (running >= rules.game_target).any(axis=2)] = END_TARGET
    ended = end != END_RUNNING
    stop = np.where(ended.any(axis=1), ended.argmax(axis=1), c - 1)
    return stop, end[np.arange(g), stop], running


def play_games(cfg, game_ids: np.ndarray, workers: int = 1) -> dict:
    """The games and deals tables of the consecutive games ``game_ids``."""
    from tricksim.simulator.games.tarot import batch

    rules, seats, limit = cfg.rules, cfg.rules.seats, cfg.hand_limit
    n_games = game_ids.size
    fixed = rules.game_target is None and rules.game_floor is None
    played = np.zeros(n_games, np.int64)
    counted = np.zeros(n_games, np.int64)
    totals = np.zeros((n_games, seats), np.int64)
    ends = np.zeros(n_games, np.int8)
    parts, keys, running_parts = [], [], []
    going = np.arange(n_games)
    while going.size:
        if fixed:  # every deal counted: one chunk holds the game; else what is left, and a few for void deals
            need = rules.game_deals() - counted[going].min()
            chunk = need if rules.void_deals_count else need + max(1, need // 8)
        else:
            chunk = CHUNK
        chunk = int(max(1, min(chunk, limit - played[going].min())))
        deal_no = played[going, None] + np.arange(chunk)[None, :]                    # [games, chunk]
        valid = deal_no < limit
        ids = deal_ids(seats, game_ids[going, None], deal_no)[valid]
        table = batch.compute(cfg, ids, workers)["deals"]
        scores = np.zeros((going.size, chunk, seats), np.int64)
        for s in range(seats):
            scores[:, :, s][valid] = table.column(f"score_{s}").to_numpy()
        void = np.zeros((going.size, chunk), np.int64)
        void[valid] = table.column("void").to_numpy()
        counts = valid & ((void == 0) | rules.void_deals_count)
        stop, end, running = stop_points(rules, limit, played[going], counted[going], totals[going], scores, counts,
                                         valid)
        keep = valid & (np.arange(chunk)[None, :] <= stop[:, None])
        row_of = np.full((going.size, chunk), -1, np.int64)
        row_of[valid] = np.arange(ids.size)
        parts.append(table if keep.all() else table.take(pa.array(row_of[keep])))  # all kept: in order
        keys.append(np.stack([np.broadcast_to(going[:, None], keep.shape)[keep], deal_no[keep]]))
        running_parts.append(running[keep])
        kept = keep.sum(axis=1)
        played[going] += kept
        counted[going] += (counts & keep).sum(axis=1)
        totals[going] = running[np.arange(going.size), stop]
        ends[going] = end
        going = going[end == END_RUNNING]
    key = np.concatenate(keys, axis=1) if keys else np.zeros((2, 0), np.int64)
    order = np.lexsort((key[1], key[0]))  # game by game, deal by deal
    in_order = len(parts) == 1 and bool((order == np.arange(order.size)).all())  # one chunk: already so
    deals = parts[0] if in_order else pa.concat_tables(parts).take(pa.array(order))
    running = np.concatenate(running_parts)
    running = running if in_order else running[order]
    return {"games": games_table(game_ids, played, totals, ends, seats),
            "deals": deals_table(deals, game_ids[key[0][order]], key[1][order], running, seats)}


def deals_table(deals: pa.Table, game_id: np.ndarray, deal_no: np.ndarray, running: np.ndarray, seats: int):
    """The deals mode's table with ``game_id``, ``deal_no`` in front and ``total_s`` after ``score_{seats-1}``."""
    deals = deals.add_column(0, pa.field("game_id", pa.int64(), nullable=False), column(game_id.astype(np.int64)))
    deals = deals.add_column(1, pa.field("deal_no", pa.int32(), nullable=False), column(deal_no.astype(np.int32)))
    at = deals.schema.get_field_index(f"score_{seats - 1}") + 1
    for s in range(seats):
        deals = deals.add_column(at + s, pa.field(f"total_{s}", pa.int32(), nullable=False),
                                 column(running[:, s].astype(np.int32)))
    return deals


def winners_of(totals: np.ndarray):
    """(winner, winners, margin) of final totals [games, seats]: the seat with the highest total (-1 when
    several share it), the bit mask of the seats at the highest total, and the highest total's lead over the
    next seat's (0 for a tie)."""
    top = totals.max(axis=1) if totals.size else np.zeros(0, np.int64)
    at_top = totals == top[:, None]
    winners = (at_top * (1 << np.arange(totals.shape[1]))).sum(axis=1)
    sole = at_top.sum(axis=1) == 1
    winner = np.where(sole, at_top.argmax(axis=1), -1)
    second = np.sort(totals, axis=1)[:, -2] if totals.shape[1] > 1 else top
    return winner, winners, top - second


def games_table(game_ids, played, totals, ends, seats: int) -> pa.Table:
    winner, winners, margin = winners_of(totals)
    return pa.Table.from_arrays(
        [column(game_ids.astype(np.int64)), column(played.astype(np.int32))]
        + [column(totals[:, s].astype(np.int32)) for s in range(seats)]
        + [column(winner.astype(np.int8)), column(winners.astype(np.int16)), column(margin.astype(np.int32)),
           dictionary_column(ends.astype(np.int8) - 1, END_NAMES)],
        schema=games_schema(seats))
