"""The one error hierarchy of every layer.

Every refusal the tool makes for input it cannot use is a :class:`TricksimError` with a one-line
message that names the problem and the allowed values. The command line turns it into
``Error: <message>`` and exit code 2 in one place (``tricksim.cli.Cli``); the Python API lets it
through as it is. A subclass says which layer refused, for code that wants to tell them apart:

    TricksimError
    ├── FamilyError        an unknown game                          (simulator.family)
    ├── RulesError         a rule flag, value or combination        (simulator.rules)
    ├── RunError           a run that cannot start as configured    (simulator.engine)
    ├── RunDirError        a run directory that cannot be used      (simulator.rundir)
    ├── PolicyFault        a strategy's decision the rules forbid   (a family's compute)
    ├── IllegalAction      an illegal action given to a step API    (games/*/state.py)
    ├── StrategyError      an unknown strategy or bad parameter     (strategies.registry)
    ├── AnalysisError      a run or table that cannot be analysed   (analysis)
    │   └── ClusterOrderError  rows not in the order the analysis reads them
    └── JobError           a study job that cannot run as asked     (tricksim.jobs)

``ValueError`` stays a base, so code that caught the old errors as ``ValueError`` still does.
This module imports nothing: every layer, the numba-free analysis included, may use it.
"""
from __future__ import annotations

__all__ = [
    "AnalysisError",
    "ClusterOrderError",
    "FamilyError",
    "IllegalAction",
    "JobError",
    "PolicyFault",
    "RulesError",
    "RunDirError",
    "RunError",
    "StrategyError",
    "TricksimError",
]


class TricksimError(ValueError):
    """Input or data the tool cannot use (one-line message naming the problem and the allowed values)."""


class FamilyError(TricksimError):
    """An unknown game."""


class RulesError(TricksimError):
    """A rule flag, value or combination that is not allowed."""


class RunError(TricksimError):
    """A run that cannot start as configured, or a strategy that broke the rules."""


class RunDirError(TricksimError):
    """A run directory that cannot be used as asked."""


class PolicyFault(TricksimError):
    """A strategy made a decision the rules forbid (a family's ``compute`` raises it)."""


class IllegalAction(TricksimError):
    """An action that is not legal in the current state of a step API."""


class StrategyError(TricksimError):
    """An unknown strategy or a bad parameter."""


class AnalysisError(TricksimError):
    """A run directory or table that cannot be analysed."""


class ClusterOrderError(AnalysisError):
    """Rows of a cluster not together, or clusters not in increasing id order."""

    def __init__(self, cluster: int) -> None:
        super().__init__(f"the rows of game {cluster} are not together in game order: the analysis reads each game's "
                         "hands one after the other, games in increasing game_id, as tricksim writes them")
        self.cluster = cluster


class JobError(TricksimError):
    """A study job that cannot run as asked."""
