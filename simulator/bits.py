"""Bitmask helpers shared by every game family.

A card set is an ``int64`` whose bit ``c`` is set when the set holds card ``c``
(games of up to 64 cards; a 78-card Tarot deck uses two such words).

The bit helpers are plain Python functions (so tests and ``NUMBA_DISABLE_JIT=1``
runs work) with a Numba ``overload`` that lowers them to single LLVM
instructions inside compiled code. The intrinsics behind those overloads
(``_ctpop`` ...) cannot run in plain Python: under ``NUMBA_DISABLE_JIT=1``
each name is bound to a Python function with the same result instead.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.core.extending import intrinsic, overload

_U64 = (1 << 64) - 1  # an int64 mask as the 64 bits the compiled code sees (bit 63 set: negative)


# ---------------------------------------------------------------- bit helpers
def popcount(x):
    """Number of set bits of a mask (of its 64 bits when negative, as compiled)."""
    return (int(x) & _U64).bit_count()


def lowest_bit(x):
    """Index of the lowest set bit (x != 0)."""
    x = int(x)
    return (x & -x).bit_length() - 1


def highest_bit(x):
    """Index of the highest set bit (x != 0; 63 when negative, as compiled)."""
    return (int(x) & _U64).bit_length() - 1


def nth_set_bit(mask, k):
    """Index of set bit number ``k`` (0 = the lowest) of ``mask``, for 0 <= k < popcount(mask)."""
    m = int(mask)
    for _ in range(int(k)):
        m &= m - 1
    return lowest_bit(m)


@intrinsic
def _ctpop(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


def _pdep_compiles() -> bool:
    """True when compiled code may use BMI2's ``pdep``: the target is this machine (Numba's
    default) and it has BMI2. Otherwise ``nth_set_bit`` compiles to a loop."""
    import llvmlite.binding as ll
    from numba.core import config

    return config.CPU_NAME is None and bool(ll.get_host_cpu_features().get("bmi2", False))


@intrinsic
def _pdep(typingctx, x, mask):
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


def _pdep_python(x, mask):
    """``pdep`` in Python: bit i of ``x`` goes to the i-th set bit of ``mask``."""
    x, m, out, i = int(x) & _U64, int(mask) & _U64, 0, 0
    while m:
        low = m & -m
        if (x >> i) & 1:
            out |= low
        m ^= low
        i += 1
    return out - (1 << 64) if out >> 63 else out  # as int64


if config.DISABLE_JIT:
    # plain Python callers of the intrinsics (``_nth_set_bit_loop`` runs as Python then) get these;
    # as compiled, the count of trailing (leading) zeros of 0 is not relied on
    _ctpop = popcount
    _cttz = lowest_bit

    def _ctlz(x):
        return 63 - highest_bit(x)

    _pdep = _pdep_python


@overload(popcount, jit_options={"cache": True})
def _popcount_jit(x):
    return lambda x: _ctpop(np.int64(x))


@overload(lowest_bit, jit_options={"cache": True})
def _lowest_bit_jit(x):
    return lambda x: _cttz(np.int64(x))


@overload(highest_bit, jit_options={"cache": True})
def _highest_bit_jit(x):
    return lambda x: 63 - _ctlz(np.int64(x))


@overload(nth_set_bit, jit_options={"cache": True})
def _nth_set_bit_jit(mask, k):
    if _pdep_compiles():
        # pdep puts bit k of its first argument on the k-th set bit of the mask: no loop, no branch
        # to mispredict (docs/performance.md P15)
        return lambda mask, k: _cttz(_pdep(np.int64(1) << np.int64(k), np.int64(mask)))
    return lambda mask, k: _nth_set_bit_loop(np.int64(mask), k)


@njit(cache=True)
def _nth_set_bit_loop(mask, k):
    """``nth_set_bit`` without BMI2: clear the k lowest set bits."""
    for _ in range(k):
        mask &= mask - 1
    return _cttz(mask)


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask) -> list[int]:
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
