"""Tarot duplicate rotations: what a strategy gains over the field's own in the same seat of the same deal."""
from __future__ import annotations

import numpy as np

from ...io import AnalysisError
from ...stats import mean_ci

__all__ = ["rotation_gain"]


def rotation_gain(field_table, rotated_tables, conf: float = 0.95):
    """What a strategy gains over the field's own in the same seat of the same deal.

    ``field_table``: a deals table with the field's strategy at every seat; ``rotated_tables[r]``: the
    same deals with the strategy under test at seat r. Per deal, the mean over the four seats of
    (its score at seat r - the field's score at seat r); the deals are independent, so the mean gain
    takes a t interval over deals. Returns (Estimate of the mean gain per deal and seat, per-deal gains).
    """
    n_seats = sum(1 for c in field_table.column_names if c.startswith("score_"))  # 4, or 3 for Tarot for three
    base = {s: np.asarray(field_table.column(f"score_{s}").to_numpy(), np.float64) for s in range(n_seats)}
    ids = field_table.column("deal_id").to_numpy()
    gains = np.zeros(ids.size)
    for r, t in enumerate(rotated_tables):
        if not np.array_equal(t.column("deal_id").to_numpy(), ids):
            raise AnalysisError("the rotated runs must hold the same deals as the field's run")
        gains += np.asarray(t.column(f"score_{r}").to_numpy(), np.float64) - base[r]
    gains /= len(rotated_tables)
    return mean_ci(gains, conf), gains
