"""Fill the compile cache beside a whole-suite run, in two more processes, never compiling one thing twice at once
(docs/performance.md P60, P65).

Started by ``tests/conftest.py`` beside a whole-suite run (the README's test command): one process per lane of
``LANES``, each compiling its list in the order the suite first needs it, while the test process collects and
runs its first tests. Every process of the run, the test process too (``guard_compiles``), holds a file lock in
the compile cache's folder around each compile of a strategy module or an engine kernel: the first process to
need one compiles it, any other waits for it and then loads it from the cache. So a test that needs ``pimc``
while a lane compiles it waits for that lane instead of compiling it a second time, and a lane that comes to
something a test has compiled loads it. Nothing depends on the lanes: a kernel or strategy not in the cache
(a lane not there yet, or stopped) is compiled by the test process as before. With a warm cache each lane
loads its list in seconds.

    python tests/compile_ahead.py LANE   # $COMPILE_AHEAD_LOG=FILE: a line per item compiled, and per wait for one
"""
from __future__ import annotations

import importlib
import importlib.abc
import os
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows has no fcntl: there the processes do not wait for each other (duplicated work at worst)
    fcntl = None

# Each lane's items in the order the suite first needs them: ("run", game, seats[, preset]) plays a few games of
# that seating (Spades: the classic preset unless one is named), which compiles exactly the kernel its runs use;
# ("import", module) compiles a strategy. The quick suite needs each Spades kernel (the mixed seats', and one per
# compiled-in built-in) at two, three and four players, but `simple`'s, the largest, at four only (its two- and
# three-player runs are slow tests): ten kernels. Balanced by their CPU seconds on an empty cache (P65, P70): lane 0
# eight Spades kernels (about 350 s), lane 1 the search players, the Tarot kernel and two Spades kernels (about
# 345 s; P70's lanes less the two `simple` kernels moved out, not measured again).
LANES = (
    (("run", "spades", "random heuristic random heuristic"),  # mixed seats: the per-seat kernel
     ("run", "spades", "heuristic heuristic heuristic heuristic"),
     ("run", "spades", "heuristic random random", "cutthroat3"),  # test_analysis_cutthroat3.py, the 3rd file
     ("run", "spades", "random random random", "cutthroat3"),
     ("run", "spades", "heuristic heuristic heuristic", "cutthroat3"),
     ("run", "spades", "simple simple simple simple"),
     ("run", "spades", "heuristic random", "twohanded"),
     ("run", "spades", "random random", "twohanded")),
    (("import", "tricksim.strategies.spades.pimc"),  # the first test needing it is early (test_variants.py)
     ("run", "spades", "heuristic heuristic", "twohanded"),
     ("run", "tarot", "heuristic heuristic heuristic heuristic"),
     ("run", "spades", "random random random random"),
     ("import", "tricksim.strategies.tarot.pimc"),
     ("import", "tricksim.strategies.tarot.legacy")),
)


@contextmanager
def locked(what: str):
    """Hold the lock of one compile (``what``: a module or kernel name) for the body, shared by every process
    that uses this compile cache."""
    if fcntl is None:
        yield
        return
    from numba.core import config

    folder = Path(config.CACHE_DIR) / "compile-locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{what}.lock", "w") as f:
        start = time.perf_counter()
        fcntl.flock(f, fcntl.LOCK_EX)  # released when the file closes, or when its process dies
        _log(f"waited for {what}", start, None, threshold=0.5)
        yield


_ROLE = ["tests"]  # who writes the log lines: the test process, or a lane


def _log(what: str, wall: float, cpu: float | None, *, threshold: float = 0.0) -> None:
    """One line to ``$COMPILE_AHEAD_LOG`` (when set) for a step that took ``threshold`` seconds or more."""
    log, seconds = os.environ.get("COMPILE_AHEAD_LOG"), time.perf_counter() - wall
    if log and seconds >= threshold:
        used = "" if cpu is None else f"\tcpu {time.process_time() - cpu:.1f} s"
        with open(log, "a") as f:
            f.write(f"{_ROLE[0]}\t{what}\t{seconds:.1f} s{used}\tended {time.time():.1f}\n")


class _LockedLoader(importlib.abc.Loader):
    """A strategy module's own loader, its execution (which compiles the module's policies) under its lock."""

    def __init__(self, loader, name: str):
        self._loader, self._name = loader, name

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        with locked(self._name):
            self._loader.exec_module(module)

    def __getattr__(self, attr):  # get_source, get_filename ...: the wrapped loader's
        return getattr(self._loader, attr)


class _StrategyImports(importlib.abc.MetaPathFinder):
    """Puts each strategy module's import (``tricksim.strategies.<game>.<name>``, not its light ``meta``) under
    its lock; other modules are left to the finders after this one."""

    def find_spec(self, name, path, target=None):
        parts = name.split(".")
        if parts[:2] != ["tricksim", "strategies"] or len(parts) != 4 or "meta" in parts:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _LockedLoader(spec.loader, name)
                return spec
        return None


def guard_compiles() -> None:
    """In this process, compile each strategy module and engine kernel under its lock (see the module's text)."""
    from tricksim.simulator.games.spades import kernel as spades_kernel
    from tricksim.simulator.games.tarot import kernel as tarot_kernel

    sys.meta_path.insert(0, _StrategyImports())
    compile_kind = spades_kernel._compile_kind

    def compile_kind_locked(policy_kind: int, n_seats: int) -> None:
        with locked(f"spades-kernel-{policy_kind}-{n_seats}"):
            compile_kind(policy_kind, n_seats)

    spades_kernel._compile_kind = compile_kind_locked
    tarot_kernel_for = tarot_kernel.kernel_for

    def tarot_kernel_for_locked():
        with locked("tarot-kernel") if not tarot_kernel._ENTRY_POINT else nullcontext():
            return tarot_kernel_for()

    tarot_kernel.kernel_for = tarot_kernel_for_locked


class imported_on_use:
    """A module imported at its first attribute use, not at the test module's import: collection then compiles
    nothing for it, and the tests before it run while a lane compiles it."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__") or attr == "_mock_name":  # pytest's collection probes every module-level name
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)


def _compile(item) -> None:
    from tricksim.simulator.engine import RunConfig, run_to_tables
    from tricksim.simulator.games.spades.rules import build_rules as spades_rules
    from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
    from tricksim.strategies.registry import parse_spec

    if item[0] == "import":
        importlib.import_module(item[1])
        return
    game, seats, preset = (*item[1:], None)[:3]
    policies = tuple(parse_spec(s, game=game) for s in seats.split())
    if game == "spades":
        cfg = RunConfig(rules=spades_rules(preset or "classic"), seats=policies, mode="games", count=2, hand_limit=2)
    else:
        cfg = RunConfig(game="tarot", rules=tarot_rules("cardavia"), seats=policies, mode="deals", count=2)
    run_to_tables(cfg, threads=1)


def main(lane: int) -> None:
    import tricksim.simulator  # noqa: F401  (points the compile cache at its folder)

    _ROLE[0] = f"lane {lane}"
    guard_compiles()
    for item in LANES[lane]:
        wall, cpu = time.perf_counter(), time.process_time()
        _compile(item)
        _log(" ".join(item[1:]), wall, cpu)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
