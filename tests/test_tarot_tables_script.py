"""The Tarot table-size study (docs/studies.md): one column per Tarot preset, its figures those of the runs'
own data counted here independently, written between its markers (again: replaced, not added), and kept by
``scripts/studies.py`` when that script rewrites the page."""
import importlib
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.needs_jit("a few hundred deals of heuristic play per table size")
def test_tarot_tables_section(tmp_path):
    doc = tmp_path / "studies.md"
    doc.write_text("# Studies\n\nthe Spades part\n")
    cmd = [sys.executable, "scripts/tarot_tables.py", "--deals", "300", "--games", "30", "--seed", "2", "--out",
           str(tmp_path / "runs"), "--doc", str(doc)]
    for _ in range(2):  # the second time reuses the runs and replaces the section
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert text.startswith("# Studies\n\nthe Spades part\n") and text.count("<!-- tarot-tables") == 1
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        tables = importlib.import_module("tarot_tables")
        studies = importlib.import_module("studies")
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    sizes = tables.tables_by_size()
    assert [s for s, _ in sizes] == sorted(s for s, _ in sizes) and {3, 4, 5} <= {s for s, _ in sizes}
    header = next(line for line in text.splitlines() if line.startswith("|  |"))
    assert header == "|  | " + " | ".join(f"{s} players (`{p}`)" for s, p in sizes) + " |"
    cells = [line.strip("| ").split(" | ") for line in text.splitlines()
             if line.startswith("| ") and not line.startswith("|  |")]
    rows = {row[0]: row[1:] for row in cells}
    for i, (seats, preset) in enumerate(sizes):
        deals = pd.read_parquet(tmp_path / "runs" / f"{preset}-300-seed2" / "deals")
        assert len(deals) == 300
        passed = int((deals["void"] == 1).sum())
        played = deals[deals["void"] == 0]
        assert rows["all pass"][i].startswith(f"{100 * passed / 300:.1f} %") and "(n=300)" in rows["all pass"][i]
        won = int((played["won"] == 1).sum())
        assert rows["taker wins"][i].startswith(f"{100 * won / len(played):.1f} %")
        assert f"(n={len(played):,})" in rows["taker wins"][i]
        garde = played[played["contract"] == 2]
        assert f"(n={len(garde):,})" in rows["garde: taker wins"][i]
        games = pd.read_parquet(tmp_path / "runs" / f"{preset}-games30-seed2" / "games")
        assert rows["games (deals a game)"][i] == f"30 ({4 * seats})" and len(games) == 30  # 4 deals a player
        totals = games[[f"total_{s}" for s in range(seats)]].to_numpy()
        tied = int(((totals == totals.max(axis=1, keepdims=True)).sum(axis=1) > 1).sum())
        assert rows["tied at the top"][i].startswith(f"{100 * tied / 30:.1f} %")
        wins = [int(((totals.argmax(axis=1) == s) & ((totals == totals.max(axis=1, keepdims=True)).sum(axis=1) == 1)).sum())
                for s in range(seats)]
        assert [c.split(" %")[0] for c in rows["wins outright, by seat"][i].split("; ")] == [
            f"{100 * w / 30:.1f}" for w in wins]
    assert studies.kept_sections(doc)[1].startswith(tables.BEGIN) and studies.kept_sections(doc)[1].endswith(tables.END)
