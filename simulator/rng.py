"""Counter-based random streams.

Every random decision of a run is drawn from a stream keyed by
``(seed, game_id, hand_no, stream)``, so hand ``i`` of a run is the same deal
whatever the shard size, thread count or machine. The generator is
SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter passed through a
bijective mixer; it passes BigCrush and costs a few instructions per draw.

State lives in a ``uint64[1]`` array so policies can draw from it in place.
All arithmetic here is ``uint64``; callers only see ``int64`` results.

Under ``NUMBA_DISABLE_JIT=1`` the same functions run on NumPy ``uint64``
scalars, which wrap around exactly as compiled code does (so the numbers are
the same) but warn on every wrap: the functions that wrap on purpose are
run with NumPy's overflow warning off then (``_wrapping``).
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import config

from tricksim.simulator.bits import nth_set_bit, popcount

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

STREAM_DEAL = 0
STREAM_PLAY = 1  # decisions of the seat policies


def _wrapping(fn):
    """``fn`` as it is, compiled; as plain Python (NUMBA_DISABLE_JIT), ``fn`` without NumPy's warnings
    for the uint64 overflow that SplitMix64 relies on."""
    return np.errstate(over="ignore")(fn) if config.DISABLE_JIT else fn


@_wrapping
@njit(cache=True)
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@_wrapping
@njit(cache=True)
def stream_key(seed, game_id, hand_no, stream):
    """Starting state of the stream for one hand (all arguments int64 >= 0)."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ np.uint64(game_id))
    k = mix64(k ^ (np.uint64(hand_no) << np.uint64(8)) ^ np.uint64(stream))
    return k


@_wrapping
@njit(cache=True)
def next_u64(rng):
    rng[0] += GOLDEN
    return mix64(rng[0])


@njit(cache=True)
def rand_below(rng, n):
    """Uniform integer in [0, n) for 1 <= n < 2**31 (bias below 2**-32)."""
    x = next_u64(rng) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of a[:n] (n < 2**31), two indices per 64-bit draw."""
    i = n - 1
    while i > 0:
        x = next_u64(rng)
        j = np.int64(((x >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        a[i], a[j] = a[j], a[i]
        i -= 1
        if i > 0:
            j = np.int64(((x & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            a[i], a[j] = a[j], a[i]
            i -= 1


@njit(cache=True)
def rand_float(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def random_card(rng, mask):
    """A uniformly chosen set bit (card id) of a non-zero mask."""
    return nth_set_bit(mask, rand_below(rng, popcount(mask)))
