"""What every game's variant atlas shares (``tricksim atlas GAME``): the table of figures (one row a figure, one
column a variant, each cell 'value [lo, hi] (n=… unit, … deals)'), the numbers as CSV, histograms on bins shared
by the variants, rate bars, and the page (``atlas.html``, self-contained, and ``atlas.md``).

A game's atlas module (``analysis/games/<game>/atlas.py``) computes its variants' figures and says what they are:
a ``FIGURES`` dict, key -> (label, unit of n), and the sections of its page. Each variant is an object with at
least ``name`` and ``figures`` (key -> :class:`~tricksim.analysis.stats.Estimate`).
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .io import AnalysisError, atomic_output
from .plots import Charts, IntHist, common_bins, plot_hist, whole_bins
from .report import md_table
from .stats import Estimate, fmt_estimate, fmt_int

__all__ = ["AtlasResult", "Section", "Variant", "atlas_markdown", "atlas_table", "central_range", "figures_frame",
           "hist_panel", "rate_frame", "write_page"]

Figures = Mapping[str, tuple[str, str]]  # key -> (label, unit of n)


@dataclass
class Variant:
    """What every game's variant is: its name, its rules and the two players compared (a game's atlas module adds
    its figures)."""

    name: str
    preset: str
    rules: dict                 # the run's every rule flag
    rules_text: str             # the preset and the flags that differ from it
    strong: str
    weak: str


def cell(e: Estimate, unit: str, cluster_unit: str = "deals") -> str:
    """'value [lo, hi] (n=… unit, … deals)': the clusters named when they are not the units themselves."""
    if e.n == 0 or (isinstance(e.value, float) and math.isnan(e.value)):
        return f"— (n=0 {unit})"
    text = fmt_estimate(e)
    if e.clusters and e.clusters != e.n:
        return text[:-1] + f" {unit}, {fmt_int(e.clusters)} {cluster_unit})"
    return text[:-1] + f" {unit})"


def atlas_table(variants, figures: Figures, keys=None, cluster_unit: str = "deals") -> pd.DataFrame:
    """One row a figure (of ``keys``, default all of ``figures``), one column a variant."""
    keys = list(keys or figures)
    return pd.DataFrame([{"figure": figures[k][0], **{v.name: cell(v.figures[k], figures[k][1], cluster_unit)
                                                      for v in variants}} for k in keys])


def figures_frame(variants) -> pd.DataFrame:
    """Every figure of every variant as numbers: variant, figure, value, lo, hi, n, clusters."""
    return pd.DataFrame([{"variant": v.name, "figure": k, "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n,
                          "clusters": e.clusters} for v in variants for k, e in v.figures.items()])


def _hists(variants, values: str) -> list[IntHist]:
    """The integer values ``values`` of each variant (an attribute: an array, or an :class:`IntHist` over the
    values' range) as histograms."""
    hists = []
    for v in variants:
        x = getattr(v, values)
        if not isinstance(x, IntHist):
            hist = IntHist(int(x.min()) if x.size else 0, int(x.max()) if x.size else 0)
            hist.add(x)
            x = hist
        hists.append(x)
    return hists


def central_range(variants, values: str, share: float) -> tuple[int, int] | None:
    """[lo, hi] holding the central 1 − 2·``share`` of every variant's ``values`` (e.g. share 0.01: from the
    lowest of the variants' 1st percentiles to the highest of their 99th; ``IntHist.quantiles``): an axis over it
    shows the bulk of each variant whatever its outliers. None without values."""
    ends = [q for q in (h.quantiles(share) for h in _hists(variants, values)) if q is not None]
    if not ends:
        return None
    return min(lo for lo, _ in ends), max(hi for _, hi in ends)


def hist_panel(ax, variants, values: str, xlabel: str, title: str, limits: tuple[int, int] | None = None) -> dict:
    """The integer values ``values`` (an attribute of each variant: an array, or an :class:`IntHist` over the
    values' range) as histograms on bins shared by the variants: over every value, or with ``limits`` over the
    whole bins that cover [lo, hi] only (the axis ends there; the values beyond are left out of the bins: the
    caller says how many)."""
    hists = _hists(variants, values)
    if limits is None:
        lo, hi, width = common_bins(hists)
    else:
        lo, hi, width = whole_bins(*limits)
        hists = [h.within(lo, hi) for h in hists]
    series = {v.name: h.rebin(width, lo, hi) for v, h in zip(variants, hists)}
    drawn = plot_hist(ax, series, xlabel=xlabel, title=title)
    if limits is not None:
        ax.set_xlim(lo - 0.5, hi + 0.5)
    return drawn


def rate_frame(variants, figures: Figures, keys) -> pd.DataFrame:
    """The rates ``keys`` of every variant, as ``plot_rate_bars`` draws them (a group a figure)."""
    return pd.DataFrame([{"group": figures[k][0].split(" (")[0], "series": v.name,
                          "k": v.figures[k].value * v.figures[k].n, "n": v.figures[k].n, "lo": v.figures[k].lo,
                          "hi": v.figures[k].hi} for k in keys for v in variants])


@dataclass
class Section:
    """A part of the page: a heading, a paragraph (may be empty) and the key of a table of ``tables``."""

    heading: str
    text: str
    table: str


@dataclass
class AtlasResult:
    """What :func:`write_page` wrote and the figures it rendered."""

    out_dir: Path
    html: Path
    markdown: Path
    charts: dict[str, tuple[Path, Path]]
    variants: list
    tables: dict[str, pd.DataFrame]
    drawn: dict[str, dict]
    method: str = ""
    sections: tuple[Section, ...] = ()


def atlas_markdown(result: AtlasResult, *, title: str, chart_prefix: str = "", intro: list[str] = ()) -> str:
    """The atlas as Markdown; charts linked as ``chart_prefix`` + file name."""
    md = [f"# {title}", "", *intro, result.method, ""]
    for s in result.sections:
        md += [f"## {s.heading}", ""] + ([s.text, ""] if s.text else []) + [md_table(result.tables[s.table]), ""]
    md += ["## Charts", ""]
    for name, (png, _svg) in result.charts.items():
        md += [f"![{name}]({chart_prefix}{png.name})", ""]
    return "\n".join(md)


def write_page(variants: list, out_dir, *, title: str, captions: dict[str, str], draw, tables: dict,
               method: str, sections: tuple[Section, ...]) -> AtlasResult:
    """Charts (``draw(charts)``: PNG and SVG), ``atlas.csv`` (every figure's numbers), ``atlas.md`` and
    ``atlas.html`` (self-contained) into ``out_dir``: the ``method`` paragraph, then each section's heading,
    text and table (``tables[section.table]``), then the charts."""
    if not variants:
        raise AnalysisError("an atlas needs at least one variant")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    charts = Charts(out, captions)
    draw(charts)
    tables = {**tables, "numbers": figures_frame(variants)}
    with atomic_output(out / "atlas.csv") as tmp:
        tables["numbers"].to_csv(tmp, index=False)
    result = AtlasResult(out_dir=out, html=out / "atlas.html", markdown=out / "atlas.md", charts=charts.files,
                         variants=variants, tables=tables, drawn=charts.drawn, method=method, sections=sections)
    with atomic_output(result.markdown) as tmp:
        tmp.write_text(atlas_markdown(result, title=title), encoding="utf-8")

    def table(df):
        return df.to_html(index=False, escape=True, border=0, na_rep="—")

    page = [(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1300px;padding:0 1em}"
            "table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;"
            "text-align:left}img{max-width:100%}</style></head><body>"),
            f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(method)}</p>"]
    for s in sections:
        page += [f"<h2>{html.escape(s.heading)}</h2>"] + ([f"<p>{html.escape(s.text)}</p>"] if s.text else []) \
            + [table(tables[s.table])]
    page.append("<h2>Charts</h2>")
    for name, (png, svg) in charts.files.items():
        page.append(f"<figure><img alt='{html.escape(charts.titles[name])}' src='data:image/png;base64,"
                    f"{charts.png_b64[name]}'><figcaption>Files: <a href='{png.name}'>{png.name}</a>, "
                    f"<a href='{svg.name}'>{svg.name}</a></figcaption></figure>")
    page.append("</body></html>")
    with atomic_output(result.html) as tmp:
        tmp.write_text("\n".join(page), encoding="utf-8")
    return result

