"""The studies script (docs/studies.md) runs end to end on a tiny workload, writes its Markdown and charts,
links only charts that exist, and reuses its runs when run again."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # about 150 small runs: half a minute
@pytest.mark.needs_jit("about 150 small runs of heuristic play: many minutes as pure Python")
def test_tiny_studies(tmp_path):
    doc = tmp_path / "docs" / "studies.md"
    cmd = [sys.executable, "scripts/studies.py", "--games", "6", "--selfplay", "30", "--seed", "4",
           "--out", str(tmp_path / "runs"), "--doc", str(doc)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    for heading in ("## Findings", "## Study 1", "### cardems", "### zone", "### classic", "## Study 2",
                    "### How aggressive", "### Which hands, which score", "what-if"):
        assert heading in text, heading
    assert "clustered by game" in text and "(simultaneous" in text and "confirmation" in text.lower()
    assert "tricksim sweep 'heuristic:bag_mode=" in text and "tricksim nil " in text
    # every chart the page links exists, and every chart written is linked
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(links) == 3 + 2 + 2 * 3 + 1
    for link in links:
        assert (doc.parent / link).is_file() and (doc.parent / link).stat().st_size > 1000, link
    assert {doc.parent / link for link in links} == set((doc.parent / "studies").glob("*.png"))
    # a second run reuses every run and rewrites the page
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    runs = len(list((tmp_path / "runs").rglob("manifest.json")))
    assert f"all {runs} runs simulated from scratch" in text
    again_text = doc.read_text()
    assert f"when its {runs} runs were simulated from scratch" in again_text
    assert "rewritten from the kept runs" in again_text
