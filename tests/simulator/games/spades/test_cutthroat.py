"""Cutthroat Spades (preset ``cutthroat``: partnerships=false, four players each alone; docs/rules.md "Cutthroat").

Hand-scored examples (worked by hand from the rules, the working in the comments) run through both the
engine (``kernel.score_hand`` / ``kernel.game_end``) and the plain-Python reference; whole engine runs
are replayed by the reference (per-seat scores, bags, totals, winners), with corruption tests; the rule
combinations that need a partner are refused.
"""
from __future__ import annotations

from functools import cache

import pyarrow as pa
import pytest
import reference_spades as ref

from tricksim.simulator import engine
from tricksim.simulator.errors import RulesError
from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.simulator.games.spades.state import SpadesState
from tricksim.strategies.registry import parse_spec

CUT = PRESETS["cutthroat"]


@pytest.fixture(params=["engine", "reference"])
def impl(request):
    return (kernel.score_hand, kernel.game_end) if request.param == "engine" else (ref.score_hand, ref.game_end)


def _score(impl, rules, bids, tricks, bags_before=(0, 0, 0, 0), blind=(0, 0, 0, 0)):
    scores, bags = impl[0](rules, bids, blind, tricks, bags_before)
    return tuple(int(x) for x in scores), tuple(int(x) for x in bags)


# ----------------------------------------------------------------- hand-scored examples (cardems values:
# 10 a trick bid, bag +1, Nil ±100, 10 bags cost 100 and carry the rest)
def test_made_bids_with_bags_and_a_made_nil(impl):
    # bids 4, 3, 2, Nil; tricks 6, 3, 4, 0 (13)
    # seat 0: 6 >= 4: 4 * 10 + 2 overtricks = 42, 2 bags; seat 1: exactly 3: 30, no bag
    # seat 2: 4 >= 2: 20 + 2 = 22, 2 bags; seat 3: Nil with no trick: +100, no bag
    assert _score(impl, CUT, (4, 3, 2, 0), (6, 3, 4, 0)) == ((42, 30, 22, 100), (2, 0, 2, 0))


def test_a_set_bid_is_the_players_alone(impl):
    # bids 5, 4, 3, 1; tricks 3, 4, 5, 1 (13)
    # seat 0: 3 < 5: set, -50, no bag; seat 1: 40; seat 2: 30 + 2 = 32, 2 bags; seat 3: 10
    # (with partnerships, seats 0+2 would have made 8 of 8: here nobody's tricks help seat 0)
    assert _score(impl, CUT, (5, 4, 3, 1), (3, 4, 5, 1)) == ((-50, 40, 32, 10), (0, 0, 2, 0))


def test_a_failed_nil_counts_its_tricks_as_bags(impl):
    # bids Nil, 4, 4, 4; tricks 2, 4, 4, 3 (13)
    # seat 0: Nil failed, -100, and its 2 tricks are bags (+1 each: nil_trick_points=1): -98, 2 bags
    # seats 1, 2: 40 each; seat 3: 3 < 4: -40
    assert _score(impl, CUT, (0, 4, 4, 4), (2, 4, 4, 3)) == ((-98, 40, 40, -40), (2, 0, 0, 0))


def test_bag_penalty_per_player(impl):
    # bags before 8, 9, 0, 5; bids 2 each; tricks 4, 3, 2, 4 (13)
    # seat 0: 20 + 2 = 22, bags 8 + 2 = 10: -100, 0 carried: -78, 0 bags
    # seat 1: 20 + 1 = 21, bags 9 + 1 = 10: -100: -79, 0 bags
    # seat 2: 20, bags 0; seat 3: 20 + 2 = 22, bags 5 + 2 = 7 (no penalty: only its own bags count)
    got = _score(impl, CUT, (2, 2, 2, 2), (4, 3, 2, 4), bags_before=(8, 9, 0, 5))
    assert got == ((-78, -79, 20, 22), (0, 0, 0, 7))


def test_bag_penalty_reset_and_carry(impl):
    # seat 0 had 9 bags, bids 2 and takes 5: 20 + 3 = 23, bags 12: -100 = -77;
    # carry keeps 2 bags, reset (zone's rule) none. Seats 1..3: bids 3, 3, 2, tricks 3, 3, 2: 30, 30, 20
    bids, tricks = (2, 3, 3, 2), (5, 3, 3, 2)
    assert _score(impl, CUT, bids, tricks, bags_before=(9, 0, 0, 0)) == ((-77, 30, 30, 20), (2, 0, 0, 0))
    reset = build_rules("cutthroat", ["bag_overflow=reset"])
    assert _score(impl, reset, bids, tricks, bags_before=(9, 0, 0, 0)) == ((-77, 30, 30, 20), (0, 0, 0, 0))


def test_a_lone_nil_under_each_nil_tricks_rule(impl):
    # nil_trick_points=0 tells the two rules apart: seat 0 bids Nil and takes 2 tricks (Nil failed, -100)
    # bags: its 2 tricks are bags worth 0 each: -100, 2 bags
    # contract: they count toward its contract of 0, so they are 2 overtricks at bag_points=1: -98, 2 bags
    # seats 1..3: bids 4, 4, 3, tricks 4, 4, 3: 40, 40, 30
    bids, tricks = (0, 4, 4, 3), (2, 4, 4, 3)
    bags_rule = build_rules("cutthroat", ["nil_trick_points=0"])
    contract_rule = build_rules("cutthroat", ["nil_trick_points=0", "nil_tricks=contract"])
    assert _score(impl, bags_rule, bids, tricks) == ((-100, 40, 40, 30), (2, 0, 0, 0))
    assert _score(impl, contract_rule, bids, tricks) == ((-98, 40, 40, 30), (2, 0, 0, 0))


def test_a_blind_nil_alone(impl):
    # Blind Nil +-200 (classic's value): seat 2 bid Blind Nil and took no trick: +200; seat 0 Blind Nil with
    # 1 trick: -200 + 1 bag = -199; seats 1, 3 bid 6 and 5, took 7 and 5: 61 (1 bag), 50
    rules = build_rules("cutthroat", ["blind_nil=true"])
    got = _score(impl, rules, (0, 6, 0, 5), (1, 7, 0, 5), blind=(1, 0, 1, 0))
    assert got == ((-199, 61, 200, 50), (1, 1, 0, 0))


@pytest.mark.parametrize("totals, expected", [
    ((510, 480, 300, 200), (True, 0, "target")),   # one player over the target and alone in the lead
    ((480, 300, 505, 520), (True, 3, "target")),   # two over: the higher wins
    ((510, 510, 200, 100), (False, -1, "")),       # a tie for the lead at the target: play on
    ((490, 499, 300, 100), (False, -1, "")),       # nobody at the target
])
def test_game_end_by_target(impl, totals, expected):
    assert impl[1](CUT, *totals) == expected


@pytest.mark.parametrize("check, totals, expected", [
    # mercy -200: a player at or below it ends the game; the player alone in the lead wins
    ("after_target", (-210, 100, 50, 30), (True, 1, "mercy")),
    ("after_target", (-200, 100, 100, 30), (False, -1, "")),    # the lead shared: play on
    ("after_target", (-250, 520, 100, 0), (True, 1, "target")),  # the target is checked first
    ("before_target", (-250, 520, 100, 0), (True, 1, "mercy")),
])
def test_game_end_by_mercy(impl, check, totals, expected):
    rules = build_rules("cutthroat", ["mercy=-200", f"mercy_check={check}"])
    assert impl[1](rules, *totals) == expected


def test_partnership_rules_are_unchanged_by_the_flag():
    """The default (partnerships) records its rules as before the flag existed; cutthroat records it."""
    assert "partnerships" not in PRESETS["cardems"].to_dict()
    assert CUT.to_dict()["partnerships"] is False
    assert type(CUT).from_dict(CUT.to_dict()) == CUT
    assert (CUT.sides, PRESETS["cardems"].sides) == (4, 2)


@pytest.mark.parametrize("preset, overrides, match", [
    ("cutthroat", ["bid_rule=suicide"], r"bid_rule=suicide without partnerships .*set bid_rule=free"),
    ("cutthroat", ["min_team_bid=4"], r"min_team_bid=4 without partnerships .*no teams"),
    ("cutthroat", ["blind_nil=true", "blind_nil_exchange=3"], r"blind_nil_exchange=3 without partnerships"),
    ("cutthroat", ["blind_nil=true", "blind_nil_eligibility=trailing"], r"trailing without partnerships"),
    ("cardems", ["partnerships=false"], r"'partnerships' is set by the preset.*preset.cutthroat"),
])
def test_rules_that_need_a_partner_are_refused(preset, overrides, match):
    with pytest.raises(RulesError, match=match):
        build_rules(preset, overrides)


def test_state_has_four_sides():
    st = SpadesState(CUT, seed=3, game_id=1, totals=(10, 20, 30, 40), bags=(1, 2, 3, 4))
    from tricksim.simulator.games.spades.policy import V_BAGS, V_SCORE
    view = st.observation(0).view
    assert list(view[V_SCORE:V_SCORE + 4]) == [10, 20, 30, 40] and list(view[V_BAGS:V_BAGS + 4]) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="2 totals given: the rules have 4 sides"):
        SpadesState(CUT, totals=(0, 0))
    team = SpadesState(PRESETS["cardems"], totals=(10, 20), bags=(1, 2)).observation(0).view
    assert list(team[V_SCORE:V_SCORE + 4]) == [10, 20, 10, 20]  # slots 2, 3 repeat the teams


# ----------------------------------------------------------------- whole runs replayed by the reference
RANDOM = "random:nil_prob=0.2,blind_nil_prob=0.3"
CONFIGS = {
    "cutthroat": ("cutthroat", ()),
    # the scoring and end flags away from their defaults, with Blind Nil and jokers
    "cutthroat_odd": ("cutthroat", ("blind_nil=true", "mercy=-150", "target=250", "mercy_check=before_target",
                                    "nil_tricks=contract", "bag_limit=5", "bag_overflow=reset", "jokers=true")),
    "cutthroat_whiz": ("cutthroat", ("bid_rule=whiz", "big_bid_threshold=5", "first_lead=two_of_clubs",
                                     "nil_bags_when_set=false", "bag_limit=4")),
}
STRATEGIES = (RANDOM, "simple", "heuristic")
RUNS = [(c, s, m) for c in CONFIGS for s in STRATEGIES for m in ("hands", "games")]
COUNTS = {"hands": 300, "games": 15}
HAND_LIMIT = 80


@cache
def simulate(config, strategy, mode):
    preset, overrides = CONFIGS[config]
    rules = build_rules(preset, list(overrides))
    seed = 7000 + 10 * list(CONFIGS).index(config) + STRATEGIES.index(strategy) * 2 + (mode == "games")
    hand_limit = HAND_LIMIT if mode == "games" else 1
    cfg = engine.RunConfig(rules=rules, seats=tuple(parse_spec(strategy) for _ in range(4)), seed=seed, mode=mode,
                           count=COUNTS[mode], hand_limit=hand_limit, record_plays=True, shard_size=7)
    tables = engine.run_to_tables(cfg)
    return rules, seed, hand_limit, tables["hands"], tables.get("games")


@cache
def replayed(config, strategy, mode):
    rules, seed, hand_limit, hands, games = simulate(config, strategy, mode)
    return ref.replay(rules, seed, mode, hand_limit, hands, games, count=COUNTS[mode])


@pytest.mark.parametrize("run", RUNS, ids=lambda r: f"{r[0]}-{r[1].split(':')[0]}-{r[2]}")
def test_cutthroat_run_replays(run):
    stats = replayed(*run)
    assert stats["players_alone"] == 4 * stats["hands"] > 0
    assert stats["sets"] > 0 and stats["trumps"] > 0
    _, _, _, hands, games = simulate(*run)
    assert {f"{k}_{s}" for k in ("score", "bags", "total") for s in range(4)} <= set(hands.column_names)
    if games is not None:
        assert {"total_2", "total_3"} <= set(games.column_names)


def test_cutthroat_runs_exercise_the_rules():
    total = sum((replayed(*run) for run in RUNS), start=ref.Counter())
    for key in ("nil_made", "nil_failed", "blind_nil_made", "blind_nil_failed", "bag_penalties", "end_target",
                "end_mercy", "jokers_played", "two_of_clubs_leads", "big_bids_made", "big_bids_set"):
        assert total[key] > 0, f"no {key} in the cutthroat replays: {dict(total)}"
    assert total["both_nil_teams"] == 0
    winners = [w for c in CONFIGS for s in STRATEGIES for w in simulate(c, s, "games")[4].column("winner").to_pylist()]
    assert set(winners) >= {0, 1, 2, 3}  # every seat wins some game: a player, not a team, wins


# ----------------------------------------------------------------- corruption: the reference refuses
RUN = ("cutthroat", "simple", "games")


def _replay(rows=None, game_rows=None):
    rules, seed, hand_limit, hands, games = simulate(*RUN)
    hands_t = hands if rows is None else pa.Table.from_pylist(rows, schema=hands.schema)
    games_t = games if game_rows is None else pa.Table.from_pylist(game_rows, schema=games.schema)
    return ref.replay(rules, seed, "games", hand_limit, hands_t, games_t, count=COUNTS["games"])


def test_unchanged_rows_replay():
    _replay(simulate(*RUN)[3].to_pylist(), simulate(*RUN)[4].to_pylist())


@pytest.mark.parametrize("field, delta", [("score_2", 10), ("score_3", -1), ("bags_3", 1), ("total_2", 10),
                                          ("total_1", -10)])
def test_detects_a_wrong_per_seat_number(field, delta):
    rows = simulate(*RUN)[3].to_pylist()
    i = next(i for i, r in enumerate(rows) if r["hand_no"] == 3)
    rows[i][field] += delta
    with pytest.raises(ref.ReplayError, match=rf"game {rows[i]['game_id']} hand 3: {field} = "):
        _replay(rows)


def test_detects_partnership_scoring_in_a_cutthroat_run():
    """Rows scored as two teams (the team's score in both partners' columns) are refused."""
    rows = simulate(*RUN)[3].to_pylist()
    r = rows[5]
    team = ref.score_hand(PRESETS["cardems"], [r[f"bid_{s}"] for s in range(4)], [r[f"blind_{s}"] for s in range(4)],
                          [r[f"tricks_{s}"] for s in range(4)])[0]
    assert (r["score_0"], r["score_2"]) != (team[0], team[0])  # this hand tells the two scorings apart
    r["score_0"] = r["score_2"] = team[0]
    with pytest.raises(ref.ReplayError, match=r"score_0 = "):
        _replay(rows)


def test_detects_a_wrong_winner_seat():
    games = simulate(*RUN)[4].to_pylist()
    g = next(i for i, row in enumerate(games) if row["end"] == "target")
    games[g]["winner"] = (games[g]["winner"] + 2) % 4  # the partner's seat: no partner wins with the player
    with pytest.raises(ref.ReplayError, match=rf"game {g} \(games table\): winner = "):
        _replay(game_rows=games)
    games = simulate(*RUN)[4].to_pylist()
    games[g]["total_3"] += 1
    with pytest.raises(ref.ReplayError, match=rf"game {g} \(games table\): total_3 = "):
        _replay(game_rows=games)


def test_state_plays_the_runs_hands():
    """The step API, hand by hand, gives the run's per-seat scores, totals and game ends."""
    rules, seed, _, hands, games = simulate(*RUN)
    rows = [r for r in hands.to_pylist() if r["game_id"] == 2]
    st = SpadesState(rules, seed=seed, game_id=2)
    seat_policies = [parse_spec("simple")] * 4
    for row in sorted(rows, key=lambda r: r["hand_no"]):
        while not st.is_terminal():
            act = st.policy_action(seat_policies[st.current_player()])
            for a in act if isinstance(act, list) else [act]:
                st.apply(a)
        assert st.scores() == tuple(row[f"score_{s}"] for s in range(4))
        assert tuple(int(x) for x in st.totals) == tuple(row[f"total_{s}"] for s in range(4))
        nxt = st.next_hand()
        if nxt is None:
            game = games.to_pylist()[2]
            assert st.game_end() == (game["winner"], game["end"])
            assert row["hand_no"] == game["hands"] - 1
        st = nxt


# ----------------------------------------------------------------- what refuses cutthroat, in one line
def test_a_strategy_that_needs_partnerships_is_refused():
    import dataclasses

    from tricksim.simulator.errors import RunError
    from tricksim.strategies.registry import SeatStrategy, get

    assert "partnerships" in get("pimc", "spades").needs  # pimc's search scores two teams
    needy = SeatStrategy(dataclasses.replace(get("random", "spades"), needs={"partnerships": "play random"}))
    seats = (needy,) + tuple(parse_spec("random") for _ in range(3))
    with pytest.raises(RunError, match=r"strategy 'random' at seat 0 needs partnerships=true, and preset cutthroat "
                                       r"has partnerships=false: play random"):
        engine.RunConfig(rules=CUT, preset="cutthroat", seats=seats, seed=1, mode="hands", count=10)
    engine.RunConfig(rules=PRESETS["cardems"], seats=seats, seed=1, mode="hands", count=10)  # with partners: fine


@pytest.fixture(scope="module")
def cutthroat_run(tmp_path_factory):
    import tricksim

    out = tmp_path_factory.mktemp("cut") / "run"
    tricksim.simulate(preset="cutthroat", seats="random", games=6, hand_limit=5, seed=3, out=out, progress=False)
    return out


def test_teams_are_refused_for_cutthroat_and_the_studies_are_per_seat(cutthroat_run, tmp_path):
    """(``tricksim dd`` solves a cutthroat run per seat: tests/tool/test_dd_alone_command.py.)"""
    import tricksim
    from tricksim.simulator.errors import TricksimError

    with pytest.raises(TricksimError, match=r"preset cutthroat has no teams") as e:
        tricksim.simulate(preset="cutthroat", teams={0: "random"}, hands=2, out=tmp_path / "t")
    assert "\n" not in str(e.value)
    text = tricksim.summary(cutthroat_run)
    assert "seat 3 = random" in text and "(each alone)" in text
    assert all(f"seat {s} " in text.split("hand score")[1].splitlines()[0] for s in range(4))
    assert "wins" in text and "team 0 wins" not in text
    # nil and report study it per seat (their figures: tests/analysis/test_analysis_cutthroat.py)
    nil = tricksim.nil(cutthroat_run, by="seat")
    assert {f"seat {s}" for s in range(4)} <= set(nil["group"]) and (nil["seat_hands"] > 0).all()
    key = tricksim.report([cutthroat_run], tmp_path / "rep").tables["key"]
    assert "hand score, seat 3" in set(key["metric"]) and not key["metric"].str.contains("team").any()
