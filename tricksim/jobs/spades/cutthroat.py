"""Cutthroat rotations (Spades without partnerships, issue #28): the tables of one rotation played and kept.

A rotation (its figures: ``analysis/games/spades/cutthroat.py``) is five tables on the same deals: the field,
the weaker player in every seat, then table k with the stronger player alone in seat k against three weaker.
The atlas (``tricksim atlas spades``, variant ``cutthroat``) and ``scripts/strategy_evidence.py --cutthroat``
play it here.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tricksim.jobs import run_kept

__all__ = ["TABLES", "rotation_runs"]

TABLES = ("field", "seat0", "seat1", "seat2", "seat3")  # the folder suffix of each table, in the order played


def rotation_runs(strong, weak, *, rules, preset: str, games: int, seed: int, base, hand_limit: int = 1000,
                  threads: int | None = None, engine: str = "local", scheduler: str | None = None,
                  on_table: Callable[[str], None] | None = None) -> tuple[Path, list[Path]]:
    """Play (or reuse, ``run_kept``) the five tables of a rotation of ``games`` whole games between the seat
    strategies ``strong`` and ``weak`` under ``rules`` (without partnerships) into ``base-field``,
    ``base-seat0`` ... ``base-seat3``; ``on_table(tag)`` after each. Returns the field's folder and the four
    seat tables'."""
    from tricksim.simulator.engine import RunConfig

    dirs = []
    for r, tag in zip((None, 0, 1, 2, 3), TABLES):
        d = Path(f"{base}-{tag}")
        cfg = RunConfig(rules=rules, preset=preset, seats=tuple(strong if s == r else weak for s in range(4)),
                        seed=seed, mode="games", count=games, hand_limit=hand_limit)
        run_kept(cfg, d, threads, engine=engine, scheduler=scheduler)
        dirs.append(d)
        if on_table:
            on_table(tag)
    return dirs[0], dirs[1:]
