"""Tarot duplicate rotations: the same deals played by a field of one strategy and with the other in each seat."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from tricksim.jobs import JobError, labelled_seats, match_header, run_kept


def _scores(n_seats, run):
    """The deal ids and the scores (one a seat) of (some shards of) a run, in deal order."""
    return run.read_hands(["deal_id"] + [f"score_{s}" for s in range(n_seats)])


def rotations(a: str, b: str, *, deals: int, preset: str | None = None, rules=(), seed: int = 0, out=None,
              threads: int | None = None, engine: str = "local", scheduler: str | None = None,
              echo: Callable[[str], None] = print, directions=("a_in_b", "b_in_a")) -> dict:
    """Duplicate rotations: the same ``deals`` played by a field of ``b`` and with ``a`` in each seat in turn
    (and the other way round); returns {"a_in_b": (Estimate, gains), "b_in_a": ...} of the mean score gain
    per deal and seat over the field's own strategy in the same seat (analysis.games.tarot.rotation.rotation_gain).
    ``a`` and ``b`` may carry labels (LABEL=SPEC); ``preset`` defaults to the game's default preset, and the output says so.
    ``engine="dask"``: the runs are simulated and read on one Dask cluster. ``directions``: which of the two
    to run (``("a_in_b",)``: only ``a`` in a field of ``b``, for a costly ``a``)."""
    from tricksim.analysis.games.tarot.rotation import rotation_gain
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.family import family
    from tricksim.simulator.games.tarot.rules import build_rules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError

    preset_given = preset is not None
    preset = preset or family("tarot").default_preset
    try:
        rule_set = build_rules(preset, rules)
        seat_list, (a, b) = labelled_seats([a, b], "tarot")
    except (RulesError, StrategyError) as e:
        raise JobError(str(e)) from None
    seat = dict(zip((a, b), seat_list))
    n = rule_set.seats  # three, four or five
    for line in match_header(game="tarot", preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                             count=deals, unit="deals, each played by the field alone and with the other strategy "
                             "in each seat", seats=seat_list):
        echo(line)
    base = Path(out or f"data/compare/tarot-{preset}-seed{seed}")
    results = {}
    with Engine(engine, scheduler) as cluster:
        for key, (test, field) in (("a_in_b", (a, b)), ("b_in_a", (b, a))):
            if key not in directions:
                continue
            tag = "ab" if key == "a_in_b" else "ba"
            dirs = []
            for r in (None, *range(n)):  # the field alone, then the tested strategy in seat r
                seats = tuple(seat[test] if s == r else seat[field] for s in range(n))
                d = base / (f"{tag}-field" if r is None else f"{tag}-seat{r}")
                run_kept(RunConfig(game="tarot", rules=rule_set, preset=preset, seats=seats, seed=seed,
                                   mode="deals", count=deals), d, threads, engine=engine,
                         scheduler=cluster.scheduler_address)
                dirs.append(d)
            try:
                tables = [cluster.map_run(partial(_scores, n), d).sort_by("deal_id") for d in dirs]
                results[key] = rotation_gain(tables[0], tables[1:])
            except AnalysisError as e:
                raise JobError(str(e)) from None
            est = results[key][0]
            echo(f"{test} in a field of {field}: {est.value:+.1f} points a deal over {field} in the same seat, "
                 f"95 % interval [{est.lo:+.1f}, {est.hi:+.1f}] (n = {est.n:,} deals, each played in all "
                 f"{('three', 'four', 'five')[n - 3]} seats)")
    return results
