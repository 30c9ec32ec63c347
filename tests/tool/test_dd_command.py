"""``tricksim dd RUN`` (issue #18): double-dummy columns for a run's hands, checked against DDS (through endplay)
with breaking=false, against the solver's own Nil question position by position, written whole and finished
by running it again."""
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from tricksim.cli import cli
from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.rules import build_rules

JIT = pytest.mark.needs_jit("full 13-trick solves: hours as pure Python")
try:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player
except ImportError:  # pragma: no cover - the test extra installs endplay
    calc_dd_table = None

RANKS = "23456789TJQKA"


def pbn(hands) -> str:
    """Seats 0..3 are N, E, S, W (both number seats in playing order; team 0 is North-South); a PBN hand
    lists spades, hearts, diamonds, clubs, and tricksim's suits 0..3 are clubs, diamonds, hearts, spades."""
    return "N:" + " ".join(".".join("".join(RANKS[r] for r in range(12, -1, -1) if (int(h) >> (13 * s + r)) & 1)
                                    for s in (3, 2, 1, 0)) for h in hands)


def simulate(out, *rules, hands=12, preset="cardems", seed=5):
    args = ["simulate", "spades", "--hands", str(hands), "--seed", str(seed), "--out", str(out), "--shard-size", "5",
            "--preset", preset, "--quiet"] + [x for r in rules for x in ("--rule", r)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output


def read(out, table):
    return pq.read_table(out / table).sort_by([("game_id", "ascending")]).to_pandas()


@JIT
@pytest.mark.skipif(calc_dd_table is None, reason="endplay (the DDS bridge solver's wrapper) is not installed")
def test_dd_tricks_are_those_of_dds_when_spades_may_be_led_any_time(tmp_path):
    simulate(tmp_path / "r", "breaking=false", hands=8)
    res = CliRunner().invoke(cli, ["dd", str(tmp_path / "r"), "--threads", "2"])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "r" / "hands").iterdir())
    assert len(names) == 2 and sorted(p.name for p in (tmp_path / "r" / "dd").iterdir()) == names
    hands, cols = read(tmp_path / "r", "hands"), read(tmp_path / "r", "dd")
    assert cols["game_id"].tolist() == hands["game_id"].tolist() and len(cols) == 8
    for h, d in zip(hands.itertuples(), cols.itertuples()):
        held = [getattr(h, f"held_{s}") for s in range(4)]
        declarer = (h.first_leader + 3) % 4  # DDS's declarer sits on the opening leader's right
        v = calc_dd_table(Deal(pbn(held)))[Denom.spades, Player(declarer)]
        assert d.dd_tricks_0 == (v if declarer % 2 == 0 else 13 - v)


def _columns_are_the_solvers(h, d, rules) -> list[int]:
    """Assert one hand's ``dd`` row ``d`` gives the public functions' answers for its ``hands`` row ``h``: team 0's
    tricks, and the Nil question for each seat that bid 0 (-1 for the others); returns the hands held."""
    held = [getattr(h, f"held_{s}") for s in range(4)]
    assert d.dd_tricks_0 == dd.dd_tricks(held, h.first_leader, rules=rules)
    for s in range(4):
        want = int(dd.nil_makeable(held, h.first_leader, rules=rules, nil_seat=s)) if getattr(h, f"bid_{s}") == 0 \
            else -1
        assert getattr(d, f"dd_nil_{s}") == want
    return held


@JIT
def test_nil_columns_and_rerunning_finishes_the_job(tmp_path):
    out = tmp_path / "r"
    simulate(out, "breaking=true", hands=10, preset="classic")
    assert CliRunner().invoke(cli, ["dd", str(out)]).exit_code == 0
    cols = read(out, "dd")
    hands = read(out, "hands")
    rules = build_rules("classic")
    for h, d in zip(hands.itertuples(), cols.itertuples()):
        _columns_are_the_solvers(h, d, rules)
    # a file lost and one cut short: a rerun solves those two again and gives the same columns
    first, second = sorted((out / "dd").iterdir())[:2]
    first.unlink()
    second.write_bytes(b"PAR1 not a file")
    res = CliRunner().invoke(cli, ["dd", str(out)])
    assert res.exit_code == 0 and "(10 solved now" in res.output  # the two shards of 5 hands
    assert read(out, "dd").equals(cols)
    assert CliRunner().invoke(cli, ["verify", str(out)]).exit_code == 0


@JIT
@pytest.mark.parametrize("deck", ["joker_deuce_ace", "joker_deuce_deuce"])
def test_the_deuce_decks_are_solved_as_dealt(tmp_path, deck):
    """A small run of each deuce deck: the columns (the hands renamed into the rank space in the compiled loop) are
    the public functions' answers hand by hand (which take the deck's ids, tests/.../test_dd_deuce.py), and a
    promoted 2 read as the low card it is in joker_ace changes some hand's tricks."""
    out = tmp_path / "r"
    simulate(out, f"deck={deck}", hands=10, seed=7)
    res = CliRunner().invoke(cli, ["dd", str(out), "--threads", "2"])
    assert res.exit_code == 0, res.output
    cols, hands = read(out, "dd"), read(out, "hands")
    rules, plain = build_rules("cardems", [f"deck={deck}"]), build_rules("cardems", ["deck=joker_ace"])
    differ = 0
    for h, d in zip(hands.itertuples(), cols.itertuples()):
        held = _columns_are_the_solvers(h, d, rules)
        differ += d.dd_tricks_0 != dd.dd_tricks(held, h.first_leader, rules=plain)
    assert differ > 0
    assert CliRunner().invoke(cli, ["verify", str(out)]).exit_code == 0


def test_a_tarot_run_or_an_unfinished_run_is_refused_in_one_line(tmp_path):
    res = CliRunner().invoke(cli, ["simulate", "tarot", "--deals", "20", "--out", str(tmp_path / "t"), "--quiet"])
    assert res.exit_code == 0
    res = CliRunner().invoke(cli, ["dd", str(tmp_path / "t")])
    assert res.exit_code == 2 and "solves Spades hands" in res.output and len(res.output.strip().splitlines()) == 1


@JIT
def test_nil_and_report_show_the_double_dummy_view(tmp_path):
    """With the dd columns, nil splits the failed Nils into makeable with perfect play or lost on the cards,
    and report gives tricks bid, taken and double dummy; the counts recomputed here with pandas."""
    from tricksim.analysis.games.spades.nil import format_nil_table, nil_study
    from tricksim.analysis.report import build_report

    out = tmp_path / "r"
    simulate(out, hands=20, preset="cardems")
    assert CliRunner().invoke(cli, ["dd", str(out)]).exit_code == 0
    h = read(out, "hands").merge(read(out, "dd"), on=["game_id", "hand_no"], validate="one_to_one")
    failed = makeable = 0
    for s in range(4):
        f = (h[f"bid_{s}"] == 0) & (h[f"tricks_{s}"] > 0)
        failed += int(f.sum())
        makeable += int((f & (h[f"dd_nil_{s}"] == 1)).sum())
    df = nil_study([out])
    row = df[df["kind"] == "Nil"].iloc[0]
    assert (row["failed"], row["makeable"]) == (failed, makeable)
    assert "failed but makeable" in format_nil_table(df)
    res = build_report([out], tmp_path / "rep")
    key = res.tables["key"].set_index("metric")
    want = f"{h['dd_tricks_0'].mean():.2f}"
    assert key.loc["tricks double dummy a hand, team 0 (tricksim dd)"].iloc[0].startswith(want)
    taken1 = (h["tricks_1"] + h["tricks_3"]).mean()
    assert key.loc["tricks taken a hand, team 1"].iloc[0].startswith(f"{taken1:.2f}")


def _flip_last_byte(path, column):
    """One byte of ``column``'s last data page changed (its values): the footer still reads."""
    meta = pq.ParquetFile(path).metadata.row_group(0)
    chunk = next(meta.column(i) for i in range(meta.num_columns) if meta.column(i).path_in_schema == column)
    at = (chunk.dictionary_page_offset or chunk.data_page_offset) + chunk.total_compressed_size - 1
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


@JIT
def test_a_foreign_or_damaged_dd_file_is_named_and_replaced(tmp_path):
    """Issue #26: a dd file of another run with the same hand ids, or one with a damaged page, is named by the
    readers and by verify, and tricksim dd solves it again."""
    import json

    from tricksim.analysis.games.spades.nil import nil_study
    from tricksim.analysis.io import AnalysisError

    a, b = tmp_path / "a", tmp_path / "b"
    simulate(a, hands=10)
    simulate(b, hands=10, seed=6)  # the same hand ids (0..9) in the same files, other cards
    for run in (a, b):
        assert CliRunner().invoke(cli, ["dd", str(run)]).exit_code == 0
    good = read(a, "dd")
    want = nil_study([a])

    target = a / "dd" / "part-000001.parquet"
    target.write_bytes((b / "dd" / "part-000001.parquet").read_bytes())
    with pytest.raises(AnalysisError, match="part-000001.parquet: belongs to another run"):
        nil_study([a])
    res = CliRunner().invoke(cli, ["nil", str(a)])
    assert res.exit_code == 2 and "belongs to another run" in res.output and len(res.output.strip().splitlines()) == 1
    res = CliRunner().invoke(cli, ["verify", str(a)])
    assert res.exit_code == 2 and "dd/part-000001.parquet" in res.output
    res = CliRunner().invoke(cli, ["dd", str(a)])
    assert res.exit_code == 0 and "(5 solved now" in res.output, res.output  # that file alone
    assert read(a, "dd").equals(good) and nil_study([a]).equals(want)
    assert CliRunner().invoke(cli, ["verify", str(a)]).exit_code == 0

    _flip_last_byte(a / "dd" / "part-000000.parquet", "dd_tricks_0")
    res = CliRunner().invoke(cli, ["nil", str(a)])
    assert res.exit_code == 2 and "dd/part-000000.parquet" in res.output
    res = CliRunner().invoke(cli, ["verify", str(a)])
    assert res.exit_code == 2 and "dd/part-000000.parquet" in res.output
    res = CliRunner().invoke(cli, ["dd", str(a)])
    assert res.exit_code == 0 and "(5 solved now" in res.output, res.output
    assert read(a, "dd").equals(good) and nil_study([a]).equals(want)

    # each file carries the run's id and its shard in its footer; the manifest lists them with size and checksum
    m = json.loads((a / "manifest.json").read_text())
    files = sorted((a / "dd").glob("*.parquet"))
    assert [r["name"] for r in m["dd"]] == [f.name for f in files] == ["part-000000.parquet", "part-000001.parquet"]
    for k, (f, r) in enumerate(zip(files, m["dd"])):
        kv = pq.ParquetFile(f).metadata.metadata
        assert (kv[b"tricksim.run_id"].decode(), kv[b"tricksim.shard"]) == (m["run_id"], str(k).encode())
        assert (r["bytes"], r["rows"]) == (f.stat().st_size, 5)
    assert CliRunner().invoke(cli, ["verify", str(a)]).exit_code == 0


def test_dd_refuses_a_run_another_process_writes(tmp_path):
    import fcntl
    import os

    simulate(tmp_path / "r", hands=10)
    fd = os.open(tmp_path / "r" / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a process writing the run does (another open file: flock refuses dd's)
    try:
        res = CliRunner().invoke(cli, ["dd", str(tmp_path / "r")])
    finally:
        os.close(fd)
    assert res.exit_code == 2 and "another process" in res.output and len(res.output.strip().splitlines()) == 1


def test_threads_beyond_the_cores_are_refused_as_for_simulate(tmp_path, monkeypatch):
    simulate(tmp_path / "r", hands=4)
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0, 1})  # a two-core process
    dd_res = CliRunner().invoke(cli, ["dd", str(tmp_path / "r"), "--threads", "3"])
    sim_res = CliRunner().invoke(cli, ["simulate", "spades", "--hands", "4", "--out", str(tmp_path / "s"),
                                       "--threads", "3", "--quiet"])
    assert dd_res.exit_code == sim_res.exit_code == 2
    assert "invalid thread count 3: allowed 1 to 2" in dd_res.output
    assert dd_res.output.replace(str(tmp_path / "r"), "") == sim_res.output.replace(str(tmp_path / "s"), "")
    assert not (tmp_path / "r" / "dd").exists()


@JIT
def test_progress_inside_a_file_and_the_same_columns_in_batches(tmp_path, monkeypatch):
    """Issue #26: a file of hands can take minutes; ``dd`` says how far it is inside the file too."""
    import types

    import numpy as np

    from tricksim.jobs.spades import dd as job
    from tricksim.simulator.games.spades.dd_columns import dd_columns

    out = tmp_path / "r"
    simulate(out, "breaking=true", hands=10, preset="classic")
    hands = read(out, "hands")
    held = np.stack([hands[f"held_{s}"].to_numpy() for s in range(4)], axis=1)
    leaders = hands["first_leader"].to_numpy()
    nil_bid = np.stack([(hands[f"bid_{s}"] == 0).to_numpy() for s in range(4)], axis=1).astype(np.int64)
    rules = build_rules("classic")
    whole = dd_columns(held, leaders, nil_bid, rules, threads=2)
    calls = []
    batched = dd_columns(held, leaders, nil_bid, rules, threads=2, progress=calls.append, batch=1)
    assert calls == [2, 4, 6, 8, 10]  # one call a batch of one hand a thread
    assert np.array_equal(whole[0], batched[0]) and np.array_equal(whole[1], batched[1])

    clock = iter(range(0, 10_000, 2))  # every reading of the clock two seconds after the one before
    monkeypatch.setattr(job, "time", types.SimpleNamespace(monotonic=lambda: float(next(clock))))
    lines = []
    job.add_dd_columns(out, threads=1, echo=lines.append)
    counts = [int(line.split()[1].split("/")[0]) for line in lines]
    assert counts == sorted(counts) and counts[-1] == 10
    assert [c for c in counts if c % 5] == [4, 9]  # inside each file of 5 hands (batches of 4 hands a thread)
