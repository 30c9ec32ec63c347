"""Short plain-text summary of a Spades run, printed after every simulation.

Fast by construction: imports only pyarrow and numpy (no pandas, no
matplotlib), reads only the columns it needs, batch by batch.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pyarrow.compute as pc

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run
from ...parallel import map_run
from ...stats import ClusterOrderError, ClusterRatio, Clusters, Moments, fmt_estimate, fmt_int, fmt_rate
from .outcomes import NUMBER_WORDS, nil_bid, partnerships, rule, seat_columns, seats, side_name, sides, team_outcomes

__all__ = ["interval_method", "summarize", "summary_numbers"]


def summary_numbers(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """The sums behind :func:`summarize` (for tests and other callers): every hand-level figure a
    :class:`~tricksim.analysis.stats.ClusterRatio` over games (in hands mode each hand is its own game). Per
    side: the two teams, or in a cutthroat run the four players (``outcomes.sides``)."""
    run = open_run(run_dir)
    rules = run.rules
    n_seats, n_sides = seats(rules), sides(rules)
    blind_cols = seat_columns("blind", n_seats)
    has_blind = run.has_columns("hands", blind_cols)
    cols = (["game_id"] + seat_columns("bid", n_seats) + seat_columns("tricks", n_seats)
            + [f"score_{k}" for k in range(n_sides)] + (blind_cols if has_blind else []))
    r = {
        "run": run, "hands": 0, "made": [ClusterRatio() for _ in range(n_sides)],
        "score": [ClusterRatio() for _ in range(n_sides)], "bags": [ClusterRatio() for _ in range(n_sides)],
        "nil_bid": ClusterRatio(), "nil_ok": ClusterRatio(), "blind_bid": ClusterRatio(), "blind_ok": ClusterRatio(),
    }
    try:
        for batch in run.iter_hands(cols, batch_rows):
            a = batch_arrays(batch, cols)
            n = batch.num_rows
            gid = Clusters(a["game_id"])  # the batch's games, found once for every figure
            r["hands"] += n
            for t in range(n_sides):
                o = team_outcomes(a, t, rules)
                r["made"][t].update(gid, o["made"] & o["has_contract"], o["has_contract"])
                r["score"][t].update(gid, a[f"score_{t}"])
                r["bags"][t].update(gid, o["bags"])
            nil = np.stack([nil_bid(a[f"bid_{s}"], rules) for s in range(n_seats)])
            blind = (np.stack([a[f"blind_{s}"] for s in range(n_seats)]) if has_blind
                     else np.zeros((n_seats, n), bool))
            ok = np.stack([a[f"tricks_{s}"] == 0 for s in range(n_seats)])
            per_hand = np.full(n, n_seats, np.int64)
            for bid_key, ok_key, sel in (("nil_bid", "nil_ok", nil & ~blind), ("blind_bid", "blind_ok", nil & blind)):
                bids = sel.sum(axis=0)
                r[bid_key].update(gid, bids, per_hand)         # bids / seat-hands, n_seats seat-hands a hand
                r[ok_key].update(gid, (sel & ok).sum(axis=0), bids)  # successes / bids
    except ClusterOrderError as e:
        raise AnalysisError(f"{run.path}: {e}") from None
    if r["hands"] == 0:
        raise AnalysisError(f"{run.path}: the run has no hand rows")
    if run.is_games:
        r.update(games=0, wins0=0, ties=0, wins=[0] * n_sides, length=Moments(), ends={})
        end_ok = run.has_columns("games", ["end"])
        for b in run.iter_games(["hands", "winner"] + (["end"] if end_ok else []), batch_rows):
            g = batch_arrays(b, ["hands", "winner"])
            r["games"] += b.num_rows
            r["wins0"] += int((g["winner"] == 0).sum())
            for k in range(n_sides):
                r["wins"][k] += int((g["winner"] == k).sum())
            r["ties"] += int((g["winner"] == -1).sum())
            r["length"].update(g["hands"])
            if end_ok:
                vc = pc.value_counts(b.column("end"))
                for v, c in zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist()):
                    r["ends"][str(v)] = r["ends"].get(str(v), 0) + int(c)
    return r


def interval_method(run) -> str:
    """How the hand-level intervals of ``run`` are built, as the outputs state it."""
    if run.is_games:
        return "95 % intervals clustered by game"
    return f"95 % intervals over independent hands, a hand's {NUMBER_WORDS[seats(run.rules)]} seats clustered"


def _mean(m, digits: int = 2) -> str:
    return fmt_estimate(m.estimate(), digits)


def _rate(m) -> str:
    return fmt_estimate(m.rate())


def summarize(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
              scheduler: str | None = None) -> str:
    """A few lines on a finished run: sizes, contract-made rate, hand score, bags, Nil, games.

    Every rate carries its 95 % Wilson interval and n; every mean its 95 % t
    interval and n. ``engine="dask"``: the files are read and summed on Dask workers (the same text).
    Raises :class:`~tricksim.analysis.io.AnalysisError` for an invalid run.
    """
    r = map_run(partial(summary_numbers, batch_rows=batch_rows), run_dir, engine=engine, scheduler=scheduler)
    run = r["run"]
    n_sides = len(r["score"])
    if partnerships(run.rules):
        t0, t1 = run.team_strategies()
        seats = f"team 0 = {t0}; team 1 = {t1}"
    else:  # cutthroat: each seat its own side
        seats = "; ".join(f"seat {s} = {label}" for s, label in enumerate(run.seat_labels)) + " (each alone)"

    def per_side(key, digits=None):
        fmt = _rate if digits is None else partial(_mean, digits=digits)
        return "   ".join(f"{side_name(run.rules, k)} {fmt(r[key][k])}" for k in range(n_sides))

    head = f"{run.path}: spades, {run.mode} mode, preset {run.rules_text()}"  # with the flags overridden
    if run.manifest.get("seed") is not None:
        head += f", seed {run.manifest['seed']}"
    if run.status not in (None, "complete"):  # the engine writes "running", then "complete"
        head += f"  [status: {run.status}]"
    size = f"{fmt_int(r['hands'])} hands" + (f", {fmt_int(r['games'])} games" if run.is_games else "")
    w = 16
    lines = [
        head,
        f"{'seats':<{w}}{seats}",
        f"{'size':<{w}}{size}   ({interval_method(run)}; n = observations)",
        f"{'contract made':<{w}}{per_side('made')}",
        f"{'hand score':<{w}}{per_side('score', 2)}",
        f"{'bags per hand':<{w}}{per_side('bags', 3)}",
        f"{'Nil':<{w}}bid {_rate(r['nil_bid'])} of seat-hands   made {_rate(r['nil_ok'])}",
    ]
    if r["blind_bid"].k or rule(run.rules, "blind_nil"):
        lines.append(f"{'Blind Nil':<{w}}bid {_rate(r['blind_bid'])} of seat-hands   made {_rate(r['blind_ok'])}")
    ties = f"   ({fmt_int(r['ties'])} tied at the hand limit)" if run.is_games and r["ties"] else ""
    if run.is_games and partnerships(run.rules):
        lines.append(f"{'team 0 wins':<{w}}{fmt_rate(r['wins0'], r['games'])}" + ties)
    elif run.is_games:  # games are independent: a Wilson interval a seat
        lines.append(f"{'wins':<{w}}" + "   ".join(f"seat {k} {fmt_rate(r['wins'][k], r['games'])}"
                                                   for k in range(n_sides)) + ties)
    if run.is_games:
        lines.append(f"{'game length':<{w}}{_mean(r['length'])} hands")
        if r["ends"]:
            ends = ", ".join(f"{k} {fmt_rate(v, r['games'])}"
                             for k, v in sorted(r["ends"].items(), key=lambda kv: -kv[1]))
            lines.append(f"{'game ends':<{w}}{ends}")
    return "\n".join(lines)
