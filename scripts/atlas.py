"""The variant atlas pages: docs/atlas.md (Spades) and docs/atlas-tarot.md (Tarot, ``--game tarot``), each with its
charts in the folder of the same name beside it (docs/atlas/, docs/atlas-tarot/).

Plays the atlas (``tricksim.atlas("spades", ...)``: every preset and the default flag variants, each a duplicate
match of ``--games`` deals between heuristic and simple) from a stated seed, then writes the page: how it was
made (the command, the time it took, the machine's load), a short reading of what the figures show (written
from the figures, so it follows them when the atlas is played again), and the atlas's own tables and charts.

Only the public API is used. The runs are kept under ``--out`` and reused when the script runs again with the
same options (the page is then rewritten in seconds).

Usage::

    python scripts/atlas.py                                          # the published page
    python scripts/atlas.py --games 200 --out /tmp/a --doc /tmp/a/atlas.md    # a smoke run
    python scripts/atlas.py --game tarot                             # the Tarot page (whole games)
    python scripts/atlas.py --variants cardems,cutthroat             # some variants only (the page says which)
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tricksim
from tricksim.analysis.atlas import atlas_markdown
from tricksim.analysis.games.spades.atlas import no_edge
from tricksim.analysis.games.spades.cutthroat import luck_baseline
from tricksim.analysis.games.spades.outcomes import NUMBER_WORDS
from tricksim.analysis.stats import fmt_estimate
from tricksim.jobs.spades.atlas import JOKER_VARIANT as JOKERS, parse_variant

GAMES = ("spades", "tarot")
# spades: deals a variant, about 5 minutes for every preset at every table size and the flag variants on 2 busy cores
# once the kernels are compiled (docs/performance.md P97, with issue #28's flag variants; P75 before them; P59 before
# cutthroat3 and twohanded;
# P57: before simple covered its partner's Nil, suicide's games stopped at the hand limit); tarot: whole games a table of
# a variant's rotation, about 3 minutes at 10,000 on 2 busy cores (docs/performance.md, the Tarot atlas)
DEFAULT_GAMES = {"spades": 50_000, "tarot": 20_000}
DEFAULT_SEED = 2026
DEFAULT_DOC = {"spades": ROOT / "docs" / "atlas.md", "tarot": ROOT / "docs" / "atlas-tarot.md"}


def _overlap(a, b) -> bool:
    return a.lo <= b.hi and b.lo <= a.hi


def tarot_reading(variants) -> list[str]:
    """What the Tarot figures show, in a few sentences built from them (every number with its interval and n)."""
    by = {v.name: v for v in variants}
    lines = ["## What it shows", ""]
    skill = sorted(variants, key=lambda v: v.figures["skill"].value)
    lo, hi = skill[0], skill[-1]
    edge = "an edge in every variant" if all(v.figures["skill"].lo > 0 for v in variants) else \
        "no edge in every variant"
    lines.append(
        f"* **Skill.** In the same seat of the same deal, {lo.strong} has {edge} over {lo.weak}: from "
        f"{fmt_estimate(lo.figures['skill'])} points a deal in `{lo.name}` to {fmt_estimate(hi.figures['skill'])} "
        f"in `{hi.name}`. The two players bid alike (the weaker is the same bidder without three card-play "
        "rules of thumb), so this measures the card play only, a few points against deal scores of a hundred.")
    luck = sorted(variants, key=lambda v: v.figures["luck"].value)
    lines.append(
        f"* **Luck.** The deal fixes {fmt_estimate(luck[0].figures['luck'])} of a seat's score variance in "
        f"`{luck[0].name}` to {fmt_estimate(luck[-1].figures['luck'])} in `{luck[-1].name}`: with the same "
        "bidding the same seat takes (or defends) the same contract on both tables, and who takes, with which "
        "contract and cards, decides nearly all of a score. Between players that bid differently this share "
        "would be lower; it is these players' figure, not the game's.")
    sizes = [by[n] for n in ("fft3", "cardavia", "fft5") if n in by]
    if len(sizes) > 1:
        lines.append("* **Table size.** " + "; ".join(
            f"`{v.name}` ({v.seats} players): all passed {fmt_estimate(v.figures['all_pass'])}, the taker makes "
            f"{fmt_estimate(v.figures['taker_won'])}" for v in sizes) + ".")
    if sizes and sizes[0].mode == "games":
        lines.append("* **Whole games.** The weaker player, alone among stronger ones, wins " + "; ".join(
            f"{fmt_estimate(v.figures['weak_game_win'])} of its games in `{v.name}` ({100 / v.seats:.0f} % = no "
            "edge)" for v in sizes) + " (n = seat-games): a point or two a deal adds up over a game.")
    if "cardavia" in by and "cardavia+excuse_lead=forbidden" in by:
        a, e = by["cardavia"], by["cardavia+excuse_lead=forbidden"]
        lines.append(
            f"* **Excuse lead.** Forbidding the Excuse as a lead drops the taker's success from "
            f"{fmt_estimate(a.figures['taker_won'])} to {fmt_estimate(e.figures['taker_won'])} and its deal score "
            f"from {fmt_estimate(a.figures['taker_score'])} to {fmt_estimate(e.figures['taker_score'])}"
            + (", the same contracts being bid (the heuristic's bidding does not look at the rule)"
               if a.figures["share_garde"].k == e.figures["share_garde"].k else "") + ".")
    if "cardavia" in by and "cardavia+poignee_hand=as_dealt" in by:
        a, p = by["cardavia"], by["cardavia+poignee_hand=as_dealt"]
        lines.append(
            f"* **Poignée on the hand as dealt.** Poignées fall from {fmt_estimate(a.figures['poignee'])} to "
            f"{fmt_estimate(p.figures['poignee'])} of the played deals: most of the taker's poignées come with "
            "the chien's trumps.")
    lines += ["", ("The variants of a table size share the seed, so they play the same deals: differences between "
                   "them are measured on the same cards, and reading their intervals as independent is "
                   "conservative. The figures describe these two shipped players, not people. The Tarot "
                   "heuristic is the shipped one at the commit the page names; a new heuristic changes them."),
              ""]
    return lines


def zero_bids(*runs) -> tuple[int, int]:
    """(bids of 0, bids) of every seat-hand of ``runs`` (run directories)."""
    zeros = bids = 0
    for path in runs:
        run = tricksim.open(path)
        hands = run.hands([f"bid_{s}" for s in range(run.n_seats)])
        zeros += int((hands == 0).to_numpy().sum())
        bids += hands.size
    return zeros, bids


def reading(variants, runs: Path) -> list[str]:
    """What the figures show, in a few sentences built from them (every number with its interval and n); ``runs``:
    the folder of the variants' runs, for what no figure says."""
    by = {v.name: v for v in variants}
    alone = [v for v in variants if v.alone]
    variants = [v for v in variants if not v.alone]  # skill and luck compare the partnership variants
    lines = ["## What it shows", ""]
    if variants:
        wins = sorted(variants, key=lambda v: v.figures["strong_win"].value)
        lo, hi = wins[0], wins[-1]
        same = "overlap" if _overlap(lo.figures["strong_win"], hi.figures["strong_win"]) else "do not overlap"
        everywhere = ("beats" if all(v.figures["strong_win"].lo > 0.5 for v in variants)
                      else "does not beat, in every variant,")
        lines.append(
            f"* **Skill.** {lo.strong} {everywhere} {lo.weak}: its paired win rate runs from "
            f"{fmt_estimate(lo.figures['strong_win'])} in `{lo.name}` to {fmt_estimate(hi.figures['strong_win'])} "
            f"in `{hi.name}` (n = deal pairs; the two intervals {same}). "
            + ("The pair is lopsided, so these rates sit near the ceiling and separate the variants less than a "
               "closer pair would." if lo.figures["strong_win"].value > 0.9 else ""))
        luck = sorted(variants, key=lambda v: v.figures["same_cards"].value)
        top = luck[-1].figures["same_cards"]
        lines.append(
            f"* **Luck.** The share of decided pairs the same cards won on both tables (the deal deciding the game "
            f"whoever played it) runs from {fmt_estimate(luck[0].figures['same_cards'])} in `{luck[0].name}` to "
            f"{fmt_estimate(top)} in `{luck[-1].name}`"
            + (": between these two players the cards rarely outweigh the play." if top.hi < 0.25 else "."))
    joker_base = parse_variant(JOKERS)[0]  # the preset the joker variant is played on
    if joker_base in by and JOKERS in by:
        a, j = by[joker_base], by[JOKERS]
        lines.append(
            f"* **Jokers.** With the two jokers as top spades (`{JOKERS}`, source 002's variant on its preset) "
            f"contracts are made "
            f"{fmt_estimate(j.figures['contract'])} of the time against {fmt_estimate(a.figures['contract'])} "
            f"without, a team-hand scores {fmt_estimate(j.figures['hand_score'])} against "
            f"{fmt_estimate(a.figures['hand_score'])}, and games last {fmt_estimate(j.figures['length'])} hands "
            f"against {fmt_estimate(a.figures['length'])}; the final margin is "
            f"{fmt_estimate(j.figures['margin'])} against {fmt_estimate(a.figures['margin'])}. The failed "
            "contracts are mostly the weaker player's (`tricksim summary` of the run "
            f"`runs/{JOKERS}-ab` gives each team's rate): "
            "this measures these players under the joker deck more than the deck itself.")
    deuces = [n for n in ("cardems+deck=joker_deuce_ace", "cardems+deck=joker_deuce_deuce") if n in by]
    if deuces and JOKERS in by:
        j = by[JOKERS]
        lines.append(
            "* **Deuce decks.** With the 2♠ (and in Joker-Joker-Deuce-Deuce the 2♦) promoted under the jokers, "
            "contracts are made " + ", ".join(f"{fmt_estimate(by[n].figures['contract'])} in `{n}`" for n in deuces)
            + f" against {fmt_estimate(j.figures['contract'])} with the jokers alone (`{JOKERS}`: {joker_base}, "
            "whose bags reset after the penalty where cardems' carry over), and games last "
            + ", ".join(f"{fmt_estimate(by[n].figures['length'])}" for n in deuces)
            + f" hands against {fmt_estimate(j.figures['length'])}; {j.strong} wins "
            + ", ".join(f"{fmt_estimate(by[n].figures['strong_win'])}" for n in deuces)
            + " of the pairs (the same reading as the jokers: the weaker player's bids count the deck's top "
            "spades as tricks, docs/strategy-evidence.md, Decks).")
    if "cardems" in by and "cardems+big_bid_threshold=10" in by:
        a, t = by["cardems"], by["cardems+big_bid_threshold=10"]
        lines.append(
            f"* **Ten for two hundred** (`cardems+big_bid_threshold=10`). A team-hand scores "
            f"{fmt_estimate(t.figures['hand_score'])} against {fmt_estimate(a.figures['hand_score'])} in `cardems`, "
            f"games last {fmt_estimate(t.figures['length'])} hands against {fmt_estimate(a.figures['length'])}, and "
            f"{t.strong}'s paired win rate is {fmt_estimate(t.figures['strong_win'])} against "
            f"{fmt_estimate(a.figures['strong_win'])}: the heuristic raises a team's bid to the threshold only when "
            "the expected scores favour it, which at 200 for 10 they never do, and simple does not bid for the "
            "bonus, so it pays only the contracts of 10 or more these players bid anyway (docs/strategies.md).")
    if "cardems" in by and "cardems+zero_bid=zero" in by:
        a, z = by["cardems"], by["cardems+zero_bid=zero"]
        zeros, bids = zero_bids(runs / "cardems+zero_bid=zero-ab", runs / "cardems+zero_bid=zero-ba")
        lines.append(
            f"* **Nil or zero** (`cardems+zero_bid=zero`: a bid of 0 is a contract of no tricks, no Nil exists). "
            f"Contracts are made {fmt_estimate(z.figures['contract'])} against {fmt_estimate(a.figures['contract'])} "
            f"with Nil, a team-hand scores {fmt_estimate(z.figures['hand_score'])} against "
            f"{fmt_estimate(a.figures['hand_score'])}, games last {fmt_estimate(z.figures['length'])} hands against "
            f"{fmt_estimate(a.figures['length'])}, and {z.strong}'s paired win rate is "
            f"{fmt_estimate(z.figures['strong_win'])} against {fmt_estimate(a.figures['strong_win'])}. "
            + (f"Neither player bid 0 ({bids:,} bids): a 0 that is no Nil is never their bid, so for them this "
               "is the game without Nil"
               + (f" (`zone+nil=false`, whose bags differ only past the limit: contracts made "
                  f"{fmt_estimate(by['zone+nil=false'].figures['contract'])})" if "zone+nil=false" in by else "")
               + "." if zeros == 0 else f"{zeros:,} of the {bids:,} bids were 0."))
    if "classic+mercy=-200" in by:
        m = by["classic+mercy=-200"]
        lines.append(
            f"* **Mercy.** A mercy rule at −200 ends {fmt_estimate(m.figures['end_mercy'])} of the games "
            f"(n = games, clustered by deal); the rest end at the target ({fmt_estimate(m.figures['end_target'])}).")
    if "zone" in by and "zone+nil=false" in by:
        z, n = by["zone"], by["zone+nil=false"]
        lines.append(
            f"* **No Nil.** Without Nil (`zone+nil=false`) a team-hand scores {fmt_estimate(n.figures['hand_score'])} "
            f"against {fmt_estimate(z.figures['hand_score'])} with it, so games last "
            f"{fmt_estimate(n.figures['length'])} hands against {fmt_estimate(z.figures['length'])}, and bag "
            f"penalties come {fmt_estimate(n.figures['penalties'])} a game against "
            f"{fmt_estimate(z.figures['penalties'])}.")
    for v in alone:
        f, n = v.figures, v.n_seats
        word, others, blind = NUMBER_WORDS[n], NUMBER_WORDS[n - 1], luck_baseline(f["strong_win"].value, n)
        if n == 2:
            lines.append(
                f"* **Two players** (`{v.name}`, a duplicate pair: each deal's stock played on two tables, the seats "
                f"swapped; hands drawn from the stock). {v.strong} wins {fmt_estimate(f['strong_win'])} of its games "
                f"against {v.weak} (n = seat-games, clustered by deal; an equal player wins 50 %), both games of "
                f"{fmt_estimate(f['strong_all'])} of the deals, and scores {fmt_estimate(f['strong_points'])} points "
                f"a hand more than {v.weak} in the same seat on the other table. The same seat won both tables of "
                f"{fmt_estimate(f['same_cards'])} of the decided deals, where {100 * blind:.2g} % would if the "
                "winner did not depend on the stock (at this win rate w: 2·w·(1 − w))"
                + (": the stock still decides some games. " if f["same_cards"].lo > blind else ". ") + "A game "
                f"lasts {fmt_estimate(f['length'])} hands and takes {fmt_estimate(f['penalties'])} bag penalties.")
            continue
        power = {1: "", 2: "²", 3: "³"}[n - 1]
        lines.append(
            f"* **Cutthroat{'' if n == 4 else f' for {word}'}** (`{v.name}`, each player alone: its own tables, the "
            "figures mean other things). "
            f"{v.strong} alone against {others} {v.weak} wins {fmt_estimate(f['strong_win'])} of its games (n = "
            f"seat-games, clustered by deal; an equal player wins {no_edge(n)}), from every seat of the same deal "
            f"in {fmt_estimate(f['strong_all'])} of the deals, and scores {fmt_estimate(f['strong_points'])} points "
            f"a hand more than {v.weak} in the same seat with the same cards. The same seat won all {word} tables "
            f"of {fmt_estimate(f['same_cards'])} of the decided deals, where {100 * blind:.2f} % would if the "
            f"winner did not depend on the cards (at this win rate w: {n}·w·((1 − w)/{n - 1}){power})"
            + (": the cards still decide some games. " if f["same_cards"].lo > blind else ". ") + "A game "
            f"lasts {fmt_estimate(f['length'])} hands and takes {fmt_estimate(f['penalties'])} bag penalties "
            f"({word} players' bags, each alone).")
    if "zone" in by and "cardems" in by:
        lines.append(
            "* `cardems` and `zone` differ only in what happens to the bags past the limit (`bag_overflow`): "
            "their figures differ only where a game's bags overflow, so they are nearly equal.")
    lines += ["", ("The variants share the seed, so their first hands are the same deals: differences between "
                   "variants are measured on partly the same cards, and reading their intervals as independent is "
                   "conservative. The figures describe these two shipped players, not people."), ""]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, default="spades")
    ap.add_argument("--games", type=int, default=None, help="deals a variant (spades: a pair of tables each, a rotation of n + 1 for n players without "
                    "partnerships, a pair for two), whole games a table "
                    f"(tarot)  [default: {DEFAULT_GAMES}]")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--variants", default=None, help="comma-separated variants (PRESET[+flag=value...]) "
                    "[default: every preset and the game's flag variants]")
    ap.add_argument("--out", type=Path, default=None, help="where the runs go [default: data/atlas/docs-...]")
    ap.add_argument("--doc", type=Path, default=None, help="the page to write; its charts go to the folder of the "
                    f"same name beside it  [default: {', '.join(str(p.relative_to(ROOT)) for p in DEFAULT_DOC.values())}]")
    a = ap.parse_args(argv)
    game = a.game
    games = a.games or DEFAULT_GAMES[game]
    doc = a.doc or DEFAULT_DOC[game]
    prefix = "docs" if game == "spades" else f"docs-{game}"
    out = a.out or ROOT / "data" / "atlas" / f"{prefix}-games{games}-seed{a.seed}"
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    result = tricksim.atlas(game, games=games, variants=a.variants, seed=a.seed, out=out, progress=True, echo=print)
    minutes = (time.perf_counter() - t0) / 60
    charts = doc.with_suffix("")
    charts.mkdir(parents=True, exist_ok=True)
    for png, _svg in result.charts.values():
        shutil.copyfile(png, charts / png.name)
    argv_text = "python scripts/atlas.py" + ("" if game == "spades" else f" --game {game}") \
        + ("" if games == DEFAULT_GAMES[game] else f" --games {games}") \
        + ("" if a.seed == DEFAULT_SEED else f" --seed {a.seed}") \
        + ("" if a.variants is None else f" --variants {a.variants}")
    anchor = {"spades": "the-spades-variant-atlas-tricksim-atlas-spades---games-n---variants-list---players-strongweak"
                        "---seed-s---out-dir",
              "tarot": "the-tarot-variant-atlas-tricksim-atlas-tarot---games-n----deals-n---variants-list---players-"
                       "strongweak---seed-s---out-dir---engine-dask"}[game]
    intro = ["Written by", "", "```bash", argv_text, "```", "",
             (f"in {minutes:.1f} min (load average {load:.1f} at the start, {os.cpu_count()} cores; tricksim "
              f"{tricksim.__version__}; the runs reused when they were already there take seconds). The same atlas "
              f"on the command line: `tricksim atlas {game} --games {games} --seed {a.seed}"
              + ("" if a.variants is None else f" --variants {a.variants}") + "`; how it is made: "
              f"[analysis.md](analysis.md#{anchor})."), "",
             *(reading(result.variants, out / "runs") if game == "spades" else tarot_reading(result.variants))]
    unit = ("deals a variant (a pair of tables; without partnerships a rotation of one more table than players, "
            "two players a pair)"
            if game == "spades"
            else "games a table")
    page = atlas_markdown(result, title=f"The {game.capitalize()} variant atlas (seed {a.seed}, {games:,} {unit})",
                          chart_prefix=f"{charts.name}/", intro=intro)
    doc.write_text(page + "\n", encoding="utf-8")
    print(f"wrote {doc} and {len(result.charts)} charts in {charts} ({minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
