"""Engine: determinism across threads and shards, invariants, resume after a crash."""
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from killed_run import kill_and_resume

from tricksim.simulator import engine, rundir
from tricksim.simulator.bits import popcount
from tricksim.simulator.engine import RunConfig, RunError, run, run_to_tables
from tricksim.simulator.games.spades import batch, kernel
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.rundir import RunDirError, read_manifest
from tricksim.strategies.registry import parse_spec

RANDOM = parse_spec("random:nil_prob=0.2,blind_nil_prob=0.2")


def cfg(**kw):
    base = {"rules": build_rules("classic"), "seats": (RANDOM,) * 4, "seed": 7, "mode": "hands", "count": 3000}
    base.update(kw)
    return RunConfig(**base)


@pytest.mark.parametrize("mode, count, limit", [
    ("hands", 3000, 1000),
    pytest.param("games", 150, 60, marks=pytest.mark.needs_jit(
        "150 games of random play to 60 hands, four times over: about 1 min as pure Python under coverage; the "
        "same paths run in the hands case and in test_run_on_worker_threads_writes_the_same_rows[games-120-16]")),
])
def test_same_data_for_any_threads_and_shard_size(mode, count, limit):
    c = cfg(mode=mode, count=count, hand_limit=limit, record_plays=True)
    tables = run_to_tables(c, threads=1)
    ref_h, ref_g = tables["hands"], tables.get("games")
    for threads, shard in [(2, None), (2, 7), (1, 64)]:
        tables = run_to_tables(cfg(mode=mode, count=count, hand_limit=limit, record_plays=True, shard_size=shard),
                             threads=threads)
        h, g = tables["hands"], tables.get("games")
        assert h.equals(ref_h), (threads, shard)
        if mode == "games":
            assert g.equals(ref_g)


@pytest.mark.parametrize("mode", ("hands", "games"))
@pytest.mark.parametrize("count", [1, 999, 262_144, 262_145, 786_432, 2_000_000, 100_000_000, 10**12])
def test_default_shards_are_even_in_number_and_equal_in_size(mode, count):
    c = cfg(mode=mode, count=count)
    last = c.shard_range(c.n_shards - 1)[1]
    assert (c.n_shards - 1) * c.shard + last == count
    assert c.shard - last < c.n_shards  # the last shard short by fewer hands (games) than there are shards
    assert c.n_shards == 1 or c.n_shards % 2 == 0
    assert c.shard <= 1.5 * c.family.default_shard[mode]
    assert cfg(mode=mode, count=count, shard_size=7).shard == 7


@pytest.mark.parametrize("spec", ["simple", "heuristic", "random:nil_prob=0.2,blind_nil_prob=0.2"])
def test_a_built_in_compiled_into_the_kernel_plays_like_the_per_seat_path(spec, monkeypatch):
    # self-play of a built-in takes a kernel with the strategy compiled in; the per-seat
    # path (function pointers) must play the same cards, bids and Blind Nils
    c = cfg(seats=(parse_spec(spec),) * 4, mode="games", count=60, hand_limit=80, record_plays=True)
    assert batch.seat_functions(c.seats).kind != kernel.PER_SEAT
    tables = run_to_tables(c)
    fast_h, fast_g = tables["hands"], tables.get("games")
    compiled_in = batch.seat_functions
    monkeypatch.setattr(batch, "seat_functions", lambda seats: compiled_in(seats)._replace(kind=kernel.PER_SEAT))
    tables = run_to_tables(c)
    slow_h, slow_g = tables["hands"], tables.get("games")
    assert fast_h.equals(slow_h) and fast_g.equals(slow_g)
    if spec.startswith("random"):  # classic rules: Blind Nils and their exchange were played too
        assert sum(fast_h[f"blind_{s}"].to_numpy().sum() for s in range(4)) > 0


def test_only_one_built_in_with_one_parameter_row_is_compiled_in():
    def kind(*specs):
        return batch.seat_functions([parse_spec(s) for s in specs]).kind
    simple, heuristic = kind(*["simple"] * 4), kind(*["heuristic:bag_mode=avoid"] * 4)
    assert kernel.PER_SEAT not in (simple, heuristic) and simple != heuristic
    assert kind(*["heuristic"] * 4) == heuristic
    assert kind("simple", "simple", "simple", "heuristic") == kernel.PER_SEAT
    assert kind("simple", "simple", "simple", "simple:nil=0") == kernel.PER_SEAT


def test_games_that_outgrow_the_rows_of_a_call_continue_in_the_next_call(monkeypatch):
    # random players rarely reach 500: their games run to the hand limit and fill the rows allocated
    # (GAME_ROWS a game) long before the last game, so the kernel is called again for the rest
    c = cfg(mode="games", count=40, hand_limit=200)
    tables = run_to_tables(c, threads=2)
    h, g = tables["hands"], tables.get("games")
    assert h.num_rows > 40 * batch.GAME_ROWS
    gid = h["game_id"].to_numpy()
    hand_no = h["hand_no"].to_numpy()
    assert np.all(np.diff(gid) >= 0)
    for game, n in zip(g["game_id"].to_numpy(), g["hands"].to_numpy()):
        assert np.array_equal(hand_no[gid == game], np.arange(n))
    monkeypatch.setattr(batch, "GAME_ROWS", 200)  # now every game fits in the first call
    tables = run_to_tables(c)
    h1, g1 = tables["hands"], tables.get("games")
    assert h1.equals(h) and g1.equals(g)


def test_different_seeds_differ_and_hand_i_is_fixed():
    a = run_to_tables(cfg(count=500))["hands"]
    b = run_to_tables(cfg(count=500, seed=8))["hands"]
    assert not a["dealt_0"].equals(b["dealt_0"])
    c = run_to_tables(cfg(count=200))["hands"]  # a prefix of the same run: the same deals
    assert a.slice(0, 200)["dealt_0"].equals(c["dealt_0"])


def test_invariants_of_random_play():
    h = run_to_tables(cfg(count=2000, record_plays=True, rules=build_rules("classic", ["jokers=true"])))["hands"]
    dealt = np.stack([h[f"dealt_{s}"].to_numpy() for s in range(4)])
    held = np.stack([h[f"held_{s}"].to_numpy() for s in range(4)])
    tricks = np.stack([h[f"tricks_{s}"].to_numpy() for s in range(4)])
    plays = np.stack(h["plays"].to_numpy(zero_copy_only=False))
    deck = (1 << 52) - 1 - (1 << 13) - (1 << 26) + (1 << 52) + (1 << 53)
    for i in range(len(h)):
        assert dealt[:, i].sum() == deck and np.bitwise_or.reduce(held[:, i]) == deck
        assert all(popcount(m) == 13 for m in held[:, i])
        assert sorted(plays[i]) == sorted(c for c in range(54) if deck >> c & 1)  # each card once
    assert (tricks.sum(axis=0) == 13).all()


def test_bad_config_is_refused():
    with pytest.raises(RunError, match="invalid mode 'sets': allowed hands | games"):
        cfg(mode="sets")
    with pytest.raises(RunError, match="need 4 seat strategies"):
        cfg(seats=(RANDOM,))


def test_out_dir_rules(tmp_path):
    out = tmp_path / "run"
    run(cfg(count=100), out, progress=False)
    with pytest.raises(RunDirError, match="is not empty: pass overwrite=True"):
        run(cfg(count=100), out, progress=False)
    with pytest.raises(RunDirError, match="started with different options \\(count"):
        run(cfg(count=200), out, resume=True, progress=False)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("precious")
    with pytest.raises(RunDirError, match="refusing to overwrite"):
        run(cfg(count=100), tmp_path / "mine", overwrite=True, progress=False)
    assert (tmp_path / "mine" / "thesis.tex").exists()


def test_an_overwrite_deletes_only_what_runs_write(tmp_path):
    out = tmp_path / "run"
    run(cfg(count=100), out, progress=False)
    (out / "notes.txt").write_text("mine")
    (out / "hands" / "my-table.csv").write_text("mine too")
    (out / "dd").mkdir()
    (out / "dd" / "part-000000.parquet").write_bytes(b"columns a run's dd wrote")
    with pytest.raises(RunDirError, match=r"refusing to overwrite .*: it holds files no run writes "
                                          r"\(hands/my-table.csv, notes.txt\): move them away, or give another out"):
        run(cfg(count=200), out, overwrite=True, progress=False)
    assert (out / "notes.txt").read_text() == "mine" and (out / "hands" / "my-table.csv").exists()
    assert read_manifest(out)["count"] == 100 and (out / "dd" / "part-000000.parquet").exists()
    (out / "notes.txt").unlink()
    (out / "hands" / "my-table.csv").unlink()
    run(cfg(count=200), out, overwrite=True, progress=False)  # only a run's own files: replaced, dd's too
    assert read_manifest(out)["count"] == 200 and not (out / "dd").exists()


def test_the_disk_estimate_of_a_huge_run_comes_before_any_planning(tmp_path):
    """10**12 hands (75 TB): refused for disk space in seconds, not after looking up its million shards one by
    one (9.6 minutes, issue #26), and nothing is left behind. A process of its own, stopped after 60 s."""
    out = tmp_path / "huge"
    code = ("from tricksim.simulator.engine import RunConfig, run\n"
            "from tricksim.simulator.games.spades.rules import build_rules\n"
            "from tricksim.strategies.registry import parse_spec\n"
            "cfg = RunConfig(rules=build_rules('classic'), seats=(parse_spec('random'),) * 4, count=10**12)\n"
            f"run(cfg, {str(out)!r}, progress=False)\n")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert time.monotonic() - t0 < 30
    assert "RunError: the run needs about 75000.0 GB on disk" in p.stderr, p.stderr[-2000:]
    assert not out.exists()


def test_the_shards_to_do_are_found_from_the_records(tmp_path):
    """A resume finds the missing shards from the records folder: the committed ones kept, the rest to do."""
    c = cfg(count=3000, shard_size=500)
    out = tmp_path / "run"
    run(c, out, progress=False, threads=1)
    for i in (1, 4):
        (out / rundir.RECORDS / f"part-{i:06d}.json").unlink()
    rd = rundir.RunDir(out, c.plan(), tables=("hands",), resume=True, upgrade=c.upgrade_plan)
    assert engine.shards_to_do(c, rd) == [1, 4]


def test_a_dangling_link_as_out_is_named_in_one_line(tmp_path):
    (tmp_path / "out").symlink_to(tmp_path / "nowhere")
    with pytest.raises(RunError, match=r"^out=.*/out is a symbolic link to .*/nowhere, which does not exist"):
        run(cfg(count=100), tmp_path / "out", progress=False)


def _read(out):
    hands = pq.read_table(Path(out) / "hands")
    return hands.sort_by([("game_id", "ascending"), ("hand_no", "ascending")])


@pytest.mark.parametrize("mode, count, shard", [("hands", 3000, 400), ("games", 120, 16), ("hands", 3000, None)])
def test_run_on_worker_threads_writes_the_same_rows(tmp_path, mode, count, shard):
    # many shards: each worker thread computes and writes whole shards, finishing out of order;
    # one shard: the shard is split between the threads
    c = cfg(mode=mode, count=count, shard_size=shard, hand_limit=60)
    tables = run_to_tables(c, threads=1)
    ref_h, ref_g = tables["hands"], tables.get("games")
    info = run(c, tmp_path / "run", threads=2, progress=False)
    assert info["threads"] == 2 and info["hands_this_session"] == ref_h.num_rows
    assert _read(tmp_path / "run").equals(ref_h)
    if mode == "games":
        assert pq.read_table(tmp_path / "run" / "games").sort_by("game_id").equals(ref_g)


def test_thread_count_is_checked():
    with pytest.raises(RunError, match="invalid thread count 0: allowed 1 to"):
        engine.worker_count(0)


def test_resume_after_a_failure_mid_run(tmp_path, crash_mid_run):
    c = cfg(mode="games", count=90, shard_size=10, hand_limit=80)
    full = tmp_path / "full"
    run(c, full, progress=False)
    out = tmp_path / "crash"
    crash_mid_run(c, out, "hands", 4)
    info = run(c, out, resume=True, progress=False)
    assert info["shards_written_this_session"] == 5
    assert not list(Path(out).rglob("*.tmp"))
    assert _read(out).equals(_read(full))
    assert pq.read_table(Path(out) / "games").sort_by("game_id").equals(pq.read_table(Path(full) / "games").sort_by("game_id"))


@pytest.mark.needs_jit("three 200,000-hand runs in subprocesses, timed against a kill: about 4.5 min as pure "
                        "Python (resume itself is tested in-process by test_resume_after_a_failure_mid_run)")
def test_resume_after_kill_9(tmp_path):
    """A real process killed at a random moment, then --resume: exactly the rows of a clean run."""
    args = ["--hands", "200000", "--shard-size", "20000", "--seed", "3", "--strategy", "random", "--quiet",
            "--threads", "1"]
    out, full = kill_and_resume(tmp_path, "spades", args, "hands", most=10, poll=0.01)
    assert _read(out).equals(_read(full))


def test_a_strategy_that_breaks_the_rules_stops_the_run_cleanly(tmp_path):
    # a plug-in that leads its highest card, even an unbroken spade, and otherwise plays like random
    from numba import njit

    from tricksim.simulator.bits import highest_bit
    from tricksim.simulator.games.spades.policy import PLAY_SIG, V_NPLAYED
    from tricksim.strategies.registry import SeatStrategy, Strategy
    from tricksim.strategies.spades import random as random_strategy

    @njit(PLAY_SIG)
    def play(seat, hand, legal, view, params, rng):
        return highest_bit(hand) if view[V_NPLAYED] == 0 else highest_bit(legal)

    base = random_strategy.STRATEGY
    cheat = SeatStrategy(Strategy(name="cheat", description="test", policies={**base.policies, "play": play},
                                  params=base.params))
    c = cfg(rules=build_rules("cardems"), seats=(cheat,) + (RANDOM,) * 3, count=4000, shard_size=500)
    with pytest.raises(RunError, match=r"strategy 'cheat' at seat 0 made illegal card \d+ in game \d+, hand 0"):
        run(c, tmp_path / "run", threads=2, progress=False)
    assert not list((tmp_path / "run").rglob("*.tmp"))  # no half-written file left behind
    assert read_manifest(tmp_path / "run")["status"] == "running"  # not marked complete


def test_a_run_written_before_the_breaking_flag_resumes_as_breaking_true(tmp_path):
    """A run directory whose manifest rules lack ``breaking`` (written before the flag existed) resumes as
    ``breaking=true``, the play of the time; the finished manifest then names the flag."""
    import json

    from tricksim.jobs import run_kept

    c = cfg(count=300, shard_size=100)
    full, out = tmp_path / "full", tmp_path / "old"
    run(c, full, progress=False)
    run(c, out, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    for plan in (manifest, manifest["plan"]):
        del plan["rules"]["breaking"]
    manifest["status"] = "running"
    rundir.write_manifest_file(out, manifest)  # as that run wrote it: with the checksum of its content
    (out / rundir.RECORDS / "part-000001.json").unlink()  # shard 1 unfinished: to be computed again
    assert c.upgrade_plan(manifest["plan"]) == c.plan()
    with pytest.raises(RunDirError, match=r"started with different options \(rules\)"):
        run(cfg(count=300, shard_size=100, rules=build_rules("classic", ["breaking=false"])), out, resume=True,
            progress=False)
    info = run(c, out, resume=True, progress=False)
    assert info["shards_written_this_session"] == 1
    assert _read(out).equals(_read(full))
    assert read_manifest(out)["status"] == "complete" and read_manifest(out)["plan"]["rules"]["breaking"] is True
    # a study job finds the same run there and keeps it
    manifest = read_manifest(out)
    for plan in (manifest, manifest["plan"]):
        del plan["rules"]["breaking"]
    rundir.write_manifest_file(out, manifest)
    before = (out / "hands" / "part-000000.parquet").stat().st_mtime_ns
    run_kept(c, out, threads=1)
    assert (out / "hands" / "part-000000.parquet").stat().st_mtime_ns == before


def test_without_breaking_a_spade_may_be_led_before_spades_are_broken(tmp_path):
    """The plug-in of the test above, leading its highest card (a spade whenever it holds one), plays legally
    with breaking=false."""
    from numba import njit

    from tricksim.simulator.bits import highest_bit
    from tricksim.simulator.games.spades.policy import PLAY_SIG, V_NPLAYED
    from tricksim.strategies.registry import SeatStrategy, Strategy
    from tricksim.strategies.spades import random as random_strategy

    @njit(PLAY_SIG)
    def play(seat, hand, legal, view, params, rng):
        return highest_bit(hand) if view[V_NPLAYED] == 0 else highest_bit(legal)

    base = random_strategy.STRATEGY
    eager = SeatStrategy(Strategy(name="eager", description="test", policies={**base.policies, "play": play},
                                  params=base.params))
    c = cfg(rules=build_rules("cardems", ["breaking=false"]), seats=(eager,) + (RANDOM,) * 3, count=400,
            record_plays=True)
    hands = run_to_tables(c, threads=1)["hands"].to_pylist()
    spade_leads = 0
    for row in hands:
        if row["first_leader"] == 0:  # the eager seat leads the first trick: its highest card, a spade if held
            first = row["plays"][0]
            assert first == row["held_0"].bit_length() - 1
            spade_leads += first >= 39
    assert spade_leads > 50


def test_replayed_hands_are_the_rows_of_the_full_run():
    c = cfg(count=400)
    full = run_to_tables(c)["hands"]
    ids = [17, 5, 399, 5]
    again = engine.replay_units(c, ids, threads=1)
    assert again.num_rows == len(ids)
    assert again.equals(full.take(ids))
    assert engine.replay_units(c, [], threads=1).num_rows == 0


def test_a_run_made_by_other_code_is_neither_resumed_nor_reused(tmp_path, monkeypatch):
    """A run records the source hash of the code that made it (the compile cache's key): a resume or a study's
    reuse by other code would mix the shards of two programs, so the resume is refused in one line, leaving the
    folder as it was, and a study job makes the run again (#26)."""
    import json

    from tricksim.jobs import run_kept
    from tricksim.simulator import SOURCE_HASH

    c = cfg(count=300, shard_size=100)
    out = tmp_path / "run"
    run(c, out, progress=False)
    assert read_manifest(out)["plan"]["source"] == SOURCE_HASH
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "running"
    rundir.write_manifest_file(out, manifest)
    (out / rundir.RECORDS / "part-000001.json").unlink()  # shard 1 unfinished
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.rglob("*"))

    monkeypatch.setattr(engine, "SOURCE_HASH", "0123456789abcdef")  # this process is now other code
    with pytest.raises(RunDirError) as e:
        run(c, out, resume=True, progress=False)
    assert str(e.value) == (f"resume=True: {out} was made by other tricksim code (source {SOURCE_HASH}; this is "
                            "0123456789abcdef), whose data could differ; finish it with the code that started it "
                            "or use overwrite=True")
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.rglob("*")) == before
    with pytest.raises(RunDirError, match="started with different options \\(count, n_shards, source\\)"):
        run(cfg(count=400, shard_size=100), out, resume=True, progress=False)

    run_kept(c, out, threads=1)  # a study's kept run: made again by this code
    assert read_manifest(out)["status"] == "complete" and read_manifest(out)["plan"]["source"] == "0123456789abcdef"
    monkeypatch.undo()

    # a run written before runs recorded their source: its code is unknown, so it is not resumed either
    manifest = json.loads((out / "manifest.json").read_text())
    for plan in (manifest, manifest["plan"]):
        del plan["source"]
    manifest["status"] = "running"
    rundir.write_manifest_file(out, manifest)
    with pytest.raises(RunDirError, match=f"was made by a tricksim that did not record its source code \\(this is "
                                          f"source {SOURCE_HASH}\\), whose data could differ"):
        run(c, out, resume=True, progress=False)
