"""Checks of the Python API's arguments (``tricksim.api`` and the games' ``jobs/<game>/api.py``).

Every public function of the API checks the type and range of each argument before it touches the disk and
refuses a bad one with a :class:`TricksimError` whose one line names the option (as the caller spells it:
:func:`~tricksim.simulator.errors.option`), the value given and the values allowed. A ``bool`` is never taken
for a number (``hands=True`` would be one hand), nor a number for a ``bool``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from numbers import Integral
from pathlib import Path

from tricksim.simulator.errors import TricksimError, option

ENGINES = ("local", "dask")


def _got(value) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"got {text} ({type(value).__name__})"


def whole(name: str, value, lo: int, hi: int | None = None, *, none: bool = False):
    """A whole number from ``lo`` to ``hi`` (None: no upper bound); ``none``: None allowed too."""
    if value is None and none:
        return None
    span = f"from {lo}" + (f" to {hi}" if hi is not None else "")
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TricksimError(f"{option(name, None)} must be a whole number {span}" + (" or None" if none else "")
                            + f": {_got(value)}")
    if value < lo or (hi is not None and value > hi):
        raise TricksimError(f"invalid {option(name, value)}: allowed a whole number {span}")
    return int(value)


def flag(name: str, value, *, none: bool = False) -> bool | None:
    """True or False (``none``: None too); 0, 1 and strings are refused."""
    if value is None and none:
        return None
    if not isinstance(value, bool):
        raise TricksimError(f"{option(name, None)} must be True or False" + (" or None" if none else "")
                            + f": {_got(value)}")
    return value


def text(name: str, value, *, none: bool = False) -> str | None:
    """A string (``none``: None too)."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        raise TricksimError(f"{option(name, None)} must be a string" + (" or None" if none else "")
                            + f": {_got(value)}")
    return value


def choice(name: str, value, allowed, *, none: bool = False) -> str | None:
    """One of ``allowed`` (``none``: None too)."""
    if value is None and none:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise TricksimError(f"invalid {option(name, repr(value))}: allowed {' | '.join(allowed)}")
    return value


def engine(engine_value, scheduler) -> None:
    """``engine`` local or dask; ``scheduler`` an address string, only with engine dask."""
    choice("engine", engine_value, ENGINES)
    text("scheduler", scheduler, none=True)
    if scheduler and engine_value != "dask":
        raise TricksimError(f"{option('scheduler', 'ADDRESS')} needs {option('engine', 'dask')}")


def path(name: str, value, *, none: bool = False) -> Path | None:
    """A path: a ``str`` or ``os.PathLike`` (``none``: None too)."""
    if value is None and none:
        return None
    if isinstance(value, str) and value.strip() or isinstance(value, os.PathLike):
        return Path(value)
    raise TricksimError(f"{option(name, None)} must be a path (a str or pathlib.Path)"
                        + (" or None" if none else "") + f": {_got(value)}")


def out_folder(name: str, value, *, none: bool = False) -> Path | None:
    """A folder to write: a path that is not an existing file."""
    p = path(name, value, none=none)
    if p is not None and p.exists() and not p.is_dir():
        raise TricksimError(f"invalid {option(name, p)}: {p} is a file, not a folder: give a folder to write into")
    return p


def out_file(name: str, value, suffixes, *, none: bool = False) -> Path | None:
    """A file to write, named with one of ``suffixes``: a path that is not an existing folder."""
    p = path(name, value, none=none)
    if p is None:
        return None
    if p.is_dir():
        raise TricksimError(f"invalid {option(name, p)}: {p} is a folder: give a file name ({' | '.join(suffixes)})")
    if p.suffix.lower() not in suffixes:
        raise TricksimError(f"invalid {option(name, p)}: allowed a file name ending {' | '.join(suffixes)}")
    return p


def run_or_path(name: str, value):
    """A run (``tricksim.open``'s) or the path of a run directory."""
    if hasattr(value, "manifest") and hasattr(value, "path"):
        return value
    if isinstance(value, str) and value.strip() or isinstance(value, os.PathLike):
        return value
    raise TricksimError(f"{option(name, None)} must be a run (tricksim.open) or a run directory's path: "
                        f"{_got(value)}")


def runs(name: str, value) -> list:
    """One run or path, or a non-empty list or tuple of them."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items:
        raise TricksimError(f"{option(name, None)} is empty: give at least one run or run directory")
    return [run_or_path(name, v) for v in items]


def callback(name: str, value):
    """A function of one argument, or None."""
    if value is not None and not callable(value):
        raise TricksimError(f"{option(name, None)} must be a function (it receives each line of text) or None: "
                            f"{_got(value)}")
    return value


def rules(value):
    """Rule overrides: None, ``"key=value"``, a list or tuple of them, or {key: value}."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        for k in value:
            text("rules", k)
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return value
    raise TricksimError(f"{option('rules', None)} must be None, 'key=value', a list of them or a dict "
                        f"{{key: value}}: {_got(value)}")


def spec(name: str, value):
    """A strategy spec string ``[LABEL=]NAME[:param=value,...]`` or a parsed seat strategy."""
    if isinstance(value, str) or all(hasattr(value, a) for a in ("spec", "params", "functions")):
        return value
    raise TricksimError(f"{option(name, None)}: a strategy must be a spec string [LABEL=]NAME[:param=value,...] "
                        f"or a parsed seat strategy: {_got(value)}")


def counts(value: Mapping, hi: int | None = None) -> dict:
    """``**count`` keywords (``hands=N``, ...): each a whole number from 1 to ``hi``, or None (not given); which
    names a game takes is the caller's check."""
    return {k: whole(k, v, 1, hi, none=True) for k, v in value.items()}
