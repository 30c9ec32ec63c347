"""The discard study (scripts/tarot_discard_study.py, issue #29's fifteenth pass) describes a discard as the rules
say: values worked by hand on a chosen hand."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.tarot_discard_study import shape  # noqa: E402

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
