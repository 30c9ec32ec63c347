"""The Spades variant atlas (``tricksim atlas spades``): every preset and rule variant played in duplicate by
the same two players, one report side by side (the figures: ``analysis/games/spades/atlas.py``).

The variants are data. A variant is written ``PRESET`` or ``PRESET+flag=value[+flag=value...]`` (any preset
of the family, any rule flag: ``tricksim rules spades``). By default the atlas plays every preset the family
defines (a new preset joins it by existing) and the flag variants of :data:`FLAG_VARIANTS` (a new variant
joins it by a line there). Each variant's two runs are kept under ``OUT/runs/<variant>-ab`` and ``-ba``: a
run already there with the same plan is reused, an interrupted one finished.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import JobError, run_kept

GAME = "spades"

#: the flag variants the atlas plays besides every preset (``PRESET+flag=value``)
FLAG_VARIANTS = (
    "cardems+jokers=true",            # Joker Spades: big and little joker the two highest spades
    "classic+mercy=-200",             # a mercy rule: a team at -200 or below loses
    "zone+nil=false",                 # the "No Nil" variant of the cardgames.zone table
)
#: the two players of every duplicate match: the stronger, then the weaker
PLAYERS = ("heuristic", "simple")


def default_variants() -> tuple[str, ...]:
    """Every preset of the family, then :data:`FLAG_VARIANTS`."""
    from tricksim.simulator.family import family

    return (*family(GAME).presets, *FLAG_VARIANTS)


def parse_variant(text: str):
    """``PRESET[+flag=value...]`` -> (preset, [flag=value, ...], rules), checked; raises JobError naming the
    allowed presets or the flag's allowed values."""
    from tricksim.simulator.family import family
    from tricksim.simulator.games.spades.rules import build_rules
    from tricksim.simulator.rules import RulesError

    preset, *flags = [p.strip() for p in text.strip().split("+")]
    presets = family(GAME).presets
    if preset not in presets:
        raise JobError(f"unknown variant {text!r}: a variant is PRESET[+flag=value...] with PRESET one of "
                       f"{' | '.join(presets)} (flags: tricksim rules {GAME})")
    try:
        return preset, flags, build_rules(preset, flags)
    except RulesError as e:
        raise JobError(f"variant {text!r}: {e}") from None


def parse_variants(items) -> list[str]:
    """A list (or comma-separated text) of variants, each checked, none twice; None: :func:`default_variants`."""
    if items is None:
        return list(default_variants())
    if isinstance(items, str):
        items = items.split(",")
    names = [str(x).strip() for x in items if str(x).strip()]
    if not names:
        raise JobError(f"no variant given: allowed PRESET[+flag=value...], PRESET one of "
                       f"{' | '.join(_presets())}")
    for x in names:
        parse_variant(x)
        if names.count(x) > 1:
            raise JobError(f"variant {x!r} is given twice")
    return names


def _presets() -> tuple[str, ...]:
    from tricksim.simulator.family import family

    return tuple(family(GAME).presets)


def atlas(*, games: int, variants=None, players=PLAYERS, seed: int = 0, hand_limit: int = 1000, out=None,
          threads: int | None = None, progress: bool = True, echo: Callable[[str], None] = print):
    """Play every variant (``variants``; default :func:`default_variants`) as a duplicate match of ``games``
    deals between ``players`` (stronger, weaker), then write the atlas (``atlas.html``, ``atlas.md``,
    ``atlas.csv`` and the charts) into ``out`` (default ``data/atlas/spades-games<N>-seed<S>``); returns the
    :class:`~tricksim.analysis.games.spades.atlas.AtlasResult`. A progress bar counts the games of the whole
    atlas."""
    from tqdm import tqdm

    from tricksim.analysis.games.spades.atlas import variant_figures, write_atlas
    from tricksim.analysis.io import AnalysisError
    from tricksim.jobs import labelled_seats
    from tricksim.simulator.engine import RunConfig
    from tricksim.strategies.registry import StrategyError

    names = parse_variants(variants)
    if len(players) != 2:
        raise JobError(f"the atlas plays two players, the stronger then the weaker: got {len(players)}")
    try:
        seats, labels = labelled_seats(list(players), GAME)
    except StrategyError as e:
        raise JobError(str(e)) from None
    strong, weak = seats
    base = Path(out or f"data/atlas/{GAME}-games{games}-seed{seed}")
    many = f"{len(names)} variant" + ("s" if len(names) != 1 else "")
    echo(f"atlas: {many} ({', '.join(names)}), each a duplicate match of {games:,} deals "
         f"({labels[0]} vs {labels[1]}, seed {seed}) kept under {base}")
    t0 = time.perf_counter()
    figures = []
    bar = tqdm(total=2 * games * len(names), unit="game", unit_scale=True, disable=not progress,
               desc="atlas")
    try:
        for name in names:
            preset, _flags, rules = parse_variant(name)
            dirs = []
            for tag, (x, y) in (("ab", (strong, weak)), ("ba", (weak, strong))):
                d = base / "runs" / f"{name}-{tag}"
                bar.set_postfix_str(f"{name} {tag}")
                cfg = RunConfig(rules=rules, preset=preset, seats=(x, y) * 2, seed=seed, mode="games", count=games,
                                hand_limit=hand_limit)
                run_kept(cfg, d, threads)
                dirs.append(d)
                bar.update(games)
            figures.append(variant_figures(name, *dirs, strong=labels[0], weak=labels[1]))
        bar.close()
        result = write_atlas(figures, base, title=f"{GAME.capitalize()} variant atlas: {many}, "
                             f"{games:,} deal pairs each, seed {seed}")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    finally:
        bar.close()
    echo(f"wrote {result.html}, {result.markdown} and {len(result.charts)} charts "
         f"({time.perf_counter() - t0:.0f} s)")
    return result
