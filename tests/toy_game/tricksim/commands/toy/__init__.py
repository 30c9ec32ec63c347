"""The toy game's own command: ``tricksim toy-tricks RUN``."""
import click

from tricksim.options import RUNS


@click.command(name="toy-tricks")
@RUNS
def toy_tricks(runs):
    """Print the rounds and the total score of each seat."""
    from tricksim.analysis.io import open_run

    for path in runs:
        table = open_run(path).read_hands([f"score_{s}" for s in range(3)])
        totals = [sum(table[f"score_{s}"].to_pylist()) for s in range(3)]
        click.echo(f"{path}: {table.num_rows} rounds; total score by seat {totals}")


COMMANDS = (toy_tricks,)
