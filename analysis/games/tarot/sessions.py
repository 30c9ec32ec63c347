"""Tarot games-mode runs (whole games, docs/rules.md "Tarot games"): who wins a game and by how much, how
often the leader after k deals wins it, and the deal-level figures with intervals clustered by game.

A game is the independent unit: its deals share running totals, so every deal-level figure here is a
:class:`~tricksim.analysis.stats.ClusterRatio` over games, and every game-level one (the winner, the margin,
the leader after k deals) has one observation a game (Wilson for rates, t for means). A seat's share of the
games is its outright wins over the games (a tie at the top is no seat's win, counted apart); a strategy's
share pools its seats: its outright wins over its seat-games, clustered by game. Imports only pyarrow and
numpy, like the summary.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run, open_runs
from ...parallel import map_run
from ...stats import ClusterOrderError, ClusterRatio, Clusters, Moments, fmt_estimate, fmt_int, fmt_rate
from .summary import CONTRACTS

__all__ = ["format_leader", "format_rows", "format_sessions", "leader_table", "session_numbers", "sessions_table",
           "summarize_games"]

DEAL_FIGURES = ("void_all_pass", "void_petit_sec", "won", "taker_score", "petit_au_bout", "poignee", "slam",
                "chelem")


def _need_games(run) -> None:
    if run.game != "tarot" or not run.is_games:
        raise AnalysisError(f"{run.path}: a {run.game} {run.mode} run, not a tarot games run "
                            "(tricksim simulate tarot --games N)")


def session_numbers(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """The sums behind the games-mode summary and the session studies, mergeable shard by shard: game-level
    counts (outright wins by seat and by strategy, ties, margin, length, ends), the leader after k deals
    (``lead[k] = [games with one leader after k deals, of which that leader won]``) and the deal-level
    ClusterRatios (clustered by game)."""
    run = open_run(run_dir)
    _need_games(run)
    n = run.n_seats
    labels = run.seat_labels
    strategies = sorted(set(labels))
    totals = [f"total_{s}" for s in range(n)]
    r = {"run": run, "games": 0, "deals": 0, "wins": np.zeros(n, np.int64), "ties": 0, "length": Moments(),
         "margin": Moments(), "ends": {}, "lead": {},
         "by_strategy": {x: ClusterRatio() for x in strategies},
         "margins": {}}  # margin -> games, for the quantiles
    winner_of = {}
    gcols = ["game_id", "deals", "winner", "margin", "end"] + totals
    for b in run.iter_games(gcols, batch_rows):
        a = batch_arrays(b, [c for c in gcols if c != "end"])
        r["games"] += b.num_rows
        w = a["winner"]
        r["wins"] += np.bincount(w[w >= 0], minlength=n)[:n]
        r["ties"] += int((w < 0).sum())
        r["length"].update(a["deals"])
        r["margin"].update(a["margin"])
        for m, c in zip(*np.unique(a["margin"], return_counts=True)):
            r["margins"][int(m)] = r["margins"].get(int(m), 0) + int(c)
        for v, c in zip(*np.unique(np.asarray(b.column("end").to_pylist()), return_counts=True)):
            r["ends"][str(v)] = r["ends"].get(str(v), 0) + int(c)
        for x in strategies:
            mine = np.array([lab == x for lab in labels])
            r["by_strategy"][x].update(a["game_id"], (w[:, None] == np.flatnonzero(mine)[None, :]).sum(axis=1),
                                       np.full(b.num_rows, int(mine.sum())))
        winner_of.update(zip(a["game_id"].tolist(), w.tolist()))
    if r["games"] == 0:
        raise AnalysisError(f"{run.path}: the run has no game rows")
    ids = np.array(sorted(winner_of), np.int64)
    winners = np.array([winner_of[i] for i in ids.tolist()], np.int64)
    deal = {k: ClusterRatio() for k in DEAL_FIGURES}
    contract = {c: {"bid": ClusterRatio(), "won": ClusterRatio(), "taker_score": ClusterRatio(),
                    "half_points": ClusterRatio()} for c in CONTRACTS}
    dcols = ["game_id", "deal_no", "void", "contract", "won", "chelem", "petit_au_bout", "poignee", "slam",
             "taker", "taker_points"] + [f"score_{s}" for s in range(n)] + totals
    try:
        for b in run.iter_hands(dcols, batch_rows):
            a = batch_arrays(b, dcols)
            rows = b.num_rows
            r["deals"] += rows
            gid = Clusters(a["game_id"])
            one = np.ones(rows, np.int64)
            played = (a["void"] == 0).astype(np.int64)
            deal["void_all_pass"].update(gid, a["void"] == 1)
            deal["void_petit_sec"].update(gid, a["void"] == 2)
            deal["won"].update(gid, played * (a["won"] == 1), played)
            scores = np.stack([a[f"score_{s}"] for s in range(n)])
            taker_score = np.where(played == 1, scores[np.clip(a["taker"], 0, n - 1), np.arange(rows)], 0)
            deal["taker_score"].update(gid, taker_score, played)
            for name, hit in (("petit_au_bout", a["petit_au_bout"] != 0), ("poignee", a["poignee"] > 0),
                              ("slam", a["slam"] != 0), ("chelem", a["chelem"] == 1)):
                deal[name].update(gid, played * hit, played)
            for code, name in enumerate(CONTRACTS, start=1):
                mine = played * (a["contract"] == code)
                c = contract[name]
                c["bid"].update(gid, mine, played)
                c["won"].update(gid, mine * (a["won"] == 1), mine)
                c["taker_score"].update(gid, taker_score * mine, mine)
                c["half_points"].update(gid, np.rint(2 * a["taker_points"]).astype(np.int64) * mine, mine)
            # the leader after k deals (k = deal_no + 1): the one seat at the highest running total
            t = np.stack([a[c] for c in totals], axis=1)
            top = t.max(axis=1)
            sole = (t == top[:, None]).sum(axis=1) == 1
            leader = t.argmax(axis=1)
            pos = np.searchsorted(ids, a["game_id"])
            if (pos >= ids.size).any() or (ids[np.minimum(pos, ids.size - 1)] != a["game_id"]).any():
                raise AnalysisError(f"{run.path}: deals of a game missing from the games table")
            won = sole & (leader == winners[pos])
            k = a["deal_no"].astype(np.int64) + 1
            for kk, c_sole, c_won, c_all in zip(*_by_k(k, sole, won)):
                got = r["lead"].setdefault(int(kk), np.zeros(3, np.int64))
                got += (c_sole, c_won, c_all)
    except ClusterOrderError as e:
        raise AnalysisError(f"{run.path}: {e}") from None
    r["deal"], r["contract"] = deal, contract
    return r


def halved(e):
    """An estimate of half-points (``half_points``) in points."""
    import dataclasses

    return dataclasses.replace(e, value=e.value / 2, lo=e.lo / 2, hi=e.hi / 2)


def _by_k(k, sole, won):
    """Per deal number k: the rows with one leader, with one leader who won the game, and all rows."""
    ks = np.unique(k)
    idx = np.searchsorted(ks, k)
    return (ks, np.bincount(idx, weights=sole, minlength=ks.size).astype(np.int64),
            np.bincount(idx, weights=won, minlength=ks.size).astype(np.int64),
            np.bincount(idx, minlength=ks.size).astype(np.int64))


def _numbers(run_dir, engine: str = "local", scheduler: str | None = None, batch_rows: int = DEFAULT_BATCH_ROWS):
    return map_run(partial(session_numbers, batch_rows=batch_rows), run_dir, engine=engine, scheduler=scheduler)


def _quantile(hist: dict, q: float) -> int:
    """The q-quantile (lower) of the values counted in ``hist`` {value: count}."""
    values = sorted(hist)
    counts = np.cumsum([hist[v] for v in values])
    return int(values[int(np.searchsorted(counts, q * counts[-1]))])


def _mean(m: Moments, digits: int = 1) -> str:
    return fmt_estimate(m.estimate(), digits) if m.n >= 2 else f"n={m.n}"


def leader_table(r: dict) -> list[dict]:
    """The leader after k deals, for every k some game reached: games with one leader then (n), how many of
    those leaders won the game outright, the rate with its Wilson interval, and the games tied at the top
    after k deals (no leader)."""
    from ...stats import proportion

    out = []
    for k in sorted(r["lead"]):
        sole, won, games = (int(x) for x in r["lead"][k])
        e = proportion(won, sole)
        out.append({"after_deals": k, "games": games, "one_leader": sole, "leader_won": won, "rate": e.value,
                    "lo": e.lo, "hi": e.hi, "tied": games - sole})
    return out


def sessions_table(runs, *, engine: str = "local", scheduler: str | None = None) -> list[dict]:
    """Who wins a game and by how much, per run: each seat's and each strategy's share of the games won
    outright, ties, the winning margin (mean with its t interval, median and 10 / 90 % quantiles)."""
    out = []
    for run in open_runs(list(runs)):
        r = _numbers(run, engine, scheduler)
        g = r["games"]
        row = {"run": str(r["run"].path), "games": g, "deals": r["deals"], "ties": r["ties"],
               "seat_wins": [int(x) for x in r["wins"]], "margin": r["margin"].estimate(),
               "margin_median": _quantile(r["margins"], 0.5), "margin_q10": _quantile(r["margins"], 0.1),
               "margin_q90": _quantile(r["margins"], 0.9),
               "strategies": {x: c.rate() for x, c in r["by_strategy"].items()}, "numbers": r}
        out.append(row)
    return out


def format_leader(r: dict, ks=None) -> str:
    """'after k deals  rate [lo, hi] (n=..)' lines of the leader study (every k, or those of ``ks``)."""
    rows = [x for x in leader_table(r) if ks is None or x["after_deals"] in ks]
    lines = [f"{'after deals':>11}  {'leader wins the game':<34}{'no single leader':>17}"]
    for x in rows:
        lines.append(f"{x['after_deals']:>11}  {fmt_rate(x['leader_won'], x['one_leader']):<34}"
                     f"{fmt_int(x['tied']):>17}")
    return "\n".join(lines)


def format_sessions(runs, *, engine: str = "local", scheduler: str | None = None) -> str:
    """The text of ``tricksim sessions``: per run, who wins and by how much, then the leader after k deals."""
    return format_rows(sessions_table(runs, engine=engine, scheduler=scheduler))


def format_rows(rows: list[dict]) -> str:
    """The text of ``tricksim sessions`` for the rows of :func:`sessions_table`."""
    blocks = []
    for row in rows:
        r = row["numbers"]
        run, g, n = r["run"], row["games"], r["run"].n_seats
        w = 18
        lines = [f"{run.path}: tarot games, preset {run.rules_text()}, {fmt_int(g)} games, {fmt_int(r['deals'])} "
                 "deals   (95 % intervals, a game the unit; n = games)",
                 f"{'seats':<{w}}" + "; ".join(f"seat {s} = {x}" for s, x in enumerate(run.seat_labels)),
                 f"{'wins outright':<{w}}" + "   ".join(f"seat {s} {fmt_rate(int(r['wins'][s]), g)}"
                                                    for s in range(n)),
                 f"{'tied at the top':<{w}}{fmt_rate(r['ties'], g)}"]
        if len(r["by_strategy"]) > 1:
            lines.append(f"{'by strategy':<{w}}" + "   ".join(
                f"{x} {fmt_estimate(c.rate())} of its seat-games" for x, c in r["by_strategy"].items()))
        lines.append(f"{'winning margin':<{w}}mean {_mean(r['margin'])} points over the second; median "
                     f"{row['margin_median']}, 10 % {row['margin_q10']}, 90 % {row['margin_q90']}")
        lines.append(f"{'game length':<{w}}{_mean(r['length'])} deals")
        lines.append("how often the leader after k deals wins the game (one leader: no tie at the top):")
        lines.append(format_leader(r))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def summarize_games(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
                    scheduler: str | None = None) -> str:
    """The summary of a Tarot games run: the deals' figures clustered by game, then the games'."""
    r = _numbers(run_dir, engine, scheduler, batch_rows)
    run, g, n = r["run"], r["games"], r["run"].n_seats
    head = f"{run.path}: tarot, games mode, preset {run.rules_text()}"
    if run.manifest.get("seed") is not None:
        head += f", seed {run.manifest['seed']}"
    if run.status not in (None, "complete"):
        head += f"  [status: {run.status}]"
    labels = sorted(set(run.seat_labels))
    d, w = r["deal"], 16

    def rate(c):
        return fmt_estimate(c.rate())

    lines = [
        head,
        f"{'seats':<{w}}" + ("; ".join(f"seat {s} = {x}" for s, x in enumerate(run.seat_labels))
                             if len(labels) > 1 else f"all = {labels[0]}"),
        f"{'size':<{w}}{fmt_int(r['deals'])} deals, {fmt_int(g)} games   (95 % intervals clustered by game; "
        "n = observations)",
        f"{'void deals':<{w}}all passed {rate(d['void_all_pass'])}   Petit sec {rate(d['void_petit_sec'])}",
        f"{'taker wins':<{w}}{rate(d['won'])}   taker's score {fmt_estimate(d['taker_score'].estimate(), 1)}",
    ]
    for name in CONTRACTS:
        c = r["contract"][name]
        if c["bid"].k:
            lines.append(f"{'  ' + name:<{w}}bid {rate(c['bid'])}   won {rate(c['won'])}   taker's score "
                         f"{fmt_estimate(c['taker_score'].estimate(), 1)}")
    lines.append(f"{'bonuses':<{w}}petit au bout {rate(d['petit_au_bout'])}   poignée {rate(d['poignee'])}   "
                 f"slam {rate(d['slam'])}   Chelem announced {rate(d['chelem'])}")
    lines.append(f"{'game winner':<{w}}" + "   ".join(f"seat {s} {fmt_rate(int(r['wins'][s]), g)}"
                                                    for s in range(n))
                 + (f"   tied {fmt_rate(r['ties'], g)}" if r["ties"] else ""))
    lines.append(f"{'winning margin':<{w}}{_mean(r['margin'])} points over the second")
    lines.append(f"{'game length':<{w}}{_mean(r['length'])} deals")
    ends = ", ".join(f"{k} {fmt_rate(v, g)}" for k, v in sorted(r["ends"].items(), key=lambda kv: -kv[1]))
    lines.append(f"{'game ends':<{w}}{ends}")
    table = leader_table(r)
    if table:
        last = max(x["after_deals"] for x in table)
        ks = sorted({1, max(1, last // 4), max(1, last // 2), max(1, 3 * last // 4)})
        lines.append(f"{'leader wins':<{w}}" + "   ".join(
            f"after {x['after_deals']} {fmt_rate(x['leader_won'], x['one_leader'])}" for x in table
            if x["after_deals"] in ks) + "   (tricksim sessions: every k)")
    return "\n".join(lines)
