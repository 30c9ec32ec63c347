"""Nil and Blind Nil study: how often seats bid Nil and how often it succeeds.

One observation per seat-hand. A Nil bid is ``bid == 0`` (none with ``zero_bid=zero``, where a 0 is an ordinary
contract of zero tricks: ``outcomes.nil_bid``); it is a Blind Nil
when ``blind`` is set; it succeeds when the seat took no trick. Results can
be split by a hand feature (of the hand *as dealt* by default: every bid is
made on it, before any Blind Nil exchange; ``hand='held'`` takes the hand
after the exchange instead), by seat or bidding position, by the score
situation before the hand, or by run properties (preset, strategy of the
seat, run).

Sums are accumulated batch by batch, per game and group
(:class:`~tricksim.analysis.stats.ClusterRatio`), so memory stays bounded
whatever the run size. Every rate comes with its n and a 95 % interval
clustered by game: the seat-hands of one game (of one hand in a hands-mode
run) are not independent.

A cutthroat run (each player alone: ``outcomes.partnerships``) is studied the same way: a Nil there is one
player's, with no partner to cover it or to take the contract's tricks, so its rates are not a partnership's;
``--by score`` compares the seat's total with the best of the three others' (a team's with the other team's
in a partnership run).

Entry points: :func:`nil_study` (DataFrame), :func:`format_nil_table`
(text), :func:`save_table`, :func:`plot_nil` (onto an ``ax``) and
:func:`save_nil_chart` (PNG/SVG file).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, Run, atomic_output, batch_arrays, open_runs, pooling_notes
from ...parallel import Engine, merge
from ...plots import group_x, rate_bars, save_figure
from ...stats import ClusterOrderError, fmt_int, fmt_rate_interval, update_by_key
from . import features as F
from .outcomes import NUMBER_WORDS, deck_of, lead, nil_bid, partnerships, rule, seats, sides

__all__ = ["FEATURES", "HANDS", "HAND_FEATURES", "HAND_TEXT", "KINDS", "display_names", "format_nil_table",
           "group_label", "needed_columns", "nil_report", "nil_study", "plot_nil", "save_nil_chart", "save_table",
           "seat_keys"]

#: which hand the hand features describe: as dealt (what every bid is made on) or held (after any Blind Nil exchange)
HANDS = ("dealt", "held")
HAND_TEXT = {"dealt": "as dealt (before any Blind Nil exchange: the hand every bid is made on)",
             "held": "held after the Blind Nil exchange (= as dealt when there was none)"}

#: grouping options for ``--by``
FEATURES = (
    "spades",      # number of spades in the hand (jokers included)
    "high_spade",  # highest spade: none, 2 .. A, LJ, BJ
    "honours",     # aces + kings + queens in the hand
    "shortest",    # length of the shortest side suit
    "longest",     # length of the longest suit
    "void",        # holds a void
    "seat",        # seat 0..3
    "position",    # bidding order: 1st (left of dealer) .. 4th (dealer)
    "score",       # score situation before the hand (behind ≥100 / close / ahead ≥100; cutthroat: the best other seat)
    "preset",      # the run's rule preset
    "strategy",    # the seat's strategy spec from the manifest
    "run",         # the run directory
)
KINDS = ("Nil", "Blind Nil")
#: the groupings that are features of a seat's hand
HAND_FEATURES = ("spades", "high_spade", "honours", "shortest", "longest", "void")
_ORDINALS = ("1st", "2nd", "3rd", "4th")


def position_label(key: int, n_seats: int) -> str:
    """Bidding position ``key`` (0 = first to bid) at a table of ``n_seats``: '1st' .. '4th (dealer)' with four
    players, '3rd (dealer)' with three."""
    return _ORDINALS[key] + (" (dealer)" if key == n_seats - 1 else "")


def needed_columns(run: Run, by: str | None, hand: str) -> list[str]:
    """The hand columns a study of ``run`` grouped ``by`` reads (bids, tricks, Blind Nil flags, the grouping's)."""
    n = seats(run.rules)
    cols = ["game_id"] + [f"bid_{s}" for s in range(n)] + [f"tricks_{s}" for s in range(n)]
    if run.has_columns("hands", [f"blind_{s}" for s in range(n)]):
        cols += [f"blind_{s}" for s in range(n)]
    if by in HAND_FEATURES:
        cols += [f"{hand}_{s}" for s in range(n)]
    elif by == "position":
        cols += ["dealer"]
    elif by == "score":
        cols += [f"{c}_{k}" for c in ("total", "score") for k in range(sides(run.rules))]
    return cols


def seat_keys(a: dict, run: Run, seat: int, by: str | None, hand: str, margin: int):
    """Group key per row for one seat: an integer code (an array) for hand and table features, the label
    itself (a string) for the run's own properties."""
    if by is None:
        return 0
    if by in HAND_FEATURES:
        held = a[f"{hand}_{seat}"]
        if by == "spades":
            return F.spade_count(held, deck_of(run.rules))
        if by == "high_spade":
            return F.high_spade(held, deck_of(run.rules))
        if by == "honours":
            return F.honours(held)
        if by == "shortest":
            return F.shortest_side(held, deck_of(run.rules))
        if by == "longest":
            return F.longest_suit(held, deck_of(run.rules))
        return F.has_void(held, deck_of(run.rules))
    if by == "seat":
        return seat
    if by == "position":
        return F.bid_position(np.full(len(a[f"bid_{seat}"]), seat), a["dealer"], seats(run.rules))
    if by == "score":
        return F.score_bucket(lead_before(a, run.rules, seat), margin)
    if by == "preset":
        return run.preset
    if by == "strategy":
        return run.seats[seat]  # the full spec: two runs' seats are one group only when they play alike
    if by == "run":
        return str(run.path)
    raise AnalysisError(f"unknown grouping {by!r}: allowed {', '.join(FEATURES)}")


def lead_before(a: dict, rules: dict | None, seat: int) -> np.ndarray:
    """The lead of ``seat``'s side before each hand (``outcomes.lead``: its team's over the other team, or in a
    cutthroat run the seat's own over the best other seat's); the rows hold the totals after the hand."""
    k = sides(rules)
    side = seat % 2 if partnerships(rules) else seat
    return lead([a[f"total_{j}"].astype(np.int64) - a[f"score_{j}"] for j in range(k)], side)


def group_label(by: str | None, key, margin: int, decks=("standard",), n_seats=(4,)) -> str:
    """What tables and charts call the group ``key`` of a study grouped ``by`` (of runs on ``decks``: a highest
    spade is named as each deck ranks it, 'LJ/2♠' where two decks of the study differ; of runs at tables of
    ``n_seats``: a position likewise, '3rd/3rd (dealer)' where three and four players mix)."""
    if by is None:
        return "all"
    if isinstance(key, str):
        return key
    if by == "high_spade":
        return "/".join(dict.fromkeys(F.high_spade_label(key, d) for d in decks))
    if by == "void":
        return "void" if key else "no void"
    if by == "seat":
        return f"seat {key}"
    if by == "position":
        return "/".join(dict.fromkeys(position_label(key, n) for n in n_seats if key < n))
    if by == "score":
        return F.score_bucket_labels(margin)[key]
    return str(key)


def nil_counts(run: Run, by: str | None = None, *, hand: str = "dealt", score_margin: int = 100,
               batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """The sums behind :func:`nil_study` for one run (or some of its shards): ``bid[kind]`` {group: bids of
    that kind over seat-hands} and ``ok[kind]`` {group: successes over bids}, each a
    :class:`~tricksim.analysis.stats.ClusterRatio` over games; kind 0 = Nil, 1 = Blind Nil. Parts merge."""
    bid: list[dict] = [{}, {}]
    ok: list[dict] = [{}, {}]
    dd: list[dict] | None = [{}, {}] if run.dd_files else None  # failed Nils: makeable double dummy?
    cols = needed_columns(run, by, hand)
    n_seats = seats(run.rules)
    parts = run.iter_shards_with_dd(cols) if dd is not None else \
        (batch_arrays(b, cols) for b in run.iter_hands(cols, batch_rows))
    try:
        for a in parts:
            n = len(a["game_id"])
            keys = [seat_keys(a, run, s, by, hand, score_margin) for s in range(n_seats)]
            name = None
            if isinstance(keys[0], str):  # a property of the run: one label per seat, numbered here
                names = list(dict.fromkeys(keys))
                keys = [names.index(k) for k in keys]
                name = names.__getitem__
            # one row per seat-hand, hand by hand (a game's rows stay together, games in order)
            K = np.stack([np.broadcast_to(np.asarray(k, dtype=np.int64), (n,)) for k in keys], axis=1).ravel()
            G = np.repeat(a["game_id"].astype(np.int64), n_seats)
            nil = np.stack([nil_bid(a[f"bid_{s}"], run.rules) for s in range(n_seats)], axis=1).ravel()
            blind = (np.stack([a[f"blind_{s}"] for s in range(n_seats)], axis=1).ravel() if "blind_0" in a
                     else np.zeros(n_seats * n, bool))
            made = np.stack([a[f"tricks_{s}"] == 0 for s in range(n_seats)], axis=1).ravel()
            if dd is not None:
                makeable = np.stack([a[f"dd_nil_{s}"] == 1 for s in range(n_seats)], axis=1).ravel()
            for kind, sel in ((0, nil & ~blind), (1, nil & blind)):
                update_by_key(bid[kind], K, G, sel, key_of=name)
                update_by_key(ok[kind], K[sel], G[sel], made[sel], key_of=name)
                if dd is not None:
                    failed = sel & ~made
                    update_by_key(dd[kind], K[failed], G[failed], makeable[failed], key_of=name)
    except ClusterOrderError as e:
        raise AnalysisError(f"{run.path}: {e}") from None
    return {"bid": bid, "ok": ok} if dd is None else {"bid": bid, "ok": ok, "dd": dd}


def _kinds(runs: list[Run], bid: list[dict]) -> list[int]:
    """The kinds of Nil to show: those the rules of a run allow, and any that was bid (with ``zero_bid=zero`` a
    0 is no Nil: such a run allows none)."""
    nil = [r for r in runs if rule(r.rules, "nil") and rule(r.rules, "zero_bid") != "zero"]
    allowed = [bool(nil), any(rule(r.rules, "blind_nil") for r in nil)]
    return [kind for kind in (0, 1) if allowed[kind] or any(c.k for c in bid[kind].values())]


def interval_text(runs: list[Run], conf: float = 0.95) -> str:
    """How the study's intervals are made, as its outputs state it."""
    games = [r.is_games for r in runs]
    how = ("clustered by game" if all(games) else
           f"clustered by hand (its {_seat_words(runs)} seats together)" if not any(games) else
           "clustered by game (by hand in hands-mode runs)")
    return f"{round(conf * 100)} % Wilson intervals {how}"


def _seat_words(runs: list[Run]) -> str:
    """'four', or 'three' (cutthroat3), or 'three or four' where the runs' tables differ."""
    return " or ".join(NUMBER_WORDS[n] for n in sorted({seats(r.rules) for r in runs}))


def display_names(runs: list[Run], by: str | None) -> dict:
    """Group key -> what tables and charts call it, where it is not the key itself: the seats' short labels
    for ``--by strategy`` (made unique when two specs share a label). A spec some seat gave as the bare
    strategy name is the strategy's default and goes by that name, also where another seat spelled the same
    values out (a sweep value equal to its baseline, say)."""
    if by != "strategy":
        return {}
    names: dict[str, str] = {}
    for r in runs:
        for spec, label in zip(r.seats, r.seat_labels):
            if spec not in names or label == spec.partition(":")[0]:
                names[spec] = label
    seen: dict[str, int] = {}
    for spec, label in names.items():
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            names[spec] = f"{label}#{seen[label]}"
    return names


def nil_study(
    runs,
    by: str | None = None,
    *,
    hand: str = "dealt",
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
    hand : ``'dealt'`` (default: the hand every bid is made on) or ``'held'`` (after any Blind Nil
        exchange), for the hand features.
    score_margin : threshold of the ``score`` buckets (default ±100).
    engine, scheduler : ``'dask'``: the files are read and summed on Dask workers (the same table).

    Returns a DataFrame, one row per (kind, group), for each kind the rules of a run allow or that was bid,
    columns: ``kind`` ('Nil' | 'Blind Nil'), ``group`` (label), ``code`` (sort key),
    ``seat_hands`` (observations in the group), ``bids``, ``bid_rate``,
    ``bid_lo``, ``bid_hi``, ``successes``, ``rate``, ``lo``, ``hi``, ``games`` (the clusters: games, or
    hands in a hands-mode run). Intervals are Wilson intervals clustered by game
    (:meth:`~tricksim.analysis.stats.ClusterRatio.rate`).
    ``df.attrs`` records ``by``, ``runs``, ``conf``, ``hand`` and ``method``.
    """
    if by is not None and by not in FEATURES:
        raise AnalysisError(f"unknown grouping {by!r}: allowed {', '.join(FEATURES)}")
    if hand not in HANDS:
        raise AnalysisError(f"unknown hand {hand!r}: allowed {' | '.join(HANDS)}")
    runs = open_runs(runs)
    count = partial(nil_counts, by=by, hand=hand, score_margin=score_margin, batch_rows=batch_rows)
    with Engine(engine, scheduler) as e:
        c = merge([e.map_run(count, run) for run in runs])
    bid, ok = c["bid"], c["ok"]
    # the double-dummy view only when every run has its dd columns (tricksim dd), else none of it
    dd = c.get("dd") if all(r.dd_files for r in runs) else None
    groups = list(dict.fromkeys([*bid[0], *bid[1]]))
    # run-level groups are labels, numbered in the order the runs were given
    codes = {key: (i if isinstance(key, str) else key) for i, key in enumerate(groups)}
    names = display_names(runs, by)
    decks = list(dict.fromkeys(deck_of(r.rules) for r in runs))
    tables = sorted({seats(r.rules) for r in runs}, reverse=True)
    rows = []
    for kind in _kinds(runs, bid):
        for key in sorted(groups, key=codes.get):
            b = bid[kind][key].rate(conf)
            k = ok[kind][key].rate(conf) if key in ok[kind] else None
            rows.append({
                "kind": KINDS[kind], "group": names.get(key, group_label(by, key, score_margin, decks, tables)),
                "code": codes[key],
                "seat_hands": b.n, "bids": b.k, "bid_rate": b.value, "bid_lo": b.lo, "bid_hi": b.hi,
                "successes": k.k if k else 0, "rate": k.value if k else np.nan,
                "lo": k.lo if k else np.nan, "hi": k.hi if k else np.nan, "games": b.clusters,
            })
            if dd is not None:
                m = dd[kind][key].rate(conf) if key in dd[kind] else None
                rows[-1].update({"failed": m.n if m else 0, "makeable": m.k if m else 0,
                                 "makeable_rate": m.value if m else np.nan, "makeable_lo": m.lo if m else np.nan,
                                 "makeable_hi": m.hi if m else np.nan})
    cols = ["kind", "group", "code", "seat_hands", "bids", "bid_rate", "bid_lo", "bid_hi",
            "successes", "rate", "lo", "hi", "games"]
    if dd is not None:
        cols += ["failed", "makeable", "makeable_rate", "makeable_lo", "makeable_hi"]
    df = pd.DataFrame(rows, columns=cols)
    for col in ("bid_rate", "bid_lo", "bid_hi", "rate", "lo", "hi"):
        df[col] = df[col].astype(float)
    for col in ("code", "seat_hands", "bids", "successes", "games"):
        df[col] = df[col].astype(np.int64)
    seat_hands = sum(x.n for x in bid[0].values())
    df.attrs.update(by=by, runs=[str(r.path) for r in runs], conf=conf, hand=hand, seat_hands=int(seat_hands),
                    method=interval_text(runs, conf), dd=dd is not None)
    return df


def hand_line(df: pd.DataFrame) -> str | None:
    """Which hand the hand features describe (None when the grouping is not a hand feature)."""
    if df.attrs.get("by") not in HAND_FEATURES:
        return None
    return f"hand features of the hand {HAND_TEXT[df.attrs.get('hand', 'dealt')]}"


def format_nil_table(df: pd.DataFrame) -> str:
    """Plain-text table of a :func:`nil_study` result, each rate with its interval and n; the head says how
    the intervals are made and which hand the features describe."""
    by = df.attrs.get("by")
    conf = df.attrs.get("conf", 0.95)
    method = df.attrs.get("method") or f"{round(conf * 100)} % Wilson intervals"
    lines = [f"Nil study ({method})"]
    if hand_line(df):
        lines.append(hand_line(df))
    if not len(df):
        total = df.attrs.get("seat_hands", 0)
        lines.append(f"no Nil bids in {fmt_int(total)} seat-hands (the rules of the runs allow none)")
        return "\n".join(lines)
    bids = [fmt_rate_interval(r.bid_rate, r.bid_lo, r.bid_hi, r.seat_hands) for r in df.itertuples()]
    oks = [fmt_rate_interval(r.rate, r.lo, r.hi, r.bids) for r in df.itertuples()]
    gw = max(len(by or "group"), *(len(str(g)) for g in df["group"]))
    bw = max(len("bid rate (n = seat-hands)"), *(len(x) for x in bids))
    if not df.attrs.get("dd"):
        lines.append(f"{'kind':<10} {(by or 'group'):<{gw}}  {'bid rate (n = seat-hands)':<{bw}}  success rate (n = bids)")
        for r, bid, ok in zip(df.itertuples(), bids, oks):
            lines.append(f"{r.kind:<10} {r.group!s:<{gw}}  {bid:<{bw}}  {ok}")
        return "\n".join(lines)
    lines.append("double dummy (tricksim dd): of the failed Nils, the share its side could have made with perfect "
                 "play from the first lead (the players' share of the failure); the rest were lost on the cards")
    ow = max(len("success rate (n = bids)"), *(len(x) for x in oks))
    lines.append(f"{'kind':<10} {(by or 'group'):<{gw}}  {'bid rate (n = seat-hands)':<{bw}}  "
                 f"{'success rate (n = bids)':<{ow}}  failed but makeable (n = failed Nils)")
    for r, bid, ok in zip(df.itertuples(), bids, oks):
        dd = fmt_rate_interval(r.makeable_rate, r.makeable_lo, r.makeable_hi, r.failed)
        lines.append(f"{r.kind:<10} {r.group!s:<{gw}}  {bid:<{bw}}  {ok:<{ow}}  {dd}")
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
    """Bar chart of success rates per group with their (clustered Wilson) error bars onto ``ax``.

    One bar series per kind (Nil, Blind Nil). Groups with fewer than ``min_bids`` bids are left out. Each
    bar's n is written upwards above its error bar, so that neighbours never overlap. Returns the rows
    drawn, with the bar positions in column ``x``.
    """
    d = df[df["bids"] >= min_bids].copy()
    groups = list(dict.fromkeys(df.sort_values("code")["group"]))
    groups = [g for g in groups if g in set(d["group"])]
    kinds = [k for k in KINDS if k in set(d["kind"])]
    d["x"] = np.nan
    for i, kind in enumerate(kinds):
        m = d["kind"] == kind
        sub = d[m]
        x = group_x(groups, sub["group"], i, len(kinds))
        d.loc[m, "x"] = x
        rate_bars(ax, x, sub["rate"], sub["lo"], sub["hi"], sub["bids"], width=0.8 / max(len(kinds), 1),
                  label=f"{kind} (n={fmt_int(sub['bids'].sum())} bids)")
    # slanted only when the labels would not fit side by side (about 8 characters an inch of the axes), each
    # ending at its tick
    inches = ax.figure.get_figwidth() * ax.get_position().width
    long = max((len(g) for g in groups), default=0) > 8 * inches / max(len(groups), 1)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30 if long else 0, ha="right" if long else "center",
                       rotation_mode="anchor" if long else "default")
    by = df.attrs.get("by")
    xlabel = by.replace("_", " ") if by else ""
    if by in HAND_FEATURES:
        xlabel += f" (hand {'as dealt' if df.attrs.get('hand', 'dealt') == 'dealt' else 'held after the exchange'})"
    ax.set_xlabel(xlabel)
    method = df.attrs.get("method") or "95 % Wilson intervals"
    ax.set_ylabel("success rate (%), " + method.replace("Wilson intervals ", "").replace(" (", "\n("))
    ax.set_ylim(0, 130)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title(title or ("Nil success rate" + (f" by {xlabel}" if by else "")))
    if kinds:
        # beside the axes, where the layout makes room for it: clear of the bars, n labels and tick labels
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return d


def save_nil_chart(df: pd.DataFrame, path, *, title: str | None = None, min_bids: int = 1) -> Path:
    """Draw :func:`plot_nil` into a new figure and save it (format from the suffix: .png, .svg, .pdf)."""
    from matplotlib.figure import Figure

    n_groups = max(1, df["group"].nunique())
    fig = Figure(figsize=(max(6.0, 0.6 * n_groups + 2), 4.5), layout="constrained")
    ax = fig.add_subplot()
    plot_nil(ax, df, title=title, min_bids=min_bids)
    runs = df.attrs.get("runs") or []
    if runs:
        fig.supxlabel("runs: " + ", ".join(Path(r).name for r in runs), fontsize=7)
    return save_figure(fig, path)


def nil_report(runs, by: str | None = None, *, save=None, chart=None, hand: str = "dealt",
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
