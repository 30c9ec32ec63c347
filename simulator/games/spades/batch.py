"""Driving the Spades batch kernel: units in, named columns and Arrow tables out.

``compute(cfg, game_ids, workers)`` plays the games (hands mode: single hands)
``game_ids`` and returns the run's tables for them. In hands mode a game is one
hand, so its row is known before it is played: the rows are allocated once and
each worker thread writes its part of them in place (``parts.py``). Games mode
cannot know how many hands a game takes, so rows are allocated per call
(``GAME_ROWS`` a game, at most ``CALL_ROWS``); when a call's rows run out the
kernel stops at that game and the next call continues from it, with the same
streams and so the same result (docs/performance.md P7); the threads' and the
calls' blocks are then joined.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tricksim.simulator.family import PolicyFault
from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.tables import games_table, hands_table
from tricksim.simulator.parts import in_parts

GAME_ROWS = 32          # rows allocated per game in games mode (about 14 used; untouched pages cost nothing)
CALL_ROWS = 1 << 20     # most rows one games-mode kernel call fills: bounds its arrays whatever the shard size


class HandColumns(NamedTuple):
    """One row per hand, as the kernel writes them (views of its blocks; see ``_blocks``)."""

    game_id: np.ndarray       # int64[rows]
    hand_no: np.ndarray       # int64[rows]
    dealer: np.ndarray        # int64[rows]
    first_leader: np.ndarray  # int64[rows]
    dealt: np.ndarray         # int64[4, rows]: each seat's cards as dealt
    held: np.ndarray          # int64[4, rows]: after the Blind Nil exchange
    bid: np.ndarray           # int8[4, rows]
    blind: np.ndarray         # int8[4, rows]
    tricks: np.ndarray        # int8[4, rows]
    score: np.ndarray         # int32[sides, rows]: each side's points this hand (2 teams, or 4 players alone)
    bags: np.ndarray          # int32[sides, rows]: running bags after the hand
    total: np.ndarray         # int32[sides, rows]: running totals after the hand
    drawn: np.ndarray | None = None  # int64[rows]: two-handed, the draw record (tables.TWO_HANDS_SCHEMA); else None


class GameColumns(NamedTuple):
    hands: np.ndarray   # int64[n]
    total: np.ndarray   # int64[sides, n]
    winner: np.ndarray  # int64[n]
    end: np.ndarray     # int64[n]: kernel.END_* code


class Blocks(NamedTuple):
    """The kernel's output arrays as allocated (it writes them by position: kernel.simulate_block)."""

    ids: np.ndarray     # int64[4, rows]: game_id, hand_no, dealer, first_leader
    cards: np.ndarray   # int64[8, rows]: dealt 0..3, held 0..3 (two-handed: dealt 2 is the draw record)
    counts: np.ndarray   # int8[12, rows]: bid 0..3, blind 0..3, tricks 0..3
    scores: np.ndarray  # int32[12, rows]: score 0..3, bags 0..3, total 0..3 (of each side: 0..1 with partnerships)
    plays: np.ndarray   # int8[rows, cards] (int8[1, cards] when the plays are not recorded): 52 cards, 51 with three
    games: np.ndarray   # int64[7, n_games]: hands, winner, end, total 0..3 (of each side)

    def hands(self, sides: int, seats: int = 4) -> HandColumns:
        """The columns of ``seats`` players (the kernel's rows of an absent fourth seat left out)."""
        ids, cards, counts, scores = self.ids, self.cards, self.counts, self.scores
        return HandColumns(ids[0], ids[1], ids[2], ids[3], cards[:seats], cards[4:4 + seats], counts[:seats],
                           counts[4:4 + seats], counts[8:8 + seats], scores[:sides], scores[4:4 + sides],
                           scores[8:8 + sides], cards[2] if seats == 2 else None)

    def game_columns(self, sides: int) -> GameColumns:
        g = self.games
        return GameColumns(g[0], g[3:3 + sides], g[1], g[2])


class SeatFunctions(NamedTuple):
    """The seat policies as the kernel takes them: one tuple of four functions per slot, and the parameters."""

    blind_nil: tuple
    bid: tuple
    exchange: tuple
    play: tuple
    params: np.ndarray  # float64[4, N_PARAMS]
    kind: int           # kernel.PER_SEAT, or the kind of the one strategy compiled in


def seat_functions(seats) -> SeatFunctions:
    # the kernel's tuples hold four seats: three players leave the fourth slot to a copy of the last, never asked
    seats = list(seats) + [seats[-1]] * (4 - len(seats))
    params = np.ascontiguousarray(np.stack([s.params for s in seats]), dtype=np.float64)
    functions = [tuple(s.functions) for s in seats]
    kind = kernel.policy_kind_of(functions, bool((params == params[0]).all()))
    return SeatFunctions(*(tuple(f[slot] for f in functions) for slot in range(4)), params, kind)


def compute(cfg, game_ids: np.ndarray, workers: int = 1) -> dict:
    """The hands (and games) tables of the games ``game_ids``, in that order, computed on ``workers`` threads;
    raises PolicyFault when a strategy broke the rules."""
    blocks = play_blocks(cfg, seat_functions(cfg.seats), np.ascontiguousarray(game_ids, np.int64), workers)
    sides = cfg.rules.sides
    hands = hands_table([s.spec for s in cfg.seats], blocks.hands(sides, cfg.rules.seats),
                        blocks.plays if cfg.record_plays else None)
    if cfg.mode != "games":
        return {"hands": hands}
    if game_ids.size and not np.array_equal(game_ids, np.arange(game_ids[0], game_ids[0] + game_ids.size)):
        raise ValueError("a games table needs consecutive game ids")
    return {"games": games_table(int(game_ids[0]) if game_ids.size else 0, blocks.game_columns(sides),
                                 kernel.END_NAMES), "hands": hands}


def play_blocks(cfg, pol: SeatFunctions, game_ids: np.ndarray, workers: int = 1) -> Blocks:
    """The kernel's blocks for the games ``game_ids`` (in that order, in consecutive rows), on ``workers`` threads."""
    n = game_ids.size
    if cfg.mode != "games":  # one row a game: every thread writes its games' rows of one allocation
        blocks = _allocated(cfg, n, n)
        in_parts(n, workers, lambda lo, hi: _kernel_call(cfg, pol, game_ids[lo:hi], blocks, lo, 1))
        return blocks
    parts = {}  # games mode: each thread's blocks by its first game, joined in that order

    def games_part(lo, hi):
        parts[lo] = _games_blocks(cfg, pol, game_ids[lo:hi])

    in_parts(n, workers, games_part)
    return _joined([parts[lo] for lo in sorted(parts)], cfg.record_plays)


def _games_blocks(cfg, pol: SeatFunctions, game_ids: np.ndarray) -> Blocks:
    """Games mode: the blocks of the games ``game_ids`` on this thread, in as many kernel calls as their rows take."""
    hand_limit = cfg.hand_limit
    calls = []
    done = 0
    while not calls or done < game_ids.size:  # one call, unless the games outrun the rows allocated
        rest = game_ids[done:]
        rows = max(min(rest.size * min(GAME_ROWS, hand_limit), CALL_ROWS), hand_limit)  # the next game always fits
        b = _allocated(cfg, rows, rest.size)
        _kernel_call(cfg, pol, rest, b, 0, hand_limit)
        overflowed = np.flatnonzero(b.games[2] == kernel.END_OVERFLOW)
        played = int(overflowed[0]) if overflowed.size else rest.size
        used = int(b.games[0, :played].sum())
        calls.append(Blocks(b.ids[:, :used], b.cards[:, :used], b.counts[:, :used], b.scores[:, :used],
                            b.plays[:used] if cfg.record_plays else b.plays, b.games[:, :played]))
        done += played
    return calls[0] if len(calls) == 1 else _joined(calls, cfg.record_plays)


def _joined(parts: list[Blocks], record_plays: bool) -> Blocks:
    """The blocks of consecutive kernel calls as one (games mode)."""
    joined = [np.concatenate([p[k] for p in parts], axis=1) for k in (0, 1, 2, 3)]
    plays = np.concatenate([p.plays for p in parts]) if record_plays else parts[0].plays
    return Blocks(*joined, plays, np.concatenate([p.games for p in parts], axis=1))


def _allocated(cfg, rows: int, n_games: int) -> Blocks:
    """The kernel's arrays for ``rows`` hands of ``n_games`` games (np.empty: every row kept is written by the
    kernel; the games' records zeroed)."""
    return Blocks(ids=np.empty((4, rows), np.int64), cards=np.empty((8, rows), np.int64),
                  counts=np.empty((12, rows), np.int8), scores=np.empty((12, rows), np.int32),
                  plays=np.empty((rows if cfg.record_plays else 1, cfg.rules.seats * cfg.rules.tricks), np.int8),
                  games=np.zeros((7, n_games), np.int64))


def _kernel_call(cfg, pol: SeatFunctions, game_ids: np.ndarray, b: Blocks, first: int, hand_limit: int) -> None:
    """One kernel call writing the games ``game_ids`` into ``b`` from row and game column ``first``; raises
    PolicyFault when a strategy broke the rules."""
    n_games = game_ids.shape[0]
    faults = np.zeros((4, n_games), np.int64)  # code, hand_no, seat, value
    kernel.kernel_for(pol.kind, cfg.rules.seats)(
        cfg.rules.to_kernel(), pol.blind_nil, pol.bid, pol.exchange, pol.play, pol.params, pol.kind, cfg.rules.seats,
        kernel.deck_template(cfg.rules), np.int64(cfg.seed), game_ids, np.int64(first), np.int64(hand_limit),
        cfg.mode == "games", cfg.record_plays, b.ids, b.cards, b.counts, b.scores, b.plays, b.games, faults)
    bad = np.flatnonzero(faults[0])
    if bad.size:
        i = bad[0]
        code, hand_no, seat, value = faults[:, i]
        what = {kernel.ERR_BID: f"illegal bid {value}", kernel.ERR_EXCHANGE: "an illegal exchange",
                kernel.ERR_PLAY: f"illegal card {value}", kernel.ERR_DRAW: f"an illegal draw ({value})"}[int(code)]
        raise PolicyFault(f"strategy {cfg.seats[seat].short_spec!r} at seat {seat} made {what} "
                          f"in game {int(game_ids[i])}, hand {hand_no}")
