"""The Tarot evidence script runs end to end on a tiny workload and writes its Markdown."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.needs_jit("twelve runs of 300 deals of heuristic play: minutes as pure Python")
def test_tiny_tarot_evidence(tmp_path):
    out = tmp_path / "evidence.md"
    done = subprocess.run([sys.executable, "scripts/tarot_evidence.py", "--deals", "300", "--chelem-deals", "300",
                           "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.count("(n=300)") >= 12  # two cells for each of the six pairs
    assert "| garde |" in text and "## Heuristic self-play" in text
