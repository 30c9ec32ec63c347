"""Bit helpers: the compiled versions against plain Python on random masks (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulator.cards import _nth_set_bit_loop, highest_bit, lowest_bit, nth_set_bit, popcount

MASKS = st.integers(1, 2**54 - 1)  # card masks: bits 0..53


@njit
def _compiled(mask, k):
    return popcount(mask), lowest_bit(mask), highest_bit(mask), nth_set_bit(mask, k)


@settings(max_examples=300, deadline=None)
@given(mask=MASKS, data=st.data())
def test_compiled_bit_helpers_match_python(mask, data):
    bits = [i for i in range(64) if (mask >> i) & 1]
    k = data.draw(st.integers(0, len(bits) - 1))
    assert _compiled(mask, k) == (len(bits), bits[0], bits[-1], bits[k])
    assert _nth_set_bit_loop(mask, k) == bits[k]  # the version for machines without BMI2
    assert (popcount(mask), lowest_bit(mask), highest_bit(mask), nth_set_bit(mask, k)) == \
        (len(bits), bits[0], bits[-1], bits[k])
