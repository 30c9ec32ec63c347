"""The variant atlas of Spades: every rule variant played by the same two players in duplicate, side by side.

Each variant is a duplicate match of two runs (``tricksim.jobs.spades.atlas`` plays them): the stronger
player as team 0 and the weaker as team 1 (table *ab*), then the seats swapped on the same deals (table
*ba*). Game ``g`` of both tables is dealt the same cards, so the two games of a deal are not independent:
every figure below that pools the games or hands of both tables is clustered by **deal** (the game id), and
the paired figures take the duplicate **pair** (one deal played on both tables) as the unit.

Per variant (:func:`variant_figures`):

* hand score per team-hand, game length in hands, the share of games ended by the target, the mercy rule
  or the hand limit; Nil and Blind Nil bid rates (per seat-hand) and success rates (per bid), bags per
  team-hand, bag penalties per game (both teams), contracts made (team-hands with a contract): each a
  :class:`~tricksim.analysis.stats.ClusterRatio` over the rows of both tables, clustered by deal (a mean's t
  interval on deals − 1 degrees of freedom, a rate's Wilson interval at the effective sample size);
* **skill**: the stronger player's paired win rate (mean pair score, t interval over pairs, as
  :func:`~tricksim.analysis.games.spades.compare.duplicate_match`), the share of pairs it won on both tables
  (Wilson over pairs), the final margin stronger − weaker (pair means);
* **luck**: the share of decided pairs won by the same cards on both tables (the team holding the same
  seats' cards won both games, whoever played them: the deal alone decided), Wilson over pairs.

A variant without partnerships (cutthroat, each player alone) has no teams to swap: it is played as a
rotation (:mod:`~tricksim.analysis.games.spades.cutthroat`: the stronger player alone in each seat in turn
against the weaker others, and a field of weaker players on the same deals, at the table of the rules'
``seats``), and :func:`alone_variant_figures` gives the same pooled figures over its seat tables per
*seat*-hand (a player's score, bags and contract), with the rotation's skill and luck
(:func:`alone_figures`): the stronger's games won against its 1/n share (25 % at four), the
deals it won from every seat, the deals the same seat won on every table (luck), its final lead over the best
other seat, and its points a hand over the weaker in the same seat on the same cards. These are not the
partnership figures: the page shows them in tables of their own, one a seat count.

:func:`write_atlas` draws the charts (hand score, final margin and game length on bins shared by every
variant; the rates; skill and luck) and writes ``atlas.html`` and ``atlas.md`` into a folder.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...atlas import AtlasResult, Section, Variant, atlas_markdown, central_range, hist_panel, rate_frame, write_page
from ...atlas import atlas_table as _atlas_table
from ...io import AnalysisError, batch_arrays, open_run
from ...plots import Charts, IntHist, plot_rate_bars
from ...stats import Estimate, fmt_int, proportion
from .compare import DuplicateResult, duplicate_match_runs
from .cutthroat import by_deal, cluster_ratio, deal_sums, luck_baseline, rotation_figures
from .outcomes import NUMBER_WORDS, PerGame, nil_bid, others_text, per_game_columns, seats, sides, team_outcomes

__all__ = ["ALONE_FIGURES", "FIGURES", "AtlasResult", "VariantFigures", "alone_figures", "alone_variant_figures",
           "atlas_markdown", "atlas_table", "variant_figures", "write_atlas"]

ENDS = ("target", "mercy", "limit")


def hand_columns(n_sides: int, n_seats: int = 4) -> list[str]:
    return (["game_id", "hand_no", *(f"score_{k}" for k in range(n_sides))]
            + [f"{p}_{s}" for p in ("bid", "blind", "tricks", "dealt") for s in range(n_seats)])


def game_columns(n_sides: int) -> list[str]:
    return ["game_id", "hands", *(f"total_{k}" for k in range(n_sides)), "winner", "end"]

#: the figures of a variant, in the order of the table: key -> (label, unit of n)
FIGURES = {
    "hand_score": ("hand score (per team-hand)", "team-hands"),
    "length": ("game length (hands)", "games"),
    "end_target": ("games ended by the target", "games"),
    "end_mercy": ("games ended by the mercy rule", "games"),
    "end_limit": ("games ended at the hand limit", "games"),
    "nil_bid": ("Nil bid (per seat-hand)", "seat-hands"),
    "nil_made": ("Nil made (per Nil bid)", "Nil bids"),
    "blind_bid": ("Blind Nil bid (per seat-hand)", "seat-hands"),
    "blind_made": ("Blind Nil made (per Blind Nil bid)", "Blind Nil bids"),
    "bags": ("bags per team-hand", "team-hands"),
    "penalties": ("bag penalties per game (both teams)", "games"),
    "contract": ("contract made (team-hands with a contract)", "team-hands"),
    "strong_win": ("stronger player's paired win rate", "pairs"),
    "strong_both": ("pairs the stronger player won on both tables", "pairs"),
    "same_cards": ("decided pairs won by the same cards on both tables", "decided pairs"),
    "margin": ("final margin, stronger − weaker (pair mean)", "pairs"),
}
SKILL = ("strong_win", "strong_both", "same_cards", "margin")
def no_edge(n: int) -> str:
    """An equal player's share of the games at a table of ``n`` alone: '25 %', '33.3 %', '50 %'."""
    return f"{100 / n:.3g} %"


def alone_figures(n: int) -> dict:
    """The figures of a variant without partnerships at a table of ``n`` (cutthroat 4, cutthroat3 3): the
    pooled ones a seat's, then the rotation's."""
    word, others = NUMBER_WORDS.get(n, str(n)), NUMBER_WORDS.get(n - 1, str(n - 1))
    if n == 2:  # a duplicate pair: the two seat tables, no field
        return {**alone_figures(3),
                "penalties": ("bag penalties per game (both seats)", "games"),
                "strong_win": ("stronger player's games won (against the weaker; 50 % = no edge)", "seat-games"),
                "strong_all": ("deals the stronger player won from both seats", "deals"),
                "same_cards": ("decided deals the same seat won on both tables", "decided deals"),
                "margin": ("stronger player's final lead over the other", "seat-games"),
                "strong_points": ("points a hand, stronger − weaker in the same seat, other table (same stock)",
                                  "seat-hands")}
    return {
        **{k: v for k, v in FIGURES.items() if k != "strong_both"},
        "hand_score": ("hand score (per seat-hand)", "seat-hands"),
        "bags": ("bags per seat-hand", "seat-hands"),
        "penalties": (f"bag penalties per game (all {word} seats)", "games"),
        "contract": ("contract made (seat-hands with a contract)", "seat-hands"),
        "strong_win": (f"stronger player's games won (alone against {others} weaker; {no_edge(n)} = no edge)",
                       "seat-games"),
        "strong_all": ("deals the stronger player won from every seat", "deals"),
        "same_cards": (f"decided deals the same seat won on all {word} tables", "decided deals"),
        "margin": ("stronger player's final lead over the best other seat", "seat-games"),
        "strong_points": ("points a hand, stronger − weaker in the same seat and cards", "seat-hands"),
    }


ALONE_FIGURES = alone_figures(4)  # cutthroat: four players
ALONE_SKILL = ("strong_win", "strong_all", "same_cards", "margin", "strong_points")


@dataclass
class VariantFigures(Variant):
    """The figures of one variant (its duplicate match's two runs)."""

    n_pairs: int                # deals: played on both tables (a pair), or on the five of a rotation
    n_games: int
    n_hands: int
    same_deals: float           # share of the hands played on several tables that were dealt the same cards
    figures: dict[str, Estimate]
    duplicate: DuplicateResult | None             # None without partnerships (a rotation)
    hand_scores: IntHist = field(repr=False)      # every side-hand's score (team, or seat alone), every table
    margins: np.ndarray = field(repr=False)       # every game's final margin of the stronger
    lengths: np.ndarray = field(repr=False)       # every game's hands
    alone: bool = False         # no partnerships (cutthroat): alone_figures(n_seats)
    n_seats: int = 4


def _penalties(run, games: pd.DataFrame) -> np.ndarray:
    """Bag penalties of both teams in each game of ``run`` (aligned with ``games``)."""
    pg = PerGame(games["game_id"].to_numpy(), games["hands"].to_numpy(), run.rules)
    pg.add_batches(run.iter_hands(per_game_columns(run.rules)))
    return pg.penalties.sum(axis=0)


def _column(run, name: str) -> np.ndarray:
    """One column of a run's hands, read alone."""
    return batch_arrays(run.hands([name], arrow=True), [name])[name]


def _same_deals(first, others: list, paths: str) -> float:
    """The share of the hands played on the first table (a run) and another that were dealt the same cards;
    raises AnalysisError when one was not (not a duplicate design). Two players draw their hands from the same
    stock, so their hands differ with the draw: NaN (the rules and seed are checked instead). Reads a column of
    two tables at a time."""
    n = seats(first.rules)
    if n == 2:
        return math.nan

    def keys(run):  # a hand's (game id, hand number); hand numbers are int16
        return _column(run, "game_id").astype(np.int64) * 65_536 + _column(run, "hand_no").astype(np.int64)

    key0 = keys(first)
    same_n, total = 0, 0
    for other in others:
        _, i0, i1 = np.intersect1d(key0, keys(other), assume_unique=True, return_indices=True)
        same = np.ones(i0.size, bool)
        for s in range(n):
            same &= _column(first, f"dealt_{s}")[i0] == _column(other, f"dealt_{s}")[i1]
        same_n, total = same_n + int(same.sum()), total + i0.size
    if same_n < total:
        raise AnalysisError(f"{paths}: {fmt_int(total - same_n)} of {fmt_int(total)} hands played on several "
                            "tables were dealt different cards: not a duplicate match")
    return 1.0 if total else math.nan


def _grown(hist: IntHist | None, x: np.ndarray) -> IntHist | None:
    """``hist`` with the integers ``x`` added, its range grown to hold them: the histogram of every value seen."""
    if not x.size:
        return hist
    lo, hi = int(x.min()), int(x.max())
    if hist is None or lo < hist.lo or hi > hist.hi:
        grown = IntHist(lo if hist is None else min(lo, hist.lo), hi if hist is None else max(hi, hist.hi))
        if hist is not None:
            grown.counts[hist.lo - grown.lo:hist.hi - grown.lo + 1] += hist.counts
        hist = grown
    hist.add(x)
    return hist


POOLED_SUMS = ("rows", "score", "nil", "nil_made", "blind", "blind_made", "bags", "has", "made")


def _pooled(runs, games: list[pd.DataFrame], conf: float):
    """The figures that pool every table's hands and games, clustered by deal, for two teams or every player
    alone (``outcomes.sides``): hand score, length, ends, Nil, bags, penalties, contracts. The hands are read
    a batch at a time (only the columns needed) and kept as each deal's sums (``cutthroat.deal_sums``: what
    the clustered intervals need). Returns the figures, the histogram of the side-hand scores, the games of
    every table (a deal's together) and the number of hands."""
    rules = runs[0].rules
    k, n = sides(rules), seats(rules)
    g = by_deal([gi.assign(penalties=_penalties(r, gi)) for r, gi in zip(runs, games)])
    gd = g["game_id"].to_numpy(np.int64)
    n_ids = int(gd.max()) + 1 if gd.size else 0
    sums = {key: np.zeros(n_ids, np.int64) for key in POOLED_SUMS}
    hist = None
    cols = [c for c in hand_columns(k, n) if not c.startswith("dealt_") and runs[0].has_columns("hands", [c])]
    for run in runs:
        for batch in run.iter_hands(cols):
            a = batch_arrays(batch, cols)
            gid = a["game_id"].astype(np.int64)

            def add(key, y=None, gid=gid):
                sums[key] += deal_sums(gid, y, n_ids)

            scores = np.stack([a[f"score_{t}"].astype(np.int64) for t in range(k)], axis=1)
            hist = _grown(hist, scores.ravel())
            add("rows")
            add("score", scores.sum(axis=1))
            bid = np.stack([a[f"bid_{s}"].astype(np.int64) for s in range(n)], axis=1)
            zero = np.stack([a[f"tricks_{s}"] == 0 for s in range(n)], axis=1)
            blind = (np.stack([a[f"blind_{s}"].astype(bool) for s in range(n)], axis=1) if "blind_0" in a
                     else np.zeros(bid.shape, bool))
            nil, bnil = nil_bid(bid, rules) & ~blind, nil_bid(bid, rules) & blind
            add("nil", nil.sum(axis=1))
            add("nil_made", (nil & zero).sum(axis=1))
            add("blind", bnil.sum(axis=1))
            add("blind_made", (bnil & zero).sum(axis=1))
            outcomes = [team_outcomes(a, t, rules) for t in range(k)]
            add("bags", sum(o["bags"].astype(np.int64) for o in outcomes))
            add("has", sum(o["has_contract"].astype(np.int64) for o in outcomes))
            add("made", sum((o["has_contract"] & o["made"]).astype(np.int64) for o in outcomes))
    rows = sums["rows"]
    ids = np.flatnonzero(rows)  # the deals played: the clusters

    def ratio(y, per):
        return cluster_ratio(ids, y[ids], per[ids])

    f: dict[str, Estimate] = {}
    f["hand_score"] = ratio(sums["score"], k * rows).estimate(conf)
    f["length"] = cluster_ratio(gd, g["hands"]).estimate(conf)
    for end in ENDS:
        f[f"end_{end}"] = cluster_ratio(gd, g["end"] == end).rate(conf)
    f["nil_bid"] = ratio(sums["nil"], n * rows).rate(conf)
    f["nil_made"] = ratio(sums["nil_made"], sums["nil"]).rate(conf)
    f["blind_bid"] = ratio(sums["blind"], n * rows).rate(conf)
    f["blind_made"] = ratio(sums["blind_made"], sums["blind"]).rate(conf)
    f["bags"] = ratio(sums["bags"], k * rows).estimate(conf)
    f["penalties"] = cluster_ratio(gd, g["penalties"]).estimate(conf)
    f["contract"] = ratio(sums["made"], sums["has"]).rate(conf)
    return f, hist or IntHist(0, 0), g, int(rows.sum())


def variant_figures(name: str, run_ab, run_ba, *, strong: str | None = None, weak: str | None = None,
                    conf: float = 0.95) -> VariantFigures:
    """The atlas figures of one variant from its duplicate match: ``run_ab`` with the stronger player as team 0,
    ``run_ba`` the same deals with the seats swapped. Raises AnalysisError when the runs are not the two
    halves of one duplicate match (other rules or seeds, seats not swapped, other deals)."""
    r1, r2 = open_run(run_ab), open_run(run_ba)
    dup = duplicate_match_runs(r1, r2, a=strong, b=weak, conf=conf, check_deals=False)
    if r1.rules != r2.rules or r1.manifest.get("seed") != r2.manifest.get("seed"):
        raise AnalysisError(f"{r1.path} and {r2.path} are not the two halves of one duplicate match "
                            "(their rules or seeds differ)")
    s1, s2 = r1.seats, r2.seats
    if [s1[1], s1[0], s1[3], s1[2]] != s2:
        raise AnalysisError(f"{r1.path} and {r2.path}: the seats are not swapped between the tables")
    g1, g2 = r1.games(game_columns(2)), r2.games(game_columns(2))
    same_deals = _same_deals(r1, [r2], f"{r1.path} and {r2.path}")

    g1 = g1.assign(margin=g1["total_0"] - g1["total_1"])
    g2 = g2.assign(margin=g2["total_1"] - g2["total_0"])
    f, scores, g, n_hands = _pooled([r1, r2], [g1, g2], conf)

    # skill and luck, over the duplicate pairs
    w = dup.win  # a mean of pair scores (1, ½, 0 a game), shown as a rate
    f["strong_win"] = Estimate(w.value, w.lo, w.hi, w.n, kind="rate", conf=conf, clusters=w.n)
    f["strong_both"] = proportion(dup.both, dup.n_pairs, conf)
    w = pd.concat([g1.set_index("game_id")["winner"].rename("ab"), g2.set_index("game_id")["winner"].rename("ba")],
                  axis=1, join="inner")
    decided = (w["ab"] >= 0) & (w["ba"] >= 0)
    f["same_cards"] = proportion(int((decided & (w["ab"] == w["ba"])).sum()), int(decided.sum()), conf)
    f["margin"] = dup.margin
    return VariantFigures(name=name, preset=r1.preset, rules=dict(r1.rules), rules_text=r1.rules_text(),
                          strong=dup.a, weak=dup.b, n_pairs=dup.n_pairs, n_games=len(g), n_hands=n_hands,
                          same_deals=same_deals, figures=f, duplicate=dup, hand_scores=scores,
                          margins=g["margin"].to_numpy(np.int64), lengths=g["hands"].to_numpy(np.int64))


def alone_variant_figures(name: str, field_run, seat_runs, *, strong: str | None = None, weak: str | None = None,
                          conf: float = 0.95) -> VariantFigures:
    """The atlas figures (:func:`alone_figures`) of a variant without partnerships from its rotation: the field
    run (the weaker player in every seat) and the n seat runs (the stronger alone in seat 0 .. n-1); with two
    players ``field_run`` may be None (the two seat tables are a duplicate pair). The pooled figures are over
    the seat tables; raises AnalysisError when the runs are not one rotation (or pair)."""
    rot = rotation_figures(field_run, seat_runs, conf)  # checks the rotation
    n = rot.n_seats
    tables = [open_run(r) for r in seat_runs]
    base = tables[1] if field_run is None else open_run(field_run)  # a pair: seat 0 of table 1 is the weaker
    same_deals = _same_deals(base, tables, f"{base.path} and its seat tables")
    f, scores, g, n_hands = _pooled(tables, [t.games(game_columns(n)) for t in tables], conf)
    f.update(rot.figures)
    return VariantFigures(name=name, preset=base.preset, rules=dict(base.rules), rules_text=base.rules_text(),
                          strong=strong or tables[0].seat_labels[0], weak=weak or base.seat_labels[0],
                          n_pairs=rot.n_deals, n_games=len(g), n_hands=n_hands, same_deals=same_deals, figures=f,
                          duplicate=None, hand_scores=scores, margins=rot.margins, lengths=rot.lengths, alone=True,
                          n_seats=n)


# ------------------------------------------------------------------ tables
def atlas_table(variants: list[VariantFigures], keys=None) -> pd.DataFrame:
    """One row a figure, one column a variant: 'value [lo, hi] (n=… unit, … deals)'; the variants with
    partnerships (:data:`FIGURES`) or those without at one table size (:func:`alone_figures`), not both."""
    kinds = {(v.alone, v.n_seats if v.alone else 4) for v in variants}
    if len(kinds) > 1:
        raise AnalysisError("a table of figures holds the variants with partnerships or those without at one table "
                            "size, not both")
    alone, n = next(iter(kinds), (False, 4))
    return _atlas_table(variants, alone_figures(n) if alone else FIGURES, keys)


def variants_table(variants: list[VariantFigures]) -> pd.DataFrame:
    """What each variant is and what was played."""
    return pd.DataFrame([{"variant": v.name, "rules": v.rules_text, "players (stronger vs weaker)":
                          f"{v.strong} vs {v.weak}",
                          "design": ("duplicate pair: 2 tables, seats swapped" if not v.alone or v.n_seats == 2
                                     else f"rotation: {v.n_seats} seat tables + field"),
                          "deals": fmt_int(v.n_pairs), "games": fmt_int(v.n_games), "hands": fmt_int(v.n_hands),
                          "hands dealt alike on every table": "— (drawn from the same stock)"
                          if math.isnan(v.same_deals) else f"{100 * v.same_deals:.1f} %"} for v in variants])


# ------------------------------------------------------------------ charts
def _rate_frame(variants, keys) -> pd.DataFrame:
    return rate_frame(variants, FIGURES, keys)


def draw_atlas(charts: Charts, variants: list[VariantFigures]) -> None:
    """The atlas's charts into ``charts``: distributions on shared bins, the rates, skill and luck (the
    partnership variants' and the cutthroat variants' apart: their baselines differ)."""
    alone = any(v.alone for v in variants)
    fig, axes = charts.figure(3, width=15, height=4.2)
    drawn = {"hand score": hist_panel(axes[0], variants, "hand_scores",
                                      "points per team-hand" + ("; per seat-hand in cutthroat" if alone else ""),
                                      "Hand score (per team-hand)")}
    for ax, key, values, xlabel, title in (
            (axes[1], "final margin", "margins", "stronger − weaker, final totals"
             + ("; cutthroat: stronger − best other" if alone else ""), "Final margin (per game)"),
            (axes[2], "game length", "lengths", "hands per game", "Game length")):
        drawn[key], drawn[f"{key}: beyond the axis"] = central_panel(ax, variants, values, xlabel, title)
    charts.save("atlas_distributions", fig, "Score, margin and length by variant (bins shared by the variants)",
                drawn)

    fig, axes = charts.figure(2, width=15, height=4.6)
    rates = ("nil_bid", "nil_made", "blind_bid", "blind_made", "contract")
    drawn = {"bidding": plot_rate_bars(axes[0], _rate_frame(variants, rates),
                                       title="Nil, Blind Nil and contracts (95 % intervals clustered by deal)"),
             "ends": plot_rate_bars(axes[1], _rate_frame(variants, [f"end_{e}" for e in ENDS]),
                                    title="How games end (95 % intervals clustered by deal)")}
    charts.save("atlas_rates", fig, "Nil, contracts and game ends by variant", drawn)

    teams = [v for v in variants if not v.alone]
    if teams:
        fig, axes = charts.figure(1, width=9, height=4.6)
        drawn = {"skill and luck": plot_rate_bars(
            axes[0], _rate_frame(teams, ("strong_win", "strong_both", "same_cards")),
            title=f"Skill and luck in duplicate pairs ({teams[0].strong} vs {teams[0].weak}; n = pairs)")}
        charts.save("atlas_skill", fig, "Skill and luck by variant", drawn)
    for n, alone in _alone_by_seats(variants).items():
        fig, axes = charts.figure(1, width=9, height=4.6)
        title = (f"Two players, a duplicate pair ({alone[0].strong} vs {alone[0].weak}; 50 % = no edge)" if n == 2
                 else f"Cutthroat rotations ({alone[0].strong} alone vs {NUMBER_WORDS.get(n - 1, n - 1)} "
                      f"{alone[0].weak}; {no_edge(n)} = no edge)")
        drawn = {"skill and luck alone": plot_rate_bars(
            axes[0], rate_frame(alone, alone_figures(n), ("strong_win", "strong_all", "same_cards")), title=title)}
        which = {4: "cutthroat", 2: "two players, a duplicate pair"}.get(n, f"cutthroat, {NUMBER_WORDS.get(n, n)} players")
        charts.save("atlas_skill_alone" + _suffix(n), fig, f"Skill and luck without partnerships ({which})", drawn)


#: the share of each variant's games the margin and length axes may leave out at each end: a few very long games
#: (or very wide margins) would otherwise squash every variant's bulk into a few bins
CENTRAL_SHARE = 0.01


def central_panel(ax, variants, values: str, xlabel: str, title: str) -> tuple[dict, dict[str, int]]:
    """The per-game ``values`` (``margins``, ``lengths``: an array a variant) as :func:`hist_panel` draws them on
    the axis :func:`central_range` gives at :data:`CENTRAL_SHARE` (the 1st to 99th percentile of each variant);
    the panel's title says how many games lie beyond it. Returns (the drawn series, each variant's games beyond)."""
    limits = central_range(variants, values, CENTRAL_SHARE)
    total = sum(getattr(v, values).size for v in variants)
    if limits is None:
        return hist_panel(ax, variants, values, xlabel, title), {v.name: 0 for v in variants}
    pct = 100 * CENTRAL_SHARE
    series = hist_panel(ax, variants, values, xlabel, title, limits)
    beyond = {v.name: int(getattr(v, values).size - series[v.name][1].sum()) for v in variants}
    ax.set_title(f"{title}\nthe central {100 - 2 * pct:g} % of each variant's games on the axis;\n"
                 f"{fmt_int(sum(beyond.values()))} of {fmt_int(total)} games beyond it", fontsize=10)
    return series, beyond


def _alone_by_seats(variants) -> dict[int, list[VariantFigures]]:
    """The variants without partnerships by their table size, four first (each size has tables of its own: an
    equal player's share of the games differs)."""
    out: dict[int, list] = {}
    for v in variants:
        if v.alone:
            out.setdefault(v.n_seats, []).append(v)
    return dict(sorted(out.items(), reverse=True))


def _suffix(n: int) -> str:
    """The table and chart names of the cutthroat variants at a table of ``n``: 'alone_skill' at four (as before
    other sizes existed), 'alone3_skill' at three."""
    return "" if n == 4 else str(n)


# ------------------------------------------------------------------ the report
METHOD = ("Each variant is a duplicate match: every deal is played on two tables, the stronger player as team 0 on "
          "one and as team 1 on the other. Figures over games or hands pool both tables and are clustered by deal "
          "(a rate: Wilson interval at the effective sample size; a mean: t interval on deals − 1 degrees of "
          "freedom); the paired figures take the deal pair as the unit (win rate: t interval over pairs; shares "
          "of pairs: Wilson). 95 % intervals; n counts the unit named in each cell, with the deals it rests on.")
ALONE_METHOD = ("A variant without partnerships ({name}) has no teams to swap: it is a rotation, every deal "
                "(a game id: the cards of a whole game) played on {tables} tables, {n} weaker players (the field) "
                "and, on table k, the stronger player alone in seat k against {others} weaker. Its pooled figures "
                "are over the {n} seat tables, per seat-hand, clustered by deal.")

READING = ("How to read skill and luck: the stronger player's paired win rate is the share of games it wins when "
           "both tables are counted (50 % = no edge). A pair whose two games the same cards won (the team holding "
           "the same seats' cards won on both tables, whoever played them) was decided by the deal; the share of "
           "such pairs among the decided ones measures how much the deal alone decides a game between these "
           "players. A variant that rewards skill has a higher win rate and a lower same-cards share.")
ALONE_READING = ("Each player alone, so these figures do not compare with the partnership tables': the stronger "
                 "player wins a game against {others} weaker {players} alone, and an equal player would win {share} "
                 "of them{not_half}; its win rate is over seat-games (a deal from each of the {n} seats), "
                 "clustered by deal. Luck is the share of decided deals whose {n} tables the same seat won: the "
                 "cards of that seat decided the game whoever held them (the stronger won from it once, the weaker "
                 "{others_times}); 0 when the stronger player always wins. If the winner did not depend on the "
                 "cards, a stronger player winning a share w of its games would leave {formula} ({equal} between "
                 "equal players, w = 1/{k}; {strong} at w = 75 %): a share above that is the cards'. Its margin is "
                 "its final lead over {best_other} (a partnership's: over the other team), and "
                 "its points a hand are its own seat's against a weaker player's in the same seat with the same "
                 "cards (the field table).")
SUPERSCRIPTS = {1: "", 2: "²", 3: "³", 4: "⁴"}
SHARES = {2: "a half", 3: "a third", 4: "a quarter"}


PAIR_READING = ("Two players, each alone, so these figures do not compare with the partnership tables': every deal "
                "(the stock of a whole game) is played on two tables, the stronger player in seat 0 on one and in "
                "seat 1 on the other, and an equal player would win half of its games; its win rate is over "
                "seat-games (both tables), clustered by deal. The hands are drawn from the stock, so who holds "
                "which cards depends on the draw as well as on the deal. Luck is the share of decided deals whose "
                "two tables the same seat won (the stronger won one, the weaker the other): if the winner did not "
                "depend on the stock, a stronger player winning a share w of its games would leave 2·w·(1 − w) "
                "({equal} between equal players, w = 1/2; {strong} at w = 75 %): a share above that is the "
                "stock's. Its margin is its final lead over the other player, and its points a hand are its "
                "seat's against the weaker's in the same seat on the other table (the same stock, the weaker "
                "playing against the stronger there).")


def alone_reading(n: int) -> str:
    """How to read the skill and luck of the rotations at a table of ``n`` (:data:`ALONE_READING`; two players:
    :data:`PAIR_READING`)."""
    if n == 2:
        return PAIR_READING.format(equal=f"{100 * luck_baseline(0.5, 2):.2g} %",
                                   strong=f"{100 * luck_baseline(0.75, 2):.2g} %")
    word, others = NUMBER_WORDS.get(n, str(n)), NUMBER_WORDS.get(n - 1, str(n - 1))
    return ALONE_READING.format(
        n=word, others=others, players="player" if n == 2 else "players",
        not_half="" if n == 2 else " (not a half)", best_other=others_text(n), share=SHARES.get(n, f"1/{n}"), k=n,
        others_times="twice" if n == 3 else "once" if n == 2 else f"{others} times",
        formula=f"{n}·w·((1 − w)/{n - 1}){SUPERSCRIPTS.get(n - 1, f'^{n - 1}')}",
        equal=f"{100 * luck_baseline(1 / n, n):.2g} %", strong=f"{100 * luck_baseline(0.75, n):.2g} %")


def alone_method(n: int) -> str:
    if n == 2:
        return ("Two players (twohanded) need no field: the two seat tables, the stronger alone in seat 0 on one "
                "and in seat 1 on the other, are a duplicate pair. Its pooled figures are over both tables, per "
                "seat-hand, clustered by deal.")
    return ALONE_METHOD.format(name="cutthroat" if n == 4 else f"{NUMBER_WORDS.get(n, n)} players",
                               tables=NUMBER_WORDS.get(n + 1, n + 1), n=NUMBER_WORDS.get(n, n),
                               others=NUMBER_WORDS.get(n - 1, n - 1))


def _captions(variants) -> dict[str, str]:
    return {v.name: f"{v.name}: {v.rules_text}; {v.strong} vs {v.weak}, {fmt_int(v.n_pairs)} "
                    + ("deals in rotation" if v.alone and v.n_seats > 2 else "deal pairs") for v in variants}


def write_atlas(variants: list[VariantFigures], out_dir, *, title: str = "Spades variant atlas") -> AtlasResult:
    """Charts (PNG and SVG), ``atlas.html`` (self-contained), ``atlas.md`` and ``atlas.csv`` of ``variants`` into
    ``out_dir``: the partnership variants' figures and the cutthroat variants' (rotations) in tables of their own."""
    teams = [v for v in variants if not v.alone]
    alone = _alone_by_seats(variants)
    tables = {"variants": variants_table(variants)} if variants else {}
    sections = [Section("Variants", "", "variants")]
    if teams:
        tables.update(skill=atlas_table(teams, SKILL), figures=atlas_table(teams, [k for k in FIGURES
                                                                                    if k not in SKILL]))
        sections += [Section("Skill and luck", READING, "skill"),
                     Section("Scores, bidding and game ends", "", "figures")]
    for n, vs in alone.items():
        name, who = f"alone{_suffix(n)}", "" if n == 4 else f", {NUMBER_WORDS.get(n, n)} players"
        tables.update({f"{name}_skill": atlas_table(vs, ALONE_SKILL),
                       f"{name}_figures": atlas_table(vs, [k for k in alone_figures(n) if k not in ALONE_SKILL])})
        heading, short = (("Two players (each alone, a duplicate pair)", "Two players") if n == 2
                          else (f"Cutthroat (each player alone{who})", f"Cutthroat{who}"))
        sections += [Section(f"{heading}: skill and luck", alone_reading(n), f"{name}_skill"),
                     Section(f"{short}: scores, bidding and game ends (per seat-hand: a player's own)", "",
                             f"{name}_figures")]
    method = METHOD + "".join(" " + alone_method(n) for n in alone)
    return write_page(variants, out_dir, title=title, captions=_captions(variants),
                      draw=lambda charts: draw_atlas(charts, variants), tables=tables, method=method,
                      sections=tuple(sections))
