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
This module imports nothing of the project: every layer, the numba-free analysis included, may use it.

A message names the problem in the caller's own terms. The same refusal reaches Python API users
(``execute(cfg, out, resume=True)``) and the command line (``--resume``), so a message outside the
command line never spells a flag: it names the option with :func:`option`, which reads as the API's
keyword (``resume=True``, ``out=DIR``) and, while the command line runs (``tricksim.cli.Cli.invoke``
wraps every command in :func:`flag_spelling`), as its flag (``--resume``, ``--out DIR``). The text is
fixed when the message is made, so an error re-raised as another (``JobError(str(e))``) and text a job
echoes keep the spelling of the caller that asked (tests/tool/test_errors.py checks that no message of the
other layers spells a flag).
"""
from __future__ import annotations

from contextlib import contextmanager

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
]  # the classes; option and flag_spelling are imported by name

_flags = False  # True while the command line runs a command: options read as its flags


def option(name: str, value: object = True, *, api: str | None = None) -> str:
    """An option of the tool as a message names it: the Python API's keyword, or the command line's flag
    while it runs a command (:func:`flag_spelling`). ``name`` is the keyword (``shard_size``; the flag
    is ``--shard-size``); ``value`` True: a switch (``resume=True`` / ``--resume``); None: the option
    alone (``out`` / ``--out``); else the value as shown (``out=DIR`` / ``--out DIR``). ``api``: the
    API's spelling when it is no keyword (a function's name)."""
    if _flags:
        flag = "--" + name.replace("_", "-")
        return flag if value is True or value is None else f"{flag} {value}"
    if api is not None:
        return api
    return name if value is None else f"{name}={value}"


@contextmanager
def flag_spelling():
    """Within: :func:`option` spells the command line's flags (the command line runs each command in it)."""
    global _flags
    before, _flags = _flags, True
    try:
        yield
    finally:
        _flags = before


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
