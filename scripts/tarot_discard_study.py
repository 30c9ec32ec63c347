"""Issue #29, the fifteenth pass: the taker's discard (écart) in moderate Prises, pimc as the oracle.

Heuristic self-play (four players, cardavia) with the Prise threshold lowered (``--prise``); in the deals bid Prise with
a hand count (the dealt hand, before the chien) in [``--lo``, ``--hi``], the taker's discard is chosen twice from the
same position: by the heuristic and by ``pimc:bids=0,call=0`` (each discard card searched, ``pimc.discard``, the
cards before it pimc's own). The SAME deal is then played out to the end twice by the heuristic for every seat (cards,
Chelem, poignées), once with each discard; every seat's random stream is drawn the same in both (the pimc discard
draws from a copy of the taker's stream, the heuristic's discard still drawn from it), so the taker's score
difference is paired. Prints the share of deals where the discards differ, the mean paired gain a moderate Prise with
a 95 % t interval, the Prises made with each discard, and how the differing discards differ (``shape``: voids built,
queens and other honours discarded, trumps discarded, points discarded, cards taken from the longest suit), counts
by kind. Usage::

    nice python scripts/tarot_discard_study.py --seed 1038 --minutes 15 --out /tmp/discard.csv
"""
from __future__ import annotations

import argparse
import copy
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tricksim.analysis.stats import mean_ci  # noqa: E402
from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, HALF_POINTS, SUIT_CARDS, name  # noqa: E402
from tricksim.simulator.games.tarot.rules import PRESETS  # noqa: E402
from tricksim.simulator.games.tarot.state import Phase, TarotState, card_ids  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402


def shape(hand, discard):
    """How a discard (card ids) of the taker shapes its hand (``hand``: the card ids it held with the chien, before
    discarding): a dict of the suits it voids, the short suits (<= 2 cards after the chien) it leaves unvoided, the
    queens, the knights and jacks and the trumps it discards, its half-points and the cards it takes from the taker's
    longest suit."""
    d = set(discard)
    before = [[c for c in hand if c < FIRST_TRUMP and c // SUIT_CARDS == s] for s in range(4)]
    after = [[c for c in b if c not in d] for b in before]
    longest = max(range(4), key=lambda s: (len(before[s]), s))
    return {
        "voids": sum(1 for s in range(4) if before[s] and not after[s]),
        "short_kept": sum(1 for s in range(4) if 0 < len(after[s]) <= 2),
        "queens": sum(1 for c in d if c < FIRST_TRUMP and c % SUIT_CARDS == 12),
        "cavaliers_jacks": sum(1 for c in d if c < FIRST_TRUMP and c % SUIT_CARDS in (10, 11)),
        "trumps": sum(1 for c in d if FIRST_TRUMP <= c < EXCUSE),
        "half_points": sum(int(HALF_POINTS[c]) for c in d),
        "from_longest": sum(1 for c in d if c < FIRST_TRUMP and c // SUIT_CARDS == longest),
    }


def t_interval(x):
    """Mean and half-width of its 95 % t interval (``stats.mean_ci``)."""
    e = mean_ci(x)
    return e.value, (e.hi - e.lo) / 2


def play_to_end(st, h, pimc_discard=None):
    """Play ``st`` out with the heuristic ``h`` for every seat; with ``pimc_discard`` (a function of the state giving
    the taker's discard card), each discard card is its instead, the heuristic's still asked first so that every
    stream is drawn the same. Returns the discard's card ids in order."""
    discard = []
    while not st.is_terminal():
        act = st.policy_action(h)
        if st.phase == Phase.DISCARD:
            if pimc_discard is not None:
                act = pimc_discard(st)
            discard.append(int(act))
        st.apply(act)
    return discard


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1038)
    ap.add_argument("--minutes", type=float, default=15.0, help="stop after this long")
    ap.add_argument("--prises", type=int, default=10 ** 9, help="stop after this many moderate Prises")
    ap.add_argument("--prise", type=float, default=70.0)
    ap.add_argument("--lo", type=float, default=70.0)
    ap.add_argument("--hi", type=float, default=76.0)
    ap.add_argument("--pimc", default="pimc:bids=0,call=0")
    ap.add_argument("--heuristic", default="heuristic", help="the heuristic played (its Prise threshold --prise)")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    from tricksim.strategies.tarot import heuristic as H
    from tricksim.strategies.tarot import pimc

    h = parse_spec(f"{a.heuristic}{',' if ':' in a.heuristic else ':'}prise_threshold={a.prise}", "tarot")
    pp = parse_spec(a.pimc, "tarot").params

    def pimc_discard(st):
        s = st.current_player()
        legal_s, legal_t = st._legal
        return int(pimc.discard(np.int64(s), st.suits[s], st.trumps[s], legal_s, legal_t, st.view.copy(), pp,
                                st.streams[s].copy()))

    rows = []
    deal_id = 0
    t0 = time.time()
    while time.time() - t0 < a.minutes * 60 and len(rows) < a.prises:
        st = TarotState(PRESETS["cardavia"], seed=a.seed, deal_id=deal_id)
        deal_id += 1
        while not st.is_terminal() and st.phase == Phase.BID:
            st.apply(st.policy_action(h))
        if st.is_terminal() or st.contract != 1:
            continue
        t = st.taker
        count = float(H.hand_points(st.dealt[0][t], st.dealt[1][t], h.params))
        if not a.lo <= count < a.hi + 1e-9:
            continue
        hand = card_ids(int(st.suits[t]), int(st.trumps[t]))  # with the chien
        sp = copy.deepcopy(st)
        dh = play_to_end(st, h)
        score_h, won_h = st.scores()[t], st.won
        dp = play_to_end(sp, h, pimc_discard)
        score_p, won_p = sp.scores()[t], sp.won
        row = {"deal": deal_id - 1, "count": count, "same": sorted(dh) == sorted(dp), "score_h": score_h,
               "score_p": score_p, "won_h": won_h, "won_p": won_p,
               "disc_h": " ".join(name(c) for c in sorted(dh)),
               "disc_p": " ".join(name(c) for c in sorted(dp)),
               "hand": " ".join(name(c) for c in hand)}
        row.update({f"h_{k}": v for k, v in shape(hand, dh).items()})
        row.update({f"p_{k}": v for k, v in shape(hand, dp).items()})
        rows.append(row)
        if len(rows) % 20 == 0:
            print(f"{deal_id} deals, {len(rows)} moderate Prises, {time.time() - t0:.0f} s", file=sys.stderr)
    report(rows, a, deal_id, time.time() - t0)
    if a.out:
        import pandas as pd

        pd.DataFrame(rows).to_csv(a.out, index=False)


def report(rows, a, deals, secs):
    n = len(rows)
    diff = [r for r in rows if not r["same"]]
    gain = [r["score_p"] - r["score_h"] for r in rows]
    m, hw = t_interval(gain)
    print(f"seed {a.seed}: {deals} deals, {n} Prises with counts {a.lo}-{a.hi} ({secs:.0f} s)")
    print(f"discards differ in {len(diff)} of {n} ({len(diff) / max(n, 1):.0%})")
    print(f"taker's paired gain with pimc's discard, a moderate Prise: {m:+.2f} [{m - hw:+.2f}, {m + hw:+.2f}]")
    if diff:
        md, hd = t_interval([r["score_p"] - r["score_h"] for r in diff])
        print(f"  a Prise where the discards differ: {md:+.2f} [{md - hd:+.2f}, {md + hd:+.2f}]")
    print(f"Prises made: heuristic's discard {sum(r['won_h'] for r in rows)}, pimc's {sum(r['won_p'] for r in rows)}"
          f" of {n}; where they differ {sum(r['won_h'] for r in diff)} / {sum(r['won_p'] for r in diff)}"
          f" of {len(diff)}")
    print("\nhow the differing discards differ (pimc's against the heuristic's: more / fewer / same), "
          "mean each, and the mean gain where pimc's has more / fewer:")
    for k in ("voids", "short_kept", "queens", "cavaliers_jacks", "trumps", "half_points", "from_longest"):
        more = [r for r in diff if r[f"p_{k}"] > r[f"h_{k}"]]
        fewer = [r for r in diff if r[f"p_{k}"] < r[f"h_{k}"]]
        same = len(diff) - len(more) - len(fewer)
        gm = np.mean([r["score_p"] - r["score_h"] for r in more]) if more else float("nan")
        gf = np.mean([r["score_p"] - r["score_h"] for r in fewer]) if fewer else float("nan")
        mh, mp = np.mean([r[f"h_{k}"] for r in diff]), np.mean([r[f"p_{k}"] for r in diff])
        print(f"  {k:16s} {len(more):4d} / {len(fewer):4d} / {same:4d}   mean h {mh:.2f} p {mp:.2f}   "
              f"gain more {gm:+.1f} fewer {gf:+.1f}")
    swaps = Counter()
    for r in diff:
        only_h = sorted(set(r["disc_h"].split()) - set(r["disc_p"].split()))
        only_p = sorted(set(r["disc_p"].split()) - set(r["disc_h"].split()))
        swaps[(" ".join(only_h), " ".join(only_p))] += 1
    print("\nthe commonest differences (heuristic only -> pimc only):")
    for (oh, op), c in swaps.most_common(15):
        print(f"  {c:4d}  {oh:24s} -> {op}")


if __name__ == "__main__":
    main()
