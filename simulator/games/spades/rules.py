"""Spades rule sets: one validated, frozen record per variant.

``SpadesRules`` names every flag of ``RULES.md`` Part 1 (the marked
[decision] points included, so a user can flip them). ``PRESETS`` holds the
three seed rule sets exactly as RULES.md 1.7. ``to_kernel()`` turns a rule set
into an all-int64 named tuple: its Numba type never changes, so changing a
value never recompiles the kernels.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields
from typing import NamedTuple


class RulesError(ValueError):
    """A rule flag, value or combination that is not allowed (one-line message)."""


# enum flags: allowed values in kernel order (index = kernel code)
CHOICES = {
    "blind_nil_eligibility": ("always", "trailing"),
    "exchange_order": ("partner_first", "bidder_first"),
    "nil_tricks": ("bags", "contract"),
    "bag_overflow": ("carry", "reset"),
    "first_lead": ("left_of_dealer", "two_of_clubs"),
    "mercy_check": ("after_target", "before_target"),
    "joker_removes": ("2h2d", "2c2d", "2c2h"),
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
}

HELP = {
    "nil": "Nil (bid 0) allowed",
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
    "jokers": "Joker Spades: big and little joker are the two highest spades, two 2s removed",
    "joker_removes": "[decision] which two 2s leave the deck with jokers=true",
}


@dataclass(frozen=True, kw_only=True)
class SpadesRules:
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
    joker_removes: str = "2h2d"

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in CHOICES:
                if v not in CHOICES[f.name]:
                    raise RulesError(f"invalid value {f.name}={v!r}: allowed {' | '.join(CHOICES[f.name])}")
            elif f.name in INT_RANGES:
                lo, hi = INT_RANGES[f.name]
                if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                    raise RulesError(f"invalid value {f.name}={v!r}: allowed an integer from {lo} to {hi}")
            elif f.name == "mercy":
                if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v >= 0):
                    raise RulesError(f"invalid value mercy={v!r}: allowed none or a negative integer (e.g. -200)")
            elif not isinstance(v, bool):
                raise RulesError(f"invalid value {f.name}={v!r}: allowed true | false")
        if self.blind_nil and not self.nil:
            raise RulesError("invalid combination blind_nil=true with nil=false: Blind Nil is a Nil bid; set nil=true")
        if self.jokers and self.first_lead == "two_of_clubs" and "2c" in self.joker_removes:
            raise RulesError(
                f"invalid combination first_lead=two_of_clubs with jokers=true, joker_removes={self.joker_removes}: "
                "the 2♣ leaves the deck; use joker_removes=2h2d"
            )
        if self.mercy is not None and self.mercy >= self.target:
            raise RulesError(f"invalid combination mercy={self.mercy} with target={self.target}: mercy must be below target")

    # ------------------------------------------------------------ conversions
    def replace(self, **changes) -> "SpadesRules":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, d: dict) -> "SpadesRules":
        unknown = set(d) - {f.name for f in fields(cls)}
        if unknown:
            raise RulesError(f"unknown rule flag {sorted(unknown)[0]!r}: allowed {', '.join(f.name for f in fields(cls))}")
        return cls(**d)

    def to_kernel(self) -> "KernelRules":
        vals = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in CHOICES:
                v = CHOICES[f.name].index(v)
            elif f.name == "mercy":
                v = NO_MERCY if v is None else v
            vals[f.name] = int(v)
        return KernelRules(**vals)


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


assert KernelRules._fields == tuple(f.name for f in fields(SpadesRules))

PRESETS: dict[str, SpadesRules] = {
    # 000 Cardems: no Blind Nil; bags carry over.
    "cardems": SpadesRules(),
    # 002 cardgames.zone defaults: "bags return to 0" after the penalty.
    "zone": SpadesRules(bag_overflow="reset"),
    # 004 classic: Blind ("Double") Nil ±200 with a 3-card exchange; a forced spade lead breaks spades.
    "classic": SpadesRules(blind_nil=True, blind_nil_exchange=3, forced_spade_lead_breaks=True),
}


def parse_value(name: str, text: str):
    """Parse one ``--rule key=value`` value into the flag's Python type."""
    t = text.strip().lower()
    if name in CHOICES:
        return t
    if name == "mercy" and t in ("none", "off", ""):
        return None
    field_type = {f.name: f.type for f in fields(SpadesRules)}[name]
    if field_type == "bool":
        if t in ("true", "yes", "on", "1"):
            return True
        if t in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"invalid value {name}={text!r}: allowed true | false")
    try:
        return int(t)
    except ValueError:
        if name == "mercy":
            raise RulesError(f"invalid value mercy={text!r}: allowed none or a negative integer (e.g. -200)") from None
        lo, hi = INT_RANGES[name]
        raise RulesError(f"invalid value {name}={text!r}: allowed an integer from {lo} to {hi}") from None


def build_rules(preset: str = "cardems", overrides: list[str] | tuple[str, ...] = ()) -> SpadesRules:
    """A preset plus ``key=value`` overrides, validated; raises RulesError."""
    if preset not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}: allowed {' | '.join(PRESETS)}")
    names = [f.name for f in fields(SpadesRules)]
    changes = {}
    for item in overrides:
        if "=" not in item:
            raise RulesError(f"bad --rule {item!r}: expected key=value, with key one of {', '.join(names)}")
        key, _, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in names:
            raise RulesError(f"unknown rule flag {key!r}: allowed {', '.join(names)}")
        changes[key] = parse_value(key, text)
    return PRESETS[preset].replace(**changes)
