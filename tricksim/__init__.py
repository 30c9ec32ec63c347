"""tricksim: Monte Carlo simulation and strategy analysis for trick-taking card games.

One import namespace over the project's top-level folders (pyproject.toml maps
them): ``tricksim.simulator`` (the core), ``tricksim.strategies``,
``tricksim.analysis``, the study jobs that combine them (``tricksim.jobs``),
the Python API (``tricksim.api``, re-exported here, with the functions each
game adds, e.g. ``tricksim.nil``) and the command line over it (``tricksim.cli``)::

    import tricksim
    run = tricksim.simulate("spades", preset="classic", games=10_000, seed=1)
    run.hands()
"""
from tricksim import api
from tricksim.api import TricksimError, compare, open_run, plan, report, simulate, summary
from tricksim.simulator import __version__

open = open_run

__all__ = ["TricksimError", "__version__", "compare", "open", "open_run", "plan", "report", "simulate", "summary"]


def __getattr__(name: str):
    """The functions a game adds to the API (``tricksim.nil``, ...): see ``tricksim.api``."""
    return getattr(api, name)


def __dir__():
    return sorted({*globals(), *dir(api)})
