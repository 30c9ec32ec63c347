"""The printed text of the analysis commands on fixed runs, compared with files kept in the repository.

Refactors of the analysis, the jobs, the API and the command line must change no figure and no label
that a user reads: ``summary``, ``nil`` (with ``--what-if``), ``bidding``, ``compare`` (a Spades match,
a round robin, a Tarot rotation) and ``report`` (its HTML and Markdown; the SVG charts embed a date
and random ids, so they are left out) are run on small fixed runs and their output is compared, text
for text, with ``tests/tool/printed_outputs/``. The players here draw a random number only in the Tarot heuristic's
Chelem play-outs (on the rare hands of a few losers), so a change of the policies' random streams can move these
outputs only through those hands.

A change that must change what is printed (a bug fix) rewrites the files in its own commit, naming them:

    python tests/tool/test_printed_outputs.py --write
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tricksim.cli import cli

EXPECTED = Path(__file__).resolve().parent / "printed_outputs"

# name -> command line; run in one folder, in this order (the runs first), with relative paths, so
# the printed paths are the same wherever the folder is
RUNS = {
    "simulate-games": ["simulate", "spades", "--preset", "classic", "--games", "60", "--seed", "11",
                       "--seat", "1=cautious=heuristic:bag_mode=avoid", "--shard-size", "25", "--out", "sg"],
    "simulate-hands": ["simulate", "spades", "--preset", "zone", "--hands", "3000", "--seed", "12",
                       "--strategy", "simple", "--team", "0=heuristic", "--out", "sh"],
    "simulate-deals": ["simulate", "tarot", "--deals", "2000", "--seed", "13", "--shard-size", "700",
                       "--out", "td"],
}
COMMANDS = {
    "summary-games": ["summary", "sg"],
    "summary-hands": ["summary", "sh"],
    "summary-deals": ["summary", "td"],
    "nil-pooled-by-spades": ["nil", "sh", "sg", "--by", "spades"],
    "nil-held-by-high_spade": ["nil", "sg", "--by", "high_spade", "--hand", "held"],
    "nil-by-seat": ["nil", "sh", "--by", "seat"],
    "nil-by-score": ["nil", "sg", "--by", "score"],
    "nil-by-strategy": ["nil", "sh", "sg", "--by", "strategy"],
    "nil-what-if": ["nil", "sh", "--what-if", "300", "--seed", "5", "--by", "spades"],
    "bidding": ["bidding", "td"],
    "bidding-by-oudlers": ["bidding", "td", "--by", "oudlers"],
    "compare-spades": ["compare", "heuristic", "avoid=heuristic:bag_mode=avoid", "--games", "40", "--seed", "3",
                       "--out", "cmp2"],
    "compare-round-robin": ["compare", "a=heuristic", "b=heuristic:bag_mode=avoid", "c=simple", "--preset", "zone",
                            "--games", "20", "--seed", "4", "--out", "cmp3"],
    "compare-tarot": ["compare", "heuristic", "tight=heuristic:prise_threshold=90", "--game", "tarot",
                      "--deals", "60", "--seed", "3", "--out", "cmpt"],
    "report": ["report", "sg", "sh", "td", "--out", "rep", "--title", "fixed runs"],
}
REPORT_FILES = ("report.html", "summary.md")
# the commands whose standard error is progress (timings) rather than text to keep
PROGRESS_ON_STDERR = ("simulate", "compare")


def capture(folder: Path) -> dict[str, str]:
    """file name -> text: every command's printed output (and the report's files), run in ``folder``."""
    out = {}
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        for name, args in {**RUNS, **COMMANDS}.items():
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 0, (name, r.output, r.exception)
            out[f"{name}.txt"] = r.stdout
            if args[0] not in PROGRESS_ON_STDERR and r.stderr:
                out[f"{name}.stderr.txt"] = r.stderr
        for file in REPORT_FILES:
            out[f"report-{file}"] = (folder / "rep" / file).read_text(encoding="utf-8")
    finally:
        os.chdir(cwd)
    return out


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    return capture(tmp_path_factory.mktemp("printed"))


def test_the_expected_files_are_exactly_the_captured_ones(printed):
    assert sorted(p.name for p in EXPECTED.iterdir()) == sorted(printed)


@pytest.mark.parametrize("name", sorted(p.name for p in EXPECTED.iterdir()) if EXPECTED.is_dir() else [])
def test_printed_output_unchanged(printed, name):
    expected = (EXPECTED / name).read_text(encoding="utf-8")
    assert printed.get(name) == expected, f"{name} differs from tests/tool/printed_outputs/{name}"


def main(argv: list[str]) -> int:
    import tempfile

    if argv != ["--write"]:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        texts = capture(Path(tmp))
    EXPECTED.mkdir(exist_ok=True)
    for old in EXPECTED.iterdir():
        old.unlink()
    for name, text in texts.items():
        (EXPECTED / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(texts)} files to {EXPECTED}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
