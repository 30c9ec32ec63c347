"""Arrays without reference counting, for the kernels' inner loops.

Every array Numba hands from one variable to another (a call, a tuple of policy
arguments, an inlined function's parameters) has its reference count raised and
lowered with atomic instructions. In the Spades kernel that was 15 pairs per hand
plus three per policy call, a large share of the kernel's time (docs/performance.md P6).
A *borrowed* array is the same data, shape and strides with no memory owner
(a null meminfo): Numba's reference counting does nothing for it, and LLVM, seeing
the null constant, removes those instructions altogether.

Rules of use (the kernels follow them; nothing else should need these):

* borrow only inside one compiled call, from arrays that outlive every use:
  arguments of that call (the caller holds them), or arrays allocated in it and
  named in ``alive_until_here`` after their last borrowed use;
* a borrowed array must not escape the call (returned or stored), since nothing
  keeps its memory alive then. Policies cannot do either: their signatures
  return an integer.

Under ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python, where an
intrinsic cannot be called: ``borrowed(a)`` is then ``a`` itself and
``alive_until_here`` does nothing (Python's own reference counting keeps the
arrays alive).
"""
from __future__ import annotations

from numba import types
from numba.core import config
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


@intrinsic
def borrowed(typingctx, arr):
    """The array ``arr`` without a memory owner (see the module's rules)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        out = context.make_array(sig.return_type)(context, builder)
        populate_array(out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize,
                       meminfo=None)
        return out._getvalue()

    return arr(arr), codegen


@intrinsic
def alive_until_here(typingctx, arrays):
    """No code: a use of the tuple ``arrays`` so that Numba frees them only after this point."""
    def codegen(context, builder, sig, args):
        return context.get_dummy_value()

    return types.none(arrays), codegen


if config.DISABLE_JIT:
    def borrowed(arr):  # the plain-Python stand-ins (see the module docstring)
        """The array ``arr`` itself (Python mode)."""
        return arr

    def alive_until_here(arrays):
        """Nothing to do in Python mode."""
