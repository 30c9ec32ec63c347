"""The Tarot commands: ``tricksim bidding``, ``tricksim sessions`` (see tricksim/commands), and the Tarot variant
atlas, ``tricksim atlas tarot`` (``ATLAS``)."""
from __future__ import annotations

import click

from tricksim.options import RUNS, FamilyOption, InputError, cannot_write, check_engine, engine_options, variants_help

GAME = "tarot"


@click.command()
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


@click.command()
@RUNS
def sessions(runs):
    """Tarot whole games (a games run): who wins a game and by how much, and how often the leader after k
    deals wins it, for every k, with 95 % intervals (a game the unit).

    \b
    Examples:
      tricksim simulate tarot --games 2000 --seed 1 --out data/tarot-games
      tricksim sessions data/tarot-games
    """
    from tricksim.analysis.games.tarot.sessions import format_sessions

    click.echo(format_sessions(list(runs)))


COMMANDS = (bidding, sessions)


def _players_help() -> str:
    from tricksim.jobs.tarot.atlas import PLAYERS

    return ("The two players, the stronger first: the stronger sits at every seat of the field table, the weaker "
            f"takes each seat in turn  [default: {','.join(PLAYERS)}]")


@click.command(name=GAME)
@click.option("--games", type=int, help="Whole games a table (a game: the session flags' deals; "
              "tricksim sessions)  [default: 10000, unless --deals]")
@click.option("--deals", type=int, help="Single deals a table instead of whole games.")
@click.option("--variants", cls=FamilyOption, metavar="LIST", help=variants_help(GAME))
@click.option("--players", cls=FamilyOption, metavar="STRONG,WEAK", help=_players_help)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Random seed of the shared deals (the same deals for every variant of a table size).")
@click.option("--out", type=click.Path(file_okay=False), help="Where the runs and the report go "
              f"[default: data/atlas/{GAME}-games<N>-seed<seed>, or -deals<N>-].")
@click.option("--threads", type=click.IntRange(1), help="Cores to use (default: all the process may use).")
@engine_options("the variants' runs simulated")
def atlas(games, deals, variants, players, seed, out, threads, engine, scheduler, timeout):
    """Every Tarot table size (preset) and variant in duplicate, one report: atlas.html, atlas.md, atlas.csv
    and charts.

    Each variant is a duplicate rotation on the same deals: a table with the stronger of the two --players in
    every seat, then one table a seat with the weaker in it. Per variant, with 95 % intervals and n (clustered
    by game, or by deal with --deals): the taker's deal score (chart on shared bins), the all-pass share, each
    contract's share and success, petit au bout, poignée and Chelem rates; the stronger player's points a deal
    over the weaker in the same seat, and luck, the share of a seat's score variance the deal fixes whoever
    plays it. The runs are kept under --out: run the command again to reuse them.

    \b
    Examples:
      tricksim atlas tarot --games 500 --out data/atlas-tarot-small
      tricksim atlas tarot --deals 20000 --variants fft3,cardavia,cardavia+excuse_lead=forbidden
      tricksim atlas tarot --players heuristic,random --games 200
    """
    from tricksim import api

    check_engine(engine, scheduler, timeout)
    if games is not None and deals is not None:
        raise InputError("give --games or --deals, not both: whole games, or single deals")
    try:
        api.atlas(GAME, games=games, deals=deals, variants=variants, players=players, seed=seed, out=out,
                  threads=threads, engine=engine, scheduler=scheduler, timeout=timeout, progress=True,
                  echo=click.echo)
    except OSError as e:
        cannot_write(out or "data/atlas", e)


ATLAS = atlas  # ``tricksim atlas tarot``
