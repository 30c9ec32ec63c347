"""CPU time per Spades hand (or Tarot deal), end to end in one process (deal, bid, play, score, Arrow tables;
no files): the figure to compare two versions of the kernel side by side on a shared, noisy machine.

CPU time (``time.process_time``, all threads) moves less with the host's load than wall time. Each
strategy plays ``--hands`` hands once to warm up, then ``--repeat`` times; the best is printed. To
compare versions, run it in two checkouts, each with its own installation, taking turns::

    python scripts/cpu_per_hand.py simple heuristic     # in one checkout, then in the other; repeat
    python scripts/cpu_per_hand.py --game tarot heuristic random
    python scripts/cpu_per_hand.py --game tarot --preset fft3 heuristic random   # Tarot for three
    python scripts/cpu_per_hand.py --game tarot --preset cardavia fft5 --rounds 2 heuristic random  # side by side
    python scripts/cpu_per_hand.py --variants atlas --rounds 3 heuristic random   # every variant of the Spades atlas

``--variants`` takes variants as the atlas writes them (``PRESET[+flag=value...]``; ``atlas``: every variant of the
default Spades atlas, ``tricksim.jobs.spades.atlas.default_variants``) and ends with a Markdown table of each
variant's hands a second (the median over the rounds of each round's best) and their ratio to the first variant's.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from tricksim.api import TricksimError, plan
from tricksim.simulator.engine import run_to_tables


def cpu_per_hand(strategy: str, hands: int, repeat: int, preset: str | None, game: str = "spades",
                 rules: list[str] | None = None) -> float:
    """The least CPU time a hand (Tarot: a deal) of ``strategy`` (at every seat) took over ``repeat`` runs,
    in ns; ``rules``: flags (``key=value``) over the preset's."""
    unit = {"deals": hands} if game == "tarot" else {"hands": hands}
    cfg = plan(game, preset=preset, rules=rules, seed=5, seats=strategy, **unit)
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
    ap.add_argument("--variants", nargs="+", default=None, help="PRESET[+flag=value...] each, or atlas: every "
                    "variant of the default Spades atlas; instead of --preset, ending with a table of hands a second")
    args = ap.parse_args()
    unit = UNIT[args.game]
    if args.variants is not None:
        variant_table(args)
        return
    for r in range(args.rounds):
        for preset in args.preset:
            for s in args.strategies:
                where = f" [{preset}, round {r + 1}]" if len(args.preset) > 1 or args.rounds > 1 else ""
                print(f"{s}{where}: {cpu_per_hand(s, args.hands, args.repeat, preset, args.game):,.0f} ns CPU a "
                      f"{unit} (best of {args.repeat} runs of {args.hands:,} {unit}s)", flush=True)


def variant_table(args) -> None:
    """Each variant of ``--variants`` and each strategy in turn, ``--rounds`` times, then the Markdown table."""
    names = list(args.variants)
    if names == ["atlas"]:
        from tricksim.jobs.spades.atlas import default_variants

        names = list(default_variants())
    for name in names:  # every variant and strategy checked before any is timed: a bad one is one line, exit 2
        preset, *flags = name.split("+")
        for s in args.strategies:
            try:
                plan(args.game, preset=preset, rules=flags, seats=s, **{"deals" if args.game == "tarot" else "hands": 1})
            except TricksimError as e:
                print(f"error: variant {name!r}, strategy {s!r}: {e}", file=sys.stderr)
                sys.exit(2)
    ns: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for name in names:
            preset, *flags = name.split("+")
            for s in args.strategies:
                best = cpu_per_hand(s, args.hands, args.repeat, preset, args.game, flags)
                ns.setdefault((name, s), []).append(best)
                print(f"{s} [{name}, round {r + 1}]: {best:,.0f} ns CPU a {UNIT[args.game]}", flush=True)
    rate = {k: 1e9 / statistics.median(v) for k, v in ns.items()}
    unit = UNIT[args.game]
    print(f"\n| variant | {' | '.join(f'{s} {unit}s/s' for s in args.strategies)} | "
          f"{' | '.join(f'{s} ÷ {names[0]}' for s in args.strategies)} |")
    print("|---" * (1 + 2 * len(args.strategies)) + "|")
    for name in names:
        print(f"| `{name}` | " + " | ".join(f"{rate[name, s]:,.0f}" for s in args.strategies) + " | "
              + " | ".join(f"{rate[name, s] / rate[names[0], s]:.2f}" for s in args.strategies) + " |")


UNIT = {"spades": "hand", "tarot": "deal"}


if __name__ == "__main__":
    main()
