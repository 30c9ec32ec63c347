"""The variant atlas of Tarot: every table size and rule variant played by the same two players in duplicate.

A Tarot variant is played as a duplicate rotation (``tricksim.jobs.tarot.atlas`` plays it) on the same deals:
the **field** table with the stronger player in every seat, then one table per seat ``r`` with the weaker
player in seat ``r`` and the stronger in the others. Deal ``d`` of every table is dealt the same cards, so the
tables' rows of a deal are not independent: every figure below that pools the tables is clustered by the
deal (deals mode) or by the game (games mode, whose deals are those of the game's deal ids), and the paired
figures take the pair (a deal's seat ``r`` played by the stronger on the field table and by the weaker on
table ``r``, the three others the same) as the unit.

Per variant (:func:`variant_figures`), every rate a Wilson interval at the effective sample size and every
mean a t interval on clusters − 1 degrees of freedom (``ClusterRatio``), over the rows of every table:

* the taker's deal score (played deals) and its distribution (charts on bins shared by the variants);
  the all-pass share (deals voided because every player passed; a Petit sec redeal is not counted);
  each contract's share of played deals and the taker's success in it; petit au bout (either side),
  poignée (any seat) and Chelem announced, per played deal;
* **skill**: the stronger player's points a deal over the weaker's in the same seat of the same deal
  (x − y over the pairs: x the stronger's score in seat r on the field table, y the weaker's in seat r on
  table r), and the share of the pairs whose two scores differ in which the stronger scored more;
* **luck**: the share of a seat's score variance that the deal fixes, whoever plays the seat,
  ``1 − Σ(x − y)² / Σ((x − m)² + (y − m)²)`` (m the mean of all x and y): 1 when the play never changes a
  seat's score, about 0 when the two scores of a seat are as unlike as those of two different deals. It is a
  correlation of x and y (equal when their means and variances are), a ratio of sums over clusters with a
  delta-method interval (m taken as known: its own error is of the order of 1/n).

Games mode adds the weaker player's share of the games it wins from a seat (against n − 1 stronger players;
1/n is no edge; a tie for the top wins no one's game).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...atlas import AtlasResult, Section, Variant, atlas_markdown, hist_panel, rate_frame, write_page
from ...atlas import atlas_table as _atlas_table
from ...io import AnalysisError, open_run
from ...plots import Charts, plot_rate_bars
from ...stats import ClusterRatio, Estimate, fmt_int, ratio_ci
from .summary import CONTRACTS

__all__ = ["FIGURES", "AtlasResult", "VariantFigures", "atlas_markdown", "atlas_table", "luck_share",
           "variant_figures", "write_atlas"]

LABELS = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}

#: the figures of a variant, in the order of the table: key -> (label, unit of n)
FIGURES = {
    "taker_score": ("taker's deal score (per played deal)", "played deals"),
    "all_pass": ("deals all passed", "deals"),
    **{f"share_{c}": (f"{LABELS[c]} (share of played deals)", "played deals") for c in CONTRACTS},
    "taker_won": ("taker made the contract (per played deal)", "played deals"),
    **{f"won_{c}": (f"{LABELS[c]} made (per {LABELS[c]})", f"{LABELS[c]} deals") for c in CONTRACTS},
    "petit_au_bout": ("petit au bout (per played deal)", "played deals"),
    "poignee": ("poignée shown (per played deal)", "played deals"),
    "chelem": ("Chelem announced (per played deal)", "played deals"),
    "skill": ("stronger − weaker, points a deal in the same seat", "seat-deals"),
    "strong_better": ("seat-deals the stronger scored more (of those that differ)", "seat-deals"),
    "luck": ("share of a seat's score variance the deal fixes", "seat-deals"),
    "weak_game_win": ("games the weaker won from a seat (games mode; 1/n = no edge)", "seat-games"),
}
SKILL = ("skill", "strong_better", "luck", "weak_game_win")
DEAL_COLUMNS = ["deal_id", "void", "contract", "won", "chelem", "petit_au_bout", "poignee", "taker"]


@dataclass
class VariantFigures(Variant):
    """The figures of one variant (its duplicate rotation's tables)."""

    seats: int
    mode: str                   # deals | games
    n_deals: int                # deals a table
    n_games: int                # games a table (0 in deals mode)
    figures: dict[str, Estimate]
    taker_scores: np.ndarray = field(repr=False)   # the taker's score in every played deal of every table
    gains: np.ndarray = field(repr=False)          # x − y of every pair


def luck_share(x, y, cluster, conf: float = 0.95) -> Estimate:
    """``1 − Σ(x − y)² / Σ((x − m)² + (y − m)²)`` over the pairs (x, y), m the mean of every x and y, with a
    delta-method interval over the clusters ``cluster`` (the ratio of the clusters' sums)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    cluster = np.asarray(cluster)
    if x.size == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, conf=conf)
    m = (x.sum() + y.sum()) / (2 * x.size)
    ids, inverse = np.unique(cluster, return_inverse=True)
    d = np.bincount(inverse, (x - y) ** 2, minlength=ids.size)
    t = np.bincount(inverse, (x - m) ** 2 + (y - m) ** 2, minlength=ids.size)
    r = ratio_ci(d, t, conf)
    return Estimate(1 - r.value, 1 - r.hi, 1 - r.lo, int(x.size), conf=conf, clusters=int(ids.size))


def _ratio(cluster, y, n=None) -> ClusterRatio:
    return ClusterRatio().update(np.asarray(cluster, np.int64), np.asarray(y, np.int64),
                                 None if n is None else np.asarray(n, np.int64))


def _table(run, n: int, games: bool) -> pd.DataFrame:
    cols = DEAL_COLUMNS + [f"score_{s}" for s in range(n)] + (["game_id"] if games else [])
    return run.hands(cols).sort_values("deal_id", kind="stable", ignore_index=True)


def variant_figures(name: str, field_run, seat_runs, *, strong: str | None = None, weak: str | None = None,
                    conf: float = 0.95) -> VariantFigures:
    """The atlas figures of one variant from its duplicate rotation: ``field_run`` with the stronger player in
    every seat, ``seat_runs[r]`` the same deals with the weaker player in seat r. Raises AnalysisError when the
    runs are not one rotation (other rules, seeds or modes, seats not as said, other deals)."""
    f0 = open_run(field_run)
    rot = [open_run(r) for r in seat_runs]
    n = f0.n_seats
    if f0.game != "tarot":
        raise AnalysisError(f"{f0.path}: a {f0.game} run, not a tarot run")
    if len(rot) != n:
        raise AnalysisError(f"a rotation of {n} seats needs {n} rotated runs, got {len(rot)}")
    for r, run in enumerate(rot):
        if run.rules != f0.rules or run.manifest.get("seed") != f0.manifest.get("seed") or run.mode != f0.mode:
            raise AnalysisError(f"{f0.path} and {run.path} are not one duplicate rotation (their rules, seeds or "
                                "modes differ)")
        s0, s = f0.seats, run.seats
        if len(set(s0)) != 1 or s[r] == s0[r] or any(s[k] != s0[k] for k in range(n) if k != r):
            raise AnalysisError(f"{run.path}: not the field of {f0.path} with another player in seat {r}")
    games = f0.is_games
    t0 = _table(f0, n, games)
    tables = [_table(run, n, games) for run in rot]
    for run, t in zip(rot, tables):
        if not np.array_equal(t["deal_id"].to_numpy(), t0["deal_id"].to_numpy()):
            raise AnalysisError(f"{f0.path} and {run.path}: other deals: not a duplicate rotation")
    key = "game_id" if games else "deal_id"

    # the deal figures over every table's rows, clustered by deal (game)
    every = pd.concat([t0, *tables], ignore_index=True).sort_values(key, kind="stable", ignore_index=True)
    c = every[key].to_numpy(np.int64)
    played = every["void"].to_numpy() == 0
    scores = np.stack([every[f"score_{s}"].to_numpy(np.int64) for s in range(n)], axis=1)
    taker = np.clip(every["taker"].to_numpy(np.int64), 0, n - 1)
    taker_score = scores[np.arange(len(every)), taker]
    contract = every["contract"].to_numpy()
    won = every["won"].to_numpy() == 1
    f: dict[str, Estimate] = {}
    f["taker_score"] = _ratio(c[played], taker_score[played]).estimate(conf)
    f["all_pass"] = _ratio(c, every["void"].to_numpy() == 1).rate(conf)
    for code, cname in enumerate(CONTRACTS, start=1):
        f[f"share_{cname}"] = _ratio(c, played & (contract == code), played).rate(conf)
    f["taker_won"] = _ratio(c, played & won, played).rate(conf)
    for code, cname in enumerate(CONTRACTS, start=1):
        mine = played & (contract == code)
        f[f"won_{cname}"] = _ratio(c, mine & won, mine).rate(conf)
    f["petit_au_bout"] = _ratio(c, played & (every["petit_au_bout"].to_numpy() != 0), played).rate(conf)
    f["poignee"] = _ratio(c, played & (every["poignee"].to_numpy() > 0), played).rate(conf)
    f["chelem"] = _ratio(c, played & (every["chelem"].to_numpy() == 1), played).rate(conf)

    # skill and luck over the pairs (deal, seat r): the stronger on the field table, the weaker on table r
    x = np.concatenate([t0[f"score_{r}"].to_numpy(np.int64) for r in range(n)])
    y = np.concatenate([t[f"score_{r}"].to_numpy(np.int64) for r, t in enumerate(tables)])
    pc = np.tile(t0[key].to_numpy(np.int64), n)
    order = np.argsort(pc, kind="stable")  # a ClusterRatio's order: the clusters together
    x, y, pc = x[order], y[order], pc[order]
    f["skill"] = _ratio(pc, x - y).estimate(conf)
    f["strong_better"] = _ratio(pc, x > y, x != y).rate(conf)
    f["luck"] = luck_share(x, y, pc, conf)
    n_games = 0
    if games:
        g0 = f0.games(["game_id"]).sort_values("game_id", ignore_index=True)
        n_games = len(g0)
        wins = []
        for r, run in enumerate(rot):
            g = run.games(["game_id", "winner"]).sort_values("game_id", ignore_index=True)
            if not np.array_equal(g["game_id"].to_numpy(), g0["game_id"].to_numpy()):
                raise AnalysisError(f"{f0.path} and {run.path}: other games: not a duplicate rotation")
            wins.append(pd.DataFrame({"game_id": g["game_id"], "won": g["winner"] == r}))
        w = pd.concat(wins, ignore_index=True).sort_values("game_id", kind="stable", ignore_index=True)
        f["weak_game_win"] = _ratio(w["game_id"], w["won"]).rate(conf)
    else:
        f["weak_game_win"] = Estimate(math.nan, math.nan, math.nan, 0, kind="rate", conf=conf)
    labels = f0.seat_labels
    return VariantFigures(name=name, preset=f0.preset, rules=dict(f0.rules), rules_text=f0.rules_text(),
                          strong=strong or labels[0], weak=weak or rot[0].seat_labels[0], seats=n, mode=f0.mode,
                          n_deals=len(t0), n_games=n_games, figures=f, taker_scores=taker_score[played],
                          gains=x - y)


# ------------------------------------------------------------------ tables
def atlas_table(variants: list[VariantFigures], keys=None) -> pd.DataFrame:
    """One row a figure, one column a variant: 'value [lo, hi] (n=… unit, … deals or games)'."""
    unit = "games" if variants and variants[0].mode == "games" else "deals"
    return _atlas_table(variants, FIGURES, keys, unit)


def variants_table(variants: list[VariantFigures]) -> pd.DataFrame:
    """What each variant is and what was played."""
    return pd.DataFrame([{"variant": v.name, "rules": v.rules_text, "players": v.seats,
                          "stronger vs weaker": f"{v.strong} vs {v.weak}",
                          "games a table": fmt_int(v.n_games) if v.mode == "games" else "— (deals)",
                          "deals a table": fmt_int(v.n_deals), "tables": v.seats + 1} for v in variants])


# ------------------------------------------------------------------ charts
def _readable(ax, n_series: int, slant: bool = True) -> None:
    """Seven variants' long names: the legend in rows of at most three, the group labels slanted (``slant``)."""
    for label in ax.get_xticklabels() if slant else ():
        label.set_rotation(20)
        label.set_horizontalalignment("right")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22 if slant else -0.08),
              ncol=min(3, n_series), frameon=False)


def draw_atlas(charts: Charts, variants: list[VariantFigures]) -> None:
    """The atlas's charts into ``charts``: distributions on shared bins, the contracts, skill and luck."""
    fig, axes = charts.figure(2, width=15, height=4.4)
    drawn = {"taker score": hist_panel(axes[0], variants, "taker_scores", "the taker's score in a played deal",
                                       "Taker's deal score"),
             "skill": hist_panel(axes[1], variants, "gains", "stronger − weaker, same seat and deal",
                                 "Stronger − weaker, per seat-deal")}
    charts.save("atlas_distributions", fig, "Taker's score and the players' difference by variant (bins shared "
                "by the variants)", drawn)

    unit = "game" if variants[0].mode == "games" else "deal"
    fig, axes = charts.figure(2, width=18, height=5.6)
    drawn = {"contracts": plot_rate_bars(axes[0], rate_frame(variants, FIGURES, ["all_pass", *(
        f"share_{c}" for c in CONTRACTS)]), title=f"All passed and contracts (95 % intervals clustered by {unit})"),
             "success": plot_rate_bars(axes[1], rate_frame(variants, FIGURES, [
                 "taker_won", *(f"won_{c}" for c in CONTRACTS), "petit_au_bout", "poignee"]),
                 title=f"Taker's success and bonuses (95 % intervals clustered by {unit})")}
    for ax in axes:
        _readable(ax, len(variants))
    charts.save("atlas_rates", fig, "Contracts, success and bonuses by variant", drawn)

    fig, axes = charts.figure(1, width=9, height=4.6)
    keys = ["strong_better", "luck"] + (["weak_game_win"] if variants[0].mode == "games" else [])
    drawn = {"skill and luck": plot_rate_bars(
        axes[0], rate_frame(variants, FIGURES, keys),
        title=f"Skill and luck ({variants[0].strong} vs {variants[0].weak}; n = seat-deals"
        + ("; games won: seat-games)" if unit == "game" else ")"))}
    _readable(axes[0], len(variants), slant=False)
    charts.save("atlas_skill", fig, "Skill and luck by variant", drawn)


# ------------------------------------------------------------------ the report
METHOD = ("Each variant is a duplicate rotation on the same deals: one table with the stronger player in every "
          "seat, then one table a seat with the weaker player in it (the others the stronger). Figures over deals "
          "pool every table and are clustered by deal, or by game in games mode (a rate: Wilson interval at the "
          "effective sample size; a mean: t interval on clusters − 1 degrees of freedom); the paired figures "
          "take a seat of a deal, played by each player with the same cards and the same three others, as the "
          "unit (clustered likewise). 95 % intervals; n counts the unit named in each cell, with the clusters it "
          "rests on.")

READING = ("How to read skill and luck: the first row is what the stronger player scores a deal more than the "
           "weaker would in its seat with its cards (0 = no edge; a deal's scores sum to zero over the seats). "
           "Luck is the share of a seat's score variance that the deal fixes whoever plays the seat (1 − Σ(x − y)² "
           "/ Σ((x − m)² + (y − m)²) over the pairs, x and y the two players' scores): near 1, the cards decide "
           "and the play matters little; near 0, the same cards score as differently as two deals would. A "
           "variant that rewards skill has a larger edge and a smaller luck share.")


def _captions(variants) -> dict[str, str]:
    return {v.name: f"{v.name}: {v.rules_text}; {v.strong} vs {v.weak}, {fmt_int(v.n_deals)} deals a table"
            for v in variants}


def write_atlas(variants: list[VariantFigures], out_dir, *, title: str = "Tarot variant atlas") -> AtlasResult:
    """Charts (PNG and SVG), ``atlas.html`` (self-contained), ``atlas.md`` and ``atlas.csv`` of ``variants`` into
    ``out_dir``."""
    keys = [k for k in SKILL if k != "weak_game_win" or (variants and variants[0].mode == "games")]
    tables = {"variants": variants_table(variants), "skill": atlas_table(variants, keys),
              "figures": atlas_table(variants, [k for k in FIGURES if k not in SKILL])} if variants else {}
    sections = (Section("Variants", "", "variants"), Section("Skill and luck", READING, "skill"),
                Section("Contracts, success and bonuses", "", "figures"))
    return write_page(variants, out_dir, title=title, captions=_captions(variants),
                      draw=lambda charts: draw_atlas(charts, variants), tables=tables, method=METHOD,
                      sections=sections)
