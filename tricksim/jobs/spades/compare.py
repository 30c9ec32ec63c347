"""Duplicate matches between strategies: the same deals, seats swapped, whole games to the target; without
partnerships (cutthroat, cutthroat3: each player alone) a rotation over the table's seats."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import JobError, labelled_seats, match_header, run_kept

GAME = "spades"  # duplicate matches and sweeps play whole games to the target: Spades games


def duplicate_matches(specs, *, games: int, preset: str | None = None, rules=(), seed: int = 0,
                      hand_limit: int = 1000, out=None, threads: int | None = None, engine: str = "local",
                      scheduler: str | None = None, echo: Callable[[str], None] = print) -> dict:
    """Every pair of ``specs`` ([LABEL=]SPEC each) plays a duplicate match (two runs: A-B-A-B and B-A-B-A on
    the same deals) kept under ``out``; returns {(label a, label b): analysis.games.spades.compare result}. With three or
    more specs, also the round robin's standings (printed) and chart (``out/round_robin.png``). ``preset``
    defaults to the game's default preset, and the output says so. ``engine="dask"``: the runs are
    simulated and read on one Dask cluster (``scheduler``'s, or a local one)."""
    from tricksim.analysis.games.spades.compare import (
        duplicate_match_runs,
        format_duplicate,
        plot_round_robin,
        standings,
    )
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.analysis.plots import save_figure
    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.family import family
    from tricksim.simulator.games.spades.rules import build_rules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError

    if len(specs) < 2:
        raise JobError("compare needs at least two strategy specs, e.g. heuristic random")
    preset_given = preset is not None
    preset = preset or family(GAME).default_preset
    try:
        rule_set = build_rules(preset, rules)
        seat_list, labels = labelled_seats(specs, GAME)
    except (RulesError, StrategyError) as e:
        raise JobError(str(e)) from None
    if not rule_set.partnerships:
        return _rotations(seat_list, labels, preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                          games=games, hand_limit=hand_limit, out=out, threads=threads, engine=engine,
                          scheduler=scheduler, echo=echo)
    seats = dict(zip(labels, seat_list))
    for line in match_header(game=GAME, preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                             count=games, unit="games per match, each played twice with the seats swapped",
                             seats=seat_list):
        echo(line)
    echo("")
    base = Path(out or f"data/compare/{preset}-seed{seed}")
    results = {}
    try:
        with Engine(engine, scheduler) as cluster:
            for i, (a, b) in enumerate(itertools.combinations(labels, 2)):
                dirs = []
                for tag, (x, y) in (("ab", (a, b)), ("ba", (b, a))):
                    d = base / f"match{i}-{tag}"
                    cfg = RunConfig(rules=rule_set, preset=preset, seats=(seats[x], seats[y]) * 2, seed=seed,
                                    mode="games", count=games, hand_limit=hand_limit)
                    run_kept(cfg, d, threads, engine=engine, scheduler=cluster.scheduler_address)
                    dirs.append(d)
                results[(a, b)] = res = duplicate_match_runs(*dirs, a=a, b=b, engine=cluster)
                echo(format_duplicate(res))
                echo("")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    if len(specs) > 2:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        table = standings(results)[["strategy", "opponents", "text"]]
        echo("Standings: mean paired win rate over the opponents; the matches share their deals (one seed), so the "
             "95 % interval is over deals, each deal's pair scores averaged over the opponents (n = deals)")
        echo(table.rename(columns={"text": "win rate"}).to_string(index=False))
        fig, ax = plt.subplots(figsize=(2 + 1.6 * len(specs), 1.5 + 1.3 * len(specs)))
        plot_round_robin(ax, results)
        fig.tight_layout()
        save_figure(fig, base / "round_robin.png")
        plt.close(fig)
        echo(f"wrote {base / 'round_robin.png'}")
    return results



def _rotations(seat_list, labels, *, preset, preset_given, rule_set, seed, games, hand_limit, out, threads, engine,
               scheduler, echo) -> dict:
    """``duplicate_matches`` for rules without partnerships: every pair (A, B) of the specs, in the order given,
    plays a rotation (``jobs.spades.cutthroat``: A alone in each of the table's seats in turn against B in the
    others, and a field all B, on the same deals; two players: the two seat tables, a duplicate pair) kept under
    ``out``; returns {(a, b): RotationFigures}. No
    round-robin standings: a rotation's figures are A's against a field of B, not a paired win rate."""
    from tricksim.analysis.games.spades.cutthroat import format_rotation, rotation_figures
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.jobs.spades.cutthroat import rotation_runs, with_field

    n, field = rule_set.seats, with_field(rule_set)
    tables = (f"each played on {n + 1} tables (each player alone: the first strategy alone in each of the {n} seats "
              "in turn, and a field)" if field else
              "each played on 2 tables (a duplicate pair: the first strategy in each seat in turn, the same deals)")
    for line in match_header(game=GAME, preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                             count=games, unit=f"games per rotation, {tables}", seats=seat_list):
        echo(line)
    echo("")
    seats = dict(zip(labels, seat_list))
    base = Path(out or f"data/compare/{preset}-seed{seed}")
    results = {}
    try:
        with Engine(engine, scheduler) as cluster:
            for i, (a, b) in enumerate(itertools.combinations(labels, 2)):
                field, seat_dirs = rotation_runs(seats[a], seats[b], rules=rule_set, preset=preset, games=games,
                                                 seed=seed, base=base / f"rotation{i}", hand_limit=hand_limit,
                                                 threads=threads, engine=engine, scheduler=cluster.scheduler_address,
                                                 field=field)
                results[(a, b)] = rot = rotation_figures(field, seat_dirs)
                echo(format_rotation(rot, a, b))
                echo("")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    if len(labels) > 2:
        echo("no standings: each rotation measures its first strategy alone against a field of the second")
    return results
