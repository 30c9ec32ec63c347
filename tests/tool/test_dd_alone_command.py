"""``tricksim dd`` without partnerships (issue #28): two players alone (twohanded), three (cutthroat3) and four
(cutthroat) are solved, each seat's own tricks and Nil in ``dd/``, which ``nil`` and ``report`` read per seat.
The searches themselves are checked against exhaustive minimax in tests/simulator/games/spades/test_dd_alone.py;
here the job's wiring (the hands after the draw, the first leader, the seats, -1 where no Nil was bid) and the
run folder's rules for the dd files."""
import pandas as pd
import pytest
from click.testing import CliRunner

from tricksim.cli import cli
from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.dd_alone import AloneSolver
from tricksim.simulator.games.spades.rules import build_rules

JIT = pytest.mark.needs_jit("full 13-trick searches of a few hundred hands: very slow as pure Python")
CT_HANDS, CT_SEED = 4, 1  # a cutthroat run whose hands the search solves in seconds
C3_HANDS, C3_SEED = 6, 4  # a cutthroat3 run with a Nil bid, solved in about 30 s of CPU (one hand 19 s)


def _solved_alone(run, preset, n_hands, seed, seats, *extra):
    """Simulate a run of seats alone, solve it with ``tricksim dd`` on two threads, check the dd columns' names and
    return the hands merged with them."""
    seat_args = [x for s, spec in enumerate(seats) for x in ("--seat", f"{s}={spec}")]
    res = CliRunner().invoke(cli, ["simulate", "spades", "--preset", preset, "--hands", str(n_hands), "--seed",
                                   str(seed), *extra, *seat_args, "--out", str(run), "--quiet"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["dd", str(run), "--threads", "2"])
    assert res.exit_code == 0, res.output
    dd_cols = pd.read_parquet(run / "dd")
    n = len(seats)
    assert list(dd_cols.columns) == (["game_id", "hand_no"] + [f"dd_tricks_{s}" for s in range(n)]
                                     + [f"dd_nil_{s}" for s in range(n)])
    hands = pd.read_parquet(run / "hands").merge(dd_cols, on=["game_id", "hand_no"])
    assert len(hands) == n_hands
    return hands


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


def _top_spades(hand: int, others: int) -> int:
    """Spades of ``hand`` above every spade of ``others``: each wins the trick it is played to (a spade beats any
    other suit, and only a higher spade beats it), so the seat holding them takes that many tricks at least."""
    theirs = others >> 39 & 0x7FFF  # the spades (cards 39..51) and the jokers above them (52, 53), low to high
    mine = hand >> 39 & 0x7FFF
    return (mine >> theirs.bit_length()).bit_count()


@pytest.mark.needs_jit("full 17-trick searches of three seats alone: seconds each compiled, hours as pure Python")
def test_three_players_alone_each_seat_solved(tmp_path):
    """A small cutthroat3 run (17 cards, three-card tricks): each seat's tricks alone and its Nil, as
    ``dd.alone_tricks`` / ``alone_nil`` give them for the three hands as held from the first leader; bounds that
    hold whatever the search: the three seats' tricks alone add up to 17 at most (each seat's own best line
    guarantees it its figure, and a deal has 17 tricks); each seat takes at least its spades above every other
    spade, and at most 17 less those of either other seat (the card wins its trick whoever plays it); a seat
    holding such a spade cannot keep a Nil."""
    run = tmp_path / "c3"
    hands = _solved_alone(run, "cutthroat3", C3_HANDS, C3_SEED, ("random", "heuristic", "random"))
    rules = build_rules("cutthroat3", ())
    solver = dd.Solver(tt_bits=18)
    nil_bids = 0
    for _, h in hands.iterrows():
        held = [int(h[f"held_{s}"]) for s in range(3)]
        assert [x.bit_count() for x in held] == [17, 17, 17]
        leader = int(h["first_leader"])
        alone = [int(h[f"dd_tricks_{s}"]) for s in range(3)]
        assert sum(alone) <= 17
        for s in range(3):
            others = [held[q] for q in range(3) if q != s]
            top = _top_spades(held[s], others[0] | others[1])
            assert top <= alone[s] <= 17 - max(_top_spades(o, held[s] | p) for o, p in (others, others[::-1]))
            assert alone[s] == dd.alone_tricks(held, leader, s, rules=rules, solver=solver)
            if h[f"bid_{s}"] == 0:
                nil_bids += 1
                nil = int(dd.alone_nil(held, leader, s, rules=rules, solver=solver))
                assert h[f"dd_nil_{s}"] == nil and not (nil and top)
            else:
                assert h[f"dd_nil_{s}"] == -1
    assert nil_bids > 0  # random bids Nil now and then: the Nil question was asked
    assert CliRunner().invoke(cli, ["verify", str(run)]).exit_code == 0


@pytest.mark.needs_jit("full 13-trick searches of four seats alone: seconds each compiled, hours as pure Python")
def test_four_players_alone_each_seat_solved(tmp_path):
    """A small cutthroat run: each seat's tricks alone and its Nil, as ``dd.alone_tricks`` / ``alone_nil`` give
    them for the hands as held from the first leader; bounds that hold whatever the search: the four seats'
    tricks alone add up to 13 at most (each seat playing its own best line guarantees it its figure, and
    one deal has 13 tricks), and seats 0 and 2 alone take no more than together as a team (``dd.dd_tricks``:
    playing their lines alone is one way for the team to play), nor seats 1 and 3 more than the rest. The
    files carry the run's id, and a lost one is solved again by a rerun."""
    run = tmp_path / "ct"
    hands = _solved_alone(run, "cutthroat", CT_HANDS, CT_SEED, ("random", "heuristic", "heuristic", "heuristic"),
                          "--shard-size", "2")
    rules = build_rules("cutthroat", ())
    solver = dd.Solver(tt_bits=18)
    nil_bids = 0
    for _, h in hands.iterrows():
        held = [int(h[f"held_{s}"]) for s in range(4)]
        leader = int(h["first_leader"])
        alone = [int(h[f"dd_tricks_{s}"]) for s in range(4)]
        assert sum(alone) <= 13
        team0 = dd.dd_tricks(held, leader, rules=rules, solver=solver)
        assert alone[0] + alone[2] <= team0 and alone[1] + alone[3] <= 13 - team0
        for s in range(4):
            assert alone[s] == dd.alone_tricks(held, leader, s, rules=rules, solver=solver)
            if h[f"bid_{s}"] == 0:
                nil_bids += 1
                assert h[f"dd_nil_{s}"] == int(dd.alone_nil(held, leader, s, rules=rules, solver=solver))
            else:
                assert h[f"dd_nil_{s}"] == -1
    assert nil_bids > 0  # the heuristic bids Nil now and then: the Nil question was asked
    # a lost file: a rerun solves its hands again, the same columns; the files are the run's (verify)
    dd_cols = pd.read_parquet(run / "dd")  # as the first solve wrote it
    first = min((run / "dd").iterdir())
    first.unlink()
    res = CliRunner().invoke(cli, ["dd", str(run)])
    assert res.exit_code == 0 and "(2 solved now" in res.output, res.output
    assert pd.read_parquet(run / "dd").equals(dd_cols)
    assert CliRunner().invoke(cli, ["verify", str(run)]).exit_code == 0
    out = CliRunner().invoke(cli, ["nil", str(run)])
    assert out.exit_code == 0, out.output
