"""Whole engine runs of a Spades variant whose players are each alone, replayed by the plain-Python reference.

The harness the variant test files share (``test_cutthroat3.py``, ``test_twohanded.py``): each file keeps its own
data (the runs, the strategies, the seats of its mixed table, the seed base and the counts) and its own tests.
A run's seed is ``seed_base + 10 * (the run's place in runs) + 2 * (the strategy's place in strategies)``, plus 1
in games mode: a different seed for every run, stable across sessions.
"""
from __future__ import annotations

from functools import cache

import pyarrow as pa
import pytest
import reference_spades as ref

from tricksim.simulator import engine
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import parse_spec

MODES = ("hands", "games")


class VariantRuns:
    """``runs``: name -> (preset, overrides); ``strategies``: the strategy specs in seed order, ``"mixed"`` the
    table of ``mixed_seats``; ``counts``: mode -> (count, hand limit). Runs and replays are computed once a session;
    the corruption helpers default to the first run, ``heuristic`` seats, hands mode."""

    def __init__(self, runs: dict, strategies: tuple, seats: int, mixed_seats: tuple, seed_base: int, counts: dict):
        self.runs, self.strategies, self.seat_count = runs, strategies, seats
        self.mixed_seats, self.seed_base, self.counts = mixed_seats, seed_base, counts
        self.default_name = next(iter(runs))
        self.run = cache(self._run)
        self.replayed = cache(self.replay)  # the reference's replay of an unchanged run: what it exercised

    def seats(self, strategy):
        if strategy == "mixed":
            return tuple(parse_spec(s) for s in self.mixed_seats)
        return tuple(parse_spec(strategy) for _ in range(self.seat_count))

    def _run(self, name, strategy, mode):
        """(rules, seed, hand limit, count, hands, games) of one engine run."""
        preset, overrides = self.runs[name]
        rules = build_rules(preset, list(overrides))
        seed = self.seed_base + list(self.runs).index(name) * 10 + self.strategies.index(strategy) * 2 + (
            mode == "games")
        count, limit = self.counts[mode]
        cfg = engine.RunConfig(rules=rules, seats=self.seats(strategy), seed=seed, mode=mode, count=count,
                               hand_limit=limit, record_plays=True, shard_size=3 if strategy == "mixed" else None)
        tables = engine.run_to_tables(cfg)
        return rules, seed, limit, count, tables["hands"], tables.get("games")

    def replay(self, name, strategy, mode, hands=None, games=None):
        """The reference's replay of a run, or of the tables given in place of its own."""
        rules, seed, limit, count, h, g = self.run(name, strategy, mode)
        return ref.replay(rules, seed, mode, limit, h if hands is None else hands, g if games is None else games,
                          count=count)

    def exercised(self, strategies) -> dict:
        """What the replays of every run of ``strategies``, in both modes, exercised together."""
        total = {}
        for name in self.runs:
            for strategy in strategies:
                for mode in MODES:
                    for k, v in self.replayed(name, strategy, mode).items():
                        total[k] = total.get(k, 0) + v
        return total

    def rows(self, name=None, strategy="heuristic", mode="hands"):
        """A fresh copy of a run's hand rows, to corrupt."""
        return self.run(name or self.default_name, strategy, mode)[4].to_pylist()

    def caught(self, match, rows, name=None, strategy="heuristic", mode="hands", game_rows=None):
        """The reference refuses the run with ``rows`` (and ``game_rows``) in place of its own, saying ``match``."""
        name = name or self.default_name
        own = self.run(name, strategy, mode)
        hands = pa.Table.from_pylist(rows, schema=own[4].schema)
        games = None if game_rows is None else pa.Table.from_pylist(game_rows, schema=own[5].schema)
        with pytest.raises(ref.ReplayError, match=match):
            self.replay(name, strategy, mode, hands, games)
