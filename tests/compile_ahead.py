"""Fill the compile cache with the kernels the tests run, in a process of its own (docs/performance.md P60).

Started by ``tests/conftest.py`` beside a whole-suite run (the README's test command): while the test process
collects (importing the test modules compiles the strategies, ``pimc`` most of all), this one compiles the
engine's kernels on the other core, in the order the tests first use them; each test then loads them from
the cache. Nothing depends on it: a kernel not yet in the cache when a test needs it is compiled by the test
process as before. Runs a few games of each seating through the engine, so it compiles exactly the
signatures the runs use.

    python tests/compile_ahead.py
"""
from __future__ import annotations

SEATINGS = (  # (game, seats): the kernels of the built-ins, in the order the suite first needs them
    ("spades", "random heuristic random heuristic"),  # mixed seats: the per-seat kernel
    ("spades", "heuristic heuristic heuristic heuristic"),
    ("spades", "simple simple simple simple"),
    ("tarot", "heuristic heuristic heuristic heuristic"),
    ("spades", "random random random random"),
)


def main() -> None:
    from tricksim.simulator.engine import RunConfig, run_to_tables
    from tricksim.simulator.games.spades.rules import build_rules as spades_rules
    from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
    from tricksim.strategies.registry import parse_spec

    for game, seats in SEATINGS:
        policies = tuple(parse_spec(s, game=game) for s in seats.split())
        if game == "spades":
            cfg = RunConfig(rules=spades_rules("classic"), seats=policies, mode="games", count=2, hand_limit=2)
        else:
            cfg = RunConfig(game="tarot", rules=tarot_rules("cardavia"), seats=policies, mode="deals", count=2)
        run_to_tables(cfg, threads=1)


if __name__ == "__main__":
    main()
