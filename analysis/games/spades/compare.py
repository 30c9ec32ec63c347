"""Duplicate matches and round robins between strategies.

A duplicate match plays the same deals twice: run 1 with strategy A as team 0
and B as team 1, run 2 with the seats swapped and the same seeds, so game
``g`` of run 1 and game ``g`` of run 2 share their deals. Pairing on
``game_id`` cancels most of the luck of the cards; the unit of analysis is
the *pair*:

* A's score in a pair = (A's result in game 1 + in game 2) / 2, a result
  being 1 for a win, ½ for a tie at the hand limit, 0 for a loss; A's win
  rate is the mean pair score, with a t interval over pairs;
  (when every pair scored the same, the Wilson interval of the pair scores
  taken as Bernoulli trials replaces the zero-width t interval);
* the pair outcome counts: A won both games, one, none;
* margin, game length, and (when the hands are given) bags per hand, bag
  penalties and sets (failed contracts) per game, each for A and B with the
  paired difference A − B;
* sample-size guidance: pairs needed to resolve the observed edge at 95 %
  / 80 % power, next to the games an unpaired design would need.

:func:`duplicate_match` works on two games tables (pyarrow or pandas);
:func:`duplicate_match_runs` reads two run directories. For several
strategies, :func:`round_robin_table` and :func:`plot_round_robin` take a
dict of pairwise results.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run
from ...parallel import Engine
from ...plots import text_colour
from ...stats import (
    Estimate,
    fmt_int,
    fmt_mean,
    mean_ci,
    n_one_proportion,
    n_paired,
    paired_diff_ci,
    proportion,
    ratio_ci,
    wilson_interval,
)
from .outcomes import PerGame, per_game_columns, require_partnerships

__all__ = [
    "DuplicateResult",
    "duplicate_match",
    "duplicate_match_runs",
    "format_duplicate",
    "plot_round_robin",
    "round_robin_table",
    "standings",
]

GAME_COLUMNS = ["game_id", "hands", "total_0", "total_1", "winner"]


@dataclass
class DuplicateResult:
    """Outcome of a duplicate match between strategies ``a`` and ``b`` (all from A's side)."""

    a: str
    b: str
    n_pairs: int
    both: int                 # pairs where A won both games
    one: int                  # pairs split (including ties at the hand limit)
    none: int                 # pairs where A won neither game
    win: Estimate             # A's mean pair score (win rate), paired t interval
    win_unpaired: Estimate    # A's wins over all 2n games, Wilson (for comparison only)
    margin: Estimate          # A's final margin per game (A total − B total)
    length: Estimate          # hands per game
    pair_sd: float            # SD of the pair score
    n_pairs_needed: float     # pairs to resolve the observed edge (95 %, 80 % power)
    n_games_needed_unpaired: float
    per_hand: dict = field(default_factory=dict)   # metric -> {"a", "b", "diff": Estimate}
    notes: list = field(default_factory=list)
    conf: float = 0.95
    pair_ids: np.ndarray | None = None     # the deals (game ids) of the pairs, ascending
    pair_scores: np.ndarray | None = None  # A's score in each pair (1, ¾, ½, ¼ or 0)
    specs: dict = field(default_factory=dict)  # label -> full spec, where the label is the user's alias

    def table(self) -> pd.DataFrame:
        """Metrics (rows) with A, B and A − B columns as 'value [lo, hi] (n=…)' strings."""
        rows = [
            {"metric": "win rate (paired: mean pair score)", "A": _pct(self.win), "B": _pct(self.win, True),
             "A − B": ""},
            {"metric": "pairs: A won both / split / neither", "A": f"{fmt_int(self.both)} / {fmt_int(self.one)} / "
             f"{fmt_int(self.none)}", "B": "", "A − B": ""},
            {"metric": f"{self.a} win rate, unpaired Wilson (2n games)", "A": str(self.win_unpaired), "B": "",
             "A − B": ""},
            {"metric": "final margin per game (A − B)", "A": "", "B": "", "A − B": str(self.margin)},
            {"metric": "game length (hands)", "A": str(self.length), "B": "", "A − B": ""},
        ]
        for name, d in self.per_hand.items():
            rows.append({"metric": name, "A": str(d["a"]), "B": str(d["b"]), "A − B": str(d["diff"])})
        rows.append({"metric": "pairs needed to resolve this edge (95 %, 80 % power)",
                     "A": _fmt_needed(self.n_pairs_needed, "pairs"), "B": "",
                     "A − B": f"unpaired: {_fmt_needed(self.n_games_needed_unpaired, 'games')}"})
        return pd.DataFrame(rows)

    def __str__(self) -> str:
        return format_duplicate(self)


def _pct(e: Estimate, complement: bool = False) -> str:
    """A rate estimate as 'value % [lo, hi] (n=…)' (or 1 − it, for the opponent)."""
    v, lo, hi = (1 - e.value, 1 - e.hi, 1 - e.lo) if complement else (e.value, e.lo, e.hi)
    return fmt_mean(100 * v, 100 * lo, 100 * hi, e.n, 1).replace(" [", " % [", 1)


def _fmt_needed(n: float, unit: str) -> str:
    return "∞ (no observed difference)" if not math.isfinite(n) else f"{fmt_int(n)} {unit}"


def _result_for_a(winner: np.ndarray, a_team: int) -> np.ndarray:
    return np.where(winner == a_team, 1.0, np.where(winner == -1, 0.5, 0.0))


def _pair(g1: dict, g2: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """Row positions in g1 and g2 of the common game ids (sorted), and how many were unmatched."""
    id1, id2 = g1["game_id"].astype(np.int64), g2["game_id"].astype(np.int64)
    common, i1, i2 = np.intersect1d(id1, id2, assume_unique=False, return_indices=True)
    if np.unique(id1).size != id1.size or np.unique(id2).size != id2.size:
        raise AnalysisError("games table has duplicate game_id values")
    if common.size == 0:
        raise AnalysisError("the two games tables share no game_id: not the two halves of a duplicate match")
    return i1, i2, int(id1.size + id2.size - 2 * common.size)


def duplicate_match(games_ab, games_ba, *, a: str = "A", b: str = "B", per_game_ab: PerGame | None = None,
                    per_game_ba: PerGame | None = None, conf: float = 0.95) -> DuplicateResult:
    """Statistics of a duplicate match from its two games tables.

    Parameters
    ----------
    games_ab : games table (pyarrow Table or pandas DataFrame) of the run with A as team 0.
    games_ba : games table of the run with the seats swapped (A as team 1), same seeds.
    a, b : names of the two strategies.
    per_game_ab, per_game_ba : optional :class:`~tricksim.analysis.games.spades.outcomes.PerGame` sums over each
        run's hands (bags, penalties, sets); built by :func:`duplicate_match_runs`.

    Games are paired by ``game_id``; games present in only one table are
    dropped (and counted in ``notes``).
    """
    g1 = batch_arrays(games_ab, GAME_COLUMNS)
    g2 = batch_arrays(games_ba, GAME_COLUMNS)
    i1, i2, unmatched = _pair(g1, g2)
    n = i1.size
    r1 = _result_for_a(g1["winner"][i1], 0)
    r2 = _result_for_a(g2["winner"][i2], 1)
    score = (r1 + r2) / 2
    notes = []
    if unmatched:
        notes.append(f"{fmt_int(unmatched)} game(s) present in only one run were left out")
    win = mean_ci(score, conf)
    sd = float(score.std(ddof=1)) if n > 1 else math.nan
    if not sd > 0:
        # every pair scored the same (e.g. one side won all games): the t interval has zero
        # width; use the Wilson interval of the pair scores taken as n Bernoulli trials instead
        lo, hi = wilson_interval(float(score.sum()), n, conf)
        win = Estimate(win.value, lo, hi, n, conf=conf)
    else:
        win = Estimate(win.value, max(0.0, win.lo), min(1.0, win.hi), n, conf=conf)
    wins_total = int((r1 == 1).sum() + (r2 == 1).sum())
    m1 = g1["total_0"][i1].astype(np.int64) - g1["total_1"][i1].astype(np.int64)
    m2 = g2["total_1"][i2].astype(np.int64) - g2["total_0"][i2].astype(np.int64)
    h1 = g1["hands"][i1].astype(np.int64)
    h2 = g2["hands"][i2].astype(np.int64)
    edge = win.value - 0.5
    res = DuplicateResult(
        a=a, b=b, n_pairs=n,
        both=int(((r1 == 1) & (r2 == 1)).sum()),
        none=int(((r1 == 0) & (r2 == 0)).sum()),
        one=int(n - ((r1 == 1) & (r2 == 1)).sum() - ((r1 == 0) & (r2 == 0)).sum()),
        win=win,
        win_unpaired=proportion(wins_total, 2 * n, conf),
        margin=mean_ci((m1 + m2) / 2, conf),
        length=mean_ci((h1 + h2) / 2, conf),
        pair_sd=sd,
        # a paired t test needs at least 2 pairs, even when every pair agrees (sd = 0)
        n_pairs_needed=max(2.0, n_paired(edge, sd, conf)) if n > 1 else math.inf,
        n_games_needed_unpaired=n_one_proportion(0.5 + edge, 0.5, conf),
        notes=notes, conf=conf, pair_ids=g1["game_id"][i1].astype(np.int64), pair_scores=score,
    )
    if per_game_ab is not None and per_game_ba is not None:
        # PerGame arrays are aligned with the rows of each games table
        j1 = per_game_ab.index.locate(g1["game_id"][i1])
        j2 = per_game_ba.index.locate(g2["game_id"][i2])
        hands = (h1 + h2).astype(np.float64)
        bags_a = per_game_ab.bags[0][j1] + per_game_ba.bags[1][j2]
        bags_b = per_game_ab.bags[1][j1] + per_game_ba.bags[0][j2]
        res.per_hand["bags per hand"] = {"a": ratio_ci(bags_a, hands, conf), "b": ratio_ci(bags_b, hands, conf),
                                         "diff": ratio_ci(bags_a - bags_b, hands, conf)}
        for name, arr1, arr2 in (("bag penalties per game", per_game_ab.penalties, per_game_ba.penalties),
                                 ("sets (failed contracts) per game", per_game_ab.sets, per_game_ba.sets)):
            xa = (arr1[0][j1] + arr2[1][j2]) / 2
            xb = (arr1[1][j1] + arr2[0][j2]) / 2
            res.per_hand[name] = {"a": mean_ci(xa, conf), "b": mean_ci(xb, conf), "diff": paired_diff_ci(xa, xb, conf)}
    return res


def _per_game(run, batch_rows: int) -> tuple[object, PerGame]:
    """The games table of ``run`` (or of some of its shards: a game's hands are in its game's shard) and the
    per-game sums over its hands."""
    games = run.read_games(GAME_COLUMNS)
    g = batch_arrays(games, ["game_id", "hands"])
    pg = PerGame(g["game_id"], g["hands"], run.rules)
    pg.add_batches(run.iter_hands(per_game_columns(run.rules), batch_rows))
    return games, pg


def duplicate_match_runs(run_ab, run_ba, *, a: str | None = None, b: str | None = None, conf: float = 0.95,
                         batch_rows: int = DEFAULT_BATCH_ROWS, check_deals: bool = True,
                         engine: Engine | None = None) -> DuplicateResult:
    """:func:`duplicate_match` on two games-mode run directories, with bags, penalties and sets.

    ``a`` / ``b`` default to team 0's / team 1's strategy in ``run_ab``'s
    manifest. Adds notes when the manifests do not look like the two halves
    of a duplicate match (seats not swapped, different seeds or rules) and,
    with ``check_deals``, when the first hands of paired games were dealt
    differently. With a Dask ``engine`` the hands are read and summed per game on its workers.
    """
    r1, r2 = open_run(run_ab), open_run(run_ba)
    for r in (r1, r2):
        require_partnerships(r, "a duplicate match", "its duplicate design is a rotation "
                             "(tricksim.analysis.games.spades.cutthroat.rotation_figures)")
        if not r.is_games:
            raise AnalysisError(f"{r.path}: a duplicate match needs games-mode runs (mode={r.mode!r})")
    t0, t1 = r1.team_strategies()
    a = a or t0
    b = b or t1
    per_game = partial(_per_game, batch_rows=batch_rows)
    games1, pg1 = (engine or Engine()).map_run(per_game, r1)
    games2, pg2 = (engine or Engine()).map_run(per_game, r2)
    res = duplicate_match(games1, games2, a=a, b=b, per_game_ab=pg1, per_game_ba=pg2, conf=conf)
    s1, s2 = r1.seats, r2.seats
    if [s1[1], s1[0], s1[3], s1[2]] != s2:
        res.notes.append(f"seats are not swapped between the runs: {s1} vs {s2}")
    if r1.manifest.get("seed") != r2.manifest.get("seed"):
        res.notes.append(f"seeds differ ({r1.manifest.get('seed')} vs {r2.manifest.get('seed')}): deals are not shared")
    if r1.rules != r2.rules:
        res.notes.append("rule sets differ between the runs")
    if check_deals and r1.has_columns("hands", ["dealt_0"]) and r2.has_columns("hands", ["dealt_0"]):
        frac = _deal_agreement(r1, r2)
        if frac is not None and frac < 1.0:
            res.notes.append(f"only {100 * frac:.1f} % of paired first hands were dealt the same cards")
    return res


def _deal_agreement(r1, r2) -> float | None:
    """Share of games whose first hand has the same ``dealt_0`` in both runs (first file of each)."""
    cols = ["game_id", "hand_no", "dealt_0"]
    a = batch_arrays(next(r1.iter_hands(cols, 65_536)), cols)
    b = batch_arrays(next(r2.iter_hands(cols, 65_536)), cols)
    fa, fb = a["hand_no"] == a["hand_no"].min(), b["hand_no"] == b["hand_no"].min()
    common, ia, ib = np.intersect1d(a["game_id"][fa], b["game_id"][fb], return_indices=True)
    if not common.size:
        return None
    return float((a["dealt_0"][fa][ia] == b["dealt_0"][fb][ib]).mean())


INTERVALS = "95 % intervals over deal pairs; the unpaired line over games"


def format_duplicate(res: DuplicateResult) -> str:
    """Plain-text report of a duplicate match: who A and B are, then each figure with its interval and n."""
    pct = round(res.conf * 100)
    lines = [(f"Duplicate match: A = {res.a}, B = {res.b}  ({fmt_int(res.n_pairs)} deal pairs = "
              f"{fmt_int(2 * res.n_pairs)} games; {INTERVALS.replace('95 %', f'{pct} %')})")]
    lines += [f"  {label} = {spec}" for label, spec in res.specs.items()]
    rows = [("A win rate (paired)", _pct(res.win)),
            ("pairs: A won both / split / neither", f"{fmt_int(res.both)} / {fmt_int(res.one)} / {fmt_int(res.none)}"),
            ("A win rate, unpaired (for comparison)", str(res.win_unpaired)),
            ("final margin per game (A − B)", str(res.margin)),
            ("game length (hands)", str(res.length))]
    rows += [(name, f"A {d['a']}   B {d['b']}   A − B {d['diff']}") for name, d in res.per_hand.items()]
    needed = (f"{_fmt_needed(res.n_pairs_needed, 'pairs')} "
              f"(unpaired design: {_fmt_needed(res.n_games_needed_unpaired, 'games')})")
    rows.append(("to resolve this edge (80 % power)", needed))
    w = max(len(k) for k, _ in rows) + 2
    lines += [f"{k:<{w}}{v}" for k, v in rows]
    lines += [f"note: {n}" for n in res.notes]
    return "\n".join(lines)


# ------------------------------------------------------------------ round robin
def _matrix(results: dict) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    names: list[str] = []
    for (x, y) in results:
        for s in (x, y):
            if s not in names:
                names.append(s)
    k = len(names)
    val, lo, hi, n = (np.full((k, k), np.nan) for _ in range(4))
    for (x, y), r in results.items():
        i, j = names.index(x), names.index(y)
        e = r.win
        val[i, j], lo[i, j], hi[i, j], n[i, j] = e.value, e.lo, e.hi, e.n
        if (y, x) not in results:
            val[j, i], lo[j, i], hi[j, i], n[j, i] = 1 - e.value, 1 - e.hi, 1 - e.lo, e.n
    return names, val, lo, hi, n


def round_robin_table(results: dict) -> pd.DataFrame:
    """Win-rate matrix: row strategy's paired win rate against the column strategy.

    ``results`` maps ``(a, b)`` to a :class:`DuplicateResult` of a vs b; the
    reverse pairing is filled in as 1 − rate when absent. Cells read
    'rate % [lo, hi] (n=pairs)'.
    """
    names, val, lo, hi, n = _matrix(results)
    cells = [["—" if i == j or np.isnan(val[i, j]) else
              fmt_mean(100 * val[i, j], 100 * lo[i, j], 100 * hi[i, j], int(n[i, j]), 1).replace(" [", " % [", 1)
              for j in range(len(names))] for i in range(len(names))]
    df = pd.DataFrame(cells, index=names, columns=names)
    df.index.name = "row vs column"
    return df


def _deal_scores(results: dict, name: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """(deal ids, ``name``'s pair score) of each of ``name``'s matches."""
    out = []
    for (x, y), r in results.items():
        if r.pair_ids is None or name not in (x, y) or x == y:
            continue
        out.append((r.pair_ids, r.pair_scores if x == name else 1.0 - r.pair_scores))
    return out


def standings(results: dict, conf: float = 0.95) -> pd.DataFrame:
    """Each strategy's mean win rate over its opponents (equal weight), with an interval clustered by deal.

    The matches of a round robin play the same deals (one seed), so they are not independent: for each deal
    the strategy's pair scores against its opponents are averaged, and the interval is the t interval over
    those per-deal means (the Wilson interval of their sum when they all agree), clipped to [0, 1]. ``deals``
    is the number of deals every match played; ``pairs`` the deal pairs played in all.
    """
    names, val, lo, hi, n = _matrix(results)
    rows = []
    for i, s in enumerate(names):
        m = ~np.isnan(val[i]) & (np.arange(len(names)) != i)
        k = int(m.sum())
        if not k:
            continue
        mean = float(val[i, m].mean())
        parts = _deal_scores(results, s)
        if len(parts) == k:
            common = parts[0][0]
            for ids, _ in parts[1:]:
                common = np.intersect1d(common, ids)
            per_deal = np.mean([sc[np.searchsorted(ids, common)] for ids, sc in parts], axis=0)
            e = mean_ci(per_deal, conf)
            deals = int(common.size)
            if not (per_deal.std() > 0):
                lo_i, hi_i = wilson_interval(float(per_deal.sum()), deals, conf)
            else:
                lo_i, hi_i = max(0.0, e.lo), min(1.0, e.hi)
            mean = float(per_deal.mean())
        else:  # matches without their pair scores: their intervals taken as independent
            z = (hi - lo) / 2
            half = float(np.sqrt(np.nansum(z[i, m] ** 2))) / k
            lo_i, hi_i = max(0.0, mean - half), min(1.0, mean + half)
            deals = int(n[i, m].min())
        rows.append({"strategy": s, "opponents": k, "deals": deals, "pairs": int(n[i, m].sum()),
                     "mean win rate": mean, "lo": lo_i, "hi": hi_i,
                     "text": _pct(Estimate(mean, lo_i, hi_i, deals))})
    return pd.DataFrame(rows).sort_values("mean win rate", ascending=False, ignore_index=True)


def plot_round_robin(ax, results: dict, *, title: str = "Round robin: paired win rate (row vs column)") -> pd.DataFrame:
    """Heat map of the round-robin win rates onto ``ax``; returns the matrix drawn (rates, 0..1)."""
    names, val, lo, hi, n = _matrix(results)
    im = ax.imshow(val * 100, cmap="RdBu", vmin=0, vmax=100)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j and not np.isnan(val[i, j]):
                label = f"{100 * val[i, j]:.1f}\n[{100 * lo[i, j]:.1f}, {100 * hi[i, j]:.1f}]\nn={fmt_int(n[i, j])}"
                ax.text(j, i, label, ha="center", va="center", fontsize=7,
                        color=text_colour(im.cmap(im.norm(100 * val[i, j]))))
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.set_title(title, fontsize=10)
    ax.figure.colorbar(im, ax=ax, label="win rate (%), 95 % paired interval in brackets")
    return pd.DataFrame(val, index=names, columns=names)
