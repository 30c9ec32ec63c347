"""Rule sets of every game family: one validator, one parser, one kernel conversion.

A family's rules are a frozen, keyword-only dataclass deriving from
``RuleSet`` that declares its flags in ``FLAGS`` (allowed values and one-line
meanings) and its combination rules in ``check()``. This module validates every
value with a one-line message naming the flag and what is allowed, parses
``--rule key=value`` overrides on top of a preset, and turns a rule set into an
all-int64 named tuple for the kernels (enums as their index; a value that may
be ``None`` as its sentinel), so changing a value never recompiles anything.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import ClassVar

from tricksim.simulator.errors import RulesError


@dataclass(frozen=True)
class Flags:
    """What each flag of a rule set may be. Flags in none of the tables are booleans."""

    choices: Mapping[str, tuple[str, ...]]                     # enum flags: allowed values in kernel order
    int_ranges: Mapping[str, tuple[int, int]]                  # integer flags: (minimum, maximum)
    help: Mapping[str, str]                                    # one-line meaning of every flag
    optional: Mapping[str, tuple[int, int, int, str]] = dataclasses.field(default_factory=dict)
    # integer flags that may be None: (minimum, maximum, kernel value for None, how to say what is allowed)
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # alias flag -> the flag that decides it (kept for old input; the rules set it from that flag): where the
    # deciding flag is recorded, the alias is never shown as a difference of its own

    def allowed(self, name: str) -> str:
        """The allowed values of flag ``name``, as the messages and ``tricksim rules`` say them."""
        if name in self.choices:
            return " | ".join(self.choices[name])
        if name in self.int_ranges:
            return "an integer from {} to {}".format(*self.int_ranges[name])
        if name in self.optional:
            return self.optional[name][3]
        return "true | false"


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Base of a family's rules: validation on construction, conversions, overrides."""

    FLAGS: ClassVar[Flags]

    def __post_init__(self):
        spec = self.FLAGS
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in spec.choices:
                ok = v in spec.choices[f.name]
            elif f.name in spec.int_ranges:
                lo, hi = spec.int_ranges[f.name]
                ok = not isinstance(v, bool) and isinstance(v, int) and lo <= v <= hi
            elif f.name in spec.optional:
                lo, hi = spec.optional[f.name][:2]
                ok = v is None or (not isinstance(v, bool) and isinstance(v, int) and lo <= v <= hi)
            else:
                ok = isinstance(v, bool)
            if not ok:
                raise RulesError(f"invalid value {f.name}={v!r}: allowed {spec.allowed(f.name)}")
        self.check()

    def check(self) -> None:
        """Combination rules of the family: raise RulesError naming the combination and the fix."""

    # ------------------------------------------------------------ conversions
    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def flag_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def from_dict(cls, d: dict):
        unknown = set(d) - set(cls.flag_names())
        if unknown:
            raise RulesError(f"unknown rule flag {min(unknown)!r}: allowed {', '.join(cls.flag_names())}")
        return cls(**d)

    def kernel_values(self) -> dict[str, int]:
        """Every flag as an int64: enums as their index in ``choices``, None as its sentinel."""
        spec, out = self.FLAGS, {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in spec.choices:
                v = spec.choices[f.name].index(v)
            elif f.name in spec.optional and v is None:
                v = spec.optional[f.name][2]
            out[f.name] = int(v)
        return out

    @classmethod
    def parse_value(cls, name: str, text: str):
        """One ``--rule key=value`` value as the flag's Python type; raises RulesError."""
        spec = cls.FLAGS
        t = text.strip().lower()
        if name in spec.choices:
            return t
        if name in spec.optional and t in ("none", "off", ""):
            return None
        if name not in spec.int_ranges and name not in spec.optional:  # a boolean
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise RulesError(f"invalid value {name}={text!r}: allowed true | false")
        try:
            return int(t)
        except ValueError:
            raise RulesError(f"invalid value {name}={text!r}: allowed {spec.allowed(name)}") from None


def override_list(rules) -> list[str]:
    """Rule overrides as the API takes them (None, one ``"key=value"``, a list of them, or {key: value}) as
    a list of ``"key=value"``."""
    if rules is None:
        return []
    if isinstance(rules, Mapping):
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    if isinstance(rules, str):
        return [rules]
    return list(rules)


def split_override(item: str, names=()) -> tuple[str, str]:
    """``'key=value'`` -> (key with ``-`` read as ``_``, value text): the form of a rule override, whatever the
    game; raises RulesError (naming the allowed keys when ``names`` are given)."""
    key, eq, text = item.partition("=")
    if not eq or not key.strip():
        allowed = f", with key one of {', '.join(names)}" if names else " (the keys: tricksim rules GAME)"
        raise RulesError(f"bad rule override {item!r}: expected key=value{allowed}")
    return key.strip().replace("-", "_"), text


def build_rules(presets: Mapping[str, RuleSet], preset: str, overrides=()) -> RuleSet:
    """Preset ``preset`` of ``presets`` with ``key=value`` overrides, validated; raises RulesError."""
    if preset not in presets:
        raise RulesError(f"unknown preset {preset!r}: allowed {' | '.join(presets)}")
    base = presets[preset]
    names = base.flag_names()
    changes = {}
    for item in overrides:
        key, text = split_override(item, names)
        if key not in names:
            raise RulesError(f"unknown rule flag {key!r}: allowed {', '.join(names)}")
        changes[key] = base.parse_value(key, text)
    return base.replace(**changes)
