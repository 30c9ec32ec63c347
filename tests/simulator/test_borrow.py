"""Borrowed arrays (simulator/borrow.py): the same memory, shape and strides as the original."""
import numpy as np
from numba import njit

from tricksim.simulator.borrow import alive_until_here, borrowed


@njit
def _fill_through_borrowed(a):
    b = borrowed(a)
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            b[i, j] = 10 * i + j
    return b.shape[0], b.shape[1], b.strides[0], b.strides[1]


@njit
def _sum_of_local_scratch(n):
    scratch = (np.empty(n, np.int64), np.empty(3, np.float64))
    a, f = borrowed(scratch[0]), borrowed(scratch[1])
    for i in range(n):
        a[i] = i
    f[:] = 0.5
    total = 0
    for rep in range(100):  # long enough after the borrow for a too-early free to be reused
        tmp = np.ones(n, np.int64)
        total += tmp[0]
    s = 0
    for i in range(n):
        s += a[i]
    s += np.int64(f.sum() * 2)
    alive_until_here(scratch)
    return s, total


def test_writes_through_a_borrowed_argument_reach_the_caller():
    a = np.zeros((3, 4), np.int64)
    shape_and_strides = _fill_through_borrowed(a)
    assert shape_and_strides == (3, 4, 32, 8)
    assert a.tolist() == [[10 * i + j for j in range(4)] for i in range(3)]


def test_non_contiguous_view_keeps_its_strides():
    base = np.zeros((4, 6), np.int64)
    view = base[::2, 1::2]  # rows 0 and 2, columns 1, 3, 5
    _fill_through_borrowed(view)
    assert base[0].tolist() == [0, 0, 0, 1, 0, 2]
    assert base[1].tolist() == [0] * 6
    assert base[2].tolist() == [0, 10, 0, 11, 0, 12]


def test_locally_allocated_scratch_stays_valid_until_released():
    n = 1000
    s, total = _sum_of_local_scratch(n)
    assert s == n * (n - 1) // 2 + 3  # 0 + 1 + ... + 999, plus three halves doubled
    assert total == 100
