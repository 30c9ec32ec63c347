"""Dealing and playing the toy game, in plain Python and NumPy (a family needs no compiled kernel)."""
from __future__ import annotations

import numpy as np
import pyarrow as pa

SEATS = 3
CARDS = 9          # card c: suit c // 3, rank c % 3
TRICKS = 3


def suit(card: int) -> int:
    return card // 3


def legal(hand: list[int], led: int | None) -> list[int]:
    """The cards of ``hand`` that may be played to a trick whose suit led is ``led`` (None: leading)."""
    follow = [c for c in hand if led is not None and suit(c) == led]
    return sorted(follow or hand)


def play_round(seed: int, unit: int, policies, bonus_last: bool) -> dict:
    """One round: its deal, plays and scores."""
    deck = np.random.default_rng([seed, unit]).permutation(CARDS).tolist()
    hands = [sorted(deck[3 * s:3 * s + 3]) for s in range(SEATS)]
    dealt = [sum(1 << c for c in h) for h in hands]
    leader, tricks, plays = unit % SEATS, [0] * SEATS, []
    for t in range(TRICKS):
        cards = {}
        for i in range(SEATS):
            seat = (leader + i) % SEATS
            led = suit(cards[leader]) if cards else None
            card = policies[seat](legal(hands[seat], led))
            hands[seat].remove(card)
            cards[seat] = card
            plays.append(card)
        led = suit(cards[leader])
        winner = max((s for s in cards if suit(cards[s]) == led), key=lambda s: cards[s])
        tricks[winner] += 1 + (1 if bonus_last and t == TRICKS - 1 else 0)
        leader = winner
    return {"dealt": dealt, "score": tricks, "plays": plays}


def compute(cfg, unit_ids: np.ndarray, workers: int = 1) -> dict:
    """The ``rounds`` table of ``unit_ids`` (the family's ``compute``)."""
    policies = [seat.functions[0] for seat in cfg.seats]
    rows = [play_round(cfg.seed, int(u), policies, cfg.rules.bonus_last) for u in unit_ids]
    columns = {"round_id": pa.array(unit_ids, pa.int64())}
    for s in range(SEATS):
        columns[f"dealt_{s}"] = pa.array([r["dealt"][s] for r in rows], pa.int16())
    for s in range(SEATS):
        columns[f"score_{s}"] = pa.array([r["score"][s] for r in rows], pa.int8())
    for s, seat in enumerate(cfg.seats):
        columns[f"strategy_{s}"] = pa.DictionaryArray.from_arrays(pa.array([0] * len(rows), pa.int8()), [seat.spec])
    if cfg.record_plays:
        columns["plays"] = pa.array([r["plays"] for r in rows], pa.list_(pa.int8()))
    return {"rounds": pa.table(columns)}
