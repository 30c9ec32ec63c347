"""The Spades variant atlas (``tricksim atlas spades``): every preset and rule variant played in duplicate by
the same two players, one report side by side (the figures: ``analysis/games/spades/atlas.py``).

The variants are data (``tricksim.jobs.atlas``): every preset of the family and the flag variants of
:data:`FLAG_VARIANTS` (a new variant joins by a line there). Each variant's two runs are kept under
``OUT/runs/<variant>-ab`` and ``-ba``: a run already there with the same plan is reused, an interrupted one
finished. A variant without partnerships (``cutthroat``, ``cutthroat3``: each player alone) has no teams to
swap: it is a rotation (``jobs.spades.cutthroat``), n + 1 runs ``OUT/runs/<variant>-field``, ``-seat0`` ...
``-seat<n-1>`` (n the rules' ``seats``). With two players (``twohanded``) the two seat tables are already a
duplicate pair, the seats swapped: ``-seat0`` and ``-seat1``, no field.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import JobError, run_kept
from tricksim.jobs import atlas as common
from tricksim.jobs.spades.cutthroat import rotation_runs, tables, with_field

GAME = "spades"

#: Joker Spades (big and little joker the two highest spades): a variant of source 002, whose preset is zone
#: (RULES.md 1.6; table 1.7 lists jokers as a variant under zone only)
JOKER_VARIANT = "zone+jokers=true"

#: the flag variants the atlas plays besides every preset (``PRESET+flag=value``)
FLAG_VARIANTS = (
    JOKER_VARIANT,
    "classic+mercy=-200",             # a mercy rule: a team at -200 or below loses
    "zone+nil=false",                 # the "No Nil" variant of the cardgames.zone table
    # issue #28's variants (TricksterBots' Spades, not source 002), on the cardems base as the presets suicide, whiz
    # and mirror
    "cardems+deck=joker_deuce_ace",   # Joker-Joker-Deuce-Ace: BJ LJ 2♠ A♠ ...
    "cardems+deck=joker_deuce_deuce",  # Joker-Joker-Deuce-Deuce: BJ LJ 2♠ 2♦ A♠ ...
    "cardems+big_bid_threshold=10",   # ten for two hundred: a team contract of 10 or more made scores 200
    "cardems+zero_bid=zero",          # nil or zero: a bid of 0 is an ordinary zero-trick contract, no Nil
)
#: the two players of every duplicate match: the stronger, then the weaker
PLAYERS = ("heuristic", "simple")


def n_tables(rules) -> int:
    """Tables a variant plays: a duplicate pair, or without partnerships a rotation (the field and one a seat; two
    players: the two seat tables, a pair)."""
    return 2 if rules.partnerships else len(tables(rules.seats, with_field(rules)))


def default_variants() -> tuple[str, ...]:
    """Every preset of the family, at every table size (four, cutthroat3's three, twohanded's two), then
    :data:`FLAG_VARIANTS`: the published atlas (docs/atlas.md, 15 minutes on 2 cores at most) is timed with
    these."""
    return (*common.presets(GAME), *FLAG_VARIANTS)


def parse_variant(text: str):
    """``PRESET[+flag=value...]`` -> (preset, [flag=value, ...], rules), checked (``jobs.atlas.parse_variant``)."""
    return common.parse_variant(GAME, text)


def parse_variants(items) -> list[str]:
    """A list (or comma-separated text) of variants, each checked, none twice; None: :func:`default_variants`."""
    names = common.parse_variants(GAME, items, default_variants())
    for name in names:
        parse_variant(name)
    return names


def atlas(*, games: int, variants=None, players=PLAYERS, seed: int = 0, hand_limit: int = 1000, out=None,
          threads: int | None = None, engine: str = "local", scheduler: str | None = None, progress: bool = True,
          echo: Callable[[str], None] = print):
    """Play every variant (``variants``; default :func:`default_variants`) as a duplicate match of ``games``
    deals between ``players`` (stronger, weaker), or without partnerships as a rotation of ``games`` deals
    (``jobs.spades.cutthroat``), then write the atlas (``atlas.html``, ``atlas.md``,
    ``atlas.csv`` and the charts) into ``out`` (default ``data/atlas/spades-games<N>-seed<S>``); returns the
    :class:`~tricksim.analysis.atlas.AtlasResult`. A progress bar counts the games of the whole atlas.
    ``engine="dask"``: the runs are simulated on one Dask cluster (a local one, or that at ``scheduler``)."""
    from tricksim.analysis.games.spades.atlas import alone_variant_figures, variant_figures, write_atlas
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.simulator.engine import RunConfig

    names = parse_variants(variants)
    plan = [(name, *parse_variant(name)) for name in names]
    seats, labels = common.atlas_players(GAME, players)
    strong, weak = seats
    base = Path(out or f"data/atlas/{GAME}-games{games}-seed{seed}")
    many = f"{len(names)} variant" + ("s" if len(names) != 1 else "")
    alone = [name for name, _preset, _flags, rules in plan if not rules.partnerships]
    echo(f"atlas: {many} ({', '.join(names)}), each a duplicate match of {games:,} deals "
         f"({labels[0]} vs {labels[1]}, seed {seed}) kept under {base}"
         + (f"; without partnerships ({', '.join(alone)}) a rotation of {games:,} deals: {labels[0]} alone in each "
            f"seat against the others {labels[1]}, and a field all {labels[1]} (two players: the two seat tables, "
            "a duplicate pair)" if alone else ""))
    t0 = time.perf_counter()
    figures = []
    total = games * sum(n_tables(rules) for _name, _preset, _flags, rules in plan)
    try:
        with common.progress_bar(total, "game", progress) as bar, Engine(engine, scheduler) as cluster:
            for name, preset, _flags, rules in plan:
                if not rules.partnerships:
                    def table_done(tag, name=name):
                        bar.set_postfix_str(f"{name} {tag}")
                        bar.update(games)

                    field, seat_dirs = rotation_runs(
                        strong, weak, rules=rules, preset=preset, games=games, seed=seed,
                        base=base / "runs" / name, hand_limit=hand_limit, threads=threads, engine=engine,
                        scheduler=cluster.scheduler_address, on_table=table_done, field=with_field(rules))
                    figures.append(alone_variant_figures(name, field, seat_dirs, strong=labels[0], weak=labels[1]))
                    continue
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
