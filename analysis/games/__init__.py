"""One folder per game, as in ``simulator/games``: ``analysis/games/<game>/`` holds that game's studies, and
its ``__init__.py`` defines ``ANALYSIS``, a :class:`GameAnalysis` that says what the neutral modules ask of
the game (the summary printed after a run, its part of the report). :func:`analysis_of` finds it by the
game's name, so no list of games is kept here.

A record's functions are imported when first called: finding a game's record loads none of its modules, so
the summary stays cheap (no pandas, no matplotlib).
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from tricksim.simulator.games import game_folders

from ..io import AnalysisError

__path__ += game_folders("analysis/games")  # the games kept outside the repository (simulator/games/__init__.py)

__all__ = ["GameAnalysis", "analysis_of", "later", "names"]


@dataclass(frozen=True)
class GameAnalysis:
    """What the analysis of one game provides to the modules that serve every game."""

    # the text printed after a run: (run_dir, *, batch_rows, engine, scheduler) -> str
    summary: Callable[..., str]
    # its runs' share of the report: ([(Run, label)], *, batch_rows, conf, engine) -> report.ReportPart
    report_part: Callable[..., object]


def later(module: str, name: str) -> Callable:
    """The function ``name`` of ``module``, imported on the first call."""
    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{module}.{name}, imported on the first call."
    return call


def names() -> tuple[str, ...]:
    """The games analysed: every folder of ``analysis/games``."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def analysis_of(game: str) -> GameAnalysis:
    """The analysis record of ``game``; raises AnalysisError naming the games analysed."""
    if game not in names():
        raise AnalysisError(f"no analysis for game {game!r}: allowed {' | '.join(names())}")
    return importlib.import_module(f"{__name__}.{game}").ANALYSIS
