"""Helpers: hand-built tricksim run directories with known answers.

``write_run`` writes a manifest plus ``hands/*.parquet`` (and ``games/*.parquet``)
from plain column dicts, optionally split over several files. ``fake_games``
plays a tiny, deliberately naive stand-in for the engine — random deals,
random bids and tricks, RULES.md 1.4 scoring with carry/reset bags — so the
report and summary see internally consistent games. It is a test fixture,
not a model of real play.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

HAND_TYPES = {
    "game_id": pa.int64(), "hand_no": pa.int16(), "dealer": pa.int8(), "first_leader": pa.int8(),
    **{f"dealt_{s}": pa.int64() for s in range(4)}, **{f"held_{s}": pa.int64() for s in range(4)},
    **{f"bid_{s}": pa.int8() for s in range(4)}, **{f"blind_{s}": pa.bool_() for s in range(4)},
    **{f"tricks_{s}": pa.int8() for s in range(4)},
    "score_0": pa.int16(), "score_1": pa.int16(), "bags_0": pa.int8(), "bags_1": pa.int8(),
    "total_0": pa.int32(), "total_1": pa.int32(),
}
GAME_TYPES = {"game_id": pa.int64(), "hands": pa.int16(), "total_0": pa.int32(), "total_1": pa.int32(),
              "winner": pa.int8(), "end": pa.string()}


def _table(cols: dict, types: dict) -> pa.Table:
    arrays, names = [], []
    for k, v in cols.items():
        arrays.append(pa.array(np.asarray(v) if not isinstance(v, list) else v, type=types.get(k)))
        names.append(k)
    return pa.Table.from_arrays(arrays, names=names)


def write_run(path: Path, hands: dict, games: dict | None = None, *, mode: str | None = None,
              n_files: int = 1, manifest: dict | None = None) -> Path:
    """Write a run directory; returns its path."""
    path = Path(path)
    (path / "hands").mkdir(parents=True, exist_ok=True)
    mode = mode or ("games" if games is not None else "hands")
    n = len(next(iter(hands.values())))
    m = {
        "version": "0.1.0", "game": "spades", "mode": mode, "preset": "cardems",
        "rules": {"bag_overflow": "carry", "bag_limit": 10, "nil_tricks": "bags", "nil_bags_when_set": True},
        "seats": ["random", "simple", "random", "simple"], "seed": 1, "count": n,
        "hand_limit": 200, "status": "complete",
    }
    m.update(manifest or {})
    (path / "manifest.json").write_text(json.dumps(m))
    table = _table(hands, HAND_TYPES)
    bounds = np.linspace(0, n, n_files + 1).astype(int)
    for i in range(n_files):
        pq.write_table(table.slice(bounds[i], bounds[i + 1] - bounds[i]), path / "hands" / f"part-{i:05d}.parquet")
    if games is not None:
        (path / "games").mkdir(exist_ok=True)
        games = {k: v for k, v in games.items() if not k.startswith("_")}  # test-only truth columns
        pq.write_table(_table(games, GAME_TYPES), path / "games" / "part-00000.parquet")
    return path


def hands_columns(n: int, **over) -> dict:
    """A minimal all-columns hands dict of n rows (independent hands, zeros), with overrides."""
    cols = {k: np.zeros(n, dtype=t.to_pandas_dtype()) for k, t in HAND_TYPES.items()}
    cols["game_id"] = np.arange(n, dtype=np.int64)
    cols["dealer"] = (np.arange(n) % 4).astype(np.int8)
    for s in range(4):
        cols[f"bid_{s}"] = np.full(n, 3, np.int8)
        cols[f"tricks_{s}"] = np.full(n, 3, np.int8)
    cols["tricks_0"] = np.full(n, 4, np.int8)  # 4+3+3+3 = 13
    cols.update(over)
    return cols


def alone_columns(hands: list, totals: dict, seats: int, tricks: int, winners, ends) -> tuple[dict, dict]:
    """Hand and game columns of a hand-built run whose ``seats`` players are each alone: ``hands`` holds
    (game, hand, bids, tricks, the hand's scores, the running bags after it) seat by seat, ``tricks`` tricks a hand;
    the running totals must come to ``totals`` (game -> totals); ``winners`` and ``ends`` a game each."""
    cols = {k: [] for k in ["game_id", "hand_no", "dealer", "first_leader"]}
    for c in ("dealt", "held", "bid", "blind", "tricks", "score", "bags", "total"):
        cols.update({f"{c}_{s}": [] for s in range(seats)})
    running = {}
    for g, h, bids, taken, scores, bags in hands:
        assert sum(taken) == tricks
        tot = running.setdefault(g, [0] * seats)
        cols["game_id"].append(g)
        cols["hand_no"].append(h)
        cols["dealer"].append(h % seats)
        cols["first_leader"].append((h + 1) % seats)
        for s in range(seats):
            tot[s] += scores[s]
            for c, v in (("dealt", 0), ("held", 0), ("bid", bids[s]), ("blind", False), ("tricks", taken[s]),
                         ("score", scores[s]), ("bags", bags[s]), ("total", tot[s])):
                cols[f"{c}_{s}"].append(v)
    assert {g: tuple(t) for g, t in running.items()} == totals
    columns = {k: np.asarray(v) for k, v in cols.items()}
    for s in range(2, seats):  # HAND_TYPES types the columns of seats 0 and 1 only
        columns[f"score_{s}"] = columns[f"score_{s}"].astype(np.int16)
        columns[f"bags_{s}"] = columns[f"bags_{s}"].astype(np.int8)
        columns[f"total_{s}"] = columns[f"total_{s}"].astype(np.int32)
    games = {"game_id": np.arange(len(totals)), "hands": np.array([cols["game_id"].count(g) for g in totals]),
             **{f"total_{s}": np.array([totals[g][s] for g in totals], np.int32) for s in range(seats)},
             "winner": np.array(winners), "end": list(ends)}
    return columns, games


def row(df, kind, group):
    """The one row of a study's table for ``kind`` and ``group``."""
    r = df[(df["kind"] == kind) & (df["group"] == group)]
    assert len(r) == 1, (kind, group, df)
    return r.iloc[0]


def score_team(bids, tricks, blinds, bags_before, rules):
    """RULES.md 1.4 for one team (two seats); returns (points, bags_after, penalties, bags_taken)."""
    k = sum(t for b, t in zip(bids, tricks) if b != 0)
    n = sum(t for b, t in zip(bids, tricks) if b == 0)
    c = sum(bids)
    if k >= c:
        points, bags = 10 * c + (k - c), (k - c) + n
    else:
        points, bags = -10 * c, n
    points += n
    for b, t, bl in zip(bids, tricks, blinds):
        if b == 0:
            v = 200 if bl else 100
            points += v if t == 0 else -v
    running = bags_before + bags
    pens = 0
    if rules.get("bag_overflow", "carry") == "reset":
        if running >= 10:
            points -= 100
            running = 0
            pens = 1
    else:
        while running >= 10:
            points -= 100
            running -= 10
            pens += 1
    return points, running, pens, bags


def fake_games(n_games: int, seed: int = 0, rules: dict | None = None, target: int = 200, hand_no_base: int = 0,
               fresh: bool = False):
    """Play ``n_games`` naive random games; returns (hands dict, games dict).

    ``fresh=True``: every game is a single independent hand (hands mode).
    """
    rules = rules or {"bag_overflow": "carry"}
    rng = np.random.default_rng(seed)
    H = {k: [] for k in HAND_TYPES}
    G = {k: [] for k in GAME_TYPES}
    for g in range(n_games):
        tot, bags, pens, taken = [0, 0], [0, 0], [0, 0], [0, 0]
        h = 0
        while True:
            deck = rng.permutation(52)
            held = [sum(1 << int(c) for c in deck[13 * s: 13 * s + 13]) for s in range(4)]
            bids = [int(rng.integers(0, 6)) if rng.random() < 0.85 else 0 for _ in range(4)]
            blinds = [bool(b == 0 and rng.random() < 0.3) for b in bids]
            cuts = np.sort(rng.integers(0, 14, 3))
            tricks = [int(cuts[0]), int(cuts[1] - cuts[0]), int(cuts[2] - cuts[1]), int(13 - cuts[2])]
            scores = []
            for t in (0, 1):
                p, bags[t], pn, tk = score_team([bids[t], bids[t + 2]], [tricks[t], tricks[t + 2]],
                                                [blinds[t], blinds[t + 2]], bags[t], rules)
                pens[t] += pn
                taken[t] += tk
                tot[t] += p
                scores.append(p)
            row = dict(game_id=g, hand_no=h + hand_no_base, dealer=h % 4, first_leader=(h + 1) % 4,
                       score_0=scores[0], score_1=scores[1], bags_0=bags[0], bags_1=bags[1],
                       total_0=tot[0], total_1=tot[1])
            for s in range(4):
                row.update({f"dealt_{s}": held[s], f"held_{s}": held[s], f"bid_{s}": bids[s],
                            f"blind_{s}": blinds[s], f"tricks_{s}": tricks[s]})
            for k, v in row.items():
                H[k].append(v)
            h += 1
            end = None
            if fresh:
                end = "fresh"
            elif max(tot) >= target and tot[0] != tot[1]:
                end = "target"
            elif h >= 60:
                end = "limit"
            if end:
                winner = -1 if tot[0] == tot[1] else int(tot[1] > tot[0])
                for k, v in dict(game_id=g, hands=h, total_0=tot[0], total_1=tot[1], winner=winner, end=end,
                                 _pen_0=pens[0], _pen_1=pens[1], _bags_0=taken[0], _bags_1=taken[1]).items():
                    G.setdefault(k, []).append(v)
                break
    return ({k: np.array(v) for k, v in H.items()},
            {k: (np.array(v) if k != "end" else v) for k, v in G.items()})


# ------------------------------------------------------------------ reference figures, computed another way
Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval, written out from its formula (k may be fractional: k = p·n_eff)."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if k <= 0 else max(0.0, centre - half)), (1.0 if k >= n else min(1.0, centre + half))


def clustered(cluster, y, n=None, kind: str = "rate", conf: float = 0.95) -> dict:
    """Reference for a rate or mean over clustered observations, by pandas groupby (per-cluster sums), the
    ratio-estimator variance G/(G-1)·Σ(y_g − r n_g)²/(Σn)² and: for a mean, r ± t(G−1)·SE; for a rate, the
    Wilson interval at n/deff (deff floored at 1; n_eff = clusters holding observations when r is 0 or 1;
    plain Wilson when no cluster holds two observations)."""
    from tricksim.analysis.stats import t_quantile  # checked against printed t tables in test_analysis_stats

    df = pd.DataFrame({"g": np.asarray(cluster), "y": np.asarray(y, dtype=np.int64),
                       "n": np.ones(len(y), np.int64) if n is None else np.asarray(n, dtype=np.int64)})
    per = df.groupby("g")[["y", "n"]].sum()
    G, Y, N = len(per), int(per["y"].sum()), int(per["n"].sum())
    r = Y / N
    var = G / (G - 1) * float(((per["y"] - r * per["n"]) ** 2).sum()) / N ** 2 if G > 1 else math.nan
    out = {"value": r, "n": N, "k": Y, "clusters": G, "var": var}
    if kind == "mean":
        half = t_quantile(conf, G - 1) * math.sqrt(var)
        out.update(lo=r - half, hi=r + half)
        return out
    if per["n"].max() <= 1:
        n_eff = N
    elif 0 < r < 1 and G > 1:
        n_eff = N / max(1.0, var / (r * (1 - r) / N))
    else:
        n_eff = int((per["n"] > 0).sum())
    out["n_eff"] = n_eff
    out["lo"], out["hi"] = wilson(r * n_eff, n_eff)
    return out
