"""Tarot studies: duplicate rotations between two strategies, and the forced-contract what-if."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from tricksim.jobs import JobError, run_kept

_FORCED_BIDS: dict[int, object] = {}


def forced_bid(contract: int):
    """A bid policy that bids ``contract`` when it may (0: always pass); compiled once per contract."""
    if contract not in _FORCED_BIDS:
        from numba import njit

        from tricksim.simulator.games.tarot.policy import HAND_SIG, V_MIN_BID

        @njit(HAND_SIG)
        def bid(seat, suits, trumps, view, params, rng):
            return np.int64(contract) if contract >= view[V_MIN_BID] else np.int64(0)

        _FORCED_BIDS[contract] = bid
    return _FORCED_BIDS[contract]


def with_bid(seat_strategy, contract: int):
    """``seat_strategy`` with its bid replaced by the forced one (every other decision its own)."""
    from tricksim.strategies.registry import SeatStrategy, Strategy

    s = seat_strategy.strategy
    name = f"{s.name}+bid{contract}"
    return SeatStrategy(Strategy(name=name, description=f"{s.description}; bids {contract} (0 = pass)",
                                 policies={**s.policies, "bid": forced_bid(contract)}, params=s.params,
                                 game="tarot"), seat_strategy.values)


def _scores(run):
    """The deal ids and the four scores of (some shards of) a run, in deal order."""
    return run.read_hands(["deal_id"] + [f"score_{s}" for s in range(4)])


def rotations(a: str, b: str, *, deals: int, preset: str | None = None, rules=(), seed: int = 0, out=None,
              threads: int | None = None, engine: str = "local", scheduler: str | None = None,
              echo: Callable[[str], None] = print) -> dict:
    """Duplicate rotations: the same ``deals`` played by a field of ``b`` and with ``a`` in each seat in turn
    (and the other way round); returns {"a_in_b": (Estimate, gains), "b_in_a": ...} of the mean score gain
    per deal and seat over the field's own strategy in the same seat (analysis.tarot.rotation_gain). ``a`` and
    ``b`` may carry labels (LABEL=SPEC); ``preset`` defaults to the game's default preset, and the output says so.
    ``engine="dask"``: the runs are simulated and read on one Dask cluster."""
    from tricksim.analysis.io import AnalysisError
    from tricksim.analysis.parallel import Engine
    from tricksim.analysis.tarot import rotation_gain
    from tricksim.jobs.compare import _labels, match_header
    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.family import family
    from tricksim.simulator.games.tarot.rules import build_rules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError

    preset_given = preset is not None
    preset = preset or family("tarot").default_preset
    try:
        rule_set = build_rules(preset, rules)
        seat_list, (a, b) = _labels([a, b], "tarot")
    except (RulesError, StrategyError) as e:
        raise JobError(str(e)) from None
    seat = dict(zip((a, b), seat_list))
    for line in match_header(game="tarot", preset=preset, preset_given=preset_given, rule_set=rule_set, seed=seed,
                             count=deals, unit="deals, each played by the field alone and with the other strategy "
                             "in each seat", seats=seat_list):
        echo(line)
    base = Path(out or f"data/compare/tarot-{preset}-seed{seed}")
    results = {}
    with Engine(engine, scheduler) as cluster:
        for key, (test, field) in (("a_in_b", (a, b)), ("b_in_a", (b, a))):
            tag = "ab" if key == "a_in_b" else "ba"
            dirs = []
            for r in (None, 0, 1, 2, 3):  # the field alone, then the tested strategy in seat r
                seats = tuple(seat[test] if s == r else seat[field] for s in range(4))
                d = base / (f"{tag}-field" if r is None else f"{tag}-seat{r}")
                run_kept(RunConfig(game="tarot", rules=rule_set, preset=preset, seats=seats, seed=seed,
                                   mode="deals", count=deals), d, threads, engine=engine,
                         scheduler=cluster.scheduler_address)
                dirs.append(d)
            try:
                tables = [cluster.map_run(_scores, d).sort_by("deal_id") for d in dirs]
                results[key] = rotation_gain(tables[0], tables[1:])
            except AnalysisError as e:
                raise JobError(str(e)) from None
            est = results[key][0]
            echo(f"{test} in a field of {field}: {est.value:+.1f} points a deal over {field} in the same seat, "
                 f"95 % interval [{est.lo:+.1f}, {est.hi:+.1f}] (n = {est.n:,} deals, each played in all four "
                 "seats)")
    return results


def contract_what_if(run_dir, n: int, *, seed: int = 0, by: str | None = None) -> str:
    """Sample ``n`` played deals of a Tarot run and replay each with its taker forced to every contract in
    turn (the other seats passing, every other decision as in the run); reports each contract's success
    and the taker's score on the same deals (analysis.tarot.format_what_if)."""
    from tricksim.analysis.io import AnalysisError, open_run
    from tricksim.analysis.tarot import format_what_if, sample_played
    from tricksim.simulator.engine import RunConfig, RunError, replay_units
    from tricksim.simulator.games.tarot.rules import TarotRules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError, parse_spec

    run = open_run(run_dir)
    if run.game != "tarot":
        raise JobError(f"{run.path}: a {run.game} run, not a tarot run")
    m = run.manifest
    try:
        seats = [parse_spec(s, game="tarot") for s in m.get("seats") or []]
        base = {"game": "tarot", "rules": TarotRules.from_dict(m.get("rules") or {}), "preset": m.get("preset"),
                "seed": int(m["seed"]), "mode": "deals", "count": int(m["count"])}
    except (StrategyError, RulesError, KeyError, TypeError, ValueError) as e:
        raise JobError(f"{run.path}: cannot rebuild the run from manifest.json ({e})") from None
    try:
        sample = sample_played(run, n, seed=seed)
    except AnalysisError as e:
        raise JobError(str(e)) from None
    replays = {}
    try:
        for contract in (1, 2, 3, 4):
            parts = []
            for s in range(4):
                ids = sample["deal_id"][sample["taker"] == s]
                forced = tuple(with_bid(seats[i], contract if i == s else 0) for i in range(4))
                parts.append(replay_units(RunConfig(seats=forced, **base), ids))
            replays[contract] = parts
    except RunError as e:
        raise JobError(str(e)) from None
    return format_what_if(sample, replays, by=by)
