"""Time the Spades double-dummy solver against DDS (endplay) on the same random deals.

Spades with ``breaking=false`` and no jokers is bridge with spades as trumps, so both solvers answer
the same question: the tricks of each side from a full 13-card deal, one leader. Issue #18's goal is
the median time of one such solve within 3x DDS's time per strain and declarer (a DDS table of 20
results, divided by 20), and to match it. The runs alternate deal by deal; every answer is checked
against DDS.

One thread:
  * ours: ``dd_tricks`` for each of the four leaders of each deal, each from an empty table
    (``Solver.reset``); and the four leaders one after the other on one table (entries are facts
    about positions, so they carry over, as a DDS table carries its table across declarers);
  * DDS: ``calc_dd_table`` (20 results: 5 strains x 4 declarers) divided by 20, and ``solve_board``
    (spades, one leader) for each leader, another deal solved before each so that it starts from an
    empty table too -- DDS limited to one thread.

Several threads (``--threads``): ours through a thread pool (the compiled solver releases the GIL;
one solver a thread; a deal a job, its four leaders on one table; threads around a serial solver as
the engine runs shards: P1), against DDS's own ``CalcAllTables`` (endplay's ``calc_all_tables``,
spades only, the same number of threads): wall time per (deal, leader), the mean over all solves.

    python scripts/benchmark_dd.py --deals 50
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tricksim.simulator.games.spades import dd  # noqa: E402
from tricksim.simulator.games.spades.rules import SpadesRules  # noqa: E402

RANKS = "23456789TJQKA"


def pbn(hands) -> str:
    """endplay's deal text: tricksim seat s is endplay's Player(s) (N, E, S, W), both in playing order."""
    return "N:" + " ".join(".".join("".join(RANKS[r] for r in range(12, -1, -1) if (h >> (13 * s + r)) & 1)
                                    for s in (3, 2, 1, 0)) for h in hands)


def random_deals(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        out.append([sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)])
    return out


def quartiles(xs) -> str:
    q1, q2, q3 = np.percentile(np.asarray(xs) * 1000, [25, 50, 75])
    return f"median {q2:8.2f} ms  quartiles [{q1:.2f}, {q3:.2f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="random deals (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2, help="threads for the second part (0: skip it)")
    ap.add_argument("--tt-bits", type=int, default=20, help="log2 of the solver's table slots")
    a = ap.parse_args()
    try:
        from endplay._dds import SetMaxThreads  # DDS's own thread setting; endplay has no public one
        from endplay.dds import calc_all_tables, calc_dd_table, solve_board
        from endplay.types import Deal, Denom, Player
    except ImportError:
        sys.exit("endplay is needed to compare with DDS: pip install -e '.[test]'")

    load = os.getloadavg()[0]
    rules = SpadesRules(breaking=False)
    deals = random_deals(a.deals, a.seed)
    solver = dd.Solver(tt_bits=a.tt_bits)
    SetMaxThreads(1)
    # warm up: load (or compile) the solver, initialise DDS
    t0 = time.perf_counter()
    dd.dd_tricks(deals[0], 0, (), False, rules, solver=solver)
    warm = time.perf_counter() - t0
    calc_dd_table(Deal(pbn(deals[0])))
    other = Deal("N:A... K... Q... J...", first=Player.north, trump=Denom.spades)  # a one-trick deal

    ours, ours_shared, dds_table, dds_board, nodes, mismatches = [], [], [], [], [], 0
    per_deal_ratio = []
    for hands in deals:
        deal = Deal(pbn(hands))
        t = time.perf_counter()
        table = calc_dd_table(deal)
        dds_table.append((time.perf_counter() - t) / 20)
        mine = []
        for leader in range(4):
            solver.reset()  # from an empty table
            t = time.perf_counter()
            v = dd.dd_tricks(hands, leader, (), False, rules, solver=solver)
            mine.append(time.perf_counter() - t)
            nodes.append(solver.nodes)
            declarer = (leader + 3) % 4  # DDS's declarer sits on the leader's right; its figure is its side's
            want = table[Denom.spades, Player(declarer)]
            mismatches += v != (want if declarer % 2 == 0 else 13 - want)
        ours += mine
        per_deal_ratio.append(np.median(mine) / dds_table[-1])
        solver.reset()  # the four leaders with one table, as a DDS table shares its table across declarers
        t = time.perf_counter()
        for leader in range(4):
            dd.dd_tricks(hands, leader, (), False, rules, solver=solver)
        ours_shared.append((time.perf_counter() - t) / 4)
        for leader in range(4):
            solve_board(other)  # another deal first: DDS keeps its table for a deal it has just solved
            d = Deal(pbn(hands), first=Player(leader), trump=Denom.spades)
            t = time.perf_counter()
            solve_board(d)
            dds_board.append(time.perf_counter() - t)

    print(f"python scripts/benchmark_dd.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"{date.today()}, {a.deals} deals (seed {a.seed}), {len(ours)} solves; load average before: "
          f"{load:.2f}; first call (load or compile) {warm:.1f} s")
    print(f"answers that differ from DDS: {mismatches}")
    print("one thread, time of one solve (one deal, one leader, spades):")
    print(f"  ours dd_tricks, empty table      {quartiles(ours)}   nodes median {int(np.median(nodes)):,}")
    print(f"  ours, 4 leaders on one table / 4 {quartiles(ours_shared)}")
    print(f"  DDS calc_dd_table / 20           {quartiles(dds_table)}")
    print(f"  DDS solve_board (one leader)     {quartiles(dds_board)}")
    print(f"  ratio ours / DDS per strain and declarer: {np.median(ours) / np.median(dds_table):.2f} "
          f"(medians); per deal, median {np.median(per_deal_ratio):.2f}; goal <= 3, then 1")
    print(f"  ratio ours / DDS solve_board: {np.median(ours) / np.median(dds_board):.2f} (medians)")
    print(f"  ratio ours with one table for the 4 leaders / DDS per strain and declarer: "
          f"{np.median(ours_shared) / np.median(dds_table):.2f} (medians)")
    print(f"  mean time a solve: ours {np.mean(ours) * 1000:.2f} ms, DDS per strain and declarer "
          f"{np.mean(dds_table) * 1000:.2f} ms, DDS solve_board {np.mean(dds_board) * 1000:.2f} ms")

    if a.threads >= 2:
        local = threading.local()

        def solve(hands):  # a job: the four leaders of a deal on one table, as DDS does a deal's declarers
            if not hasattr(local, "solver"):
                local.solver = dd.Solver(tt_bits=a.tt_bits)  # one solver a thread
            local.solver.reset()
            return [dd.dd_tricks(hands, leader, (), False, rules, solver=local.solver) for leader in range(4)]

        others = [Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
        walls_ours, walls_dds = [], []
        for _ in range(2):  # alternate, twice
            with ThreadPoolExecutor(a.threads) as pool:
                t = time.perf_counter()
                list(pool.map(solve, deals))
                walls_ours.append((time.perf_counter() - t) / (4 * len(deals)))
            SetMaxThreads(a.threads)
            t = time.perf_counter()
            for i in range(0, len(deals), 200):  # CalcAllTables takes at most 200 deals a call
                calc_all_tables([Deal(pbn(h)) for h in deals[i:i + 200]], exclude=others)
            walls_dds.append((time.perf_counter() - t) / (4 * len(deals)))
        print(f"{a.threads} threads, wall time per solve (deal, leader), the mean over all solves:")
        print(f"  ours (thread pool, a deal a job) {min(walls_ours) * 1000:8.2f} ms (best of 2)")
        print(f"  DDS calc_all_tables, spades      {min(walls_dds) * 1000:8.2f} ms (best of 2)")
        print(f"  one thread, for comparison: ours {np.mean(ours_shared) * 1000:.2f} ms, DDS "
              f"{np.mean(dds_table) * 1000:.2f} ms (means, one table a deal)")
        print(f"  ratio ours / DDS: {min(walls_ours) / min(walls_dds):.2f}")


if __name__ == "__main__":
    main()
