"""French Tarot rule sets (RULES.md Part 2): one validated, frozen record per variant.

Every **[decision]** of RULES.md 2.9 is a flag whose default is the decision; the other values
are the alternatives a user may want to compare (docs/rules.md, "Tarot rule flags"). Validation,
parsing and the kernel conversion are the core's (``tricksim.simulator.rules``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

from tricksim.simulator.errors import option
from tricksim.simulator.rules import Flags, RuleSet, RulesError
from tricksim.simulator.rules import build_rules as _build_rules

# enum flags: allowed values in kernel order (index = kernel code; the default first)
CHOICES = {
    "discard_trumps": ("exact", "free"),
    "poignee_hand": ("before_first_card", "as_dealt"),
    "poignee_excuse": ("all_trumps_shown", "always"),
    "poignee_four_kings": ("taker_after_discard", "never"),
    "chelem_defenders_slam": ("both", "announcement_only"),
    "excuse_last_trick": ("either_side", "announced_only"),
    "excuse_last_trick_side": ("opposite_owner", "trick_winner"),
    "target_oudlers": ("counted", "held"),
    "excuse_lead": ("allowed", "forbidden"),
    # five players (the called king): asked only of a rule set with seats=5
    "call_own": ("allowed", "forbidden"),
    "call_four_kings": ("lower_rank", "lower_rank_or_king"),
}
FIVE_ONLY = ("call_own", "call_four_kings")  # flags of the five-player game: in to_dict only when seats=5

INT_RANGES: dict[str, tuple[int, int]] = {"seats": (3, 5)}  # seats: not a flag (TarotRules.seats), validated as one

# The session flags: how a whole game (games mode) is played, deal after deal (session.py). No deal depends on
# them, so the kernel never sees them (``to_kernel`` leaves them out) and a deals run ignores them.
SESSION_FLAGS = ("deals_per_game", "game_target", "game_floor", "void_deals_count")
DEALS_PER_ROUND = 4  # deals_per_game none: four rounds, every player deals four times
OPTIONAL: dict[str, tuple[int, int, int, str]] = {
    "deals_per_game": (1, 100_000, 0, f"none ({DEALS_PER_ROUND} deals a player) or an integer from 1 to 100000"),
    "game_target": (1, 1_000_000, 0, "none or an integer from 1 to 1000000"),
    "game_floor": (-1_000_000, -1, 0, "none or an integer from -1000000 to -1"),
}

HELP = {
    "petit_sec_redeal": "[decision] a hand as dealt with the Petit as its only trump and no Excuse voids the deal "
                        "(judged before any bid)",
    "discard_trumps": "[decision] exact: non-oudler trumps only to make up for fewer than 6 discardable suit cards, "
                      "all of those then discarded; free: any card but kings and oudlers (trumps shown)",
    "poignee_hand": "[decision] the hand a poignée is judged on: before the player's first card (the taker's after "
                    "the discard), or as dealt (the taker's 18 cards before the chien)",
    "poignee_excuse": "[decision] the Excuse stands in for a trump only when every trump held is shown, or always",
    "poignee_four_kings": "[decision] a taker with the four kings after a discard may count discarded trumps in a "
                          "triple poignée (the Excuse not among the 15), or never",
    "chelem_defenders_slam": "[decision] Chelem announced and all tricks to the defenders: both -200s apply, "
                             "or the failed announcement alone",
    "excuse_last_trick": "[decision] the Excuse led to the last trick by a side that won the 17 others wins it: "
                         "for either side, or only after the taker announced Chelem",
    "excuse_last_trick_side": "[decision] an Excuse played to the last trick (outside the slam exception) goes to "
                              "the side opposite its owner, in full (the taker's total may end in .5), or to the "
                              "side that wins the trick (the earlier reading)",
    "target_oudlers": "[decision] oudlers that set the target: those counted for the taker at the end, or those "
                      "the taker held at the first trick",
    "excuse_lead": "[decision] the Excuse may be led (the next card sets the suit), or only as the last card held",
    "call_own": "[decision, five players] the taker may call a card of its own hand (and plays alone, 1 against 4), "
                "or only a card it does not hold",
    "call_four_kings": "[decision, five players] a taker holding the four kings calls a queen (all four queens: a "
                       "knight, and so on): lower_rank; or that or one of its own kings (alone): lower_rank_or_king",
    "deals_per_game": "[decision] games mode: a game is this many deals (none: 4 deals a player, 16 for four); "
                      "not with game_target or game_floor",
    "game_target": "[decision] games mode: none, or the game ends after the deal in which a player's total reaches "
                   "this or more (at most hand_limit deals)",
    "game_floor": "[decision] games mode: none, or the game ends after the deal in which a player's total falls to "
                  "this or less (at most hand_limit deals)",
    "void_deals_count": "[decision] games mode: a void deal (all passed, Petit sec) counts as one of the game's "
                        "deals, the deal passing on; false: it is redealt by the next dealer and not counted",
}


@dataclass(frozen=True, kw_only=True)
class TarotRules(RuleSet):
    petit_sec_redeal: bool = True
    discard_trumps: str = "exact"
    poignee_hand: str = "before_first_card"
    poignee_excuse: str = "all_trumps_shown"
    poignee_four_kings: str = "taker_after_discard"
    chelem_defenders_slam: str = "both"
    excuse_last_trick: str = "either_side"
    excuse_last_trick_side: str = "opposite_owner"
    target_oudlers: str = "counted"
    excuse_lead: str = "allowed"
    call_own: str = "allowed"
    call_four_kings: str = "lower_rank"
    # games mode (SESSION_FLAGS): left out of ``to_dict`` at their defaults, so every manifest reads as before
    deals_per_game: int | None = None
    game_target: int | None = None
    game_floor: int | None = None
    void_deals_count: bool = True
    # The number of players: the deal sizes, the rotation, the trick, the settlement and the poignée sizes follow
    # it (phases.hand_cards and the rest). Not a flag: a preset's, never overridden (``--rule seats=3`` is an
    # unknown flag), the last field so that no flag's kernel offset moves, and left out of ``to_dict`` at 4 so
    # every four-player manifest reads as before.
    seats: int = 4

    @classmethod
    def flag_names(cls) -> list[str]:
        return [name for name in super().flag_names() if name != "seats"]

    def check(self) -> None:
        if self.deals_per_game is not None and (self.game_target is not None or self.game_floor is not None):
            raise RulesError("deals_per_game and game_target / game_floor exclude each other: a game is a fixed "
                             f"number of deals, or it is played to a score (at most {option('hand_limit', 'N')} "
                             "deals); give one")

    def to_dict(self) -> dict:
        d = super().to_dict()
        if d["seats"] != 5:  # the call's flags: of five players; at their defaults 3- and 4-player manifests omit them
            for name in FIVE_ONLY:
                if d[name] == CHOICES[name][0]:
                    del d[name]
        if d["seats"] == 4:
            del d["seats"]
        for name in SESSION_FLAGS:
            if d[name] == _DEFAULTS[name]:
                del d[name]
        return d

    def game_deals(self) -> int:
        """The deals of a fixed-length game: ``deals_per_game``, or four a player when none is given."""
        return self.deals_per_game if self.deals_per_game is not None else DEALS_PER_ROUND * self.seats

    @classmethod
    def from_dict(cls, d: dict):
        d = dict(d)
        seats = d.pop("seats", 4)
        return super().from_dict(d).replace(seats=seats)

    def to_kernel(self) -> KernelRules:
        values = self.kernel_values()
        return KernelRules(**{name: values[name] for name in KernelRules._fields})


class KernelRules(NamedTuple):
    """All-int64 view of TarotRules for the kernels (enums as their index in CHOICES)."""

    petit_sec_redeal: int
    discard_trumps: int
    poignee_hand: int
    poignee_excuse: int
    poignee_four_kings: int
    chelem_defenders_slam: int
    excuse_last_trick: int
    excuse_last_trick_side: int
    target_oudlers: int
    excuse_lead: int
    call_own: int
    call_four_kings: int
    seats: int  # not a flag: the rule set's seat count (TarotRules.seats), last so no flag's offset moves


assert KernelRules._fields == tuple(f.name for f in fields(TarotRules) if f.name not in SESSION_FLAGS)
TarotRules.FLAGS = Flags(choices=CHOICES, int_ranges=INT_RANGES, help=HELP, optional=OPTIONAL)
_DEFAULTS = {f.name: f.default for f in fields(TarotRules)}

PRESETS: dict[str, TarotRules] = {
    # 003 Cardavia, four players, with the decisions of RULES.md 2.9
    "cardavia": TarotRules(),
    # Tarot for three by the French federation (FFT): 24 cards each, a chien of 6, poignées of 13 / 15 / 18,
    # the taker against two defenders (2t); every flag at Cardavia's decision (docs/rules.md)
    "fft3": TarotRules(seats=3),
    # Tarot for five by the FFT: 15 cards each, a chien of 3, poignées of 8 / 10 / 13; the taker calls a king
    # (a queen when holding the four kings ...) before the chien; the holder of the called card is the taker's
    # partner (2t and t against three defenders at -t), a card of the taker's own or in the chien: alone (4t)
    "fft5": TarotRules(seats=5),
}


def build_rules(preset: str = "cardavia", overrides: list[str] | tuple[str, ...] = ()) -> TarotRules:
    """A preset plus ``key=value`` overrides, validated; raises RulesError."""
    return _build_rules(PRESETS, preset, overrides)
