"""The Tarot commands: ``tricksim bidding``, ``tricksim sessions`` (see tricksim/commands)."""
from __future__ import annotations

import click

from tricksim.options import RUNS, InputError


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
