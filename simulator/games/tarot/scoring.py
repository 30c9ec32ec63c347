"""Tarot settlement (RULES.md 2.8), written once: the kernel compiles this function, the analysis
and the tests call it as plain Python.

Plain integer arithmetic only, so Numba compiles it unchanged (``phases.settle``).
"""
from __future__ import annotations

MULTIPLIER = (0, 1, 2, 4, 6)   # by contract: 0 none (void deal), 1 Prise, 2 Garde, 3 Garde sans, 4 Garde contre
TARGET = (56, 51, 41, 36)      # by the number of oudlers counted for the taker
CONTRACT_NAMES = ("none", "prise", "garde", "garde_sans", "garde_contre")  # by contract number (0: no taker)
POIGNEE_VALUE = (0, 20, 30, 40)  # by level: none, single (10 cards), double (13), triple (15)
POIGNEE_CARDS = (0, 10, 13, 15)  # four players
# by the number of players: three (FFT) 13 / 15 / 18 trumps, same values
# and five (FFT) 8 / 10 / 13
POIGNEE_CARDS_BY_SEATS = {3: (0, 13, 15, 18), 4: POIGNEE_CARDS, 5: (0, 8, 10, 13)}
SLAM_NONE, SLAM_TAKER, SLAM_DEFENCE = 0, 1, 2
CHELEM_MADE, CHELEM_FAILED, CHELEM_UNANNOUNCED = 400, 200, 200


def settle(chelem_both, contract, taker_half_points, oudlers, petit_au_bout, poignee, announced, slam):
    """The settlement of one played deal: ``(target, won, t)``.

    ``taker_half_points``: the card points counted for the taker, in half-points (even, except when an
    Excuse played to the last trick changed sides: RULES.md 2.8, 2.9); the total is compared with the
    target as it is and ``|points - target|`` is rounded up to a whole point before the base; ``oudlers``: those setting the target; ``petit_au_bout``: +1 the taker's side,
    -1 the defence, 0 none; ``poignee``: the total value of every poignée shown; ``announced``: 1 when
    the taker announced Chelem; ``slam``: SLAM_*; ``chelem_both``: 1 when a failed announcement
    and the defence's slam both count (flag chelem_defenders_slam=both).
    ``t`` is the per-defender amount signed from the taker's side: each defender scores -t, the
    taker (seats - 1) t (``seat_score``).
    """
    mult = MULTIPLIER[contract]
    target = TARGET[oudlers]
    diff_half = taker_half_points - 2 * target
    won = 1 if diff_half >= 0 else 0
    diff = (abs(diff_half) + 1) // 2  # |points - target| rounded up to a whole point (RULES.md 2.9)
    sign = 2 * won - 1
    t = sign * (25 + diff) * mult + petit_au_bout * 10 * mult + sign * poignee
    if announced:
        if slam == SLAM_TAKER:
            t += CHELEM_MADE
        else:
            t -= CHELEM_FAILED
            if slam == SLAM_DEFENCE and chelem_both:
                t -= CHELEM_UNANNOUNCED
    elif slam == SLAM_TAKER:
        t += CHELEM_UNANNOUNCED
    elif slam == SLAM_DEFENCE:
        t -= CHELEM_UNANNOUNCED
    return target, won, t


def seat_score(s, taker, amount, seats, partner=-1):
    """Seat ``s``'s score: the taker ``(seats - 1) * amount``, each defender ``-amount`` (zero-sum). Five players
    with a partner (``partner`` >= 0, not the taker: the holder of the called card): the taker ``2 * amount``, the
    partner ``amount``, each of the three defenders ``-amount``; alone (``partner`` -1) the taker ``4 * amount``."""
    if partner >= 0 and partner != taker:
        if s == taker:
            return (seats - 3) * amount
        return amount if s == partner else -amount
    return (seats - 1) * amount if s == taker else -amount
