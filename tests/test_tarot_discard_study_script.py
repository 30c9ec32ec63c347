"""The discard study (scripts/tarot_discard_study.py, issue #29's fifteenth pass) describes a discard as the rules
say: values worked by hand on a chosen hand."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.tarot_discard_study import prise_seat, shape  # noqa: E402

# card ids: suit s rank r (0 the ace .. 10 jack, 11 knight, 12 queen, 13 king) is s * 14 + r; trumps 56 (the
# Petit) .. 76 (the 21), the Excuse 77
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 14, 28, 42


def test_shape_of_a_chosen_discard():
    hand = ([SPADES + 0, SPADES + 12]                     # two spades: the ace and the queen
            + [HEARTS + 2, HEARTS + 10, HEARTS + 13]      # three hearts: the 3, the jack, the king
            + [DIAMONDS + r for r in range(8)]            # eight diamonds, the longest suit
            + [CLUBS + 11]                                # the knight of clubs alone
            + [56, 60, 61, 62, 77])                       # the Petit, the 5, 6 and 7 of trumps, the Excuse
    discard = [SPADES + 0, SPADES + 12, CLUBS + 11, HEARTS + 10, DIAMONDS + 0, 61]
    got = shape(hand, discard)
    assert got == {
        "voids": 2,            # spades and clubs emptied
        "short_kept": 1,       # hearts left with two cards (the 3 and the king)
        "queens": 1,
        "cavaliers_jacks": 2,  # the knight of clubs and the jack of hearts
        "trumps": 1,           # the 6 of trumps
        "half_points": 1 + 7 + 5 + 3 + 1 + 1,  # ace, queen, knight, jack, a low diamond, a trump
        "from_longest": 1,     # the ace of diamonds
    }
    assert shape(hand, [])["voids"] == 0 and shape(hand, [])["half_points"] == 0


def test_the_marginal_prise_seat():
    # seat 1 bids the Prise with a count of 71, in [70, 74): it would pass with the Prise from 74; seat 3 (73) may
    # not bid a Prise after it
    assert prise_seat((0, 1, 0, 0), (65.0, 71.0, 60.0, 73.0), 70.0, 74.0) == 1
    # the Prise bid with 74 exactly is taken from 74 as well; seat 3's 73 did not bid
    assert prise_seat((0, 1, 0, 0), (50.0, 74.0, 60.0, 73.0), 70.0, 74.0) == -1
    # a Garde bid by seat 0 (the bid is what counts, not the count): no Prise bid
    assert prise_seat((2, 0, 0, 0), (72.0, 71.0, 60.0, 73.0), 70.0, 74.0) == -1
    # the Prise overbid: seat 2 bid it at 70 and seat 3 the Garde; the Prise's seat is still seat 2
    assert prise_seat((0, 0, 1, 2), (50.0, 60.0, 70.0, 90.0), 70.0, 74.0) == 2
    assert prise_seat((0, 0, 0, 0), (69.9, 60.0, 69.0, 50.0), 70.0, 74.0) == -1
