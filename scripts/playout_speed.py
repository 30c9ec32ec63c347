"""CPU time of a ``pimc`` play-out (a Spades hand played out by the heuristic from the first bid, on the game's
phases: ``pimc.play_out``) beside a hand of the heuristic in the batch kernel, in one process.

The kernel cannot play a search's hands (it deals from the run's streams and writes output rows; a play-out
starts mid-bidding on a sampled deal with one seat's Blind Nil fixed), so the play-outs string the same
phases themselves; this measures what that costs against the kernel's own hand::

    python scripts/playout_speed.py --preset classic --decisions 200 --repeat 3
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from cpu_per_hand import cpu_per_hand  # scripts/cpu_per_hand.py (the script's own folder)

from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.policy import VIEW_SIZE
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import parse_spec
from tricksim.strategies.spades import pimc


def cpu_per_playout(preset: str, decisions: int, samples: int, repeat: int) -> float:
    """The least CPU time a play-out took over ``repeat`` runs of ``decisions`` Blind Nil decisions by play-outs
    (``samples`` deals each, each played out twice), in ns."""
    rules = build_rules(preset).to_kernel()
    params = parse_spec(f"pimc:blind_samples={samples}").params
    zeros = np.zeros(2, np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)

    def run() -> float:
        start = time.process_time()
        for i in range(decisions):
            phases.start_view(rules, view, np.int64(i & 3), np.int64(0), zeros, zeros, np.int64((1 << 52) - 1))
            seat = np.int64((i + 1) & 3)
            phases.start_bid(rules, view, zeros, seat)
            pimc.blind_gain(seat, view, params, np.array([i + 1], np.uint64))
        return time.process_time() - start

    run()  # compiles or loads
    return min(run() for _ in range(repeat)) / (decisions * samples * 2) * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--samples", type=int, default=64, help="blind_samples: deals per decision")
    ap.add_argument("--hands", type=int, default=200_000, help="kernel hands per run")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    playout = cpu_per_playout(args.preset, args.decisions, args.samples, args.repeat)
    hand = cpu_per_hand("heuristic", args.hands, args.repeat, args.preset)
    print(f"play-out: {playout:,.0f} ns CPU (best of {args.repeat} runs of {args.decisions} decisions x "
          f"{args.samples} deals x 2)")
    print(f"kernel hand of the heuristic: {hand:,.0f} ns CPU (best of {args.repeat} runs of {args.hands:,} hands)")
    print(f"play-out / kernel hand: {playout / hand:.2f}")


if __name__ == "__main__":
    main()
