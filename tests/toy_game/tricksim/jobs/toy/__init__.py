"""The toy game's match: two strategies on the same deals, each in every seat against the other.

A and B each play every round of ``count`` twice, once holding seat 0 against two of the other and
once holding seats 1 and 2; the result is A's mean score per seat held minus B's, on the same deals.
"""
from pathlib import Path

import numpy as np

from tricksim.analysis.io import open_run
from tricksim.analysis.stats import Moments, fmt_mean
from tricksim.jobs import GameJobs, labelled_seats, match_header, run_kept


def _match(specs, *, count, preset=None, rules=(), seed=0, hand_limit=None, out=None, threads=None,
           engine="local", scheduler=None, echo=print) -> dict:
    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.family import family

    fam = family("toy")
    (a, b), labels = labelled_seats(specs, "toy")
    rule_set = fam.build_rules(preset or fam.default_preset, rules)
    out = Path(out or f"data/compare/toy-seed{seed}")
    per_round = []
    for name, seats in (("a_first", (a, b, b)), ("b_first", (b, a, a))):
        cfg = RunConfig(game="toy", rules=rule_set, preset=preset or fam.default_preset, seats=seats, seed=seed,
                        mode="rounds", count=count)
        run_kept(cfg, out / name, threads, engine=engine, scheduler=scheduler)
        scores = open_run(out / name).read_hands([f"score_{s}" for s in range(3)])
        per_round.append(np.stack([scores[f"score_{s}"].to_numpy() for s in range(3)]))
    first, second = per_round
    gain = (first[0] - (first[1] + first[2]) / 2 + (second[1] + second[2]) / 2 - second[0]) / 2
    m = Moments()
    m.update(gain.astype(np.float64))
    e = m.estimate()
    for line in match_header(game="toy", preset=preset or fam.default_preset, preset_given=preset is not None,
                             rule_set=rule_set, seed=seed, count=count, unit="rounds", seats=[a, b]):
        echo(line)
    echo(f"{labels[0]} - {labels[1]}: score per seat per round {fmt_mean(e.value, e.lo, e.hi, e.n, 3)}")
    return {"gain": e}


JOBS = GameJobs(match=_match, match_unit="rounds", match_help="rounds per match (each played twice, seats swapped)",
                api={"toy_deals": f"{__name__}:deals"})


def deals(run) -> list[list[int]]:
    """The hands dealt in each round of ``run``, as lists of card ids (the toy game's own API function)."""
    table = open_run(getattr(run, "path", run)).read_hands([f"dealt_{s}" for s in range(3)])
    return [[[c for c in range(9) if mask >> c & 1] for mask in row.values()] for row in table.to_pylist()]
