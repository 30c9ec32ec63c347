"""The Tarot pimc evidence script runs end to end on a tiny workload and writes its section between its markers,
keeping the rest of the file."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.needs_jit("rotations with a searching seat: minutes as pure Python")
def test_tiny_tarot_pimc_evidence(tmp_path):
    out = tmp_path / "evidence.md"
    out.write_text("# Tarot strategy evidence\n\nkept above\n\n<!-- tarot-pimc:start -->\nold\n<!-- tarot-pimc:end -->\n"
                   "\nkept below\n")
    cmd = [sys.executable, "scripts/tarot_pimc_evidence.py", "--spec", "pimc:samples=2,playouts=20,deal_playouts=20",
           "--against", "pimc:samples=2,playouts=20,bids=0,discard=0", "--deals", "12", "--speed-deals", "2",
           "--threads", "1", "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("# Tarot strategy evidence\n\nkept above\n") and text.endswith("kept below\n")
    assert "old" not in text and text.count("<!-- tarot-pimc:start -->") == 1
    assert "## pimc against heuristic" in text and "(n=12)" in text and "card decisions a second" in text
    assert "bid decisions a second" in text and "discard cards a second" in text
    assert "| difference |" in text and text.count("(n=12)") == 2  # the rotations, and the paired difference
