"""Branch hints for the kernels' inner loops.

``unlikely(cond)`` is ``cond``, with LLVM told that it is almost always false
(``llvm.expect``): the code of the rare branch is laid out away from the common
path and the register allocator places its spills and reloads there, not on the
common path. For branches that a run takes never or once per call chain (a deck's
renaming, an illegal choice); it changes no result.

Under ``NUMBA_DISABLE_JIT=1`` it is a plain function returning ``cond``.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic


@intrinsic
def unlikely(typingctx, cond):
    """``cond`` (a boolean), expected false."""
    if not isinstance(cond, types.Boolean):
        return None

    def codegen(context, builder, sig, args):
        i1 = ir.IntType(1)
        expect = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i1, [i1, i1]), "llvm.expect.i1")
        return builder.call(expect, [args[0], ir.Constant(i1, 0)])

    return types.boolean(cond), codegen


if config.DISABLE_JIT:
    def unlikely(cond):  # the plain-Python stand-in (see the module docstring)
        """``cond`` itself (Python mode)."""
        return cond
