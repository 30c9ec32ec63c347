"""The simulator core: bit helpers, random streams, the engine, run output and the game families.

Importing the package points Numba's compile cache at a folder named after a
hash of the package sources (unless ``NUMBA_CACHE_DIR`` is set): Numba's own
invalidation only sees edits to the file that holds a kernel, not to the
helpers and strategies it calls, so a stale cache could otherwise survive an
edit elsewhere.
"""
from __future__ import annotations

import hashlib
import os
import sys
import warnings
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent.parent


def _source_hash() -> str:
    h = hashlib.sha256(__version__.encode())
    # the core and the strategies compiled into it, and those of the games kept outside the repository
    # (the folders TRICKSIM_GAMES names, laid out as the repository: simulator/games/__init__.py)
    extra = [Path(p) for p in os.environ.get("TRICKSIM_GAMES", "").split(os.pathsep) if p]
    for root in [_ROOT, *extra]:
        for pkg in ("simulator", "strategies"):
            for f in sorted((root / pkg).rglob("*.py")):
                h.update(f.relative_to(root).as_posix().encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


# The code a run's data comes from, as this process imported it: the compile cache's key, and the ``source`` of
# every run's plan (a resume, or a reuse of a kept run, made by other code is refused: its shards could differ).
SOURCE_HASH = _source_hash()

if "NUMBA_CACHE_DIR" not in os.environ:
    base = Path(os.environ.get("TRICKSIM_CACHE", Path.home() / ".cache" / "tricksim"))
    os.environ["NUMBA_CACHE_DIR"] = str(base / f"numba-{SOURCE_HASH}")
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first and has read its settings: tell it too
        numba_config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]



def _check_cache_dir(path: str) -> None:
    """Say once, on stderr, when the compile cache cannot be written: Numba would then compile every kernel
    again in every process (15-25 s), silently."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
        probe = Path(path) / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        sys.stderr.write(f"tricksim: the compile cache {path} cannot be written ({e.strerror or e}): every command "
                         "compiles the kernels again; set TRICKSIM_CACHE to a writable folder\n")


if os.environ.get("NUMBA_DISABLE_JIT", "0").strip() in ("", "0"):
    _check_cache_dir(os.environ["NUMBA_CACHE_DIR"])

# the strategy interface relies on first-class function types, which Numba labels experimental
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
