"""Cards and 64-bit bitmask helpers shared by every game family.

A hand is an ``int64`` whose bit ``c`` is set when the hand holds card ``c``.
Spades card ids: ``c = suit * 13 + rank`` with suits clubs, diamonds, hearts,
spades = 0..3 and rank 0 = '2' ... 12 = 'A'; the little joker is 52 and the
big joker 53 (both count as spades, ranked above the ace).

The bit helpers are plain Python functions (so tests and ``NUMBA_DISABLE_JIT=1``
runs work) with a Numba ``overload`` that lowers them to single LLVM
instructions inside compiled code.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic, overload

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
LITTLE_JOKER, BIG_JOKER = 52, 53

SUIT_MASKS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.int64)
SUIT_MASKS[SPADES] |= (1 << LITTLE_JOKER) | (1 << BIG_JOKER)  # jokers are spades
STANDARD_DECK = np.int64((1 << 52) - 1)


# ---------------------------------------------------------------- bit helpers
def popcount(x):
    """Number of set bits of a non-negative mask."""
    return bin(int(x)).count("1")


def lowest_bit(x):
    """Index of the lowest set bit (x != 0)."""
    x = int(x)
    return (x & -x).bit_length() - 1


def highest_bit(x):
    """Index of the highest set bit (x != 0)."""
    return int(x).bit_length() - 1


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
        # to mispredict (random's kernel: 0.84-0.87 of its time with the loop, on this project's Zen 3)
        return lambda mask, k: _cttz(_pdep(np.int64(1) << np.int64(k), np.int64(mask)))
    return lambda mask, k: _nth_set_bit_loop(np.int64(mask), k)


@njit(cache=True)
def _nth_set_bit_loop(mask, k):
    """``nth_set_bit`` without BMI2: clear the k lowest set bits."""
    for _ in range(k):
        mask &= mask - 1
    return _cttz(mask)


# Card tables of 64 entries, read at ``card & 63``: an index the compiler sees is in range, so
# no test for a negative index lies on the path from card to card (-1, "no card", reads entry 63).
SUIT_OF = np.array([min(c // 13, SPADES) for c in range(64)], dtype=np.int64)  # jokers are spades


def _beating(card: int) -> int:
    if card >= 54:
        return 0
    suit = int(SUIT_OF[card])
    higher = ((1 << 54) - 1) & ~((2 << card) - 1)  # ids grow with rank inside a suit; jokers top the spades
    return (higher & int(SUIT_MASKS[suit])) | (int(SUIT_MASKS[SPADES]) if suit != SPADES else 0)


BEATING = np.array([_beating(c) for c in range(64)], dtype=np.int64)


@njit(cache=True)
def card_suit(card):
    """Suit of a Spades card id (jokers are spades)."""
    return SUIT_OF[card & 63]


@njit(cache=True)
def beating(winning):
    """Mask of the cards that beat ``winning``, the card now winning a Spades trick: one load
    instead of two suit lookups and a comparison (simple's kernel 0.91 of the time)."""
    return BEATING[winning & 63]


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


def card_name(card: int) -> str:
    """'AS', 'TD', '2C', 'LJ', 'BJ'."""
    card = int(card)
    if card == LITTLE_JOKER:
        return "LJ"
    if card == BIG_JOKER:
        return "BJ"
    if not 0 <= card < 52:
        raise ValueError(f"card id {card} is not a Spades card (allowed 0..53)")
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name` ('10S' is accepted for 'TS')."""
    t = text.strip().upper().replace("10", "T")
    if t in ("LJ", "BJ"):
        return LITTLE_JOKER if t == "LJ" else BIG_JOKER
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"bad card {text!r}: use rank 2-9,T,J,Q,K,A and suit C,D,H,S (e.g. 'QS'), or LJ/BJ")
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])



@njit(cache=True)
def beats(card, winning):
    """True when ``card`` played later in a Spades trick beats ``winning``."""
    return (beating(winning) >> card) & 1 != 0


@njit(cache=True)
def card_rank(card):
    """0 = '2' ... 12 = 'A', 13 = little joker, 14 = big joker."""
    if card >= 52:
        return card - 39
    return card % 13
