"""Parameter sweeps: which value of a strategy parameter plays best, with statistics that hold up.

Each value of the grid plays a duplicate match against the same baseline on the same deals
(:mod:`analysis.games.spades.compare`: the unit is the deal pair, so deal luck cancels). Picking the best of ``k``
values and quoting its 95 % interval would overstate it (the winner's curse), so:

* every value also gets a *simultaneous* interval at level 1 − 0.05/k (Bonferroni): all k intervals
  cover their true values together with probability ≥ 95 %, so the best one's interval holds even
  though it was picked for looking best;
* a *confirmation* match of the best value on fresh deals (another seed) gives an estimate free of
  the selection altogether;
* when no value's simultaneous interval clears the baseline, the pairs needed to resolve the best
  observed edge (at the corrected level, 80 % power) are suggested;
* a value that is the baseline itself (the same strategy and parameters) plays the baseline against
  itself, 50 % by construction: the table marks it ``= baseline`` and it is never picked as the best.

Without partnerships (cutthroat, cutthroat3, twohanded: each player alone) a value plays a rotation instead
(:mod:`analysis.games.spades.cutthroat`, as ``tricksim compare`` does): the value alone in each of the n seats
in turn against a field of the baseline, and a field table all baseline, on the same deals. Its result is a
:class:`RotationGain`: the value's games won (1/n = no edge) and its final lead over the best other seat,
intervals clustered by deal (n = deals); everything below reads either kind of result.

:func:`sweep_table` makes the table, :func:`best_index` picks the best value, :func:`plot_sweep` draws
the chart, :func:`format_sweep` the text. The job that runs the matches is
``tricksim.jobs.spades.sweep``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...plots import text_colour
from ...stats import Estimate, fmt_int, n_paired, t_quantile, z_value
from .compare import DuplicateResult

__all__ = [
    "METRICS",
    "RotationGain",
    "SweepPoint",
    "best_index",
    "family_level",
    "format_sweep",
    "needed_pairs",
    "plot_sweep",
    "sweep_table",
]

METRICS = ("win", "margin")  # what "best" means: the paired win rate, or the mean final margin


@dataclass
class RotationGain:
    """A value's rotation read as a sweep result: ``win`` its games won alone (rate over seat-games, clustered
    by deal; ``no_edge`` = 1/n seats), ``margin`` its final lead over the best other seat, ``n_pairs`` the deals
    (the name a duplicate match's result gives its n, so that the table, chart and text read both)."""

    win: Estimate
    margin: Estimate
    n_pairs: int
    no_edge: float

    @classmethod
    def of(cls, rot) -> RotationGain:
        """From ``cutthroat.rotation_figures``' result."""
        return cls(win=rot.figures["strong_win"], margin=rot.figures["margin"], n_pairs=rot.n_deals,
                   no_edge=1 / rot.n_seats)

    @property
    def pair_sd(self) -> float:
        """The SD of a deal's win share, about: the clustered interval's half-width as z standard errors."""
        e = self.win
        return (e.hi - e.lo) / 2 / z_value(e.conf) * math.sqrt(self.n_pairs)


def _design(points) -> tuple[float, str]:
    """The win rate of no edge and what n counts: a rotation's (1/n, deals) or a duplicate match's (50 %, pairs)."""
    r = points[0].result
    return (r.no_edge, "deals") if isinstance(r, RotationGain) else (0.5, "deal pairs")


@dataclass
class SweepPoint:
    """One value of the grid (``values``: parameter -> value as text) and its match against the baseline,
    with 95 % intervals (``result``) and simultaneous ones (``simultaneous``); ``is_baseline``: the value is
    the baseline itself, so its match is the baseline against itself."""

    values: dict
    result: DuplicateResult
    simultaneous: DuplicateResult
    is_baseline: bool = False

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values.items())


def family_level(k: int, conf: float = 0.95) -> float:
    """Bonferroni: the level of each of ``k`` intervals that cover together with probability ``conf``."""
    return 1 - (1 - conf) / max(k, 1)


def _pct(e, digits: int = 1) -> str:
    return f"{100 * e.value:.{digits}f} % [{100 * e.lo:.{digits}f}, {100 * e.hi:.{digits}f}]"


def _num(e, digits: int = 1) -> str:
    return f"{e.value:+.{digits}f} [{e.lo:+.{digits}f}, {e.hi:+.{digits}f}]"


def sweep_table(points: list[SweepPoint], metric: str = "win") -> pd.DataFrame:
    """One row a value: pairs, win rate and final margin with their 95 % and simultaneous intervals, and
    whether the simultaneous interval clears the baseline (50 % win rate, 1/n in a rotation / zero margin;
    ``= baseline`` for the baseline itself). A rotation's n is deals (column ``deals``), a match's pairs."""
    rows = []
    best = best_index(points, metric)
    even, unit = _design(points)
    for i, p in enumerate(points):
        r, s = p.result, p.simultaneous
        clear = s.win.lo > even or s.win.hi < even if metric == "win" else s.margin.lo > 0 or s.margin.hi < 0
        rows.append({**p.values, unit.split()[-1]: fmt_int(r.n_pairs), "win rate (95 %)": _pct(r.win),
                     "win rate (simultaneous)": _pct(s.win), "margin (95 %)": _num(r.margin),
                     "margin (simultaneous)": _num(s.margin),
                     "differs from baseline": "= baseline" if p.is_baseline else "yes" if clear else "no",
                     "best": "*" if i == best else ""})
    return pd.DataFrame(rows)


def best_index(points: list[SweepPoint], metric: str = "win") -> int:
    """The value with the highest paired win rate (or mean margin); the first on a tie. The baseline itself
    (:attr:`SweepPoint.is_baseline`) is never picked."""
    if metric not in METRICS:
        raise ValueError(f"invalid metric {metric!r}: allowed {' | '.join(METRICS)}")
    if all(p.is_baseline for p in points):
        raise ValueError("every value of the sweep is the baseline itself: none to pick")
    scores = [-math.inf if p.is_baseline else p.result.win.value if metric == "win" else p.result.margin.value
              for p in points]
    return int(np.argmax(scores))


def needed_pairs(point: SweepPoint, k: int, metric: str = "win", conf: float = 0.95) -> float:
    """Deal pairs a value needs so that an edge of the size observed is resolved at the corrected level
    (two-sided, 80 % power): the suggestion when the differences are within the noise."""
    r = point.result
    level = family_level(k, conf)
    if metric == "win":
        return n_paired(r.win.value - _design([point])[0], r.pair_sd, level)
    e = r.margin  # a t interval: its half-width is t * sd / sqrt(n)
    sd = (e.hi - e.lo) / 2 / t_quantile(e.conf, e.n - 1) * math.sqrt(e.n) if e.n > 1 else math.nan
    return n_paired(e.value, sd, level)


def plot_sweep(fig, points: list[SweepPoint], axes: list[str], *, baseline: str, metric: str = "win") -> None:
    """One parameter: win rate and margin against the value, thick bars 95 %, thin bars simultaneous.
    Two parameters: a heat map of the win rate over the grid, the best value framed."""
    best = best_index(points, metric)
    even, unit = _design(points)
    rotation = unit == "deals"
    if len(axes) == 1:
        ax_w, ax_m = fig.subplots(1, 2)
        x = np.arange(len(points))
        for ax, get, scale, ref, ylabel in (
                (ax_w, lambda r: r.win, 100, 100 * even,
                 "games won alone against the baseline (%)" if rotation else "win rate against the baseline (%)"),
                (ax_m, lambda r: r.margin, 1, 0,
                 "final lead over the best other seat (points)" if rotation else "final margin per game (points)")):
            v = np.array([get(p.result).value for p in points]) * scale
            for attr, width, colour in (("simultaneous", 1, "0.55"), ("result", 3, "C0")):
                e = [get(getattr(p, attr)) for p in points]
                err = np.vstack([v - np.array([q.lo for q in e]) * scale, np.array([q.hi for q in e]) * scale - v])
                ax.errorbar(x, v, yerr=err, fmt="none", ecolor=colour, elinewidth=width, capsize=3 if width == 1 else 0)
            ax.plot(x, v, "o", color="C0")
            ax.plot([best], [v[best]], "s", mfc="none", mec="C3", ms=12, label="best")
            ax.axhline(ref, color="0.3", lw=0.8, ls="--")
            ax.set_xticks(x)
            ax.set_xticklabels([str(p.values[axes[0]]) for p in points], rotation=30 if len(points) > 8 else 0)
            ax.set_xlabel(axes[0])
            ax.set_ylabel(ylabel)
        ax_w.legend(loc="best", fontsize=8, title=f"vs {baseline}", title_fontsize=8)
    else:
        xs = list(dict.fromkeys(p.values[axes[0]] for p in points))
        ys = list(dict.fromkeys(p.values[axes[1]] for p in points))
        from matplotlib.patches import Rectangle

        grid = np.full((len(ys), len(xs)), np.nan)
        for p in points:
            grid[ys.index(p.values[axes[1]]), xs.index(p.values[axes[0]])] = 100 * p.result.win.value
        ax = fig.subplots()
        span = max(1.0, float(np.nanmax(np.abs(grid - 100 * even))))
        im = ax.imshow(grid, cmap="RdBu", vmin=100 * even - span, vmax=100 * even + span, origin="lower")
        for p in points:
            i, j = ys.index(p.values[axes[1]]), xs.index(p.values[axes[0]])
            ax.text(j, i, f"{100 * p.result.win.value:.1f}", ha="center", va="center", fontsize=8,
                    color=text_colour(im.cmap(im.norm(100 * p.result.win.value))))
        bp = points[best]
        ax.add_patch(Rectangle((xs.index(bp.values[axes[0]]) - 0.5, ys.index(bp.values[axes[1]]) - 0.5), 1, 1,
                               fill=False, ec="C3", lw=2))
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(axes[0])
        ax.set_ylabel(axes[1])
        fig.colorbar(im, ax=ax, label=f"{'games won alone' if rotation else 'win rate'} against {baseline} (%)")
    n = points[0].result.n_pairs
    what = f"games won alone ({100 * even:.3g} % = no edge)" if rotation else "paired win rate"
    fig.suptitle(f"sweep against {baseline}: {fmt_int(n)} {unit} a value; bars 95 % (thick) and "
                 f"simultaneous over {len(points)} values (thin)" if len(axes) == 1 else
                 f"sweep against {baseline}: {what} (%), {fmt_int(n)} {unit} a value", fontsize=9)


def format_sweep(points: list[SweepPoint], *, baseline: str, metric: str = "win", confirm: DuplicateResult | None = None,
                 header: list[str] = ()) -> str:
    """The sweep's text: the table, the best value with its simultaneous interval, the confirmation match
    (if played) and, when nothing clears the noise, the suggested sample size."""
    k = len(points)
    level = family_level(k)
    best = points[best_index(points, metric)]
    even, unit = _design(points)
    lines = list(header)
    if unit == "deals":
        lines.append(f"Each value alone in each seat in turn against a field of {baseline} (a rotation) on the same "
                     f"deals: win rate = its games won ({100 * even:.3g} % = no edge), margin = its final lead over "
                     "the best other seat; intervals clustered by deal")
    else:
        lines.append(f"Each value against {baseline} in a duplicate match on the same deals; intervals over deal "
                     "pairs (paired t)")
    lines[-1] += (f"; 'simultaneous': Bonferroni, each at {100 * level:.2f} % so that all {k} hold together "
                  "at 95 %.")
    lines.append(sweep_table(points, metric).to_string(index=False))
    same = [p.label for p in points if p.is_baseline]
    if same:
        lines.append(f"= baseline: {'; '.join(same)} is {baseline} itself (the same strategy and parameters): its "
                     f"match is the baseline against itself, {100 * even:.3g} % by construction (less the games no one "
                     "won, in a rotation), and it is never picked as the best")
    s = best.simultaneous
    what = (f"win rate {_pct(s.win)}" if metric == "win" else f"margin {_num(s.margin)}")
    lines.append(f"best by {'win rate' if metric == 'win' else 'margin'}: {best.label}: {what} "
                 f"(simultaneous interval, n={fmt_int(s.n_pairs)} {unit}: it holds although this value was "
                 "picked as the best)")
    if confirm is not None:
        lines.append(f"confirmation on fresh deals (not used to pick it): win rate {_pct(confirm.win)}, margin "
                     f"{_num(confirm.margin)} (95 %, n={fmt_int(confirm.n_pairs)} {unit})")
    if not (sweep_table(points, metric)["differs from baseline"] == "yes").any():
        need = needed_pairs(best, k, metric)
        lines.append("no value differs from the baseline beyond the noise at the simultaneous level; "
                     + ("the observed edge is zero: no sample size resolves it" if not math.isfinite(need) else
                        f"to resolve an edge of the best value's observed size, play about {fmt_int(need)} "
                        f"{unit} a value (80 % power)"))
    return "\n".join(lines)
