"""Shared test setup.

The tests mirror the packages: ``tests/simulator`` (``games/spades``, ``games/tarot``), ``tests/strategies``,
``tests/analysis``, and ``tests/tool`` for the ``tricksim/`` folder (jobs, API, command line): not named
``tricksim``, as ``tests/`` is on ``sys.path`` and a folder of that name would shadow the package.

- Makes ``simulator``/``strategies`` (the repository root) and the helper
  modules of ``tests/`` (``reference_spades``) importable however pytest is
  started.
- ``NUMBA_BOUNDSCHECK=1`` (STYLE.md): without it an out-of-bounds read in a
  kernel silently returns garbage. Set before anything imports numba; an
  explicit value in the environment wins.
- Registers the ``slow`` marker (deselect with ``-m "not slow"``).
- Beside a whole-suite run (no paths given: the README's command, CI's), compiles the engine's kernels and the
  search players in two more processes (``compile_ahead.py``) while the tests are collected and run, each compile
  under a lock every process takes; ``TRICKSIM_COMPILE_AHEAD=0`` turns it off.
- A whole-suite run also spreads the test files over one process a core (pytest-xdist, ``--dist loadfile``);
  ``TRICKSIM_TEST_WORKERS=1``, ``-p no:xdist`` or an explicit ``-n`` decide otherwise.
- Registers ``needs_jit(reason)``: under ``NUMBA_DISABLE_JIT=1`` (the kernels
  as plain Python, for coverage and debugging) such a test is skipped, and the
  skip names its reason. For tests that time the compiled code or whose
  workload takes minutes as pure Python; every other test runs in both modes.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("NUMBA_BOUNDSCHECK", "1")
# no "compiling ..." line on stderr (simulator/compiling.py): what a test prints must not depend on the cache
os.environ.setdefault("TRICKSIM_QUIET_COMPILE", "1")
# Numba's cache key does not include the bounds-check flag: keep bounds-checked machine code in a
# cache of its own so tests never slow down (or get slowed by) the user's cache.
if os.environ["NUMBA_BOUNDSCHECK"] == "1" and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ.setdefault("TRICKSIM_CACHE", str(Path.home() / ".cache" / "tricksim" / "boundscheck"))

import tricksim.simulator  # noqa: E402,F401  (points the compile cache at its folder, then numba may load)
from numba.core import config as numba_config  # noqa: E402  (imported only after the environment above is set)

JIT_DISABLED = bool(numba_config.DISABLE_JIT)

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
for path in (str(ROOT), str(TESTS)):
    if path not in sys.path:
        sys.path.insert(0, path)


def _whole_suite(config) -> bool:
    """The README's command (no paths given) in the process pytest was started as, compiled: where the compile lanes
    start and the tests are spread over the cores."""
    return (not JIT_DISABLED and not hasattr(config, "workerinput")
            and config.args_source == pytest.Config.ArgsSource.TESTPATHS)


def _workers() -> int:
    """Test processes for a whole-suite run: one a core, at most ``TRICKSIM_TEST_WORKERS`` (default 2)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, int(os.environ.get("TRICKSIM_TEST_WORKERS", "2")))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test (deselect with -m 'not slow')")
    config.addinivalue_line("markers", "needs_jit(reason): skipped, with this reason, under NUMBA_DISABLE_JIT=1")
    # A whole-suite run spreads its test files over one process a core (pytest-xdist; docs/performance.md P78):
    # once the lanes have compiled, the tests' own CPU is the rest of the run. Set here, before xdist's own
    # configure (trylast) reads it; -n given, -p no:xdist or TRICKSIM_TEST_WORKERS=1 keep one process.
    if (_whole_suite(config) and config.pluginmanager.hasplugin("xdist") and config.option.numprocesses is None
            and not config.getoption("collectonly") and _workers() > 1):
        config.option.numprocesses, config.option.dist = _workers(), "loadfile"
        config.option.tx = ["popen"] * config.option.numprocesses


_ahead: list[subprocess.Popen] = []
_GUARDED = "TRICKSIM_COMPILES_GUARDED"


def pytest_sessionstart(session):
    """Compile the kernels and the search players in two other processes while this one collects and runs the
    first tests (docs/performance.md P60, P65): from a fresh install their minutes overlap the tests'; once compiled
    they load them in seconds. Only for the whole suite: a run of a few files needs few of them."""
    config = session.config
    if os.environ.get(_GUARDED) == "1":  # a test worker of a whole-suite run (xdist): its compiles under the locks
        import compile_ahead

        compile_ahead.guard_compiles()
        return
    if not _whole_suite(config) or os.environ.get("TRICKSIM_COMPILE_AHEAD", "1") == "0":
        return
    import compile_ahead

    compile_ahead.guard_compiles()  # before the lanes start: no compile of theirs is then repeated here at once
    os.environ[_GUARDED] = "1"  # inherited by the test workers, which xdist starts after this hook (trylast)
    for lane in range(len(compile_ahead.LANES)):
        _ahead.append(subprocess.Popen([sys.executable, str(TESTS / "compile_ahead.py"), str(lane)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


def pytest_sessionfinish(session):
    for proc in _ahead:  # done before the last tests, unless they stopped early (-x): then no longer needed
        if proc.poll() is None:
            proc.terminate()  # Numba writes a cache file under a temporary name, then renames it: nothing half-written
        proc.wait()


def pytest_collection_modifyitems(config, items):
    for item in items:
        marker = item.get_closest_marker("needs_jit")
        if marker is None:
            continue
        reason = marker.args[0] if marker.args else marker.kwargs.get("reason", "")
        if not reason:
            raise pytest.UsageError(f"{item.nodeid}: needs_jit must say why the test cannot run without the JIT")
        if JIT_DISABLED:
            item.add_marker(pytest.mark.skip(reason=f"NUMBA_DISABLE_JIT=1: {reason}"))


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded worker processes, for the tests of --engine dask."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as c:
        yield c


@pytest.fixture
def crash_mid_run(monkeypatch):
    """``crash(cfg, out, table, done, **kw)``: ``run(cfg, out)`` dies (KeyboardInterrupt) half-way through writing
    its shard after ``done`` shards, leaving a staging file of ``table`` behind: what ``--resume`` must finish."""
    from tricksim.simulator import engine, rundir

    def crash(cfg, out, table: str, done: int, **kw) -> None:
        real, calls = engine.RunDir.stage_shard, []

        def dying(self, index, tables):
            if len(calls) == done:
                rundir._staging(Path(out) / table / rundir.shard_name(index)).write_bytes(b"half a file")
                raise KeyboardInterrupt
            calls.append(index)
            return real(self, index, tables)

        monkeypatch.setattr(engine.RunDir, "stage_shard", dying)
        with pytest.raises(KeyboardInterrupt):
            engine.run(cfg, out, progress=False, **kw)
        monkeypatch.setattr(engine.RunDir, "stage_shard", real)

    return crash
