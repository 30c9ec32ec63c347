"""``tricksim report RUN... --out DIR``: side-by-side report of one or more runs.

Each run is a *variant*: game, preset + rule flags, seat strategies. The runs of each game go to that
game's report part (:func:`tricksim.analysis.games.analysis_of`), which streams them batch by batch (memory
does not grow with the run) and returns its tables, notes, caption lines and charts as a
:class:`ReportPart`; this module lays out what every run shares (the runs and their rules) and assembles
the parts, game by game in the order of :func:`tricksim.analysis.games.names`.

:func:`build_report` writes into ``DIR``:

* one PNG and one SVG per chart, each with title, axis labels, legend and a caption naming rule sets and
  strategies by their labels (histograms of the variants on common bin edges);
* ``report.html`` — self-contained (charts embedded as base64 PNG) with the
  key tables, short cells only (every rule flag and full spec in a fold);
* ``summary.md`` — the key tables in Markdown, linking the PNG files.

All rates carry a 95 % interval and n (Wilson; clustered by game for hand-level
figures of games-mode runs); all means a t interval and n; the page says how.
"""
from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from tricksim.simulator.errors import option

from .games import analysis_of, names
from .io import DEFAULT_BATCH_ROWS, AnalysisError, Run, atomic_output, open_runs, pooling_notes, rule_value
from .parallel import Engine
from .plots import Charts

__all__ = ["ReportPart", "ReportResult", "Section", "build_report", "differing_rules", "md_table", "rules_table",
           "runs_table", "seat_specs"]


@dataclass(frozen=True)
class Section:
    """One table of the report under its heading, named ``key`` in :attr:`ReportResult.tables`."""

    key: str
    heading: str
    table: pd.DataFrame
    html_note: str = ""  # a paragraph above the table on the HTML page (HTML text)
    md_note: str = ""    # the same in summary.md


@dataclass(frozen=True)
class ReportPart:
    """What the runs of one game add to the report, one entry of ``stats``, ``captions`` and ``cells`` a run."""

    stats: list                    # the figures of each run (each with its ``run`` and ``label``)
    captions: list[str]            # the line that names the run under the charts
    cells: list[dict]              # the run's "seats" cell of the runs table and one cell a unit it counts
    #                                ("hands", "games"; "deals"): a column each, "—" for the runs that lack it
    method: list[str]              # how its intervals are built, for the page's method paragraph
    key: list[Section]             # its key results, after the runs
    notes: list[str]               # 'label: note' lines under the key results
    detail: list[Section]          # tables after the notes
    draw: Callable[[Charts], None]  # draws its charts


def differing_rules(runs: list[Run]) -> list[dict]:
    """Per run, the rule flags whose values differ between ``runs`` (for captions that name what varies)."""
    keys = sorted(set().union(*(r.rules.keys() for r in runs)))
    diff = [k for k in keys if len({repr(r.rules.get(k)) for r in runs}) > 1]
    return [{k: r.rules.get(k) for k in diff} for r in runs]


def rules_caption(run: Run, differing: dict) -> str:
    """The run's preset and the flags that differ between the runs of a chart, in plain words: 'classic, with
    target 300, jokers true' (a flag the run's rules lack: 'not set')."""
    if not differing:
        return f"{run.preset} rules"
    flags = ", ".join(f"{k} {rule_value(v) if k in run.rules else 'not set'}" for k, v in differing.items())
    return f"{run.preset} rules, with {flags}"


_CHART_FILES = re.compile(r"<figcaption>Files: <a href='([^'/\\]+\.png)'>[^<]*</a>, <a href='([^'/\\]+\.svg)'>")


def _charts_of(html_path: Path) -> set[str]:
    """The chart files a report wrote (its ``report.html`` names them, PNG and SVG); none if there is none."""
    try:
        text = html_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    return {name for pair in _CHART_FILES.findall(text) for name in pair}


def runs_table(parts: list[ReportPart]) -> pd.DataFrame:
    """Provenance of each run: path, game, mode, rules (the preset and the flags that differ from it), seats
    (short labels), seed, sizes. Every flag and the seats' full specs: :func:`rules_table`, :func:`seat_specs`."""
    units = list(dict.fromkeys(k for part in parts for cells in part.cells for k in cells if k != "seats"))
    rows = []
    for part in parts:
        for s, cells in zip(part.stats, part.cells):
            m = s.run.manifest
            rows.append({
                "run": s.label, "path": str(s.run.path), "game": s.run.game, "mode": s.run.mode,
                "rules": s.run.rules_text(), "seats": cells["seats"], "seed": m.get("seed", ""),
                **{unit: cells.get(unit, "—") for unit in units}, "status": m.get("status", ""),
                "version": m.get("version", ""),
            })
    return pd.DataFrame(rows)


def rules_table(runs: list[Run]) -> pd.DataFrame:
    """Every rule flag (rows) of every run (columns, by label)."""
    runs = list(runs)
    keys = list(dict.fromkeys(k for r in runs for k in r.rules))
    out = pd.DataFrame({"flag": keys})
    for label, r in zip(_unique_labels(runs), runs):
        out[label] = ["—" if k not in r.rules else rule_value(r.rules[k]) for k in keys]
    return out


def seat_specs(runs: list[Run]) -> list[str]:
    """One line per run and distinct seat label: 'run: label = full spec' (every parameter spelled out)."""
    lines = []
    for label, r in zip(_unique_labels(runs), runs):
        for lab, spec in dict(zip(r.seat_labels, r.seats)).items():
            lines.append(f"{label}: {lab} = {spec}")
    return lines


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


def method_text(parts: list[ReportPart]) -> str:
    """How the report's intervals are built (stated once, above the tables)."""
    return " ".join([("Rates: 95 % Wilson score intervals; means: 95 % t intervals; n = observations (hands, "
                      "team-hands with a contract, seat-hands, Nil bids or games, as the row says).")]
                     + [m for p in parts for m in p.method])


# ------------------------------------------------------------------ the report
@dataclass
class ReportResult:
    """Files written by :func:`build_report` and the tables it rendered."""

    out_dir: Path
    html: Path
    markdown: Path
    charts: dict[str, tuple[Path, Path]]  # name -> (png, svg)
    tables: dict[str, pd.DataFrame]
    stats: list  # the figures of each run, as its game's report part collected them
    drawn: dict[str, dict] = field(default_factory=dict)  # chart name -> {panel: data drawn}


def _unique_labels(runs: list[Run]) -> list[str]:
    labels, seen = [], {}
    for r in runs:
        base = r.name
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


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
    if out.is_symlink() and not out.exists():  # mkdir would say "File exists"
        raise AnalysisError(f"{option('out', out)} is a symbolic link to {os.readlink(out)}, which does not exist: "
                            f"create its target or choose another {option('out', None)}")
    out.mkdir(parents=True, exist_ok=True)
    old_charts = _charts_of(out / "report.html")  # an earlier report's, in a reused folder
    labelled = list(zip(runs, _unique_labels(runs)))
    with Engine(engine, scheduler) as e:
        parts = [analysis_of(game).report_part([(r, label) for r, label in labelled if r.game == game],
                                               batch_rows=batch_rows, conf=conf, engine=e)
                 for game in names() if any(r.game == game for r in runs)]

    charts = Charts(out, {s.label: line for p in parts for s, line in zip(p.stats, p.captions)})
    for p in parts:
        p.draw(charts)

    key = [s for p in parts for s in p.key]
    detail = [s for p in parts for s in p.detail]
    tables = {"runs": runs_table(parts), "rules": rules_table(runs)} | {s.key: s.table for s in key + detail}
    specs = seat_specs(runs)
    notes = [n for p in parts for n in p.notes]
    notes += [n.removeprefix("note: ") for n in pooling_notes(runs) if "pooled over" not in n]  # unfinished runs
    method = method_text(parts)

    # ---- HTML: each chart carries its own title and caption (drawn in the image): the page does not repeat them
    def html_section(s: Section) -> list[str]:
        return ([f"<h2>{html.escape(s.heading)}</h2>"] + ([f"<p>{s.html_note}</p>"] if s.html_note else [])
                + [_html_table(s.table)])

    h = [("<!DOCTYPE html><html><head><meta charset='utf-8'>"
          "<meta name='viewport' content='width=device-width, initial-scale=1'>"
          f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"), f"<h1>{html.escape(title)}</h1>",
         f"<p>{html.escape(method)}</p>",
         "<h2>Runs</h2>", _html_table(tables["runs"]),
         "<details><summary>Every rule flag, and the seats' strategies in full</summary>",
         _html_table(tables["rules"]),
         "<ul>" + "".join(f"<li><code>{html.escape(x)}</code></li>" for x in specs) + "</ul></details>"]
    for s in key:
        h += html_section(s)
    if notes:
        h.append("<ul>" + "".join(f"<li class='note'>{html.escape(n)}</li>" for n in notes) + "</ul>")
    for s in detail:
        h += html_section(s)
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
    def md_section(s: Section) -> list[str]:
        return [f"## {s.heading}", ""] + ([s.md_note, ""] if s.md_note else []) + [md_table(s.table), ""]

    md = [f"# {title}", "", method, "", "## Runs", "", md_table(tables["runs"]), "",
          "### Every rule flag", "", md_table(tables["rules"]), "", "### The seats' strategies in full", ""]
    md += [f"- `{x}`" for x in specs] + [""]
    for s in key:
        md += md_section(s)
    if notes:
        md += [f"- {n}" for n in notes] + [""]
    for s in detail:
        md += md_section(s)
    md += ["## Charts", "", "Each chart names the runs under it (preset, the rule flags that differ, the seats).", ""]
    for name, (png, svg) in charts.files.items():
        md += [f"![{charts.titles[name]}]({png.name}) ([SVG]({svg.name}))", ""]
    md_path = out / "summary.md"
    with atomic_output(md_path) as tmp:
        tmp.write_text("\n".join(md), encoding="utf-8")
    for name in old_charts - {p.name for files in charts.files.values() for p in files}:
        (out / name).unlink(missing_ok=True)  # a chart of the earlier report this one does not draw
    return ReportResult(out_dir=out, html=html_path, markdown=md_path, charts=charts.files, tables=tables,
                        stats=[s for p in parts for s in p.stats], drawn=charts.drawn)
