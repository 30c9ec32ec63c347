"""The heuristic's bid with three players (preset cutthroat3): self-play hand scores by bid shift and Nil.

For docs/strategy-evidence.md "Cutthroat for three". Each row plays the same deals (hands mode, one seed) with
``heuristic`` at all three seats, ``THREE_PLAYER_BID_SHIFT`` and ``THREE_PLAYER_NIL`` set on the module; it runs
under ``NUMBA_DISABLE_JIT=1`` (set below, before numba loads), where the module's globals are read at each call.

    python scripts/cutthroat3_bid.py --hands 1500 --seed 11
"""
from __future__ import annotations

import argparse
import os

os.environ["NUMBA_DISABLE_JIT"] = "1"

import numpy as np  # noqa: E402

from tricksim.simulator import engine  # noqa: E402
from tricksim.simulator.games.spades.rules import build_rules  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402
from tricksim.strategies.spades import heuristic  # noqa: E402

GRID = [(0.0, True), (1.0, True), (0.0, False), (0.5, False), (0.75, False), (1.0, False), (1.25, False)]


def row(shift: float, nil: bool, hands: int, seed: int) -> str:
    heuristic.THREE_PLAYER_BID_SHIFT, heuristic.THREE_PLAYER_NIL = shift, nil
    cfg = engine.RunConfig(rules=build_rules("cutthroat3"), seats=tuple(parse_spec("heuristic") for _ in range(3)),
                           seed=seed, mode="hands", count=hands)
    h = engine.run_to_tables(cfg)["hands"]
    bids, tricks, score = (np.stack([h.column(f"{c}_{s}").to_numpy() for s in range(3)]).astype(float)
                           for c in ("bid", "tricks", "score"))
    per_hand = score.mean(axis=0)  # the hand's three seats together: hands are independent
    half = 1.96 * per_hand.std(ddof=1) / np.sqrt(hands)
    contract = bids > 0
    return (f"| {shift} | {'as with four' if nil else 'none'} | {per_hand.mean():.1f} [{per_hand.mean() - half:.1f}, "
            f"{per_hand.mean() + half:.1f}] | {100 * (tricks[contract] >= bids[contract]).mean():.1f} % | "
            f"{(tricks[contract] - bids[contract]).mean():.2f} | {100 * (bids == 0).mean():.1f} % |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    print(f"{a.hands:,} hands a row, seed {a.seed}; points a seat-hand with a 95 % t interval over hands")
    print("| shift | Nil | points a seat-hand | contracts made | tricks − bid | Nil bids |\n|---|---|---|---|---|---|")
    for shift, nil in GRID:
        print(row(shift, nil, a.hands, a.seed), flush=True)


if __name__ == "__main__":
    main()
