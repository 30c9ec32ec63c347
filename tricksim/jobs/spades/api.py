"""The Spades functions of the Python API (``tricksim.nil``, ``tricksim.nil_report``, ``tricksim.sweep``,
``tricksim.dd``): the package finds them through ``JOBS.api``, as it finds every game's."""
from __future__ import annotations

from tricksim.jobs import args
from tricksim.simulator.rules import override_list

METRICS = ("win", "margin")


def _study_args(runs, by, hand, engine, scheduler) -> list:
    """The arguments the Nil study functions share, checked; the runs as a list."""
    from tricksim.analysis.games.spades.nil import HANDS

    runs = args.runs("runs", runs)
    args.text("by", by, none=True)
    args.choice("hand", hand, HANDS)
    args.engine(engine, scheduler)
    return runs


def nil(runs, by: str | None = None, *, hand: str = "dealt", figure: bool = False, engine: str = "local",
        scheduler: str | None = None, timeout: float | None = None):
    """The Nil study table (a DataFrame: one row a kind and group, rates with intervals); with
    ``figure=True`` also its chart as a matplotlib Figure: ``(table, figure)``."""
    from tricksim.analysis.games.spades.nil import nil_study, plot_nil
    from tricksim.analysis.parallel import scheduler_timeout

    runs = _study_args(runs, by, hand, engine, scheduler)
    args.flag("figure", figure)
    with scheduler_timeout(timeout):
        df = nil_study(runs, by, hand=hand, engine=engine, scheduler=scheduler)
    if not figure:
        return df
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(6.0, 0.6 * max(1, df["group"].nunique()) + 2), 4.5), layout="constrained")
    plot_nil(fig.add_subplot(), df)
    return df, fig


def nil_report(runs, by: str | None = None, *, hand: str = "dealt", save=None, chart=None, engine: str = "local",
               scheduler: str | None = None, timeout: float | None = None) -> str:
    """The text ``tricksim nil`` prints (the table, notes on what is pooled, the files written: ``save`` a
    .csv or .parquet table, ``chart`` a .png, .svg or .pdf)."""
    from tricksim.analysis.games.spades.nil import nil_report as _report
    from tricksim.analysis.parallel import scheduler_timeout

    runs = _study_args(runs, by, hand, engine, scheduler)
    args.out_file("save", save, (".csv", ".parquet"), none=True)
    args.out_file("chart", chart, (".png", ".svg", ".pdf"), none=True)
    with scheduler_timeout(timeout):
        return _report(runs, by, hand=hand, save=save, chart=chart, engine=engine, scheduler=scheduler)


def sweep(grid: str, *, vs: str, games: int = 2000, preset: str | None = None, rules=None, seed: int = 0,
          hand_limit: int = 1000, confirm: int | None = None, metric: str = "win", out=None,
          threads: int | None = None, engine: str = "local", scheduler: str | None = None,
          timeout: float | None = None, echo=None):
    """A parameter sweep (see ``tricksim sweep --help``): returns (table DataFrame, points, confirmation
    DuplicateResult (without partnerships a RotationGain) or None); ``sweep.csv`` and ``sweep.png`` are written
    into ``out``."""
    from tricksim.analysis.games.spades.sweep import sweep_table
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.jobs.spades.sweep import sweep as run_sweep
    from tricksim.simulator.engine import MAX_COUNT, MAX_SEED

    args.text("grid", grid)
    args.text("vs", vs)
    args.whole("games", games, 2, MAX_COUNT)
    args.text("preset", preset, none=True)
    args.rules(rules)
    args.whole("seed", seed, 0, MAX_SEED - 1)  # the confirmation match plays seed + 1
    args.whole("hand_limit", hand_limit, 1, 100_000)
    args.whole("confirm", confirm, 0, MAX_COUNT, none=True)
    args.choice("metric", metric, METRICS)
    args.out_folder("out", out, none=True)
    args.whole("threads", threads, 1, none=True)
    args.engine(engine, scheduler)
    args.callback("echo", echo)

    with scheduler_timeout(timeout):
        points, confirmation = run_sweep(grid, vs=vs, games=games, preset=preset, rules=override_list(rules),
                                         seed=seed, hand_limit=hand_limit, confirm=confirm, metric=metric, out=out,
                                         threads=threads, engine=engine, scheduler=scheduler,
                                         echo=echo or (lambda _text: None))
    return sweep_table(points, metric), points, confirmation


def dd(run, *, threads: int | None = None, echo=None) -> dict:
    """Double-dummy columns for a finished Spades run, written to ``RUN/dd/part-K.parquet`` (see
    ``tricksim dd --help``); an interrupted call is finished by calling it again."""
    from tricksim.jobs.spades.dd import add_dd_columns

    args.run_or_path("run", run)
    args.whole("threads", threads, 1, none=True)
    args.callback("echo", echo)
    return add_dd_columns(getattr(run, "path", run), threads=threads, echo=echo)


def atlas(*, games: int = 2000, variants=None, players=None, seed: int = 0, hand_limit: int = 1000, out=None,
          threads: int | None = None, engine: str = "local", scheduler: str | None = None,
          timeout: float | None = None, progress: bool = False, echo=None):
    """The Spades variant atlas (see ``tricksim atlas spades --help``): every variant (default: every preset and
    the flag variants of ``tricksim.jobs.spades.atlas.FLAG_VARIANTS``; else a list, or comma-separated text, of
    ``PRESET[+flag=value...]``) played as a duplicate match of ``games`` deals between ``players`` (stronger,
    weaker; default heuristic and simple), written into ``out`` (``atlas.html``, ``atlas.md``, ``atlas.csv``,
    the charts; the runs kept under ``out/runs`` and reused when called again). ``engine="dask"``: the runs
    simulated on Dask (a local cluster, or that at ``scheduler``). Returns the ``AtlasResult`` (``.tables``,
    ``.variants`` with each variant's figures, the paths)."""
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.jobs.atlas import check_options
    from tricksim.jobs.spades.atlas import PLAYERS, parse_variants
    from tricksim.jobs.spades.atlas import atlas as run_atlas
    from tricksim.simulator.engine import MAX_COUNT

    args.whole("games", games, 2, MAX_COUNT)
    players = check_options(variants=variants, players=players, default_players=PLAYERS, seed=seed, out=out,
                            threads=threads, engine=engine, scheduler=scheduler, progress=progress, echo=echo)
    args.whole("hand_limit", hand_limit, 1, 100_000)
    with scheduler_timeout(timeout):
        return run_atlas(games=games, variants=parse_variants(variants), players=players, seed=seed,
                         hand_limit=hand_limit, out=out, threads=threads, engine=engine, scheduler=scheduler,
                         progress=progress, echo=echo or (lambda _text: None))