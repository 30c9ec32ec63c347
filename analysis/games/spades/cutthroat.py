"""Cutthroat rotations: one player alone against three of another, on the same deals, from every seat.

``tricksim compare`` plays two teams; cutthroat (preset ``cutthroat``: four players each alone) has no teams,
so its duplicate design is a rotation (``tricksim.jobs.spades.cutthroat`` plays it): the **field** table with
the weaker player in every seat, then one table per seat ``k`` with the stronger player in seat ``k`` and the
weaker in the three others. A hand's cards depend only on the seed, the game id and the hand number, never on
the players, so game ``g`` of every table is dealt the same cards as long as the tables play it (the games
end after different hands). The tables' rows of a game id (a *deal* below: the cards of a whole game) are not
independent: every figure is clustered by it.

:func:`rotation_figures`, from the field run and the four seat runs, each an
:class:`~tricksim.analysis.stats.Estimate` (rates: Wilson at the effective sample size; means: t interval on
deals − 1 degrees of freedom):

* ``strong_win``: the stronger player's games won (a seat-game: seat k of game g on table k), where an equal
  player wins a quarter (a game tied at the hand limit is no one's);
* ``strong_all``: the deals the stronger player won from every seat (Wilson over deals);
* ``same_cards``: **luck**, the deals whose four tables the same seat won (the cards decided whoever played
  that seat: the stronger won from it once and the weaker three times), among the deals every table decided;
  a stronger player that always wins leaves 0; if the winner did not depend on the cards, a stronger player
  winning a share w of its games would leave 4·w·((1 − w)/3)³ (1.6 % between equal players);
* ``margin``: the stronger player's final lead over the best of the three others (``outcomes.lead``);
* ``strong_points``: the points a hand of seat k, the stronger there minus the weaker there (table k against
  the field, the same cards, on the hands both tables played).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...io import AnalysisError, open_run
from ...stats import ClusterRatio, Estimate, proportion
from .outcomes import lead

__all__ = ["SEATS", "RotationFigures", "by_deal", "check_rotation", "cluster_ratio", "rotation_figures"]

SEATS = range(4)


@dataclass
class RotationFigures:
    """The skill and luck of one rotation (:func:`rotation_figures`)."""

    n_deals: int
    figures: dict[str, Estimate]
    margins: np.ndarray = field(repr=False)   # every seat-game's margin, the stronger's lead at the end
    lengths: np.ndarray = field(repr=False)   # every seat table's games' hands (the field's are not counted)


def check_rotation(field_run, seat_runs) -> None:
    """Raises AnalysisError unless ``seat_runs`` (seat 0..3) and ``field_run`` are one rotation: cutthroat, the
    same rules and seed, one player alone in seat k on table k and the field's player everywhere else."""
    runs = [open_run(field_run), *(open_run(r) for r in seat_runs)]
    if len(runs) != 5:
        raise AnalysisError(f"a cutthroat rotation is a field table and 4 seat tables: got {len(runs) - 1}")
    base = runs[0]
    if base.rules.get("partnerships", True):
        raise AnalysisError(f"{base.path}: a rotation is played without partnerships (preset cutthroat)")
    for k, r in enumerate(runs[1:]):
        if r.rules != base.rules or r.manifest.get("seed") != base.manifest.get("seed"):
            raise AnalysisError(f"{r.path} and {base.path} are not tables of one rotation (their rules or seeds "
                                "differ)")
        others = [s for j, s in enumerate(r.seats) if j != k]
        if others != [base.seats[j] for j in SEATS if j != k] or r.seats[k] == base.seats[k]:
            raise AnalysisError(f"{r.path}: seat {k} is not the one seat played by another player than the field "
                                f"{base.path} ({r.seats} against {base.seats})")


def by_deal(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of several tables, a deal's (game id's) together and the deals in increasing order (a
    ClusterRatio's order)."""
    return pd.concat(frames, ignore_index=True).sort_values("game_id", kind="stable", ignore_index=True)


def cluster_ratio(cluster, y, n=None) -> ClusterRatio:
    return ClusterRatio().update(np.asarray(cluster, np.int64), np.asarray(y, np.int64),
                                 None if n is None else np.asarray(n, np.int64))


def rotation_figures(field_run, seat_runs, conf: float = 0.95) -> RotationFigures:
    """Skill and luck of a rotation (module docstring) from its field run and its four seat runs (seat 0..3)."""
    check_rotation(field_run, seat_runs)
    base = open_run(field_run)
    tables = [open_run(r) for r in seat_runs]
    totals = [f"total_{s}" for s in SEATS]
    games = [t.games(["game_id", "hands", "winner", *totals]) for t in tables]
    base_hands = base.hands(["game_id", "hand_no", *(f"score_{s}" for s in SEATS)])

    per_seat, diffs = [], []
    for k, (t, g) in enumerate(zip(tables, games)):
        per_seat.append(pd.DataFrame({"game_id": g["game_id"], "seat": k, "winner": g["winner"],
                                      "won": (g["winner"] == k).astype(np.int64),
                                      "margin": lead([g[c].to_numpy() for c in totals], k),
                                      "hands": g["hands"]}))
        h = t.hands(["game_id", "hand_no", f"score_{k}"])
        pair = h.merge(base_hands[["game_id", "hand_no", f"score_{k}"]], on=["game_id", "hand_no"],
                       suffixes=("_strong", "_weak"))
        diffs.append(pd.DataFrame({"game_id": pair["game_id"],
                                   "d": pair[f"score_{k}_strong"] - pair[f"score_{k}_weak"]}))
    w = by_deal(per_seat)
    f: dict[str, Estimate] = {}
    f["strong_win"] = cluster_ratio(w["game_id"], w["won"]).rate(conf)
    winners = w.pivot(index="game_id", columns="seat", values="winner")  # a deal's winner on each seat table
    if winners.isna().any().any():
        raise AnalysisError(f"{base.path}: the seat tables do not play the same game ids")
    won_all = (winners.to_numpy() == np.arange(4)).all(axis=1)
    f["strong_all"] = proportion(int(won_all.sum()), len(winners), conf)
    decided = (winners >= 0).all(axis=1).to_numpy()
    same = (winners.nunique(axis=1) == 1).to_numpy() & decided
    f["same_cards"] = proportion(int(same.sum()), int(decided.sum()), conf)
    f["margin"] = cluster_ratio(w["game_id"], w["margin"]).estimate(conf)
    d = by_deal(diffs)
    f["strong_points"] = cluster_ratio(d["game_id"], d["d"]).estimate(conf)
    return RotationFigures(n_deals=len(winners), figures=f, margins=w["margin"].to_numpy(np.int64),
                           lengths=w["hands"].to_numpy(np.int64))
