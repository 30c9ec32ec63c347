"""The game-family seam: what the shared engine needs to know about a game.

A family is one folder under ``simulator/games/`` whose ``family.py`` defines
``FAMILY``; the engine, run directory, manifest, resume and progress are shared
and take the family from the run's ``game``. Adding a game is a new folder, no
edit here (docs/architecture.md: how to add a game family).

A family record is plain data: reading it (and every ``family.py``) imports no
numba, so the analysis layer, which never loads numba, takes the games, their
modes and tables from here. Only ``compute`` reaches the compiled kernels, and
it imports them on its first call.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pyarrow as pa

from tricksim.simulator.errors import FamilyError, PolicyFault  # noqa: F401  (re-exported)
from tricksim.simulator.rundir import Encoding

N_PARAMS = 32  # length of each seat's parameter vector (unused slots are 0): parameters are data, never compiled in


class SeatPolicy(Protocol):
    """One seat's resolved strategy, as the engine takes it (the registry's ``SeatStrategy`` is one)."""

    spec: str            # canonical: every parameter spelled out; recorded in the data and the manifest
    short_spec: str      # only the parameters that differ from the defaults, for messages
    # optional ``label``: what tables and charts call the seat (a user's alias); short_spec when absent
    # optional ``refuses``: {rule flag: values of it the strategy does not play}; the run is then refused
    params: np.ndarray   # float64[N_PARAMS]
    functions: tuple     # compiled policy functions, in the order of the family's ``policy_slots``
    # optional ``needs``: {boolean rule flag: why, and what to play instead}: the rules must have each flag true


class LazyFunction:
    """The function ``"module:name"``, imported on its first call (then kept): a family's kernels are
    compiled code whose import loads numba, which reading the family must not."""

    __slots__ = ("_function", "target")

    def __init__(self, target: str):
        module, sep, name = target.partition(":")
        assert sep and module and name, f"expected 'module:function', got {target!r}"
        self.target = target
        self._function = None

    def resolve(self) -> Callable:
        if self._function is None:
            module, _, name = self.target.partition(":")
            self._function = getattr(importlib.import_module(module), name)
        return self._function

    def __call__(self, *args, **kwargs):
        return self.resolve()(*args, **kwargs)

    def __reduce__(self):
        return LazyFunction, (self.target,)

    def __repr__(self) -> str:
        return f"LazyFunction({self.target!r})"


@dataclass(frozen=True, kw_only=True)
class Family:
    name: str
    seats: int                                   # players at the table; where the rules record has its own
    #                                              ``seats`` (Tarot: 3 or 4 by preset), the most, and the rules decide
    modes: tuple[str, ...]                       # what a run counts: e.g. hands, games, deals
    mode_help: Mapping[str, str]                 # mode -> what N of them are, for the --MODE N help
    policy_slots: tuple[str, ...]                # a strategy's decision functions, in kernel order
    rules_type: type
    presets: Mapping[str, object]
    build_rules: Callable                        # (preset, ["key=value", ...]) -> rules; raises ValueError
    tables: Mapping[str, tuple[str, ...]]        # mode -> the tables a run writes, one file each per shard
    unit_table: str                              # the table with one row per dealt unit, in every mode's tables
    encoding: Encoding                           # how those tables' columns are written
    default_shard: Mapping[str, int]             # mode -> about this many units per shard (one a worker in memory)
    compute: LazyFunction                        # (cfg, unit ids, workers) -> {table: pa.Table} for those units
    default_preset: str
    default_strategies: tuple[str, ...]          # the first one installed plays when none is given
    partnerships: bool = False                   # seats s and s + 2 play together (Spades' teams)
    default: bool = False                        # the game played when none is named (exactly one family)
    disk_bytes: Mapping[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    # mode -> (bytes on disk a unit, more with --record-plays), measured with the default players: for the
    # size printed before a large run and the free-space check
    memory_bytes: Mapping[str, int] = dataclasses.field(default_factory=dict)
    # mode -> bytes of memory a unit of a shard takes while it is computed and written (with plays), an
    # upper estimate: shard sizes are capped so that every worker's shard fits in the memory available

    def __post_init__(self):
        assert set(self.default_shard) == set(self.modes) == set(self.tables) == set(self.mode_help)
        assert all(self.unit_table in tables for tables in self.tables.values())
        assert self.default_preset in self.presets


def names() -> tuple[str, ...]:
    """The games this installation plays: every folder of ``simulator/games`` with a family."""
    from tricksim.simulator import games

    return tuple(sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg))


def family(name: str) -> Family:
    """The family of game ``name``; raises FamilyError naming the allowed games."""
    if name not in names():
        raise FamilyError(f"unknown game {name!r}: allowed {' | '.join(names())}")
    return importlib.import_module(f"tricksim.simulator.games.{name}.family").FAMILY


@functools.cache
def default_game() -> str:
    """The game played where none is named: the one family whose record says ``default=True``."""
    found = [name for name in names() if family(name).default]
    assert len(found) == 1, f"exactly one game family must be the default, found {found or 'none'}"
    return found[0]


Tables = dict[str, pa.Table]
