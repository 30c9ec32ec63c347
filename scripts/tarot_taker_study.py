"""Issue #29, the twelfth pass: the taker's middle and late card play in moderate Prises, pimc as the oracle.

Heuristic self-play (four players, cardavia) with the Prise threshold lowered (``--prise``); in the deals bid Prise
with a hand count (the dealt hand, before the chien) in [``--lo``, ``--hi``], at every decision of the taker from
trick ``--from-trick`` (1-based) on with more than one legal card, the heuristic's card is compared with the one
``pimc:bids=0,discard=0,call=0`` chooses from the same position (the deal then goes on with the heuristic's card).
Writes one row a decision (CSV) and prints how the differing ones split by kind.

The twelfth pass's study (docs/tarot-evidence.md, TWELFTH_PASS in scripts/tarot_evidence.py): seed 1018 with the
heuristic before the pass (main at 2564056: pimc's play-outs play the default heuristic, so the player before needs
its own tree), seed 1020 after it. The thirteenth pass (seed 1021, 12,000 decisions) classified the two patterns left
(``classify``, also on a CSV written before: ``--classify``): the taker's ruffs of a suit trick where pimc trumps higher,
by seats still to play after the taker, a defender after it shown void in the suit (still holding trumps: it may
overtrump) and the trick's points; the leads where the heuristic leads low under its own master of the suit, by the
master's rank, where pimc leads the master. Usage::

    nice python scripts/tarot_taker_study.py --seed 1018 --decisions 3000 --out /tmp/study.csv
    python scripts/tarot_taker_study.py --classify /tmp/study.csv
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, HALF_POINTS, PETIT  # noqa: E402
from tricksim.simulator.games.tarot.policy import (  # noqa: E402
    V_LED_SUIT,
    V_NPLAYED,
    V_PLAYED_S,
    V_CHIEN_S,
    V_CHIEN_T,
    V_DISCARD_T,
    V_PLAYED_T,
    V_TRICK,
    V_TRICK_NO,
    V_VOIDS,
    V_WINNING_CARD,
)
from tricksim.simulator.games.tarot.rules import PRESETS  # noqa: E402
from tricksim.simulator.games.tarot.state import Phase, TarotState, card_ids  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402


def _trump_rank(c):
    return c - FIRST_TRUMP + 1


def kind(c, legal, hand, view, unseen_t, leading):
    """A short description of card ``c`` among the ``legal`` cards."""
    if c == EXCUSE:
        return "excuse"
    if c >= FIRST_TRUMP:
        lt = sorted(x for x in legal if FIRST_TRUMP <= x < EXCUSE)
        master = not any(_trump_rank(u) > _trump_rank(c) for u in unseen_t)
        pos = "lowest" if c == lt[0] else "highest" if c == lt[-1] else "middle"
        if c == PETIT:
            pos = "petit"
        return f"trump-{pos}{'-master' if master else ''}"
    s = c // 14
    suit = sorted(x for x in hand if x < FIRST_TRUMP and x // 14 == s)
    played_s = int(view[V_PLAYED_S])
    out = [x for x in range(s * 14, s * 14 + 14) if x not in hand and not (played_s >> x) & 1]
    master = not any(x > c for x in out)
    pos = "lowest" if c == suit[0] else "highest" if c == suit[-1] else "middle"
    honour = "K" if c % 14 == 13 else "Q" if c % 14 == 12 else "C" if c % 14 == 11 else "J" if c % 14 == 10 else "low"
    tag = f"suit{len(suit)}-{pos}-{honour}{'-master' if master else ''}"
    if not leading:
        led = int(view[V_LED_SUIT])
        tag = ("follow-" if led == s else "discard-") + tag
    return tag


def ruff_row(r):
    """For a taker's decision following a trick (a CSV row): the suit led (4: trumps), the seats still to play after
    the taker, and whether one of them has shown a void in the suit led while not out of trumps."""
    trick = [int(c) for c in r["trick_cards"].split("/")]
    n = int(r["nplayed"])
    taker = next(s for s in range(4) if trick[s] < 0 and all(trick[(s - k) % 4] >= 0 for k in range(1, n + 1)))
    first = trick[(taker - n) % 4]
    if first == EXCUSE and n > 1:
        first = trick[(taker - n + 1) % 4]
    led = 4 if first >= FIRST_TRUMP else first // 14
    voids = [int(v) for v in r["voids"].split("/")]  # the seats after the taker, in order
    void_after = led < 4 and any((voids[i] >> led) & 1 and not (voids[i] >> 4) & 1 for i in range(3 - n))
    return led, 3 - n, void_after


def classify(rows):
    """Print where pimc ruffs higher than the heuristic and where it leads the master the heuristic leads under."""
    ruffs = []
    for r in rows:
        if r["leading"] in (True, "True") or not FIRST_TRUMP <= int(r["h"]) < EXCUSE:
            continue
        led, after, void_after = ruff_row(r)
        if led < 4:
            higher = FIRST_TRUMP <= int(r["p"]) < EXCUSE and int(r["p"]) > int(r["h"])
            ruffs.append((after, void_after, int(r["pts"]), higher))
    print(f"\nruffs of a suit trick: {len(ruffs)}, pimc trumps higher in {sum(x[3] for x in ruffs)}")
    for name, key in (("seats after the taker", lambda x: x[0]), ("a defender after shown void (may overtrump)",
                      lambda x: x[1]), ("trick half-points <= 1", lambda x: x[2] <= 1),
                      ("void after, <= 1 half-point, two seats after", lambda x: x[1] and x[2] <= 1 and x[0] == 2)):
        for k, group in sorted(Counter(key(x) for x in ruffs).items()):
            hi = sum(x[3] for x in ruffs if key(x) == k)
            print(f"  {name} {k}: {hi} of {group} higher ({hi / group:.0%})")
    under = Counter()
    master = Counter()
    for r in rows:
        h = int(r["h"])
        if r["leading"] not in (True, "True") or h >= FIRST_TRUMP:
            continue
        s, hand, gone = h // 14, int(r["suits"]), int(r["played_s"]) | int(r["chien_s"])
        top = max(c for c in range(s * 14, s * 14 + 14) if (hand >> c) & 1)
        out = [c for c in range(s * 14, s * 14 + 14) if not (hand >> c) & 1 and not (gone >> c) & 1]
        if top != h and not any(c > top for c in out):
            under[top % 14] += 1
            master[top % 14] += int(r["p"]) == top
    print(f"\nleads low under the taker's own master of the suit: {sum(under.values())}, pimc leads the master in "
          f"{sum(master.values())}")
    for rank in sorted(under):
        print(f"  master of rank {rank + 1} (11 jack, 12 knight, 13 queen, 14 king): {master[rank]} of {under[rank]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1018)
    ap.add_argument("--decisions", type=int, default=600, help="stop after this many compared decisions")
    ap.add_argument("--prise", type=float, default=70.0)
    ap.add_argument("--lo", type=float, default=70.0)
    ap.add_argument("--hi", type=float, default=76.0)
    ap.add_argument("--from-trick", type=int, default=4)
    ap.add_argument("--pimc", default="pimc:bids=0,discard=0,call=0")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--classify", type=Path, help="only classify the decisions of a CSV this script wrote")
    a = ap.parse_args()
    if a.classify:
        import pandas as pd

        classify(pd.read_csv(a.classify).to_dict("records"))
        return
    from tricksim.strategies.tarot import heuristic as H
    from tricksim.strategies.tarot import pimc

    h = parse_spec(f"heuristic:prise_threshold={a.prise}", "tarot")
    pp = parse_spec(a.pimc, "tarot").params
    stats = np.zeros(3, np.int64)
    rows = []
    deal_id = prises = 0
    t0 = time.time()
    while len(rows) < a.decisions:
        st = TarotState(PRESETS["cardavia"], seed=a.seed, deal_id=deal_id)
        deal_id += 1
        count = None
        while not st.is_terminal():
            s = st.current_player()
            if count is None and st.phase != Phase.BID:
                if st.contract != 1:
                    break
                t = st.taker
                count = float(H.hand_points(st.dealt[0][t], st.dealt[1][t], h.params))
                if not a.lo <= count < a.hi + 1e-9:
                    break
                prises += 1
            act = st.policy_action(h)
            if (st.phase == Phase.PLAY and s == st.taker and st.view[V_TRICK_NO] + 1 >= a.from_trick
                    and len(st.legal_actions()) > 1):
                ob = st.observation(s)
                view = ob.view
                p_card = int(pimc.search_card(np.int64(s), np.int64(ob.suits), np.int64(ob.trumps), *st.legal_words,
                                              view, pp, st.streams[s].copy(), stats))
                legal = st.legal_actions()
                hand = card_ids(ob.suits, ob.trumps)
                played_t = int(view[V_PLAYED_T])
                unseen_t = [c for c in range(FIRST_TRUMP, EXCUSE) if c not in hand
                            and not (played_t >> (c - FIRST_TRUMP)) & 1
                            and not (int(view[V_DISCARD_T]) >> (c - FIRST_TRUMP)) & 1]
                leading = int(view[V_NPLAYED]) == 0 or int(view[V_LED_SUIT]) < 0
                pts = sum(int(HALF_POINTS[c]) for c in view[V_TRICK:V_TRICK + 4] if 0 <= c != EXCUSE)
                rows.append({
                    "deal": deal_id - 1, "count": count, "trick": int(view[V_TRICK_NO]) + 1,
                    "nplayed": int(view[V_NPLAYED]), "leading": leading, "h": int(act), "p": p_card,
                    "h_kind": kind(int(act), legal, hand, view, unseen_t, leading),
                    "p_kind": kind(p_card, legal, hand, view, unseen_t, leading),
                    "n_trumps": sum(1 for c in hand if FIRST_TRUMP <= c < EXCUSE), "trumps_out": len(unseen_t),
                    "win_card": int(view[V_WINNING_CARD]), "n_legal": len(legal), "pts": pts,
                    "suits": int(ob.suits), "trumps": int(ob.trumps), "played_s": int(view[V_PLAYED_S]),
                    "played_t": played_t, "chien_s": int(view[V_CHIEN_S]), "chien_t": int(view[V_CHIEN_T]),
                    "voids": "/".join(str(int(view[V_VOIDS + (s + i) % 4])) for i in range(1, 4)),
                    "trick_cards": "/".join(str(int(c)) for c in view[V_TRICK:V_TRICK + 4])})
            st.apply(act)
        if deal_id % 200 == 0:
            print(f"{deal_id} deals, {prises} moderate Prises, {len(rows)} decisions, {time.time() - t0:.0f} s",
                  file=sys.stderr)
    diff = [r for r in rows if r["h"] != r["p"]]
    print(f"seed {a.seed}: {deal_id} deals, {prises} Prises with counts {a.lo}-{a.hi}, {len(rows)} taker decisions "
          f"from trick {a.from_trick}, {len(diff)} differ ({time.time() - t0:.0f} s)")
    for lead in (True, False):
        sub = [r for r in diff if r["leading"] == lead]
        print(f"\n{'leading' if lead else 'following'}: {len(sub)} differ of "
              f"{sum(1 for r in rows if r['leading'] == lead)}")
        for (hk, pk), n in Counter((r["h_kind"], r["p_kind"]) for r in sub).most_common(25):
            print(f"  {n:4d}  heuristic {hk:34s} pimc {pk}")
    classify(rows)
    if a.out:
        import pandas as pd

        pd.DataFrame(rows).to_csv(a.out, index=False)


if __name__ == "__main__":
    main()
