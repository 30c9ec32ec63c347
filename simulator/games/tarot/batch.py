"""Driving the Tarot batch kernel: deal ids in, the ``deals`` table out (as ``games/spades/batch.py``)."""
from __future__ import annotations

import numpy as np

from tricksim.simulator.family import PolicyFault
from tricksim.simulator.games.tarot import kernel, layout
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP, name
from tricksim.simulator.games.tarot.policy import N_SEATS
from tricksim.simulator.games.tarot.tables import deals_table
from tricksim.simulator.parts import in_parts

FAULTS = {kernel.ERR_BID: "an illegal bid {}", kernel.ERR_DISCARD: "an illegal discard {}",
          kernel.ERR_POIGNEE: "an illegal poignée {}", kernel.ERR_PLAY: "an illegal card {}",
          kernel.ERR_CALL: "an illegal call {}"}


def compute(cfg, deal_ids: np.ndarray, workers: int = 1) -> dict:
    """The deals table of ``deal_ids``, in that order, computed on ``workers`` threads; raises PolicyFault
    when a strategy broke the rules."""
    return _play(cfg, np.ascontiguousarray(deal_ids, np.int64), np.zeros((0, 78), np.int64), workers)


def play_decks(cfg, decks, first_id: int = 0) -> dict:
    """The deals table of chosen deals: row i deals the 78 card ids ``decks[i]`` in that order (a hand to each
    seat from seat 0: 18 cards for four players, 24 for three; the last six to the chien), as deal
    ``first_id + i`` (its dealer and play stream)."""
    decks = np.ascontiguousarray(decks, np.int64)
    if decks.ndim != 2 or decks.shape[1] != 78 or any(sorted(d) != list(range(78)) for d in decks.tolist()):
        raise ValueError("each deck must hold the 78 card ids 0..77 once each")
    return _play(cfg, np.arange(first_id, first_id + len(decks), dtype=np.int64), decks, 1)


def _play(cfg, deal_ids: np.ndarray, decks: np.ndarray, workers: int) -> dict:
    n_seats = cfg.rules.seats
    if len(cfg.seats) != n_seats:
        raise ValueError(f"the rules are for {n_seats} seats, the run has {len(cfg.seats)} strategies")
    # the kernel's arrays and policy tuples hold N_SEATS seats: fewer players leave the last ones unused,
    # filled with the last seat's (never called)
    padded = list(cfg.seats) + [cfg.seats[-1]] * (N_SEATS - n_seats)
    params = np.ascontiguousarray(np.stack([s.params for s in padded]), dtype=np.float64)
    functions = [tuple(s.functions) for s in padded]
    policies = tuple(tuple(f[slot] for f in functions) for slot in range(len(functions[0])))
    n = deal_ids.size
    words = np.empty((n, layout.N_WORDS), np.int64)
    codes = np.empty((n, layout.N_CODES), np.int8)
    ints = np.empty((n, layout.N_INTS), np.int32)
    plays = np.empty((n if cfg.record_plays else 1, layout.N_PLAYS), np.int8)
    errors = np.zeros((n, 4), np.int64)
    run = kernel.kernel_for()
    rules = cfg.rules.to_kernel()

    def part(lo, hi):  # rows lo..hi-1: views of the blocks, written in place
        run(rules, *policies, params, np.int64(cfg.seed), deal_ids[lo:hi], decks[lo:hi] if decks.size else decks,
            cfg.record_plays, words[lo:hi], codes[lo:hi], ints[lo:hi], plays[lo:hi] if cfg.record_plays else plays,
            errors[lo:hi])

    in_parts(n, workers, part)
    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        code, deal_id, seat, value = errors[bad[0]]
        if code == kernel.ERR_POIGNEE:  # a trumps word: the cards it names
            shown = int(value)
            value = f"{shown:#x} ({' '.join(name(FIRST_TRUMP + b) for b in range(22) if shown >> b & 1) or 'none'})"
        raise PolicyFault(f"strategy {cfg.seats[seat].short_spec!r} at seat {seat} made "
                          f"{FAULTS[int(code)].format(value)} in deal {deal_id}")
    return {"deals": deals_table([s.spec for s in cfg.seats], deal_ids, words, codes, ints,
                                 plays if cfg.record_plays else None)}
