"""The ``tricksim`` command line.

Data goes to files, messages and progress to stderr, summaries to stdout.
Every bad input ends in one line naming the problem and the allowed values,
with exit code 2. Heavy modules are imported inside the commands so that
``tricksim --help`` stays instant.
"""
from __future__ import annotations

import errno
import sys

import click

from tricksim.options import GRID, RULE, SEAT, SPEC, TEAM


class InputError(click.ClickException):
    """Bad user input: one line on stderr, exit code 2."""

    exit_code = 2


class Cli(click.Group):
    """The command group: the one place where the tool's errors become ``Error: <message>`` (one line) and an
    exit code: 2 for bad input, 1 for a failure while working. A command runs in ``flag_spelling``, so the
    options its messages name read as this command line's flags (``--resume``), not the API's keywords."""

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
            click.echo(f"Error: {_os_error(e)}", err=True)
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


def _sweep_preset_help() -> str:
    from tricksim.jobs.spades.compare import GAME
    from tricksim.simulator.family import family

    return f"Rule set [default: {family(GAME).default_preset}; the output says which]."


# errors that say a path the user gave cannot be used (bad input, exit 2); others (a full disk) exit 1
PATH_ERRNOS = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.EACCES, errno.EPERM, errno.EROFS,
               errno.ENAMETOOLONG}


def _os_error(e: OSError) -> str:
    return f"{e.strerror or e}" + (f": {e.filename}" if e.filename else "")


def _cannot_write(where, e: OSError):
    """An output the OS refuses: bad input (exit 2) when the path is the problem, else exit 1."""
    message = f"cannot write {where}: " + (e.strerror if e.strerror and e.filename == str(where) else _os_error(e))
    if e.errno in PATH_ERRNOS:
        raise InputError(message) from None
    raise click.ClickException(message) from None


def engine_options(what: str):
    """``--engine local|dask`` and ``--scheduler ADDRESS`` for a command that reads (and maybe simulates) runs."""
    def add(command):
        command = click.option("--scheduler", metavar="ADDRESS",
                               help="With --engine dask: an existing cluster's scheduler.")(command)
        return click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                            help=f"dask: {what} on Dask workers (the same figures).")(command)
    return add


def _check_engine(engine: str, scheduler: str | None) -> None:
    if scheduler and engine != "dask":
        raise InputError("--scheduler needs --engine dask")


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tricksim")
def cli():
    """Monte Carlo simulation and strategy analysis for trick-taking card games."""


# ------------------------------------------------------------------ simulate
def _seat_strategies(game: str, strategy: str | None, seat: tuple, team: tuple):
    """--strategy, --team T=SPEC and --seat N=SPEC as the API's seats and teams."""
    from tricksim import api
    from tricksim.options import assignments

    return api.seat_strategies(game, assignments("--seat", seat), teams=assignments("--team", team),
                               default=strategy)


@cli.command()
@click.argument("game", metavar="GAME", callback=_game)
@click.option("--preset", cls=FamilyOption, help=_presets_help)
@click.option("--rule", "rules", multiple=True, type=RULE,
              help="Override one rule flag (repeatable); see `tricksim rules GAME`.")
@click.option("--hands", type=click.IntRange(1), help="Spades: simulate N independent hands (fresh scores each).")
@click.option("--games", type=click.IntRange(1), help="Spades: simulate N whole games to the target.")
@click.option("--deals", type=click.IntRange(1), help="Tarot: simulate N deals (void deals count).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Run directory to write.")
@click.option("--strategy", type=SPEC, help="Strategy for all seats: NAME[:param=value,...], or LABEL=NAME[:...] "
              "to call it LABEL in every table and chart (e.g. cautious=heuristic:bag_mode=avoid).")
@click.option("--seat", multiple=True, type=SEAT, help="Strategy for seat N (repeatable; SPEC as for "
              "--strategy, e.g. 0=bold=heuristic:bag_mode=take).")
@click.option("--team", multiple=True, type=TEAM,
              help="Spades: strategy for team T: 0 = seats 0,2; 1 = seats 1,3 (SPEC as for --strategy).")
@click.option("--hand-limit", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Games mode: hands after which a game ends with end='limit'.")
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
@click.option("--quiet", is_flag=True, help="No progress bar and no summary.")
def simulate(game, preset, rules, hands, games, deals, seed, out, strategy, seat, team, hand_limit, record_plays,
             overwrite, resume, threads, shard_size, engine, scheduler, quiet):
    """Simulate hands, games or deals and write a Parquet run directory.

    \b
    Examples:
      tricksim simulate spades --preset classic --games 20000 --seed 1 --out data/classic
      tricksim simulate tarot --deals 100000 --seed 1 --out data/tarot
    """
    from tricksim import api
    from tricksim.simulator.engine import expected_bytes, size_text

    _check_engine(engine, scheduler)
    try:
        seats = _seat_strategies(game, strategy, seat, team)
        cfg = api.plan(game, preset=preset, rules=rules, seed=seed, seats=seats, hand_limit=hand_limit,
                       record_plays=record_plays, shard_size=shard_size, hands=hands, games=games,
                       deals=deals)
        size = expected_bytes(cfg)
        if size > 1e9 and not quiet:
            click.echo(f"{out}: about {size_text(size)} on disk when complete", err=True)
        info = api.execute(cfg, out, overwrite=overwrite, resume=resume, threads=threads,
                           progress=None if not quiet else False, engine=engine, scheduler=scheduler)
    except OSError as e:  # during the run (a full disk): the shards on disk are whole and kept
        raise click.ClickException(f"writing {out} stopped: {_os_error(e)}; the shards written are kept: "
                                   "rerun the same command with --resume to finish") from None
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted: the shards finished are kept in {out}; rerun the same command with "
                          "--resume to finish") from None
    if not quiet:
        where = f"{info['threads']} dask workers" if info.get("engine") == "dask" else f"{info['threads']} threads"
        click.echo(f"wrote {out} ({info['compute_seconds']:.2f} s, {where})", err=True)
        click.echo(_summary(out))


def _summary(out, engine: str = "local", scheduler: str | None = None) -> str:
    from tricksim import api

    return api.summary(out, engine=engine, scheduler=scheduler)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@engine_options("the files read and summed")
def summary(run_dir, engine, scheduler):
    """Print the summary of an existing run directory."""
    _check_engine(engine, scheduler)
    click.echo(_summary(run_dir, engine, scheduler))


@cli.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def verify(run_dirs):
    """Check every file of finished runs against the checksums their manifests record."""
    from tricksim.simulator.rundir import verify_run

    bad = 0
    for run_dir in run_dirs:
        shards, rows, problems = verify_run(run_dir)
        for p in problems:
            click.echo(f"Error: {p}", err=True)
        bad += len(problems)
        if not problems:
            click.echo(f"{run_dir}: {shards:,} shards, {rows:,} rows: every checksum matches")
    if bad:
        raise InputError(f"{bad} damaged or unknown file(s): rerun the run's own command with --resume to repair")


# ------------------------------------------------------------------ analysis
RUNS = click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))


@cli.command()
@RUNS
@click.option("--by", "by", metavar="FEATURE", help="Break down by a feature of the hand the bid was made on "
              "(spades | high_spade | honours | shortest | longest | void; see --hand), or by seat | position | "
              "score | preset | strategy | run.")
@click.option("--hand", default="dealt", show_default=True, metavar="dealt|held",
              help="Hand features of the hand as dealt (what every bid is made on, before any Blind Nil exchange) "
              "or as held after the exchange.")
@click.option("--save", type=click.Path(dir_okay=False), help="Write the table (.csv or .parquet).")
@click.option("--chart", type=click.Path(dir_okay=False), help="Write a chart (.png, .svg or .pdf).")
@click.option("--what-if", "what_if", type=click.IntRange(1), metavar="N",
              help="Replay N sampled seat-hands that did not bid Nil with the seat forced to Nil (hands-mode run; "
              "the seat's strategy needs a force_nil parameter) and report how often the Nil would have made.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="With --what-if: seed of the sample  [default: 0]")
@engine_options("the files read and counted")
def nil(runs, by, hand, save, chart, what_if, seed, engine, scheduler):
    """Nil and Blind Nil bid and success rates, each with its n and a 95 % Wilson interval clustered by game
    (by hand in a hands-mode run).

    \b
    Examples:
      tricksim nil data/zone --by spades --chart nil.png
      tricksim nil data/classic --by spades --hand held
      tricksim nil data/hands --what-if 2000 --by spades
    """
    from tricksim import api
    from tricksim.analysis.games.spades.nil import FEATURES, HANDS
    from tricksim.jobs.spades.whatif import nil_what_if

    if by is not None and by not in FEATURES:
        raise InputError(f"unknown feature --by {by!r}: allowed {' | '.join(FEATURES)}")
    if hand not in HANDS:
        raise InputError(f"unknown --hand {hand!r}: allowed {' | '.join(HANDS)}")
    if what_if is None and seed is not None:
        raise InputError("--seed applies only with --what-if N")
    _check_engine(engine, scheduler)
    if what_if is not None and engine != "local":
        raise InputError("--what-if replays on the local engine: leave out --engine dask")
    try:
        if what_if is not None:
            if len(runs) != 1:
                raise InputError(f"--what-if takes one run directory, got {len(runs)}")
            click.echo(nil_what_if(runs[0], what_if, seed=seed or 0, by=by, hand=hand, save=save, chart=chart))
        else:
            click.echo(api.nil_report(list(runs), by=by, hand=hand, save=save, chart=chart, engine=engine,
                                      scheduler=scheduler))
    except OSError as e:
        if not (save or chart):
            raise
        _cannot_write(" or ".join(p for p in (save, chart) if p), e)


@cli.command()
@RUNS
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Folder for report.html, summary.md "
              "and the charts.")
@click.option("--title", default="tricksim report", show_default=True)
@engine_options("the files read and summed")
def report(runs, out, title, engine, scheduler):
    """Score distributions side by side per variant: HTML report, Markdown summary, PNG/SVG charts."""
    from tricksim import api

    _check_engine(engine, scheduler)
    try:
        res = api.report(list(runs), out, title=title, engine=engine, scheduler=scheduler)
    except OSError as e:
        _cannot_write(out, e)
    click.echo(f"wrote {res.html}, {res.markdown} and {2 * len(res.charts)} chart files")


@cli.command()
@click.argument("specs", nargs=-1, required=True, type=SPEC, metavar="A B [C ...]")
@click.option("--game", cls=FamilyOption, type=GameChoice(), default=_default_game, show_default=True)
@click.option("--games", type=click.IntRange(1), default=2000, show_default=True, help="Spades: deals per match "
              "(each is played twice, seats swapped).")
@click.option("--deals", type=click.IntRange(1), default=2000, show_default=True, help="Tarot: deals per rotation "
              "(each is played in five runs: the field alone, then A in each seat).")
@click.option("--preset", cls=FamilyOption, help=_default_presets_help)
@click.option("--rule", "rules", multiple=True, type=RULE, help="Override one rule flag (repeatable).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--hand-limit", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), help="Where the match runs are kept "
              "[default: data/compare/<preset>-seed<seed>].")
@click.option("--threads", type=click.IntRange(1))
@engine_options("the match runs simulated and read")
def compare(specs, game, games, deals, preset, rules, seed, hand_limit, out, threads, engine, scheduler):
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
      tricksim compare cautious=heuristic:bag_mode=avoid,nil_threshold=0.3 bold=heuristic:bag_mode=take --games 5000
      tricksim compare heuristic random --game tarot --deals 5000
    """
    from tricksim import api

    _check_engine(engine, scheduler)
    api.compare(*specs, game=game, games=games, deals=deals, preset=preset, rules=rules, seed=seed,
                hand_limit=hand_limit, out=out, threads=threads, engine=engine, scheduler=scheduler,
                echo=click.echo)


@cli.command()
@RUNS
@click.option("--by", "by", default="oudlers", show_default=True, metavar="FEATURE",
              help="A feature of the taker's hand as dealt: oudlers | trumps | points | kings.")
@click.option("--what-if", "what_if", type=click.IntRange(1), metavar="N",
              help="Replay N sampled played deals with the taker forced to each contract in turn.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="With --what-if: seed of the sample  [default: 0]")
def bidding(runs, by, what_if, seed):
    """Tarot bidding study: each contract's success by the taker's hand, or a forced-contract what-if.

    \b
    Examples:
      tricksim bidding data/tarot --by trumps
      tricksim bidding data/tarot --what-if 2000 --by oudlers
    """
    from tricksim.analysis.games.tarot.bidding import FEATURES, bidding_table, format_bidding

    if by not in FEATURES:
        raise InputError(f"unknown feature --by {by!r}: allowed {' | '.join(FEATURES)}")
    if what_if is None and seed is not None:
        raise InputError("--seed applies only with --what-if N")
    if what_if is not None:
        from tricksim.jobs.tarot.whatif import contract_what_if

        if len(runs) != 1:
            raise InputError(f"--what-if takes one run directory, got {len(runs)}")
        click.echo(contract_what_if(runs[0], what_if, seed=seed or 0, by=by))
    else:
        from tricksim.analysis.io import open_runs, pooling_notes

        notes = pooling_notes(open_runs(list(runs)))
        click.echo("\n".join(notes + [format_bidding(bidding_table(list(runs), by), by)]))


# --------------------------------------------------------------- rules, strategies
@cli.command()
@click.argument("grid", type=GRID)
@click.option("--vs", "vs", required=True, type=SPEC, help="The baseline strategy every value plays against.")
@click.option("--games", type=click.IntRange(2), default=2000, show_default=True,
              help="Deals a value (each played twice, seats swapped; the same deals for every value).")
@click.option("--preset", cls=FamilyOption, help=_sweep_preset_help)
@click.option("--rule", "rules", multiple=True, type=RULE, help="Override one rule flag (repeatable).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 2), default=0, show_default=True)
@click.option("--hand-limit", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@click.option("--confirm", type=click.IntRange(0), metavar="N", help="Deals of the confirmation match of the best "
              "value on fresh deals (seed + 1); 0 skips it  [default: --games].")
@click.option("--metric", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What 'best' means: the paired win rate or the mean final margin.")
@click.option("--out", type=click.Path(file_okay=False), help="Where the runs, sweep.csv and sweep.png go "
              "[default: data/sweep/<name>-<params>-<preset>-seed<seed>].")
@click.option("--threads", type=click.IntRange(1))
@engine_options("the match runs simulated and read")
def sweep(grid, vs, games, preset, rules, seed, hand_limit, confirm, metric, out, threads, engine, scheduler):
    """Tune a Spades strategy parameter: each value of GRID in a duplicate match against --vs.

    GRID is a strategy with one or two swept parameters: param=LO..HI:STEP (both ends included) or
    param=A|B|C; other parameters as param=value. Prints each value's paired win rate and margin with
    95 % and simultaneous (Bonferroni) intervals, the best value (its simultaneous interval holds although
    it was picked), a confirmation match on fresh deals, and the sample size to play when the differences
    are within the noise.

    \b
    Examples:
      tricksim sweep heuristic:nil_threshold=0.2..0.8:0.1 --vs heuristic --games 2000
      tricksim sweep 'heuristic:bag_mode=take|avoid|set,bag_guard=0..3:1' --vs heuristic --preset zone
    """
    from tricksim import api

    _check_engine(engine, scheduler)
    api.sweep(grid, vs=vs, games=games, preset=preset, rules=rules, seed=seed, hand_limit=hand_limit,
              confirm=confirm, metric=metric, out=out, threads=threads, engine=engine, scheduler=scheduler,
              echo=click.echo)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--threads", type=click.IntRange(1), help="Threads to solve on (default: all the process may use).")
def dd(run_dir, threads):
    """Add double-dummy columns to a finished Spades run: RUN/dd/part-*.parquet.

    For each hand, from its first lead with the cards as held after any Blind Nil exchange, under the
    run's rules: dd_tricks_0 (team 0's tricks when both teams play perfectly for tricks) and dd_nil_S
    for each seat S (1: its Nil can be made against best defence, 0: it cannot, -1: no Nil bid).
    Files are written whole or not at all; run the command again to finish an interrupted one.

    \b
    Example:
      tricksim simulate spades --hands 2000 --seed 1 --out data/dd-demo
      tricksim dd data/dd-demo && tricksim nil data/dd-demo
    """
    from tricksim import api

    info = api.dd(run_dir, threads=threads, echo=lambda text: click.echo(text, err=True))
    click.echo(f"{run_dir}/dd: {info['hands']:,} hands in {info['files']} files ({info['solved']:,} solved now, "
               f"{info['seconds']:.1f} s)")


@cli.command(name="rules")
@click.argument("game", metavar="GAME", callback=_game)
@click.option("--preset", help="Show one preset only.")
def rules_cmd(game, preset):
    """Print the rule presets and every flag with its meaning."""
    from tricksim.simulator.family import family

    fam = family(game)
    presets, spec = fam.presets, fam.rules_type.FLAGS
    names = list(presets) if preset is None else [preset]
    if preset is not None and preset not in presets:
        raise InputError(f"unknown preset {preset!r}: allowed {' | '.join(presets)}")
    flags = fam.rules_type.flag_names()
    width = max(len(name) for name in flags)
    column = max(16, 1 + max(len(_show(getattr(presets[n], f))) for n in names for f in flags))
    header = "flag".ljust(width) + "".join(n.rjust(column) for n in names) + "   allowed / meaning"
    lines = [header, "-" * len(header)]
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
