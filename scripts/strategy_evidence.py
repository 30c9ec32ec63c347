"""Evidence that the shipped Spades players are real (figures for docs/strategy-evidence.md).

* duplicate matches (same deals, seats swapped) of whole games to 500:
  heuristic vs random, heuristic vs heuristic without Nil;
* heuristic self-play: contracts made, mean tricks vs mean bid, Nil and
  Blind Nil success (classic rules, games mode so Blind Nil situations arise);
* bags per hand for bag_mode = take / avoid / set against the default player;
* cutthroat (each player alone, issue #28): one heuristic against three of another player, on the same
  deals as four of that player, the heuristic's seat rotated (``--cutthroat``: that section alone); the same
  with three players, preset cutthroat3 (``--cutthroat3``: that section alone), and with two, preset
  twohanded (``--twohanded``: the heuristic at each seat in turn against the other player, the same deals).

The section on the ``pimc`` search player comes from ``scripts/pimc_evidence.py`` (hours of computing): a
rewrite of the file keeps it.

Every figure carries its sample size and a 95 % interval. Usage::

    python scripts/strategy_evidence.py --games 20000 --out docs/strategy-evidence.md
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tricksim.analysis.games.spades.compare import duplicate_match_runs  # noqa: E402
from tricksim.analysis.games.spades.cutthroat import rotation_figures  # noqa: E402
from tricksim.analysis.games.spades.outcomes import NUMBER_WORDS, outcome_columns, team_outcomes  # noqa: E402
from tricksim.analysis.io import open_run  # noqa: E402
from tricksim.analysis.stats import fmt_estimate, fmt_rate, mean_ci  # noqa: E402
from tricksim.jobs.spades.cutthroat import rotation_runs  # noqa: E402
from tricksim.simulator.engine import RunConfig, run, run_to_tables  # noqa: E402
from tricksim.simulator.family import family
from tricksim.simulator.games.spades.rules import PRESETS  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402


def duplicate(a: str, b: str, deals: int, preset: str, seed: int, tmp: Path, flags: tuple[str, ...] = ()):
    """``a`` against ``b`` in duplicate: ``deals`` whole games with ``a`` as team 0, the same deals with the seats
    swapped; ``flags`` (``key=value``) over the preset's rules."""
    dirs = []
    rules = family("spades").build_rules(preset, list(flags))
    for tag, (x, y) in (("ab", (a, b)), ("ba", (b, a))):
        cfg = RunConfig(rules=rules, preset=preset, seats=(parse_spec(x), parse_spec(y)) * 2, seed=seed,
                        mode="games", count=deals)
        d = tmp / "-".join((a, b, preset, *flags, tag)).replace(":", "_").replace("=", "_")
        run(cfg, d, progress=False)
        dirs.append(d)
    return duplicate_match_runs(*dirs, a=a, b=b)


def seat_stats(hands) -> dict[str, str]:
    bids = np.stack([hands[f"bid_{s}"].to_numpy() for s in range(4)]).astype(np.int64)
    tricks = np.stack([hands[f"tricks_{s}"].to_numpy() for s in range(4)]).astype(np.int64)
    blind = np.stack([hands[f"blind_{s}"].to_numpy(zero_copy_only=False) for s in range(4)])
    out = {}
    made = []
    for team in (0, 1):
        b = bids[[team, team + 2]]
        t = tricks[[team, team + 2]]
        contract = np.where(b > 0, b, 0).sum(axis=0)
        taken = np.where(b > 0, t, 0).sum(axis=0)
        has_contract = contract > 0
        made.append((taken >= contract)[has_contract])
    made = np.concatenate(made)
    out["contracts made (team-hands with a contract)"] = fmt_rate(made.sum(), made.size)
    numeric = bids > 0
    out["mean bid (numeric bids, per seat-hand)"] = str(mean_ci(bids[numeric]))
    out["mean tricks of those bidders"] = str(mean_ci(tricks[numeric]))
    out["tricks − bid per bidder"] = str(mean_ci(tricks[numeric] - bids[numeric]))
    nil = (bids == 0) & ~blind
    out["Nil bid rate (seat-hands)"] = fmt_rate(nil.sum(), nil.size)
    out["Nil success"] = fmt_rate((tricks[nil] == 0).sum(), nil.sum())
    out["Blind Nil success"] = fmt_rate((tricks[blind] == 0).sum(), blind.sum())
    return out


def bags_per_hand(mode: str, hands_n: int, seed: int) -> str:
    """Bags per hand of team 0 playing bag_mode=MODE against the default heuristic (hands mode)."""
    seats = (parse_spec(f"heuristic:bag_mode={mode}"), parse_spec("heuristic")) * 2
    h = run_to_tables(RunConfig(rules=PRESETS["cardems"], seats=seats, seed=seed, count=hands_n))["hands"]
    rules = PRESETS["cardems"].to_dict()
    columns = {c: h[c].to_numpy() for c in outcome_columns(rules)}
    own, opp = team_outcomes(columns, 0, rules), team_outcomes(columns, 1, rules)  # the simulator's own scoring
    bags, own_set, opp_set = own["bags"].astype(np.int64), own["set"], opp["set"]
    return (f"bags/hand {mean_ci(bags)}; own sets {fmt_rate(own_set.sum(), own_set.size)}; "
            f"opponents set {fmt_rate(opp_set.sum(), opp_set.size)}")


def cutthroat_duplicate(a: str, b: str, games: int, seed: int, tmp: Path, hand_limit: int = 1000,
                        preset: str = "cutthroat") -> list[str]:
    """Cutthroat evidence: a rotation (``tricksim.jobs.spades.cutthroat``, the figures of
    ``tricksim.analysis.games.spades.cutthroat``) at the table of ``preset`` (n players: 4, or 3 in cutthroat3):
    ``a`` alone at seat k against n − 1 ``b`` (k = 0..n-1, the same deals), and n ``b`` on the same deals (a
    hand's cards depend only on the seed, game and hand number). Intervals clustered by game id (a deal: its n
    rotations and all their hands together)."""
    rules = PRESETS[preset]
    n = rules.seats
    all_b, others = NUMBER_WORDS[n], NUMBER_WORDS[n - 1]
    field, seat_dirs = rotation_runs(parse_spec(a), parse_spec(b), rules=rules, preset=preset,
                                     games=games, seed=seed, base=tmp / f"{preset}-{a}-{b}".replace(":", "_"),
                                     hand_limit=hand_limit)
    rot = rotation_figures(field, seat_dirs)
    f = rot.figures
    base_games = open_run(field).games(["hands", "end"])
    ends = ", ".join(f"{k} {v:,}" for k, v in base_games["end"].value_counts().items() if v)
    against, over = (f"alone against {others} {b}", f"the best of the {others} others") if n > 2 else (f"against {b}",
                                                                                                       "the other")
    head = f"### {a} {against} ({games:,} games to 500, the {a} at each seat in turn: {n * games:,} games; seed {seed})"
    per_hand = (f"- points a hand of the {a}'s seat, {a} there minus {b} there (the same cards, the hands both "
                f"tables played): {fmt_estimate(f['strong_points'])}")
    length = (f"- game length with the {a}: {mean_ci(rot.lengths)} hands; {all_b} {b}: "
              f"{mean_ci(base_games['hands'].to_numpy())} hands (their ends: {ends})")
    return [head, "", f"- {a}'s games won: {fmt_estimate(f['strong_win'])} (an equal player: {100 / n:.3g} %)",
            f"- deals {a} won from every seat: {fmt_estimate(f['strong_all'])}",
            f"- {a}'s final lead over {over}: {fmt_estimate(f['margin'])}", per_hand,
            length, ""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per duplicate match (= 2 x deals)")
    ap.add_argument("--hands", type=int, default=200_000, help="hands per bag-mode run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the Markdown here")
    ap.add_argument("--cutthroat", action="store_true", help="print the cutthroat section alone (--games games)")
    ap.add_argument("--cutthroat3", action="store_true", help="print the three-player cutthroat section alone "
                    "(--games games)")
    ap.add_argument("--twohanded", action="store_true", help="print the two-handed section alone (--games games)")
    ap.add_argument("--scoring-variants", action="store_true", help="print the section of ten for two hundred and "
                    "Nil or zero alone (--games deal pairs a variant)")
    a = ap.parse_args()
    t0 = time.time()
    if a.scoring_variants:
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(scoring_variants_section(a.games, a.seed, Path(tmp))) + f"\n(took {time.time() - t0:.0f} s)")
        return
    alone = [flag for flag, _heading, _preset in ALONE_SECTIONS if getattr(a, flag)]
    if alone:
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(alone_section(alone[0], a.games, a.seed, Path(tmp))) + f"\n(took {time.time() - t0:.0f} s)")
        return
    lines = ["# Strategy evidence", "",
             f"Produced by `python scripts/strategy_evidence.py --games {a.games} --hands {a.hands} --seed {a.seed}`"
             " (95 % intervals; n = sample size).", ""]
    deals = a.games // 2
    with tempfile.TemporaryDirectory() as tmp:
        for x, y, preset in (("heuristic", "random", "cardems"), ("heuristic", "heuristic:nil=0", "cardems"),
                             ("heuristic", "simple", "cardems")):
            res = duplicate(x, y, deals, preset, a.seed, Path(tmp))
            lines += [f"## Duplicate match: {x} vs {y} ({preset}, {2 * deals:,} games to 500)", "", "```",
                      str(res), "```", ""]
            print(lines[-3], flush=True)
    for preset in ("cardems", "classic"):  # classic adds Blind Nil (and its exchange)
        h = run_to_tables(RunConfig(rules=PRESETS[preset], seats=(parse_spec("heuristic"),) * 4, seed=a.seed,
                                       mode="games", count=deals))["hands"]
        lines += [f"## heuristic self-play ({preset}, {deals:,} games, {h.num_rows:,} hands)", ""]
        lines += [f"- {k}: {v}" for k, v in seat_stats(h).items()] + [""]
    lines += [f"## Bag modes (cardems, team 0 with the mode vs default heuristic, {a.hands:,} hands each)", ""]
    for mode in ("take", "set_take", "set", "avoid"):
        lines.append(f"- `bag_mode={mode}`: {bags_per_hand(mode, a.hands, a.seed)}")
    with tempfile.TemporaryDirectory() as tmp:
        for flag, _heading, _preset in ALONE_SECTIONS:
            lines += [""] + alone_section(flag, deals, a.seed, Path(tmp))
    lines += ["", f"(took {time.time() - t0:.0f} s)"]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        a.out.write_text(text + kept_block(a.out))


# the tables without partnerships: (command-line flag, heading, preset), each played as a rotation of the heuristic
ALONE_SECTIONS = (
    ("cutthroat", "Cutthroat: each player alone", "cutthroat"),
    ("cutthroat3", "Cutthroat for three: heuristic alone against two of another player", "cutthroat3"),
    ("twohanded", "Two-handed Spades: heuristic against another player in duplicate", "twohanded"),
)


def alone_section(flag: str, games: int, seed: int, tmp: Path) -> list[str]:
    """The section of ``flag`` (ALONE_SECTIONS): the heuristic against random and simple in that table's rotation."""
    _flag, heading, preset = next(s for s in ALONE_SECTIONS if s[0] == flag)
    lines = [f"## {heading} (issue #28)", "",
             f"`python scripts/strategy_evidence.py --{flag} --games {games} --seed {seed}`", ""]
    for other in ("random", "simple"):
        lines += cutthroat_duplicate("heuristic", other, games, seed, tmp, preset=preset)
    return lines


# issue #28's scoring variants (docs/rules.md, "Bidding variants"), each (preset, flags): ten for two hundred as
# usually played, with a set contract losing the value, and a larger stake both ways; Nil or zero on the free
# bidding of cardems and on the spade-count bids of whiz and mirror
SCORING_VARIANTS = (
    ("cardems", ("big_bid_threshold=10",)),
    ("cardems", ("big_bid_threshold=10", "big_bid_set=value")),
    ("cardems", ("big_bid_threshold=10", "big_bid_value=500", "big_bid_set=value")),
    ("cardems", ("zero_bid=zero",)),
    ("whiz", ("zero_bid=zero",)),
    ("mirror", ("zero_bid=zero",)),
)


def scoring_variants_section(deals: int, seed: int, tmp: Path) -> list[str]:
    """The heuristic against random in duplicate under each of :data:`SCORING_VARIANTS` (``deals`` deal pairs
    each), one table row a variant, as the bidding-variant and deck sections' rows (``tricksim compare``)."""
    lines = ["## Ten for two hundred and Nil or zero: heuristic vs random in duplicate (issue #28)", "",
             (f"`python scripts/strategy_evidence.py --scoring-variants --games {deals} --seed {seed}`: {deals:,} "
              f"deal pairs = {2 * deals:,} whole games to 500 a variant, seats swapped in each pair; 95 % intervals "
              "over deal pairs."), "",
             ("| preset | flags | A = heuristic win rate (paired) | pairs won both / split / neither | final margin "
              "per game (A − B) | game length (hands) | sets per game (A, B) | bags per hand (A, B) |"),
             "|---|---|---|---|---|---|---|---|"]
    for preset, flags in SCORING_VARIANTS:
        r = duplicate("heuristic", "random", deals, preset, seed, tmp, flags)
        t = r.table().set_index("metric")  # the cells as tricksim compare prints them
        sets, bags = t.loc["sets (failed contracts) per game"], t.loc["bags per hand"]
        lines.append(f"| `{preset}` | {' '.join(f'`{f}`' for f in flags)} | "
                     f"{t.loc['win rate (paired: mean pair score)', 'A']} | {t.loc['pairs: A won both / split / neither', 'A']}"
                     f" | {t.loc['final margin per game (A − B)', 'A − B']} | {t.loc['game length (hands)', 'A']} | "
                     f"A {sets['A']}, B {sets['B']} | A {bags['A']}, B {bags['B']} |")
        print(lines[-1], flush=True)
    return lines + [""]


PIMC_START, PIMC_END = "<!-- pimc-evidence:start -->", "<!-- pimc-evidence:end -->"


def kept_block(path: Path) -> str:
    """The pimc section of ``path`` (written by scripts/pimc_evidence.py, which takes hours), kept as it is."""
    text = path.read_text() if path.exists() else ""
    if PIMC_START in text and PIMC_END in text:
        return "\n" + PIMC_START + text.split(PIMC_START, 1)[1].split(PIMC_END, 1)[0] + PIMC_END + "\n"
    return ""


if __name__ == "__main__":
    main()
