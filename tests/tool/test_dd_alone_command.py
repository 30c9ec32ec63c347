"""``tricksim dd`` without partnerships (issue #28): two players alone (twohanded) are solved, each seat's own
tricks and Nil in ``dd/``, which ``nil`` and ``report`` read per seat; three and four players alone are
refused in one line. The search itself is checked against exhaustive minimax in
tests/simulator/games/spades/test_dd_alone.py; here the job's wiring (the hands after the draw, the first
leader, the seats, -1 where no Nil was bid)."""
import pandas as pd
import pytest
from click.testing import CliRunner

from tricksim.cli import cli
from tricksim.simulator.games.spades.dd_alone import AloneSolver
from tricksim.simulator.games.spades.rules import build_rules

JIT = pytest.mark.needs_jit("full 13-trick searches of a few hundred hands: very slow as pure Python")


@JIT
def test_two_players_alone_each_seat_solved(tmp_path):
    run = tmp_path / "th"
    res = CliRunner().invoke(cli, ["simulate", "spades", "--preset", "twohanded", "--hands", "120", "--seed", "3",
                                   "--seat", "0=random", "--seat", "1=heuristic", "--out", str(run)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["dd", str(run)])
    assert res.exit_code == 0, res.output
    dd = pd.read_parquet(run / "dd")
    assert list(dd.columns) == ["game_id", "hand_no", "dd_tricks_0", "dd_tricks_1", "dd_nil_0", "dd_nil_1"]
    hands = pd.read_parquet(run / "hands").merge(dd, on=["game_id", "hand_no"])
    assert len(hands) == 120
    # two players: what one seat keeps from the other is the rest of the 13 tricks (two separate searches)
    assert ((hands["dd_tricks_0"] + hands["dd_tricks_1"]) == 13).all()
    for s in (0, 1):
        nil = hands[f"bid_{s}"] == 0
        assert (hands.loc[~nil, f"dd_nil_{s}"] == -1).all() and hands.loc[nil, f"dd_nil_{s}"].isin([0, 1]).all()
    assert (hands["bid_0"] == 0).sum() > 0  # random bids Nil now and then: the Nil question was asked
    # the columns are the search's answers for the hands as held after the draw, from the first leader
    solver = AloneSolver(build_rules("twohanded", ()))
    for _, h in hands.head(8).iterrows():
        held = [int(h["held_0"]), int(h["held_1"])]
        assert held[0].bit_count() == held[1].bit_count() == 13
        for s in (0, 1):
            assert solver.tricks(held, int(h["first_leader"]), s) == h[f"dd_tricks_{s}"]
    out = CliRunner().invoke(cli, ["nil", str(run)])
    assert out.exit_code == 0 and "failed but makeable" in out.output, out.output
    res = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "rep" / "summary.md").read_text()
    for s in (0, 1):
        mean = hands[f"dd_tricks_{s}"].mean()
        assert f"| tricks double dummy a hand, seat {s} (tricksim dd) | {mean:.2f} [" in text


@pytest.mark.parametrize("preset, n", [("cutthroat", 4), ("cutthroat3", 3)])
def test_three_or_four_players_alone_are_refused_in_one_line(tmp_path, preset, n):
    run = tmp_path / "r"
    seats = [x for s in range(n) for x in ("--seat", f"{s}=random")]
    res = CliRunner().invoke(cli, ["simulate", "spades", "--preset", preset, "--hands", "4", "--out", str(run), *seats])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["dd", str(run)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert f"a run of {n} players each alone" in res.output and "twohanded" in res.output
    assert not (run / "dd").exists()
