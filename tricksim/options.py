"""Click parameter types for the values the command line shares with the Python API.

Each type checks the form of its value with the layer's own parser (no strategy or kernel is loaded,
so a mistyped option answers at once) and click names the option in the one-line error:
``Error: Invalid value for '--rule': bad rule override 'target': expected key=value ...``. What
depends on the game (the rule's key, the strategy's name and parameters, the seat's range) is
checked once, by the API the command calls.
"""
from __future__ import annotations

import click


class _FormType(click.ParamType):
    def check(self, value: str):
        raise NotImplementedError

    def convert(self, value, param, ctx):
        from tricksim.simulator.errors import TricksimError  # here: importing the core costs `tricksim --help` time

        if not isinstance(value, str):
            return value
        try:
            return self.check(value)
        except TricksimError as e:
            self.fail(str(e), param, ctx)


class StrategySpec(_FormType):
    """``[LABEL=]NAME[:param=value,...]``, kept as written (the API resolves it for the game)."""

    name = "SPEC"

    def check(self, value):
        from tricksim.strategies.registry import spec_form

        spec_form(value)
        return value


class RuleOverride(_FormType):
    """``KEY=VALUE``, kept as written (the API checks the key and the value against the game's flags)."""

    name = "KEY=VALUE"

    def check(self, value):
        from tricksim.simulator.rules import split_override

        split_override(value)
        return value


class SweepGrid(_FormType):
    """``NAME:param=LO..HI:STEP`` or ``NAME:param=A|B|C``, kept as written (the sweep checks the values)."""

    name = "GRID"

    def check(self, value):
        from tricksim.jobs.spades.sweep import grid_form

        grid_form(value)
        return value


class Assignment(_FormType):
    """``N=SPEC`` -> ``(N, SPEC)``: a strategy for seat or team N (the API checks N's range for the game)."""

    def __init__(self, what: str, letter: str):
        self.what, self.letter = what, letter
        self.name = f"{letter}=SPEC"

    def check(self, value):
        from tricksim.simulator.errors import TricksimError
        from tricksim.strategies.registry import spec_form

        n, eq, spec = value.partition("=")
        if not eq or not n.strip().isdigit():
            raise TricksimError(f"bad {self.what} strategy {value!r}: expected {self.name} with {self.what} "
                                f"{self.letter} a number from 0")
        spec_form(spec)
        return int(n), spec


def assignments(option: str, pairs) -> dict[int, str]:
    """``--seat``/``--team`` values as ``{N: SPEC}``; the same N given twice is refused, not last-wins."""
    out: dict[int, str] = {}
    for n, spec in pairs:
        if n in out:
            raise click.BadParameter(f"{n} is given twice ({out[n]!r} and {spec!r})", param_hint=f"'{option}'")
        out[n] = spec
    return out


SPEC = StrategySpec()
RULE = RuleOverride()
GRID = SweepGrid()
SEAT = Assignment("seat", "N")
TEAM = Assignment("team", "T")
