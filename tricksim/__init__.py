"""tricksim: Monte Carlo simulation and strategy analysis for trick-taking card games.

One import namespace over the project's top-level folders (pyproject.toml maps
them): ``tricksim.simulator`` (the core), ``tricksim.strategies``,
``tricksim.analysis``, the study jobs that combine them (``tricksim.jobs``),
the Python API (``tricksim.api``, re-exported here) and the command line over
it (``tricksim.cli``)::

    import tricksim
    run = tricksim.simulate("spades", preset="classic", games=10_000, seed=1)
    run.hands()
"""
from tricksim.api import (
    TricksimError,
    compare,
    nil,
    nil_report,
    open_run,
    plan,
    report,
    simulate,
    summary,
    sweep,
)
from tricksim.simulator import __version__

open = open_run  # noqa: A001 - tricksim.open(DIR), as the issue names it

__all__ = ["__version__", "TricksimError", "simulate", "open", "open_run", "plan", "summary", "nil", "nil_report",
           "compare", "sweep", "report"]
