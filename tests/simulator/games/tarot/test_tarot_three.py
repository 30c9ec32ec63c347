"""Tarot for three (the FFT's game, preset ``fft3``: docs/rules.md) on the engine whose seat count is data (#27).

These tests run the engine with a rules record whose ``seats`` is 3 (``Three`` below, the ``fft3`` preset) through
the batch kernel and the step API, replay the runs through the plain-Python reference (tests/reference_tarot.py,
written from the rules text), score a chosen deal worked by hand, and check the deal against an exact law.
"""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest
import reference_tarot as ref
from tarot_runs import announce_triple_poignee, run_deals, seat0_oudlers_law

from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, PETIT, cards_in
from tricksim.simulator.games.tarot.rules import TarotRules
from tricksim.simulator.games.tarot.state import TarotState
from tricksim.strategies.registry import parse_spec


def Three() -> TarotRules:
    """The Cardavia flags with three players: the fft3 preset."""
    return TarotRules(seats=3)


def run3(strategy: str, n: int, seed: int = 7, record_plays: bool = True):
    return run_deals(Three(), strategy, n, seed, record_plays)


def test_the_deals_table_has_three_seats_and_zero_sum_scores():
    t = run3("random", 300)
    names = t.column_names
    for s in range(3):
        assert {f"dealt_lo_{s}", f"bid_{s}", f"score_{s}", f"strategy_{s}", f"poignee_lo_{s}"} <= set(names)
    assert not [c for c in names if c.endswith("_3")]
    rows = t.to_pylist()
    for row in rows:
        assert sum(row[f"score_{s}"] for s in range(3)) == 0
        assert row["dealer"] == row["deal_id"] % 3
        hands = [cards_in(row[f"dealt_lo_{s}"], row[f"dealt_hi_{s}"]) for s in range(3)]
        assert [len(h) for h in hands] == [24, 24, 24]
        assert len(cards_in(row["chien_lo"], row["chien_hi"])) == 6
        if row["void"] == 0:
            assert len(row["plays"]) == 72
            taker = row["taker"]
            assert row[f"score_{taker}"] == -2 * row[f"score_{(taker + 1) % 3}"]
    assert sum(r["void"] == 0 for r in rows) > 100


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_three_player_runs_replay_through_the_reference(strategy):
    t = run3(strategy, 400, seed=11)
    stats = ref.replay_table(t, {"seats": 3}, plays_required=True)
    assert stats["played"] > 100
    assert stats["poignee"] > 0  # 13 trumps of 24 cards: common enough in 400 deals


def test_the_reference_catches_a_four_player_score_on_a_three_player_deal():
    row = next(r for r in run3("random", 50).to_pylist() if r["void"] == 0)
    taker = row["taker"]
    bad = dict(row)
    bad[f"score_{taker}"] = row[f"score_{taker}"] // 2 * 3  # 3t, the four-player taker's share
    ref.replay_deal(row, {"seats": 3})
    with pytest.raises(ref.ReferenceMismatch, match=f"score_{taker}"):
        ref.replay_deal(bad, {"seats": 3})


def test_the_number_of_oudlers_in_a_hand_follows_the_hypergeometric_law():
    """Seat 0's 24 cards of the 78 hold k of the 3 oudlers with P(k) = C(3,k) C(75,24-k) / C(78,24):
    by hand P(0) = 54*53*52 / (78*77*76) = 0.3260, P(3) = 24*23*22 / (78*77*76) = 0.0266."""
    n = 20_000
    t = run3("random", n, seed=3, record_plays=False)
    exact, chi2 = seat0_oudlers_law(t, 24)
    assert abs(exact[0] - 54 * 53 * 52 / (78 * 77 * 76)) < 1e-12 and abs(exact[3] - 24 * 23 * 22 / (78 * 77 * 76)) < 1e-12
    assert chi2 < 16.27  # the 0.1% point of chi-square with 3 degrees of freedom


def chosen_deck():
    """Seat 0: the 21 trumps, the Excuse, K♣ and K♦ (24 cards); seats 1 and 2 and the chien: the other suit cards
    in order (24, 24 and the last 6)."""
    k_clubs, k_diamonds = 13, 14 + 13
    seat0 = list(range(FIRST_TRUMP, 78)) + [k_clubs, k_diamonds]
    rest = [c for c in range(FIRST_TRUMP) if c not in (k_clubs, k_diamonds)]
    return seat0 + rest


def test_a_chosen_three_player_deal_scored_by_hand():
    """Deal 2 (dealer 2: seat 0 speaks and leads first). Seat 0 bids Garde sans, the others pass; no Chelem
    announced; seat 0 shows a triple poignée (18 trumps for three players, worth 40). It leads T21 down to T2
    (20 tricks), K♣, K♦, the Petit (trick 22) and the Excuse (trick 23): no other seat holds a trump, so it wins
    every trick, and the Excuse led to the last trick by a side that won all the others wins it.

    By hand (RULES.md 2.8, docs/rules.md): the taker has every card, the chien too (Garde sans): 91 points;
    3 oudlers: target 36; 91 - 36 = 55; base (25 + 55) x 4 = 320; petit au bout judged on trick 22 (the last
    trick was won by the Excuse), won by the taker: +10 x 4 = 40; the triple poignée +40 to the winning side;
    an unannounced slam +200. t = 320 + 40 + 40 + 200 = 600: each defender -600, the taker 2 x 600 = 1200."""
    st = TarotState(Three(), seed=0, deal_id=2, deck=chosen_deck())
    assert st.dealer == 2 and st.current_player() == 0
    assert [int(st.observation(s).suits).bit_count() + int(st.observation(s).trumps).bit_count()
            for s in range(3)] == [24, 24, 24]
    st.apply(ref.GARDE_SANS + 78)
    st.apply(78)
    st.apply(78)
    assert (st.taker, st.contract) == (0, 3)
    assert announce_triple_poignee(st) == 18
    leads = [FIRST_TRUMP + n for n in range(20, 0, -1)] + [13, 27, PETIT, EXCUSE]
    for lead in leads:
        assert st.current_player() == 0
        st.apply(lead)
        for _ in range(2):
            st.apply(st.legal_actions()[0])
    assert st.is_terminal()
    assert list(st.trick_winner) == [0] * 24
    assert (st.taker_half, st.oudlers, st.target, st.won, st.petit_au_bout, st.slam) == (182, 3, 36, 1, 1, 1)
    assert st.poignee() == 40
    assert st.scores() == (1200, -600, -600)


def test_seats_is_the_rules_own_not_a_flag():
    from tricksim.simulator.errors import RulesError
    from tricksim.simulator.games.tarot.rules import build_rules

    assert "seats" not in TarotRules.flag_names()
    assert TarotRules().to_dict() == build_rules("cardavia").to_dict() and "seats" not in TarotRules().to_dict()
    assert Three().to_dict()["seats"] == 3 and TarotRules.from_dict(Three().to_dict()) == Three()
    assert Three().to_kernel().seats == 3 and TarotRules().to_kernel().seats == 4
    with pytest.raises(RulesError, match="unknown rule flag 'seats'"):
        build_rules("cardavia", ["seats=3"])
    with pytest.raises(RulesError, match="seats=6"):
        TarotRules(seats=6)


def test_a_three_player_run_through_the_engine(tmp_path):
    """The engine takes the seat count from the rules: three strategies for three seats (four refused), a run
    directory whose deals table has the three-seat columns, and a manifest whose rules say seats 3."""
    import json

    import pyarrow.parquet as pq

    from tricksim.simulator.engine import RunConfig, run
    from tricksim.simulator.errors import RunError

    spec = parse_spec("heuristic", "tarot")
    with pytest.raises(RunError, match="need 3 seat strategies, got 4"):
        RunConfig(game="tarot", rules=Three(), seats=(spec,) * 4, mode="deals", count=10)
    cfg = RunConfig(game="tarot", rules=Three(), seats=(spec,) * 3, mode="deals", count=300, seed=5,
                    record_plays=True, shard_size=128)
    run(cfg, tmp_path / "r", overwrite=True, threads=2, progress=False)
    table = pq.read_table(tmp_path / "r" / "deals")
    assert table.num_rows == 300 and "score_2" in table.column_names and "score_3" not in table.column_names
    ref.replay_table(table, Three(), plays_required=True)
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["rules"]["seats"] == 3 and len(manifest["seats"]) == 3


def test_the_summary_of_a_three_player_run(tmp_path):
    """The analysis reads the run's seat count from its manifest: three seats, the taker's score over the played
    deals worked out here from the table (score of the taker's seat), no seat 3."""
    import pyarrow.parquet as pq

    from tricksim.analysis.games.tarot.summary import summarize, tarot_numbers
    from tricksim.analysis.io import open_run
    from tricksim.simulator.engine import RunConfig, run

    spec = parse_spec("random", "tarot")
    cfg = RunConfig(game="tarot", rules=Three(), seats=(spec,) * 3, mode="deals", count=400, seed=9)
    run(cfg, tmp_path / "r", overwrite=True, threads=1, progress=False)
    info = open_run(tmp_path / "r")
    assert info.n_seats == 3 and info.seats == [spec.spec] * 3
    rows = [r for r in pq.read_table(tmp_path / "r" / "deals").to_pylist() if r["void"] == 0]
    taker_scores = [r[f"score_{r['taker']}"] for r in rows]
    numbers = tarot_numbers(tmp_path / "r")
    assert numbers["played"] == len(rows) and numbers["taker_score"].n == len(rows)
    assert numbers["taker_score"].s1 == sum(taker_scores)
    assert info.seat_labels == ["random"] * 3
    text = summarize(tmp_path / "r")
    assert f"(n={len(rows)})" in text and "seats=3" in text.splitlines()[0]  # no preset yet: "custom + seats=3"


def test_the_api_asks_as_many_strategies_as_the_preset_has_seats(monkeypatch):
    """Seat strategies follow the preset's seat count (a three-seat preset stood in here: none is offered yet)."""
    from tricksim import api
    from tricksim.simulator.errors import TricksimError
    from tricksim.simulator.games.tarot import rules as tarot_rules

    assert len(api.seat_strategies("tarot")) == 4
    monkeypatch.setitem(tarot_rules.PRESETS, "three_test", Three())
    assert len(api.seat_strategies("tarot", preset="three_test")) == 3
    with pytest.raises(TricksimError, match="4 strategies given for 3 seats"):
        api.seat_strategies("tarot", ["random"] * 4, preset="three_test")
    cfg = api.plan("tarot", preset="three_test", deals=10, seats={2: "random"})
    assert cfg.rules.seats == 3 and [s.strategy.name for s in cfg.seats] == ["heuristic", "heuristic", "random"]


@pytest.fixture
def three_preset(monkeypatch):
    """A three-seat preset standing in for fft3 (not offered yet)."""
    from tricksim.simulator.games.tarot import rules as tarot_rules

    monkeypatch.setitem(tarot_rules.PRESETS, "three_test", Three())
    return "three_test"


def test_bidding_what_if_report_and_rotations_of_three_player_runs(tmp_path, three_preset):
    """The analyses and jobs over a three-player run: the bidding table covers every played deal once, the
    report's taker scores are those of the table, the forced-contract what-if and the duplicate rotations play
    three seats."""
    import pyarrow.parquet as pq

    from tricksim import api
    from tricksim.analysis.games.tarot.bidding import bidding_table
    from tricksim.analysis.games.tarot.report import collect_tarot
    from tricksim.analysis.io import open_run
    from tricksim.jobs.tarot.rotation import rotations
    from tricksim.jobs.tarot.whatif import contract_what_if

    cfg = api.plan("tarot", preset=three_preset, deals=300, seed=4, seats="random")
    api.execute(cfg, tmp_path / "r", progress=False)
    rows = [r for r in pq.read_table(tmp_path / "r" / "deals").to_pylist() if r["void"] == 0]
    table = bidding_table([tmp_path / "r"], by="oudlers")
    assert sum(r["n"] for r in table) == len(rows)
    assert sum(r["taker_score"].s1 for r in table) == sum(r[f"score_{r['taker']}"] for r in rows)
    stats = collect_tarot(open_run(tmp_path / "r"), "r")
    hist_total = sum(int(h.counts.sum()) + h.under + h.over for h in stats.score_hist.values())
    assert hist_total == len(rows)
    text = contract_what_if(tmp_path / "r", 30, seed=1)
    assert "garde" in text.lower()
    lines = []
    results = rotations("random", "heuristic", deals=120, preset=three_preset, out=tmp_path / "cmp",
                        echo=lines.append)
    assert sorted((tmp_path / "cmp").iterdir()) == sorted(
        tmp_path / "cmp" / f"{tag}-{where}" for tag in ("ab", "ba") for where in ("field", "seat0", "seat1", "seat2"))
    assert results["a_in_b"][0].n == 120 and "all three seats" in lines[-1]


def test_fft3_from_the_command_line(tmp_path):
    """The fft3 preset end to end: simulate, summary, rules, report; a fourth seat or a seat count override is a
    one-line error (exit 2)."""
    from click.testing import CliRunner

    from tricksim.cli import cli
    from tricksim.simulator.games.tarot.rules import PRESETS

    assert PRESETS["fft3"] == Three()

    def invoke(*args):
        return CliRunner().invoke(cli, [str(a) for a in args])

    r = invoke("simulate", "tarot", "--preset", "fft3", "--deals", 200, "--seat", "1=random", "--record-plays",
               "--out", tmp_path / "t", "--quiet")
    assert r.exit_code == 0, r.output
    table = pq.read_table(tmp_path / "t" / "deals")
    assert [c for c in table.column_names if c.startswith("score_")] == ["score_0", "score_1", "score_2"]
    assert table.column("strategy_1").to_pylist()[0].startswith("random")
    ref.replay_table(table, PRESETS["fft3"], plays_required=True)
    r = invoke("summary", tmp_path / "t")
    assert r.exit_code == 0 and "tarot, preset fft3, seed 0" in r.stdout.splitlines()[0], r.output
    r = invoke("report", tmp_path / "t", "--out", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    for args, fragment in ((("--seat", "3=random"), "seat 3 does not exist: seats are 0 to 2"),
                           (("--rule", "seats=4"), "unknown rule flag 'seats'")):
        r = invoke("simulate", "tarot", "--preset", "fft3", "--deals", 10, *args, "--out", tmp_path / "x", "--quiet")
        assert r.exit_code == 2 and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1, r.output
        assert fragment in r.stderr
