"""Tarot games mode (simulator/games/tarot/session.py): running totals and winners recomputed in plain Python
from the deals' scores, the dealer's rotation, the stopping rules on constructed scores worked by hand, each
deal of a game equal to the deals-mode deal of its id, resume of a games run killed mid-run, and bad input."""
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from killed_run import kill_and_resume

from tricksim.cli import cli
from tricksim.simulator.engine import RunConfig, run, run_to_tables
from tricksim.simulator.games.tarot import session
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import parse_spec

RANDOM = parse_spec("random:chelem_prob=0.1", game="tarot")


def cfg(preset="cardavia", rules=(), **kw):
    r = build_rules(preset, list(rules))
    base = {"game": "tarot", "rules": r, "preset": preset, "seats": (RANDOM,) * r.seats, "seed": 7, "mode": "games",
            "count": 30}
    base.update(kw)
    return RunConfig(**base)


def _plain_python_games(deals, seats, rules, hand_limit):
    """Per game, from the deals table's scores alone: the running totals after each deal, the final totals,
    the winner (-1 for a tie at the top), the margin over the second and why the game ended."""
    out = {}
    for row in deals.to_pylist():
        g = out.setdefault(row["game_id"], {"totals": [0] * seats, "running": [], "counted": 0, "rows": 0})
        g["rows"] += 1
        for s in range(seats):
            g["totals"][s] += row[f"score_{s}"]
        g["running"].append(list(g["totals"]))
        if row["void"] == 0 or rules.void_deals_count:
            g["counted"] += 1
    for g in out.values():
        t = g["totals"]
        best = max(t)
        leaders = [s for s in range(seats) if t[s] == best]
        g["winner"] = leaders[0] if len(leaders) == 1 else -1
        g["winners"] = sum(1 << s for s in leaders)
        g["margin"] = best - sorted(t)[-2]
    return out


@pytest.mark.parametrize("preset, rules", [("cardavia", ()), ("fft3", ("deals_per_game=5", "void_deals_count=false")),
                                           ("cardavia", ("game_target=400", "game_floor=-500")),
                                           ("fft5", ()), ("fft5", ("game_target=600", "void_deals_count=false"))])
def test_running_totals_and_winner_match_the_deals(preset, rules):
    c = cfg(preset, rules, shard_size=11)
    r, seats = c.rules, c.rules.seats
    t = run_to_tables(c, threads=2)
    deals, games = t["deals"], t["games"].to_pylist()
    want = _plain_python_games(deals, seats, r, c.hand_limit)
    assert [g["game_id"] for g in games] == list(range(c.count))
    d = deals.to_pylist()
    for g in games:
        w = want[g["game_id"]]
        assert g["deals"] == w["rows"]
        assert [g[f"total_{s}"] for s in range(seats)] == w["totals"]
        assert (g["winner"], g["winners"], g["margin"]) == (w["winner"], w["winners"], w["margin"])
        assert sum(w["totals"]) == 0  # every deal is zero-sum, so is a game
        mine = [x for x in d if x["game_id"] == g["game_id"]]
        assert [[x[f"total_{s}"] for s in range(seats)] for x in mine] == w["running"]
        assert [x["deal_no"] for x in mine] == list(range(len(mine)))
        # the stopping rule, from the totals: the game ends at the first deal that ends it, not before
        if r.game_target is None and r.game_floor is None:
            assert g["end"] == "deals" and w["counted"] == r.game_deals()
            assert r.void_deals_count or mine[-1]["void"] == 0
        else:
            def over(tot):
                return (r.game_target is not None and max(tot) >= r.game_target) or (
                    r.game_floor is not None and min(tot) <= r.game_floor)
            assert not any(over(tot) for tot in w["running"][:-1])
            assert g["end"] == ("limit" if not over(w["running"][-1]) else
                                "target" if r.game_target is not None and max(w["running"][-1]) >= r.game_target
                                else "floor")


def test_the_deal_passes_to_the_right_and_each_game_starts_one_seat_on():
    for preset in ("cardavia", "fft3", "fft5"):
        c = cfg(preset, count=9)
        n = c.rules.seats
        d = run_to_tables(c)["deals"].to_pydict()
        for g, j, dealer, deal_id in zip(d["game_id"], d["deal_no"], d["dealer"], d["deal_id"]):
            assert dealer == (g + j) % n  # game g's first dealer is seat g % n; then seat + 1, the dealer's right
            assert deal_id == g * ((1 << 17) * n + 1) + j


def test_a_deal_of_a_game_is_the_deals_mode_deal_of_its_id():
    """No player sees the totals: deal j of game g is the deals-mode deal g * stride + j, card for card."""
    from tricksim.simulator.games.tarot.batch import compute

    c = cfg(count=4, record_plays=True)
    d = run_to_tables(c)["deals"]
    alone = compute(cfg(mode="deals", count=10**9, record_plays=True), d.column("deal_id").to_numpy())["deals"]
    assert d.drop(["game_id", "deal_no"] + [f"total_{s}" for s in range(4)]).equals(alone)


def test_stop_points_on_constructed_scores():
    """Three deals worked by hand: seat 0 wins a Garde (+174, the others -58 each), a void deal, seat 0 wins
    again (+150, -50): totals (174, -58, -58, -58), the same, then (324, -108, -108, -108)."""
    scores = np.array([[[174, -58, -58, -58], [0, 0, 0, 0], [150, -50, -50, -50]]], np.int64)
    counts_all = np.ones((1, 3), bool)
    void_not_counted = np.array([[True, False, True]])
    valid = np.ones((1, 3), bool)
    zero = np.zeros(1, np.int64)
    totals = np.zeros((1, 4), np.int64)

    def stop(rules, counts=counts_all, limit=1000):
        s, e, running = session.stop_points(build_rules("cardavia", rules), limit, zero, zero, totals, scores, counts,
                                            valid)
        return int(s[0]), session.END_NAMES[int(e[0]) - 1] if e[0] else "running", running[0].tolist()

    assert stop(["game_target=300"]) == (2, "target", [[174, -58, -58, -58], [174, -58, -58, -58],
                                                       [324, -108, -108, -108]])
    assert stop(["game_target=174"])[:2] == (0, "target")       # reached exactly: the game ends
    assert stop(["game_target=175"])[:2] == (2, "target")
    assert stop(["game_target=400"])[:2] == (2, "running")      # not reached: the next chunk goes on
    assert stop(["game_floor=-58"])[:2] == (0, "floor")
    assert stop(["game_floor=-100"])[:2] == (2, "floor")
    assert stop(["game_target=300", "game_floor=-100"])[:2] == (2, "target")  # both at once: the target's
    assert stop(["deals_per_game=2"])[:2] == (1, "deals")       # the void deal counts
    assert stop(["deals_per_game=2", "void_deals_count=false"], void_not_counted)[:2] == (2, "deals")
    assert stop(["game_target=1000"], limit=2)[:2] == (1, "limit")
    assert stop(["deals_per_game=2"], limit=2)[:2] == (1, "deals")  # the real end wins over the limit
    winner, winners, margin = session.winners_of(np.array([[324, -108, -108, -108], [100, 100, -100, -100]]))
    assert winner.tolist() == [0, -1] and winners.tolist() == [1, 3] and margin.tolist() == [432, 0]


def test_default_length_is_four_deals_a_player():
    assert build_rules("cardavia").game_deals() == 16
    assert build_rules("fft3").game_deals() == 12
    assert build_rules("fft5").game_deals() == 20
    g = run_to_tables(cfg("fft3", count=3))["games"]
    assert g.column("deals").to_pylist() == [12, 12, 12]


def test_resume_after_a_failure_mid_run(tmp_path, crash_mid_run):
    c = cfg(rules=("game_target=300",), count=40, shard_size=8)
    full = tmp_path / "full"
    run(c, full, progress=False)
    out = tmp_path / "crash"
    crash_mid_run(c, out, "deals", 2, threads=1)
    info = run(c, out, resume=True, progress=False)
    assert info["shards_written_this_session"] == 3
    assert not list(Path(out).rglob("*.tmp"))
    for table in ("deals", "games"):
        assert pq.read_table(Path(out) / table).equals(pq.read_table(Path(full) / table))


@pytest.mark.parametrize("args, message", [
    (["--rule", "deals_per_game=0"], "invalid value deals_per_game=0: allowed none (4 deals a player) or an "
                                     "integer from 1 to 100000"),
    (["--rule", "deals-per-game=8", "--rule", "game_target=500"], "deals_per_game and game_target / game_floor "
                                                                  "exclude each other"),
    (["--rule", "game_floor=200"], "invalid value game_floor=200: allowed none or an integer from -1000000 to -1"),
    (["--rule", "game_target=0"], "invalid value game_target=0: allowed none or an integer from 1 to 1000000"),
    (["--rule", "void_deals_count=maybe"], "invalid value void_deals_count='maybe': allowed true | false"),
])
def test_bad_games_options_are_one_line_errors(tmp_path, args, message):
    r = CliRunner().invoke(cli, ["simulate", "tarot", "--games", "3", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


@pytest.mark.needs_jit("two 6,000-game runs in subprocesses, timed against a kill: minutes as pure Python")
def test_resume_after_kill_9(tmp_path):
    """A games run (to a target, so the games' lengths vary) killed once a few shards are on disk, then
    --resume: exactly the games and the deals of a clean run."""
    args = ["--games", "6000", "--shard-size", "300", "--seed", "3", "--strategy", "random", "--quiet",
            "--threads", "1", "--rule", "game_target=400", "--record-plays"]
    out, full = kill_and_resume(tmp_path, "tarot", args, "games", most=20, poll=0.005)
    assert not list(Path(out).rglob("*.tmp"))
    for table in ("games", "deals"):
        assert pq.read_table(out / table).equals(pq.read_table(full / table)), table


@pytest.mark.parametrize("preset", ["cardavia", "fft3", "fft5"])
def test_the_reference_replays_every_deal_of_a_games_run(preset):
    """The plain-Python reference (tests/reference_tarot.py) replays each deal of a games run from its deal id:
    the dealer (deal_id % seats), every decision's legality, the count and the scores."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    import reference_tarot

    c = cfg(preset, ("game_target=500",), count=12, record_plays=True)
    deals = run_to_tables(c)["deals"]
    rows = deals.drop(["game_id", "deal_no"] + [f"total_{s}" for s in range(c.rules.seats)]).to_pylist()
    seen = reference_tarot.replay_table(rows, c.rules.to_dict(), plays_required=True)
    assert seen
