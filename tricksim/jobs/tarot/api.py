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
