"""The Tarot variant atlas (``tricksim atlas tarot``): every table size (preset) and rule variant played in
duplicate by the same two players, one report side by side (the figures: ``analysis/games/tarot/atlas.py``).

The variants are data (``tricksim.jobs.atlas``): every preset of the family (fft3, cardavia, fft5: three,
four and five players; a new preset joins by existing) and the flag variants of :data:`FLAG_VARIANTS` (a new
variant joins by a line there). Each variant is a duplicate rotation: its runs are kept under
``OUT/runs/<variant>-field`` (the stronger player in every seat) and ``-seat<r>`` (the weaker in seat r); a run
already there with the same plan is reused, an interrupted one finished.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import JobError, run_kept
from tricksim.jobs import atlas as common

GAME = "tarot"

#: the flag variants the atlas plays besides every preset (``PRESET+flag=value``), on the four-player table:
#: documented alternatives (docs/rules.md) that change the deals these players play. Measured on 20,000 deals
#: (seed 5, heuristic everywhere), against cardavia: poignee_hand=as_dealt changed 9.7 % of the deals' scores
#: (poignées 22 % -> 3 % of the played deals), target_oudlers=held 3.8 %, petit_sec_redeal=false 0.1 % (the
#: voided deals); discard_trumps=free, poignee_excuse=always, poignee_four_kings=never and both
#: excuse_last_trick flags changed none (the heuristic discards trumps only when forced, never shows the Excuse
#: for a trump...), so they would repeat cardavia's figures.
FLAG_VARIANTS = (
    "cardavia+excuse_lead=forbidden",   # the Excuse only as the last card held: it can no longer open a lead
    "cardavia+poignee_hand=as_dealt",   # a poignée judged on the hand as dealt: the taker's discard no longer counts
    "cardavia+target_oudlers=held",     # the target set by the oudlers held at the first trick, not those won
    "cardavia+petit_sec_redeal=false",  # a Petit sec hand is played: no redeal (rare: about 1 deal in 1,000)
)
#: the two players of every rotation, the stronger then the weaker. Tarot has two strategies, heuristic and
#: random; random bids at random (Garde contre as often as a pass), a pair so lopsided that every deal shows
#: it. The weaker here is the heuristic with the card play's three rules of thumb switched off (no charging a
#: partner's safe trick, no forcing the taker to ruff, no keeping the Petit for the last trick): the same
#: bidding, a closer pair, so that skill and luck measure the card play.
PLAYERS = ("heuristic", "plain=heuristic:charge=0,force_taker=0,petit_au_bout=0")
UNITS = ("games", "deals")  # what --games / --deals count: whole games (a session of deals) or single deals


def default_variants() -> tuple[str, ...]:
    """Every preset of the family, then :data:`FLAG_VARIANTS`."""
    return (*common.presets(GAME), *FLAG_VARIANTS)


def parse_variant(text: str):
    """``PRESET[+flag=value...]`` -> (preset, [flag=value, ...], rules), checked (``jobs.atlas.parse_variant``)."""
    return common.parse_variant(GAME, text)


def parse_variants(items) -> list[str]:
    """A list (or comma-separated text) of variants, each checked, none twice; None: :func:`default_variants`."""
    return common.parse_variants(GAME, items, default_variants())


def atlas(*, count: int, unit: str = "games", variants=None, players=PLAYERS, seed: int = 0, out=None,
          threads: int | None = None, engine: str = "local", scheduler: str | None = None, progress: bool = True,
          echo: Callable[[str], None] = print):
    """Play every variant (``variants``; default :func:`default_variants`) as a duplicate rotation of ``count``
    games (``unit="games"``: whole games, the session flags' length) or deals between ``players`` (stronger,
    weaker), then write the atlas (``atlas.html``, ``atlas.md``, ``atlas.csv`` and the charts) into ``out``
    (default ``data/atlas/tarot-<unit><N>-seed<S>``); returns the :class:`~tricksim.analysis.atlas.AtlasResult`.
    A progress bar counts the tables of the whole atlas. ``engine="dask"``: the runs are simulated on one Dask
    cluster (a local one, or that at ``scheduler``)."""
    from tricksim.analysis.games.tarot.atlas import variant_figures, write_atlas
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.simulator.engine import RunConfig

    if unit not in UNITS:
        raise JobError(f"invalid unit {unit!r}: allowed {' | '.join(UNITS)}")
    names = parse_variants(variants)
    seats, labels = common.atlas_players(GAME, players)
    strong, weak = seats
    plan = [(name, *parse_variant(name)) for name in names]
    base = Path(out or f"data/atlas/{GAME}-{unit}{count}-seed{seed}")
    many = f"{len(names)} variant" + ("s" if len(names) != 1 else "")
    echo(f"atlas: {many} ({', '.join(names)}), each a duplicate rotation of {count:,} {unit} "
         f"({labels[0]} in every seat, then {labels[1]} in each seat in turn; seed {seed}) kept under {base}")
    t0 = time.perf_counter()
    figures = []
    tables = sum(rules.seats + 1 for _name, _preset, _flags, rules in plan)
    try:
        with common.progress_bar(tables, "table", progress) as bar, Engine(engine, scheduler) as cluster:
            for name, preset, _flags, rules in plan:
                n = rules.seats
                dirs = []
                for r in (None, *range(n)):  # the field, then the weaker in seat r
                    tag = "field" if r is None else f"seat{r}"
                    d = base / "runs" / f"{name}-{tag}"
                    bar.set_postfix_str(f"{name} {tag}")
                    cfg = RunConfig(game=GAME, rules=rules, preset=preset, seed=seed, mode=unit, count=count,
                                    seats=tuple(weak if s == r else strong for s in range(n)))
                    run_kept(cfg, d, threads, engine=engine, scheduler=cluster.scheduler_address)
                    dirs.append(d)
                    bar.update(1)
                figures.append(variant_figures(name, dirs[0], dirs[1:], strong=labels[0], weak=labels[1]))
        result = write_atlas(figures, base, title=f"{GAME.capitalize()} variant atlas: {many}, {count:,} {unit} "
                             f"a table, seed {seed}")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    echo(f"wrote {result.html}, {result.markdown} and {len(result.charts)} charts "
         f"({time.perf_counter() - t0:.0f} s)")
    return result
