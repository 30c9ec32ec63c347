"""The Spades commands: ``tricksim nil``, ``tricksim sweep`` and ``tricksim dd`` (see tricksim/commands), and the
Spades variant atlas, ``tricksim atlas spades`` (``ATLAS``)."""
from __future__ import annotations

import click

from tricksim.options import (
    RULE,
    RUNS,
    SPEC,
    FamilyOption,
    FormType,
    InputError,
    cannot_write,
    check_engine,
    engine_options,
    variants_help,
)

GAME = "spades"


class SweepGrid(FormType):
    """``NAME:param=LO..HI:STEP`` or ``NAME:param=A|B|C``, kept as written (the sweep checks the values)."""

    name = "GRID"

    def check(self, value):
        from tricksim.jobs.spades.sweep import grid_form

        grid_form(value)
        return value


GRID = SweepGrid()


def _sweep_preset_help() -> str:
    from tricksim.simulator.family import family

    return f"Rule set [default: {family(GAME).default_preset}; the output says which]."


@click.command()
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
def nil(runs, by, hand, save, chart, what_if, seed, engine, scheduler, timeout):
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
    check_engine(engine, scheduler, timeout)
    if what_if is not None and engine != "local":
        raise InputError("--what-if replays on the local engine: leave out --engine dask")
    try:
        if what_if is not None:
            if len(runs) != 1:
                raise InputError(f"--what-if takes one run directory, got {len(runs)}")
            click.echo(nil_what_if(runs[0], what_if, seed=seed or 0, by=by, hand=hand, save=save, chart=chart))
        else:
            click.echo(api.nil_report(list(runs), by=by, hand=hand, save=save, chart=chart, engine=engine,
                                      scheduler=scheduler, timeout=timeout))
    except ConnectionError:  # the Dask scheduler lost, or no worker left: not the output's fault
        raise
    except OSError as e:
        if not (save or chart):
            raise
        cannot_write(" or ".join(p for p in (save, chart) if p), e)


@click.command()
@click.argument("grid", type=GRID)
@click.option("--vs", "vs", required=True, type=SPEC, help="The baseline strategy every value plays against.")
@click.option("--games", type=click.IntRange(2), default=2000, show_default=True,
              help="Deals a value (each played twice, seats swapped; without partnerships on n + 1 tables, a "
              "rotation; the same deals for every value).")
@click.option("--preset", cls=FamilyOption, help=_sweep_preset_help)
@click.option("--rule", "rules", multiple=True, type=RULE, help="Override one rule flag (repeatable).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 2), default=0, show_default=True,
              help="Random seed of the shared deals (the confirmation match plays seed + 1).")
@click.option("--hand-limit", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Hands after which a game ends with end='limit'.")
@click.option("--confirm", type=click.IntRange(0), metavar="N", help="Deals of the confirmation match of the best "
              "value on fresh deals (seed + 1); 0 skips it  [default: --games].")
@click.option("--metric", type=click.Choice(["win", "margin"]), default="win", show_default=True,
              help="What 'best' means: the paired win rate or the mean final margin.")
@click.option("--out", type=click.Path(file_okay=False), help="Where the runs, sweep.csv and sweep.png go "
              "[default: data/sweep/<name>-<params>-<preset>-seed<seed>].")
@click.option("--threads", type=click.IntRange(1), help="Cores to use (default: all the process may use).")
@engine_options("the match runs simulated and read")
def sweep(grid, vs, games, preset, rules, seed, hand_limit, confirm, metric, out, threads, engine, scheduler,
          timeout):
    """Tune a Spades strategy parameter: each value of GRID in a duplicate match against --vs.

    GRID is a strategy with one or two swept parameters: param=LO..HI:STEP (both ends included) or
    param=A|B|C; other parameters as param=value. Prints each value's paired win rate and margin with
    95 % and simultaneous (Bonferroni) intervals, the best value (its simultaneous interval holds although
    it was picked), a confirmation match on fresh deals, and the sample size to play when the differences
    are within the noise. Without partnerships (cutthroat, cutthroat3, twohanded) each value plays a rotation,
    as compare does: alone in each seat in turn against --vs; its games won and its lead over the best other.

    \b
    Examples:
      tricksim sweep heuristic:nil_threshold=2..10:2 --vs heuristic --games 2000
      tricksim sweep 'heuristic:bag_mode=take|avoid|set,bag_guard=0..3:1' --vs heuristic --preset zone
      tricksim sweep heuristic:bid_adjust=-1..1:0.5 --vs heuristic --preset cutthroat3 --games 500
    """
    from tricksim import api

    check_engine(engine, scheduler, timeout)
    api.sweep(grid, vs=vs, games=games, preset=preset, rules=rules, seed=seed, hand_limit=hand_limit,
              confirm=confirm, metric=metric, out=out, threads=threads, engine=engine, scheduler=scheduler,
              timeout=timeout, echo=click.echo)


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--threads", type=click.IntRange(1), help="Threads to solve on (default: all the process may use).")
def dd(run_dir, threads):
    """Add double-dummy columns to a finished Spades run: RUN/dd/part-*.parquet.

    For each hand, from its first lead with the cards as held after any Blind Nil exchange, under the
    run's rules: dd_tricks_0 (team 0's tricks when both teams play perfectly for tricks) and dd_nil_S
    for each seat S (1: its Nil can be made against best defence, 0: it cannot, -1: no Nil bid).
    Without partnerships (each player alone: twohanded, cutthroat3, cutthroat): dd_tricks_S, seat S's own
    tricks against the others together, and dd_nil_S alone.
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


@click.command(name=GAME)
@click.option("--games", type=int, default=2000, show_default=True,
              help="Deals a variant (each played on two tables, seats swapped; cutthroat: on five, cutthroat3: on "
                   "four).")
@click.option("--variants", cls=FamilyOption, metavar="LIST", help=variants_help(GAME))
@click.option("--players", default="heuristic,simple", show_default=True, metavar="STRONG,WEAK",
              help="The two players of every duplicate match, the stronger first (e.g. pimc,heuristic: slow).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Random seed of the shared deals (the same deals for every variant).")
@click.option("--hand-limit", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Hands after which a game ends with end='limit'.")
@click.option("--out", type=click.Path(file_okay=False), help="Where the runs and the report go "
              f"[default: data/atlas/{GAME}-games<N>-seed<seed>].")
@click.option("--threads", type=click.IntRange(1), help="Cores to use (default: all the process may use).")
@engine_options("the variants' runs simulated")
def atlas(games, variants, players, seed, hand_limit, out, threads, engine, scheduler, timeout):
    """Every Spades preset and variant in duplicate, one report: atlas.html, atlas.md, atlas.csv and charts.

    Each variant is a duplicate match of --games deals between the two --players (the stronger as team 0 on
    one table, as team 1 on the other, the same cards). Per variant, with 95 % intervals and n: hand score,
    final margin and game length (charts on shared bins), how games end, Nil and Blind Nil bid and success
    rates, bags per hand, bag penalties per game, contracts made (clustered by deal); the stronger player's
    paired win rate and the share of pairs the same cards won on both tables (over pairs). A variant without
    partnerships (cutthroat, cutthroat3) is a rotation: n weaker players, then the stronger alone in each seat
    in turn, on the same deals; its figures are per seat, its skill against a 1/n share (tables of their own,
    one a table size); with two players (twohanded) the two seat tables are a duplicate pair. The runs are
    kept under --out: run the command again to reuse them (an interrupted run is finished).

    \b
    Examples:
      tricksim atlas spades --games 500 --out data/atlas-small
      tricksim atlas spades --variants zone,zone+jokers=true+joker_removes=2c2d --games 2000
      tricksim atlas spades --games 2000 --engine dask --scheduler tcp://10.0.0.5:8786
    """
    from tricksim import api

    check_engine(engine, scheduler, timeout)
    try:
        api.atlas(GAME, games=games, variants=variants, players=players, seed=seed, hand_limit=hand_limit, out=out,
                  threads=threads, engine=engine, scheduler=scheduler, timeout=timeout, progress=True,
                  echo=click.echo)
    except OSError as e:
        cannot_write(out or "data/atlas", e)


COMMANDS = (nil, sweep, dd)
ATLAS = atlas  # ``tricksim atlas spades``
