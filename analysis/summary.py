"""Short plain-text summary of a run, printed after every simulation: the run's game writes it
(:class:`~tricksim.analysis.games.GameAnalysis`.summary).

Fast by construction: each game's summary imports only pyarrow and numpy (no pandas, no matplotlib) and
reads only the columns it needs, batch by batch.
"""
from __future__ import annotations

from .games import analysis_of
from .io import DEFAULT_BATCH_ROWS, open_run

__all__ = ["summarize_run"]


def summarize_run(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
                  scheduler: str | None = None) -> str:
    """A few lines on a finished run, each rate with its 95 % interval and n, each mean its t interval and n
    (``engine="dask"``: the files read and summed on Dask workers; the same text). Raises
    :class:`~tricksim.analysis.io.AnalysisError` for an invalid run."""
    return analysis_of(open_run(run_dir).game).summary(run_dir, batch_rows=batch_rows, engine=engine,
                                                       scheduler=scheduler)
