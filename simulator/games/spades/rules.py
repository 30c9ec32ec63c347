"""Spades rule sets: one validated, frozen record per variant.

``SpadesRules`` names every flag of ``RULES.md`` Part 1 (the marked
[decision] points included, so a user can flip them; docs/rules.md). ``PRESETS``
holds the three seed rule sets exactly as RULES.md 1.7. Validation, parsing and
the kernel conversion are the core's, shared by every family
(``tricksim.simulator.rules``). ``to_kernel()`` gives an all-int64 named tuple:
its Numba type never changes, so changing a value never recompiles the kernels.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

from tricksim.simulator.games.spades.decks import DECKS, REMOVABLE, SPADES, SUIT_OF, THIRD_CARD, TWO_OF_CLUBS, deck_cards
from tricksim.simulator.errors import option
from tricksim.simulator.rules import Flags, RulesError, RuleSet
from tricksim.simulator.rules import build_rules as _build_rules

# enum flags: allowed values in kernel order (index = kernel code)
CHOICES = {
    "blind_nil_eligibility": ("always", "trailing"),
    "exchange_order": ("partner_first", "bidder_first"),
    "nil_tricks": ("bags", "contract"),
    "bag_overflow": ("carry", "reset"),
    "first_lead": ("left_of_dealer", "two_of_clubs"),
    "mercy_check": ("after_target", "before_target"),
    "joker_removes": ("2h2d", "2c2d", "2c2h", "auto"),
    "bid_rule": ("free", "suicide", "whiz", "mirror"),
    "zero_bid": ("nil", "zero"),
    "big_bid_set": ("tens", "value"),
    "deck": DECKS,
    "three_removes": ("auto", "2c", "2h", "2d", "3c"),
}

# integer flags: (minimum, maximum)
INT_RANGES = {
    "nil_value": (0, 10_000),
    "blind_nil_value": (0, 10_000),
    "blind_nil_exchange": (0, 6),
    "blind_nil_deficit": (0, 100_000),
    "nil_trick_points": (0, 100),
    "bag_points": (0, 100),
    "bag_limit": (1, 1_000),
    "bag_penalty": (0, 10_000),
    "target": (1, 100_000),
    "min_team_bid": (0, 13),
    "big_bid_threshold": (0, 13),
    "big_bid_value": (0, 10_000),
    "seats": (2, 4),
}

HELP = {
    "nil": "a bid of 0 allowed: Nil (with zero_bid=zero, a zero-trick contract)",
    "nil_value": "points won for a made Nil / lost for a failed one",
    "blind_nil": "Blind Nil allowed (a Nil bid made before looking at the cards)",
    "blind_nil_value": "points won / lost for a Blind Nil",
    "blind_nil_exchange": "cards swapped between a Blind Nil bidder and partner (0 = no exchange; none when both bid Blind Nil)",
    "blind_nil_eligibility": "[decision] who may bid Blind Nil: always, or only when the team trails",
    "blind_nil_deficit": "[decision] with eligibility=trailing: the team must trail by at least this many points",
    "exchange_order": "[decision] partner_first: partner passes first, the bidder (having seen them) passes back",
    "nil_tricks": "tricks taken by a Nil bidder: bags (never toward the partner's contract) or contract (they count toward it)",
    "nil_bags_when_set": "[decision] with nil_tricks=bags: a Nil bidder's tricks are bags even when the partner's contract fails",
    "nil_trick_points": "[decision] points per trick taken by a Nil bidder (each bag +1)",
    "bag_points": "points per overtrick (bag)",
    "bag_limit": "running bags that trigger the penalty",
    "bag_penalty": "points lost each time the bag limit is reached",
    "bag_overflow": "after a bag penalty: carry the excess bags, or reset bags to 0",
    "forced_spade_lead_breaks": "a spade led by a player holding only spades breaks spades",
    "first_lead": "who leads the first trick: left_of_dealer, or two_of_clubs (holder leads the 2♣)",
    "target": "game ends after a hand where a team has >= target and a strictly higher total",
    "mercy": "none, or a score at or below which a team loses (e.g. -200)",
    "mercy_check": "[decision] whether the mercy rule is checked after or before the target rule",
    "min_team_bid": "minimum combined team bid, enforced on the team's second bidder (0 = none; Nil teams exempt)",
    "jokers": "alias of deck=joker_ace (true with any joker deck): big and little joker the two highest spades, "
              "two 2s removed",
    "joker_removes": "[decision] which two 2s leave a joker deck; auto: 2h2d, or 2c2h with deck=joker_deuce_deuce "
                     "(whose 2♦ is a spade)",
    "breaking": "spades may not be led until broken (unless the leader holds only spades); false: spades may be led "
                "at any time, as in bridge with spades trumps",
    "bid_rule": "which bids are legal: free (Nil or min..13), suicide (in each partnership exactly one partner bids Nil), "
                "whiz (the number of spades held, or Nil), mirror (exactly the number of spades held; a void bids 0)",
    "zero_bid": "what a bid of 0 is: nil (a Nil bid), or zero (an ordinary contract of zero tricks; no Nil exists)",
    "big_bid_threshold": "ten for two hundred: a team contract of at least this many tricks, made, scores big_bid_value "
                         "instead of 10 a trick (0 = off)",
    "big_bid_value": "ten for two hundred: the points of a made contract of big_bid_threshold or more",
    "big_bid_set": "[decision] ten for two hundred, contract set: tens (-10 a trick bid, as any contract) or value "
                   "(-big_bid_value)",
    "deck": "standard (52 cards), or a joker deck, from the top spade down: joker_ace (BJ LJ A♠ K♠ ...), "
            "joker_deuce_ace (BJ LJ 2♠ A♠ ...), joker_deuce_deuce (BJ LJ 2♠ 2♦ A♠ ...; the 2♦ is a spade)",
    "partnerships": "seats s and s + 2 play as a team (false: cutthroat, each player alone); set by the preset, "
                    "never overridden",
    "three_removes": "[decision] three players (cutthroat3): the card that leaves the deck so that 17 go to each; auto: "
                     "the first of 2♣, 2♥, 2♦, 3♣ still in the deck and no spade (the 2♣ but with a joker deck that "
                     "removed it)",
    "seats": "players at the table: 4, 3 (cutthroat3: 17 cards and 17 tricks a hand, one card out of the deck) or 2 "
             "(twohanded: 13 cards each drawn from the stock, 13 tricks); set by the preset, never overridden",
}

# flags a preset sets and a --rule override may not: they change who plays with whom, not a rule of the table
PRESET_ONLY = {"partnerships": "cutthroat", "seats": "cutthroat3 | twohanded"}


@dataclass(frozen=True, kw_only=True)
class SpadesRules(RuleSet):
    nil: bool = True
    nil_value: int = 100
    blind_nil: bool = False
    blind_nil_value: int = 200
    blind_nil_exchange: int = 0
    blind_nil_eligibility: str = "always"
    blind_nil_deficit: int = 100
    exchange_order: str = "partner_first"
    nil_tricks: str = "bags"
    nil_bags_when_set: bool = True
    nil_trick_points: int = 1
    bag_points: int = 1
    bag_limit: int = 10
    bag_penalty: int = 100
    bag_overflow: str = "carry"
    forced_spade_lead_breaks: bool = False
    first_lead: str = "left_of_dealer"
    target: int = 500
    mercy: int | None = None
    mercy_check: str = "after_target"
    min_team_bid: int = 0
    jokers: bool = False
    joker_removes: str = "auto"
    breaking: bool = True
    bid_rule: str = "free"
    zero_bid: str = "nil"
    big_bid_threshold: int = 0
    big_bid_value: int = 200
    big_bid_set: str = "tens"
    deck: str = "standard"
    # last: a flag added later goes at the end (KernelRules mirrors this order). False: cutthroat (each seat
    # alone: contract, bags, Nil, score and target per player); left out of to_dict when true, so every run
    # with partnerships records (and hashes) its rules as before the flag existed
    partnerships: bool = True
    # three players only (seats=3): left out of to_dict with four, so four-player runs record their rules as before
    three_removes: str = "auto"
    # The number of players (preset data, never overridden): the deal (52 // seats cards each, one card out with
    # three), the tricks a hand, the bids' range and the rotation follow it; the kernel is compiled per seat count
    # (kernel.kernel_for). Last, and left out of to_dict at 4, as partnerships.
    seats: int = 4

    def check(self) -> None:
        # the deck decides: jokers=true is deck=joker_ace, and jokers reads true with every joker deck
        if self.jokers and self.deck == "standard":
            object.__setattr__(self, "deck", "joker_ace")
        object.__setattr__(self, "jokers", self.deck != "standard")
        if self.blind_nil and not self.nil:
            raise RulesError("invalid combination blind_nil=true with nil=false: Blind Nil is a Nil bid; set nil=true")
        if self.jokers and self.joker_removes not in ("auto", *REMOVABLE[self.deck]):
            raise RulesError(
                f"invalid combination deck={self.deck} with joker_removes={self.joker_removes}: the 2♦ is a spade of "
                f"this deck; allowed joker_removes={' | '.join(('auto', *REMOVABLE[self.deck]))}")
        if self.jokers and self.first_lead == "two_of_clubs" and "2c" in self.removed_twos():
            raise RulesError(
                f"invalid combination first_lead=two_of_clubs with deck={self.deck}, joker_removes={self.joker_removes}: "
                "the 2♣ leaves the deck; use " + ("joker_removes=2h2d" if "2h2d" in REMOVABLE[self.deck]
                                                  else "first_lead=left_of_dealer")
            )
        if self.zero_bid == "zero" and self.blind_nil:
            raise RulesError("invalid combination zero_bid=zero with blind_nil=true: no Nil exists; set blind_nil=false")
        if self.bid_rule != "free" and not self.nil:
            raise RulesError(f"invalid combination bid_rule={self.bid_rule} with nil=false: the variant bids 0; set nil=true")
        if self.bid_rule == "suicide" and self.zero_bid == "zero":
            raise RulesError("invalid combination bid_rule=suicide with zero_bid=zero: Suicide needs Nil; set zero_bid=nil")
        if self.bid_rule in ("whiz", "mirror") and self.min_team_bid > 0:
            raise RulesError(f"invalid combination bid_rule={self.bid_rule} with min_team_bid={self.min_team_bid}: "
                             "the cards fix the bid; set min_team_bid=0")
        if self.bid_rule == "mirror" and self.blind_nil:
            raise RulesError("invalid combination bid_rule=mirror with blind_nil=true: the cards fix the bid; "
                             "set blind_nil=false")
        if not self.partnerships:
            for flag, value, why in (("bid_rule", "suicide", "Suicide is a rule of partnerships"),
                                     ("min_team_bid", None, "there are no teams"),
                                     ("blind_nil_exchange", None, "there is no partner to exchange with"),
                                     ("blind_nil_eligibility", "trailing", "the deficit is a team's")):
                v = getattr(self, flag)
                if (v == value) if value is not None else (v != 0):
                    raise RulesError(f"invalid combination {flag}={v} without partnerships (cutthroat): {why}; "
                                     f"set {flag}={getattr(SpadesRules, flag)}")
        if self.seats == 3 and self.partnerships:
            raise RulesError("invalid combination seats=3 with partnerships=true: three players play each alone; "
                             f"use {option('preset', 'cutthroat3')}")
        if self.seats != 3 and self.three_removes != "auto":
            raise RulesError(f"invalid combination three_removes={self.three_removes} with seats={self.seats}: a card leaves "
                             "the deck only with three players; set three_removes=auto")
        if self.seats == 2:  # two-handed (docs/rules.md "Two-handed Spades"): the hands are drawn from the stock
            if self.partnerships:
                raise RulesError("invalid combination seats=2 with partnerships=true: two players play each alone; "
                                 f"use {option('preset', 'twohanded')}")
            if self.blind_nil:
                raise RulesError("invalid combination blind_nil=true with seats=2: the bids follow the draw, so no bid "
                                 "is made before the bidder has seen its cards; set blind_nil=false")
            if self.first_lead == "two_of_clubs":
                raise RulesError("invalid combination first_lead=two_of_clubs with seats=2: half the deck is discarded "
                                 "in the draw, the 2♣ with it as often as not; use first_lead=left_of_dealer")
        if self.seats == 3:
            card = self.three_removed()
            if card is None:
                raise RulesError(f"invalid combination three_removes={self.three_removes} with deck={self.deck}, "
                                 f"joker_removes={self.removed_twos()}: that card is not in the deck or is a spade; "
                                 f"allowed three_removes={' | '.join(self.three_removable())}")
            if self.first_lead == "two_of_clubs" and card == TWO_OF_CLUBS:
                raise RulesError(f"invalid combination first_lead=two_of_clubs with three_removes={self.three_removes}: "
                                 "the 2♣ leaves the deck; use first_lead=left_of_dealer")
        if self.mercy is not None and self.mercy >= self.target:
            raise RulesError(f"invalid combination mercy={self.mercy} with target={self.target}: mercy must be below target")

    def removed_twos(self) -> str:
        """The two 2s that leave this deck ('' for the standard deck): joker_removes, auto resolved."""
        if not self.jokers:
            return ""
        return REMOVABLE[self.deck][0] if self.joker_removes == "auto" else self.joker_removes

    def three_removable(self) -> tuple[str, ...]:
        """The three_removes values this deck allows: auto, and each card in it that is no spade."""
        deck = deck_cards(self.deck, self.removed_twos())
        return ("auto", *(v for v in CHOICES["three_removes"][1:] if THIRD_CARD[v] in deck
                          and SUIT_OF[DECKS.index(self.deck), THIRD_CARD[v]] != SPADES))

    def three_removed(self) -> int | None:
        """The card out of a three-player deck (None with four players, or when the flag names a card the deck
        lacks or a spade): three_removes, auto resolved."""
        if self.seats != 3:
            return None
        allowed = self.three_removable()
        if self.three_removes == "auto":
            return THIRD_CARD[allowed[1]] if len(allowed) > 1 else None
        return THIRD_CARD[self.three_removes] if self.three_removes in allowed else None

    def replace(self, **changes):
        # a new deck brings its own jokers value (else a joker deck's derived jokers=true would turn deck=standard
        # back into joker_ace); jokers=true given with it still means joker_ace where the deck is standard
        if "deck" in changes and "jokers" not in changes:
            changes["jokers"] = False
        return super().replace(**changes)

    def to_dict(self) -> dict:
        d = super().to_dict()
        if d["partnerships"]:
            del d["partnerships"]  # the default, omitted: partnership runs record their rules as before
        if d["seats"] == 4:
            del d["seats"], d["three_removes"]  # four players: recorded as before these fields existed
        return d

    @property
    def sides(self) -> int:
        """Who scores: 2 teams (seat s in team s & 1), or each player alone (cutthroat: 4, cutthroat3: 3)."""
        return 2 if self.partnerships else self.seats

    @property
    def tricks(self) -> int:
        """Tricks a hand, and cards a hand: 13 with four players (and with two, who discard half the deck in the
        draw), 17 with three."""
        return 13 if self.seats == 2 else 52 // self.seats

    def to_kernel(self) -> "KernelRules":
        return KernelRules(**self.kernel_values())


NO_MERCY = -(2**62)  # kernel value for mercy=None: no score is that low


class KernelRules(NamedTuple):
    """All-int64 view of SpadesRules for the kernels (enums as their index in CHOICES)."""

    nil: int
    nil_value: int
    blind_nil: int
    blind_nil_value: int
    blind_nil_exchange: int
    blind_nil_eligibility: int
    blind_nil_deficit: int
    exchange_order: int
    nil_tricks: int
    nil_bags_when_set: int
    nil_trick_points: int
    bag_points: int
    bag_limit: int
    bag_penalty: int
    bag_overflow: int
    forced_spade_lead_breaks: int
    first_lead: int
    target: int
    mercy: int
    mercy_check: int
    min_team_bid: int
    jokers: int
    joker_removes: int
    breaking: int
    bid_rule: int
    zero_bid: int
    big_bid_threshold: int
    big_bid_value: int
    big_bid_set: int
    deck: int
    partnerships: int
    three_removes: int
    seats: int


assert KernelRules._fields == tuple(f.name for f in fields(SpadesRules))
SpadesRules.FLAGS = Flags(choices=CHOICES, int_ranges=INT_RANGES, help=HELP, aliases={"jokers": "deck"},
                          optional={"mercy": (NO_MERCY + 1, -1, NO_MERCY, "none or a negative integer (e.g. -200)")})

PRESETS: dict[str, SpadesRules] = {
    # 000 Cardems: no Blind Nil; bags carry over.
    "cardems": SpadesRules(),
    # 002 cardgames.zone defaults: "bags return to 0" after the penalty.
    "zone": SpadesRules(bag_overflow="reset"),
    # 004 classic: Blind ("Double") Nil ±200 with a 3-card exchange; a forced spade lead breaks spades.
    "classic": SpadesRules(blind_nil=True, blind_nil_exchange=3, forced_spade_lead_breaks=True),
    # issue #28 bidding variants, on the cardems base (docs/rules.md "Bidding variants"):
    # Partnership Suicide: in each partnership exactly one partner bids Nil.
    "suicide": SpadesRules(bid_rule="suicide"),
    # Whiz: each player bids the number of spades held, or Nil.
    "whiz": SpadesRules(bid_rule="whiz"),
    # Mirror: each player bids exactly the number of spades held (a void in spades bids Nil).
    "mirror": SpadesRules(bid_rule="mirror"),
    # Cutthroat (issue #28): four players each alone, on the cardems base (docs/rules.md "Cutthroat").
    "cutthroat": SpadesRules(partnerships=False),
    # Three-player cutthroat (issue #28): 17 cards each, the 2♣ out of the deck (docs/rules.md "Cutthroat for three").
    "cutthroat3": SpadesRules(partnerships=False, seats=3),
    # Two-handed (issue #28): each keeps or discards the top card of the stock 13 times, then bids and plays 13 tricks
    # alone (docs/rules.md "Two-handed Spades").
    "twohanded": SpadesRules(partnerships=False, seats=2),
}


def build_rules(preset: str = "cardems", overrides: list[str] | tuple[str, ...] = ()) -> SpadesRules:
    """A preset plus ``key=value`` overrides, validated; raises RulesError. The flags of ``PRESET_ONLY``
    come from the preset alone."""
    for item in overrides:
        key = item.partition("=")[0].strip().replace("-", "_")
        if key in PRESET_ONLY:
            raise RulesError(f"rule flag {key!r} is set by the preset, never overridden: use "
                             f"{option('preset', PRESET_ONLY[key])} (allowed presets: {' | '.join(PRESETS)})")
    return _build_rules(PRESETS, preset, overrides)
