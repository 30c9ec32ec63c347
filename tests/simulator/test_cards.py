"""Bit and card helpers: the compiled versions against plain Python (random masks by hypothesis,
every pair of cards)."""
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from tricksim.simulator.bits import (
    _ctlz,
    _ctpop,
    _cttz,
    _nth_set_bit_loop,
    _pdep,
    _pdep_compiles,
    _pdep_python,
    highest_bit,
    lowest_bit,
    nth_set_bit,
    popcount,
)
from tricksim.simulator.games.spades.cards import SPADES, beating, beats, card_suit

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


INT64 = st.integers(-2**63, 2**63 - 1)


@njit
def _counts(x):
    return _ctpop(x), _cttz(x), _ctlz(x)


@njit
def _pdep_compiled(x, mask):
    return _pdep(x, mask)


@settings(max_examples=300, deadline=None)
@given(x=INT64.filter(bool), mask=INT64)
def test_intrinsics_and_their_python_stand_ins(x, mask):
    """The intrinsics called directly on any int64 (as 64 bits): compiled, and under NUMBA_DISABLE_JIT=1
    their plain-Python stand-ins, which this same test then calls."""
    u, m = x % 2**64, mask % 2**64
    assert _counts(x) == (u.bit_count(), (u & -u).bit_length() - 1, 64 - u.bit_length())
    deposit = sum(1 << b for i, b in enumerate(b for b in range(64) if m >> b & 1) if u >> i & 1)
    deposit -= (deposit >> 63) << 64  # as int64
    assert _pdep_python(x, mask) == deposit
    if _pdep_compiles():  # the instruction exists on this machine
        assert _pdep_compiled(x, mask) == deposit


# the ids of the rank space (decks.py): the 52 cards, the jokers and the two ids above them (a deuce deck's top spades)
RANK_SPACE_IDS = 56


def _suit(card):
    return SPADES if card >= 52 else card // 13  # the jokers, and the ids above them, are spades


def _beats_by_the_rules(card, winning):
    """RULES.md 1.3 and 1.6: a card beats the winning one if it is higher in the same suit or a spade (a
    trump) on a non-spade; ranks grow with the id inside a suit, the big joker above the little."""
    if _suit(card) == _suit(winning):
        return card > winning
    return _suit(card) == SPADES


@njit
def _compiled_card_helpers(card, winning):
    return card_suit(card), beats(card, winning), (beating(winning) >> card) & 1


def test_suit_and_beats_for_every_pair_of_cards():
    for winning in range(RANK_SPACE_IDS):
        assert int(beating(winning)).bit_count() == sum(_beats_by_the_rules(c, winning) for c in range(RANK_SPACE_IDS))
        for card in range(RANK_SPACE_IDS):
            if card == winning:
                continue
            expected = _beats_by_the_rules(card, winning)
            assert _compiled_card_helpers(card, winning) == (_suit(card), expected, expected), (card, winning)
    assert card_suit(-1) == SPADES  # "no card" (-1) reads a table entry in range, never out of it
