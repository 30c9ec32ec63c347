"""Evidence that the shipped Tarot players are real (figures for docs/tarot-evidence.md).

* duplicate rotations (``tricksim compare --game tarot``): every deal played by a field of B and
  with A in each seat in turn, and the other way round; the gain per deal over the field's own
  strategy in the same seat, with a paired 95 % t interval over deals (deals are independent):
  heuristic against random, and against heuristic with one key parameter changed;
* heuristic self-play: how often each contract is bid and the taker's success, with Wilson intervals.

Usage::

    python scripts/tarot_evidence.py --deals 50000 --out docs/tarot-evidence.md
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tricksim.analysis.games.tarot.summary import CONTRACTS, tarot_numbers  # noqa: E402
from tricksim.analysis.stats import fmt_rate  # noqa: E402
from tricksim.jobs.tarot.rotation import rotations  # noqa: E402
from tricksim.simulator.engine import RunConfig, run  # noqa: E402
from tricksim.simulator.games.tarot.rules import PRESETS  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402

CLASSIC = ("heuristic:monde_points=10,petit_points=10,excuse_points=8,major_points=2,king_points=6,queen_points=3,"
           "knight_points=2,jack_points=1,king_queen_bonus=1,void_points=6,singleton_points=3,prise_threshold=40,"
           "garde_threshold=56,garde_sans_threshold=71,garde_contre_threshold=81")
PAIRS = [
    ("heuristic", "random", "the default player against uniformly random play"),
    ("heuristic", CLASSIC, "fitted hand-point weights against the classic count and thresholds"),
    ("heuristic", "heuristic:charge=0", "charging points on a partner's safe trick, against not"),
    ("heuristic", "heuristic:force_taker=0", "defenders leading the taker's void suits, against not"),
    ("heuristic", "heuristic:hunt_petit=22", "defenders hunting the Petit with high trumps, against never"),
    ("heuristic", "heuristic:defender_cash=1", "defenders keeping their kings, against cashing them"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=50_000, help="deals per rotation run and for self-play")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the Markdown here (default: print)")
    a = ap.parse_args()
    t0 = time.time()
    lines = ["# Tarot strategy evidence", "",
             f"`python scripts/tarot_evidence.py --deals {a.deals} --seed {a.seed}` (cardavia rules). Every figure "
             "has its n and a 95 % interval; deals are independent, so the interval of a mean over deals is a t "
             "interval and a rate's a Wilson interval.", "",
             "## Duplicate rotations", "",
             "Each deal is played five times: by a field of B, then with A in seat 0, 1, 2 and 3 in turn (the "
             "others B), on the same cards. The gain is A's score minus B's in the same seat of the same deal, "
             "averaged over the four seats; then the same with A and B exchanged. A positive gain of A in a field "
             "of B and a negative one of B in a field of A both say A plays better.", "",
             "| A | B | what it tests | A in a field of B | B in a field of A |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (x, y, what) in enumerate(PAIRS):
            res = rotations(x, y, deals=a.deals, seed=a.seed, out=Path(tmp) / f"pair{i}", echo=lambda _: None)
            cells = [f"{e.value:+.1f} [{e.lo:+.1f}, {e.hi:+.1f}] (n={e.n:,})" for e, _ in
                     (res["a_in_b"], res["b_in_a"])]
            short = "classic count" if y == CLASSIC else y
            lines.append(f"| `{x}` | `{short}` | {what} | {cells[0]} | {cells[1]} |")
        lines += ["", f"The classic count: `{CLASSIC}`.", ""]
        out = Path(tmp) / "self"
        run(RunConfig(game="tarot", rules=PRESETS["cardavia"], preset="cardavia",
                      seats=(parse_spec("heuristic", game="tarot"),) * 4, seed=a.seed, mode="deals", count=a.deals),
            out, progress=False)
        r = tarot_numbers(out)
    lines += ["## Heuristic self-play", "",
              f"{r['deals']:,} deals; all passed {fmt_rate(r['void_all_pass'], r['deals'])}, Petit sec "
              f"{fmt_rate(r['void_petit_sec'], r['deals'])}; the taker won {fmt_rate(r['won'], r['played'])} of "
              "the played deals.", "",
              "| contract | share of played deals | taker wins | taker's card points |", "|---|---|---|---|"]
    for name in CONTRACTS:
        c = r["by_contract"][name]
        pts = c["points"].estimate()
        points = f"{pts.value:.1f} [{pts.lo:.1f}, {pts.hi:.1f}] (n={pts.n:,})" if c["deals"] > 1 else "—"
        lines.append(f"| {name} | {fmt_rate(c['deals'], r['played'])} | {fmt_rate(c['won'], c['deals'])} | {points} |")
    lines += ["", f"petit au bout {fmt_rate(r['petit_au_bout'], r['played'])}, a poignée "
              f"{fmt_rate(r['poignee'], r['played'])}, a slam {fmt_rate(r['slam'], r['played'])}, Chelem announced "
              f"{fmt_rate(r['chelem'], r['played'])} of the played deals.", "",
              f"(computed in {time.time() - t0:.0f} s)", ""]
    text = "\n".join(lines)
    if a.out:
        a.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
