"""Tarot bidding: each contract's success by a feature of the taker's hand as dealt, and the forced-contract
what-if (the same deals replayed with the taker forced to each contract), each rate with n and an interval.

Deals are independent, so a rate over deals takes a Wilson interval and a mean a t interval.
"""
from __future__ import annotations

import numpy as np

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run, open_runs
from ...stats import Moments, fmt_int, fmt_mean, fmt_rate, paired_diff_ci
from .summary import CONTRACTS, mean_text

__all__ = ["FEATURES", "bidding_table", "format_bidding", "format_what_if", "hand_features", "sample_played"]

# ------------------------------------------------------------------ hand features
# bits of the data's (lo, hi) words (docs/output.md): suit card suit*14+rank, trump n at 55+n, Excuse 77
_U = np.uint64
_TRUMPS_LO = _U(0xFF << 56)                  # trumps 1..8
_TRUMPS_HI = _U((1 << 13) - 1)               # trumps 9..21
_OUDLERS_LO, _OUDLERS_HI = _U(1 << 56), _U((1 << 12) | (1 << 13))  # the Petit; the Monde and the Excuse
_RANK = {r: _U(sum(1 << (u * 14 + r) for u in range(4))) for r in (10, 11, 12, 13)}  # jacks .. kings
FEATURES = {
    "oudlers": "oudlers held (0-3)",
    "trumps": "trumps held, the Excuse not counted (0-21)",
    "points": "card points held, in bands of 5 (a king or an oudler is 4.5, a plain card 0.5)",
    "kings": "kings held (0-4)",
}


def _count(lo: np.ndarray, hi: np.ndarray, mask_lo, mask_hi) -> np.ndarray:
    return (np.bitwise_count(lo.view(_U) & mask_lo) + np.bitwise_count(hi.view(_U) & mask_hi)).astype(np.int64)


def hand_features(lo: np.ndarray, hi: np.ndarray) -> dict[str, np.ndarray]:
    """Features of hands given as the data's (lo, hi) int64 words: oudlers, trumps, kings and card points
    (in half-points: every card 1, plus 8 for a king or an oudler, 6 a queen, 4 a knight, 2 a jack)."""
    lo, hi = np.ascontiguousarray(lo, np.int64), np.ascontiguousarray(hi, np.int64)
    zero = _U(0)
    oudlers = _count(lo, hi, _OUDLERS_LO, _OUDLERS_HI)
    kings = _count(lo, hi, _RANK[13], zero)
    half = (_count(lo, hi, _U(2**64 - 1), _U(2**64 - 1)) + 8 * (oudlers + kings) + 6 * _count(lo, hi, _RANK[12], zero)
            + 4 * _count(lo, hi, _RANK[11], zero) + 2 * _count(lo, hi, _RANK[10], zero))
    return {"oudlers": oudlers, "trumps": _count(lo, hi, _TRUMPS_LO, _TRUMPS_HI), "kings": kings,
            "half_points": half, "points": (half // 10) * 5}  # the band [5k, 5k + 5) of whole points


def _seats_in(a: dict) -> int:
    """The players of the arrays' run: its ``score_s`` columns."""
    return sum(1 for k in a if k.startswith("score_"))


def _columns(first: list[str], n_seats: int) -> list[str]:
    return first + [f"dealt_{w}_{s}" for s in range(n_seats) for w in ("lo", "hi")] + [
        f"score_{s}" for s in range(n_seats)]


def _taker_hands(a: dict) -> tuple[np.ndarray, np.ndarray]:
    """The taker's hand as dealt, per row (rows with a taker only)."""
    rows, n = np.arange(a["taker"].size), _seats_in(a)
    lo = np.stack([a[f"dealt_lo_{s}"] for s in range(n)])[a["taker"], rows]
    hi = np.stack([a[f"dealt_hi_{s}"] for s in range(n)])[a["taker"], rows]
    return lo, hi


def bidding_table(run_dirs, by: str = "oudlers", *, batch_rows: int = DEFAULT_BATCH_ROWS) -> list[dict]:
    """Success of each contract by a feature of the taker's hand as dealt (before the chien): one row per
    (contract, feature value) with n, wins and the mean taker score. Played deals only; deals are
    independent, so each row's rate takes a Wilson interval."""
    if by not in FEATURES:
        raise AnalysisError(f"unknown feature {by!r}: allowed {' | '.join(FEATURES)}")
    cells: dict[tuple[int, int], list] = {}
    for run in open_runs(run_dirs):  # a run given twice, or with a copy of it, refused
        if run.game != "tarot":
            raise AnalysisError(f"{run.path}: a {run.game} run, not a tarot run")
        cols = _columns(["void", "taker", "contract", "won"], run.n_seats)
        for batch in run.iter_hands(cols, batch_rows):
            a = batch_arrays(batch, cols)
            keep = a["void"] == 0
            a = {k: v[keep] for k, v in a.items()}
            feature = hand_features(*_taker_hands(a))[by]
            score = np.stack([a[f"score_{s}"] for s in range(run.n_seats)])[a["taker"], np.arange(a["taker"].size)]
            for c, f in set(zip(a["contract"].tolist(), feature.tolist())):
                mine = (a["contract"] == c) & (feature == f)
                cell = cells.setdefault((c, f), [0, 0, Moments()])
                cell[0] += int(mine.sum())
                cell[1] += int((a["won"][mine] == 1).sum())
                cell[2].update(score[mine].astype(np.float64))
    return [{"contract": CONTRACTS[c - 1], by: f, "n": n, "won": w, "taker_score": m}
            for (c, f), (n, w, m) in sorted(cells.items())]


def format_bidding(rows: list[dict], by: str) -> str:
    """The bidding table as text: each contract's success rate and taker score by feature value."""
    label = {"points": "points"}.get(by, by)
    lines = [f"taker success by contract and {FEATURES[by]}   (95 % intervals; n = deals)",
             f"{'contract':<14}{label:>8}   {'won':<31} taker's score"]
    for r in rows:
        value = f"{r[by]}-{r[by] + 4.5:g}" if by == "points" else str(r[by])
        lines.append(f"{r['contract']:<14}{value:>8}   {fmt_rate(r['won'], r['n']):<31} {mean_text(r['taker_score'])}")
    return "\n".join(lines)


# ------------------------------------------------------------------ forced-contract what-if
def sample_played(run_dir, n: int, *, seed: int = 0) -> dict[str, np.ndarray]:
    """``n`` played deals of a Tarot run drawn without replacement (all if fewer), in deal order: their ids,
    taker, contract, outcome, the taker's score, and the features of the taker's hand as dealt."""
    run = open_run(run_dir)
    cols = _columns(["deal_id", "void", "taker", "contract", "won"], run.n_seats)
    a = batch_arrays(run.read_hands(cols), cols)
    keep = np.flatnonzero(a["void"] == 0)
    if keep.size == 0:
        raise AnalysisError(f"{run.path}: no played deal to replay")
    pick = np.sort(np.random.default_rng(seed).choice(keep, size=min(n, keep.size), replace=False))
    a = {k: v[pick] for k, v in a.items()}
    out = {k: a[k] for k in ("deal_id", "taker", "contract", "won")}
    out["taker_score"] = np.stack([a[f"score_{s}"] for s in range(run.n_seats)])[a["taker"], np.arange(pick.size)]
    out.update(hand_features(*_taker_hands(a)))
    return out


def _outcome(sample: dict, tables) -> tuple[np.ndarray, np.ndarray]:
    """(won, the taker's score) of the replayed deals, in the sample's order."""
    won, score = {}, {}
    for t in tables:
        d = t.to_pydict()
        for i, deal in enumerate(d["deal_id"]):
            won[deal] = d["won"][i]
            score[deal] = d[f"score_{d['taker'][i]}"][i]
    ids = sample["deal_id"].tolist()
    return np.array([won[i] for i in ids]), np.array([score[i] for i in ids], np.float64)


def format_what_if(sample: dict, replays: dict, by: str | None = None) -> str:
    """Each forced contract's success and taker score on the sampled deals, beside the contract bid; the
    score difference is paired deal by deal (the same cards and, but for the bid, the same players)."""
    n = sample["deal_id"].size
    lines = [f"forced contracts on {fmt_int(n)} played deals, the taker as in the run   (95 % intervals; n = deals)",
             f"{'contract':<14}{'won':<31} {'taker score':<37} vs the contract bid"]
    lines.append(f"{'as bid':<14}{fmt_rate(sample['won'].sum(), n):<31} {_mean_of(sample['taker_score']):<37}")
    outcomes = {c: _outcome(sample, tables) for c, tables in replays.items()}
    for c, (won, score) in outcomes.items():
        d = paired_diff_ci(score, sample["taker_score"])
        lines.append(f"{CONTRACTS[c - 1]:<14}{fmt_rate(won.sum(), n):<31} {_mean_of(score):<37} "
                     f"{fmt_mean(d.value, d.lo, d.hi, d.n, 1)}")
    if by:
        if by not in FEATURES:
            raise AnalysisError(f"unknown feature {by!r}: allowed {' | '.join(FEATURES)}")
        lines += ["", f"won by {FEATURES[by]}"]
        for v in np.unique(sample[by]):
            mine = sample[by] == v
            cells = "   ".join(f"{CONTRACTS[c - 1]} {fmt_rate(won[mine].sum(), mine.sum())}"
                               for c, (won, _) in outcomes.items())
            lines.append(f"  {by} {v}: {cells}")
    return "\n".join(lines)


def _mean_of(x: np.ndarray) -> str:
    m = Moments().update(np.asarray(x, np.float64))
    return mean_text(m)
