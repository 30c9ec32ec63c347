"""Tarot at every table size, deal by deal and in whole games (a section of docs/studies.md).

For each Tarot preset (one per table size: ``tricksim rules tarot`` lists them), self-play of the default
player:

* a deals run: how often all pass, the share of each contract, the taker's success and score, petit au bout
  and poignée frequencies. Deals are independent (each draws from its own streams and no score carries over),
  so every rate has a Wilson interval and every mean a t interval, each with its n;
* a games run (whole games of the preset's default length, ``tricksim sessions``): who wins, by how much, and
  how often the leader after k deals wins the game, a game the unit.

Only the public API is used. The runs are kept under ``--out`` and reused when the script runs again with the
same options. The section is written between two markers in ``--doc`` (the rest of the page is left as it is;
``scripts/studies.py`` keeps the section when it rewrites the page).

Usage::

    python scripts/tarot_tables.py                          # the published figures
    python scripts/tarot_tables.py --deals 2000 --out /tmp/t --doc /tmp/t/studies.md    # a smoke run
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tricksim
from tricksim.analysis.games.tarot.summary import CONTRACTS, mean_text, tarot_numbers
from tricksim.analysis.stats import fmt_estimate, fmt_rate
from tricksim.jobs import run_kept
from tricksim.simulator.family import family

GAME = "tarot"
DEFAULT_DEALS = 200_000
DEFAULT_GAMES = 5_000
DEFAULT_DOC = ROOT / "docs" / "studies.md"
BEGIN = "<!-- tarot-tables: written by scripts/tarot_tables.py; scripts/studies.py keeps it -->"
END = "<!-- /tarot-tables -->"


def md_table(header: list[str], rows: list[list]) -> list[str]:
    return (["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def tables_by_size() -> list[tuple[int, str]]:
    """(seats, preset) for every Tarot preset, fewest seats first."""
    fam = family(GAME)
    return sorted((rules.seats, name) for name, rules in fam.presets.items())


def games_rows(sessions: list[tuple[int, str, dict]]) -> list[list[str]]:
    """The whole-games table: one column a table size, from ``tricksim.sessions``' rows."""
    def leader_at(row: dict, fraction: float) -> str:
        k = max(1, round(fraction * row["deals"] / row["games"]))
        r = next(x for x in row["leader"] if x["after_deals"] == k)
        return f"after {k}: " + fmt_rate(r["leader_won"], r["one_leader"])

    rows = [["games (deals a game)", *(f"{r['games']:,} ({r['deals'] // r['games']})" for *_, r in sessions)],
            ["wins outright, by seat", *("; ".join(fmt_rate(w, r["games"]) for w in r["seat_wins"])
                                         for *_, r in sessions)],
            ["tied at the top", *(fmt_rate(r["ties"], r["games"]) for *_, r in sessions)],
            ["winner's margin over the second", *(fmt_estimate(r["margin"]) + f", median {r['margin_median']}"
                                                  for *_, r in sessions)]]
    rows += [[f"leader after {label} of the game wins it", *(leader_at(r, f) for *_, r in sessions)]
             for label, f in (("one deal", 0), ("a quarter", 0.25), ("half", 0.5), ("three quarters", 0.75))]
    return rows


def reading(numbers: list[tuple[int, str, dict]], sessions: list[tuple[int, str, dict]]) -> list[str]:
    """A few sentences on the tables, built from the figures (so that they hold for the runs shown)."""
    def at(values: dict) -> str:
        return "; ".join(f"{seats} players {text}" for seats, text in values.items())

    def pct(k: int, n: int) -> str:
        return fmt_rate(k, n).split(" (n=")[0]

    def leader_half(r: dict) -> str:
        k = max(1, round(r["deals"] / r["games"] / 2))
        row = next(x for x in r["leader"] if x["after_deals"] == k)
        return f"{pct(row['leader_won'], row['one_leader'])} after {k} deals"

    return [f"* **All pass**: {at({s: pct(r['void_all_pass'], r['deals']) for s, _, r in numbers})}.",
            (f"* **The taker wins** {at({s: pct(r['won'], r['played']) for s, _, r in numbers})} of the played deals; "
            f"the Garde is {at({s: pct(r['by_contract']['garde']['deals'], r['played']) for s, _, r in numbers})} "
            "of the contracts."),
            (f"* **Poignées** are shown in {at({s: pct(r['poignee'], r['played']) for s, _, r in numbers})} of the "
            f"played deals, **petit au bout** in {at({s: pct(r['petit_au_bout'], r['played']) for s, _, r in numbers})}."),
            (f"* **Whole games**: the player leading half-way wins the game "
            f"{at({s: leader_half(r) for s, _, r in sessions})} (each seat's fair share: one in three, four or five): "
            "a deal swings so much that the half-way leader is far from safe."), ""]


def section(numbers: list[tuple[int, str, dict]], sessions: list[tuple[int, str, dict]], argv: str,
            minutes: float, load: float) -> list[str]:
    cols = [f"{seats} players (`{preset}`)" for seats, preset, _ in numbers]
    rows = [["deals", *(f"{r['deals']:,}" for *_, r in numbers)],
            ["all pass", *(fmt_rate(r["void_all_pass"], r["deals"]) for *_, r in numbers)],
            ["Petit sec (redeal)", *(fmt_rate(r["void_petit_sec"], r["deals"]) for *_, r in numbers)]]
    rows += [[f"{name} (share of played deals)", *(fmt_rate(r["by_contract"][name]["deals"], r["played"])
                                                   for *_, r in numbers)] for name in CONTRACTS]
    rows += [["taker wins", *(fmt_rate(r["won"], r["played"]) for *_, r in numbers)]]
    rows += [[f"{name}: taker wins", *(fmt_rate(r["by_contract"][name]["won"], r["by_contract"][name]["deals"])
                                       for *_, r in numbers)] for name in CONTRACTS]
    rows += [["taker's score a played deal", *(mean_text(r["taker_score"]) for *_, r in numbers)],
             ["petit au bout (either side)", *(fmt_rate(r["petit_au_bout"], r["played"]) for *_, r in numbers)],
             ["poignée shown", *(fmt_rate(r["poignee"], r["played"]) for *_, r in numbers)],
             ["slam", *(fmt_rate(r["slam"], r["played"]) for *_, r in numbers)]]
    return [BEGIN, "## Tarot at " + ", ".join(f"{s}" for s, *_ in numbers[:-1]) + f" and {numbers[-1][0]} players",
            "", "Written by", "", "```bash", argv, "```", "",
            (f"in {minutes:.1f} min (load average {load:.1f} at the start, {os.cpu_count()} cores; tricksim "
             f"{tricksim.__version__}). Every seat plays the shipped `heuristic`, under each table size's preset "
             "([rules.md](rules.md)). Rates are Wilson intervals and means t intervals over deals, which are "
             "independent; n is the number of deals each figure counts (contract shares and bonuses: the played "
             "deals; a contract's success: the deals of that contract). The taker's score is the taker's own "
             "(a multiple of the base: ×2 against two at three players, ×3 at four; at five ×2 with a partner, "
             "×4 alone)."), "",
            ("Each run on its own: `tricksim simulate tarot --preset PRESET --deals N --seed S --out DIR`, then "
            "`tricksim summary DIR`, `tricksim bidding DIR` (success by contract and oudlers) and "
            "`tricksim report DIR --out REPORT`."), "",
            "In plain words (95 % intervals):", "", *reading(numbers, sessions),
            "### Deal by deal", "",
            *md_table(["", *cols], rows), "",
            "### Whole games", "",
            ("The same players in whole games: the deal passes to the right after each deal, each game as long as "
             "its preset's default (every player deals four times; [rules.md](rules.md)). A game is the unit: "
             "rates over games are Wilson intervals, the margin a t interval. 'The leader after k deals' counts "
             "the games with one player alone at the top after deal k (n), and how many of them that player won. "
             "Each run on its own: `tricksim simulate tarot --preset PRESET --games N --seed S --out DIR`, then "
             "`tricksim sessions DIR`."), "",
            *md_table(["", *cols], games_rows(sessions)), "",
            ("What the players do, not what tables of people do: the figures compare the table sizes under one "
             "shipped player, whose bidding was tuned at four players and scaled to the hand size at three and "
             "five ([tarot-evidence.md](tarot-evidence.md), [strategies.md](strategies.md)); all four pass "
             f"{four_all_pass(numbers)} of the deals at four players, where tables of good players pass far fewer "
             "(issue #29)."), END]


def four_all_pass(numbers: list[tuple[int, str, dict]]) -> str:
    """The all-pass rate at four players with its interval, or "(no four-player run)"."""
    r = next((r for seats, _, r in numbers if seats == 4), None)
    return fmt_rate(r["void_all_pass"], r["deals"]) if r else "(no four-player run)"


def write_section(doc: Path, lines: list[str]) -> None:
    """Put the section between its markers in ``doc`` (at the end when it has none yet)."""
    text = doc.read_text() if doc.exists() else ""
    block = "\n".join(lines)
    if BEGIN in text and END in text:
        start, stop = text.index(BEGIN), text.index(END) + len(END)
        text = text[:start] + block + text[stop:]
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + block + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text)


def kept(out: Path, **options) -> Path:
    """The run of ``options`` in ``out``: the one kept there if it is that run, made by this code, else made again
    (a study's kept run, as the atlas keeps its runs)."""
    run_kept(tricksim.plan(GAME, **options), out)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS, help=f"deals per table size [default: {DEFAULT_DEALS}]")
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"whole games per table size [default: "
                    f"{DEFAULT_GAMES}]")
    ap.add_argument("--seed", type=int, default=1, help="the runs' seed [default: 1]")
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "tarot-tables", help="where the runs go (kept)")
    ap.add_argument("--doc", type=Path, default=DEFAULT_DOC, help="the page to write the section into")
    a = ap.parse_args()
    if a.deals < 2 or a.games < 2:
        ap.error("--deals and --games must be at least 2")
    t0, load = time.time(), os.getloadavg()[0]
    numbers, sessions = [], []
    for seats, preset in tables_by_size():
        out = a.out / f"{preset}-{a.deals}-seed{a.seed}"
        print(f"{preset} ({seats} players): {out}", file=sys.stderr, flush=True)
        numbers.append((seats, preset, tarot_numbers(kept(out, preset=preset, deals=a.deals, seed=a.seed))))
        out = a.out / f"{preset}-games{a.games}-seed{a.seed}"
        sessions.append((seats, preset, tricksim.sessions([kept(out, preset=preset, games=a.games,
                                                                 seed=a.seed)])[0]))
    argv = " ".join(["python scripts/tarot_tables.py", f"--deals {a.deals}", f"--games {a.games}", f"--seed {a.seed}"]
                    + ([f"--out {a.out}"] if a.out != ROOT / "data" / "tarot-tables" else [])
                    + ([f"--doc {a.doc}"] if a.doc.resolve() != DEFAULT_DOC else []))
    write_section(a.doc, section(numbers, sessions, argv, (time.time() - t0) / 60, load))
    print(f"wrote {a.doc}", file=sys.stderr)


if __name__ == "__main__":
    main()
