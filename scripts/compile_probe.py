"""Where a test run's compile time goes: a pytest plugin (measurement only; docs/performance.md P60).

Numba announces each compile (a cache miss, not a cache load) as a ``numba:compile`` event; this plugin
times the outermost ones (a compile's callees compile inside it) and charges each to the test phase that
ran it (collection, a test's set-up, call or teardown). Compiles in subprocesses the tests start (the
command-line tests, Dask workers) are not seen: their time shows in ``--durations`` only.

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=scripts \\
        python -m pytest -q -p compile_probe --durations=50

Numba is imported when the plugin loads, before tests/conftest.py sets the environment: hence
``NUMBA_BOUNDSCHECK=1`` (as the tests set it) and a cache folder given. One line a compile goes to
``$COMPILE_PROBE_OUT`` (default ``compile-probe.tsv``) as it ends: phase, function, seconds, argument types;
the ten test phases that compiled longest are printed at the end.
"""
from __future__ import annotations

import os
import resource
import time
from collections import defaultdict

from numba.core import event

OUT = os.environ.get("COMPILE_PROBE_OUT", "compile-probe.tsv")
_phase = ["(collection)"]
_open: list[tuple[float, str]] = []  # the compiles under way, outermost first
_seconds: dict[str, float] = defaultdict(float)


class _Compiles(event.Listener):
    def on_start(self, ev):
        py = getattr(ev.data["dispatcher"], "py_func", None)
        _open.append((time.perf_counter(), f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', '?')}"))

    def on_end(self, ev):
        start, name = _open.pop()
        if _open:  # a callee, compiled inside the outer compile, which is charged for it
            return
        seconds = time.perf_counter() - start
        _seconds[_phase[0]] += seconds
        with open(OUT, "a") as f:
            f.write(f"{_phase[0]}\t{name}\t{seconds:.2f}\t{ev.data.get('args')}\n")


event.register("numba:compile", _Compiles())


def pytest_runtest_setup(item):
    _phase[0] = f"{item.nodeid} [setup]"


def pytest_runtest_call(item):
    _phase[0] = item.nodeid


def pytest_runtest_teardown(item):
    _phase[0] = f"{item.nodeid} [teardown]"


def pytest_terminal_summary(terminalreporter):
    total = sum(_seconds.values())
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    terminalreporter.write_line(f"CPU user + sys of this process {own.ru_utime + own.ru_stime:.0f} s, of its ended "
                                f"subprocesses (compile_ahead.py's lanes, the command-line tests') "
                                f"{children.ru_utime + children.ru_stime:.0f} s")
    terminalreporter.write_sep("=", f"compile time in this process: {total:.0f} s (per compile: {OUT})")
    for phase, seconds in sorted(_seconds.items(), key=lambda kv: -kv[1])[:10]:
        terminalreporter.write_line(f"{seconds:8.1f} s  {phase}")
