"""CPU time per Spades hand (or Tarot deal), end to end in one process (deal, bid, play, score, Arrow tables;
no files): the figure to compare two versions of the kernel side by side on a shared, noisy machine.

CPU time (``time.process_time``, all threads) moves less with the host's load than wall time. Each
strategy plays ``--hands`` hands once to warm up, then ``--repeat`` times; the best is printed. To
compare versions, run it in two checkouts, each with its own installation, taking turns::

    python scripts/cpu_per_hand.py simple heuristic     # in one checkout, then in the other; repeat
    python scripts/cpu_per_hand.py --game tarot heuristic random
    python scripts/cpu_per_hand.py --game tarot --preset fft3 heuristic random   # Tarot for three
    python scripts/cpu_per_hand.py --game tarot --preset cardavia fft5 --rounds 2 heuristic random  # side by side
"""
from __future__ import annotations

import argparse
import time

from tricksim.api import plan
from tricksim.simulator.engine import run_to_tables


def cpu_per_hand(strategy: str, hands: int, repeat: int, preset: str | None, game: str = "spades") -> float:
    """The least CPU time a hand (Tarot: a deal) of ``strategy`` (at every seat) took over ``repeat`` runs,
    in ns."""
    unit = {"deals": hands} if game == "tarot" else {"hands": hands}
    cfg = plan(game, preset=preset, seed=5, seats=strategy, **unit)
    run_to_tables(cfg)  # compiles or loads the kernel, touches the memory
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run_to_tables(cfg)
        best = min(best, time.process_time() - start)
    return best / hands * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("strategies", nargs="+", help="strategy specs, each at every seat (four, or three for Tarot's fft3)")
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--preset", nargs="+", default=[None],
                    help="default: the game's default preset; several: each measured in turn, --rounds times")
    ap.add_argument("--rounds", type=int, default=1, help="with several presets: the turns each takes")
    ap.add_argument("--game", default="spades", choices=("spades", "tarot"))
    args = ap.parse_args()
    unit = "deal" if args.game == "tarot" else "hand"
    for r in range(args.rounds):
        for preset in args.preset:
            for s in args.strategies:
                where = f" [{preset}, round {r + 1}]" if len(args.preset) > 1 or args.rounds > 1 else ""
                print(f"{s}{where}: {cpu_per_hand(s, args.hands, args.repeat, preset, args.game):,.0f} ns CPU a "
                      f"{unit} (best of {args.repeat} runs of {args.hands:,} {unit}s)", flush=True)


if __name__ == "__main__":
    main()
