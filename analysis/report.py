"""``tricksim report RUN... --out DIR``: side-by-side report of one or more runs.

For each run (a *variant*: preset + rule flags + seat strategies) the hands
are streamed batch by batch and folded into fixed-bin integer histograms and
sums per game (:class:`~tricksim.analysis.stats.ClusterRatio`: a hand-level
figure's interval is clustered by game) (:func:`collect`), so memory does not
grow with the run. Games-mode runs also read their (much smaller) games
table: final totals, game length, end reasons, and the win probability of
team 0 against its lead after each hand — each hand joined to its game's
winner on ``game_id``.

:func:`build_report` writes into ``DIR``:

* one PNG and one SVG per chart (hand scores, final totals, game length,
  bags per game, win probability vs lead, contract-made rate, Nil rates),
  each with title, axis labels, legend and a caption naming rule sets and
  strategies by their labels (histograms of the variants on common bin edges);
* ``report.html`` — self-contained (charts embedded as base64 PNG) with the
  key tables, short cells only (every rule flag and full spec in a fold);
* ``summary.md`` — the key tables in Markdown, linking the PNG files.

All rates carry a 95 % interval and n (Wilson; clustered by game for hand-level
figures of games-mode runs); all means a t interval and n; the page says how.
"""
from __future__ import annotations

import base64
import html
import io as _io
import math
import textwrap
from dataclasses import dataclass, field, fields
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from .io import (
    DEFAULT_BATCH_ROWS,
    AnalysisError,
    Run,
    atomic_output,
    batch_arrays,
    open_run,
    open_runs,
    pooling_notes,
)
from .outcomes import OUTCOME_COLUMNS, PerGame, penalties_fresh, rule, team_outcomes
from .parallel import Engine, merge
from .stats import (
    ClusterOrderError,
    ClusterRatio,
    Clusters,
    Moments,
    fmt_estimate,
    fmt_int,
    fmt_mean,
    fmt_rate,
    fmt_rate_interval,
    update_by_key,
    wilson_interval,
)

__all__ = [
    "LEAD_BIN",
    "IntHist",
    "ReportResult",
    "RunStats",
    "build_report",
    "collect",
    "key_table",
    "plot_hist",
    "plot_rate_bars",
    "plot_win_prob",
    "win_prob_table",
]

LEAD_BIN = 50          # width of the score-lead bins of the win-probability curve: [0, 50), [50, 100), ...
LEAD_BINS = 10         # bins of LEAD_BIN on each side of 0, then one open-ended bin each side
N_LEAD = 2 * LEAD_BINS + 2
TEAMS = ("team 0 (seats 0+2)", "team 1 (seats 1+3)")


# ------------------------------------------------------------------ histograms
class IntHist:
    """Histogram of integers over a fixed range [lo, hi], accumulated batch by batch.

    Values outside the range are counted in ``under`` / ``over`` (and in the
    end bins when plotting), so nothing is lost silently.
    """

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = int(lo), int(hi)
        self.counts = np.zeros(self.hi - self.lo + 1, np.int64)
        self.under = 0
        self.over = 0

    def add(self, values) -> None:
        v = np.asarray(values, dtype=np.int64).ravel()
        if not v.size:
            return
        self.under += int((v < self.lo).sum())
        self.over += int((v > self.hi).sum())
        self.counts += np.bincount(np.clip(v, self.lo, self.hi) - self.lo, minlength=self.counts.size)

    def merge(self, other: IntHist) -> IntHist:
        """Add the counts of ``other`` (same range): the histogram of both samples."""
        if (other.lo, other.hi) != (self.lo, self.hi):
            raise ValueError(f"cannot merge histograms over [{self.lo}, {self.hi}] and [{other.lo}, {other.hi}]")
        self.counts += other.counts
        self.under += other.under
        self.over += other.over
        return self

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def nonzero_range(self) -> tuple[int, int] | None:
        nz = np.flatnonzero(self.counts)
        if not nz.size:
            return None
        return self.lo + int(nz[0]), self.lo + int(nz[-1])

    def rebin(self, width: int, lo: int | None = None, hi: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(edges, counts) with bins of ``width`` over [lo, hi] (default: the occupied range).

        Bin i covers integer values [edges[i], edges[i+1]); edges sit on
        half-integers' left so each integer lands in exactly one bin.
        """
        rng = self.nonzero_range()
        if rng is None:
            return np.array([0.0, 1.0]), np.zeros(1, np.int64)
        lo = rng[0] if lo is None else lo
        hi = rng[1] if hi is None else hi
        start = int(math.floor(lo / width) * width)
        nb = max(1, int(math.floor(hi / width) * width - start) // width + 1)
        values = np.arange(self.lo, self.hi + 1)
        idx = np.clip((values - start) // width, 0, nb - 1)
        counts = np.bincount(idx, weights=self.counts, minlength=nb).astype(np.int64)
        edges = start + width * np.arange(nb + 1) - 0.5
        return edges, counts


# ------------------------------------------------------------------ collection
@dataclass
class RunStats:
    """Everything the report needs from one run, accumulated in one streaming pass."""

    run: Run
    label: str
    n_hands: int = 0
    n_games: int = 0
    score_hist: list = field(default_factory=lambda: [IntHist(-1500, 1500), IntHist(-1500, 1500)])
    # hand-level figures: sums per game (ClusterRatio), so that their intervals are clustered by game
    score: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    bags_hand: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    penalties_hand: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    made: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])      # made / team-hands with a contract
    # with the double-dummy columns of tricksim dd: per team, tricks bid, taken and double dummy a hand
    has_dd: bool = False
    tricks_bid: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    tricks_taken: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    tricks_dd: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])
    seat_hands: int = 0
    nil_bid: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])   # [Nil, Blind Nil] bids / seat-hands
    nil_ok: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])    # successes / bids
    # games mode
    totals_hist: list = field(default_factory=lambda: [IntHist(-5000, 5000), IntHist(-5000, 5000)])
    totals: list = field(default_factory=lambda: [Moments(), Moments()])
    margin: Moments = field(default_factory=Moments)
    length_hist: IntHist = field(default_factory=lambda: IntHist(0, 2000))
    length: Moments = field(default_factory=Moments)
    wins0: int = 0
    ties: int = 0
    ends: dict = field(default_factory=dict)
    bags_game_hist: list = field(default_factory=lambda: [IntHist(0, 2000), IntHist(0, 2000)])
    bags_game: list = field(default_factory=lambda: [Moments(), Moments()])
    penalties_game: list = field(default_factory=lambda: [Moments(), Moments()])
    # win probability vs lead (team 0's view): wins / hands per lead bin, clustered by game, over every
    # hand but the game's deciding one, which is hand_no == hands - 1 (0-based numbering) or == hands
    # (1-based): both candidates are kept and the numbering decided from the smallest hand_no seen
    lead: dict = field(default_factory=lambda: {"excl0": {}, "excl1": {}})
    min_hand_no: int | None = None
    # for the notes: hand rows read and hands the games table counts; games whose bag penalties are approximate
    hand_rows: int = 0
    hands_counted: int = 0
    approximate_bag_games: int = 0

    @property
    def is_games(self) -> bool:
        return self.run.is_games

    @property
    def notes(self) -> list[str]:
        notes = []
        if self.hand_rows != self.hands_counted:
            notes.append(f"hands table has {fmt_int(self.hand_rows)} rows but the games table counts "
                         f"{fmt_int(self.hands_counted)} hands")
        if self.approximate_bag_games:
            notes.append("bag penalties per game are approximate: bags taken and running bags disagree "
                         f"in {fmt_int(self.approximate_bag_games)} games (rule flags in the manifest?)")
        return notes

    def merge(self, other: RunStats) -> RunStats:
        """Add the figures of ``other``, the same run's other shards: the figures of both parts."""
        for f in fields(self):
            if f.name in ("run", "label"):
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "min_hand_no":
                setattr(self, f.name, b if a is None else a if b is None else min(a, b))
            else:
                setattr(self, f.name, merge([a, b]))
        self.ends = dict(sorted(self.ends.items(), key=lambda kv: -kv[1]))
        return self

    def win_curve(self, conf: float = 0.95) -> pd.DataFrame:
        """Team 0's win rate by its lead after a hand (the game's deciding hand excluded; ties excluded), each
        bin's interval clustered by game. Columns ``bin``, ``label`` (the range of leads), ``x`` (where to
        draw it), ``n`` (hands), ``games``, ``wins``, ``rate``, ``lo``, ``hi``."""
        store = self.lead["excl1" if (self.min_hand_no or 0) >= 1 else "excl0"]
        rows = []
        for i in range(N_LEAD):
            c = store.get(i, ClusterRatio())
            e = c.rate(conf)
            rows.append({"bin": i, "label": lead_bin_label(i), "x": lead_bin_x(i), "n": e.n,
                         "games": c.n_clusters, "wins": c.k, "rate": e.value, "lo": e.lo, "hi": e.hi})
        return pd.DataFrame(rows)


def lead_bin(lead) -> np.ndarray:
    """Bin index of each lead: 0 = below -LEAD_BIN·LEAD_BINS, then bins of LEAD_BIN points [a, a + LEAD_BIN),
    the last one from LEAD_BIN·LEAD_BINS up."""
    k = np.floor_divide(np.asarray(lead, dtype=np.int64), LEAD_BIN)
    return (np.clip(k, -LEAD_BINS - 1, LEAD_BINS) + LEAD_BINS + 1).astype(np.int64)


def lead_bin_range(i: int) -> tuple[float, float]:
    """The leads (integers) of bin ``i``: [lo, hi] inclusive; -inf / inf for the open ends."""
    a = (i - LEAD_BINS - 1) * LEAD_BIN
    if i == 0:
        return -math.inf, -LEAD_BINS * LEAD_BIN - 1
    if i == N_LEAD - 1:
        return LEAD_BINS * LEAD_BIN, math.inf
    return a, a + LEAD_BIN - 1


def lead_bin_label(i: int) -> str:
    """'-50 to -1', '0 to 49', ...; '≤ -501' and '≥ 500' for the open ends."""
    lo, hi = lead_bin_range(i)
    if not math.isfinite(lo):
        return f"≤ {hi:d}"
    if not math.isfinite(hi):
        return f"≥ {lo:d}"
    return f"{lo:d} to {hi:d}"


def lead_bin_x(i: int) -> float:
    """Where bin ``i`` is drawn: its middle (half a bin beyond the last edge for the open ends)."""
    lo, hi = lead_bin_range(i)
    if not math.isfinite(lo):
        return hi + 1 - LEAD_BIN / 2
    if not math.isfinite(hi):
        return lo + LEAD_BIN / 2
    return (lo + hi) / 2


HAND_COLUMNS = ["game_id", "hand_no", "score_0", "score_1", "bags_0", "bags_1", "total_0", "total_1"] + OUTCOME_COLUMNS


def collect(run, label: str | None = None, batch_rows: int = DEFAULT_BATCH_ROWS, *,
            engine: Engine | None = None) -> RunStats:
    """Stream one run into a :class:`RunStats` (bounded memory: fixed bins and per-game arrays); with a
    Dask ``engine``, a few shards a worker, merged."""
    run = open_run(run)
    st = (engine or Engine()).map_run(partial(_collect_part, label=label or run.name, batch_rows=batch_rows), run)
    st.run = run
    if st.n_hands == 0:
        raise AnalysisError(f"{run.path}: the run has no hand rows")
    return st


def _collect_part(run: Run, label: str, batch_rows: int) -> RunStats:
    """:func:`collect` over the shards of ``run`` (all, or a subset: a game's hands are in its game's shard)."""
    st = RunStats(run=run, label=label)
    rules = run.rules
    blind_cols = [f"blind_{s}" for s in range(4)]
    has_blind = run.has_columns("hands", blind_cols)
    cols = HAND_COLUMNS + (blind_cols if has_blind else [])

    per_game = None
    winners = None
    if run.is_games:
        gcols = ["game_id", "hands", "total_0", "total_1", "winner"]
        gid_parts, hands_parts, win_parts = [], [], []
        ends = {}
        end_ok = run.has_columns("games", ["end"])
        for b in run.iter_games(gcols + (["end"] if end_ok else []), batch_rows):
            g = batch_arrays(b, gcols)
            gid_parts.append(g["game_id"].astype(np.int64))
            hands_parts.append(g["hands"].astype(np.int32))
            win_parts.append(g["winner"].astype(np.int8))
            for t in (0, 1):
                st.totals_hist[t].add(g[f"total_{t}"])
                st.totals[t].update(g[f"total_{t}"])
            st.margin.update(g["total_0"].astype(np.int64) - g["total_1"].astype(np.int64))
            st.length_hist.add(g["hands"])
            st.length.update(g["hands"])
            st.wins0 += int((g["winner"] == 0).sum())
            st.ties += int((g["winner"] == -1).sum())
            if end_ok:
                vc = pc.value_counts(b.column("end"))
                for v, c in zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist()):
                    ends[str(v)] = ends.get(str(v), 0) + int(c)
        st.ends = dict(sorted(ends.items(), key=lambda kv: -kv[1]))
        game_ids = np.concatenate(gid_parts) if gid_parts else np.zeros(0, np.int64)
        game_hands = np.concatenate(hands_parts) if hands_parts else np.zeros(0, np.int32)
        winners = np.concatenate(win_parts) if win_parts else np.zeros(0, np.int8)
        st.n_games = int(game_ids.size)
        per_game = PerGame(game_ids, game_hands, rules)

    st.has_dd = run.dd_files is not None
    parts = run.iter_shards_with_dd(cols) if st.has_dd else \
        (batch_arrays(batch, cols) for batch in run.iter_hands(cols, batch_rows))
    try:
        for a in parts:
            _collect_batch(st, a, len(a["game_id"]), rules, has_blind, per_game, winners)
    except ClusterOrderError as e:
        raise AnalysisError(f"{run.path}: {e}") from None

    if per_game is not None:
        per_game.min_hand_no = st.min_hand_no
        pen = per_game.penalties
        for t in (0, 1):
            st.bags_game_hist[t].add(per_game.bags[t])
            st.bags_game[t].update(per_game.bags[t])
            st.penalties_game[t].update(pen[t])
        st.hand_rows, st.hands_counted = per_game.rows, int(per_game.hands.sum())
        limit = int(rule(run.rules, "bag_limit"))
        if rule(run.rules, "bag_overflow") != "reset":
            resid = (per_game.bags.astype(np.int64) - per_game.final_bags) % limit
            st.approximate_bag_games = int((resid != 0).any(axis=0).sum())
    return st


def _collect_batch(st: RunStats, a: dict, n: int, rules: dict, has_blind: bool, per_game, winners) -> None:
    st.n_hands += n
    gid = a["game_id"]
    games = Clusters(gid)  # the batch's games, found once for every figure
    hn = a["hand_no"].astype(np.int64)
    m = int(hn.min())
    st.min_hand_no = m if st.min_hand_no is None else min(st.min_hand_no, m)
    for t in (0, 1):
        o = team_outcomes(a, t, rules)
        st.score_hist[t].add(a[f"score_{t}"])
        st.score[t].update(games, a[f"score_{t}"])
        st.bags_hand[t].update(games, o["bags"])
        st.made[t].update(games, o["made"] & o["has_contract"], o["has_contract"])
        if not st.run.is_games:
            st.penalties_hand[t].update(games, penalties_fresh(o["bags"], a[f"bags_{t}"], rules))
        if "dd_tricks_0" in a:
            st.tricks_bid[t].update(games, a[f"bid_{t}"].astype(np.int64) + a[f"bid_{t + 2}"])
            st.tricks_taken[t].update(games, a[f"tricks_{t}"].astype(np.int64) + a[f"tricks_{t + 2}"])
            dd0 = a["dd_tricks_0"].astype(np.int64)
            st.tricks_dd[t].update(games, dd0 if t == 0 else 13 - dd0)
    st.seat_hands += 4 * n
    nil = np.stack([a[f"bid_{s}"] == 0 for s in range(4)])
    blind = np.stack([a[f"blind_{s}"] for s in range(4)]) if has_blind else np.zeros((4, n), bool)
    ok = np.stack([a[f"tricks_{s}"] == 0 for s in range(4)])
    for kind, sel in ((0, nil & ~blind), (1, nil & blind)):
        bids = sel.sum(axis=0)
        st.nil_bid[kind].update(games, bids, np.full(n, 4))
        st.nil_ok[kind].update(games, (sel & ok).sum(axis=0), bids)
    if per_game is not None:
        per_game.add(a)
        pos = per_game.index.locate(gid)
        w = winners[pos]
        keep = w >= 0
        b = lead_bin(a["total_0"].astype(np.int64) - a["total_1"].astype(np.int64))
        nh = per_game.hands[pos].astype(np.int64)
        for key, sel in (("excl0", keep & (hn != nh - 1)), ("excl1", keep & (hn != nh))):
            update_by_key(st.lead[key], b[sel], gid[sel], (w[sel] == 0))


# ----------------------------------------------------------------------- tables
def _differing_rules(runs: list[Run]) -> list[dict]:
    keys = sorted(set().union(*(r.rules.keys() for r in runs)))
    diff = [k for k in keys if len({repr(r.rules.get(k)) for r in runs}) > 1]
    return [{k: r.rules.get(k) for k in diff} for r in runs]


def variant_caption(stats: list[RunStats]) -> str:
    """One caption line per run: preset, the flags that differ between the runs, strategies."""
    diffs = _differing_rules([s.run for s in stats])
    lines = []
    for s, d in zip(stats, diffs):
        t0, t1 = s.run.team_strategies()
        flags = (" + " + ", ".join(f"{k}={'(unset)' if v is None else v}" for k, v in d.items())) if d else ""
        lines.append(f"{s.label}: {s.run.preset}{flags}; team 0 = {t0}, team 1 = {t1}; "
                     f"{fmt_int(s.n_hands)} hands" + (f", {fmt_int(s.n_games)} games" if s.is_games else ""))
    return "\n".join(lines)


def runs_table(stats: list[RunStats], tarot: list | None = None) -> pd.DataFrame:
    """Provenance of each run: path, game, mode, rules (the preset and the flags that differ from it), seats
    (short labels), seed, sizes. Every flag and the seats' full specs: :func:`rules_table`, :func:`seat_specs`."""
    rows = []
    for s in stats:
        m = s.run.manifest
        rows.append({
            "run": s.label, "path": str(s.run.path), "game": "spades", "mode": s.run.mode,
            "rules": s.run.rules_text(), "seats": _seats_text(s.run), "seed": m.get("seed", ""),
            "hands": fmt_int(s.n_hands), "games": fmt_int(s.n_games) if s.is_games else "—",
            "status": m.get("status", ""), "version": m.get("version", ""),
        })
    for s in tarot or ():
        m = s.run.manifest
        rows.append({
            "run": s.label, "path": str(s.run.path), "game": "tarot", "mode": s.run.mode,
            "rules": s.run.rules_text(), "seats": _seats_text(s.run), "seed": m.get("seed", ""),
            "hands": f"{fmt_int(s.numbers['deals'])} deals", "games": "—", "status": m.get("status", ""),
            "version": m.get("version", ""),
        })
    return pd.DataFrame(rows)


def _seats_text(run: Run) -> str:
    labels = run.seat_labels
    if len(set(labels)) == 1:
        return f"all seats {labels[0]}"
    if run.game == "spades":
        t0, t1 = run.team_strategies()
        return f"team 0 = {t0}; team 1 = {t1}"
    return " | ".join(labels)


def rules_table(runs: list[Run]) -> pd.DataFrame:
    """Every rule flag (rows) of every run (columns, by label)."""
    runs = list(runs)
    keys = list(dict.fromkeys(k for r in runs for k in r.rules))
    out = pd.DataFrame({"flag": keys})
    for label, r in zip(_unique_labels(runs), runs):
        out[label] = ["—" if k not in r.rules else str(r.rules[k]) for k in keys]
    return out


def seat_specs(runs: list[Run]) -> list[str]:
    """One line per run and distinct seat label: 'run: label = full spec' (every parameter spelled out)."""
    lines = []
    for label, r in zip(_unique_labels(runs), runs):
        for lab, spec in dict(zip(r.seat_labels, r.seats)).items():
            lines.append(f"{label}: {lab} = {spec}")
    return lines


def key_table(stats: list[RunStats], conf: float = 0.95) -> pd.DataFrame:
    """Metrics (rows) × runs (columns), every cell 'value [lo, hi] (n=…)'. Hand-level rows have intervals
    clustered by game (:class:`~tricksim.analysis.stats.ClusterRatio`); game-level rows one observation a game."""
    def rate(k, n):
        return fmt_rate(k, n, conf)

    def crate(c: ClusterRatio):
        return fmt_estimate(c.rate(conf))

    def mean(m, digits=2):
        return fmt_estimate(m.estimate(conf), digits)

    rows: dict[str, dict[str, str]] = {}

    def put(metric, label, value):
        rows.setdefault(metric, {})[label] = value

    for s in stats:
        L = s.label
        put("hands", L, fmt_int(s.n_hands))
        if s.is_games:
            put("games", L, fmt_int(s.n_games))
        put("hand-level intervals", L, "clustered by game" if s.is_games else "hands independent; Nil: by hand")
        for t in (0, 1):
            put(f"contract made, team {t}", L, crate(s.made[t]))
        for t in (0, 1):
            put(f"hand score, team {t}", L, mean(s.score[t]))
        for t in (0, 1):
            put(f"bags per hand, team {t}", L, mean(s.bags_hand[t], 3))
        if not s.is_games:
            for t in (0, 1):
                put(f"bag penalties per hand, team {t}", L, mean(s.penalties_hand[t], 4))
        if s.has_dd:
            for t in (0, 1):
                put(f"tricks bid a hand, team {t}", L, mean(s.tricks_bid[t]))
                put(f"tricks taken a hand, team {t}", L, mean(s.tricks_taken[t]))
                put(f"tricks double dummy a hand, team {t} (tricksim dd)", L, mean(s.tricks_dd[t]))
        put("Nil bid rate (per seat-hand)", L, crate(s.nil_bid[0]))
        put("Nil success", L, crate(s.nil_ok[0]))
        if s.nil_bid[1].k or rule(s.run.rules, "blind_nil"):
            put("Blind Nil bid rate (per seat-hand)", L, crate(s.nil_bid[1]))
            put("Blind Nil success", L, crate(s.nil_ok[1]))
        if s.is_games:
            put("team 0 wins", L, rate(s.wins0, s.n_games))
            put("tied games (hand limit)", L, fmt_int(s.ties))
            put("game length (hands)", L, mean(s.length))
            for t in (0, 1):
                put(f"final total, team {t}", L, mean(s.totals[t], 1))
            put("final margin (team 0 − team 1)", L, mean(s.margin, 1))
            for t in (0, 1):
                put(f"bags per game, team {t}", L, mean(s.bags_game[t]))
            for t in (0, 1):
                put(f"bag penalties per game, team {t}", L, mean(s.penalties_game[t], 3))
            for end, c in s.ends.items():
                put(f"games ended by {end}", L, rate(c, s.n_games))
    labels = [s.label for s in stats]
    df = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=labels).fillna("—")
    df.index.name = "metric"
    return df.reset_index()


def _with_games(text: str, games: int) -> str:
    """'… (n=7)' -> '… (n=7; 3 games)'."""
    return f"{text[:-1]}; {fmt_int(games)} game{'s' if games != 1 else ''})" if text.endswith(")") else text


def win_prob_table(stats: list[RunStats], conf: float = 0.95) -> pd.DataFrame | None:
    """Team 0 win rate by lead bin (rows) × games-mode runs (columns), intervals clustered by game; None
    without games runs."""
    g = [s for s in stats if s.is_games]
    if not g:
        return None
    curves = [s.win_curve(conf) for s in g]
    out = pd.DataFrame({"team 0 lead after hand (points)": curves[0]["label"]})
    for s, c in zip(g, curves):
        out[s.label] = [_with_games(fmt_rate_interval(r, lo, hi, n), gm) if n else fmt_rate_interval(r, lo, hi, n)
                        for r, lo, hi, n, gm in zip(c["rate"], c["lo"], c["hi"], c["n"], c["games"])]
    keep = np.zeros(len(out), bool)
    for c in curves:
        keep |= c["n"].to_numpy() > 0
    return out[keep].reset_index(drop=True)


# ------------------------------------------------------------------------ plots
def plot_hist(ax, series: dict[str, tuple[np.ndarray, np.ndarray]], *, density: bool = True,
              xlabel: str = "", title: str = "") -> dict:
    """Step histograms onto ``ax``: ``series`` maps a legend label to (edges, counts).

    With ``density`` the y axis is the share of observations per bin (%).
    Returns ``series`` (the data drawn).
    """
    for label, (edges, counts) in series.items():
        total = counts.sum()
        y = counts / total * 100 if density and total else counts
        ax.stairs(y, edges, label=f"{label} (n={fmt_int(total)})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share per bin (%)" if density else "count")
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="best")
    return series


def plot_rate_bars(ax, df: pd.DataFrame, *, ylabel: str = "rate (%)", title: str = "", top: float = 100.0) -> pd.DataFrame:
    """Grouped bars with error bars. ``df`` columns: ``group`` (x), ``series`` (bar colour), ``k``, ``n``, and
    optionally ``lo``, ``hi`` (the interval, as fractions: e.g. clustered by game); without them the Wilson
    interval of k / n. The y axis shows 0 to ``top`` % with room above for the n of each bar.

    Returns ``df`` with ``rate``, ``lo``, ``hi`` and bar position ``x`` added.
    """
    d = df.copy()
    d["rate"] = np.where(d["n"] > 0, d["k"] / d["n"].where(d["n"] > 0, 1), np.nan)
    if not {"lo", "hi"} <= set(d.columns):
        d["lo"], d["hi"] = wilson_interval(d["k"].to_numpy(), d["n"].to_numpy())
    groups = list(dict.fromkeys(d["group"]))
    series = list(dict.fromkeys(d["series"]))
    width = 0.8 / max(1, len(series))
    d["x"] = np.nan
    for i, s in enumerate(series):
        m = (d["series"] == s) & (d["n"] > 0)
        sub = d[m]
        x = np.array([groups.index(g) for g in sub["group"]], float) + (i - (len(series) - 1) / 2) * width
        d.loc[m, "x"] = x
        yerr = np.vstack([sub["rate"] - sub["lo"], sub["hi"] - sub["rate"]]) * 100
        ax.bar(x, sub["rate"] * 100, width * 0.95, yerr=yerr, capsize=3, label=s)
        n_labels(ax, x, sub["hi"] * 100, sub["n"], fontsize=6)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    percent_axis(ax, top)
    if title:
        ax.set_title(title, fontsize=10)
    if series:
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(series), frameon=False)
    return d


def n_labels(ax, x, y, n, *, fontsize: float = 7) -> list:
    """'n=…' above each bar's error bar, written upwards so that neighbours never overlap."""
    return [ax.annotate(f"n={fmt_int(ni)}", (xi, yi), textcoords="offset points", xytext=(0, 3), ha="center",
                        va="bottom", rotation=90, fontsize=fontsize)
            for xi, yi, ni in zip(x, y, n)]


def percent_axis(ax, top: float = 100.0) -> None:
    """A y axis of percentages from 0 to ``top`` (ticks up to it) with room above it for the n labels."""
    from matplotlib.ticker import MaxNLocator

    ax.set_ylim(0, top * 1.3)
    ticks = MaxNLocator(nbins=6).tick_values(0, top)
    ax.set_yticks(ticks[(ticks >= 0) & (ticks <= top * 1.0001)])


def plot_win_prob(ax, curves: dict[str, pd.DataFrame], *, min_n: int = 1) -> dict[str, pd.DataFrame]:
    """Team 0 win rate against its lead (error bars clustered by game), one line per run.

    ``curves`` maps a label to :meth:`RunStats.win_curve` output. Returns the rows drawn.
    """
    drawn = {}
    for label, c in curves.items():
        d = c[c["n"] >= min_n]
        drawn[label] = d
        yerr = np.vstack([d["rate"] - d["lo"], d["hi"] - d["rate"]]) * 100
        ax.errorbar(d["x"], d["rate"] * 100, yerr=yerr, marker="o", ms=3, capsize=2,
                    label=f"{label} (n={fmt_int(d['n'].sum())} hands)")
    ax.axhline(50, color="grey", lw=0.6, ls=":")
    ax.axvline(0, color="grey", lw=0.6, ls=":")
    edge = LEAD_BINS * LEAD_BIN
    ax.set_xlabel(f"team 0 lead after the hand (points)\nbins of {LEAD_BIN}: …, -{LEAD_BIN} to -1, 0 to {LEAD_BIN - 1}, "
                  f"{LEAD_BIN} to {2 * LEAD_BIN - 1}, …; end bins ≤ {-edge - 1} and ≥ {edge}", fontsize=9)
    ax.set_ylabel("team 0 wins the game (%), 95 % clustered by game")
    ax.set_ylim(-2, 102)
    ax.set_title("Win probability against score lead", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    return drawn


# ------------------------------------------------------------------ the report
@dataclass
class ReportResult:
    """Files written by :func:`build_report` and the tables it rendered."""

    out_dir: Path
    html: Path
    markdown: Path
    charts: dict[str, tuple[Path, Path]]  # name -> (png, svg)
    tables: dict[str, pd.DataFrame]
    stats: list[RunStats]
    drawn: dict[str, dict] = field(default_factory=dict)  # chart name -> {panel: data drawn}


def _unique_labels(runs: list[Run]) -> list[str]:
    labels, seen = [], {}
    for r in runs:
        base = r.name
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


def _bin_width(span: int, target_bins: int = 40) -> int:
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / w <= target_bins:
            return w
    return 1000


class _Charts:
    def __init__(self, out: Path, lines: dict[str, str]) -> None:
        self.out = out
        self.lines = lines  # run label -> its caption line
        self.caption = "\n".join(self.lines.values())
        self.files: dict[str, tuple[Path, Path]] = {}
        self.png_b64: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        self.drawn: dict[str, dict] = {}

    def figure(self, n_axes: int = 1, *, width: float = 6.5, height: float = 4.2, sharey: bool = False,
               runs: list[RunStats] | None = None):
        """A figure with ``n_axes`` panels and a caption naming ``runs`` (default: all runs)."""
        from matplotlib.figure import Figure

        full = self.caption if runs is None else "\n".join(self.lines[s.label] for s in runs)

        ncols = min(n_axes, 3)
        nrows = math.ceil(n_axes / ncols)
        fig_w = max(width, 4.6 * ncols)
        # monospace 6.5 pt: about 0.6 * 6.5 pt per character
        chars = max(40, int((fig_w - 0.2) * 72 / (0.6 * 6.5)))
        caption = "\n".join(textwrap.fill(line, chars, subsequent_indent="    ")
                             for line in full.splitlines())
        cap_lines = caption.count("\n") + 1
        cap_h = 0.12 * cap_lines + 0.15
        fig_h = height * nrows + cap_h
        fig = Figure(figsize=(fig_w, fig_h), layout="constrained")
        fig.get_layout_engine().set(rect=(0, cap_h / fig_h, 1, 1 - cap_h / fig_h))
        axes = fig.subplots(nrows, ncols, squeeze=False, sharey=sharey).ravel()
        for ax in axes[n_axes:]:
            ax.set_visible(False)
        fig.text(0.01, 0.01, caption, fontsize=6.5, va="bottom", ha="left", family="monospace")
        return fig, list(axes[:n_axes])

    def save(self, name: str, fig, title: str, drawn: dict | None = None) -> None:
        """Write the chart ``name`` (PNG and SVG); ``drawn``: the data of each panel, kept for the caller."""
        chars = max(30, int(fig.get_figwidth() * 72 / (0.55 * 11)))
        fig.suptitle(textwrap.fill(title, chars), fontsize=11)
        png, svg = self.out / f"{name}.png", self.out / f"{name}.svg"
        buf = _io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        with atomic_output(png) as tmp:
            tmp.write_bytes(buf.getvalue())
        self.png_b64[name] = base64.b64encode(buf.getvalue()).decode("ascii")
        fig.set_layout_engine("none")  # keep the positions found for the PNG: the layout pass is costly
        with atomic_output(svg) as tmp:
            fig.savefig(tmp)
        self.files[name] = (png, svg)
        self.titles[name] = title
        self.drawn[name] = drawn or {}


def common_bins(hists, target_bins: int = 40) -> tuple[int, int, int]:
    """(lo, hi, width) covering every histogram of ``hists`` that holds data: panels compared side by side get
    the same bin edges."""
    ranges = [h.nonzero_range() for h in hists if h.n]
    if not ranges:
        return 0, 0, 1
    lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
    return lo, hi, _bin_width(hi - lo, target_bins)


def _team_panels(charts, stats, attr: str, xlabel: str, name: str, title: str, *, runs, bins: int = 40):
    """One panel per run with the two teams' histograms ``s.<attr>``, all on the same bin edges."""
    fig, axes = charts.figure(len(stats), sharey=True, runs=runs)
    lo, hi, w = common_bins([h for s in stats for h in getattr(s, attr)], bins)
    label = f"{xlabel} (bins of {w})" if "(" not in xlabel else xlabel.replace(")", f"; bins of {w})")
    drawn = {}
    for ax, s in zip(axes, stats):
        hists = getattr(s, attr)
        drawn[s.label] = plot_hist(ax, {TEAMS[t]: hists[t].rebin(w, lo, hi) for t in (0, 1)}, xlabel=label,
                                   title=s.label)
        ax.set_xlim(lo - w, hi + w)
    charts.save(name, fig, title, drawn)


def _draw_charts(stats: list[RunStats], charts: _Charts) -> None:
    _team_panels(charts, stats, "score_hist", "points in the hand", "hand_scores",
                 "Distribution of hand scores per team", runs=None)

    games = [s for s in stats if s.is_games and s.n_games]
    if games:
        _team_panels(charts, games, "totals_hist", "final total (points)", "final_totals",
                     "Distribution of final game totals", runs=games, bins=30)

        fig, (ax,) = charts.figure(1, runs=games)
        lo, hi, w = common_bins([s.length_hist for s in games], 40)
        drawn = plot_hist(ax, {s.label: s.length_hist.rebin(w, lo, hi) for s in games},
                          xlabel=f"hands per game (bins of {w})")
        charts.save("game_length", fig, "Game length in hands", {"": drawn})

        _team_panels(charts, games, "bags_game_hist", "bags taken per game", "bags_per_game",
                     "Bags taken per game and team", runs=games, bins=30)

        fig, (ax,) = charts.figure(1, runs=games)
        drawn = plot_win_prob(ax, {s.label: s.win_curve() for s in games})
        charts.save("win_prob_vs_lead", fig, "Team 0 win probability against its lead after a hand "
                                              "(deciding hand and tied games excluded)", drawn)

    fig, (ax,) = charts.figure(1, width=max(6.5, 1.6 * len(stats) + 2))
    rows = [_bar(s.label, TEAMS[t], s.made[t]) for s in stats for t in (0, 1)]
    drawn = plot_rate_bars(ax, pd.DataFrame(rows), ylabel=f"contract made (%), {_ci_text(stats)}")
    charts.save("contract_made", fig, "Contract-made rate per team (teams with a contract > 0)", {"": drawn})

    fig, axes = charts.figure(2, width=max(6.5, 1.6 * len(stats) + 2))
    bid_rows, ok_rows = [], []
    for s in stats:
        for kind, name in ((0, "Nil"), (1, "Blind Nil")):
            if kind == 1 and not (s.nil_bid[1].k or rule(s.run.rules, "blind_nil")):
                continue
            bid_rows.append(_bar(s.label, name, s.nil_bid[kind]))
            ok_rows.append(_bar(s.label, name, s.nil_ok[kind]))
    his = [e["hi"] for e in bid_rows if e["n"]]
    top = min(100.0, max(5.0, 110 * max(his))) if his else 100.0
    bids = plot_rate_bars(axes[0], pd.DataFrame(bid_rows), ylabel=f"bids per seat-hand (%), {_ci_text(stats)}",
                          title="bid rate", top=top)
    ok = plot_rate_bars(axes[1], pd.DataFrame(ok_rows), ylabel=f"success (%), {_ci_text(stats)}",
                        title="success rate")
    charts.save("nil_rates", fig, "Nil and Blind Nil: bid rate and success rate", {"bid rate": bids, "success rate": ok})


def _bar(group: str, series: str, c: ClusterRatio) -> dict:
    e = c.rate()
    return {"group": group, "series": series, "k": e.k, "n": e.n, "lo": e.lo, "hi": e.hi}


def _ci_text(stats: list[RunStats]) -> str:
    """How the hand-level intervals of these runs are made, for an axis label."""
    modes = {s.is_games for s in stats}
    return "95 % clustered by " + ("game / hand" if len(modes) > 1 else "game" if True in modes else "hand")


# ------------------------------------------------------------------------ Tarot runs
@dataclass
class TarotStats:
    """What the report needs from one Tarot run: the summary counts and the taker's score by contract."""

    run: Run
    label: str
    numbers: dict
    score_hist: dict  # contract name -> IntHist of the taker's score

    def merge(self, other: TarotStats) -> TarotStats:
        """Add the figures of ``other``, the same run's other shards."""
        self.numbers = merge([self.numbers, other.numbers])
        self.score_hist = merge([self.score_hist, other.score_hist])
        return self


def collect_tarot(run: Run, label: str, batch_rows: int = DEFAULT_BATCH_ROWS, *,
                  engine: Engine | None = None) -> TarotStats:
    """Stream one Tarot run into a :class:`TarotStats` (with a Dask ``engine``, a few shards a worker)."""
    st = (engine or Engine()).map_run(partial(_collect_tarot_part, label=label, batch_rows=batch_rows), run)
    st.run = st.numbers["run"] = run
    return st


def _collect_tarot_part(run: Run, label: str, batch_rows: int) -> TarotStats:
    from .tarot import CONTRACTS, tarot_numbers

    hists = {c: IntHist(-6000, 6000) for c in CONTRACTS}
    cols = ["void", "taker", "contract"] + [f"score_{s}" for s in range(4)]
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        played = a["void"] == 0
        taker_score = np.stack([a[f"score_{s}"] for s in range(4)])[np.clip(a["taker"], 0, 3),
                                                                    np.arange(batch.num_rows)]
        for code, name in enumerate(CONTRACTS, start=1):
            hists[name].add(taker_score[played & (a["contract"] == code)])
    return TarotStats(run=run, label=label, numbers=tarot_numbers(run, batch_rows=batch_rows), score_hist=hists)


def tarot_caption(stats: list[TarotStats]) -> str:
    diffs = _differing_rules([s.run for s in stats])
    lines = []
    for s, d in zip(stats, diffs):
        flags = (" + " + ", ".join(f"{k}={v}" for k, v in d.items())) if d else ""
        seats = sorted(set(s.run.seat_labels))
        who = f"all seats {seats[0]}" if len(seats) == 1 else "seats " + " | ".join(s.run.seat_labels)
        lines.append(f"{s.label}: tarot {s.run.preset}{flags}; {who}; {fmt_int(s.numbers['deals'])} deals")
    return "\n".join(lines)


def tarot_key_table(stats: list[TarotStats], conf: float = 0.95) -> pd.DataFrame:
    """Tarot metrics (rows) × runs (columns). Deals are independent: Wilson intervals for rates, t for means."""
    from .tarot import CONTRACTS

    rows: dict[str, dict[str, str]] = {}

    def put(metric, label, value):
        rows.setdefault(metric, {})[label] = value

    def mean(m: Moments):
        if m.n < 2:
            return f"— (n={m.n})"
        e = m.estimate(conf)
        return fmt_mean(e.value, e.lo, e.hi, e.n, 1)

    for s in stats:
        r, L = s.numbers, s.label
        played = r["played"]
        put("deals", L, fmt_int(r["deals"]))
        put("void: all passed", L, fmt_rate(r["void_all_pass"], r["deals"], conf))
        put("void: Petit sec", L, fmt_rate(r["void_petit_sec"], r["deals"], conf))
        put("taker wins (every contract)", L, fmt_rate(r["won"], played, conf))
        put("taker's score (every contract)", L, mean(r["taker_score"]))
        for name in CONTRACTS:
            c = r["by_contract"][name]
            put(f"{name}: share of played deals", L, fmt_rate(c["deals"], played, conf))
            put(f"{name}: taker wins", L, fmt_rate(c["won"], c["deals"], conf))
            put(f"{name}: taker's score", L, mean(c["taker_score"]))
            put(f"{name}: taker's card points", L, mean(c["points"]))
        put("petit au bout (either side)", L, fmt_rate(r["petit_au_bout"], played, conf))
        put("a poignée shown", L, fmt_rate(r["poignee"], played, conf))
        put("slam (either side)", L, fmt_rate(r["slam"], played, conf))
        put("Chelem announced", L, fmt_rate(r["chelem"], played, conf))
    df = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[s.label for s in stats]).fillna("—")
    df.index.name = "metric"
    return df.reset_index()


def _draw_tarot_charts(stats: list[TarotStats], charts: _Charts) -> None:
    from .tarot import CONTRACTS

    fig, (ax,) = charts.figure(1, width=max(6.5, 2.2 * len(stats) + 2), runs=stats)
    rows = [{"group": s.label, "series": name, "k": s.numbers["by_contract"][name]["won"],
             "n": s.numbers["by_contract"][name]["deals"]} for s in stats for name in CONTRACTS]
    plot_rate_bars(ax, pd.DataFrame(rows), ylabel="taker wins (%), 95 % Wilson")
    charts.save("tarot_taker_success", fig, "Tarot: the taker's success by contract")

    fig, axes = charts.figure(len(stats), sharey=True, runs=stats)
    lo, hi, w = common_bins([h for s in stats for h in s.score_hist.values()], 40)
    drawn = {}
    for ax, s in zip(axes, stats):
        if not any(h.n for h in s.score_hist.values()):
            continue
        drawn[s.label] = plot_hist(ax, {name: h.rebin(w, lo, hi) for name, h in s.score_hist.items() if h.n},
                                   xlabel=f"taker's score (points; bins of {w})", title=s.label)
        ax.set_xlim(lo - w, hi + w)
    charts.save("tarot_taker_scores", fig, "Tarot: distribution of the taker's score by contract", drawn)


def _html_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, escape=True, border=0, classes="t", na_rep="—")


def _md_escape(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def md_table(df: pd.DataFrame) -> str:
    """A DataFrame as a GitHub-flavoured Markdown table (no extra dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(_md_escape(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_md_escape(v) for v in row) + " |")
    return "\n".join(lines)


_CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
table.t{border-collapse:collapse;font-size:13px;margin:1em 0;max-width:100%}
table.t th,table.t td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top;
overflow-wrap:anywhere}
table.t th{background:#f4f4f4} figure{margin:1.5em 0} img{max-width:100%}
figcaption{font-size:12px;color:#444} .note{color:#a50} details{margin:1em 0} li code{overflow-wrap:anywhere}"""


def method_text(stats: list, tarot: list) -> str:
    """How the report's intervals are built (stated once, above the tables)."""
    parts = [("Rates: 95 % Wilson score intervals; means: 95 % t intervals; n = observations (hands, team-hands "
              "with a contract, seat-hands, Nil bids or games, as the row says).")]
    if any(s.is_games for s in stats):
        parts.append("Games-mode runs: the hands of one game are not independent, so every hand-level figure (contract "
                     "made, hand score, bags per hand, Nil and Blind Nil rates, the win rate by lead) has an interval "
                     "clustered by game: the ratio-estimator variance over games, G/(G−1)·Σ(y_g − r·n_g)²/(Σn)², with a "
                     "t interval on G − 1 degrees of freedom for a mean and, for a rate, the Wilson interval at the "
                     "effective sample size n/deff. Game-level rows (wins, length, totals, bags and penalties per game) "
                     "have one observation per game.")
    if any(not s.is_games for s in stats):
        parts.append("Hands-mode runs: every hand is dealt and played on its own, so hands are independent; the four "
                     "seat-hands of one hand are clustered together in the Nil rates.")
    if tarot:
        parts.append("Tarot runs: one observation per deal (deals are independent).")
    return " ".join(parts)


def build_report(runs, out_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, title: str = "tricksim report",
                 conf: float = 0.95, engine: str = "local", scheduler: str | None = None) -> ReportResult:
    """Analyse one or more runs side by side and write the report into ``out_dir``.

    Returns a :class:`ReportResult` with the paths of ``report.html``,
    ``summary.md`` and each chart (PNG, SVG), the tables rendered and the data each chart drew.
    ``engine="dask"``: the files are read and summed on Dask workers (the same report).
    Raises :class:`~tricksim.analysis.io.AnalysisError` for an invalid run directory.
    """
    runs = open_runs(runs)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    labelled = list(zip(runs, _unique_labels(runs)))
    with Engine(engine, scheduler) as e:
        stats = [collect(r, label=l, batch_rows=batch_rows, engine=e) for r, l in labelled if r.game == "spades"]
        tarot = [collect_tarot(r, l, batch_rows, engine=e) for r, l in labelled if r.game == "tarot"]

    lines = {}
    if stats:
        lines.update(zip((s.label for s in stats), variant_caption(stats).splitlines()))
    if tarot:
        lines.update(zip((s.label for s in tarot), tarot_caption(tarot).splitlines()))
    charts = _Charts(out, lines)
    if stats:
        _draw_charts(stats, charts)
    if tarot:
        _draw_tarot_charts(tarot, charts)

    tables = {"runs": runs_table(stats, tarot), "rules": rules_table(runs)}
    if stats:
        tables["key"] = key_table(stats, conf)
    if tarot:
        tables["tarot"] = tarot_key_table(tarot, conf)
    wp = win_prob_table(stats, conf)
    if wp is not None:
        tables["win_prob"] = wp
    specs = seat_specs(runs)
    notes = [f"{s.label}: {n}" for s in stats for n in s.notes]
    notes += [n.removeprefix("note: ") for n in pooling_notes(runs) if "pooled over" not in n]  # unfinished runs
    method = method_text(stats, tarot)
    win_note = ("The hand that decides the game and games tied at the hand limit are excluded; bins of "
                f"{LEAD_BIN} points, the end bins open; intervals clustered by game (n = hands; the games they "
                "come from after it).")

    # ---- HTML: each chart carries its own title and caption (drawn in the image): the page does not repeat them
    h = [("<!DOCTYPE html><html><head><meta charset='utf-8'>"
          "<meta name='viewport' content='width=device-width, initial-scale=1'>"
          f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"), f"<h1>{html.escape(title)}</h1>",
         f"<p>{html.escape(method)}</p>",
         "<h2>Runs</h2>", _html_table(tables["runs"]),
         "<details><summary>Every rule flag, and the seats' strategies in full</summary>",
         _html_table(tables["rules"]),
         "<ul>" + "".join(f"<li><code>{html.escape(x)}</code></li>" for x in specs) + "</ul></details>"]
    if "key" in tables:
        h += ["<h2>Key results</h2>", _html_table(tables["key"])]
    if "tarot" in tables:
        h += ["<h2>Tarot key results</h2>", ("<p>One observation per deal (deals are independent); the taker's "
              "score is 3t, each defender's -t.</p>"), _html_table(tables["tarot"])]
    if notes:
        h.append("<ul>" + "".join(f"<li class='note'>{html.escape(n)}</li>" for n in notes) + "</ul>")
    if wp is not None:
        h += ["<h2>Team 0 win rate by lead after a hand</h2>", f"<p>{html.escape(win_note)}</p>", _html_table(wp)]
    h.append("<h2>Charts</h2>")
    for name, (png, svg) in charts.files.items():
        h.append(f"<figure id='{name}'><img alt='{html.escape(charts.titles[name])}' "
                 f"src='data:image/png;base64,{charts.png_b64[name]}'>"
                 f"<figcaption>Files: <a href='{png.name}'>{png.name}</a>, <a href='{svg.name}'>{svg.name}</a>"
                 "</figcaption></figure>")
    h.append("</body></html>")
    html_path = out / "report.html"
    with atomic_output(html_path) as tmp:
        tmp.write_text("\n".join(h), encoding="utf-8")

    # ---- Markdown
    md = [f"# {title}", "", method, "", "## Runs", "", md_table(tables["runs"]), "",
          "### Every rule flag", "", md_table(tables["rules"]), "", "### The seats' strategies in full", ""]
    md += [f"- `{x}`" for x in specs] + [""]
    if "key" in tables:
        md += ["## Key results", "", md_table(tables["key"]), ""]
    if "tarot" in tables:
        md += ["## Tarot key results", "", "One observation per deal (deals are independent).", "",
               md_table(tables["tarot"]), ""]
    if notes:
        md += [f"- {n}" for n in notes] + [""]
    if wp is not None:
        md += ["## Team 0 win rate by lead after a hand", "", win_note, "", md_table(wp), ""]
    md += ["## Charts", "", "Each chart names the runs under it (preset, the rule flags that differ, the seats).", ""]
    for name, (png, svg) in charts.files.items():
        md += [f"![{charts.titles[name]}]({png.name}) ([SVG]({svg.name}))", ""]
    md_path = out / "summary.md"
    with atomic_output(md_path) as tmp:
        tmp.write_text("\n".join(md), encoding="utf-8")
    return ReportResult(out_dir=out, html=html_path, markdown=md_path, charts=charts.files, tables=tables,
                        stats=stats + tarot, drawn=charts.drawn)
