"""Nil what-if: seat-hands that did not bid Nil, replayed on the same deals with the seat forced to Nil."""
from __future__ import annotations

from tricksim.jobs import JobError


def nil_what_if(run_dir, n: int, *, seed: int = 0, by=None, hand: str = "dealt", save=None, chart=None) -> str:
    """Sample ``n`` non-Nil seat-hands of a hands-mode run (analysis), replay them forced to Nil (engine),
    and report how often the Nil would have made (analysis)."""
    from tricksim.analysis.games.spades.whatif import check_run, sample_non_nil, what_if, what_if_report
    from tricksim.analysis.io import open_run, pooling_notes
    from tricksim.simulator.engine import RunConfig, RunError, replay_units
    from tricksim.simulator.games.spades.rules import SpadesRules
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import SeatStrategy, StrategyError, available, parse_spec

    run = open_run(run_dir)
    check_run(run)
    m = run.manifest
    try:
        seats = [parse_spec(s) for s in m.get("seats") or []]
        base = {"rules": SpadesRules.from_dict(m.get("rules") or {}), "preset": m.get("preset") or "custom",
                    "seed": int(m["seed"]), "mode": "hands", "count": int(m["count"])}
    except (StrategyError, RulesError, KeyError, TypeError, ValueError) as e:
        raise JobError(f"{run.path}: cannot rebuild the run from manifest.json ({e})") from None
    if len(seats) != 4:
        raise JobError(f"{run.path}: manifest.json must list 4 seat strategies")
    forced = []
    for s in seats:
        if "force_nil" not in (p.name for p in s.strategy.params):
            able = [k for k, v in available().items() if "force_nil" in (p.name for p in v.params)]
            raise JobError(f"strategy {s.strategy.name!r} has no force_nil parameter, so {what_if()} cannot force it "
                           f"to Nil (strategies with one: {' | '.join(able) or 'none'})")
        forced.append(SeatStrategy(s.strategy, {**s.values, "force_nil": 1.0}))
    sample = sample_non_nil(run, n, seed=seed, by=by, hand=hand)
    replays = {}
    try:
        for s in sample.seats():
            cfg = RunConfig(seats=tuple(forced[i] if i == s else seats[i] for i in range(4)), **base)
            replays[s] = replay_units(cfg, sample.ids_for_seat(s))
    except RunError as e:
        raise JobError(str(e)) from None
    # an unfinished run (interrupted, or still running): the sample is drawn from the shards written so far
    return "\n".join([*pooling_notes([run]), what_if_report(sample, replays, save=save, chart=chart)])
