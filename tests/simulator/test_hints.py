"""Branch hints (simulator/hints.py): ``unlikely`` changes no result. (Whether LLVM uses the hint is seen only in
the code and the instruction counts: docs/performance.md P106.)"""
from numba import njit

from tricksim.simulator.hints import unlikely


@njit
def _sign_hinted(x):
    if unlikely(x < 0):
        return -1
    if unlikely(x == 0 or x > 100):  # a short-circuit condition: its value is hinted, not each part
        return 0
    return 1


def test_unlikely_takes_the_branch_its_condition_says():
    assert [_sign_hinted(x) for x in (-5, -1, 0, 1, 7, 100, 101)] == [-1, -1, 0, 1, 1, 1, 0]

