"""Tarot settlement, card points and rule flags, pinned to values worked out by hand from RULES.md Part 2.

Every expected number below is RULES.md 2.8 done on paper (the arithmetic is in the comment of each
row), never the output of the code. Conventions of ``settle``: points are passed in half-points
(``2 * points``); ``t`` is the per-defender amount signed from the taker's side: each defender
scores -t, the taker 3t. Multipliers: Prise x1, Garde x2, Garde sans x4, Garde contre x6. Targets by
oudlers: 0 -> 56, 1 -> 51, 2 -> 41, 3 -> 36. Base = (25 + |points - target|) x mult; petit au bout
10 x mult; poignée (20 / 30 / 40) and Chelem (+400 / -200 / +-200) are not multiplied.
"""
from __future__ import annotations

from dataclasses import fields

import pytest
from click.testing import CliRunner

from tricksim.simulator.games.tarot.cards import EXCUSE, HALF_POINTS, MONDE, PETIT
from tricksim.simulator.games.tarot.rules import PRESETS, TarotRules, build_rules
from tricksim.simulator.games.tarot.scoring import settle
from tricksim.simulator.rules import RulesError

PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 1, 2, 3, 4
NO_SLAM, TAKER_SLAM, DEFENCE_SLAM = 0, 1, 2
SINGLE, DOUBLE, TRIPLE = 20, 30, 40


def case(contract, points, oudlers, target, won, t, *, pab=0, poignee=0, announced=0, slam=NO_SLAM, both=1):
    """One row: the inputs (points in whole or half points) and the hand-computed (target, won, t)."""
    args = {"chelem_both": both, "contract": contract, "taker_half_points": round(2 * points), "oudlers": oudlers,
            "petit_au_bout": pab, "poignee": poignee, "announced": announced, "slam": slam}
    return pytest.param(args, (target, won, t))


CASES = [
    # ---- RULES.md 2.8 worked example
    case(GARDE, 45, 2, 41, 1, 58),  # Garde x2, 2 oudlers -> target 41, 45 pts: (25+4)*2 = 58 (taker +174)

    # ---- each contract, won (1 oudler, 60 pts: 60-51 = 9) and lost (1 oudler, 45 pts: 51-45 = 6)
    case(PRISE, 60, 1, 51, 1, 34),           # (25+9)*1 = 34
    case(GARDE, 60, 1, 51, 1, 68),           # (25+9)*2 = 68
    case(GARDE_SANS, 60, 1, 51, 1, 136),     # (25+9)*4 = 136
    case(GARDE_CONTRE, 60, 1, 51, 1, 204),   # (25+9)*6 = 204
    case(PRISE, 45, 1, 51, 0, -31),          # -(25+6)*1 = -31
    case(GARDE, 45, 1, 51, 0, -62),          # -(25+6)*2 = -62
    case(GARDE_SANS, 45, 1, 51, 0, -124),    # -(25+6)*4 = -124
    case(GARDE_CONTRE, 45, 1, 51, 0, -186),  # -(25+6)*6 = -186

    # ---- each oudler count: exactly the target wins (base 25), one point below loses (base 26)
    case(PRISE, 56, 0, 56, 1, 25),    # 0 oudlers -> 56; 56 pts: (25+0)*1 = 25
    case(PRISE, 55, 0, 56, 0, -26),   # 0 oudlers -> 56; 55 pts: -(25+1)*1 = -26
    case(PRISE, 51, 1, 51, 1, 25),    # 1 oudler -> 51; 51 pts: (25+0)*1 = 25
    case(PRISE, 50, 1, 51, 0, -26),   # 1 oudler -> 51; 50 pts: -(25+1)*1 = -26
    case(PRISE, 41, 2, 41, 1, 25),    # 2 oudlers -> 41; 41 pts: (25+0)*1 = 25
    case(PRISE, 40, 2, 41, 0, -26),   # 2 oudlers -> 41; 40 pts: -(25+1)*1 = -26
    case(PRISE, 36, 3, 36, 1, 25),    # 3 oudlers -> 36; 36 pts: (25+0)*1 = 25
    case(PRISE, 35, 3, 36, 0, -26),   # 3 oudlers -> 36; 35 pts: -(25+1)*1 = -26
    case(GARDE_CONTRE, 36, 3, 36, 1, 150),   # at the target under x6: (25+0)*6 = 150
    case(GARDE_CONTRE, 35, 3, 36, 0, -156),  # one below under x6: -(25+1)*6 = -156

    # ---- a total ending in .5 (an Excuse that changed sides in the last trick, RULES.md 2.9): compared with the
    # target as it is, |points - target| rounded up to a whole point before the base
    case(GARDE, 40.5, 2, 41, 0, -52),        # 40.5 < 41: lost; |-0.5| -> 1: -(25+1)*2 = -52
    case(GARDE, 41.5, 2, 41, 1, 52),         # 41.5 >= 41: won; 0.5 -> 1: (25+1)*2 = 52
    case(PRISE, 60.5, 1, 51, 1, 35),         # 9.5 -> 10: (25+10)*1 = 35
    case(GARDE_SANS, 89.5, 3, 36, 1, 316),   # 53.5 -> 54: (25+54)*4 = 316
    case(PRISE, 44.5, 1, 51, 0, -32),        # |44.5-51| = 6.5 -> 7: -(25+7)*1 = -32

    # ---- petit au bout (10 x mult to the side winning the last trick), with won and lost contracts
    case(GARDE, 50, 2, 41, 1, 88, pab=1),             # won, taker's: (25+9)*2 + 10*2 = 68 + 20 = 88
    case(GARDE, 50, 2, 41, 1, 48, pab=-1),            # won, defence's: 68 - 20 = 48
    case(GARDE_SANS, 40, 1, 51, 0, -104, pab=1),      # lost (51-40 = 11), taker's: -(25+11)*4 + 10*4 = -144 + 40
    case(GARDE_SANS, 40, 1, 51, 0, -184, pab=-1),     # lost, defence's: -144 - 40 = -184
    case(PRISE, 36, 3, 36, 1, 35, pab=1),             # at the target, taker's: 25*1 + 10*1 = 35
    case(GARDE_CONTRE, 51, 1, 51, 1, 90, pab=-1),     # at the target x6, defence's: 25*6 - 10*6 = 150 - 60 = 90
    case(GARDE_CONTRE, 40, 1, 51, 0, -276, pab=-1),   # lost x6, defence's: -(25+11)*6 - 60 = -216 - 60 = -276

    # ---- poignée: to the contract's winner, not multiplied
    case(GARDE, 45, 2, 41, 1, 78, poignee=SINGLE),          # won: (25+4)*2 + 20 = 58 + 20 = 78
    case(GARDE, 38, 2, 41, 0, -76, poignee=SINGLE),         # lost (41-38 = 3): -(25+3)*2 - 20 = -56 - 20 = -76
    case(PRISE, 55, 1, 51, 1, 59, poignee=DOUBLE),          # won: (25+4)*1 + 30 = 59
    case(PRISE, 47, 1, 51, 0, -59, poignee=DOUBLE),         # lost (51-47 = 4): -(25+4)*1 - 30 = -59
    case(GARDE_SANS, 40, 3, 36, 1, 156, poignee=TRIPLE),    # won: (25+4)*4 + 40 = 116 + 40 = 156
    case(GARDE_CONTRE, 50, 0, 56, 0, -226, poignee=TRIPLE),  # lost (56-50 = 6): -(25+6)*6 - 40 = -186 - 40 = -226
    # several poignées, totalled (one may be a defender's: all go to the contract's winner)
    case(GARDE, 45, 2, 41, 1, 108, poignee=SINGLE + DOUBLE),     # won: 58 + (20+30) = 108
    case(GARDE, 35, 2, 41, 0, -112, poignee=SINGLE + DOUBLE),    # lost (41-35 = 6): -(25+6)*2 - 50 = -62 - 50 = -112
    case(PRISE, 56, 0, 56, 1, 105, poignee=TRIPLE + 2 * SINGLE),  # won: 25 + (40+20+20) = 105
    # poignée with petit au bout: only the petit is multiplied
    case(GARDE, 45, 2, 41, 1, 68, pab=-1, poignee=DOUBLE),   # won: 58 - 10*2 + 30 = 68
    case(GARDE, 38, 2, 41, 0, -66, pab=1, poignee=DOUBLE),   # lost (41-38 = 3): -(25+3)*2 + 10*2 - 30 = -56 + 20 - 30
]

CHELEM_CASES = [
    # ---- Chelem: never multiplied. A taker slam: all 91 pts (3 oudlers -> 36, 91-36 = 55, base 80 x mult)
    case(PRISE, 91, 3, 36, 1, 480, announced=1, slam=TAKER_SLAM),           # announced, made: 80*1 + 400 = 480
    case(GARDE, 91, 3, 36, 1, 560, announced=1, slam=TAKER_SLAM),           # announced, made: 80*2 + 400 = 560
    case(GARDE, 91, 3, 36, 1, 560, announced=1, slam=TAKER_SLAM, both=0),   # the flag changes nothing here: 560
    case(GARDE, 91, 3, 36, 1, 580, pab=1, announced=1, slam=TAKER_SLAM),    # + petit au bout: 160 + 20 + 400 = 580
    case(PRISE, 91, 3, 36, 1, 520, poignee=TRIPLE, announced=1, slam=TAKER_SLAM),  # 80 + 40 + 400 = 520
    # announced, failed, no slam either way
    case(GARDE, 60, 2, 41, 1, -112, announced=1),     # won (60-41 = 19): (25+19)*2 - 200 = 88 - 200 = -112
    case(GARDE, 45, 1, 51, 0, -262, announced=1),     # lost (51-45 = 6): -(25+6)*2 - 200 = -62 - 200 = -262
    # announced, and the defenders took every trick. Prise: the taker has only the discard, 3 pts, 0 oudlers
    # (never discarded) -> 56; 56-3 = 53: base -(25+53)*1 = -78
    case(PRISE, 3, 0, 56, 0, -478, announced=1, slam=DEFENCE_SLAM, both=1),  # both: -78 - 200 - 200 = -478
    case(PRISE, 3, 0, 56, 0, -278, announced=1, slam=DEFENCE_SLAM, both=0),  # announcement only: -78 - 200 = -278
    # Garde contre: the taker counts nothing, 0 pts, 0 oudlers -> 56: base -(25+56)*6 = -486
    case(GARDE_CONTRE, 0, 0, 56, 0, -886, announced=1, slam=DEFENCE_SLAM, both=1),  # -486 - 200 - 200 = -886
    case(GARDE_CONTRE, 0, 0, 56, 0, -686, announced=1, slam=DEFENCE_SLAM, both=0),  # -486 - 200 = -686
    # unannounced
    case(GARDE, 91, 3, 36, 1, 360, slam=TAKER_SLAM),            # taker's slam: 80*2 + 200 = 360
    case(GARDE_SANS, 91, 3, 36, 1, 520, slam=TAKER_SLAM),       # taker's slam: 80*4 + 200 = 520
    case(GARDE, 3, 0, 56, 0, -356, slam=DEFENCE_SLAM),          # defenders' slam: -(25+53)*2 - 200 = -156 - 200
    case(GARDE, 3, 0, 56, 0, -356, slam=DEFENCE_SLAM, both=0),  # the flag is about announced slams only: -356
    case(PRISE, 3, 0, 56, 0, -288, pab=-1, slam=DEFENCE_SLAM),  # + defence's petit au bout: -78 - 10*1 - 200 = -288
]

ALL_CASES = CASES + CHELEM_CASES


@pytest.mark.parametrize("args, expected", ALL_CASES)
def test_settlement_matches_the_hand_computed_table(args, expected):
    target, won, t = settle(**args)
    assert (int(target), int(won), int(t)) == expected


@pytest.fixture(scope="module")
def compiled_settle():
    from numba import njit

    return njit(cache=False)(settle)


@pytest.mark.parametrize("args, expected", ALL_CASES)
def test_the_compiled_settlement_agrees(args, expected, compiled_settle):
    """The kernel compiles the same function (``phases.settle``): Numba must give the same numbers."""
    target, won, t = compiled_settle(*(args[k] for k in ("chelem_both", "contract", "taker_half_points", "oudlers",
                                                  "petit_au_bout", "poignee", "announced", "slam")))
    assert (int(target), int(won), int(t)) == expected


def test_worked_example_of_rules_2_8():
    """Garde, 2 oudlers (target 41), 45 points, no bonus: each defender pays (25+4)*2 = 58, the taker gets 174."""
    target, won, t = settle(1, GARDE, 90, 2, 0, 0, 0, NO_SLAM)
    assert (target, won) == (41, 1)
    assert -t == -58 and 3 * t == 174


@pytest.mark.parametrize("taker", range(4))
@pytest.mark.parametrize("args, expected", ALL_CASES)
def test_the_four_scores_sum_to_zero(args, expected, taker):
    _, _, t = settle(**args)
    scores = [3 * t if seat == taker else -t for seat in range(4)]
    assert sum(scores) == 0
    assert scores[taker] == 3 * expected[2]
    assert all(isinstance(int(s), int) and int(s) == s for s in scores)  # whole points: no rounding arises


# ------------------------------------------------------------------ card points (RULES.md 2.1)
def test_the_deck_totals_182_half_points():
    # suits: 4 kings*9 + 4 queens*7 + 4 knights*5 + 4 jacks*3 + 40 others*1 = 36+28+20+12+40 = 136
    # trumps: 3 oudlers*9 + 19 others*1 = 27+19 = 46; 136 + 46 = 182 half-points = 91 points
    assert len(HALF_POINTS) == 78
    assert int(HALF_POINTS.sum()) == 182
    assert all(int(v) % 2 == 1 for v in HALF_POINTS)  # every card is odd in half-points
    counts = {v: int((HALF_POINTS == v).sum()) for v in (1, 3, 5, 7, 9)}
    assert counts == {9: 7, 7: 4, 5: 4, 3: 4, 1: 59}  # 9: 4 kings + 3 oudlers; 1: 40 pips + 19 trumps


@pytest.mark.parametrize("card, half", [
    (0 * 14 + 13, 9),   # R♣ (king)
    (3 * 14 + 13, 9),   # R♠
    (1 * 14 + 12, 7),   # D♦ (queen)
    (2 * 14 + 11, 5),   # C♥ (knight)
    (3 * 14 + 10, 3),   # V♠ (jack)
    (0 * 14 + 0, 1),    # A♣ (ace)
    (3 * 14 + 9, 1),    # 10♠
    (56, 9),            # the Petit (trump 1)
    (76, 9),            # the Monde (trump 21)
    (77, 9),            # the Excuse
    (57, 1),            # trump 2
    (75, 1),            # trump 20
])
def test_named_card_values(card, half):
    assert int(HALF_POINTS[card]) == half


def test_oudler_ids():
    assert (PETIT, MONDE, EXCUSE) == (56, 76, 77)


# ------------------------------------------------------------------ rule flags
# RULES.md 2.9: every [decision] is a flag whose default is the decision
DEFAULTS = {"petit_sec_redeal": True, "discard_trumps": "exact", "poignee_hand": "before_first_card",
            "poignee_excuse": "all_trumps_shown", "poignee_four_kings": "taker_after_discard",
            "chelem_defenders_slam": "both", "excuse_last_trick": "either_side",
            "excuse_last_trick_side": "opposite_owner", "target_oudlers": "counted",
            "excuse_lead": "allowed", "call_own": "allowed", "call_four_kings": "lower_rank"}
VALUES = {"petit_sec_redeal": (True, False), "discard_trumps": ("exact", "free"),
          "poignee_hand": ("before_first_card", "as_dealt"), "poignee_excuse": ("all_trumps_shown", "always"),
          "poignee_four_kings": ("taker_after_discard", "never"),
          "chelem_defenders_slam": ("both", "announcement_only"),
          "excuse_last_trick": ("either_side", "announced_only"),
          "excuse_last_trick_side": ("opposite_owner", "trick_winner"), "target_oudlers": ("counted", "held"),
          "excuse_lead": ("allowed", "forbidden"),
          # five players' call (docs/rules.md, Tarot for five)
          "call_own": ("allowed", "forbidden"), "call_four_kings": ("lower_rank", "lower_rank_or_king")}
# games mode (session.py): after the deal's flags, out of the kernel's record
SESSION_DEFAULTS = {"deals_per_game": None, "game_target": None, "game_floor": None, "void_deals_count": True}


def test_the_cardavia_preset_is_the_decisions_of_rules_2_9():
    assert set(PRESETS) == {"cardavia", "fft3", "fft5"}
    assert PRESETS["fft3"] == PRESETS["cardavia"].replace(seats=3)  # Tarot for three: the same flags
    assert PRESETS["fft5"] == PRESETS["cardavia"].replace(seats=5)  # and for five
    assert TarotRules.flag_names() == [*DEFAULTS, *SESSION_DEFAULTS]  # the flags; seats is the preset's
    assert [f.name for f in fields(TarotRules)] == [*DEFAULTS, *SESSION_DEFAULTS, "seats"]
    assert PRESETS["cardavia"].seats == 4
    assert list(PRESETS["cardavia"].to_kernel()._fields) == [*DEFAULTS, "seats"]
    for flag, value in {**DEFAULTS, **SESSION_DEFAULTS}.items():
        assert getattr(PRESETS["cardavia"], flag) == value, flag
    assert build_rules() == PRESETS["cardavia"]


@pytest.mark.parametrize("flag, value", [(f, v) for f, vs in VALUES.items() for v in vs])
def test_every_flag_parses_both_ways(flag, value):
    text = ("true" if value else "false") if isinstance(value, bool) else value
    r = build_rules("cardavia", [f"{flag}={text}"])
    assert getattr(r, flag) == value
    assert all(getattr(r, other) == DEFAULTS[other] for other in DEFAULTS if other != flag)
    k = r.to_kernel()
    assert getattr(k, flag) == (int(value) if isinstance(value, bool) else VALUES[flag].index(value))
    assert TarotRules.from_dict(r.to_dict()) == r


@pytest.mark.parametrize("flag", list(VALUES))
def test_a_bad_value_names_the_flag_and_the_allowed_values(flag):
    with pytest.raises(RulesError) as e:
        build_rules("cardavia", [f"{flag}=nonsense"])
    message = str(e.value)
    assert flag in message and "\n" not in message
    allowed = ("true", "false") if flag == "petit_sec_redeal" else VALUES[flag]
    assert message.endswith("allowed " + " | ".join(allowed)), message


def test_an_unknown_flag_or_preset_is_refused():
    with pytest.raises(RulesError, match="unknown rule flag 'poignee': allowed petit_sec_redeal, "):
        build_rules("cardavia", ["poignee=triple"])
    with pytest.raises(RulesError, match="unknown preset 'cardems': allowed cardavia"):
        build_rules("cardems")


def test_tricksim_rules_tarot_lists_every_flag():
    from tricksim.cli import cli

    r = CliRunner().invoke(cli, ["rules", "tarot"])
    assert r.exit_code == 0, r.output
    assert "cardavia" in r.output
    for flag, values in VALUES.items():
        assert flag in r.output, flag
        for v in values:
            text = ("true" if v else "false") if isinstance(v, bool) else v
            assert text in r.output, (flag, text)


def test_the_rules_page_names_every_tarot_flag_and_value():
    """docs/rules.md, "Tarot rule flags" (tests/test_docs.py checks the Spades flags only)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[4] / "docs" / "rules.md").read_text()
    section = text[text.index("## Tarot rule flags"):]
    assert "`cardavia`" in text
    for flag, values in VALUES.items():
        assert f"`{flag}`" in section, flag
        for v in values:
            text_v = ("true" if v else "false") if isinstance(v, bool) else v
            assert f"`{text_v}`" in section, (flag, text_v)
