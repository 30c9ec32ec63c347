"""Say on stderr what is being compiled, and for how long, the first time (issue #26).

A cold compile of a kernel or a strategy takes from seconds to minutes (docs/performance.md P39); loading
the same code from the compile cache takes a fraction of a second. :func:`announced` wraps one compile (or
cache load): when it is still running after ``after`` seconds it writes one line saying what is compiled,
then the seconds when it ends; a cache load ends first and prints nothing. A timer, not a look into
Numba's cache files: the line is right whatever Numba's cache layout, and a load slowed down by a busy
machine past ``after`` is said for what it is, a first use of a new cache.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager

AFTER = 1.0  # seconds: a cache load of the largest kernel takes well under this on an idle machine


@contextmanager
def announced(what: str, *, after: float = AFTER, stream=None):
    """Run the body (a compile or a cache load of ``what``); say so on ``stream`` (stderr) when it takes longer
    than ``after`` seconds. Silent under ``TRICKSIM_QUIET_COMPILE=1``."""
    if os.environ.get("TRICKSIM_QUIET_COMPILE", "0").strip() not in ("", "0"):
        yield
        return
    out = stream if stream is not None else sys.stderr
    done = threading.Event()
    said = threading.Event()
    lock = threading.Lock()

    def say() -> None:
        if not done.wait(after):
            with lock:
                if not done.is_set():
                    out.write(f"tricksim: compiling {what} (first use; cached for later runs)…\n")
                    out.flush()
                    said.set()

    start = time.perf_counter()
    timer = threading.Thread(target=say, name="tricksim-compile-note", daemon=True)
    timer.start()
    try:
        yield
    finally:
        with lock:
            done.set()
        timer.join()
        if said.is_set():
            out.write(f"tricksim: compiled {what} in {time.perf_counter() - start:.0f} s\n")
            out.flush()
