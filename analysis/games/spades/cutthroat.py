"""Cutthroat rotations: one player alone against the others of another, on the same deals, from every seat.

A partnership duplicate match swaps two teams; cutthroat (presets ``cutthroat``: four players each alone,
``cutthroat3``: three) has no teams, so its duplicate design is a rotation (``tricksim.jobs.spades.cutthroat``
plays it): the **field** table with the weaker player in every seat, then one table per seat ``k`` with the
stronger player in seat ``k`` and the weaker in the others. Written for the ``n`` seats of the run's rules
(``outcomes.seats``); the figures below are given for four. A hand's cards depend only on the seed, the game id and the hand number, never on
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

Two players (``twohanded``) need no field: the two seat tables are a duplicate pair, the seats swapped on the same
deals (:func:`check_pair`); ``field_run`` is then None and ``strong_points`` compares seat k of table k with seat k
of the other table (the same stock; the weaker there plays against the stronger).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...io import AnalysisError, open_run
from ...stats import ClusterRatio, Estimate, fmt_estimate, proportion
from .outcomes import NUMBER_WORDS, lead, partnerships, seats

__all__ = ["RotationFigures", "by_deal", "check_pair", "check_rotation", "cluster_ratio", "deal_sums",
           "format_rotation", "luck_baseline", "rotation_figures"]


@dataclass
class RotationFigures:
    """The skill and luck of one rotation (:func:`rotation_figures`)."""

    n_deals: int
    figures: dict[str, Estimate]
    margins: np.ndarray = field(repr=False)   # every seat-game's margin, the stronger's lead at the end
    lengths: np.ndarray = field(repr=False)   # every seat table's games' hands (the field's are not counted)
    n_seats: int = 4
    with_field: bool = True                   # False: two players' seat tables alone, a duplicate pair


def luck_baseline(w: float, n: int) -> float:
    """The share of deals whose ``n`` seat tables the same seat wins if the winner did not depend on the cards
    and the stronger player won a share ``w`` of its games: n·w·((1 − w)/(n − 1))^(n − 1)."""
    return n * w * ((1 - w) / (n - 1)) ** (n - 1)


def check_rotation(field_run, seat_runs, itself: bool = False) -> None:
    """Raises AnalysisError unless ``seat_runs`` (seat 0..n-1) and ``field_run`` are one rotation: cutthroat, the
    same rules and seed, one player alone in seat k on table k and the field's player everywhere else.
    ``itself``: the player alone is the field's player (a sweep's value that is its baseline), so every table
    seats the field's players."""
    runs = [open_run(field_run), *(open_run(r) for r in seat_runs)]
    base = runs[0]
    if partnerships(base.rules):
        raise AnalysisError(f"{base.path}: a rotation is played without partnerships (preset cutthroat)")
    n = seats(base.rules)
    if len(runs) != n + 1:
        raise AnalysisError(f"a cutthroat rotation of {n} players is a field table and {n} seat tables: "
                            f"got {len(runs) - 1}")
    for k, r in enumerate(runs[1:]):
        if r.rules != base.rules or r.manifest.get("seed") != base.manifest.get("seed"):
            raise AnalysisError(f"{r.path} and {base.path} are not tables of one rotation (their rules or seeds "
                                "differ)")
        others = [s for j, s in enumerate(r.seats) if j != k]
        if others != [base.seats[j] for j in range(n) if j != k] or (r.seats[k] == base.seats[k]) != itself:
            raise AnalysisError(f"{r.path}: seat {k} is not the one seat played by another player than the field "
                                f"{base.path} ({r.seats} against {base.seats})")


def check_pair(seat_runs) -> None:
    """Raises AnalysisError unless ``seat_runs`` are the two tables of a two-player duplicate pair: each player
    alone, the same rules and seed, the two players' seats swapped."""
    runs = [open_run(r) for r in seat_runs]
    if len(runs) != 2 or any(partnerships(r.rules) or seats(r.rules) != 2 for r in runs):
        raise AnalysisError("a duplicate pair without a field is two tables of two players each alone (twohanded): "
                            f"got {len(runs)} of {', '.join(str(seats(r.rules)) for r in runs)} players")
    a, b = runs
    if a.rules != b.rules or a.manifest.get("seed") != b.manifest.get("seed"):
        raise AnalysisError(f"{a.path} and {b.path} are not the two tables of one pair (their rules or seeds differ)")
    if b.seats != a.seats[::-1] or a.seats[0] == a.seats[1]:
        raise AnalysisError(f"{b.path}: the seats are not those of {a.path} swapped ({b.seats} against {a.seats})")


def by_deal(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of several tables, a deal's (game id's) together and the deals in increasing order (a
    ClusterRatio's order)."""
    return pd.concat(frames, ignore_index=True).sort_values("game_id", kind="stable", ignore_index=True)


def deal_sums(game_id, y, n_ids: int) -> np.ndarray:
    """The sum of the integers ``y`` (None: the rows) of each deal ``0 .. n_ids - 1``, from rows in any order:
    what a ClusterRatio keeps of a cluster, so the rows of several tables need not be held to pool them."""
    w = None if y is None else np.asarray(y, np.int64)  # float64 sums of hand scores and counts: exact (< 2**53)
    return np.rint(np.bincount(np.asarray(game_id, np.int64), weights=w, minlength=n_ids)).astype(np.int64)


def cluster_ratio(cluster, y, n=None) -> ClusterRatio:
    return ClusterRatio().update(np.asarray(cluster, np.int64), np.asarray(y, np.int64),
                                 None if n is None else np.asarray(n, np.int64))


def rotation_figures(field_run, seat_runs, conf: float = 0.95, itself: bool = False) -> RotationFigures:
    """Skill and luck of a rotation (module docstring) from its field run and its n seat runs (seat 0..n-1); with
    two players ``field_run`` may be None (a duplicate pair: :func:`check_pair`); ``itself``: as in
    :func:`check_rotation` (the field run may then stand for every seat table)."""
    if field_run is None:
        check_pair(seat_runs)
    else:
        check_rotation(field_run, seat_runs, itself)
    tables = [open_run(r) for r in seat_runs]
    n = seats(tables[0].rules)
    totals = [f"total_{s}" for s in range(n)]
    games = [t.games(["game_id", "hands", "winner", *totals]) for t in tables]
    if field_run is not None:
        base_hands = open_run(field_run).hands(["game_id", "hand_no", *(f"score_{s}" for s in range(n))])

    n_ids = 1 + max((int(g["game_id"].max()) for g in games if len(g)), default=-1)
    d_sum, d_n = np.zeros(n_ids, np.int64), np.zeros(n_ids, np.int64)  # strong_points: a deal's sums, every table
    per_seat = []
    for k, (t, g) in enumerate(zip(tables, games)):
        per_seat.append(pd.DataFrame({"game_id": g["game_id"], "seat": k, "winner": g["winner"],
                                      "won": (g["winner"] == k).astype(np.int64),
                                      "margin": lead([g[c].to_numpy() for c in totals], k),
                                      "hands": g["hands"]}))
        h = t.hands(["game_id", "hand_no", f"score_{k}"])
        weak = (base_hands[["game_id", "hand_no", f"score_{k}"]] if field_run is not None
                else tables[1 - k].hands(["game_id", "hand_no", f"score_{k}"]))  # a pair: the other table
        pair = h.merge(weak, on=["game_id", "hand_no"], suffixes=("_strong", "_weak"))
        gid = pair["game_id"].to_numpy(np.int64)
        d = pair[f"score_{k}_strong"].to_numpy(np.int64) - pair[f"score_{k}_weak"].to_numpy(np.int64)
        d_sum += deal_sums(gid, d, n_ids)
        d_n += deal_sums(gid, None, n_ids)
        del h, weak, pair
    w = by_deal(per_seat)
    f: dict[str, Estimate] = {}
    f["strong_win"] = cluster_ratio(w["game_id"], w["won"]).rate(conf)
    winners = w.pivot(index="game_id", columns="seat", values="winner")  # a deal's winner on each seat table
    if winners.isna().any().any():
        raise AnalysisError(f"{tables[0].path}: the seat tables do not play the same game ids")
    won_all = (winners.to_numpy() == np.arange(n)).all(axis=1)
    f["strong_all"] = proportion(int(won_all.sum()), len(winners), conf)
    decided = (winners >= 0).all(axis=1).to_numpy()
    same = (winners.nunique(axis=1) == 1).to_numpy() & decided
    f["same_cards"] = proportion(int(same.sum()), int(decided.sum()), conf)
    f["margin"] = cluster_ratio(w["game_id"], w["margin"]).estimate(conf)
    played = np.flatnonzero(d_n)
    f["strong_points"] = cluster_ratio(played, d_sum[played], d_n[played]).estimate(conf)
    return RotationFigures(n_deals=len(winners), figures=f, margins=w["margin"].to_numpy(np.int64),
                           lengths=w["hands"].to_numpy(np.int64), n_seats=n, with_field=field_run is not None)


def format_rotation(rot: RotationFigures, strong: str, weak: str) -> str:
    """Plain-text report of a rotation (``tricksim compare`` of a preset without partnerships): ``strong`` alone
    in each seat in turn against the others ``weak``, each figure with its interval and n."""
    n = rot.n_seats
    f = rot.figures
    others = NUMBER_WORDS.get(n - 1, str(n - 1))
    tables = (f"each played on {n + 1} tables: {n} seat tables and the field, all {weak}" if rot.with_field else
              f"each played on {n} tables, the seats swapped: a duplicate pair")
    head = (f"Rotation: {strong} alone in each of the {NUMBER_WORDS.get(n, n)} seats against {others} {weak} "
            f"({rot.n_deals:,} deals, {tables}; 95 % intervals clustered by deal)")
    luck = (f"decided deals the same seat won on all {n} tables (luck; "
            f"{100 * luck_baseline(1 / n, n):.2g} % between equal players if the cards did not matter)")
    won = f"{strong} games won, n = seat-games ({100 / n:.3g} % = no edge)"
    rows = [(won, f["strong_win"]),
            ("deals it won from every seat, n = deals", f["strong_all"]),
            (luck, f["same_cards"]),
            ("final lead over the best other seat, n = seat-games", f["margin"]),
            (f"points a hand, {strong} − {weak} in the same seat and cards, n = seat-hands", f["strong_points"])]
    w = max(len(k) for k, _ in rows) + 2
    return "\n".join([head] + [f"{k:<{w}}{fmt_estimate(v)}" for k, v in rows])
