"""Counter-based random streams.

Every random draw of a run comes from a stream that starts at a key computed
from ``(seed, game_id, hand_no, ...)`` alone, so hand ``i`` of a run is the
same whatever the shard size, thread count or machine. The generator is
SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter passed through a
bijective mixer; it passes BigCrush and costs a few instructions per draw.

Two kinds of stream, keyed differently:

* the deal's (``stream_key(seed, game_id, hand_no, STREAM_DEAL)``): a chain of
  ``mix64``, which is a bijection, so its state reveals its key;
* each seat's policy stream (``policy_stream_key``): SipHash-2-4, a keyed
  pseudo-random function, of ``(game_id, hand_no, seat)`` under a 128-bit key
  derived from the seed. Without the seed, a policy's stream tells it nothing
  about the deal's key or another seat's stream (tests/simulator/test_hygiene.py).

State lives in a ``uint64[1]`` array so policies can draw from it in place.
All arithmetic here is ``uint64``; callers only see ``int64`` results.

Under ``NUMBA_DISABLE_JIT=1`` the same functions run on NumPy ``uint64``
scalars, which wrap around exactly as compiled code does (so the numbers are
the same) but warn on every wrap: the functions that wrap on purpose are
run with NumPy's overflow warning off then (``_wrapping``). SipHash, dozens of
operations a key, would be slow so (P35): without the JIT, its public functions
are bound to plain-int versions (``_py_*``, masked to 64 bits) with the same results.
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
# the two 64-bit halves of the policy streams' SipHash key are mix64 of the seed XOR these (digits of pi)
POLICY_KEY_SALT0, POLICY_KEY_SALT1 = np.uint64(0x243F6A8885A308D3), np.uint64(0x13198A2E03707344)
# SipHash's initial state constants ("somepseudorandomlygeneratedbytes")
SIP_C0, SIP_C1 = np.uint64(0x736F6D6570736575), np.uint64(0x646F72616E646F6D)
SIP_C2, SIP_C3 = np.uint64(0x6C7967656E657261), np.uint64(0x7465646279746573)


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


@njit(inline="always", cache=True)
def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@_wrapping
@njit(inline="always", cache=True)
def _sipround(v0, v1, v2, v3):
    v0 += v1
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 += v3
    v3 = _rotl(v3, 16) ^ v2
    v0 += v3
    v3 = _rotl(v3, 21) ^ v0
    v2 += v1
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


@_wrapping
@njit(inline="always", cache=True)
def _sip_block(v, m):
    """One message word ``m`` into the SipHash state ``v`` = (v0, v1, v2, v3): the 2 rounds of SipHash-2-4."""
    v0, v1, v2, v3 = v
    v3 ^= m
    v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    return v0 ^ m, v1, v2, v3


@njit(inline="always", cache=True)
def _sip_start(k0, k1, m0, m1):
    """The SipHash-2-4 state under the key (k0, k1) after the message words m0, m1."""
    return _sip_block(_sip_block((k0 ^ SIP_C0, k1 ^ SIP_C1, k0 ^ SIP_C2, k1 ^ SIP_C3), m0), m1)


@_wrapping
@njit(inline="always", cache=True)
def _sip_end(v, m2):
    """SipHash-2-4 of a 24-byte message from the state ``v`` after its first two words: its third word
    ``m2``, the length block, then the 4 finalization rounds."""
    v0, v1, v2, v3 = _sip_block(_sip_block(v, m2), np.uint64(24) << np.uint64(56))
    v2 ^= np.uint64(0xFF)
    for _ in range(4):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


@njit(cache=True)
def siphash24(k0, k1, m0, m1, m2):
    """SipHash-2-4 (Aumasson & Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012; reference
    code github.com/veorq/SipHash) of the 24-byte message of the little-endian words m0, m1, m2 under
    the 128-bit key (k0, k1) (the key's bytes 0..7 and 8..15, little-endian)."""
    return _sip_end(_sip_start(np.uint64(k0), np.uint64(k1), np.uint64(m0), np.uint64(m1)), np.uint64(m2))


@njit(cache=True)
def policy_key(seed):
    """The 128-bit SipHash key of the policy streams of a run: two words, each mix64 of the seed and a salt."""
    s = np.uint64(seed)
    return mix64(s ^ POLICY_KEY_SALT0), mix64(s ^ POLICY_KEY_SALT1)


@njit(inline="always", cache=True)
def _policy_prefix(seed, game_id, hand_no):
    """The part of a hand's policy keys that its seats share: SipHash-2-4 after (game_id, hand_no)."""
    k0, k1 = policy_key(seed)
    return _sip_start(k0, k1, np.uint64(game_id), np.uint64(hand_no))


@njit(cache=True)
def policy_stream_key(seed, game_id, hand_no, seat):
    """Starting state of seat ``seat``'s policy stream for one hand (all arguments int64 >= 0):
    SipHash-2-4 of (game_id, hand_no, seat) under ``policy_key(seed)``. A one-way function of its
    arguments: from this value (and the draws after it) neither the seed, nor the deal's key, nor
    another seat's stream follows."""
    return _sip_end(_policy_prefix(seed, game_id, hand_no), np.uint64(seat))


@njit(cache=True)
def start_policy_streams(seed, game_id, hand_no, streams):
    """Start every seat's policy stream for one hand: ``streams[s, 0] = policy_stream_key(seed, game_id,
    hand_no, s)`` for each row s of ``streams`` (seats, 1), the seats' shared part computed once."""
    prefix = _policy_prefix(seed, game_id, hand_no)
    for s in range(streams.shape[0]):
        streams[s, 0] = _sip_end(prefix, np.uint64(s))


# ---------------------------------------------------------------- SipHash on plain ints (no JIT)
_M64 = (1 << 64) - 1
_SIP_INIT = tuple(int(c) for c in (SIP_C0, SIP_C1, SIP_C2, SIP_C3))
_MIX1, _MIX2, _GOLDEN = int(MIX1), int(MIX2), int(GOLDEN)
_SALT0, _SALT1 = int(POLICY_KEY_SALT0), int(POLICY_KEY_SALT1)


def _py_mix64(z):
    z = (z ^ (z >> 30)) * _MIX1 & _M64
    z = (z ^ (z >> 27)) * _MIX2 & _M64
    return z ^ (z >> 31)


def _py_sip_rounds(v0, v1, v2, v3, n):
    for _ in range(n):
        v0 = (v0 + v1) & _M64
        v1 = ((v1 << 13) & _M64 | v1 >> 51) ^ v0
        v0 = (v0 << 32) & _M64 | v0 >> 32
        v2 = (v2 + v3) & _M64
        v3 = ((v3 << 16) & _M64 | v3 >> 48) ^ v2
        v0 = (v0 + v3) & _M64
        v3 = ((v3 << 21) & _M64 | v3 >> 43) ^ v0
        v2 = (v2 + v1) & _M64
        v1 = ((v1 << 17) & _M64 | v1 >> 47) ^ v2
        v2 = (v2 << 32) & _M64 | v2 >> 32
    return v0, v1, v2, v3


def _py_sip_start(k0, k1, m0, m1):
    """``_sip_start`` on ints in [0, 2**64)."""
    v0, v1, v2, v3 = k0 ^ _SIP_INIT[0], k1 ^ _SIP_INIT[1], k0 ^ _SIP_INIT[2], k1 ^ _SIP_INIT[3]
    for m in (m0, m1):
        v0, v1, v2, v3 = _py_sip_rounds(v0, v1, v2, v3 ^ m, 2)
        v0 ^= m
    return v0, v1, v2, v3


def _py_sip_end(v, m2):
    """``_sip_end`` on ints in [0, 2**64)."""
    v0, v1, v2, v3 = v
    for m in (m2, 24 << 56):
        v0, v1, v2, v3 = _py_sip_rounds(v0, v1, v2, v3 ^ m, 2)
        v0 ^= m
    v0, v1, v2, v3 = _py_sip_rounds(v0, v1, v2 ^ 0xFF, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def _py_policy_key(seed):
    s = int(seed) & _M64
    return _py_mix64(s ^ _SALT0), _py_mix64(s ^ _SALT1)


def _py_policy_prefix(seed, game_id, hand_no):
    return _py_sip_start(*_py_policy_key(seed), int(game_id) & _M64, int(hand_no) & _M64)


def _py_siphash24(k0, k1, m0, m1, m2):
    v = _py_sip_start(int(k0) & _M64, int(k1) & _M64, int(m0) & _M64, int(m1) & _M64)
    return np.uint64(_py_sip_end(v, int(m2) & _M64))


def _py_policy_key_u64(seed):
    k0, k1 = _py_policy_key(seed)
    return np.uint64(k0), np.uint64(k1)


def _py_policy_stream_key(seed, game_id, hand_no, seat):
    return np.uint64(_py_sip_end(_py_policy_prefix(seed, game_id, hand_no), int(seat) & _M64))


def _py_start_policy_streams(seed, game_id, hand_no, streams):
    prefix = _py_policy_prefix(seed, game_id, hand_no)
    for s in range(streams.shape[0]):
        streams[s, 0] = _py_sip_end(prefix, s)


if config.DISABLE_JIT:  # the same keys as compiled (tests/simulator/test_hygiene.py), without NumPy scalars
    siphash24 = _py_siphash24
    policy_key = _py_policy_key_u64
    policy_stream_key = _py_policy_stream_key
    start_policy_streams = _py_start_policy_streams


@_wrapping
@njit(cache=True)
def next_u64(rng):
    rng[0] += GOLDEN
    return mix64(rng[0])


@njit(inline="always", cache=True)  # inlined: the Chelem play-outs' code stays as it was written out (P126)
def private_stream(rng, salt):
    """A new stream (its state array) seeded by one draw of ``rng`` mixed with ``salt`` (an int64): a search's own
    stream, so that its draws leave the seat's stream one draw further whatever it does."""
    local = np.empty(1, np.uint64)
    local[0] = next_u64(rng) ^ mix64(np.uint64(salt))
    return local


@njit(cache=True)
def rand_below(rng, n):
    """Uniform integer in [0, n) for 1 <= n < 2**31 (bias below 2**-32)."""
    x = next_u64(rng) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@_wrapping
@njit(cache=True)
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of a[:n] (n < 2**31), two indices per 64-bit draw (``next_u64``'s draws)."""
    # the stream's state in a local, stored once at the end: the stores into ``a`` could alias ``rng[0]``
    # for the compiler, which then reloaded and stored it at every draw
    state = rng[0]
    i = n - 1
    while i > 0:
        state += GOLDEN
        x = mix64(state)
        j = np.int64(((x >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        a[i], a[j] = a[j], a[i]
        i -= 1
        if i > 0:
            j = np.int64(((x & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            a[i], a[j] = a[j], a[i]
            i -= 1
    rng[0] = state


@njit(cache=True)
def rand_float(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")  # inlined into the policy (a call cost more than its own work: P83)
def random_card(rng, mask):
    """A uniformly chosen set bit (card id) of a non-zero mask."""
    return nth_set_bit(mask, rand_below(rng, popcount(mask)))
