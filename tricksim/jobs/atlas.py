"""What every game's variant atlas job shares (``tricksim atlas GAME``; the game's own in ``jobs/<game>/atlas.py``).

The variants are data. A variant is written ``PRESET`` or ``PRESET+flag=value[+flag=value...]`` (any preset of
the family, any rule flag: ``tricksim rules GAME``). By default an atlas plays every preset the family defines
(a new preset joins it by existing) and the game's list of flag variants. The runs are kept under
``OUT/runs/``: a run already there with the same plan is reused, an interrupted one finished (``run_kept``).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tricksim.jobs import JobError

__all__ = ["atlas_players", "check_options", "parse_variant", "parse_variants", "presets", "progress_bar",
           "split_players"]


def presets(game: str) -> tuple[str, ...]:
    """Every preset of ``game``'s family, in the family's order."""
    from tricksim.simulator.family import family

    return tuple(family(game).presets)


def parse_variant(game: str, text: str):
    """``PRESET[+flag=value...]`` -> (preset, [flag=value, ...], rules), checked; raises JobError naming the
    allowed presets or the flag's allowed values."""
    from tricksim.simulator.family import family
    from tricksim.simulator.rules import RulesError

    preset, *flags = [p.strip() for p in text.strip().split("+")]
    if preset not in presets(game):
        raise JobError(f"unknown variant {text!r}: a variant is PRESET[+flag=value...] with PRESET one of "
                       f"{' | '.join(presets(game))} (flags: tricksim rules {game})")
    try:
        return preset, flags, family(game).build_rules(preset, flags)
    except RulesError as e:
        raise JobError(f"variant {text!r}: {e}") from None


def parse_variants(game: str, items, default) -> list[str]:
    """A list (or comma-separated text) of variants, each checked, none twice; None: ``default``."""
    if items is None:
        return list(default)
    if isinstance(items, str):
        items = items.split(",")
    names = [str(x).strip() for x in items if str(x).strip()]
    if not names:
        raise JobError(f"no variant given: allowed PRESET[+flag=value...], PRESET one of "
                       f"{' | '.join(presets(game))}")
    for x in names:
        parse_variant(game, x)
        if names.count(x) > 1:
            raise JobError(f"variant {x!r} is given twice")
    return names


def split_players(text: str) -> tuple[str, ...]:
    """``STRONG,WEAK`` -> the two specs: a comma separates the players, except before a ``param=number`` that
    goes on the parameters of a spec that has some (``heuristic,plain=heuristic:charge=0,force_taker=0``)."""
    import re

    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and ":" in specs[-1] and ":" not in piece and re.fullmatch(r"\w+=[-+0-9.eE]+", piece):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return tuple(specs)


def atlas_players(game: str, players):
    """The seat strategies and labels of the two players of an atlas, the stronger then the weaker."""
    from tricksim.jobs import labelled_seats
    from tricksim.strategies.registry import StrategyError

    if len(players) != 2:
        raise JobError(f"the atlas plays two players, the stronger then the weaker: got {len(players)}")
    try:
        return labelled_seats(list(players), game)
    except StrategyError as e:
        raise JobError(str(e)) from None


@contextmanager
def progress_bar(total: int, unit: str, progress: bool) -> Iterator:
    """A tqdm bar named 'atlas' on stderr over the whole atlas (``total`` of ``unit``), closed on the way out."""
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, unit_scale=True, disable=not progress, desc="atlas")
    try:
        yield bar
    finally:
        bar.close()


def check_options(*, variants, players, default_players, seed: int, out, threads, engine: str, scheduler,
                  progress, echo) -> tuple:
    """The options every game's ``tricksim.atlas(GAME, ...)`` shares, checked as the API checks its arguments
    (``tricksim.jobs.args``); returns the two players (``players`` as a list, comma-separated text, or None:
    ``default_players``)."""
    from tricksim.jobs import args
    from tricksim.simulator.engine import MAX_SEED
    from tricksim.simulator.errors import TricksimError, option

    if variants is not None and not (isinstance(variants, str) or isinstance(variants, (list, tuple))
                                     and all(isinstance(v, str) for v in variants)):
        raise TricksimError(f"{option('variants', None)} must be None, 'PRESET[+flag=value...],...' or "
                            f"a list of such strings: got {variants!r}")
    players = default_players if players is None else players
    if isinstance(players, str):
        players = split_players(players)
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise TricksimError(f"{option('players', None)} must be two strategy specs, the stronger then the "
                            f"weaker (e.g. {','.join(default_players)}): got {players!r}")
    for p in players:
        args.spec("players", p)
    args.whole("seed", seed, 0, MAX_SEED)
    args.out_folder("out", out, none=True)
    args.whole("threads", threads, 1, none=True)
    args.engine(engine, scheduler)
    args.flag("progress", progress)
    args.callback("echo", echo)
    return tuple(players)
