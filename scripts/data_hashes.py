"""Hashes of the data of fixed runs: the proof that a refactor changed nothing.

For each game family, every preset with every built-in strategy at all four
seats, a mixed seating (for Spades the generic per-seat kernel) and a rule set
that turns on the rarer flags, in each of the family's modes (Spades hands and
games, Tarot deals and games) with the plays recorded, on two threads in small shards.
Each run is written to a run directory and read back; every Parquet column is
hashed (SHA-256 of its values) and the hashes are compared with, or written
to, ``tests/data_hashes.json``.

    python scripts/data_hashes.py            # compare: exit 1 and name each column that differs
    python scripts/data_hashes.py --write    # record the current data as the reference
    python scripts/data_hashes.py --only cardavia/heuristic/deals   # named runs alone (compare, or --write)

A change that must change data (a bug fix) updates the file in its own commit.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "data_hashes.json"

PRESETS = ("cardems", "zone", "classic")
# the bidding variants (issue #28): each preset with the heuristic and the mixed seating, and the scoring flags
VARIANT_PRESETS = ("suicide", "whiz", "mirror")
VARIANT_RULES = ("zero_bid=zero", "big_bid_threshold=10", "big_bid_set=value", "big_bid_value=250")
DECK_PRESETS = {"cardems": "joker_deuce_ace", "classic": "joker_deuce_deuce"}  # preset -> deck
STRATEGIES = ("simple", "random", "heuristic")
MIXED = ("heuristic", "random", "simple", "heuristic:bag_mode=avoid,nil_threshold=0.3")
# the flags no preset turns on, together (jokers with the 2♣ lead need the 2♣ kept)
RARE_RULES = ("jokers=true", "joker_removes=2h2d", "first_lead=two_of_clubs", "mercy=-200", "mercy_check=before_target",
              "min_team_bid=4", "nil_tricks=contract", "blind_nil_eligibility=trailing", "blind_nil_deficit=50",
              "exchange_order=bidder_first", "nil_trick_points=0", "nil_bags_when_set=false")
# cutthroat's flags away from the preset (the team flags are refused without partnerships)
CUTTHROAT_RARE_RULES = ("blind_nil=true", "jokers=true", "mercy=-200", "mercy_check=before_target", "target=300",
                        "nil_tricks=contract", "bag_overflow=reset", "bid_rule=whiz", "big_bid_threshold=6")
SMALL_TABLES = {"cutthroat3": 3, "twohanded": 2}  # Spades presets for smaller tables: their seat count
TAROT_STRATEGIES = ("random", "heuristic", "legacy")  # legacy: the heuristic before issue #29, frozen
TAROT_MIXED = ("heuristic", "random:chelem_prob=0.9", "heuristic:defender_poignee=1,chelem_losers=2", "random")
# every Tarot flag at its value other than the preset's (rules.py CHOICES)
TAROT_RARE_RULES = ("petit_sec_redeal=false", "discard_trumps=free", "poignee_hand=as_dealt", "poignee_excuse=always",
                    "poignee_four_kings=never", "chelem_defenders_slam=announcement_only",
                    "excuse_last_trick=announced_only", "target_oudlers=held", "excuse_lead=forbidden",
                    "excuse_last_trick_side=trick_winner")
# the session flags other than their defaults (a game to a score either way, void deals not counted)
TAROT_SESSION_RULES = ("game_target=1000", "game_floor=-1000", "void_deals_count=false")
TAROT_TABLES = {"fft3": 3, "fft5": 5}  # Tarot presets for other table sizes: their seat count
COUNTS = {"hands": 600, "games": 24, "deals": 400}
SHARDS = {"hands": 128, "games": 5, "deals": 96}
SEED = 20261201


def cases() -> dict[str, dict]:
    """name -> keyword arguments of one fixed run."""
    out = {}
    for mode in ("hands", "games"):
        for preset in PRESETS:
            for name in STRATEGIES:
                out[f"{preset}/{name}/{mode}"] = {"preset": preset, "rules": (), "seats": (name,) * 4, "mode": mode}
            out[f"{preset}/mixed/{mode}"] = {"preset": preset, "rules": (), "seats": MIXED, "mode": mode}
        out[f"classic+rare/mixed/{mode}"] = {"preset": "classic", "rules": RARE_RULES, "seats": MIXED, "mode": mode}
        out[f"classic+rare/heuristic/{mode}"] = {"preset": "classic", "rules": RARE_RULES,
                                                 "seats": ("heuristic",) * 4, "mode": mode}
        for preset in VARIANT_PRESETS:
            out[f"{preset}/heuristic/{mode}"] = {"preset": preset, "rules": (), "seats": ("heuristic",) * 4,
                                                "mode": mode}
            out[f"{preset}/mixed/{mode}"] = {"preset": preset, "rules": (), "seats": MIXED, "mode": mode}
        out[f"cardems+variants/mixed/{mode}"] = {"preset": "cardems", "rules": VARIANT_RULES, "seats": MIXED,
                                                 "mode": mode}
        # the deuce decks (issue #28; joker_ace is the rare rules' jokers=true), each on another preset
        for preset, deck in DECK_PRESETS.items():
            for name, seats in (("heuristic", ("heuristic",) * 4), ("mixed", MIXED)):
                out[f"{preset}+{deck}/{name}/{mode}"] = {"preset": preset, "rules": (f"deck={deck}",), "seats": seats,
                                                        "mode": mode}
        # cutthroat (issue #28: each player alone, per-seat score columns): every strategy, mixed, the rarer flags
        for name in STRATEGIES:
            out[f"cutthroat/{name}/{mode}"] = {"preset": "cutthroat", "rules": (), "seats": (name,) * 4, "mode": mode}
        out[f"cutthroat/mixed/{mode}"] = {"preset": "cutthroat", "rules": (), "seats": MIXED, "mode": mode}
        out[f"cutthroat+rare/mixed/{mode}"] = {"preset": "cutthroat", "rules": CUTTHROAT_RARE_RULES, "seats": MIXED,
                                               "mode": mode}
        # the smaller tables without partnerships (issue #28): three players with 17 cards, two drawing from a stock
        for preset, n in SMALL_TABLES.items():
            for name in STRATEGIES:
                out[f"{preset}/{name}/{mode}"] = {"preset": preset, "rules": (), "seats": (name,) * n, "mode": mode}
            out[f"{preset}/mixed/{mode}"] = {"preset": preset, "rules": (), "seats": MIXED[:n], "mode": mode}
    tarot = {"game": "tarot", "preset": "cardavia", "mode": "deals"}
    for name in TAROT_STRATEGIES:
        out[f"cardavia/{name}/deals"] = dict(tarot, rules=(), seats=(name,) * 4)
    out["cardavia/mixed/deals"] = dict(tarot, rules=(), seats=TAROT_MIXED)
    out["cardavia+rare/mixed/deals"] = dict(tarot, rules=TAROT_RARE_RULES, seats=TAROT_MIXED)
    out["cardavia+rare/heuristic/deals"] = dict(tarot, rules=TAROT_RARE_RULES, seats=("heuristic",) * 4)
    for preset, n in TAROT_TABLES.items():  # the other table sizes: every strategy, mixed, the rarer flags
        for name in TAROT_STRATEGIES:
            out[f"{preset}/{name}/deals"] = dict(tarot, preset=preset, rules=(), seats=(name,) * n)
        out[f"{preset}/mixed/deals"] = dict(tarot, preset=preset, rules=(), seats=(TAROT_MIXED * 2)[:n])
        out[f"{preset}+rare/mixed/deals"] = dict(tarot, preset=preset, rules=TAROT_RARE_RULES, seats=(TAROT_MIXED * 2)[:n])
    # Tarot games mode (whole games: 16 deals by default; to a score, void deals not counted, three players)
    games = {"game": "tarot", "mode": "games"}
    out["cardavia/heuristic/games"] = dict(games, preset="cardavia", rules=(), seats=("heuristic",) * 4)
    out["fft3+session/mixed/games"] = dict(games, preset="fft3", rules=TAROT_SESSION_RULES, seats=TAROT_MIXED[:3])
    return out


def column_hash(column: pa.ChunkedArray) -> str:
    """SHA-256 (first 16 hex digits) of a column's values, independent of chunking and file encoding."""
    column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        data = "\n".join(column.cast(pa.string()).to_pylist()).encode()
    elif pa.types.is_fixed_size_list(column.type):
        data = np.ascontiguousarray(column.flatten().to_numpy()).tobytes()
    elif pa.types.is_list(column.type):  # the lengths, then the values (never the addresses of the lists)
        offsets = column.offsets.to_numpy()
        data = (offsets - offsets[0]).tobytes() + np.ascontiguousarray(column.flatten().to_numpy()).tobytes()
    else:
        values = column.to_numpy(zero_copy_only=False)
        data = values.dtype.str.encode() + np.ascontiguousarray(values).tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def run_hashes(case: dict, tmp: Path) -> dict:
    from tricksim.simulator.engine import RunConfig, run
    from tricksim.simulator.family import family
    from tricksim.strategies.registry import parse_spec

    game = case.get("game", "spades")
    fam = family(game)
    cfg = RunConfig(game=game, rules=fam.build_rules(case["preset"], case["rules"]), preset=case["preset"],
                    seats=tuple(parse_spec(s, game=game) for s in case["seats"]), seed=SEED, mode=case["mode"],
                    count=COUNTS[case["mode"]], record_plays=True, shard_size=SHARDS[case["mode"]])
    run(cfg, tmp, overwrite=True, threads=2, progress=False)
    out = {}
    for table_name in fam.tables[case["mode"]]:
        if (tmp / table_name).is_dir():
            table = pq.read_table(tmp / table_name)
            out[table_name] = {"rows": table.num_rows,
                               **{name: column_hash(table.column(name)) for name in table.column_names}}
    return out


def compute(names=None) -> dict:
    all_cases = cases()
    with tempfile.TemporaryDirectory() as tmp:
        return {name: run_hashes(all_cases[name], Path(tmp) / "run") for name in (names or all_cases)}


def differences(expected: dict, got: dict) -> list[str]:
    lines = []
    for case, tables in got.items():
        for table, cols in tables.items():
            want = expected.get(case, {}).get(table, {})
            for col, h in cols.items():
                if want.get(col) != h:
                    lines.append(f"{case} {table}.{col}: {want.get(col)} -> {h}")
            lines += [f"{case} {table}.{col}: missing" for col in want if col not in cols]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="record the current data as the reference")
    ap.add_argument("--only", nargs="+", metavar="RUN", choices=sorted(cases()),
                    help="these runs alone (with --write: the other runs' hashes are kept)")
    args = ap.parse_args(argv)
    got = compute(args.only)
    if args.write:
        kept = json.loads(REFERENCE.read_text()) if args.only else {}
        REFERENCE.write_text(json.dumps({**kept, **got}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {REFERENCE} ({len(got)} runs)")
        return 0
    diff = differences(json.loads(REFERENCE.read_text()), got)
    print("\n".join(diff) if diff else f"all {len(got)} runs identical to {REFERENCE.name}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
