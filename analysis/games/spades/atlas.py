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

:func:`write_atlas` draws the charts (hand score, final margin and game length on bins shared by every
variant; the rates; skill and luck) and writes ``atlas.html`` and ``atlas.md`` into a folder.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...atlas import AtlasResult, Section, atlas_markdown, hist_panel, rate_frame, write_page
from ...atlas import atlas_table as _atlas_table
from ...io import AnalysisError, open_run
from ...plots import Charts, plot_rate_bars
from ...stats import ClusterRatio, Estimate, fmt_int, proportion
from .compare import DuplicateResult, duplicate_match_runs
from .outcomes import PerGame, nil_bid, per_game_columns, team_outcomes

__all__ = ["FIGURES", "AtlasResult", "VariantFigures", "atlas_markdown", "atlas_table", "variant_figures",
           "write_atlas"]

SEATS = range(4)
HAND_COLUMNS = (["game_id", "hand_no", "score_0", "score_1"] + [f"{p}_{s}" for p in ("bid", "blind", "tricks", "dealt")
                                                               for s in SEATS])
GAME_COLUMNS = ["game_id", "hands", "total_0", "total_1", "winner", "end"]
ENDS = ("target", "mercy", "limit")

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


@dataclass
class VariantFigures:
    """The figures of one variant (its duplicate match's two runs)."""

    name: str
    preset: str
    rules: dict                 # the run's every rule flag
    rules_text: str             # the preset and the flags that differ from it
    strong: str
    weak: str
    n_pairs: int
    n_games: int
    n_hands: int
    same_deals: float           # share of the hands played on both tables that were dealt the same cards
    figures: dict[str, Estimate]
    duplicate: DuplicateResult
    hand_scores: np.ndarray = field(repr=False)   # every team-hand's score, both tables
    margins: np.ndarray = field(repr=False)       # every game's final margin, stronger − weaker
    lengths: np.ndarray = field(repr=False)       # every game's hands


def _by_deal(frames: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
    """The rows of both tables, those of a deal together and the deals in increasing order (a ClusterRatio's
    order)."""
    return pd.concat(frames, ignore_index=True).sort_values(keys, kind="stable", ignore_index=True)


def _ratio(cluster, y, n=None) -> ClusterRatio:
    return ClusterRatio().update(np.asarray(cluster, np.int64), np.asarray(y, np.int64),
                                 None if n is None else np.asarray(n, np.int64))


def _penalties(run, games: pd.DataFrame) -> np.ndarray:
    """Bag penalties of both teams in each game of ``run`` (aligned with ``games``)."""
    pg = PerGame(games["game_id"].to_numpy(), games["hands"].to_numpy(), run.rules)
    pg.add_batches(run.iter_hands(per_game_columns(run.rules)))
    return pg.penalties.sum(axis=0)


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
    cols = [c for c in HAND_COLUMNS if r1.has_columns("hands", [c])]
    h1, h2 = r1.hands(cols), r2.hands(cols)
    g1, g2 = r1.games(GAME_COLUMNS), r2.games(GAME_COLUMNS)

    # the deals: every hand played on both tables was dealt the same cards
    dealt = [f"dealt_{s}" for s in SEATS]
    both = h1[["game_id", "hand_no", *dealt]].merge(h2[["game_id", "hand_no", *dealt]], on=["game_id", "hand_no"])
    same = np.logical_and.reduce([both[f"{c}_x"].to_numpy() == both[f"{c}_y"].to_numpy() for c in dealt])
    same_deals = float(same.mean()) if same.size else math.nan
    if same.size and not same.all():
        raise AnalysisError(f"{r1.path} and {r2.path}: {fmt_int((~same).sum())} of {fmt_int(same.size)} hands "
                            "played on both tables were dealt different cards: not a duplicate match")

    h = _by_deal([h1, h2], ["game_id"])
    deal = h["game_id"].to_numpy(np.int64)
    f: dict[str, Estimate] = {}
    scores = np.stack([h["score_0"].to_numpy(np.int64), h["score_1"].to_numpy(np.int64)], axis=1)
    f["hand_score"] = _ratio(np.repeat(deal, 2), scores.ravel()).estimate(conf)

    g1 = g1.assign(penalties=_penalties(r1, g1), margin=g1["total_0"] - g1["total_1"])
    g2 = g2.assign(penalties=_penalties(r2, g2), margin=g2["total_1"] - g2["total_0"])
    g = _by_deal([g1, g2], ["game_id"])
    gd = g["game_id"].to_numpy(np.int64)
    f["length"] = _ratio(gd, g["hands"]).estimate(conf)
    for end in ENDS:
        f[f"end_{end}"] = _ratio(gd, g["end"] == end).rate(conf)

    seat_deal = np.repeat(deal, 4)
    bid = np.stack([h[f"bid_{s}"].to_numpy(np.int64) for s in SEATS], axis=1).ravel()
    tricks = np.stack([h[f"tricks_{s}"].to_numpy(np.int64) for s in SEATS], axis=1).ravel()
    blind = (np.stack([h[f"blind_{s}"].to_numpy(bool) for s in SEATS], axis=1).ravel() if "blind_0" in h
             else np.zeros(bid.size, bool))
    nil, bnil = nil_bid(bid, r1.rules) & ~blind, nil_bid(bid, r1.rules) & blind
    f["nil_bid"] = _ratio(seat_deal, nil).rate(conf)
    f["nil_made"] = _ratio(seat_deal, nil & (tricks == 0), nil).rate(conf)
    f["blind_bid"] = _ratio(seat_deal, bnil).rate(conf)
    f["blind_made"] = _ratio(seat_deal, bnil & (tricks == 0), bnil).rate(conf)

    a = {c: h[c].to_numpy() for c in h.columns if c.startswith(("bid_", "tricks_"))}
    teams = [team_outcomes(a, t, r1.rules) for t in (0, 1)]
    bags = np.stack([o["bags"].astype(np.int64) for o in teams], axis=1).ravel()
    has = np.stack([o["has_contract"] for o in teams], axis=1).ravel()
    made = np.stack([o["made"] for o in teams], axis=1).ravel()
    team_deal = np.repeat(deal, 2)
    f["bags"] = _ratio(team_deal, bags).estimate(conf)
    f["penalties"] = _ratio(gd, g["penalties"]).estimate(conf)
    f["contract"] = _ratio(team_deal, has & made, has).rate(conf)

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
                          strong=dup.a, weak=dup.b, n_pairs=dup.n_pairs, n_games=len(g), n_hands=len(h),
                          same_deals=same_deals, figures=f, duplicate=dup, hand_scores=scores.ravel(),
                          margins=g["margin"].to_numpy(np.int64), lengths=g["hands"].to_numpy(np.int64))


# ------------------------------------------------------------------ tables
def atlas_table(variants: list[VariantFigures], keys=None) -> pd.DataFrame:
    """One row a figure, one column a variant: 'value [lo, hi] (n=… unit, … deals)'."""
    return _atlas_table(variants, FIGURES, keys)


def variants_table(variants: list[VariantFigures]) -> pd.DataFrame:
    """What each variant is and what was played."""
    return pd.DataFrame([{"variant": v.name, "rules": v.rules_text, "players (stronger vs weaker)":
                          f"{v.strong} vs {v.weak}", "deal pairs": fmt_int(v.n_pairs), "games": fmt_int(v.n_games),
                          "hands": fmt_int(v.n_hands),
                          "hands dealt alike on both tables": f"{100 * v.same_deals:.1f} %"} for v in variants])


# ------------------------------------------------------------------ charts
def _rate_frame(variants, keys) -> pd.DataFrame:
    return rate_frame(variants, FIGURES, keys)


def draw_atlas(charts: Charts, variants: list[VariantFigures]) -> None:
    """The atlas's charts into ``charts``: distributions on shared bins, the rates, skill and luck."""
    fig, axes = charts.figure(3, width=15, height=4.2)
    drawn = {"hand score": hist_panel(axes[0], variants, "hand_scores", "points per team-hand",
                                      "Hand score (per team-hand)"),
             "final margin": hist_panel(axes[1], variants, "margins", "stronger − weaker, final totals",
                                        "Final margin (per game)"),
             "game length": hist_panel(axes[2], variants, "lengths", "hands per game", "Game length")}
    charts.save("atlas_distributions", fig, "Score, margin and length by variant (bins shared by the variants)",
                drawn)

    fig, axes = charts.figure(2, width=15, height=4.6)
    rates = ("nil_bid", "nil_made", "blind_bid", "blind_made", "contract")
    drawn = {"bidding": plot_rate_bars(axes[0], _rate_frame(variants, rates),
                                       title="Nil, Blind Nil and contracts (95 % intervals clustered by deal)"),
             "ends": plot_rate_bars(axes[1], _rate_frame(variants, [f"end_{e}" for e in ENDS]),
                                    title="How games end (95 % intervals clustered by deal)")}
    charts.save("atlas_rates", fig, "Nil, contracts and game ends by variant", drawn)

    fig, axes = charts.figure(1, width=9, height=4.6)
    drawn = {"skill and luck": plot_rate_bars(
        axes[0], _rate_frame(variants, ("strong_win", "strong_both", "same_cards")),
        title=f"Skill and luck in duplicate pairs ({variants[0].strong} vs {variants[0].weak}; n = pairs)")}
    charts.save("atlas_skill", fig, "Skill and luck by variant", drawn)


# ------------------------------------------------------------------ the report
METHOD = ("Each variant is a duplicate match: every deal is played on two tables, the stronger player as team 0 on "
          "one and as team 1 on the other. Figures over games or hands pool both tables and are clustered by deal "
          "(a rate: Wilson interval at the effective sample size; a mean: t interval on deals − 1 degrees of "
          "freedom); the paired figures take the deal pair as the unit (win rate: t interval over pairs; shares "
          "of pairs: Wilson). 95 % intervals; n counts the unit named in each cell, with the deals it rests on.")

READING = ("How to read skill and luck: the stronger player's paired win rate is the share of games it wins when "
           "both tables are counted (50 % = no edge). A pair whose two games the same cards won (the team holding "
           "the same seats' cards won on both tables, whoever played them) was decided by the deal; the share of "
           "such pairs among the decided ones measures how much the deal alone decides a game between these "
           "players. A variant that rewards skill has a higher win rate and a lower same-cards share.")


def _captions(variants) -> dict[str, str]:
    return {v.name: f"{v.name}: {v.rules_text}; {v.strong} vs {v.weak}, {fmt_int(v.n_pairs)} deal pairs"
            for v in variants}


def write_atlas(variants: list[VariantFigures], out_dir, *, title: str = "Spades variant atlas") -> AtlasResult:
    """Charts (PNG and SVG), ``atlas.html`` (self-contained), ``atlas.md`` and ``atlas.csv`` of ``variants`` into
    ``out_dir``."""
    tables = {"variants": variants_table(variants), "skill": atlas_table(variants, SKILL),
              "figures": atlas_table(variants, [k for k in FIGURES if k not in SKILL])} if variants else {}
    sections = (Section("Variants", "", "variants"), Section("Skill and luck", READING, "skill"),
                Section("Scores, bidding and game ends", "", "figures"))
    return write_page(variants, out_dir, title=title, captions=_captions(variants),
                      draw=lambda charts: draw_atlas(charts, variants), tables=tables, method=METHOD,
                      sections=sections)
