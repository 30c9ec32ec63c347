"""The chart helpers every game's charts share: integer histograms accumulated batch by batch and drawn on
common bin edges, grouped rate bars with their error bars and n labels, percent axes, and saving (each file
written through :func:`~tricksim.analysis.io.atomic_output`, so a crash never leaves half a chart).

Matplotlib is imported inside the functions that draw: importing this module stays cheap.
"""
from __future__ import annotations

import base64
import io as _io
import math
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from .io import AnalysisError, atomic_output
from .stats import fmt_int, wilson_interval

__all__ = [
    "Charts",
    "IntHist",
    "common_bins",
    "group_x",
    "n_labels",
    "percent_axis",
    "plot_hist",
    "plot_rate_bars",
    "rate_bars",
    "save_figure",
    "text_colour",
    "whole_bins",
]


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

    def within(self, lo: int, hi: int) -> IntHist:
        """The values in [lo, hi] only, as a histogram over that range (the rest left out, not counted)."""
        out = IntHist(lo, hi)
        a, b = max(lo, self.lo), min(hi, self.hi)
        if a <= b:
            out.counts[a - lo:b - lo + 1] = self.counts[a - self.lo:b - self.lo + 1]
        return out

    def quantiles(self, share: float) -> tuple[int, int] | None:
        """(low, high): the smallest value with more than ``share`` of the values at or below it, and the
        smallest with at least 1 − ``share`` of them: between them lie the central 1 − 2·share of the values
        (the values clipped into the end bins by :meth:`add` count as the end values)."""
        if not self.n:
            return None
        cum = np.cumsum(self.counts)
        low = int(np.searchsorted(cum, share * self.n, side="right"))
        high = int(np.searchsorted(cum, (1 - share) * self.n, side="left"))
        return self.lo + low, self.lo + high

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


def _bin_width(span: int, target_bins: int = 40) -> int:
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / w <= target_bins:
            return w
    return 1000


def whole_bins(lo: int, hi: int, target_bins: int = 40) -> tuple[int, int, int]:
    """(start, stop, width): whole bins of ``width`` (as :func:`common_bins` picks it for [lo, hi]) from the bin
    holding ``lo`` to the last integer of the bin holding ``hi``."""
    width = _bin_width(hi - lo, target_bins)
    return (int(math.floor(lo / width) * width), int(math.floor(hi / width) * width) + width - 1, width)


def common_bins(hists, target_bins: int = 40) -> tuple[int, int, int]:
    """(lo, hi, width) covering every histogram of ``hists`` that holds data: panels compared side by side get
    the same bin edges."""
    ranges = [h.nonzero_range() for h in hists if h.n]
    if not ranges:
        return 0, 0, 1
    lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
    return lo, hi, _bin_width(hi - lo, target_bins)


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
    d["x"] = np.nan
    for i, s in enumerate(series):
        m = (d["series"] == s) & (d["n"] > 0)
        sub = d[m]
        x = group_x(groups, sub["group"], i, len(series))
        d.loc[m, "x"] = x
        rate_bars(ax, x, sub["rate"], sub["lo"], sub["hi"], sub["n"], width=0.8 / max(1, len(series)), label=s,
                  n_size=6)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    percent_axis(ax, top)
    if title:
        ax.set_title(title, fontsize=10)
    if series:
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(series), frameon=False)
    return d


def group_x(groups: list, of, i: int, n_series: int) -> np.ndarray:
    """Where the bars of series ``i`` (of ``n_series``) stand for the groups ``of``: side by side around each
    group's tick (0, 1, ... in the order of ``groups``), the series sharing 0.8 of the space between ticks."""
    width = 0.8 / max(1, n_series)
    return np.array([groups.index(g) for g in of], float) + (i - (n_series - 1) / 2) * width


def rate_bars(ax, x, rate, lo, hi, n, *, width: float, label: str, n_size: float = 7) -> None:
    """One series of bars: rates (fractions) drawn as % at ``x``, the error bar from ``lo`` to ``hi`` and
    'n=…' above it (:func:`n_labels`)."""
    rate, lo, hi = (np.asarray(v, float) for v in (rate, lo, hi))
    yerr = np.vstack([rate - lo, hi - rate]) * 100
    ax.bar(x, rate * 100, width * 0.95, yerr=yerr, capsize=3, label=label)
    n_labels(ax, x, hi * 100, n, fontsize=n_size)


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


def _luminance(rgb) -> float:
    """Relative luminance of an sRGB colour (components 0..1), as WCAG 2 defines it."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def text_colour(background) -> str:
    """'black' or 'white', whichever contrasts more with ``background`` (an RGB(A) colour): the text of a
    heat-map cell stays readable on the dark ends of a colour map (one of the two always reaches 4.5:1)."""
    lum = _luminance(background)
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


class Charts:
    """The charts of one report, each written as PNG and SVG into ``out`` under a caption naming its runs
    (``lines``: a run's label -> its caption line)."""

    def __init__(self, out: Path, lines: dict[str, str]) -> None:
        self.out = out
        self.lines = lines  # run label -> its caption line
        self.caption = "\n".join(self.lines.values())
        self.files: dict[str, tuple[Path, Path]] = {}
        self.png_b64: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        self.drawn: dict[str, dict] = {}

    def figure(self, n_axes: int = 1, *, width: float = 6.5, height: float = 4.2, sharey: bool = False,
               runs: list | None = None):
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
            save_svg(fig, tmp)
        self.files[name] = (png, svg)
        self.titles[name] = title
        self.drawn[name] = drawn or {}


SVG_SALT = "tricksim"  # matplotlib's svg.hashsalt: the SVG's element ids, else random on every save


def save_svg(fig, target, **kwargs) -> None:
    """``fig`` as SVG, the same bytes every time: no date, element ids from a fixed salt (not random)."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(target, format="svg", metadata={"Date": None}, **kwargs)


def save_figure(fig, path, *, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (the format from the suffix: .png, .svg, .pdf), its folder made if needed;
    a format matplotlib cannot write is an AnalysisError."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        with atomic_output(p) as tmp:
            if p.suffix.lower() == ".svg":
                save_svg(fig, tmp, dpi=dpi)
            else:
                fig.savefig(tmp, dpi=dpi)
    except ValueError as e:
        raise AnalysisError(f"{p}: cannot save chart ({e})") from None
    return p
