"""Nil and Blind Nil study: how often seats bid Nil and how often it succeeds.

One observation per seat-hand. A Nil bid is ``bid == 0``; it is a Blind Nil
when ``blind`` is set; it succeeds when the seat took no trick. Results can
be split by a hand feature (of the *held* hand, i.e. after any Blind Nil
exchange, unless ``hand='dealt'``), by seat or bidding position, by the
score situation before the hand, or by run properties (preset, strategy of
the seat, run).

Counts are accumulated batch by batch (group counts summed across batches
and runs), so memory stays bounded whatever the run size. Every rate comes
with its 95 % Wilson interval and its n.

Entry points: :func:`nil_study` (DataFrame), :func:`format_nil_table`
(text), :func:`save_table`, :func:`plot_nil` (onto an ``ax``) and
:func:`save_nil_chart` (PNG/SVG file).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from . import features as F
from .io import DEFAULT_BATCH_ROWS, AnalysisError, Run, atomic_output, batch_arrays, open_runs, pooling_notes
from .parallel import Engine, merge
from .stats import fmt_int, fmt_rate, wilson_interval

__all__ = ["FEATURES", "KINDS", "nil_study", "nil_report", "format_nil_table", "save_table", "plot_nil",
           "save_nil_chart"]

#: grouping options for ``--by``
FEATURES = (
    "spades",      # number of spades held (jokers included)
    "high_spade",  # highest spade: none, 2 .. A, LJ, BJ
    "honours",     # aces + kings + queens held
    "shortest",    # length of the shortest side suit
    "longest",     # length of the longest suit
    "void",        # holds a void
    "seat",        # seat 0..3
    "position",    # bidding order: 1st (left of dealer) .. 4th (dealer)
    "score",       # score situation before the hand (behind ≥100 / close / ahead ≥100)
    "preset",      # the run's rule preset
    "strategy",    # the seat's strategy spec from the manifest
    "run",         # the run directory
)
KINDS = ("Nil", "Blind Nil")
_HAND_FEATURES = ("spades", "high_spade", "honours", "shortest", "longest", "void")
_POSITION_LABELS = ("1st", "2nd", "3rd", "4th (dealer)")


def _needed_columns(run: Run, by: str | None, hand: str) -> list[str]:
    cols = [f"bid_{s}" for s in range(4)] + [f"tricks_{s}" for s in range(4)]
    if run.has_columns("hands", [f"blind_{s}" for s in range(4)]):
        cols += [f"blind_{s}" for s in range(4)]
    if by in _HAND_FEATURES:
        cols += [f"{hand}_{s}" for s in range(4)]
    elif by == "position":
        cols += ["dealer"]
    elif by == "score":
        cols += ["total_0", "total_1", "score_0", "score_1"]
    return cols


def _seat_keys(a: dict, run: Run, seat: int, by: str | None, hand: str, margin: int):
    """Group key per row for one seat: an integer code (an array) for hand and table features, the label
    itself (a string) for the run's own properties."""
    if by is None:
        return 0
    if by in _HAND_FEATURES:
        held = a[f"{hand}_{seat}"]
        if by == "spades":
            return F.spade_count(held)
        if by == "high_spade":
            return F.high_spade(held)
        if by == "honours":
            return F.honours(held)
        if by == "shortest":
            return F.shortest_side(held)
        if by == "longest":
            return F.longest_suit(held)
        return F.has_void(held)
    if by == "seat":
        return seat
    if by == "position":
        return F.bid_position(np.full(len(a[f"bid_{seat}"]), seat), a["dealer"])
    if by == "score":
        t, o = seat % 2, 1 - seat % 2
        lead = F.score_lead_before(a[f"total_{t}"], a[f"score_{t}"], a[f"total_{o}"], a[f"score_{o}"])
        return F.score_bucket(lead, margin)
    if by == "preset":
        return run.preset
    if by == "strategy":
        return run.seats[seat]
    if by == "run":
        return str(run.path)
    raise AnalysisError(f"unknown grouping {by!r}: allowed {', '.join(FEATURES)}")


def _group_label(by: str | None, key, margin: int) -> str:
    if by is None:
        return "all"
    if isinstance(key, str):
        return key
    if by == "high_spade":
        return F.high_spade_label(key)
    if by == "void":
        return "void" if key else "no void"
    if by == "seat":
        return f"seat {key}"
    if by == "position":
        return _POSITION_LABELS[key]
    if by == "score":
        return F.score_bucket_labels(margin)[key]
    return str(key)


def _add_counts(store: dict, keys: np.ndarray, weights: np.ndarray | None = None, kind: int | None = None) -> None:
    """store[key] (or store[(key, kind)]) += count (or sum of weights) for each distinct key — no per-row loop."""
    if keys.size == 0:
        return
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.bincount(inv.ravel(), weights=weights, minlength=uniq.size)
    for k, c in zip(uniq.tolist(), sums.tolist()):
        k = k if kind is None else (k, kind)
        store[k] = store.get(k, 0) + int(round(c))


def nil_counts(run: Run, by: str | None = None, *, hand: str = "held", score_margin: int = 100,
               batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """The counts behind :func:`nil_study` for one run (or some of its shards): ``seat_hands`` {group: n},
    ``bids`` and ``successes`` {(group, kind): n}, kind 0 = Nil, 1 = Blind Nil. Counts of parts add up."""
    opp: dict = {}
    bids: dict = {}
    succ: dict = {}
    cols = _needed_columns(run, by, hand)
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        n = batch.num_rows
        for s in range(4):
            keys = _seat_keys(a, run, s, by, hand, score_margin)
            label = keys if isinstance(keys, str) else None  # one group for the whole run
            if label is not None:
                opp[label] = opp.get(label, 0) + n
            else:
                keys = np.broadcast_to(np.asarray(keys, dtype=np.int64), (n,))
                _add_counts(opp, keys)
            nil = a[f"bid_{s}"] == 0
            if not nil.any():
                continue
            if f"blind_{s}" in a:
                blind = a[f"blind_{s}"][nil].astype(np.int64)
            else:
                blind = np.zeros(int(nil.sum()), np.int64)
            ok = (a[f"tricks_{s}"][nil] == 0).astype(np.float64)
            for kind in (0, 1):
                sel = blind == kind
                if not sel.any():
                    continue
                if label is not None:
                    bids[(label, kind)] = bids.get((label, kind), 0) + int(sel.sum())
                    succ[(label, kind)] = succ.get((label, kind), 0) + int(ok[sel].sum())
                else:
                    _add_counts(bids, keys[nil][sel], kind=kind)
                    _add_counts(succ, keys[nil][sel], weights=ok[sel], kind=kind)
    return {"seat_hands": opp, "bids": bids, "successes": succ}


def nil_study(
    runs,
    by: str | None = None,
    *,
    hand: str = "held",
    score_margin: int = 100,
    conf: float = 0.95,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    engine: str = "local",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Nil and Blind Nil bid and success rates over one or more runs.

    Parameters
    ----------
    runs : a run directory, a :class:`~tricksim.analysis.io.Run`, or a list of them.
    by : None (overall) or one of :data:`FEATURES`.
    hand : ``'held'`` (after any Blind Nil exchange) or ``'dealt'`` for hand features.
    score_margin : threshold of the ``score`` buckets (default ±100).
    engine, scheduler : ``'dask'``: the files are read and counted on Dask workers (the same table).

    Returns a DataFrame, one row per (kind, group) with at least one bid
    (plus groups without bids of a kind that has bids elsewhere), columns:
    ``kind`` ('Nil' | 'Blind Nil'), ``group`` (label), ``code`` (sort key),
    ``seat_hands`` (observations in the group), ``bids``, ``bid_rate``,
    ``bid_lo``, ``bid_hi``, ``successes``, ``rate``, ``lo``, ``hi``.
    ``df.attrs`` records ``by``, ``runs``, ``conf`` and ``hand``.
    """
    if by is not None and by not in FEATURES:
        raise AnalysisError(f"unknown grouping {by!r}: allowed {', '.join(FEATURES)}")
    if hand not in ("held", "dealt"):
        raise AnalysisError(f"hand must be 'held' or 'dealt', got {hand!r}")
    runs = open_runs(runs)
    count = partial(nil_counts, by=by, hand=hand, score_margin=score_margin, batch_rows=batch_rows)
    with Engine(engine, scheduler) as e:
        c = merge([e.map_run(count, run) for run in runs])
    opp, bids, succ = c["seat_hands"], c["bids"], c["successes"]
    # run-level groups are labels, numbered in the order the runs were given
    codes = {key: (i if isinstance(key, str) else key) for i, key in enumerate(opp)}
    rows = []
    kinds_present = sorted({kind for _, kind in bids})
    for kind in kinds_present:
        for key in sorted(opp, key=codes.get):
            rows.append(
                {
                    "kind": KINDS[kind],
                    "group": _group_label(by, key, score_margin),
                    "code": codes[key],
                    "seat_hands": opp[key],
                    "bids": bids.get((key, kind), 0),
                    "successes": succ.get((key, kind), 0),
                }
            )
    cols = ["kind", "group", "code", "seat_hands", "bids", "bid_rate", "bid_lo", "bid_hi",
            "successes", "rate", "lo", "hi"]
    df = pd.DataFrame(rows, columns=[c for c in cols if c not in ("bid_rate", "bid_lo", "bid_hi", "rate", "lo", "hi")])
    if len(df):
        with np.errstate(divide="ignore", invalid="ignore"):
            df["bid_rate"] = df["bids"] / df["seat_hands"]
            df["rate"] = np.where(df["bids"] > 0, df["successes"] / df["bids"].where(df["bids"] > 0, 1), np.nan)
        df["bid_lo"], df["bid_hi"] = wilson_interval(df["bids"].to_numpy(), df["seat_hands"].to_numpy(), conf)
        df["lo"], df["hi"] = wilson_interval(df["successes"].to_numpy(), df["bids"].to_numpy(), conf)
    else:
        for c in ("bid_rate", "bid_lo", "bid_hi", "rate", "lo", "hi"):
            df[c] = pd.Series(dtype=float)
    df = df[cols]
    df.attrs.update(by=by, runs=[str(r.path) for r in runs], conf=conf, hand=hand,
                    seat_hands=int(sum(opp.values())))
    return df


def format_nil_table(df: pd.DataFrame) -> str:
    """Plain-text table of a :func:`nil_study` result, each rate with its interval and n."""
    by = df.attrs.get("by")
    conf = df.attrs.get("conf", 0.95)
    head = f"Nil study ({int(round(conf * 100))} % Wilson intervals; held-hand features)" if by in _HAND_FEATURES else \
        f"Nil study ({int(round(conf * 100))} % Wilson intervals)"
    if by and df.attrs.get("hand") == "dealt":
        head = head.replace("held-hand", "dealt-hand")
    lines = [head]
    if not len(df):
        total = df.attrs.get("seat_hands", 0)
        lines.append(f"no Nil bids in {fmt_int(total)} seat-hands")
        return "\n".join(lines)
    gw = max(len(by or "group"), *(len(str(g)) for g in df["group"]))
    lines.append(f"{'kind':<10} {(by or 'group'):<{gw}}  {'bid rate':<34} success rate")
    for r in df.itertuples():
        bid = fmt_rate(r.bids, r.seat_hands, conf)
        ok = fmt_rate(r.successes, r.bids, conf)
        lines.append(f"{r.kind:<10} {str(r.group):<{gw}}  {bid:<34} {ok}")
    return "\n".join(lines)


def save_table(df: pd.DataFrame, path) -> Path:
    """Write a result table to ``.csv`` or ``.parquet`` (by the file suffix)."""
    p = Path(path)
    suffix = p.suffix.lower()
    p.parent.mkdir(parents=True, exist_ok=True)
    if suffix not in (".csv", ".parquet", ".pq"):
        raise AnalysisError(f"{p}: unsupported table format {suffix or '(none)'!r}: use .csv or .parquet")
    with atomic_output(p) as tmp:
        if suffix == ".csv":
            df.to_csv(tmp, index=False)
        else:
            out = df.copy()
            out.attrs = {}
            out.to_parquet(tmp, index=False)
    return p


def plot_nil(ax, df: pd.DataFrame, *, min_bids: int = 1, title: str | None = None) -> pd.DataFrame:
    """Bar chart of success rates per group with Wilson error bars onto ``ax``.

    One bar series per kind (Nil, Blind Nil). Groups with fewer than
    ``min_bids`` bids are left out. Returns the rows drawn, with the bar
    positions in column ``x``.
    """
    d = df[df["bids"] >= min_bids].copy()
    groups = list(dict.fromkeys(df.sort_values("code")["group"]))
    groups = [g for g in groups if g in set(d["group"])]
    kinds = [k for k in KINDS if k in set(d["kind"])]
    width = 0.8 / max(len(kinds), 1)
    d["x"] = np.nan
    for i, kind in enumerate(kinds):
        m = d["kind"] == kind
        sub = d[m]
        x = np.array([groups.index(g) for g in sub["group"]], dtype=float) + (i - (len(kinds) - 1) / 2) * width
        d.loc[m, "x"] = x
        yerr = np.vstack([sub["rate"] - sub["lo"], sub["hi"] - sub["rate"]]) * 100
        ax.bar(x, sub["rate"] * 100, width=width * 0.95, yerr=yerr, capsize=3,
               label=f"{kind} (n={fmt_int(sub['bids'].sum())})")
        for xi, (yi, ni) in zip(x, zip(sub["hi"] * 100, sub["bids"])):
            ax.annotate(f"n={fmt_int(ni)}", (xi, yi), textcoords="offset points", xytext=(0, 2),
                        ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30 if max((len(g) for g in groups), default=0) > 6 else 0,
                       ha="right" if max((len(g) for g in groups), default=0) > 6 else "center")
    by = df.attrs.get("by")
    ax.set_xlabel(by.replace("_", " ") if by else "")
    ax.set_ylabel("success rate (%), 95 % Wilson interval")
    ax.set_ylim(0, 105)
    ax.set_title(title or ("Nil success rate" + (f" by {by.replace('_', ' ')}" if by else "")))
    if kinds:
        ax.legend(loc="best", fontsize=8)
    return d


def save_nil_chart(df: pd.DataFrame, path, *, title: str | None = None, min_bids: int = 1) -> Path:
    """Draw :func:`plot_nil` into a new figure and save it (format from the suffix: .png, .svg, .pdf)."""
    from matplotlib.figure import Figure

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    n_groups = max(1, df["group"].nunique())
    fig = Figure(figsize=(max(6.0, 0.6 * n_groups + 2), 4.5), layout="constrained")
    ax = fig.add_subplot()
    plot_nil(ax, df, title=title, min_bids=min_bids)
    runs = df.attrs.get("runs") or []
    if runs:
        fig.supxlabel("runs: " + ", ".join(Path(r).name for r in runs), fontsize=7)
    try:
        with atomic_output(p) as tmp:
            fig.savefig(tmp, dpi=120)
    except ValueError as e:
        raise AnalysisError(f"{p}: cannot save chart ({e})") from None
    return p


def nil_report(runs, by: str | None = None, *, save=None, chart=None, hand: str = "held",
               score_margin: int = 100, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
               scheduler: str | None = None) -> str:
    """Backend of ``tricksim nil RUN... [--by FEATURE] [--save FILE] [--chart FILE]``.

    Runs :func:`nil_study` (on Dask workers with ``engine="dask"``), writes the table (``save``: .csv / .parquet) and
    the chart (``chart``: .png / .svg / .pdf) when asked, and returns the text
    table to print (with a line per file written).
    """
    runs = open_runs(runs)
    df = nil_study(runs, by, hand=hand, score_margin=score_margin, batch_rows=batch_rows, engine=engine,
                   scheduler=scheduler)
    lines = pooling_notes(runs) + [format_nil_table(df)]
    if save:
        lines.append(f"table written to {save_table(df, save)}")
    if chart:
        if not len(df):
            lines.append("no Nil bids: chart not drawn")
        else:
            lines.append(f"chart written to {save_nil_chart(df, chart)}")
    return "\n".join(lines)
