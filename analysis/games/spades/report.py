"""The Spades part of ``tricksim report``: each run's hands streamed batch by batch into fixed-bin integer
histograms and sums per game (:class:`~tricksim.analysis.stats.ClusterRatio`: a hand-level figure's interval
is clustered by game) (:func:`collect`), so memory does not grow with the run. Games-mode runs also read
their (much smaller) games table: final totals, game length, end reasons, and the win probability of team 0
against its lead after each hand, each hand joined to its game's winner on ``game_id``.

Its tables (:func:`key_table`, :func:`win_prob_table`) and charts (hand scores, final totals, game length,
bags per game, win probability vs lead, contract-made rate, Nil rates) go into the report that
:mod:`tricksim.analysis.report` assembles (:func:`report_part`).

Every per-team figure is a per-side one (``outcomes.sides``): the two teams, or in a cutthroat run every
player alone (as many as the rules' ``seats``), each with its own score, bags, contract and wins. The lead of
the win-probability curve is side 0's (``outcomes.lead``): team 0's over team 1, or seat 0's over the best
other seat's.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field, fields
from functools import partial

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, Run, batch_arrays, open_run
from ...parallel import Engine, merge
from ...plots import Charts, IntHist, common_bins, plot_hist, plot_rate_bars
from ...report import ReportPart, Section, differing_rules, rules_caption
from ...stats import (
    ClusterOrderError,
    ClusterRatio,
    Clusters,
    Moments,
    fmt_estimate,
    fmt_int,
    fmt_rate,
    fmt_rate_interval,
    update_by_key,
)
from .outcomes import (
    NUMBER_WORDS,
    PerGame,
    lead,
    nil_bid,
    others_text,
    outcome_columns,
    partnerships,
    penalties_fresh,
    rule,
    seats,
    side_name,
    sides,
    team_outcomes,
)

__all__ = ["LEAD_BIN", "RunStats", "collect", "key_table", "plot_win_prob", "report_part", "win_prob_table"]

LEAD_BIN = 50          # width of the score-lead bins of the win-probability curve: [0, 50), [50, 100), ...
LEAD_BINS = 10         # bins of LEAD_BIN on each side of 0, then one open-ended bin each side
N_LEAD = 2 * LEAD_BINS + 2
TEAMS = ("team 0 (seats 0+2)", "team 1 (seats 1+3)")
MAX_SIDES = 4  # the per-side lists hold four: two teams use the first two, cutthroat's players one each
WIN_NOTE = ("The hand that decides the game and games tied at the hand limit are excluded; bins of "
            f"{LEAD_BIN} points, the end bins open; intervals clustered by game (n = hands; the games they "
            "come from after it).")
ALONE_WIN_NOTE = " In a cutthroat run the lead is seat 0's over {others}."


def side_label(run: Run, k: int) -> str:
    """'team 0 (seats 0+2)', or in a cutthroat run 'seat 0 (heuristic)'."""
    return TEAMS[k] if partnerships(run.rules) else f"seat {k} ({run.seat_labels[k]})"


def _per_side(cls) -> list:
    return [cls() for _ in range(MAX_SIDES)]


# ------------------------------------------------------------------ collection
@dataclass
class RunStats:
    """Everything the report needs from one run, accumulated in one streaming pass."""

    run: Run
    label: str
    n_hands: int = 0
    n_games: int = 0
    score_hist: list = field(default_factory=lambda: [IntHist(-1500, 1500) for _ in range(MAX_SIDES)])
    # hand-level figures, one a side: sums per game (ClusterRatio), so that their intervals are clustered by game
    score: list = field(default_factory=lambda: _per_side(ClusterRatio))
    bags_hand: list = field(default_factory=lambda: _per_side(ClusterRatio))
    penalties_hand: list = field(default_factory=lambda: _per_side(ClusterRatio))
    made: list = field(default_factory=lambda: _per_side(ClusterRatio))      # made / side-hands with a contract
    # with the double-dummy columns of tricksim dd: per team, tricks bid, taken and double dummy a hand
    has_dd: bool = False
    tricks_bid: list = field(default_factory=lambda: _per_side(ClusterRatio))
    tricks_taken: list = field(default_factory=lambda: _per_side(ClusterRatio))
    tricks_dd: list = field(default_factory=lambda: _per_side(ClusterRatio))
    seat_hands: int = 0
    nil_bid: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])   # [Nil, Blind Nil] bids / seat-hands
    nil_ok: list = field(default_factory=lambda: [ClusterRatio(), ClusterRatio()])    # successes / bids
    # games mode
    totals_hist: list = field(default_factory=lambda: [IntHist(-5000, 5000) for _ in range(MAX_SIDES)])
    totals: list = field(default_factory=lambda: _per_side(Moments))
    margin: Moments = field(default_factory=Moments)  # side 0's final lead (outcomes.lead)
    length_hist: IntHist = field(default_factory=lambda: IntHist(0, 2000))
    length: Moments = field(default_factory=Moments)
    wins: list = field(default_factory=lambda: [0] * MAX_SIDES)
    ties: int = 0
    ends: dict = field(default_factory=dict)
    bags_game_hist: list = field(default_factory=lambda: [IntHist(0, 2000) for _ in range(MAX_SIDES)])
    bags_game: list = field(default_factory=lambda: _per_side(Moments))
    penalties_game: list = field(default_factory=lambda: _per_side(Moments))
    # win probability vs lead (side 0's view): wins / hands per lead bin, clustered by game, over every
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
    def sides(self) -> int:
        return sides(self.run.rules)

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
        """Side 0's win rate by its lead (``outcomes.lead``) after a hand (the game's deciding hand excluded; ties excluded), each
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


def hand_columns(rules: dict | None) -> list[str]:
    """The hand columns the report reads from a run of ``rules``: each side's score, bags and total."""
    return (["game_id", "hand_no"] + [f"{c}_{k}" for c in ("score", "bags", "total") for k in range(sides(rules))]
            + outcome_columns(rules))


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
    blind_cols = [f"blind_{s}" for s in range(seats(rules))]
    has_blind = run.has_columns("hands", blind_cols)
    cols = hand_columns(rules) + (blind_cols if has_blind else [])
    n_sides = sides(rules)

    per_game = None
    winners = None
    if run.is_games:
        gcols = ["game_id", "hands", *(f"total_{k}" for k in range(n_sides)), "winner"]
        gid_parts, hands_parts, win_parts = [], [], []
        ends = {}
        end_ok = run.has_columns("games", ["end"])
        for b in run.iter_games(gcols + (["end"] if end_ok else []), batch_rows):
            g = batch_arrays(b, gcols)
            gid_parts.append(g["game_id"].astype(np.int64))
            hands_parts.append(g["hands"].astype(np.int32))
            win_parts.append(g["winner"].astype(np.int8))
            for t in range(n_sides):
                st.totals_hist[t].add(g[f"total_{t}"])
                st.totals[t].update(g[f"total_{t}"])
                st.wins[t] += int((g["winner"] == t).sum())
            st.margin.update(lead([g[f"total_{k}"] for k in range(n_sides)], 0))
            st.length_hist.add(g["hands"])
            st.length.update(g["hands"])
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
        for t in range(n_sides):
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
    n_sides = sides(rules)
    for t in range(n_sides):
        o = team_outcomes(a, t, rules)
        st.score_hist[t].add(a[f"score_{t}"])
        st.score[t].update(games, a[f"score_{t}"])
        st.bags_hand[t].update(games, o["bags"])
        st.made[t].update(games, o["made"] & o["has_contract"], o["has_contract"])
        if not st.run.is_games:
            st.penalties_hand[t].update(games, penalties_fresh(o["bags"], a[f"bags_{t}"], rules))
        if "dd_tricks_0" in a and not partnerships(rules):  # a seat alone: its own (dd_tricks_t, tricksim dd)
            st.tricks_bid[t].update(games, a[f"bid_{t}"].astype(np.int64))
            st.tricks_taken[t].update(games, a[f"tricks_{t}"].astype(np.int64))
            st.tricks_dd[t].update(games, a[f"dd_tricks_{t}"].astype(np.int64))
        elif "dd_tricks_0" in a:
            st.tricks_bid[t].update(games, a[f"bid_{t}"].astype(np.int64) + a[f"bid_{t + 2}"])
            st.tricks_taken[t].update(games, a[f"tricks_{t}"].astype(np.int64) + a[f"tricks_{t + 2}"])
            dd0 = a["dd_tricks_0"].astype(np.int64)
            st.tricks_dd[t].update(games, dd0 if t == 0 else 13 - dd0)
    n_seats = seats(rules)
    st.seat_hands += n_seats * n
    nil = np.stack([nil_bid(a[f"bid_{s}"], rules) for s in range(n_seats)])
    blind = np.stack([a[f"blind_{s}"] for s in range(n_seats)]) if has_blind else np.zeros((n_seats, n), bool)
    ok = np.stack([a[f"tricks_{s}"] == 0 for s in range(n_seats)])
    for kind, sel in ((0, nil & ~blind), (1, nil & blind)):
        bids = sel.sum(axis=0)
        st.nil_bid[kind].update(games, bids, np.full(n, n_seats))
        st.nil_ok[kind].update(games, (sel & ok).sum(axis=0), bids)
    if per_game is not None:
        per_game.add(a)
        pos = per_game.index.locate(gid)
        w = winners[pos]
        keep = w >= 0
        b = lead_bin(lead([a[f"total_{k}"] for k in range(n_sides)], 0))
        nh = per_game.hands[pos].astype(np.int64)
        for key, sel in (("excl0", keep & (hn != nh - 1)), ("excl1", keep & (hn != nh))):
            update_by_key(st.lead[key], b[sel], gid[sel], (w[sel] == 0))


def variant_caption(stats: list[RunStats]) -> str:
    """One caption line per run: preset, the flags that differ between the runs, strategies."""
    diffs = differing_rules([s.run for s in stats])
    lines = []
    for s, d in zip(stats, diffs):
        size = (f"{fmt_int(s.n_hands)} hands in {fmt_int(s.n_games)} whole games" if s.is_games else
                f"{fmt_int(s.n_hands)} independent hands")
        lines.append(f"{s.label}: {rules_caption(s.run, d)}; {_players_text(s.run)}; {size}")
    return "\n".join(lines)


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
        sides = range(s.sides)
        side = partial(side_name, s.run.rules)
        for t in sides:
            put(f"contract made, {side(t)}", L, crate(s.made[t]))
        for t in sides:
            put(f"hand score, {side(t)}", L, mean(s.score[t]))
        for t in sides:
            put(f"bags per hand, {side(t)}", L, mean(s.bags_hand[t], 3))
        if not s.is_games:
            for t in sides:
                put(f"bag penalties per hand, {side(t)}", L, mean(s.penalties_hand[t], 4))
        if s.has_dd:
            for t in sides:
                put(f"tricks bid a hand, {side(t)}", L, mean(s.tricks_bid[t]))
                put(f"tricks taken a hand, {side(t)}", L, mean(s.tricks_taken[t]))
                put(f"tricks double dummy a hand, {side(t)} (tricksim dd)", L, mean(s.tricks_dd[t]))
        put("Nil bid rate (per seat-hand)", L, crate(s.nil_bid[0]))
        put("Nil success", L, crate(s.nil_ok[0]))
        if s.nil_bid[1].k or rule(s.run.rules, "blind_nil"):
            put("Blind Nil bid rate (per seat-hand)", L, crate(s.nil_bid[1]))
            put("Blind Nil success", L, crate(s.nil_ok[1]))
        if s.is_games:
            for t in sides if not partnerships(s.run.rules) else (0,):  # two teams: team 1's wins are the rest but the ties
                put(f"{side(t)} wins", L, rate(s.wins[t], s.n_games))
            put("tied games (hand limit)", L, fmt_int(s.ties))
            put("game length (hands)", L, mean(s.length))
            for t in sides:
                put(f"final total, {side(t)}", L, mean(s.totals[t], 1))
            put("final margin (team 0 − team 1)" if partnerships(s.run.rules) else
                "final margin (seat 0 − the best other seat)",
                L, mean(s.margin, 1))
            for t in sides:
                put(f"bags per game, {side(t)}", L, mean(s.bags_game[t]))
            for t in sides:
                put(f"bag penalties per game, {side(t)}", L, mean(s.penalties_game[t], 3))
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
    """Side 0's win rate by lead bin (rows) × games-mode runs (columns), intervals clustered by game; None
    without games runs."""
    g = [s for s in stats if s.is_games]
    if not g:
        return None
    curves = [s.win_curve(conf) for s in g]
    out = pd.DataFrame({f"{_side0(g)} lead after hand (points)": curves[0]["label"]})
    for s, c in zip(g, curves):
        out[s.label] = [_with_games(fmt_rate_interval(r, lo, hi, n), gm) if n else fmt_rate_interval(r, lo, hi, n)
                        for r, lo, hi, n, gm in zip(c["rate"], c["lo"], c["hi"], c["n"], c["games"])]
    keep = np.zeros(len(out), bool)
    for c in curves:
        keep |= c["n"].to_numpy() > 0
    return out[keep].reset_index(drop=True)


def plot_win_prob(ax, curves: dict[str, pd.DataFrame], *, min_n: int = 1, who: str = "team 0") -> dict[str, pd.DataFrame]:
    """Side 0's win rate against its lead (error bars clustered by game), one line per run.

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
    ax.set_xlabel(f"{who} lead after the hand (points)\nbins of {LEAD_BIN}: …, -{LEAD_BIN} to -1, 0 to {LEAD_BIN - 1}, "
                  f"{LEAD_BIN} to {2 * LEAD_BIN - 1}, …; end bins ≤ {-edge - 1} and ≥ {edge}", fontsize=9)
    ax.set_ylabel(f"{who} wins the game (%), 95 % clustered by game")
    ax.set_ylim(-2, 102)
    ax.set_title("Win probability against score lead", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    return drawn


def _side0(stats: list[RunStats]) -> str:
    """Whose lead the win-probability curve follows: 'team 0', 'seat 0' or both."""
    return " / ".join(dict.fromkeys(side_name(s.run.rules, 0) for s in stats))


def _side_noun(stats: list[RunStats]) -> str:
    """What a side is in these runs: 'team', 'player' (cutthroat, each alone) or 'team or player'."""
    return " or ".join(dict.fromkeys("team" if partnerships(s.run.rules) else "player" for s in stats))


def _team_panels(charts, stats, attr: str, xlabel: str, name: str, title: str, *, runs, bins: int = 40):
    """One panel per run with the sides' histograms ``s.<attr>`` (two teams, or every player alone), all on the
    same bin edges."""
    fig, axes = charts.figure(len(stats), sharey=True, runs=runs)
    lo, hi, w = common_bins([h for s in stats for h in getattr(s, attr)[:s.sides]], bins)
    label = f"{xlabel} (bins of {w})" if "(" not in xlabel else xlabel.replace(")", f"; bins of {w})")
    drawn = {}
    for ax, s in zip(axes, stats):
        hists = getattr(s, attr)
        drawn[s.label] = plot_hist(ax, {side_label(s.run, t): hists[t].rebin(w, lo, hi) for t in range(s.sides)},
                                   xlabel=label, title=s.label)
        ax.set_xlim(lo - w, hi + w)
    charts.save(name, fig, title, drawn)


def _draw_charts(stats: list[RunStats], charts: Charts) -> None:
    _team_panels(charts, stats, "score_hist", "points in the hand", "hand_scores",
                 f"Distribution of hand scores per {_side_noun(stats)}", runs=None)

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
                     f"Bags taken per game and {_side_noun(games)}", runs=games, bins=30)

        fig, (ax,) = charts.figure(1, runs=games)
        drawn = plot_win_prob(ax, {s.label: s.win_curve() for s in games}, who=_side0(games))
        charts.save("win_prob_vs_lead", fig, f"{_side0(games).capitalize()} win probability against its lead after "
                                              "a hand (deciding hand and tied games excluded)", drawn)

    fig, (ax,) = charts.figure(1, width=max(6.5, 1.6 * len(stats) + 2))
    rows = [_bar(s.label, side_label(s.run, t), s.made[t]) for s in stats for t in range(s.sides)]
    drawn = plot_rate_bars(ax, pd.DataFrame(rows), ylabel=f"contract made (%), {_ci_text(stats)}")
    noun = _side_noun(stats)
    charts.save("contract_made", fig, f"Contract-made rate per {noun} ({noun}s with a contract > 0)", {"": drawn})

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


# ------------------------------------------------------------------ the report's Spades part
def _seats_text(run: Run) -> str:
    labels = run.seat_labels
    if len(set(labels)) == 1:
        return f"all seats {labels[0]}"
    if not partnerships(run.rules):
        return "; ".join(f"seat {s} = {x}" for s, x in enumerate(labels))
    t0, t1 = run.team_strategies()
    return f"team 0 = {t0}; team 1 = {t1}"


def _players_text(run: Run) -> str:
    """Who plays: the teams' strategies, or in a cutthroat run each seat's (each player alone)."""
    if not partnerships(run.rules):
        return "cutthroat, each player alone: " + ", ".join(f"seat {s} plays {x}"
                                                              for s, x in enumerate(run.seat_labels))
    t0, t1 = run.team_strategies()
    return f"team 0 plays {t0}, team 1 plays {t1}"


def _method(stats: list[RunStats]) -> list[str]:
    parts = []
    if any(s.is_games for s in stats):
        parts.append("Games-mode runs: the hands of one game are not independent, so every hand-level figure (contract "
                     "made, hand score, bags per hand, Nil and Blind Nil rates, the win rate by lead) has an interval "
                     "clustered by game: the ratio-estimator variance over games, G/(G−1)·Σ(y_g − r·n_g)²/(Σn)², with a "
                     "t interval on G − 1 degrees of freedom for a mean and, for a rate, the Wilson interval at the "
                     "effective sample size n/deff. Game-level rows (wins, length, totals, bags and penalties per game) "
                     "have one observation per game.")
    if any(not s.is_games for s in stats):
        counts = " or ".join(NUMBER_WORDS[n] for n in sorted({seats(s.run.rules) for s in stats if not s.is_games}))
        parts.append(f"Hands-mode runs: every hand is dealt and played on its own, so hands are independent; the {counts} "
                     "seat-hands of one hand are clustered together in the Nil rates.")
    return parts


def report_part(runs: list[tuple[Run, str]], *, batch_rows: int = DEFAULT_BATCH_ROWS, conf: float = 0.95,
                engine: Engine | None = None) -> ReportPart:
    """The Spades runs' share of the report: ``runs`` are (run, label) pairs."""
    stats = [collect(r, label=label, batch_rows=batch_rows, engine=engine) for r, label in runs]
    wp = win_prob_table(stats, conf)
    alone = sorted({seats(s.run.rules) for s in stats if not partnerships(s.run.rules)}, reverse=True)
    note = WIN_NOTE + (ALONE_WIN_NOTE.format(others=" or ".join(others_text(n) for n in alone)) if alone else "")
    return ReportPart(
        stats=stats, captions=variant_caption(stats).splitlines(),
        cells=[{"seats": _seats_text(s.run), "hands": fmt_int(s.n_hands),
                **({"games": fmt_int(s.n_games)} if s.is_games else {})} for s in stats],
        method=_method(stats), key=[Section("key", "Key results", key_table(stats, conf))],
        notes=[f"{s.label}: {n}" for s in stats for n in s.notes],
        detail=[] if wp is None else [Section("win_prob", f"{_side0(stats).capitalize()} win rate by lead after a "
                                              "hand", wp, html_note=html.escape(note), md_note=note)],
        draw=partial(_draw_charts, stats))
