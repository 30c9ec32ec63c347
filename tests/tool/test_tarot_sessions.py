"""The Tarot whole-games studies (analysis/games/tarot/sessions.py, ``tricksim sessions``, the summary and the
report of a games run), each figure recomputed here in plain Python from the run's tables."""
import math
from collections import Counter

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import tricksim
from tricksim.analysis.games.tarot.sessions import leader_table, session_numbers
from tricksim.analysis.stats import proportion
from tricksim.cli import cli


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("tg") / "run"
    tricksim.simulate("tarot", games=60, seed=4, out=out, shard_size=16, threads=1,
                      seats={0: "random:chelem_prob=0.0"})
    return out


@pytest.fixture(scope="module")
def target_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("tg") / "target"
    tricksim.simulate("tarot", preset="fft3", games=40, seed=5, out=out, shard_size=12, threads=1,
                      rules=["game_target=300", "game_floor=-400"])
    return out


def _plain(run_dir):
    """Per game: the winner, and the sole leader after each deal (None on a tie at the top), from the deals."""
    deals = pq.read_table(run_dir / "deals").to_pylist()
    games = {g["game_id"]: g for g in pq.read_table(run_dir / "games").to_pylist()}
    seats = sum(1 for k in games[0] if k.startswith("total_"))
    leaders = {}
    for d in deals:
        t = [d[f"total_{s}"] for s in range(seats)]
        top = [s for s in range(seats) if t[s] == max(t)]
        leaders.setdefault(d["game_id"], []).append(top[0] if len(top) == 1 else None)
    return games, leaders, seats


@pytest.mark.parametrize("which", ["games_run", "target_run"])
def test_leader_after_k_deals_recomputed(which, request):
    run_dir = request.getfixturevalue(which)
    games, leaders, _ = _plain(run_dir)
    want = {}
    for g, lead in leaders.items():
        for k, seat in enumerate(lead, start=1):
            n, won, all_ = want.get(k, (0, 0, 0))
            want[k] = (n + (seat is not None), won + (seat is not None and seat == games[g]["winner"]), all_ + 1)
    got = {x["after_deals"]: x for x in leader_table(session_numbers(run_dir))}
    assert set(got) == set(want)
    for k, (n, won, all_) in want.items():
        x = got[k]
        assert (x["one_leader"], x["leader_won"], x["games"], x["tied"]) == (n, won, all_, all_ - n)
        e = proportion(won, n)
        assert (x["rate"], x["lo"], x["hi"]) == pytest.approx((e.value, e.lo, e.hi), nan_ok=True)
    last = max(want)
    if which == "games_run":  # every game has 16 deals: the leader after the last deal is the winner
        assert last == 16 and got[16]["leader_won"] == got[16]["one_leader"]


def test_winners_margins_and_shares_recomputed(games_run):
    games, _, seats = _plain(games_run)
    r = session_numbers(games_run)
    wins = Counter(g["winner"] for g in games.values())
    assert [int(x) for x in r["wins"]] == [wins.get(s, 0) for s in range(seats)]
    assert r["ties"] == wins.get(-1, 0) and r["games"] == 60
    margins = [g["margin"] for g in games.values()]
    assert r["margin"].mean == pytest.approx(sum(margins) / len(margins))
    # the heuristic's share pools seats 1..3: its outright wins over its 180 seat-games, clustered by game
    h = r["by_strategy"]["heuristic"].rate()
    assert (h.k, h.n, h.clusters) == (sum(wins.get(s, 0) for s in (1, 2, 3)), 180, 60)


def test_the_summary_is_clustered_by_game(games_run):
    text = tricksim.summary(games_run)
    deals = pq.read_table(games_run / "deals")
    assert "tarot, games mode" in text and "95 % intervals clustered by game" in text
    assert f"{deals.num_rows:,} deals, 60 games" in text
    # the all-pass rate with the game as the unit: its interval is that of a ClusterRatio over the 60 games
    from tricksim.analysis.stats import ClusterRatio
    c = ClusterRatio().update(deals.column("game_id").to_numpy(), (deals.column("void").to_numpy() == 1))
    e = c.rate()
    assert f"all passed {e.value * 100:.1f} % [{e.lo * 100:.1f}, {e.hi * 100:.1f}] (n={deals.num_rows:,})" in text
    assert "game winner" in text and "leader wins" in text


def test_sessions_command_and_api(games_run, target_run, tmp_path):
    r = CliRunner().invoke(cli, ["sessions", str(games_run), str(target_run)])
    assert r.exit_code == 0, r.output
    assert r.output.count("how often the leader after k deals wins the game") == 2
    rows = tricksim.sessions([games_run, target_run])
    assert [x["games"] for x in rows] == [60, 40] and rows[0]["text"] in r.output
    assert math.isclose(sum(rows[1]["seat_wins"]) + rows[1]["ties"], 40)
    deals_run = tmp_path / "deals"
    tricksim.simulate("tarot", deals=20, out=deals_run)
    r = CliRunner().invoke(cli, ["sessions", str(deals_run)])
    assert r.exit_code == 2 and "not a tarot games run" in r.stderr


def test_the_report_has_the_whole_games_tables(games_run, target_run, tmp_path):
    res = tricksim.report([games_run, target_run], tmp_path / "rep")
    assert {"tarot", "tarot_sessions", "tarot_leader"} <= set(res.tables)
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "## Tarot whole games" in md and "intervals clustered by game" in md
    assert (tmp_path / "rep" / "tarot_game_margin.png").stat().st_size > 0
