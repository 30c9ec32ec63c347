"""Two ready studies (docs/studies.md and its charts in docs/studies/):

1. which bag strategy wins, under which rules: ``tricksim sweep`` of ``bag_mode`` x ``bag_guard`` against the
   default player, for each Spades preset;
2. when to bid Nil: ``tricksim sweep`` of ``nil_threshold``, then a large self-play run per preset read by
   ``tricksim nil --by spades | high_spade | score``, and a what-if replay of the hands that did not bid Nil.

Only the public API (``import tricksim``) and the command line are used. Every run is kept under ``--out``
and reused when the script runs again with the same options (an interrupted run is finished), so a second
run only re-reads the data and rewrites the document. The script lowers its own CPU priority (nice 10).

Usage::

    python scripts/studies.py                       # the published figures: about 12 minutes on 2 cores
    python scripts/studies.py --games 20 --out /tmp/s --doc /tmp/s/studies.md    # a smoke run
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pandas as pd
from tarot_tables import BEGIN as TAROT_BEGIN  # scripts/tarot_tables.py
from tarot_tables import END as TAROT_END

import tricksim
from tricksim.analysis.stats import fmt_int, fmt_rate_interval
from tricksim.jobs import run_kept

BASELINE = "heuristic"
BAG_PRESETS = ("cardems", "zone", "classic")
BAG_GRID = "heuristic:bag_mode=take|avoid|set_take|set,bag_guard=0..9:3"
NIL_PRESETS = ("cardems", "classic")
# odd steps: the default (6) is left out, as its match would be the default against itself
NIL_GRID = "heuristic:nil_threshold=-3..13:2"
FEATURES = ("spades", "high_spade", "score")
DEFAULT_GAMES = 80000
DEFAULT_DOC = ROOT / "docs" / "studies.md"
SAY = {"beats": "beats the default", "loses to": "loses to the default",
       "is within the noise of": "is within the noise of the default"}
VERDICT_CELL = {"beats": "beats the default", "loses to": "loses to the default",
                "is within the noise of": "within the noise"}


# ----------------------------------------------------------------------------- helpers
def md_table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return out


def shown(path: Path) -> str:
    """A path as the commands in the document write it: relative to the repository when inside it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def code(text: str) -> str:
    return f"`{text}`"


def games_print(d: Path) -> str:
    """A fingerprint of a run's games: id, length and both final totals of every game."""
    g = tricksim.open_run(d).games()[["game_id", "hands", "total_0", "total_1"]].sort_values("game_id")
    return hashlib.sha256(g.to_numpy().astype("int64").tobytes()).hexdigest()


def play_groups(base: Path, n: int) -> tuple[list[list[int]], set[int]]:
    """Points of a sweep that played the very same games (both halves of their match), in grid order, and
    the points whose match is the baseline against itself (its two halves are the same games)."""
    prints = [(games_print(base / f"point{i}-ab"), games_print(base / f"point{i}-ba")) for i in range(n)]
    groups: dict[tuple, list[int]] = {}
    for i, p in enumerate(prints):
        groups.setdefault(p, []).append(i)
    return list(groups.values()), {i for i, (ab, ba) in enumerate(prints) if ab == ba}


def win_text(e, what: str) -> str:
    """A win-rate estimate as the sweep prints it, with its n."""
    return f"{100 * e.value:.1f} % [{100 * e.lo:.1f}, {100 * e.hi:.1f}] ({what}, n={fmt_int(e.n)} deal pairs)"


def verdict(e) -> str:
    if e.lo > 0.5:
        return "beats"
    if e.hi < 0.5:
        return "loses to"
    return "is within the noise of"


def disjoint(a, b) -> bool:
    return a.hi < b.lo or b.hi < a.lo


def rate_text(r, kind: str = "success") -> str:
    if kind == "bid":
        return fmt_rate_interval(r.bid_rate, r.bid_lo, r.bid_hi, r.seat_hands)
    return fmt_rate_interval(r.rate, r.lo, r.hi, r.bids)


def join(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def run_sweep(grid: str, preset: str, a, folder: Path, charts: Path, chart_name: str, log):
    base = a.out / folder
    table, points, confirmation = tricksim.sweep(grid, vs=BASELINE, games=a.games, preset=preset, seed=a.seed,
                                                 out=base, echo=log)
    shutil.copyfile(base / "sweep.png", charts / chart_name)
    groups, selfmatch = play_groups(base, len(points))
    cmd = (f"tricksim sweep '{grid}' --vs {BASELINE} --preset {preset} --games {a.games} --seed {a.seed} "
           f"--out {shown(base)}")
    return table, points, confirmation, groups, selfmatch, cmd, base


def best_label(points, table) -> str:
    p = points[int(table.index[table["best"] == "*"][0])]
    return f"{p.label}, {win_text(p.simultaneous.win, 'simultaneous')}"


def best_lines(points, table, confirmation, selfmatch) -> list[str]:
    """The best value with its simultaneous interval and the confirmation match, as the sweep prints them."""
    best = int(table.index[table["best"] == "*"][0])
    p = points[best]
    lines = [(f"Best by paired win rate: **{p.label}**, {win_text(p.simultaneous.win, 'simultaneous interval')}; "
             "the simultaneous interval holds although this value was picked as the best.")]
    if confirmation is not None:
        c = confirmation
        m = c.margin
        lines.append(f"Confirmation match on fresh deals (seed + 1, not used to pick it): win rate "
                     f"{win_text(c.win, '95 %')}, final margin {m.value:+.1f} [{m.lo:+.1f}, {m.hi:+.1f}] "
                     f"(n={fmt_int(m.n)}).")
        if best in selfmatch:
            lines.append("The best value plays exactly as the default, so this confirmation is the default against "
                         "itself: its 50 % is by construction and says nothing about strength.")
        elif c.win.lo > 0.5:
            lines.append("The confirmation's interval is above 50 %: the edge holds on fresh deals.")
        elif c.win.hi < 0.5:
            lines.append("The confirmation's interval is below 50 %: on fresh deals the picked value loses to the "
                         "default.")
        else:
            lines.append("The confirmation's interval holds 50 %: on fresh deals the picked value is within the noise "
                         "of the default.")
    return lines


def group_name(points, g: list[int]) -> str:
    """The values of a group of sweep points in words: '`bag_mode=avoid` with every bag_guard'."""
    axes = list(points[0].values)
    if len(axes) == 1:
        return join([code(points[i].label) for i in g])
    first, second = axes
    every = len({p.values[second] for p in points})
    by: dict[str, list[str]] = {}
    for i in g:
        by.setdefault(points[i].values[first], []).append(points[i].values[second])
    return join([f"`{first}={v}` with every {second}" if len(s) == every else
                 f"`{first}={v}, {second}={'|'.join(s)}`" for v, s in by.items()])


def same_games_notes(points, groups, selfmatch, games: int) -> tuple[list[str], dict[int, str]]:
    """Plain-words notes on the values that played identical games, and a cell per point for the table."""
    notes, cell = [], {}
    for g in groups:
        if g[0] in selfmatch:
            notes.append(f"{group_name(points, g)} played exactly the games of the default ({code(BASELINE)}): both "
                         f"halves of each match are the same {fmt_int(games)} games, so the win rate is 50 % by "
                         "construction, not a measurement (the tool still prints an interval around it).")
            for i in g:
                cell[i] = "the default itself"
        elif len(g) > 1:
            notes.append(f"{group_name(points, g)} played identical games (the same final scores in every one of the "
                         f"2 × {fmt_int(games)} games): in play they are one strategy.")
        for i in g[1:]:
            cell.setdefault(i, f"= {points[g[0]].label}")
    return notes, cell


# ----------------------------------------------------------------------------- study 1: bags
def bag_study(a, charts: Path, log) -> tuple[list[str], list[str]]:
    lines = ["## Study 1: which bag strategy wins, under which rules", "",
             ("Once a team's contract is safe, `heuristic` plays its overtricks by `bag_mode` (`tricksim strategies "
             "spades`): `take` keeps winning tricks, `avoid` ducks them, `set` wins while the opponents can still be "
             "set and otherwise ducks (the default), `set_take` does the same but otherwise keeps winning. "
             "`bag_guard` (default 3) makes `take` and `set_take` duck once the next overtrick would leave the team "
             "within that many bags of the bag limit (10 in every preset); `avoid` and `set` already duck then, so "
             "the parameter cannot change their play — the data below show it. The presets differ in what a bag "
             "costs: `cardems` and `classic` carry the bags beyond 10 after a penalty, `zone` resets them to 0; "
             "`classic` also has Blind Nil ([rules.md](rules.md))."), "",
             (f"Each of the {4 * 4} values plays a duplicate match of {fmt_int(a.games)} deals (every deal played "
             f"twice, seats swapped) against the default `{BASELINE}` (`bag_mode=set,bag_guard=3`), on the same "
             "deals for "
             "every value. The table is the one `tricksim sweep` prints, with three columns added from the same "
             "matches (bags per hand, bag penalties and sets per game, the swept team minus the default's, paired "
             "over deal pairs). 'Simultaneous' intervals are Bonferroni-corrected over the 16 values: all 16 hold "
             "together at 95 %, so the best one's holds although it was picked."), ""]
    summary = {}
    for preset in BAG_PRESETS:
        table, points, conf, groups, selfmatch, cmd, base = run_sweep(
            BAG_GRID, preset, a, Path(f"bags-{preset}"), charts, f"bags-{preset}.png", log)
        notes, same = same_games_notes(points, groups, selfmatch, a.games)
        lines += [f"### {preset}", "", "```bash", cmd, "```", ""]
        header = ["bag_mode", "bag_guard", "pairs", "win rate (95 %)", "win rate (simultaneous)", "margin (95 %)",
                  "margin (simultaneous)", "differs from baseline", "best", "bags/hand − default",
                  "bag penalties/game − default", "sets/game − default", "plays as"]
        rows = []
        for i, (p, r) in enumerate(zip(points, table.itertuples(index=False))):
            ph = p.result.per_hand
            rows.append([*r[:9], str(ph["bags per hand"]["diff"]), str(ph["bag penalties per game"]["diff"]),
                         str(ph["sets (failed contracts) per game"]["diff"]), same.get(i, "")])
        lines += md_table(header, rows) + [""]
        lines += [f"![sweep of bag_mode and bag_guard, {preset}]({charts.name}/bags-{preset}.png)", "",
                  (f"Chart: `{shown(base / 'sweep.png')}` from the command above (paired win rate against the "
                   "default, best value framed; the intervals are in the table)."), ""]
        lines += best_lines(points, table, conf, selfmatch) + [""]
        # plain words: one statement per distinct strategy, then the comparisons the intervals allow
        words = [*notes]
        distinct = [g for g in groups if g[0] not in selfmatch]
        by_verdict: dict[str, list[str]] = {}
        for g in distinct:
            p = points[g[0]]
            by_verdict.setdefault(verdict(p.simultaneous.win), []).append(
                f"{group_name(points, g)} {win_text(p.simultaneous.win, 'simultaneous')}")
        for v, say in (("beats", "beat the default"), ("loses to", "lose to the default"),
                       ("is within the noise of", "are within the noise of the default")):
            if v in by_verdict:
                words.append(f"These {say}: " + "; ".join(by_verdict[v]) + ".")
        for mode in ("take", "set_take"):
            idx = [g[0] for g in distinct if points[g[0]].values["bag_mode"] == mode]
            if len(idx) > 1:
                hi = max(idx, key=lambda i: points[i].simultaneous.win.value)
                lo = min(idx, key=lambda i: points[i].simultaneous.win.value)
                if disjoint(points[hi].simultaneous.win, points[lo].simultaneous.win):
                    words.append(f"Within `{mode}`, `bag_guard={points[hi].values['bag_guard']}` does better against "
                                 f"the default than `bag_guard={points[lo].values['bag_guard']}` (their simultaneous "
                                 "intervals do not overlap).")
                else:
                    words.append(f"Within `{mode}`, the sweep does not separate the `bag_guard` values: their "
                                 "simultaneous intervals overlap.")
        # each mode: its best value that is not the default itself, and the verdicts of all its values
        for mode in ("take", "avoid", "set_take", "set"):
            idx = [i for i, p in enumerate(points) if p.values["bag_mode"] == mode and i not in selfmatch]
            best = max(idx, key=lambda j: points[j].simultaneous.win.value) if idx else None
            summary[(mode, preset)] = (None if best is None else points[best],
                                       {points[i].values["bag_guard"]: verdict(points[i].simultaneous.win)
                                        for i in idx})
        lines += [f"**In plain words ({preset}).** " + " ".join(words), ""]
    # across presets
    lines += ["### All three presets", "",
              "Each mode at its best `bag_guard` (by win rate; in brackets the simultaneous interval of that value):",
              ""]
    rows = []
    for mode in ("take", "avoid", "set_take", "set"):
        cells = []
        for preset in BAG_PRESETS:
            p, _ = summary[(mode, preset)]
            cells.append("the default itself" if p is None else
                         f"{win_text(p.simultaneous.win, 'simultaneous')}, bag_guard={p.values['bag_guard']}: "
                         f"{VERDICT_CELL[verdict(p.simultaneous.win)]}")
        rows.append([f"`{mode}`", *cells])
    lines += md_table(["bag_mode", *BAG_PRESETS], rows) + [""]
    conclusions = []
    for preset in BAG_PRESETS:
        parts = []
        for mode in ("take", "avoid", "set_take"):
            p, verdicts = summary[(mode, preset)]
            if p is None:
                continue
            kinds = set(verdicts.values())
            if len(kinds) == 1:
                v = kinds.pop()
                at = "at every bag_guard tried" if len(verdicts) == 4 else \
                    f"at bag_guard {join(list(verdicts))} (the others play as the default)"
                parts.append(f"`{mode}` {SAY[v]} {at}")
            else:
                parts.append(f"`{mode}` " + ", ".join(
                    f"{SAY[v]} at bag_guard "
                    f"{join([g for g, w in verdicts.items() if w == v])}"
                    for v in ("beats", "loses to", "is within the noise of") if v in kinds))
        conclusions.append(f"`{preset}`: " + "; ".join(parts) + ".")
    lines += ["**Conclusion.** Against the default `set` (the best value of each mode in the table above): "
              + " ".join(conclusions) + " 'Beats' and 'loses to' mean the value's simultaneous interval lies wholly "
              "above or below 50 %; nothing else is claimed.", ""]
    return lines, conclusions


# ----------------------------------------------------------------------------- study 2: Nil
def nil_table_lines(df, feature: str) -> list[str]:
    rows = [[r.kind, r.group, rate_text(r, "bid"), rate_text(r)] for r in df.itertuples()]
    return md_table(["kind", feature, "bid rate (n = seat-hands)", "success rate (n = bids)"], rows)


def nil_words(df, feature: str) -> list[str]:
    """What the intervals of one Nil table support: each kind's groups against 50 %, and its extremes."""
    out = []
    for kind in df["kind"].unique():
        d = df[(df["kind"] == kind) & (df["bids"] > 0)]
        if not len(d):
            continue
        above = [code(r.group) for r in d.itertuples() if r.lo > 0.5]
        below = [code(r.group) for r in d.itertuples() if r.hi < 0.5]
        mid = [code(r.group) for r in d.itertuples() if r.lo <= 0.5 <= r.hi]
        s = f"{kind} by {feature}, where it was bid:"
        bits = []
        if above:
            bits.append(f"success above 50 % in {'all of them' if len(above) == len(d) > 1 else join(above)}")
        if below:
            bits.append(f"below 50 % in {join(below)}")
        if mid:
            bits.append(f"not separable from 50 % in {join(mid)}")
        s += " " + "; ".join(bits)
        big = d[d["bids"] >= 30]
        if len(big) > 1:
            hi = big.loc[big["rate"].idxmax()]
            lo = big.loc[big["rate"].idxmin()]
            if hi.lo > lo.hi or lo.lo > hi.hi:
                s += (f". Highest {code(hi.group)} {fmt_rate_interval(hi.rate, hi.lo, hi.hi, hi.bids)}, lowest "
                      f"{code(lo.group)} "
                      f"{fmt_rate_interval(lo.rate, lo.lo, lo.hi, lo.bids)}: the intervals do not overlap")
            else:
                s += (f". Highest {code(hi.group)} and lowest {code(lo.group)} (groups of 30 bids or more) have "
                      "overlapping intervals: the data do not separate them")
        out.append(s + ".")
    return out


def kept(out: Path, **options):
    """The Spades run of ``options`` kept in ``out``: the one there if it is that run, made by this code, else made
    again (``run_kept``)."""
    run_kept(tricksim.plan("spades", **options), out)
    return tricksim.open_run(out)


def whatif(a, charts: Path, log) -> tuple[list[str], list[str]]:
    hands = 10 * a.games
    run = kept(a.out / "hands-cardems", preset="cardems", hands=hands, seed=a.seed + 3)
    n = max(10, a.games // 4)
    chart = charts / "whatif-cardems-spades.png"
    table = a.out / "nil-tables" / "whatif-cardems-spades.csv"
    cmd = ["nil", shown(run.path), "--what-if", str(n), "--by", "spades", "--seed", str(a.seed),
           "--chart", shown(chart)]
    log(f"what-if: replaying {n} seat-hands")
    done = subprocess.run([sys.executable, "-m", "tricksim.cli", *cmd, "--save", str(table)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"tricksim {' '.join(cmd)} failed: {done.stderr.strip()}")
    text = "\n".join(x for x in done.stdout.rstrip().splitlines() if not x.startswith("table written"))
    df = pd.read_csv(table, dtype={"group": str}, keep_default_na=False, na_values=[""])
    every = df.iloc[0]
    groups = df.iloc[1:]
    groups = groups[groups["forced"] > 0]
    below = [code(r.group) for r in groups.itertuples() if r.hi < 0.5]
    above = [code(r.group) for r in groups.itertuples() if r.lo > 0.5]
    mid = [code(r.group) for r in groups.itertuples() if r.lo <= 0.5 <= r.hi]
    words = (f"Forced Nils on the cardems hands the player did not bid Nil on: "
             f"{fmt_rate_interval(every.rate, every.lo, every.hi, every.forced)}, beside "
             f"{fmt_rate_interval(every.nil_rate, every.nil_lo, every.nil_hi, every.nil_bids)} for the Nils it chose; "
             "by spades dealt, the forced Nils' success is "
             + "; ".join(x for x in (f"below 50 % with {join(below)}" if below else "",
                                     f"above 50 % with {join(above)}" if above else "",
                                     f"not separable from 50 % with {join(mid)}" if mid else "") if x) + ".")
    lines = ["### Hands the player did not bid Nil on: what-if replays (cardems)", "",
             ("The tables above only see the Nils the player chose. `tricksim nil --what-if` replays seat-hands "
             "that did **not** bid Nil, on the same deal, with that seat forced to bid Nil (a hands-mode run is "
             "needed, as a hand of a game depends on the score so far; see [analysis.md](analysis.md)). It "
             "measures this player's Nil play with its partner covering and the opponents attacking; the "
             "intervals are clustered by hand."), "",
             "```bash",
             f"tricksim simulate spades --preset cardems --hands {hands} --seed {a.seed + 3} --out {shown(run.path)}",
             f"tricksim {' '.join(cmd)}", "```", "", "```text", text, "```", "",
             f"![what-if Nil by spades dealt]({charts.name}/{chart.name})", "",
             f"In plain words: {words}", ""]
    return lines, [words]


def nil_study(a, charts: Path, log) -> tuple[list[str], list[str]]:
    lines = ["## Study 2: when should I bid Nil", "",
             ("`heuristic` bids Nil when the hand's *danger score* (unguarded high cards, spade length and high "
             "spades, less for low spades and short side suits; `tricksim strategies spades`) is at most "
             "`nil_threshold` (default 6). A made Nil scores +100 and a failed one −100 in every preset; a Blind "
             "Nil (classic only) ±200."), "",
             "### How aggressive: the threshold swept", "",
             (f"`nil_threshold` from −3 to 13 in steps of 2 (the default, 6, is not on the grid: its match would be "
             f"the default against itself), each value a duplicate match of {fmt_int(a.games)} deals against the "
             "default, on the same deals. Beside the sweep's columns: the swept seats' own Nil bid rate and "
             "success (from `tricksim nil POINT-ab POINT-ba --by strategy`, intervals clustered by game)."), ""]
    conclusions = []
    for preset in NIL_PRESETS:
        table, points, conf, groups, selfmatch, cmd, base = run_sweep(
            NIL_GRID, preset, a, Path(f"nil-{preset}"), charts, f"nil-sweep-{preset}.png", log)
        notes, _ = same_games_notes(points, groups, selfmatch, a.games)
        header = ["nil_threshold", "pairs", "win rate (95 %)", "win rate (simultaneous)", "margin (95 %)",
                  "margin (simultaneous)", "differs from baseline", "best", "Nil bid rate (n = seat-hands)",
                  "Nil success (n = bids)"]
        rows, method, own_rows = [], "", []
        for i, r in enumerate(table.itertuples(index=False)):
            df = tricksim.nil([base / f"point{i}-ab", base / f"point{i}-ba"], by="strategy")
            method = df.attrs["method"]
            d = df[df["kind"] == "Nil"]
            own = d[d["group"] != BASELINE] if (d["group"] != BASELINE).any() else d
            o = next(own.itertuples())
            own_rows.append(o)
            rows.append([*r[:8], rate_text(o, "bid"), rate_text(o)])
        lines += [f"#### {preset}", "", "```bash", cmd,
                  (f"tricksim nil {shown(base)}/point0-ab {shown(base)}/point0-ba --by strategy    # the Nil columns, "
                  "one point (0 = first value)"), "```", ""]
        lines += md_table(header, rows) + ["", f"(Nil columns: {method}.)", ""]
        lines += [f"![sweep of nil_threshold, {preset}]({charts.name}/nil-sweep-{preset}.png)", "",
                  (f"Chart: `{shown(base / 'sweep.png')}` from the command above (thick bars 95 %, thin bars "
                  "simultaneous)."), ""]
        lines += best_lines(points, table, conf, selfmatch) + [""]
        beat = [p for p in points if p.simultaneous.win.lo > 0.5]
        lose = [p for p in points if p.simultaneous.win.hi < 0.5]
        noise = [p for p in points if p not in beat and p not in lose]
        words = [*notes]
        if lose:
            words.append("Against the default (6), these thresholds lose: "
                         + "; ".join(f"{p.values['nil_threshold']} {win_text(p.simultaneous.win, 'simultaneous')}"
                                     for p in lose) + ".")
        if noise:
            words.append(f"Within the noise of the default: {join([p.values['nil_threshold'] for p in noise])} "
                         "(simultaneous intervals holding 50 %).")
        if beat:
            words.append("These beat it: " + "; ".join(
                f"{p.values['nil_threshold']} {win_text(p.simultaneous.win, 'simultaneous')}" for p in beat) + ".")
        # bolder thresholds that lose games although their Nils succeed more than half the time
        bold = [(p, o) for p, o in zip(points, own_rows) if float(p.values["nil_threshold"]) > 6
                and p.simultaneous.win.hi < 0.5 and o.bids and o.lo > 0.5]
        if bold:
            words.append("The bolder thresholds that lose still bid Nils that succeed more than half the time ("
                         + "; ".join(f"{p.values['nil_threshold']}: {rate_text(o)}" for p, o in bold)
                         + "): a Nil's success above 50 % does not make it pay, as the number the hand would have "
                         "bid, the partner's contract and the bags count too.")
        lines += [f"**In plain words ({preset}).** " + " ".join(words), ""]
        parts = [f"{join([p.values['nil_threshold'] for p in group])} {say[len(group) == 1]}" for group, say in
                 ((beat, ("beat the default 6", "beats the default 6")),
                  (noise, ("are within the noise of the default 6", "is within the noise of the default 6")),
                  (lose, ("lose to the default 6", "loses to the default 6"))) if group]
        conclusions.append(f"`{preset}` threshold sweep: " + "; ".join(parts) + f" (best {best_label(points, table)})."
                           + (f" At {join([p.values['nil_threshold'] for p, _ in bold])} the player's Nils succeed "
                              "more than half the time and still lose games." if bold else ""))
    # self-play
    selfplay = a.selfplay or 10 * a.games
    lines += ["### Which hands, which score: self-play", "",
              (f"{fmt_int(selfplay)} games of `heuristic` self-play per preset, read by `tricksim nil` by features "
              "of the hand **as dealt** (what every bid is made on; the default `--hand dealt`) and by the score "
              "situation (the team's lead before the hand: behind by 100 or more / close / ahead by 100 or more). "
              "One observation per seat-hand; the hands of a game are not independent, so every interval is "
              "**clustered by game**, as the tool's first line says. These are the Nils the player *chose*: "
              "a hand's success rate says how its chosen Nils fared, not how a Nil on any such hand would."), ""]
    for preset in NIL_PRESETS:
        run = kept(a.out / f"selfplay-{preset}", preset=preset, games=selfplay, seed=a.seed + 2)
        lines += [f"#### {preset}", "", "```bash",
                  (f"tricksim simulate spades --preset {preset} --games {selfplay} --seed {a.seed + 2} "
                  f"--out {shown(run.path)}")]
        lines += [f"tricksim nil {shown(run.path)} --by {f} --chart {shown(charts)}/nil-{preset}-{f}.png"
                  for f in FEATURES]
        lines += ["```", ""]
        for f in FEATURES:
            log(f"nil {preset} --by {f}")
            table = a.out / "nil-tables" / f"nil-{preset}-{f}.csv"
            text = tricksim.nil_report(run, f, save=table, chart=charts / f"nil-{preset}-{f}.png")
            df = pd.read_csv(table, dtype={"group": str}, keep_default_na=False, na_values=[""])
            head = [x for x in text.splitlines() if x.startswith(("Nil study", "hand features"))]
            lines += [f"**By {f}** — {'; '.join(head)}.", ""] + nil_table_lines(df, f) + [""]
            lines += [f"![Nil success by {f}, {preset}]({charts.name}/nil-{preset}-{f}.png)", ""]
            words = nil_words(df, f)
            lines += ["In plain words: " + " ".join(words), ""]
            if f == "score":
                conclusions += [f"`{preset}`, " + w for w in words]
            if f == "spades":
                conclusions += [f"`{preset}`, " + w for w in words if w.startswith("Nil ")]
    more, words = whatif(a, charts, log)
    return lines + more, conclusions + words


# ----------------------------------------------------------------------------- main
def kept_sections(doc: Path) -> list[str]:
    """The sections other scripts write into the page (the Tarot table sizes), kept as they are."""
    text = doc.read_text() if doc.exists() else ""
    if TAROT_BEGIN not in text or TAROT_END not in text:
        return []
    return ["", text[text.index(TAROT_BEGIN):text.index(TAROT_END) + len(TAROT_END)]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES,
                    help=f"deals per sweep value (each played twice, seats swapped) [default: {DEFAULT_GAMES}]")
    ap.add_argument("--seed", type=int, default=0, help="sweeps: seed (confirmations seed + 1); self-play seed + 2; "
                    "what-if hands seed + 3 [default: 0]")
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "studies", help="where the runs go (kept and reused)")
    ap.add_argument("--doc", type=Path, default=DEFAULT_DOC,
                    help="the Markdown to write; the charts go to a folder of its name beside it (docs/studies/)")
    ap.add_argument("--selfplay", type=int, help="games of self-play per preset [default: 10 x --games]")
    a = ap.parse_args()
    if a.games < 2:
        ap.error("--games must be at least 2")
    if os.nice(0) < 10:
        os.nice(10 - os.nice(0))  # a shared machine: the studies run at low priority
    t0 = time.time()
    load = os.getloadavg()[0]
    before = sum(1 for _ in a.out.rglob("manifest.json")) if a.out.exists() else 0
    charts = a.doc.parent / a.doc.stem
    charts.mkdir(parents=True, exist_ok=True)

    def log(text: str) -> None:
        print(f"[{time.time() - t0:6.0f} s] {text}", file=sys.stderr, flush=True)

    bags, bag_words = bag_study(a, charts, log)
    nil, nil_words_ = nil_study(a, charts, log)
    runs = sum(1 for _ in a.out.rglob("manifest.json"))
    size = sum(f.stat().st_size for f in a.out.rglob("*") if f.is_file()) / 1e9
    minutes = (time.time() - t0) / 60
    argv = " ".join(["python scripts/studies.py", f"--games {a.games}", f"--seed {a.seed}", f"--out {shown(a.out)}"]
                    + ([f"--selfplay {a.selfplay}"] if a.selfplay else [])
                    + ([f"--doc {shown(a.doc)}"] if a.doc.resolve() != DEFAULT_DOC else []))
    # the time from scratch is kept beside the runs, so that a page rewritten from kept runs still states it
    timing = a.out / "studies-timing.json"
    plan = {"games": a.games, "seed": a.seed, "selfplay": a.selfplay or 10 * a.games}
    if not before:
        timing.write_text(json.dumps({**plan, "minutes": round(minutes, 1), "load": round(load, 1),
                                      "date": time.strftime("%Y-%m-%d")}))
    first = json.loads(timing.read_text()) if timing.exists() else {}
    where = (f"{os.cpu_count()} cores shared with other work, the script at nice {os.nice(0)}; the runs take "
             f"{size:.1f} GB in `{shown(a.out)}`; tricksim {tricksim.__version__}")
    if not before:
        when = (f"in {minutes:.1f} min, all {runs} runs simulated from scratch (load average {load:.1f} at the start; "
                f"{where}).")
    elif {k: first.get(k) for k in plan} == plan:
        when = (f"in {first['minutes']} min, when its {runs} runs were simulated from scratch on {first['date']} (load "
                f"average {first['load']} at the start; {where}); this page was last rewritten from the kept runs "
                f"in {minutes:.1f} min.")
    else:
        when = (f"in {minutes:.1f} min, reusing {before} of its {runs} runs already in `{shown(a.out)}` (load average "
                f"{load:.1f} at the start; {where}).")
    head = ["# Studies: which bag strategy wins, and when to bid Nil", "",
            "Written by", "", "```bash", argv, "```", "",
            (f"{when} Run again, it reuses the "
            f"runs in `{shown(a.out)}` and only rewrites this page and its charts in `{shown(charts)}/`. Each table "
            "and chart below comes with the `tricksim` commands that make it on their own."), "",
            ("How to read the figures: every rate and mean carries its 95 % interval and its n, as the tool prints "
            "them. Sweeps are duplicate matches (each deal played twice with the seats swapped, the unit being the "
            "deal pair; [analysis.md](analysis.md)); a sweep's *simultaneous* intervals are corrected for the number "
            "of values tried. The Nil "
            "tables' intervals are Wilson intervals **clustered by game** (the seat-hands of one game are not "
            "independent; [analysis.md](analysis.md#intervals)). 'Within the noise' means the interval holds the "
            "reference value: the data neither confirm nor rule out a difference."), "",
            ("Every seat plays the shipped `heuristic`; in a sweep one team changes one parameter. The findings are "
            "about what a parameter does to this player against itself, not about human tables."), "",
            "## Findings", "",
            "**Bags** (paired win rate against the default `heuristic`, which plays `bag_mode=set,bag_guard=3`; "
            "simultaneous intervals). " + " ".join(bag_words), "",
            "**Nil** (the threshold sweeps: paired win rate against the default `nil_threshold=6`, simultaneous "
            "intervals; the Nil tables: success rates clustered by game). " + " ".join(nil_words_)
            + " A Nil's own score is ±100, so taken alone it gains on average "
            "only where it succeeds more than half the time; the threshold sweep measures the whole effect (the "
            "partner's contract, bags, what the hand would have scored with a number), in games won.", ""]
    a.doc.write_text("\n".join(head + bags + nil + kept_sections(a.doc)) + "\n")
    log(f"wrote {a.doc} and {len(list(charts.glob('*.png')))} charts in {charts} ({minutes:.1f} min)")


if __name__ == "__main__":
    main()
