"""The command line's toolbox, shared by ``tricksim.cli`` and the commands each game adds
(``tricksim/commands/<game>/``): click parameter types for the values the command line shares with the
Python API, and the options and errors every command uses.

Each type checks the form of its value with the layer's own parser (no strategy or kernel is loaded,
so a mistyped option answers at once) and click names the option in the one-line error:
``Error: Invalid value for '--rule': bad rule override 'target': expected key=value ...``. What
depends on the game (the rule's key, the strategy's name and parameters, the seat's range) is
checked once, by the API the command calls.
"""
from __future__ import annotations

import errno

import click


class InputError(click.ClickException):
    """Bad user input: one line on stderr, exit code 2."""

    exit_code = 2


# errors that say a path the user gave cannot be used (bad input, exit 2); others (a full disk) exit 1
PATH_ERRNOS = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.EACCES, errno.EPERM, errno.EROFS,
               errno.ENAMETOOLONG}


def os_error(e: OSError) -> str:
    return f"{e.strerror or e}" + (f": {e.filename}" if e.filename else "")


def cannot_write(where, e: OSError):
    """An output the OS refuses: bad input (exit 2) when the path is the problem, else exit 1."""
    message = f"cannot write {where}: " + (e.strerror if e.strerror and e.filename == str(where) else os_error(e))
    if e.errno in PATH_ERRNOS:
        raise InputError(message) from None
    raise click.ClickException(message) from None


TIMEOUT_HELP = "With --scheduler: seconds the scheduler has to answer  [default: 10]."


def timeout_option(command):
    """``--timeout SECONDS``: how long a scheduler has to answer (the API's ``timeout``)."""
    return click.option("--timeout", type=click.FloatRange(0, min_open=True), metavar="SECONDS",
                        help=TIMEOUT_HELP)(command)


def engine_options(what: str):
    """``--engine local|dask``, ``--scheduler ADDRESS`` and ``--timeout SECONDS`` for a command that reads (and
    maybe simulates) runs."""
    def add(command):
        command = timeout_option(command)
        command = click.option("--scheduler", metavar="ADDRESS",
                               help="With --engine dask: an existing cluster's scheduler.")(command)
        return click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                            help=f"dask: {what} on Dask workers (the same figures).")(command)
    return add


def check_engine(engine: str, scheduler: str | None, timeout: float | None = None) -> None:
    if scheduler and engine != "dask":
        raise InputError("--scheduler needs --engine dask")
    if timeout is not None and not scheduler:
        raise InputError("--timeout needs --scheduler (it is how long the scheduler has to answer)")


# the run directories a study reads
RUNS = click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))


class FamilyOption(click.Option):
    """An option whose help (``help=`` a function) or default (``default=`` a function) the game families
    answer. They are asked only when the help is printed or the option used: importing the families costs
    every command's start-up (``tricksim --help`` stays instant)."""

    def __init__(self, *args, **kwargs):
        self.help_from = kwargs.pop("help") if callable(kwargs.get("help")) else None
        super().__init__(*args, **kwargs)

    def get_help_record(self, ctx):
        if self.help_from is not None:
            self.help = self.help_from()
        return super().get_help_record(ctx)

    def get_help_extra(self, ctx):
        extra = super().get_help_extra(ctx)
        if callable(self.default) and "default" in extra:
            extra["default"] = str(self.default())  # click would print "(dynamic)"
        return extra


def variants_help(game: str):
    """The help of ``tricksim atlas GAME --variants``, as a function for :class:`FamilyOption`: the default variants
    are the game's (``jobs/<game>/atlas.py``), asked only when the help is printed."""

    def text() -> str:
        from importlib import import_module

        default = import_module(f"tricksim.jobs.{game}.atlas").default_variants()
        return ("Comma-separated variants, each PRESET or PRESET+flag=value[+flag=value...] (any preset, any flag of "
                f"'tricksim rules {game}')  [default: {','.join(default)}]")

    return text


class CountsCommand(click.Command):
    """A command with one ``--NAME N`` option per count the games know (``--hands``, ``--deals``, ...), made
    from ``counts()`` (-> {name: help}) when the command is used or its help printed, not when the command line
    starts; they follow the option ``after``. The callback receives them as ``counts``: {name: N or None}."""

    def __init__(self, *args, counts, after: str, **kwargs):
        self.counts_from, self.after = counts, after
        self._count_options = None
        super().__init__(*args, **kwargs)
        callback = self.callback

        def with_counts(**kwargs):
            return callback(counts={o.name: kwargs.pop(o.name) for o in self.count_options()}, **kwargs)

        self.callback = with_counts

    def count_options(self) -> list[click.Option]:
        if self._count_options is None:
            self._count_options = [
                click.Option([f"--{name}"], type=click.IntRange(1), metavar="N", help=text)
                for name, text in self.counts_from().items()]
        return self._count_options

    def get_params(self, ctx):
        params = super().get_params(ctx)
        at = 1 + next(i for i, p in enumerate(params) if p.name == self.after)
        return params[:at] + self.count_options() + params[at:]


class FormType(click.ParamType):
    """A value whose form ``check`` checks (raising TricksimError), kept as written; click names the option."""

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


class StrategySpec(FormType):
    """``[LABEL=]NAME[:param=value,...]``, kept as written (the API resolves it for the game)."""

    name = "SPEC"

    def check(self, value):
        from tricksim.strategies.registry import spec_form

        spec_form(value)
        return value


class RuleOverride(FormType):
    """``KEY=VALUE``, kept as written (the API checks the key and the value against the game's flags)."""

    name = "KEY=VALUE"

    def check(self, value):
        from tricksim.simulator.rules import split_override

        split_override(value)
        return value


class Assignment(FormType):
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
SEAT = Assignment("seat", "N")
TEAM = Assignment("team", "T")
