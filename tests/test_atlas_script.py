"""scripts/atlas.py (docs/atlas.md): the page written from a stated seed, its skill figures those of the runs'
own data counted here, its charts beside it and linked, and the runs reused when it runs again; the published
page is there with its charts."""
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.needs_jit("a few hundred games of heuristic play per variant")
def test_the_atlas_page(tmp_path):
    doc = tmp_path / "docs" / "atlas.md"
    doc.parent.mkdir()
    cmd = [sys.executable, "scripts/atlas.py", "--games", "30", "--seed", "4", "--out", str(tmp_path / "runs"),
           "--doc", str(doc)]
    stamps = []
    for _ in range(2):  # the second time reuses the runs
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        stamps.append(sorted(p.stat().st_mtime_ns for p in (tmp_path / "runs" / "runs").rglob("*.parquet")))
    assert stamps[0] == stamps[1]
    text = doc.read_text()
    assert "python scripts/atlas.py --games 30 --seed 4" in text and "## What it shows" in text
    for png in re.findall(r"\]\((atlas/[^)]+\.png)\)", text):
        assert (doc.parent / png).stat().st_size > 5000
    assert len(re.findall(r"\]\((atlas/[^)]+\.png)\)", text)) == 6  # with the skill charts alone at 4, 3 and 2
    row = next(line for line in text.splitlines() if line.startswith("| stronger player's paired win rate"))
    header = next(line for line in text.splitlines() if line.startswith("| figure |"))
    names = [c.strip() for c in header.strip("|").split("|")][1:]
    cells = dict(zip(names, [c.strip() for c in row.strip("|").split("|")][1:]))
    for name in ("cardems", "zone", "classic"):
        g1 = pd.read_parquet(tmp_path / "runs" / "runs" / f"{name}-ab" / "games").set_index("game_id")
        g2 = pd.read_parquet(tmp_path / "runs" / "runs" / f"{name}-ba" / "games").set_index("game_id")
        score = (((g1["winner"] == 0) + 0.5 * (g1["winner"] == -1)) + ((g2["winner"] == 1) + 0.5 * (g2["winner"] == -1))) / 2
        assert float(cells[name].split(" %")[0]) == pytest.approx(100 * score.mean(), abs=0.051)
        assert "(n=30 pairs)" in cells[name]
    # cutthroat, each player alone: the stronger's games won from each seat, counted here from its four tables
    row = next(line for line in text.splitlines() if line.startswith("| stronger player's games won (alone"))
    won = sum(int((pd.read_parquet(tmp_path / "runs" / "runs" / f"cutthroat-seat{k}" / "games")["winner"] == k).sum())
              for k in range(4))
    cell = row.strip("|").split("|")[1].strip()
    assert float(cell.split(" %")[0]) == pytest.approx(100 * won / 120, abs=0.051) and "(n=120 seat-games" in cell
    assert "**Cutthroat**" in text and "**Cutthroat for three**" in text and "**Two players**" in text


def test_the_published_page_and_its_charts():
    doc = ROOT / "docs" / "atlas.md"
    text = doc.read_text()
    assert re.search(r"^python scripts/atlas\.py", text, re.MULTILINE) and "## What it shows" in text
    pngs = re.findall(r"\]\((atlas/[^)]+\.png)\)", text)
    assert len(pngs) == 6 and all((doc.parent / p).exists() for p in pngs)
    assert "* **Jokers.** With the two jokers as top spades (`zone+jokers=true`" in text  # Joker Spades on 002's zone


@pytest.mark.slow
@pytest.mark.needs_jit("a few games of heuristic play per table")
def test_the_tarot_atlas_page(tmp_path):
    doc = tmp_path / "docs" / "atlas-tarot.md"
    doc.parent.mkdir()
    cmd = [sys.executable, "scripts/atlas.py", "--game", "tarot", "--games", "6", "--seed", "4",
           "--out", str(tmp_path / "runs"), "--doc", str(doc)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert "python scripts/atlas.py --game tarot --games 6 --seed 4" in text and "## What it shows" in text
    pngs = re.findall(r"\]\((atlas-tarot/[^)]+\.png)\)", text)
    assert len(pngs) == 3 and all((doc.parent / p).stat().st_size > 5000 for p in pngs)
    # the skill row's fft3 cell: the stronger's score in seat r on the field table minus the weaker's on table r
    row = next(line for line in text.splitlines() if line.startswith("| stronger − weaker, points a deal"))
    header = next(line for line in text.splitlines() if line.startswith("| figure |"))
    cells = dict(zip([c.strip() for c in header.strip("|").split("|")][1:],
                     [c.strip() for c in row.strip("|").split("|")][1:]))
    runs = tmp_path / "runs" / "runs"
    field = pd.read_parquet(runs / "fft3-field" / "deals").sort_values("deal_id", ignore_index=True)
    gains = [field[f"score_{r}"] - pd.read_parquet(runs / f"fft3-seat{r}" / "deals").sort_values(
        "deal_id", ignore_index=True)[f"score_{r}"] for r in range(3)]
    shown = cells["fft3"].split(" ")[0]
    half_unit = 0.5 * 10 ** -len(shown.partition(".")[2]) + 1e-9  # the printed value's rounding
    assert float(shown) == pytest.approx(pd.concat(gains).mean(), abs=half_unit)
    assert f"(n={3 * len(field):,} seat-deals, 6 games)" in cells["fft3"]


def test_the_published_tarot_page_and_its_charts():
    doc = ROOT / "docs" / "atlas-tarot.md"
    text = doc.read_text()
    assert re.search(r"^python scripts/atlas\.py --game tarot", text, re.MULTILINE) and "## What it shows" in text
    pngs = re.findall(r"\]\((atlas-tarot/[^)]+\.png)\)", text)
    assert len(pngs) == 3 and all((doc.parent / p).exists() for p in pngs)
