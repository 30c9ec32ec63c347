"""The Spades variant atlas (``tricksim atlas spades``): every preset and rule variant played in duplicate by
the same two players, one report side by side (the figures: ``analysis/games/spades/atlas.py``).

The variants are data (``tricksim.jobs.atlas``): every preset of the family and the flag variants of
:data:`FLAG_VARIANTS` (a new variant joins by a line there). Each variant's two runs are kept under
``OUT/runs/<variant>-ab`` and ``-ba``: a run already there with the same plan is reused, an interrupted one
finished.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import JobError, run_kept
from tricksim.jobs import atlas as common

GAME = "spades"

#: the flag variants the atlas plays besides every preset (``PRESET+flag=value``)
FLAG_VARIANTS = (
    "cardems+jokers=true",            # Joker Spades: big and little joker the two highest spades
    "classic+mercy=-200",             # a mercy rule: a team at -200 or below loses
    "zone+nil=false",                 # the "No Nil" variant of the cardgames.zone table
)
#: the two players of every duplicate match: the stronger, then the weaker
PLAYERS = ("heuristic", "simple")
#: why a preset without partnerships (cutthroat) is not in the atlas: its figures are a team's
SKIP_ALONE = ("the atlas plays two teams in duplicate and charts team figures; a player alone has none of them "
              "(cutthroat's evidence: docs/strategy-evidence.md)")


def alone_presets() -> tuple[str, ...]:
    """The presets without partnerships (each player alone), which the atlas skips (:data:`SKIP_ALONE`)."""
    from tricksim.simulator.family import family

    return tuple(p for p, rules in family(GAME).presets.items() if not rules.partnerships)


def default_variants() -> tuple[str, ...]:
    """Every preset of the family with partnerships, then :data:`FLAG_VARIANTS`."""
    return (*(p for p in common.presets(GAME) if p not in alone_presets()), *FLAG_VARIANTS)


def parse_variant(text: str):
    """``PRESET[+flag=value...]`` -> (preset, [flag=value, ...], rules), checked (``jobs.atlas.parse_variant``)."""
    return common.parse_variant(GAME, text)


def parse_variants(items) -> list[str]:
    """A list (or comma-separated text) of variants, each checked, none twice; None: :func:`default_variants`.
    A variant without partnerships is refused (:data:`SKIP_ALONE`)."""
    names = common.parse_variants(GAME, items, default_variants())
    for name in names:
        if not parse_variant(name)[2].partnerships:
            raise JobError(f"variant {name!r} has no partnerships (each player alone): {SKIP_ALONE}")
    return names


def atlas(*, games: int, variants=None, players=PLAYERS, seed: int = 0, hand_limit: int = 1000, out=None,
          threads: int | None = None, engine: str = "local", scheduler: str | None = None, progress: bool = True,
          echo: Callable[[str], None] = print):
    """Play every variant (``variants``; default :func:`default_variants`) as a duplicate match of ``games``
    deals between ``players`` (stronger, weaker), then write the atlas (``atlas.html``, ``atlas.md``,
    ``atlas.csv`` and the charts) into ``out`` (default ``data/atlas/spades-games<N>-seed<S>``); returns the
    :class:`~tricksim.analysis.atlas.AtlasResult`. A progress bar counts the games of the whole atlas.
    ``engine="dask"``: the runs are simulated on one Dask cluster (a local one, or that at ``scheduler``)."""
    from tricksim.analysis.games.spades.atlas import variant_figures, write_atlas
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.simulator.engine import RunConfig

    names = parse_variants(variants)
    seats, labels = common.atlas_players(GAME, players)
    strong, weak = seats
    base = Path(out or f"data/atlas/{GAME}-games{games}-seed{seed}")
    many = f"{len(names)} variant" + ("s" if len(names) != 1 else "")
    echo(f"atlas: {many} ({', '.join(names)}), each a duplicate match of {games:,} deals "
         f"({labels[0]} vs {labels[1]}, seed {seed}) kept under {base}")
    if variants is None and alone_presets():
        echo(f"atlas: skipped {', '.join(alone_presets())}: {SKIP_ALONE}")
    t0 = time.perf_counter()
    figures = []
    try:
        with common.progress_bar(2 * games * len(names), "game", progress) as bar, \
                Engine(engine, scheduler) as cluster:
            for name in names:
                preset, _flags, rules = parse_variant(name)
                dirs = []
                for tag, (x, y) in (("ab", (strong, weak)), ("ba", (weak, strong))):
                    d = base / "runs" / f"{name}-{tag}"
                    bar.set_postfix_str(f"{name} {tag}")
                    cfg = RunConfig(rules=rules, preset=preset, seats=(x, y) * 2, seed=seed, mode="games",
                                    count=games, hand_limit=hand_limit)
                    run_kept(cfg, d, threads, engine=engine, scheduler=cluster.scheduler_address)
                    dirs.append(d)
                    bar.update(games)
                figures.append(variant_figures(name, *dirs, strong=labels[0], weak=labels[1]))
        result = write_atlas(figures, base, title=f"{GAME.capitalize()} variant atlas: {many}, "
                             f"{games:,} deal pairs each, seed {seed}")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    echo(f"wrote {result.html}, {result.markdown} and {len(result.charts)} charts "
         f"({time.perf_counter() - t0:.0f} s)")
    return result
