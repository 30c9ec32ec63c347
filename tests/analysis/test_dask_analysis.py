"""The analysis commands on Dask (issue #17): nil, report and compare read the shards on the workers, a few
files a task, and give exactly the local figures; the partial figures merge into the whole."""
import numpy as np
import pytest
from click.testing import CliRunner

from tricksim.cli import cli
from tricksim.simulator.engine import RunConfig, run
from tricksim.simulator.games.spades.rules import build_rules as spades_rules
from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
from tricksim.strategies.registry import parse_spec

pytest.importorskip("distributed")
JIT = pytest.mark.needs_jit("Dask worker processes run the kernels: minutes each as pure Python")
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Small runs of several shards each (so a task gets some of them, and the parts must be merged)."""
    base = tmp_path_factory.mktemp("runs")
    cfgs = {
        "hands": RunConfig(rules=spades_rules("classic"), seats=(parse_spec("heuristic"), parse_spec("random")) * 2,
                           seed=5, mode="hands", count=9000, shard_size=800),
        "games": RunConfig(rules=spades_rules("cardems"), seats=(parse_spec("heuristic"),) * 4, seed=5, mode="games",
                           count=400, shard_size=45),
        "tarot": RunConfig(game="tarot", rules=tarot_rules("cardavia"),
                           seats=(parse_spec("heuristic", game="tarot"),) * 4, seed=5, mode="deals", count=5000,
                           shard_size=600),
    }
    for name, cfg in cfgs.items():
        run(cfg, base / name, progress=False)
    return {name: base / name for name in cfgs}


@JIT
@pytest.mark.parametrize("by", [None, "spades", "position", "score", "strategy", "run"])
def test_nil_on_dask_is_the_local_table(cluster, runs, by):
    from tricksim.analysis.games.spades.nil import nil_study

    pooled = [runs["hands"], runs["games"]]
    local = nil_study(pooled, by)
    dask = nil_study(pooled, by, engine="dask", scheduler=cluster.scheduler_address)
    assert len(local) > 0 and local["bids"].sum() > 0
    assert dask.equals(local)


@JIT
def test_the_report_on_dask_is_the_local_one(cluster, runs, tmp_path):
    from tricksim.analysis.report import build_report

    every = [runs["hands"], runs["games"], runs["tarot"]]
    local = build_report(every, tmp_path / "local")
    dask = build_report(every, tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address)
    assert set(local.tables) == set(dask.tables) >= {"runs", "key", "tarot", "win_prob"}
    for name in local.tables:
        assert dask.tables[name].equals(local.tables[name]), name
    assert (tmp_path / "dask" / "summary.md").read_text() == (tmp_path / "local" / "summary.md").read_text()
    games = [s for s in dask.stats if getattr(s, "is_games", False)][0]
    assert games.n_games == 400 and games.hands_counted == games.hand_rows == games.n_hands


@JIT
def test_compare_on_dask_is_the_local_match(cluster, tmp_path):
    from tricksim.jobs.spades.compare import duplicate_matches
    from tricksim.jobs.tarot.rotation import rotations

    kw = dict(games=120, preset="zone", seed=3, hand_limit=200, echo=lambda _: None)
    local = duplicate_matches(["heuristic", "simple"], out=tmp_path / "local", **kw)
    dask = duplicate_matches(["heuristic", "simple"], out=tmp_path / "dask", engine="dask",
                             scheduler=cluster.scheduler_address, **kw)
    (key,) = local
    assert str(dask[key]) == str(local[key]) and local[key].n_pairs == 120
    kw = dict(deals=600, seed=3, echo=lambda _: None)
    local = rotations("heuristic", "random", out=tmp_path / "t-local", **kw)
    dask = rotations("heuristic", "random", out=tmp_path / "t-dask", engine="dask",
                     scheduler=cluster.scheduler_address, **kw)
    for key in local:
        assert np.array_equal(dask[key][1], local[key][1]) and dask[key][0] == local[key][0]


def test_partial_histograms_and_per_game_sums_merge_into_the_whole():
    from tricksim.analysis.games.spades.outcomes import PerGame
    from tricksim.analysis.parallel import merge
    from tricksim.analysis.plots import IntHist

    values = np.array([-3, 0, 0, 2, 7, 9, 12])
    whole = IntHist(0, 10)
    whole.add(values)
    parts = [IntHist(0, 10), IntHist(0, 10)]
    parts[0].add(values[:3])
    parts[1].add(values[3:])
    merged = merge(parts)
    assert merged.counts.tolist() == whole.counts.tolist() and (merged.under, merged.over) == (1, 1)  # -3; 12
    with pytest.raises(ValueError, match="cannot merge"):
        IntHist(0, 10).merge(IntHist(0, 11))

    a, b = PerGame([7, 3], [2, 1]), PerGame([5], [1])
    a.bags[0] = [4, 1]
    b.bags[0] = [6]
    b.rows, a.rows = 1, 3
    m = merge([a, b])
    assert m.index.locate([3, 5, 7]).tolist() == [1, 2, 0]
    assert m.bags[0].tolist() == [4, 1, 6] and m.hands.tolist() == [2, 1, 1] and m.rows == 4


@pytest.mark.parametrize("args", [
    ["nil", "RUN", "--scheduler", "tcp://127.0.0.1:1"],
    ["report", "RUN", "--out", "OUT", "--scheduler", "tcp://127.0.0.1:1"],
    ["nil", "RUN", "--what-if", "10", "--engine", "dask"],
])
def test_engine_options_are_checked_in_one_line(tmp_path, args):
    (tmp_path / "RUN").mkdir()
    args = [str(tmp_path / a) if a in ("RUN", "OUT") else a for a in args]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "--engine dask" in res.output
