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
by kind.

``--marginal 74`` (issue #29, the marginal Prise): the deals whose Prise is bid by a seat with a count in [``--prise``,
74), a seat that would pass with the Prise from 74, each played three ways: (a) from the start by the heuristic with
the Prise from 74 (the seat passes, the later seats bid as they would, all may pass), (b) the Prise taken and the
heuristic's discard, (c) the Prise taken and pimc's discard (only when the seat stays the taker), the rest the
heuristic's. The bids draw no random number, so every stream is drawn the same in all three. Prints the seat's mean
(b)-(a), (c)-(a) and (c)-(b) with 95 % t intervals, the share of (a) all passed, the Prises made, and as a check the
Prises with counts 74 to ``--hi`` ((c)-(b) as above), with the CPU of pimc's discard and of a heuristic play-out.
Usage::

    nice python scripts/tarot_discard_study.py --seed 1038 --minutes 15 --out /tmp/discard.csv
    nice python scripts/tarot_discard_study.py --seed 1041 --minutes 20 --marginal 74 --out /tmp/marginal.csv
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


def count_of(st, seat, params):
    """The heuristic's hand count of ``seat``'s dealt hand (before the chien)."""
    from tricksim.strategies.tarot import heuristic as H

    return float(H.hand_points(st.dealt[0][seat], st.dealt[1][seat], params))


def prise_seat(bids, counts, lo, hi):
    """The seat that bid Prise (``bids``: each seat's bid, 1 the Prise; at most one seat bids it) when its hand
    count is in [``lo``, ``hi``), else -1."""
    for s, b in enumerate(bids):
        if b == 1 and lo <= counts[s] < hi:
            return s
    return -1


def bid_all(st, h):
    """Let every seat bid in ``st`` by ``h``."""
    while not st.is_terminal() and st.phase == Phase.BID:
        st.apply(st.policy_action(h))


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
    ap.add_argument("--marginal", type=float, metavar="PRISE",
                    help="the marginal Prises instead: a seat with a count in [--prise, PRISE) bids Prise, played "
                         "as the heuristic with the Prise from PRISE would (a), taken with the heuristic's discard "
                         "(b) and with pimc's (c); the Prises with counts PRISE to --hi (b and c) as a check")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    from tricksim.strategies.tarot import pimc

    sep = "," if ":" in a.heuristic else ":"
    h = parse_spec(f"{a.heuristic}{sep}prise_threshold={a.prise}", "tarot")
    pp = parse_spec(a.pimc, "tarot").params
    clock = [0.0, 0]  # CPU seconds in pimc's discard searches, discards searched

    def pimc_discard(st):
        c0 = time.process_time()
        s = st.current_player()
        legal_s, legal_t = st.legal_words
        c = int(pimc.discard(np.int64(s), st.suits[s], st.trumps[s], legal_s, legal_t, st.view.copy(), pp,
                             st.streams[s].copy()))
        clock[0] += time.process_time() - c0
        clock[1] += 1
        return c

    if a.marginal is not None:
        h_base = parse_spec(f"{a.heuristic}{sep}prise_threshold={a.marginal}", "tarot")
        marginal(a, h, h_base, pimc_discard, clock)
        return
    rows = []
    deal_id = 0
    t0 = time.time()
    while time.time() - t0 < a.minutes * 60 and len(rows) < a.prises:
        st = TarotState(PRESETS["cardavia"], seed=a.seed, deal_id=deal_id)
        deal_id += 1
        bid_all(st, h)
        if st.is_terminal() or st.contract != 1:
            continue
        t = st.taker
        count = count_of(st, t, h.params)
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
    save(rows, a.out)


def save(rows, out):
    if out:
        import pandas as pd

        pd.DataFrame(rows).to_csv(out, index=False)


def marginal(a, h, h_base, pimc_discard, clock):
    """``--marginal``: each deal whose Prise (bid by ``h``) is bid by a seat with a count in [--prise, --marginal)
    played three ways, (a) from the start by ``h_base`` (that seat passes), (b) and (c) from the bids by ``h``
    with the heuristic's and pimc's discard; the Prises of counts --marginal to --hi by (b) and (c) only. Every
    seat's stream is drawn the same in all (the bids draw none)."""
    rows = []
    deal_id = 0
    t0 = time.time()
    cpu_h = [0.0, 0]  # CPU seconds of the heuristic's play-outs (b) of a Prise taken by the seat, their number
    while time.time() - t0 < a.minutes * 60 and len(rows) < a.prises:
        st = TarotState(PRESETS["cardavia"], seed=a.seed, deal_id=deal_id)
        deal_id += 1
        bid_all(st, h)
        if st.is_terminal():
            continue
        bids = st.bids()
        counts = [count_of(st, s, h.params) for s in range(st.seats)]
        s = prise_seat(bids, counts, a.prise, a.marginal)
        check = s < 0 and st.contract == 1 and a.marginal <= counts[st.taker] < a.hi + 1e-9
        if s < 0 and not check:
            continue
        if check:
            s = st.taker
        row = {"deal": deal_id - 1, "seat": s, "count": counts[s], "marginal": not check,
               "taker": st.taker, "contract": st.contract}
        if not check:
            sa = TarotState(PRESETS["cardavia"], seed=a.seed, deal_id=deal_id - 1)
            play_to_end(sa, h_base)
            row.update(score_a=sa.scores()[s], passed_a=sa.taker < 0)
        sp = copy.deepcopy(st)
        c0 = time.process_time()
        dh = play_to_end(st, h)
        if st.taker == s:
            cpu_h[0] += time.process_time() - c0
            cpu_h[1] += 1
        dp = play_to_end(sp, h, pimc_discard if sp.taker == s else None)
        row.update(score_b=st.scores()[s], score_c=sp.scores()[s], won_b=st.won, won_c=sp.won,
                   same=sorted(dh) == sorted(dp))
        rows.append(row)
        if len(rows) % 50 == 0:
            print(f"{deal_id} deals, {len(rows)} Prises, {time.time() - t0:.0f} s", file=sys.stderr)
    report_marginal(rows, a, deal_id, time.time() - t0, clock, cpu_h)
    save(rows, a.out)


def paired(label, x):
    """A mean of paired differences with its 95 % t interval (``stats.mean_ci``) and n."""
    if len(x) < 2:
        print(f"  {label:44s} n={len(x)}")
        return
    e = mean_ci(x)
    print(f"  {label:44s} {e.value:+7.2f} [{e.lo:+.2f}, {e.hi:+.2f}]  n={len(x)}")


def report_marginal(rows, a, deals, secs, clock, cpu_h):
    mg = [r for r in rows if r["marginal"]]
    ck = [r for r in rows if not r["marginal"]]
    print(f"seed {a.seed}: {deals} deals ({secs:.0f} s); {len(mg)} Prises bid by a seat with a count in "
          f"[{a.prise}, {a.marginal}), {len(ck)} Prises with counts {a.marginal} to {a.hi}")
    print(f"the bidding seat's score, (a) the Prise from {a.marginal}, (b) taken with the heuristic's discard, "
          f"(c) with pimc's:")
    paired("(b) - (a)", [r["score_b"] - r["score_a"] for r in mg])
    paired("(c) - (a)", [r["score_c"] - r["score_a"] for r in mg])
    paired("(c) - (b)", [r["score_c"] - r["score_b"] for r in mg])
    took = [r for r in mg if r["taker"] == r["seat"]]
    paired("(c) - (b), the seat the taker (no overbid)", [r["score_c"] - r["score_b"] for r in took])
    print(f"  (a) all passed: {sum(r['passed_a'] for r in mg)} of {len(mg)}; overbid in (b) and (c): "
          f"{len(mg) - len(took)}; Prises made by the seat (b) / (c): {sum(r['won_b'] for r in took)} / "
          f"{sum(r['won_c'] for r in took)} of {len(took)}; discards differ in {sum(not r['same'] for r in took)}")
    paired(f"check, counts {a.marginal} to {a.hi}: (c) - (b)", [r["score_c"] - r["score_b"] for r in ck])
    print(f"  Prises made (b) / (c): {sum(r['won_b'] for r in ck)} / {sum(r['won_c'] for r in ck)} of {len(ck)}")
    print(f"CPU: pimc's discard {clock[0] / max(clock[1], 1) * 6:.3f} s a discard of 6 cards ({clock[1]} cards "
          f"searched, {clock[0]:.0f} s); the heuristic's play-out of a Prise deal from the bids "
          f"{cpu_h[0] / max(cpu_h[1], 1) * 1e3:.2f} ms ({cpu_h[1]} deals)")


def report(rows, a, deals, secs):
    n = len(rows)
    diff = [r for r in rows if not r["same"]]
    print(f"seed {a.seed}: {deals} deals, {n} Prises with counts {a.lo}-{a.hi} ({secs:.0f} s)")
    print(f"discards differ in {len(diff)} of {n} ({len(diff) / max(n, 1):.0%})")
    print("the taker's paired gain with pimc's discard:")
    paired("a moderate Prise", [r["score_p"] - r["score_h"] for r in rows])
    paired("a Prise where the discards differ", [r["score_p"] - r["score_h"] for r in diff])
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
