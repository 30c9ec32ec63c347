"""The command line: one-line errors with exit code 2, and a tiny real run read back."""
import json

import pyarrow.parquet as pq
import pytest
from cli_exit import run_main
from click.testing import CliRunner

from tricksim.cli import cli


@pytest.mark.parametrize("args, message", [
    (["simulate", "spades", "--hands", "10", "--out", "X", "--rule", "target=abc"],
     "Error: invalid value target='abc': allowed an integer from 1 to 100000"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--preset", "bridge"],
     "Error: unknown preset 'bridge': allowed cardems | zone | classic"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--strategy", "genius"],
     "Error: unknown spades strategy 'genius': allowed heuristic | pimc | random | simple"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--strategy", "random:nil_prob=2"],
     "Error: invalid value nil_prob='2': allowed a number from 0 to 1"),
    (["simulate", "spades", "--hands", "10", "--games", "3", "--out", "X"],
     "Error: spades needs exactly one of --hands N or --games N"),
    (["simulate", "bridge", "--hands", "10", "--out", "X"], "Error: unknown game 'bridge': allowed spades | tarot"),
    (["simulate", "tarot", "--hands", "10", "--out", "X"], "Error: tarot needs exactly one of --deals N"),
    (["simulate", "tarot", "--deals", "10", "--team", "0=random", "--out", "X"], "Error: tarot has no teams"),
    (["simulate", "spades", "--deals", "10", "--out", "X"], "Error: spades needs exactly one of --hands N or --games N"),
    (["simulate", "spades", "--hands", "0", "--out", "X"], "Error: Invalid value for '--hands'"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--seat", "5=random"], "Error: seat 5 does not exist: seats are 0 to 3"),
    (["rules", "spades", "--preset", "nope"], "Error: unknown preset 'nope'"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--rule", "breaking=never"],
     "Error: invalid value breaking='never': allowed true | false"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--scheduler", "tcp://10.0.0.5:8786"],
     "Error: --scheduler needs --engine dask"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--engine", "spark"], "Error: Invalid value for '--engine'"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--strategy", "heuristic:bag_mode=take,bag_mode=avoid"],
     "Error: Invalid value for '--strategy': parameter 'bag_mode' is given twice"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--team", "1=heuristic:nil=0.5"],
     "Error: invalid value nil='0.5': allowed 1 or 0"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--seat", "0=simple", "--seat", "0=random"],
     "Error: Invalid value for '--seat': 0 is given twice"),
    (["simulate", "tarot", "--deals", "10", "--out", "X", "--hand-limit", "50"],
     "Error: --hand-limit is the most hands or deals of a game: it applies with --games N, not --deals N; leave it out"),
    (["simulate", "tarot", "--games", "10", "--out", "X", "--rule", "deals_per_game=0"],
     "Error: invalid value deals_per_game=0: allowed none (4 deals a player) or an integer from 1 to 100000"),
    (["compare", "heuristic", "random", "--game", "tarot", "--deals", "10", "--out", "X", "--hand-limit", "50"],
     "Error: a tarot deal stands alone (no games): --hand-limit does not apply"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(args, capsys)
    assert code == 2
    assert err.startswith(message)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "X").exists()  # nothing written


def test_tiny_real_run_is_read_back(tmp_path):
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "spades", "--preset", "classic", "--games", "20", "--seed", "2",
                                 "--out", str(out), "--team", "1=random", "--record-plays", "--quiet"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["count"] == 20 and manifest["seed"] == 2
    assert manifest["rules"]["blind_nil"] is True and manifest["seats"][1].startswith("random")
    games = pq.read_table(out / "games")
    hands = pq.read_table(out / "hands")
    assert games.num_rows == 20 and hands.num_rows == games["hands"].to_numpy().sum()
    assert set(hands.column_names) >= {"game_id", "hand_no", "dealer", "first_leader", "dealt_0", "held_3", "bid_2",
                                       "blind_1", "tricks_0", "score_0", "bags_1", "total_0", "plays", "strategy_1"}
    assert hands["strategy_1"][0].as_py().startswith("random")


def test_a_run_without_breaking(tmp_path):
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "spades", "--hands", "400", "--rule", "breaking=false", "--record-plays",
                                 "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["breaking"] is False and manifest["preset"] == "cardems"
    assert pq.read_table(out / "hands").num_rows == 400


def test_rules_listing_names_every_flag():
    from dataclasses import fields

    from tricksim.simulator.games.spades.rules import SpadesRules
    r = CliRunner().invoke(cli, ["rules", "spades"])
    assert r.exit_code == 0
    for f in fields(SpadesRules):
        assert f.name in r.output
    line = next(x for x in r.output.splitlines() if x.startswith("breaking "))
    assert line.split()[1:5] == ["true", "true", "true", "true"]  # cardems, zone, classic; allowed: true | false
    seats = [x for x in r.output.splitlines() if x.startswith("seats ")]  # a flag in Spades: one row, as a flag
    assert len(seats) == 1 and seats[0].split()[1:10] == ["4"] * 7 + ["3", "2"] and "2..4: " in seats[0]


def test_rules_listing_shows_a_seat_count_that_is_not_a_flag():
    """Tarot's seat count is the preset's own, not a flag: one row of its own, before the flags."""
    r = CliRunner().invoke(cli, ["rules", "tarot"])
    assert r.exit_code == 0, r.output
    seats = [x for x in r.output.splitlines() if x.startswith("seats ")]
    assert len(seats) == 1 and seats[0].split()[1:4] == ["4", "3", "5"]  # cardavia, fft3, fft5
    assert "not a flag" in seats[0]


def test_rules_of_one_flag():
    """--rule FLAG: the one flag's value in every preset, its allowed values and meaning; a bad name exits 2 in one
    line naming the flags."""
    r = CliRunner().invoke(cli, ["rules", "spades", "--rule", "joker_removes"])
    assert r.exit_code == 0, r.output
    rows = [x for x in r.output.splitlines() if x.startswith("joker_removes ")]
    assert len(rows) == 1 and "deck " not in r.output and "nil " not in r.output
    assert rows[0].split()[1:7] == ["auto"] * 6  # cardems zone classic suicide whiz mirror
    assert "2h2d | 2c2d | 2c2h | auto: [decision] which two 2s leave a joker deck" in rows[0]
    bad = CliRunner().invoke(cli, ["rules", "spades", "--rule", "decks"])
    assert bad.exit_code == 2 and "unknown rule flag 'decks': allowed nil, " in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_an_unusable_output_path_is_one_line(capsys, tmp_path):
    """Paths the OS refuses (here: below a regular file) are bad input too: one line, exit 2, no traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = run_main(["simulate", "spades", "--hands", "10", "--out", str(blocker / "run"), "--quiet"], capsys)
    assert code == 2 and err.startswith(f"Error: cannot use --out {blocker / 'run'}: Not a directory")
    assert err.count("\n") == 1
    run = tmp_path / "run"
    assert run_main(["simulate", "spades", "--hands", "300", "--strategy", "simple", "--out", str(run), "--quiet"],
                    capsys)[0] == 0
    for args in (["report", str(run), "--out", str(blocker / "report")],
                 ["nil", str(run), "--chart", str(blocker / "nil.png")]):
        code, _, err = run_main(args, capsys)
        assert code == 2 and err.startswith(f"Error: cannot write {args[-1]}: ") and err.count("\n") == 1, err
    assert blocker.read_text() == "not a folder"


def test_a_write_failing_mid_run_is_one_line_and_resume_finishes(capsys, tmp_path, monkeypatch):
    """A disk that fills up during a run: one line (exit 1) that says how to finish, and --resume gives
    exactly the data of an uninterrupted run."""
    import errno

    from tricksim.simulator import rundir

    args = ["simulate", "spades", "--hands", "4000", "--shard-size", "500", "--strategy", "simple", "--seed", "3",
            "--threads", "1", "--quiet"]
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    assert run_main(args + ["--out", str(whole)], capsys)[0] == 0
    real, calls, half = rundir._write_parquet, [], []

    def fills_up(table, path, how, meta=None):
        calls.append(path)
        if len(calls) == 4:  # the disk fills up halfway through the fourth file
            half.append(rundir._staging(path))
            half[0].write_bytes(b"PAR1 half a file")
            raise OSError(errno.ENOSPC, "No space left on device", str(half[0]))
        return real(table, path, how, meta)

    monkeypatch.setattr(rundir, "_write_parquet", fills_up)
    code, _, err = run_main(args + ["--out", str(broken)], capsys)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"Error: writing {broken} stopped: No space left on device: ")
    assert err.rstrip().endswith("rerun the same command with --resume to finish")
    names = [p.name for p in (broken / "hands").iterdir()]
    assert 0 < sum(n.endswith(".parquet") for n in names) < 8  # whole shards, and the half file left as .tmp
    assert [n for n in names if not n.endswith(".parquet")] == [half[0].name]
    # a reader of the folder meanwhile sees the whole shards only (pyarrow skips hidden files)
    assert pq.read_table(broken / "hands").num_rows == 500 * sum(n.endswith(".parquet") for n in names)
    monkeypatch.setattr(rundir, "_write_parquet", real)
    assert run_main(args + ["--out", str(broken), "--resume"], capsys)[0] == 0
    assert all(p.suffix == ".parquet" for p in (broken / "hands").iterdir())
    assert pq.read_table(broken / "hands").sort_by("game_id").equals(pq.read_table(whole / "hands").sort_by("game_id"))


def test_games_presets_and_defaults_in_the_help_come_from_the_families():
    from tricksim.jobs.spades.compare import GAME
    from tricksim.simulator.family import default_game, family, names

    runner = CliRunner()
    simulate = " ".join(runner.invoke(cli, ["simulate", "--help"], terminal_width=400).output.split())
    for game in names():
        fam = family(game)
        presets = [fam.default_preset, *(p for p in fam.presets if p != fam.default_preset)]
        assert f"{game} {' | '.join(presets)}" in simulate  # the default first: "(default: the game's first)"
    compare = " ".join(runner.invoke(cli, ["compare", "--help"], terminal_width=400).output.split())
    assert f"--game [{'|'.join(names())}] The game the strategies play. [default: {default_game()}]" in compare
    assert ", ".join(f"{family(g).default_preset} for {g}" for g in names()) in compare
    assert f"Rule set [default: {family(GAME).default_preset};" in " ".join(
        runner.invoke(cli, ["sweep", "--help"], terminal_width=400).output.split())


def every_option():
    """(command name, option) for every option of every command, the games' own commands included."""
    import click

    from tricksim.commands import game_commands

    ctx = click.Context(cli, info_name="tricksim")
    names = cli.list_commands(ctx)
    assert set(game_commands()) <= set(names)  # the walk reaches the games' commands
    for name in names:
        command = cli.get_command(ctx, name)
        sub = click.Context(command, info_name=name, parent=ctx)
        for param in command.get_params(sub):
            if isinstance(param, click.Option):
                yield name, param, sub


def test_every_option_of_every_command_has_a_help_text():
    missing = []
    seen = 0
    for name, option, ctx in every_option():
        seen += 1
        option.get_help_record(ctx)  # an option whose help the families answer fills it in here
        if not (option.help or "").strip():
            missing.append(f"{name} {'/'.join(option.opts)}")
    assert seen > 50 and missing == []


def test_the_command_line_starts_without_reading_the_families():
    import subprocess
    import sys

    code = ("import sys, tricksim.cli\n"
            "assert not [m for m in sys.modules if m.startswith(('tricksim.simulator.family', 'pyarrow'))]\n")
    subprocess.run([sys.executable, "-c", code], check=True)
