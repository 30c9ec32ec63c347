"""A batch's rows split among worker threads, each part written in place.

The Spades and Tarot batches (``games/*/batch.py``) allocate their output arrays once for all the rows of a call
and let each thread's kernel call write its own contiguous range of them, in the order of the ids: no block is
copied after the kernels (docs/performance.md P101). The kernels release the GIL.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

MIN_SPLIT = 256  # fewest rows worth a thread of their own


def in_parts(n: int, workers: int, part: Callable[[int, int], object]) -> None:
    """Call ``part(lo, hi)`` for contiguous ranges of rows covering ``0..n-1`` in order: one range, or one for each
    of up to ``workers`` threads (each at least MIN_SPLIT rows). An exception of any part is raised here."""
    if workers > 1 and n >= 2 * MIN_SPLIT:
        bounds = np.linspace(0, n, min(workers, n // MIN_SPLIT) + 1).astype(int)
        with ThreadPoolExecutor(max_workers=len(bounds) - 1) as pool:
            list(pool.map(lambda i: part(int(bounds[i]), int(bounds[i + 1])), range(len(bounds) - 1)))
    else:
        part(0, n)
