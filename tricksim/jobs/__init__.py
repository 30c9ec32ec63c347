"""Study jobs: orchestration that combines the engine, the strategies and the analysis.

The command line calls these; so can a notebook. Each job validates its input
and raises ``JobError`` (a one-line message) for bad input.

One folder per game, as in ``simulator/games`` and ``analysis/games``: ``jobs/<game>/`` holds that game's
jobs, and its ``__init__.py`` defines ``JOBS``, a :class:`GameJobs` that says what the API asks of the game;
:func:`jobs_of` finds it by the game's name. This module keeps what every game's jobs share.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tricksim.simulator.errors import JobError, option
from tricksim.simulator.games import game_folders

__path__ += game_folders("tricksim/jobs")  # the games kept outside the repository (simulator/games/__init__.py)

__all__ = ["GameJobs", "JobError", "jobs_of", "labelled_seats", "match_header", "names", "run_kept"]


@dataclass(frozen=True)
class GameJobs:
    """What the jobs of one game provide to the API."""

    # strategies played against each other on the same deals (``tricksim compare``):
    # (specs, *, count, preset, rules, seed, hand_limit, out, threads, engine, scheduler, echo) -> results,
    # ``count`` of the game's ``match_unit``
    match: Callable[..., dict]
    match_unit: str                    # what a match counts (``compare --UNIT N``): games, deals, ...
    match_help: str                    # what N of them are, for the help
    # the game's own functions of the Python API (``tricksim.<name>``), name -> "module:function"
    api: Mapping[str, str] = field(default_factory=dict)
    # the game's variant atlas (``tricksim atlas GAME``, ``tricksim.atlas(GAME, ...)``): (**options) -> result,
    # the options the game's own (it checks them); None: the game has no atlas yet
    atlas: Callable[..., object] | None = None


def names() -> tuple[str, ...]:
    """The games with jobs: every folder of ``tricksim/jobs``."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def jobs_of(game: str) -> GameJobs:
    """The jobs record of ``game``; raises JobError naming the games with jobs."""
    if game not in names():
        raise JobError(f"no study jobs for game {game!r}: allowed {' | '.join(names())}")
    return importlib.import_module(f"{__name__}.{game}").JOBS


def run_kept(cfg, d, threads=None, *, engine: str = "local", scheduler: str | None = None) -> None:
    """Run ``cfg`` into folder ``d`` for a study (on ``engine``): the same run already there is reused (an
    interrupted one finished by --resume); a different one, or one written before runs had ids (which cannot be
    resumed), is replaced."""
    from tricksim.analysis.parallel import current_timeout
    from tricksim.simulator.engine import RunError, run
    from tricksim.simulator.rundir import RunDirError, is_identified, read_manifest, same_data

    try:
        try:
            manifest = read_manifest(d) if d.exists() else {}
            old = manifest.get("plan")
            same = isinstance(old, dict) and same_data(cfg.upgrade_plan(old), cfg.plan()) and is_identified(manifest)
        except RunDirError:
            same = False
        run(cfg, d, resume=same, overwrite=d.exists() and not same, threads=threads, engine=engine,
            scheduler=scheduler, timeout=current_timeout())
    except (RunError, RunDirError) as e:
        raise JobError(str(e)) from None


def match_header(*, game: str, preset: str, preset_given: bool, rule_set, seed: int, count: int, unit: str,
                 seats: list) -> list[str]:
    """What every comparison prints first: the preset (and whether it was chosen or the default), the rules
    that differ from it, the seed, how many games or deals, and what each label stands for."""
    from tricksim.simulator.family import family

    base = family(game).presets[preset].to_dict()
    diff = {k: v for k, v in rule_set.to_dict().items() if base.get(k) != v}
    lines = [f"preset {preset}" + ("" if preset_given else f" (the default: choose one with {option('preset', None)})")
             + "; rules " + (", ".join(f"{k}={v}" for k, v in diff.items()) + " on top of it" if diff
                             else "as the preset")
             + f"; seed {seed}; {count:,} {unit}"]
    for s in seats:
        if s.label != s.short_spec:
            lines.append(f"{s.label} = {s.short_spec}")
    return lines


def labelled_seats(specs, game: str):
    """The seat strategies of ``specs`` ([LABEL=]SPEC each) and their labels, which must differ."""
    from tricksim.strategies.registry import parse_spec

    seats = [parse_spec(s, game) for s in specs]
    labels = [s.label for s in seats]
    for x in labels:
        if labels.count(x) > 1:
            raise JobError(f"two of the strategies compared are called {x!r}: give each a label of its own, "
                           f"e.g. a={x} b={x}")
    return seats, labels
