"""Parameter sweeps (``tricksim sweep``): a strategy parameter over a grid, each value in a duplicate match
against a baseline on the same deals; the statistics are in ``analysis/games/spades/sweep.py``.

Without partnerships (each player alone) a value plays a rotation, as ``tricksim compare`` does
(``jobs/spades/cutthroat.py``): the value alone in each seat in turn against a field of the baseline (two players:
the two seat tables, a duplicate pair).

Grid syntax, after the strategy name: ``param=LO..HI:STEP`` (a range, both ends included) or
``param=A|B|C`` (a list) for the swept parameters, one or two of them; ``param=value`` fixes a parameter::

    heuristic:nil_threshold=2..10:2
    heuristic:bag_mode=take|avoid|set,bag_guard=0..3:1
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path

from tricksim.jobs import JobError, run_kept
from tricksim.jobs.spades.compare import GAME

MAX_POINTS = 60  # a grid larger than this is refused: each value is two runs of --games games (n + 1 without partnerships)
GRID_FORM = "NAME:param=LO..HI:STEP or NAME:param=A|B|C (one or two swept parameters; others param=value)"


def grid_form(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """``NAME:...`` -> (strategy name, [(item, param, value text), ...]): the form of a grid, checked without
    loading any strategy; raises JobError."""
    name, _, rest = text.strip().partition(":")
    if not name.strip():
        raise JobError(f"bad sweep grid {text!r}: write {GRID_FORM}")
    items = []
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = (x.strip() for x in item.partition("="))
        if not eq or not key or not value:
            raise JobError(f"bad sweep item {item!r} in {text!r}: write {GRID_FORM}")
        items.append((item, key, value))
    return name.strip(), items


def parse_grid(text: str, game: str = GAME) -> tuple[str, dict[str, str], list[tuple[str, list[str]]]]:
    """``NAME:...`` -> (strategy name, fixed parameters, swept parameters with their values as text).
    Every value is checked against the parameter's range or choices; raises JobError (one line)."""
    from tricksim.strategies.registry import StrategyError, get

    name, items = grid_form(text)
    try:
        strategy = get(name, game)
    except StrategyError as e:
        raise JobError(str(e)) from None
    fixed, axes = {}, []
    for item, key, value in items:
        try:
            param = strategy.params[strategy.index(key)]
            if ".." in value:
                values = _range(value, item)
            elif "|" in value:
                values = [v.strip() for v in value.split("|")]
            else:
                param.parse(value)
                fixed[key] = value
                continue
            for v in values:
                param.parse(v)
        except StrategyError as e:
            raise JobError(str(e)) from None
        if any(k == key for k, _ in axes) or key in fixed:
            raise JobError(f"parameter {key!r} given twice in {text!r}")
        if len(set(values)) < 2:
            raise JobError(f"sweep of {key!r} in {text!r} has fewer than two values: write {GRID_FORM}")
        axes.append((key, values))
    if not 1 <= len(axes) <= 2:
        raise JobError(f"a sweep takes one or two swept parameters, got {len(axes)} in {text!r}: write {GRID_FORM}")
    points = math.prod(len(v) for _, v in axes)
    if points > MAX_POINTS:
        raise JobError(f"the grid of {text!r} has {points} values: at most {MAX_POINTS}; use a coarser step")
    return strategy.name, fixed, axes


def _range(value: str, item: str) -> list[str]:
    """``LO..HI:STEP`` -> the values as text, counted in decimals (0.1 steps stay 0.1 steps)."""
    try:
        span, _, step = value.partition(":")
        lo, _, hi = span.partition("..")
        lo, hi, step = Decimal(lo), Decimal(hi), Decimal(step)
    except InvalidOperation:
        raise JobError(f"bad range {item!r}: write param=LO..HI:STEP, e.g. nil_threshold=2..10:2") from None
    if step <= 0 or hi < lo:
        raise JobError(f"bad range {item!r}: needs LO <= HI and STEP > 0")
    n = int((hi - lo) / step) + 1
    last = lo + (n - 1) * step
    if last != hi:
        def show(d: Decimal) -> str:
            return format(d.normalize(), "f")

        raise JobError(f"bad range {item!r}: the step {show(step)} from {show(lo)} misses HI {show(hi)} (the last "
                       f"value would be {show(last)}): write HI as {show(last)} or {show(last + step)}, or a step "
                       f"that divides {show(hi - lo)}")
    if n > MAX_POINTS:
        raise JobError(f"range {item!r} has {n} values: at most {MAX_POINTS}")
    return [format((lo + i * step).normalize(), "f") for i in range(n)]  # 10, not 1E+1


def sweep(grid: str, *, vs: str, games: int, preset: str | None = None, rules=(), seed: int = 0, hand_limit: int = 1000,
          confirm: int | None = None, metric: str = "win", out=None, threads: int | None = None,
          engine: str = "local", scheduler: str | None = None, echo: Callable[[str], None] = print):
    """Play the sweep ``grid`` against ``vs``: every value a duplicate match of ``games`` deals (seed ``seed``,
    the same deals for every value; without partnerships a rotation of ``games`` deals), then the best value
    once more on ``confirm`` fresh deals (seed + 1; 0 skips it; default ``games``). Writes ``sweep.csv`` and
    ``sweep.png`` into ``out`` (the runs are kept there too) and returns (points, confirmation result or None). ``preset`` defaults to the game's default
    preset, and the output says so."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from tricksim.analysis.games.spades.compare import duplicate_match_runs
    from tricksim.analysis.games.spades.cutthroat import rotation_figures
    from tricksim.analysis.games.spades.sweep import (
        METRICS,
        RotationGain,
        SweepPoint,
        best_index,
        family_level,
        format_sweep,
        sweep_table,
    )
    from tricksim.analysis.io import AnalysisError, atomic_output
    from tricksim.analysis.parallel import Engine
    from tricksim.analysis.plots import save_figure
    from tricksim.jobs import match_header
    from tricksim.jobs.spades.cutthroat import rotation_runs, with_field
    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.family import family
    from tricksim.simulator.games.spades.rules import build_rules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError, parse_spec

    if metric not in METRICS:
        raise JobError(f"invalid metric {metric!r}: allowed {' | '.join(METRICS)}")
    name, fixed, axes = parse_grid(grid)
    preset_given = preset is not None
    preset = preset or family(GAME).default_preset
    grid_values = [dict(zip([k for k, _ in axes], combo)) for combo in itertools.product(*(v for _, v in axes))]
    try:
        rule_set = build_rules(preset, rules)
        baseline = parse_spec(vs)
        grid_seats = [parse_spec(f"{name}:" + ",".join(f"{k}={v}" for k, v in {**fixed, **values}.items()))
                      for values in grid_values]
    except (RulesError, StrategyError) as e:
        raise JobError(str(e)) from None
    for seat in (baseline, *grid_seats):  # a strategy the rules refuse (pimc without partnerships): before any run
        RunConfig(rules=rule_set, preset=preset, seats=(seat,) * rule_set.seats, seed=seed, mode="games", count=games,
                  hand_limit=hand_limit)
    same = [seat.spec == baseline.spec for seat in grid_seats]  # the baseline itself: a match against itself
    if all(same):
        raise JobError(f"every value of {grid!r} is the baseline {vs!r} itself: sweep values that differ from it")
    base = Path(out or f"data/sweep/{name}-{'-'.join(k for k, _ in axes)}-{preset}-seed{seed}")
    level = family_level(len(grid_values))
    n = rule_set.seats
    echo(f"sweep {grid} against {vs}: {len(grid_values)} values, each in a "
         + ("duplicate match (every deal played twice, seats swapped)" if rule_set.partnerships else
            (f"rotation (each player alone: every deal played on {n + 1} tables, the value alone in each of the {n} "
             f"seats in turn against {vs}, and a field all {vs})" if with_field(rule_set) else
             f"rotation (each player alone: every deal played on 2 tables, the value in each seat in turn against "
             f"{vs}, a duplicate pair)")))
    for line in match_header(game=GAME, preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                             count=games, unit="deals a value", seats=[baseline]):
        echo(line)

    def rotation(seat, seed_, games_, tag, cluster, conf_levels):
        itself = seat.spec == baseline.spec  # every table would be the field's: the field alone, n times over
        field, seat_dirs = rotation_runs(seat, baseline, rules=rule_set, preset=preset, games=games_, seed=seed_,
                                         base=base / tag, hand_limit=hand_limit, threads=threads, engine=engine,
                                         scheduler=cluster.scheduler_address, field_only=itself,
                                         field=itself or with_field(rule_set))
        return [RotationGain.of(rotation_figures(field, seat_dirs, conf=c, itself=itself)) for c in conf_levels]

    def match(seat, seed_, games_, tag, cluster, conf_levels):
        if not rule_set.partnerships:
            return rotation(seat, seed_, games_, tag, cluster, conf_levels)
        dirs = []
        for half, seats in (("ab", (seat, baseline)), ("ba", (baseline, seat))):
            d = base / f"{tag}-{half}"
            cfg = RunConfig(rules=rule_set, preset=preset, seats=seats * 2, seed=seed_, mode="games", count=games_,
                            hand_limit=hand_limit)
            run_kept(cfg, d, threads, engine=engine, scheduler=cluster.scheduler_address)
            dirs.append(d)
        return [duplicate_match_runs(*dirs, a=seat.label, b=baseline.label, conf=c, engine=cluster, check_deals=False)
                for c in conf_levels]

    points, confirmation = [], None
    try:
        with Engine(engine, scheduler) as cluster:
            for i, (values, seat) in enumerate(zip(grid_values, grid_seats)):
                echo(f"[{i + 1}/{len(grid_values)}] {', '.join(f'{k}={v}' for k, v in values.items())}"
                     + (" (= baseline)" if same[i] else ""))
                r, s = match(seat, seed, games, f"point{i}", cluster, (0.95, level))
                points.append(SweepPoint(values=values, result=r, simultaneous=s, is_baseline=same[i]))
            confirm = games if confirm is None else confirm
            if confirm:
                i = best_index(points, metric)  # never the baseline itself
                best, seat = points[i], grid_seats[i]
                echo(f"confirmation: {best.label} on {confirm:,} fresh deals (seed {seed + 1})")
                (confirmation,) = match(seat, seed + 1, confirm, "confirm", cluster, (0.95,))
    except (AnalysisError, StrategyError) as e:
        raise JobError(str(e)) from None
    text = format_sweep(points, baseline=vs, metric=metric, confirm=confirmation, header=())
    table = sweep_table(points, metric)
    with atomic_output(base / "sweep.csv") as tmp:
        table.to_csv(tmp, index=False)
    fig = Figure(figsize=(11, 4.2) if len(axes) == 1 else (7, 5.5), layout="constrained")
    from tricksim.analysis.games.spades.sweep import plot_sweep

    plot_sweep(fig, points, [k for k, _ in axes], baseline=vs, metric=metric)
    save_figure(fig, base / "sweep.png", dpi=110)
    echo(text)
    echo(f"wrote {base / 'sweep.csv'} and {base / 'sweep.png'}")
    return points, confirmation
