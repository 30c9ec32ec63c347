"""The run's rules as a record of the public view, for every game family.

A family's ``KernelRules`` (an all-int64 named tuple, ``rules.py``) is copied into the view at the start of
each hand or deal, one slot per field in the field order, from the family's ``V_RULES`` offset on
(``write_rules``). A policy reads one flag as ``view[V_RULES + R_<FLAG>]`` (the ``R_*`` offsets are made
from the field order by ``rule_offsets``) or the whole record back as the family's ``KernelRules``
(``rules_reader``). So a flag added to a family's rules reaches every policy with no edit to any policy
or strategy: the offsets, the copy and the reader follow the named tuple's fields.

The record is read-only by contract: the drivers never read it back (they hold the rules themselves), and
they write it again at the start of every hand or deal.
"""
from __future__ import annotations

from numba.core.extending import overload
from numba.np.unsafe.ndarray import to_fixed_tuple


def rule_offsets(kernel_type) -> dict[str, int]:
    """``{"R_<FLAG>": index}`` for every field of ``kernel_type`` (a family's KernelRules), in field order."""
    return {f"R_{name.upper()}": i for i, name in enumerate(kernel_type._fields)}


def write_rules(rules, view, offset):
    """Copy the kernel rules ``rules`` (an all-int64 named tuple) into ``view[offset:]``, in field order."""
    for i, x in enumerate(rules):
        view[offset + i] = x


@overload(write_rules, inline="always")
def _write_rules(rules, view, offset):
    # compiled: one store a field, each from a constant index of the tuple (a loop over the tuple compiled into
    # a jump table on the index, taken once a field: docs/performance.md P48)
    stores = "".join(f"    view[offset + {i}] = rules[{i}]\n" for i in range(len(rules)))
    namespace: dict = {}
    exec(f"def impl(rules, view, offset):\n{stores}", namespace)
    return namespace["impl"]


def rules_reader(kernel_type, offset: int):
    """A function ``rules_of(view)`` giving the record at ``view[offset:]`` back as a ``kernel_type``: plain
    Python, with a Numba overload for compiled callers (the record's length is a compile-time constant)."""
    n = len(kernel_type._fields)

    def rules_of(view):
        return kernel_type(*(int(view[offset + i]) for i in range(n)))

    @overload(rules_of, inline="always")
    def _rules_of(view):
        def impl(view):
            return kernel_type(*to_fixed_tuple(view[offset:offset + n], n))
        return impl

    rules_of.__doc__ = f"The rules record of ``view`` (from offset {offset}) as a {kernel_type.__name__}."
    return rules_of
