"""The ``tricksim`` command line.

Data goes to files, messages and progress to stderr, summaries to stdout.
Every bad input ends in one line naming the problem and the allowed values,
with exit code 2. Heavy modules are imported inside the commands so that
``tricksim --help`` stays instant.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from tricksim.options import (
    PATH_ERRNOS,
    RULE,
    RUNS,
    SEAT,
    SPEC,
    TEAM,
    CountsCommand,
    FamilyOption,
    InputError,
    cannot_write,
    check_engine,
    engine_options,
    os_error,
    timeout_option,
)


class Cli(click.Group):
    """The command group: the one place where the tool's errors become ``Error: <message>`` (one line) and an
    exit code: 2 for bad input, 1 for a failure while working. A command runs in ``flag_spelling``, so the
    options its messages name read as this command line's flags (``--resume``), not the API's keywords.
    Besides its own commands it offers those the games add (``tricksim/commands/<game>/``)."""

    def list_commands(self, ctx):
        from tricksim.commands import game_commands

        return sorted([*super().list_commands(ctx), *game_commands()])

    def get_command(self, ctx, name):
        from tricksim.commands import game_commands

        return super().get_command(ctx, name) or game_commands().get(name)

    def invoke(self, ctx):
        from tricksim.simulator.errors import TricksimError, flag_spelling

        try:
            with flag_spelling():
                return super().invoke(ctx)
        except TricksimError as e:
            raise InputError(str(e)) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as e:  # click's own would print the usage too: one line, naming the help
            hint = f" (see '{prog_name or 'tricksim'} {e.ctx.info_name} --help')" if e.ctx is not None and \
                e.ctx.parent else ""
            click.echo(f"Error: {e.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except OSError as e:  # an output file or folder that cannot be written, a full disk
            click.echo(f"Error: {os_error(e)}", err=True)
            sys.exit(2 if e.errno in PATH_ERRNOS else 1)
        sys.exit(rv if isinstance(rv, int) else 0)


class Interrupted(click.ClickException):
    """Ctrl-C during a run: one line saying how to finish it (exit code 130, as for SIGINT)."""

    exit_code = 130


def _game(ctx, param, value):
    from tricksim.simulator.family import names

    if value in names():
        return value
    raise InputError(f"unknown game {value!r}: allowed {' | '.join(names())}")


class GameChoice(click.Choice):
    """``click.Choice`` over the games the families name, read when first needed (as for FamilyOption)."""

    def __init__(self):  # click.Choice's own stores a fixed list of choices
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:
        from tricksim.simulator.family import names

        return names()


def _default_game() -> str:
    from tricksim.simulator.family import default_game

    return default_game()


def _presets_help() -> str:
    """Every game's presets, its default first."""
    from tricksim.simulator.family import family, names

    games = []
    for game in names():
        fam = family(game)
        presets = [fam.default_preset, *(p for p in fam.presets if p != fam.default_preset)]
        games.append(f"{game} {' | '.join(presets)}")
    return f"Rule set (default: the game's first): {'; '.join(games)}."


def _default_presets_help() -> str:
    from tricksim.simulator.family import family, names

    defaults = ", ".join(f"{family(game).default_preset} for {game}" for game in names())
    return f"Rule set [default: {defaults}; the output says which]."


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tricksim")
def cli():
    """Monte Carlo simulation and strategy analysis for trick-taking card games."""


# ------------------------------------------------------------------ simulate
def _seat_strategies(game: str, strategy: str | None, seat: tuple, team: tuple, preset: str | None = None):
    """--strategy, --team T=SPEC and --seat N=SPEC as the API's seats and teams (as many seats as the game has
    under ``preset``)."""
    from tricksim import api
    from tricksim.options import assignments

    return api.seat_strategies(game, assignments("--seat", seat), teams=assignments("--team", team),
                               default=strategy, preset=preset)


def _by_game(pairs) -> dict[str, str]:
    """{option: text} from (option, game, text) triples: '<Game>: text' per game, joined where games share it."""
    out: dict[str, list[str]] = {}
    for option, game, text in pairs:
        out.setdefault(option, []).append(f"{game.capitalize()}: {text}")
    return {option: "; ".join(texts) + "." for option, texts in out.items()}


def _mode_counts() -> dict[str, str]:
    """simulate's --MODE N options: every game's modes."""
    from tricksim.simulator.family import family, names

    return _by_game((mode, game, f"simulate N {family(game).mode_help[mode]}") for game in names()
                    for mode in family(game).modes)


def _match_counts() -> dict[str, str]:
    """compare's --UNIT N options: what each game's matches count."""
    from tricksim.api import DEFAULT_MATCH
    from tricksim.jobs import jobs_of, names

    return _by_game((jobs_of(game).match_unit, game, f"{jobs_of(game).match_help} [default: {DEFAULT_MATCH}]")
                    for game in names())


def _team_help() -> str:
    from tricksim.simulator.family import family, names

    games = [g.capitalize() for g in names() if family(g).partnerships]
    return (f"{', '.join(games)}: strategy for team T: 0 = seats 0,2; 1 = seats 1,3 (SPEC as for --strategy)."
            if games else "Strategy for team T (no game played here has teams).")


@cli.command(cls=CountsCommand, counts=_mode_counts, after="rules")
@click.argument("game", metavar="GAME", callback=_game)
@click.option("--preset", cls=FamilyOption, help=_presets_help)
@click.option("--rule", "rules", multiple=True, type=RULE,
              help="Override one rule flag (repeatable); see `tricksim rules GAME`.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Random seed: the same seed and options give the same deals and play on any machine.")
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Run directory to write.")
@click.option("--strategy", type=SPEC, help="Strategy for all seats: NAME[:param=value,...], or LABEL=NAME[:...] "
              "to call it LABEL in every table and chart (e.g. cautious=heuristic:bag_mode=avoid).")
@click.option("--seat", multiple=True, type=SEAT, help="Strategy for seat N (repeatable; SPEC as for "
              "--strategy, e.g. 0=bold=heuristic:bag_mode=take).")
@click.option("--team", multiple=True, type=TEAM, cls=FamilyOption, help=_team_help)
@click.option("--hand-limit", type=click.IntRange(1, 100_000), metavar="N",
              help="Games mode: hands (or deals) after which a game ends with end='limit' (games that play "
              "whole games only)  [default: 1000]")
@click.option("--record-plays", is_flag=True, help="Also store the cards of each hand or deal in play order.")
@click.option("--overwrite", is_flag=True, help="Replace an existing run directory.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run (same options).")
@click.option("--threads", type=click.IntRange(1), help="Cores to use (default: all the process may use); with "
              "--engine dask and no --scheduler, the local cluster's worker processes.")
@click.option("--shard-size", type=click.IntRange(1, 1 << 24), help="Hands, games or deals per output file.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: worker threads in this process; dask: a Dask cluster (the same data).")
@click.option("--scheduler", metavar="ADDRESS", help="With --engine dask: an existing cluster's scheduler, e.g. "
              "tcp://10.0.0.5:8786 (default: a local cluster sized to this machine).")
@timeout_option
@click.option("--quiet", is_flag=True, help="No progress bar and no summary.")
def simulate(game, preset, rules, counts, seed, out, strategy, seat, team, hand_limit, record_plays, overwrite,
             resume, threads, shard_size, engine, scheduler, timeout, quiet):
    """Simulate hands, games or deals and write a Parquet run directory.

    \b
    Examples:
      tricksim simulate spades --preset classic --games 20000 --seed 1 --out data/classic
      tricksim simulate tarot --deals 100000 --seed 1 --out data/tarot
    """
    from tricksim import api
    from tricksim.simulator.engine import expected_bytes, size_text

    check_engine(engine, scheduler, timeout)
    try:
        seats = _seat_strategies(game, strategy, seat, team, preset)
        cfg = api.plan(game, preset=preset, rules=rules, seed=seed, seats=seats, hand_limit=hand_limit,
                       record_plays=record_plays, shard_size=shard_size, **counts)
        size = expected_bytes(cfg)
        if size > 1e9 and not quiet:
            click.echo(f"{out}: about {size_text(size)} on disk when complete", err=True)
        info = api.execute(cfg, out, overwrite=overwrite, resume=resume, threads=threads,
                           progress=None if not quiet else False, engine=engine, scheduler=scheduler,
                           timeout=timeout)
    except OSError as e:  # during the run (a full disk): the shards on disk are whole and kept
        raise click.ClickException(f"writing {out} stopped: {os_error(e)}; the shards written are kept: "
                                   "rerun the same command with --resume to finish") from None
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted: the shards finished are kept in {out}; rerun the same command with "
                          "--resume to finish") from None
    if not quiet:
        where = f"{info['threads']} dask workers" if info.get("engine") == "dask" else f"{info['threads']} threads"
        click.echo(f"wrote {out} ({info['compute_seconds']:.2f} s, {where})", err=True)
        click.echo(_summary_of_written(out, info.get("run_id")))


def _summary_of_written(out, run_id: str | None) -> str:
    """The summary of the run this process just wrote to ``out``, read under the folder's writer lock: another
    process's ``--overwrite`` between the end of the run and the summary is refused, not summarized."""
    from tricksim.simulator.rundir import Lock, RunDirError, read_manifest

    lock = Lock(Path(out))
    try:
        lock.acquire("summarize")
        if read_manifest(out).get("run_id") != run_id:
            raise RunDirError(f"{out} was replaced by another process after this run ended: its summary is not "
                              "this run's; rerun the command")
        return _summary(out)
    finally:
        lock.release()


def _summary(out, engine: str = "local", scheduler: str | None = None, timeout: float | None = None) -> str:
    from tricksim import api

    return api.summary(out, engine=engine, scheduler=scheduler, timeout=timeout)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@engine_options("the files read and summed")
def summary(run_dir, engine, scheduler, timeout):
    """Print the summary of an existing run directory."""
    check_engine(engine, scheduler, timeout)
    click.echo(_summary(run_dir, engine, scheduler, timeout))


@cli.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def verify(run_dirs):
    """Check every file of finished runs (double-dummy files included) against their manifests: the manifest's
    own checksum, each file's checksum, run id and shard index."""
    from tricksim.simulator.rundir import verify_run

    bad = 0
    for run_dir in run_dirs:  # every run given, whatever the ones before it hold
        shards, rows, problems = verify_run(run_dir)
        for p in problems:
            click.echo(f"Error: {p}", err=True)
        bad += len(problems)
        if not problems:
            click.echo(f"{run_dir}: {shards:,} shards, {rows:,} rows: every checksum matches")
    if bad:
        raise InputError(f"{bad} problem(s) found: rerun a damaged run's own command with --resume to repair it "
                         "(a double-dummy file: tricksim dd RUN)")


# ------------------------------------------------------------------ analysis


@cli.command()
@RUNS
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Folder for report.html, summary.md "
              "and the charts.")
@click.option("--title", default="tricksim report", show_default=True, help="Title of the HTML and Markdown "
              "pages.")
@engine_options("the files read and summed")
def report(runs, out, title, engine, scheduler, timeout):
    """Score distributions side by side per variant: HTML report, Markdown summary, PNG/SVG charts."""
    from tricksim import api

    check_engine(engine, scheduler, timeout)
    try:
        res = api.report(list(runs), out, title=title, engine=engine, scheduler=scheduler, timeout=timeout)
    except ConnectionError:  # the Dask scheduler lost, or no worker left: not the output's fault
        raise
    except OSError as e:
        cannot_write(out, e)
    click.echo(f"wrote {res.html}, {res.markdown} and {2 * len(res.charts)} chart files")


@cli.command(cls=CountsCommand, counts=_match_counts, after="game")
@click.argument("specs", nargs=-1, required=True, type=SPEC, metavar="A B [C ...]")
@click.option("--game", cls=FamilyOption, type=GameChoice(), default=_default_game, show_default=True,
              help="The game the strategies play.")
@click.option("--preset", cls=FamilyOption, help=_default_presets_help)
@click.option("--rule", "rules", multiple=True, type=RULE, help="Override one rule flag (repeatable).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Random seed of the shared deals.")
@click.option("--hand-limit", type=click.IntRange(1, 100_000), metavar="N",
              help="Hands after which a game ends with end='limit' (games that play whole games only)  "
              "[default: 1000]")
@click.option("--out", type=click.Path(file_okay=False), help="Where the match runs are kept "
              "[default: data/compare/<preset>-seed<seed>].")
@click.option("--threads", type=click.IntRange(1), help="Cores to use (default: all the process may use).")
@engine_options("the match runs simulated and read")
def compare(specs, game, counts, preset, rules, seed, hand_limit, out, threads, engine, scheduler, timeout):
    """Duplicate matches between strategies on the same deals.

    \b
    Spades: two specs play one match to the target with seats swapped (a paired 95 % interval over deal
    pairs and sample-size guidance); three or more, a round robin with standings (intervals over the
    deals the matches share) and a heat-map chart.
    Tarot: two specs, duplicate rotations: each deal played by a field of B and with A in each seat
    in turn (and the other way round); the gain per deal over the field's strategy in the same seat.
    A spec is NAME[:param=value,...]; LABEL=SPEC gives it a short name for the output.
    The output starts with the preset, the rules that differ from it, the seed and the games played.
    Examples:
      tricksim compare cautious=heuristic:bag_mode=avoid,nil_threshold=4 bold=heuristic:bag_mode=take --games 5000
      tricksim compare heuristic random --game tarot --deals 5000
    """
    from tricksim import api

    check_engine(engine, scheduler, timeout)
    api.compare(*specs, game=game, preset=preset, rules=rules, seed=seed, hand_limit=hand_limit, out=out,
                threads=threads, engine=engine, scheduler=scheduler, timeout=timeout, echo=click.echo, **counts)


class AtlasGroup(click.Group):
    """``tricksim atlas GAME``: the games' atlas commands (``ATLAS`` in ``tricksim/commands/<game>/``)."""

    def list_commands(self, ctx):
        from tricksim.commands import game_atlases

        return sorted(game_atlases())

    def get_command(self, ctx, name):
        from tricksim.commands import game_atlases

        found = game_atlases()
        if name not in found:
            raise InputError(f"no variant atlas for game {name!r}: allowed {' | '.join(sorted(found))}")
        return found[name]


@cli.group(cls=AtlasGroup)
def atlas():
    """Every rule variant of a game played in duplicate, one report (see 'tricksim atlas GAME --help')."""


# --------------------------------------------------------------- rules, strategies
@cli.command(name="rules")
@click.argument("game", metavar="GAME", callback=_game)
@click.option("--preset", help="Show one preset only.")
@click.option("--rule", "flag", metavar="FLAG", help="Show one flag only: its value in each preset, allowed values "
              "and meaning.")
def rules_cmd(game, preset, flag):
    """Print the rule presets and every flag with its meaning."""
    from tricksim.simulator.family import family

    fam = family(game)
    presets, spec = fam.presets, fam.rules_type.FLAGS
    names = list(presets) if preset is None else [preset]
    if preset is not None and preset not in presets:
        raise InputError(f"unknown preset {preset!r}: allowed {' | '.join(presets)}")
    flags = fam.rules_type.flag_names()
    if flag is not None:
        if flag.replace("-", "_") not in flags:
            raise InputError(f"unknown rule flag {flag!r}: allowed {', '.join(flags)}")
        flags = [flag.replace("-", "_")]
    width = max(len(name) for name in flags)
    column = max(16, 1 + max(len(_show(getattr(presets[n], f))) for n in names for f in flags))
    header = "flag".ljust(width) + "".join(n.rjust(column) for n in names) + "   allowed / meaning"
    lines = [header, "-" * len(header)]
    # presets with their own seat count that is not a flag (Tarot); a family whose seat count is a flag (Spades) shows
    # it once, in its flag row
    if flag is None and "seats" not in flags and any(hasattr(presets[n], "seats") for n in names):
        vals = "".join(_show(getattr(presets[n], "seats", fam.seats)).rjust(column) for n in names)
        lines.append(f"{'seats'.ljust(width)}{vals}   the number of players: the preset's own, not a flag")
    for name in flags:
        vals = "".join(_show(getattr(presets[n], name)).rjust(column) for n in names)
        allowed = "{}..{}".format(*spec.int_ranges[name]) if name in spec.int_ranges else spec.allowed(name)
        lines.append(f"{name.ljust(width)}{vals}   {allowed}: {spec.help[name]}")
    lines.append("")
    lines.append("Override any flag on top of a preset: --rule key=value (repeatable).")
    click.echo("\n".join(lines))


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@cli.command(name="strategies")
@click.argument("game", metavar="[GAME]", required=False, callback=lambda ctx, p, v: v and _game(ctx, p, v))
def strategies_cmd(game):
    """List the strategies of GAME (default: every game) and their parameters."""
    from tricksim.simulator.family import names
    from tricksim.strategies.registry import available

    for g in [game] if game else names():
        if not game:
            click.echo(f"[{g}]")
        for name, s in available(g).items():
            _show_strategy(name, s)


def _show_strategy(name, s):
    click.echo(f"{name}: {s.description}")
    for p in s.params:
        default = p.choices[int(p.default)] if p.choices else f"{p.default:g}"
        allowed = f" ({' | '.join(p.choices)})" if p.choices else ""
        click.echo(f"    {p.name} = {default}{allowed}  {p.help}")


def main(argv=None):
    """Entry point of the installed ``tricksim`` command."""
    cli.main(args=argv, prog_name="tricksim")


if __name__ == "__main__":
    main()
