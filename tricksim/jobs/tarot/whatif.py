"""Tarot forced-contract what-if: played deals replayed with the taker forced to each contract in turn."""
from __future__ import annotations

import numpy as np

from tricksim.jobs import JobError

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


def contract_what_if(run_dir, n: int, *, seed: int = 0, by: str | None = None) -> str:
    """Sample ``n`` played deals of a Tarot run and replay each with its taker forced to every contract in
    turn (the other seats passing, every other decision as in the run); reports each contract's success
    and the taker's score on the same deals (analysis.games.tarot.bidding.format_what_if)."""
    from tricksim.analysis.games.tarot.bidding import format_what_if, sample_played
    from tricksim.analysis.io import AnalysisError, open_run, pooling_notes
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
            for s in range(len(seats)):  # every seat of the run: four, or three (Tarot for three)
                ids = sample["deal_id"][sample["taker"] == s]
                forced = tuple(with_bid(seats[i], contract if i == s else 0) for i in range(len(seats)))
                parts.append(replay_units(RunConfig(seats=forced, **base), ids))
            replays[contract] = parts
    except RunError as e:
        raise JobError(str(e)) from None
    # an unfinished run (interrupted, or still running): the sample is drawn from the deals written so far
    return "\n".join([*pooling_notes([run]), format_what_if(sample, replays, by=by)])
