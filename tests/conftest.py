"""Shared test setup.

- Makes ``simulator``/``strategies`` (the repository root) and the helper
  modules of ``tests/`` (``reference_spades``) importable however pytest is
  started.
- ``NUMBA_BOUNDSCHECK=1`` (STYLE.md): without it an out-of-bounds read in a
  kernel silently returns garbage. Set before anything imports numba; an
  explicit value in the environment wins.
- Registers the ``slow`` marker (deselect with ``-m "not slow"``).
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("NUMBA_BOUNDSCHECK", "1")
# Numba's cache key does not include the bounds-check flag: keep bounds-checked machine code in a
# cache of its own so tests never slow down (or get slowed by) the user's cache.
if os.environ["NUMBA_BOUNDSCHECK"] == "1" and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ.setdefault("TRICKSIM_CACHE", str(Path.home() / ".cache" / "tricksim" / "boundscheck"))

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
for path in (str(ROOT), str(TESTS)):
    if path not in sys.path:
        sys.path.insert(0, path)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test (deselect with -m 'not slow')")
