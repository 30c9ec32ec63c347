"""Cutthroat rotations (Spades without partnerships, issue #28): the tables of one rotation played and kept.

A rotation (its figures: ``analysis/games/spades/cutthroat.py``) is n + 1 tables on the same deals (n the
rules' ``seats``: five tables for cutthroat, four for cutthroat3): the field, the weaker player in every seat,
then table k with the stronger player alone in seat k against the n - 1 weaker. Two players (twohanded) need no
field (:func:`with_field`): the two seat tables are a duplicate pair, the seats swapped. ``tricksim compare``,
``sweep``, the atlas and ``scripts/strategy_evidence.py --cutthroat`` play their rotations here.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import run_kept

__all__ = ["rotation_runs", "tables", "with_field"]


def with_field(rules) -> bool:
    """A table without partnerships plays the field table too, except with two players: their two seat tables, the
    seats swapped on the same deals, are already a duplicate pair (the field would only repeat the weaker player)."""
    return rules.seats != 2


def tables(n_seats: int, field: bool = True) -> tuple[str, ...]:
    """The folder suffix of each table of a rotation at a table of ``n_seats``, in the order played: 'field'
    (unless ``field`` is False), 'seat0' .. 'seat<n-1>'."""
    return ("field",) * field + tuple(f"seat{k}" for k in range(n_seats))


def rotation_runs(strong, weak, *, rules, preset: str, games: int, seed: int, base, hand_limit: int = 1000,
                  threads: int | None = None, engine: str = "local", scheduler: str | None = None,
                  on_table: Callable[[str], None] | None = None, field: bool = True,
                  field_only: bool = False) -> tuple[Path | None, list[Path]]:
    """Play (or reuse, ``run_kept``) the n + 1 tables of a rotation of ``games`` whole games between the seat
    strategies ``strong`` and ``weak`` under ``rules`` (without partnerships; ``rules.seats`` players) into
    ``base-field``, ``base-seat0`` ... ``base-seat<n-1>``; ``on_table(tag)`` after each. Returns the field's
    folder (None with ``field=False``: the seat tables only, with two players a duplicate pair) and the seat
    tables'. ``field_only`` (``strong`` is ``weak``: every table would be the field's): the field alone,
    returned as each seat table too."""
    from tricksim.simulator.engine import RunConfig

    n = rules.seats
    dirs = [None] * (not field)
    tags = tables(n, field)[:1] if field_only else tables(n, field)
    for r, tag in zip((None,) * field + tuple(range(n)), tags):
        d = Path(f"{base}-{tag}")
        cfg = RunConfig(rules=rules, preset=preset, seats=tuple(strong if s == r else weak for s in range(n)),
                        seed=seed, mode="games", count=games, hand_limit=hand_limit)
        run_kept(cfg, d, threads, engine=engine, scheduler=scheduler)
        dirs.append(d)
        if on_table:
            on_table(tag)
    return dirs[0], [dirs[0]] * n if field_only else dirs[1:]
