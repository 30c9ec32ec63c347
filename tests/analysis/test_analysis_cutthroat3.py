"""The per-seat studies of a three-player run (preset cutthroat3: each player alone, 17 tricks a hand, issue #28):
``tricksim nil`` and ``tricksim report`` read the rules' three seats, on a hand-built run whose every figure is
worked out by hand below (RULES.md 1.4 scored per seat: a contract made 10·bid + overtricks, set −10·bid, a Nil
±100 plus 1 a trick taken; docs/rules.md "Cutthroat for three")."""
import numpy as np
import pytest
from analysis_helpers import alone_columns, row, write_run

from tricksim.analysis.games.spades.nil import nil_study
from tricksim.analysis.games.spades.report import collect
from tricksim.analysis.report import build_report
from tricksim.simulator.games.spades.rules import PRESETS

# (game, hand): bids, tricks (17 a hand), the hand's score and the running bags after it, seat by seat
HANDS = [
    # game 0, hand 0: seat 0 Nil made +100; 6 bid 9 taken 63 (3 bags); 5/8 -> 53 (3 bags)
    (0, 0, (0, 6, 5), (0, 9, 8), (100, 63, 53), (0, 3, 3)),
    # game 0, hand 1: 5/6 -> 51 (1 bag); seat 1 Nil failed with 2 tricks -100 + 2 = -98 (2 bags: 5); 6/9 -> 63 (6)
    (0, 1, (5, 0, 6), (6, 2, 9), (51, -98, 63), (1, 5, 6)),
    # game 1, hand 0: seat 0 set, 4 bid 3 taken -40; 5/7 -> 52 (2 bags); 4/7 -> 43 (3 bags)
    (1, 0, (4, 5, 4), (3, 7, 7), (-40, 52, 43), (0, 2, 3)),
]
# final totals: game 0 (151, -35, 116), seat 0 wins; game 1 (-40, 52, 43), seat 1 wins
TOTALS = {0: (151, -35, 116), 1: (-40, 52, 43)}


def three_columns():
    return alone_columns(HANDS, TOTALS, seats=3, tricks=17, winners=[0, 1], ends=["target", "limit"])


MANIFEST = {"preset": "cutthroat3", "rules": PRESETS["cutthroat3"].to_dict(), "seats": ["heuristic", "simple", "simple"],
            "hand_limit": 2}


@pytest.fixture
def three_run(tmp_path):
    hands, games = three_columns()
    return write_run(tmp_path / "three", hands, games, manifest=MANIFEST)


def test_the_manifest_is_of_three_players():
    assert MANIFEST["rules"]["seats"] == 3 and MANIFEST["rules"]["partnerships"] is False


def test_nil_per_seat_reads_three_seats(three_run):
    df = nil_study(three_run, by="seat")
    s0, s1, s2 = (row(df, "Nil", f"seat {s}") for s in range(3))
    assert (s0.seat_hands, s0.bids, s0.successes) == (3, 1, 1)
    assert (s1.seat_hands, s1.bids, s1.successes) == (3, 1, 0)
    assert (s2.seat_hands, s2.bids) == (3, 0)
    assert not (df["group"] == "seat 3").any()
    every = row(nil_study(three_run), "Nil", "all")
    assert (every.seat_hands, every.bids, every.successes, every.games) == (9, 2, 1, 2)


def test_nil_by_position_at_a_table_of_three(three_run):
    # position = (seat − dealer − 1) mod 3: the dealer (hand_no mod 3) bids third. Seat 0's Nil (dealer 0) and
    # seat 1's (dealer 1) were both the dealer's
    df = nil_study(three_run, by="position")
    assert list(df[df["kind"] == "Nil"]["group"]) == ["1st", "2nd", "3rd (dealer)"]
    dealer = row(df, "Nil", "3rd (dealer)")
    assert (dealer.seat_hands, dealer.bids, dealer.successes) == (3, 2, 1)
    assert (row(df, "Nil", "1st").bids, row(df, "Nil", "2nd").bids) == (0, 0)


def test_nil_of_independent_hands_clusters_the_three_seats(tmp_path):
    hands, _ = three_columns()
    hands["game_id"] = np.arange(3)
    run = write_run(tmp_path / "h3", hands, manifest={**MANIFEST, "mode": "hands"})
    df = nil_study(run)
    assert row(df, "Nil", "all").seat_hands == 9
    assert df.attrs["method"] == "95 % Wilson intervals clustered by hand (its three seats together)"


def test_report_per_seat_figures_worked_by_hand(three_run):
    st = collect(three_run, batch_rows=2)
    assert (st.sides, st.n_hands, st.n_games) == (3, 3, 2)
    # hand scores: seat 0 (100 + 51 − 40)/3 = 37, seat 1 (63 − 98 + 52)/3 = 17/3, seat 2 (53 + 63 + 43)/3 = 53
    assert [st.score[s].estimate().value for s in range(3)] == pytest.approx([37, 17 / 3, 53])
    # contracts (a Nil hand has none): seat 0 made 1 of 2 (set in game 1), seats 1 and 2 made all theirs
    assert [(st.made[s].k, st.made[s].n) for s in range(3)] == [(1, 2), (2, 2), (3, 3)]
    # bags taken: overtricks and the failed Nil's 2 tricks
    assert [st.bags_hand[s].k for s in range(3)] == [1, 7, 9]
    assert [st.bags_game[s].mean for s in range(3)] == pytest.approx([0.5, 3.5, 4.5])
    assert all(st.penalties_game[s].mean == 0 for s in range(3)) and st.approximate_bag_games == 0
    # Nil: 2 bids in 9 seat-hands (three a hand), 1 made
    assert (st.seat_hands, st.nil_bid[0].k, st.nil_bid[0].n, st.nil_ok[0].k, st.nil_ok[0].n) == (9, 2, 9, 1, 2)
    # seat 0 won game 0, seat 1 game 1; seat 0's final lead over the best other: 151 − 116 = 35, −40 − 52 = −92
    assert st.wins[:3] == [1, 1, 0] and st.ties == 0
    assert st.margin.mean == pytest.approx(-57 / 2) and st.length.mean == pytest.approx(3 / 2)
    assert [st.totals[s].mean for s in range(3)] == pytest.approx([55.5, 8.5, 79.5])
    assert st.ends == {"target": 1, "limit": 1}
    # seat 0's lead after game 0's first hand (not the deciding one): 100 − 63 = 37, and it won that game
    curve = st.win_curve().set_index("label")
    assert (curve.loc["0 to 49", "n"], curve.loc["0 to 49", "wins"]) == (1, 1) and curve["n"].sum() == 1


def test_the_report_page_names_three_seats(three_run, tmp_path):
    res = build_report([three_run], tmp_path / "out")
    key = res.tables["key"].set_index("metric")
    for s in range(3):
        assert f"hand score, seat {s}" in key.index and f"seat {s} wins" in key.index
    assert "hand score, seat 3" not in key.index and not any("team" in m for m in key.index)
    assert key.loc["seat 1 wins", "three"].startswith("50.0 %") and "(n=2)" in key.loc["seat 1 wins", "three"]
    assert key.loc["Nil bid rate (per seat-hand)", "three"].startswith("22.2 %")  # 2 of 9
    md = res.markdown.read_text(encoding="utf-8")
    assert "| seat 0 = heuristic; seat 1 = simple; seat 2 = simple |" in md
    assert "In a cutthroat run the lead is seat 0's over the best of the two others." in md


def test_compare_plays_a_rotation_over_the_three_seats(tmp_path):
    """``tricksim compare`` of a preset without partnerships: the first strategy alone in each of the table's
    seats in turn against the second, and a field of the second, on the same deals (kept under ``out``)."""
    import tricksim
    from tricksim.analysis.games.spades.cutthroat import rotation_figures

    lines = []
    res = tricksim.compare("heuristic", "random", preset="cutthroat3", games=4, hand_limit=3, seed=2,
                           out=tmp_path, echo=lines.append)
    rot = res[("heuristic", "random")]
    assert (rot.n_seats, rot.n_deals) == (3, 4)
    runs = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert runs == ["rotation0-field", "rotation0-seat0", "rotation0-seat1", "rotation0-seat2"]
    again = rotation_figures(tmp_path / "rotation0-field", [tmp_path / f"rotation0-seat{k}" for k in range(3)])
    assert again.figures == rot.figures
    # 4 deals from each of the 3 seats: 12 seat-games, an equal player's share a third
    assert rot.figures["strong_win"].n == 12 and rot.figures["strong_all"].n == 4
    text = "\n".join(lines)
    assert "Rotation: heuristic alone in each of the three seats against two random (4 deals" in text
    assert "33.3 % = no edge" in text and "(n=12" in text


def test_compare_at_two_seats_plays_the_duplicate_pair_without_a_field(tmp_path):
    """Two players (twohanded): the two seat tables, the seats swapped on the same deals, are the duplicate pair;
    ``compare`` plays no field table (as the atlas and ``sweep``), and each seat's points a hand are compared with
    the same seat of the other table."""
    import tricksim
    from tricksim.analysis.games.spades.cutthroat import rotation_figures

    lines = []
    res = tricksim.compare("heuristic", "random", preset="twohanded", games=4, hand_limit=3, seed=2,
                           out=tmp_path, echo=lines.append)
    rot = res[("heuristic", "random")]
    assert (rot.n_seats, rot.n_deals, rot.with_field) == (2, 4, False)
    runs = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert runs == ["rotation0-seat0", "rotation0-seat1"]
    again = rotation_figures(None, [tmp_path / f"rotation0-seat{k}" for k in range(2)])
    assert again.figures == rot.figures
    assert rot.figures["strong_win"].n == 8 and rot.figures["strong_all"].n == 4
    text = "\n".join(lines)
    assert "each played on 2 tables (a duplicate pair" in text
    assert "(4 deals, each played on 2 tables, the seats swapped: a duplicate pair;" in text
    assert "50 % = no edge" in text and "field" not in text
