"""tricksim: Monte Carlo simulation and strategy analysis for trick-taking card games.

One import namespace over the project's top-level folders (pyproject.toml maps
them): ``tricksim.simulator`` (the core), ``tricksim.strategies``,
``tricksim.analysis``, and here the command line (``tricksim.cli``) and the
study jobs that combine them (``tricksim.jobs``).
"""
from tricksim.simulator import __version__

__all__ = ["__version__"]
