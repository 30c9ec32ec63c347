"""The Tarot functions of the Python API (``tricksim.sessions``), as the command line's ``tricksim sessions``."""
from __future__ import annotations

from tricksim.jobs import args


def sessions(runs, *, engine: str = "local", scheduler: str | None = None, timeout: float | None = None) -> list[dict]:
    """Whole Tarot games (games runs): per run, who wins and by how much and the leader after k deals, as
    ``tricksim sessions`` prints them: a list of one dict a run (``games``, ``seat_wins``, ``ties``, ``margin``
    (an Estimate), ``strategies`` ({label: Estimate}), ``leader`` (one row a k: ``after_deals``, ``one_leader``,
    ``leader_won``, ``rate``, ``lo``, ``hi``, ``tied``) and ``text``."""
    from tricksim.analysis.games.tarot.sessions import format_rows, leader_table, sessions_table
    from tricksim.analysis.parallel import scheduler_timeout

    runs = args.runs("runs", runs)
    args.engine(engine, scheduler)
    with scheduler_timeout(timeout):
        rows = sessions_table(runs, engine=engine, scheduler=scheduler)
        for row in rows:
            row["text"] = format_rows([row])
            row["leader"] = leader_table(row.pop("numbers"))
    return rows


def atlas(*, games: int | None = None, deals: int | None = None, variants=None, players=None, seed: int = 0,
          out=None, threads: int | None = None, engine: str = "local", scheduler: str | None = None,
          timeout: float | None = None, progress: bool = False, echo=None):
    """The Tarot variant atlas (see ``tricksim atlas tarot --help``): every variant (default: every preset, one a
    table size, and the flag variants of ``tricksim.jobs.tarot.atlas.FLAG_VARIANTS``; else a list, or
    comma-separated text, of ``PRESET[+flag=value...]``) played as a duplicate rotation of ``games`` whole games
    (default 10,000) or ``deals`` deals (one of the two) between ``players`` (stronger, weaker; default
    ``tricksim.jobs.tarot.atlas.PLAYERS``), written into ``out`` (``atlas.html``, ``atlas.md``, ``atlas.csv``,
    the charts; the runs kept under ``out/runs`` and reused when called again). ``engine="dask"``: the runs
    simulated on Dask (a local cluster, or that at ``scheduler``). Returns the ``AtlasResult``."""
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.jobs.atlas import check_options
    from tricksim.jobs.tarot.atlas import PLAYERS, parse_variants
    from tricksim.jobs.tarot.atlas import atlas as run_atlas
    from tricksim.simulator.engine import MAX_COUNT
    from tricksim.simulator.errors import TricksimError

    if games is not None and deals is not None:
        raise TricksimError("give games or deals, not both: whole games, or single deals")
    args.whole("games", games, 2, MAX_COUNT, none=True)
    args.whole("deals", deals, 2, MAX_COUNT, none=True)
    unit, count = ("deals", deals) if deals is not None else ("games", DEFAULT_GAMES if games is None else games)
    players = check_options(variants=variants, players=players, default_players=PLAYERS, seed=seed, out=out,
                            threads=threads, engine=engine, scheduler=scheduler, progress=progress, echo=echo)
    with scheduler_timeout(timeout):
        return run_atlas(count=count, unit=unit, variants=parse_variants(variants), players=players, seed=seed,
                         out=out, threads=threads, engine=engine, scheduler=scheduler, progress=progress,
                         echo=echo or (lambda _text: None))


DEFAULT_GAMES = 10_000  # whole games a table of the Tarot atlas: minutes (docs/performance.md, the atlas entry)
