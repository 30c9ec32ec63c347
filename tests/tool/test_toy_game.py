"""A game added without an edit outside its own folders (issue #25): the toy game of tests/toy_game/.

The toy's folders mirror the repository's layers; ``TRICKSIM_GAMES`` names the folder that holds them.
Every command and the Python API then serve the toy as they serve the built-in games: simulate, summary,
report, compare, its own command and its own API function. Its rules (tests/toy_game/README.md) give
the checks: every round deals nine cards, three to a seat, and scores three tricks (four with
``bonus_last``).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy_game"


def env(with_toy: bool = True) -> dict:
    e = {k: v for k, v in os.environ.items() if k != "TRICKSIM_GAMES"}
    if with_toy:
        e["TRICKSIM_GAMES"] = str(TOY)
    return e


def cli(*args, cwd, with_toy=True):
    return subprocess.run([sys.executable, "-m", "tricksim.cli", *args], cwd=cwd, env=env(with_toy),
                          capture_output=True, text=True, timeout=300, check=False)


def python(code: str, cwd):
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env(), capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    return r.stdout


def rounds(run: Path):
    return pq.read_table(run / "rounds").to_pylist()


def test_the_toy_game_is_played_and_analysed_by_every_command(tmp_path):
    r = cli("simulate", "toy", "--rounds", "120", "--seed", "5", "--seat", "0=high", "--out", "run", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = rounds(tmp_path / "run")
    assert len(rows) == 120 and sorted(row["round_id"] for row in rows) == list(range(120))
    for row in rows:
        dealt = [row[f"dealt_{s}"] for s in range(3)]
        assert [(d).bit_count() for d in dealt] == [3, 3, 3] and sum(dealt) == (1 << 9) - 1
        assert sum(row[f"score_{s}"] for s in range(3)) == 3
    # the summary printed after the run: n and the mean of each seat, as the rows give them
    mean0 = sum(row["score_0"] for row in rows) / 120
    assert "120 rounds" in r.stdout and f"seat 0 high    score {mean0:.2f} [" in r.stdout
    assert cli("summary", "run", cwd=tmp_path).stdout == r.stdout
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["game"] == "toy" and len(manifest["seats"]) == 3

    r = cli("report", "run", "--out", "rep", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Toy game: mean score per seat" in (tmp_path / "rep" / "report.html").read_text()
    assert (tmp_path / "rep" / "toy_scores.png").stat().st_size > 0

    r = cli("compare", "low", "high", "--game", "toy", "--rounds", "60", "--out", "cmp", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "seed 0; 60 rounds" in r.stdout and "low - high: score per seat per round" in r.stdout
    assert len(rounds(tmp_path / "cmp" / "a_first")) == 60

    r = cli("toy-tricks", "run", cwd=tmp_path)
    totals = [sum(row[f"score_{s}"] for row in rows) for s in range(3)]
    assert r.returncode == 0 and f"120 rounds; total score by seat {totals}" in r.stdout
    assert "bonus_last" in cli("rules", "toy", cwd=tmp_path).stdout
    assert "high: the highest legal card" in cli("strategies", "toy", cwd=tmp_path).stdout
    assert "--rounds N" in cli("simulate", "--help", cwd=tmp_path).stdout


def test_the_toy_game_through_the_python_api(tmp_path):
    out = python(
        "import json, tricksim\n"
        "run = tricksim.simulate('toy', rounds=40, preset='bonus', seats=['low', 'high', 'low'], seed=2, out='r')\n"
        "print(json.dumps({'n': run.count_hands(), 'seats': run.seat_labels, 'rules': run.rules,\n"
        "                  'deals': tricksim.toy_deals(run)[:3], 'summary': tricksim.summary(run.path)}))\n"
        "tricksim.report([run], 'rep')\n"
        "tricksim.compare('low', 'high', game='toy', rounds=30, out='cmp')\n", tmp_path)
    got = json.loads(out.splitlines()[-1])
    assert got["n"] == 40 and got["seats"] == ["low", "high", "low"] and got["rules"] == {"bonus_last": True}
    rows = rounds(tmp_path / "r")
    assert all(sum(row[f"score_{s}"] for s in range(3)) == 4 for row in rows)  # three tricks, the last worth two
    # the game's own API function reads the hands back from the run
    by_id = {row["round_id"]: row for row in rows}
    assert got["deals"] == [[[c for c in range(9) if by_id[i][f"dealt_{s}"] >> c & 1] for s in range(3)]
                            for i in range(3)]
    assert "40 rounds" in got["summary"] and (tmp_path / "rep" / "report.html").is_file()
    assert len(rounds(tmp_path / "cmp" / "b_first")) == 30


def test_without_its_folder_named_the_toy_game_does_not_exist(tmp_path):
    r = cli("simulate", "toy", "--hands", "5", "--out", "run", cwd=tmp_path, with_toy=False)
    assert r.returncode == 2 and "unknown game 'toy'" in r.stderr and "spades | tarot" in r.stderr
    assert "toy-tricks" not in cli("--help", cwd=tmp_path, with_toy=False).stdout


@pytest.mark.parametrize("folder", ["simulator", "strategies", "analysis", "tricksim"])
def test_nothing_outside_the_toy_folder_knows_it(folder):
    named = [str(p.relative_to(ROOT)) for p in sorted((ROOT / folder).rglob("*.py")) if "toy" in p.read_text().lower()]
    assert not named
