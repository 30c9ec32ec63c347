"""The Python API: what the command line does, as functions for notebooks and scripts.

    import tricksim
    run = tricksim.simulate("spades", preset="classic", games=10_000, seed=1,
                            seats={0: "heuristic", 1: "simple", 2: "heuristic", 3: "simple"})
    run.hands()                      # pandas DataFrame (arrow=True: a pyarrow Table)
    tricksim.nil(run, by="spades")   # a table; figure=True also returns a matplotlib Figure

Every function validates its input and raises :class:`TricksimError` (a ``ValueError`` with a one-line
message) for bad input, as the command line prints it. The command line (``tricksim.cli``) parses its
options and calls these functions.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from tricksim.jobs import args
from tricksim.simulator.errors import TricksimError, option
from tricksim.simulator.rules import override_list

__all__ = [
    "TricksimError",
    "atlas",
    "compare",
    "default_strategy",
    "execute",
    "open_run",
    "plan",
    "report",
    "seat_strategies",
    "simulate",
    "summary",
]


def default_strategy(game: str | None = None) -> str:
    """The game's (default: the default game's) preferred strategy among those installed."""
    import importlib.util

    from tricksim.simulator.family import default_game, family

    game = args.text("game", game, none=True) or default_game()
    names = family(game).default_strategies
    return next((n for n in names if importlib.util.find_spec(f"tricksim.strategies.{game}.{n}")), names[-1])


def _preset_seats(game: str, preset: str | None = None) -> int:
    """The players of ``game`` under ``preset`` (default: the game's default preset): the preset's rules' own
    ``seats`` where they have one (Tarot: 3 or 4), else the family's; an unknown preset: the family's (the run's
    checks then name it)."""
    from tricksim.simulator.family import family

    fam = family(game)
    rules = fam.presets.get(preset or fam.default_preset)
    return getattr(rules, "seats", fam.seats)


def seat_strategies(game: str, seats=None, *, teams: Mapping[int, str] | None = None, default: str | None = None,
                    preset: str | None = None) -> tuple:
    """The strategy of every seat. ``seats``: None (the game's default strategy everywhere), one spec for
    every seat, a list of one spec a seat, or {seat: spec} (seats not named: the default); ``teams``
    (partnership games): {team: spec} for both seats of team 0 (seats 0, 2) or 1 (seats 1, 3), before
    ``seats`` (a dict) names single seats; ``default``: the strategy of the seats named nowhere (default:
    the game's own); ``preset``: the seats are those of the game under that preset (``_preset_seats``). Specs are
    ``[LABEL=]NAME[:param=value,...]`` strings or parsed seat strategies."""
    from tricksim.simulator.family import family
    from tricksim.strategies.registry import check_labels, parse_spec

    fam = family(args.text("game", game))
    n = _preset_seats(fam.name, preset)
    _seats_form(seats, teams, default)
    if teams and not fam.partnerships:
        raise TricksimError(f"{game} has no teams (teams are for partnership games): give each seat its strategy")
    if teams and not getattr(fam.presets.get(preset or fam.default_preset), "partnerships", True):
        raise TricksimError(f"preset {preset} has no teams (each player alone): give each seat its strategy "
                            f"(--seat N=SPEC)")
    default = seats if isinstance(seats, str) else default or default_strategy(game)
    specs = [default] * n
    for t, spec in (teams or {}).items():
        if t not in (0, 1):
            raise TricksimError(f"team {t!r} does not exist: team 0 = seats 0,2; team 1 = seats 1,3")
        specs[t] = specs[t + 2] = spec
    if isinstance(seats, Mapping):
        for s, spec in seats.items():
            if not (isinstance(s, int) and 0 <= s < n):
                raise TricksimError(f"seat {s!r} does not exist: seats are 0 to {n - 1}")
            specs[s] = spec
    elif seats is not None and not isinstance(seats, str):
        specs = list(seats)
        if len(specs) != n:
            raise TricksimError(f"{len(specs)} strategies given for {n} seats")
    parsed = tuple(parse_spec(s, game) if isinstance(s, str) else s for s in specs)
    check_labels(parsed)
    return parsed


def _seats_form(seats, teams, default) -> None:
    """The types of :func:`seat_strategies`' arguments (the game checks the seat numbers and the specs)."""
    if isinstance(seats, Mapping):
        for spec in seats.values():
            args.spec("seats", spec)
    elif seats is not None and not isinstance(seats, str):
        if not isinstance(seats, (list, tuple)):
            raise TricksimError(f"{option('seats', None)} must be None, a spec, a list of one spec a seat or "
                                f"{{seat: spec}}: got {seats!r} ({type(seats).__name__})")
        for spec in seats:
            args.spec("seats", spec)
    if teams is not None:
        if not isinstance(teams, Mapping):
            raise TricksimError(f"{option('teams', None)} must be None or {{team: spec}}: got {teams!r} "
                                f"({type(teams).__name__})")
        for t, spec in teams.items():
            if isinstance(t, bool) or not isinstance(t, int):
                raise TricksimError(f"team {t!r} does not exist: team 0 = seats 0,2; team 1 = seats 1,3")
            args.spec("teams", spec)
    args.spec("default", default) if default is not None else None


HAND_LIMIT = 1000  # hands after which a game ends with end='limit', when no hand_limit is given


def plan(game: str | None = None, *, preset: str | None = None, rules=None, seed: int = 0, seats=None,
         teams: Mapping[int, str] | None = None, hand_limit: int | None = None, record_plays: bool = False,
         shard_size: int | None = None, **count: int):
    """A run's configuration, checked (``RunConfig``): ``game`` (default: the default game); one count named
    as one of the game's modes (``hands=N`` or ``games=N`` for Spades, ``deals=N`` for Tarot:
    ``family(game).modes``); ``rules``: a dict of rule flags or a list of ``"key=value"``; ``seats``,
    ``teams``: see :func:`seat_strategies`; ``hand_limit`` (default 1000): the hands after which a game ends,
    for the games that play whole games (a ``games`` mode)."""
    from tricksim.simulator.engine import MAX_COUNT, MAX_SEED, RunConfig
    from tricksim.simulator.family import default_game, family

    game = args.text("game", game, none=True) or default_game()
    fam = family(game)
    args.text("preset", preset, none=True)
    args.rules(rules)
    args.whole("seed", seed, 0, MAX_SEED)
    args.whole("hand_limit", hand_limit, 1, 100_000, none=True)
    args.flag("record_plays", record_plays)
    args.whole("shard_size", shard_size, 1, 1 << 24, none=True)
    count = args.counts(count, MAX_COUNT)
    given = [m for m, k in count.items() if k is not None]
    if len(given) != 1 or given[0] not in fam.modes:
        raise TricksimError(f"{game} needs exactly one of " + " or ".join(option(m, "N") for m in fam.modes))
    mode = given[0]
    if hand_limit is not None and "games" not in fam.modes:
        raise TricksimError(f"{game} plays no whole games (it counts {' or '.join(fam.modes)}): "
                            f"{option('hand_limit', None)} applies only to games that do; leave it out")
    if hand_limit is not None and mode != "games":
        raise TricksimError(f"{option('hand_limit', None)} is the most hands or deals of a game: it applies with "
                            f"{option('games', 'N')}, not {option(mode, 'N')}; leave it out")
    preset = preset or fam.default_preset
    return RunConfig(game=game, rules=fam.build_rules(preset, override_list(rules)), preset=preset,
                     seats=seat_strategies(game, seats, teams=teams, preset=preset), seed=seed, mode=mode,
                     count=count[mode],
                     hand_limit=HAND_LIMIT if hand_limit is None else hand_limit, record_plays=record_plays,
                     shard_size=shard_size)


def _execute_args(out, resume, overwrite, threads, progress, engine, scheduler) -> Path:
    """The types of :func:`execute`'s options (shared with :func:`simulate`)."""
    out = args.out_folder("out", out, none=True)
    args.flag("resume", resume)
    args.flag("overwrite", overwrite)
    args.whole("threads", threads, 1, none=True)
    args.flag("progress", progress, none=True)
    args.engine(engine, scheduler)
    return out


def execute(cfg, out: str | os.PathLike, *, resume: bool = False, overwrite: bool = False, threads: int | None = None,
            progress: bool | None = False, engine: str = "local", scheduler: str | None = None,
            timeout: float | None = None) -> dict:
    """Run ``cfg`` into ``out`` (``--resume`` / ``--overwrite`` as on the command line); returns the manifest's
    fields. An ``OSError`` while writing (a full disk) passes through: the shards written are whole; so does a
    ``ConnectionError`` on Dask (the scheduler lost, no worker left). ``timeout``: seconds the scheduler at
    ``scheduler`` has to answer (default 10)."""
    from tricksim.simulator.engine import RunConfig, run

    if not isinstance(cfg, RunConfig):
        raise TricksimError(f"cfg must be a run's configuration (tricksim.api.plan): got {type(cfg).__name__}")
    if out is None:
        raise TricksimError(f"{option('out', 'DIR')} is needed: the run directory to write")
    out = _execute_args(out, resume, overwrite, threads, progress, engine, scheduler)
    return run(cfg, out, overwrite=overwrite, resume=resume, threads=threads, progress=progress, engine=engine,
               scheduler=scheduler, timeout=timeout)


def simulate(game: str | None = None, *, preset: str | None = None, rules=None, seed: int = 0, seats=None,
             teams: Mapping[int, str] | None = None, out: str | os.PathLike | None = None,
             hand_limit: int | None = None,
             record_plays: bool = False, overwrite: bool = False, threads: int | None = None,
             shard_size: int | None = None, engine: str = "local", scheduler: str | None = None,
             timeout: float | None = None, progress: bool = False, **count: int):
    """Simulate and return the run (:class:`tricksim.analysis.io.Run`: ``.hands()``, ``.games()``).

    The options are those of :func:`plan`. ``out`` defaults to ``data/<game>-<preset>-<mode><count>-seed<seed>``.
    A run already in ``out`` with the same plan (the options, and the source hash of the code) is reused (and
    finished if it was interrupted), so a notebook cell can be run again for free; a different run there, or one
    made by other code, is only replaced with ``overwrite=True``.
    """
    from tricksim.simulator.rundir import RunDirError, plan_difference, read_manifest

    out = _execute_args(out, False, overwrite, threads, progress, engine, scheduler)
    cfg = plan(game, preset=preset, rules=rules, seed=seed, seats=seats, teams=teams, hand_limit=hand_limit,
               record_plays=record_plays, shard_size=shard_size, **count)
    out = Path(out or f"data/{cfg.game}-{cfg.preset}-{cfg.mode}{cfg.count}-seed{seed}")
    same = False
    if out.exists() and not overwrite:
        try:
            old = read_manifest(out).get("plan")
        except RunDirError:
            old = None
        same = isinstance(old, dict) and cfg.upgrade_plan(old) == cfg.plan()
        if not same:
            why = f" (it {plan_difference(cfg.upgrade_plan(old), cfg.plan())[0]})" if isinstance(old, dict) else ""
            raise TricksimError(f"{out} holds another run{why}: pass overwrite=True to replace it, or another out")
    written = None
    if not (same and read_manifest(out).get("status") == "complete"):
        written = execute(cfg, out, resume=same, overwrite=overwrite and out.exists(), threads=threads,
                          progress=progress, engine=engine, scheduler=scheduler, timeout=timeout)["run_id"]
    run = open_run(out)
    if written is not None and run.run_id != written:
        raise RunDirError(f"{out} was replaced by another process after this run ended; run it again")
    return run


def open_run(path: str | os.PathLike):
    """An existing run directory, checked (every shard named in its manifest, with its row count)."""
    from tricksim.analysis.io import open_run as _open

    return _open(args.run_or_path("path", path))


def summary(run, *, engine: str = "local", scheduler: str | None = None, timeout: float | None = None) -> str:
    """The text ``tricksim summary`` prints (``timeout``: seconds the scheduler has to answer, default 10)."""
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.analysis.summary import summarize_run

    args.run_or_path("run", run)
    args.engine(engine, scheduler)
    with scheduler_timeout(timeout):
        return summarize_run(run, engine=engine, scheduler=scheduler)


def compare(*specs: str, game: str | None = None, preset: str | None = None, rules=None, seed: int = 0,
            hand_limit: int | None = None, out=None, threads: int | None = None, engine: str = "local",
            scheduler: str | None = None, timeout: float | None = None, echo=None, **count: int) -> dict:
    """Duplicate matches between strategies on the same deals, as the game plays them (Spades: {(a, b):
    DuplicateResult}, three or more specs a round robin; Spades without partnerships (cutthroat, cutthroat3):
    {(a, b): RotationFigures}, a alone in each seat in turn against b; Tarot: duplicate rotations); ``game`` defaults to
    the default game; the size is counted in the game's match unit (``games=N`` for Spades, ``deals=N`` for
    Tarot: ``jobs_of(game).match_unit``; default 2000); ``echo`` receives the text the command line prints."""
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.jobs import jobs_of
    from tricksim.simulator.engine import MAX_COUNT, MAX_SEED
    from tricksim.simulator.family import default_game

    for spec in specs:
        if not isinstance(spec, str):
            raise TricksimError(f"a strategy to compare must be a spec string [LABEL=]NAME[:param=value,...]: "
                                f"got {spec!r} ({type(spec).__name__})")
    game = args.text("game", game, none=True) or default_game()
    args.text("preset", preset, none=True)
    args.rules(rules)
    args.whole("seed", seed, 0, MAX_SEED)
    args.whole("hand_limit", hand_limit, 1, 100_000, none=True)
    args.out_folder("out", out, none=True)
    args.whole("threads", threads, 1, none=True)
    args.engine(engine, scheduler)
    echo = args.callback("echo", echo) or (lambda _text: None)
    jobs = jobs_of(game)
    given = {k: v for k, v in args.counts(count, MAX_COUNT).items() if v is not None}
    if set(given) - {jobs.match_unit}:
        raise TricksimError(f"a {game} match is counted in {jobs.match_unit}: give {option(jobs.match_unit, 'N')}, "
                            f"not {' or '.join(option(k, None) for k in sorted(set(given) - {jobs.match_unit}))}")
    with scheduler_timeout(timeout):
        return jobs.match(list(specs), count=given.get(jobs.match_unit, DEFAULT_MATCH), preset=preset,
                          rules=override_list(rules), seed=seed, hand_limit=hand_limit, out=out, threads=threads,
                          engine=engine, scheduler=scheduler, echo=echo)


DEFAULT_MATCH = 2000  # games or deals of a match when none is given


def atlas_games() -> tuple[str, ...]:
    """The games with a variant atlas (``GameJobs.atlas``)."""
    from tricksim.jobs import jobs_of, names

    return tuple(g for g in names() if jobs_of(g).atlas is not None)


def atlas(game: str | None = None, **options):
    """The variant atlas of ``game`` (default: the default game): every rule variant played in duplicate by the
    same players, one report (HTML, Markdown, charts) with every figure's interval and n. The options are the
    game's own (``tricksim atlas GAME --help``); returns the game's atlas result."""
    from tricksim.jobs import jobs_of
    from tricksim.simulator.family import default_game

    game = args.text("game", game, none=True) or default_game()
    if game not in atlas_games():
        raise TricksimError(f"no variant atlas for game {game!r}: allowed {' | '.join(atlas_games())}")
    return jobs_of(game).atlas(**options)


def report(runs: Sequence, out: str | os.PathLike, *, title: str = "tricksim report", engine: str = "local",
           scheduler: str | None = None, timeout: float | None = None):
    """The side-by-side report of ``runs`` written into ``out`` (HTML, Markdown, charts); returns a
    ``ReportResult`` with the paths, the tables (DataFrames) and the statistics."""
    from tricksim.analysis.parallel import scheduler_timeout
    from tricksim.analysis.report import build_report

    runs = args.runs("runs", runs)
    out = args.out_folder("out", out)
    args.text("title", title)
    args.engine(engine, scheduler)
    with scheduler_timeout(timeout):
        return build_report(runs, out, title=title, engine=engine, scheduler=scheduler)


def game_functions() -> dict:
    """Every game's own functions of the API, name -> "module:function" (``GameJobs.api``)."""
    from tricksim.jobs import jobs_of, names

    found: dict = {}
    for game in names():
        for name, target in jobs_of(game).api.items():
            assert name not in found and name not in globals(), f"two games define the API function {name!r}"
            found[name] = target
    return found


def __getattr__(name: str):
    """``tricksim.api.nil`` and the other functions a game adds (``GameJobs.api``), imported on first use."""
    import importlib

    target = game_functions().get(name) if not name.startswith("_") else None
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def __dir__():
    return sorted([*globals(), *game_functions()])
