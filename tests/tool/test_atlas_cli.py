"""``tricksim atlas spades`` on the command line: one-line errors with exit code 2, a tiny atlas written with
its progress bar, and the runs reused by a second call."""
import json

import pytest
from cli_exit import run_main


@pytest.mark.parametrize("args, message", [
    (["atlas", "spades", "--games", "0"], "Error: invalid --games 0: allowed a whole number from 2"),
    (["atlas", "spades", "--games", "5", "--variants", "cardems,bridge"],
     "Error: unknown variant 'bridge': a variant is PRESET[+flag=value...] with PRESET one of cardems | zone | classic"),
    (["atlas", "spades", "--games", "5", "--variants", "zone+target=abc"],
     "Error: variant 'zone+target=abc': invalid value target='abc': allowed an integer from 1 to 100000"),
    (["atlas", "spades", "--games", "5", "--players", "heuristic,genius"],
     "Error: unknown spades strategy 'genius': allowed heuristic | pimc | random | simple"),
    (["atlas", "spades", "--games", "5", "--players", "heuristic"], "Error: --players must be two strategy specs"),
    (["atlas", "bridge"], "Error: no variant atlas for game 'bridge': allowed spades | tarot"),
    (["atlas", "spades", "--games", "5", "--scheduler", "tcp://127.0.0.1:1"], "Error: --scheduler needs --engine dask"),
    (["atlas", "tarot", "--games", "5", "--variants", "cardavia,belote"],
     "Error: unknown variant 'belote': a variant is PRESET[+flag=value...] with PRESET one of "),
    (["atlas", "tarot", "--games", "5", "--variants", "cardavia+excuse_lead=sometimes"],
     "Error: variant 'cardavia+excuse_lead=sometimes': invalid value excuse_lead='sometimes': allowed allowed | "
     "forbidden"),
    (["atlas", "tarot", "--games", "5", "--deals", "5"], "Error: give --games or --deals, not both"),
    (["atlas", "tarot", "--deals", "1"], "Error: invalid --deals 1: allowed a whole number from 2"),
    (["atlas", "tarot", "--games", "5", "--players", "heuristic,genius"],
     "Error: unknown tarot strategy 'genius': allowed heuristic"),
    (["atlas", "tarot", "--games", "5", "--players", "heuristic"], "Error: --players must be two strategy specs"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(args + (["--out", "X"] if args[1] in ("spades", "tarot") else []), capsys)
    assert code == 2
    assert err.startswith(message), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "X").exists()


def test_help_lists_the_games_with_an_atlas(capsys):
    code, out, _ = run_main(["atlas", "--help"], capsys)
    assert code == 0 and "spades" in out and "tarot" in out
    code, out, _ = run_main(["atlas", "tarot", "--help"], capsys)
    flat = out.replace(" ", "").replace("\n", "")
    assert code == 0 and "--deals" in out and "--engine" in out and "cardavia+excuse_lead=forbidden" in flat
    code, out, _ = run_main(["atlas", "spades", "--help"], capsys)
    assert code == 0 and "--variants" in out and "zone+nil=false" in out.replace(" ", "").replace("\n", "")


def test_a_tiny_atlas_and_its_second_run(capsys, tmp_path):
    out = tmp_path / "atlas"
    args = ["atlas", "spades", "--games", "4", "--variants", "cardems,zone+nil=false", "--seed", "3", "--out", str(out)]
    code, text, err = run_main(args, capsys)
    assert code == 0, err
    assert "2 variants (cardems, zone+nil=false)" in text and "wrote" in text
    assert "atlas: 100%" in err  # the progress bar over the whole atlas, on stderr
    for f in ("atlas.html", "atlas.md", "atlas.csv", "atlas_skill.png", "atlas_distributions.svg"):
        assert (out / f).exists(), f
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert runs == ["cardems-ab", "cardems-ba", "zone+nil=false-ab", "zone+nil=false-ba"]

    def kept():
        return {p: (json.loads((out / "runs" / p / "manifest.json").read_text())["run_id"],
                    sorted(f.stat().st_mtime_ns for f in (out / "runs" / p).rglob("*.parquet"))) for p in runs}

    before = kept()
    code, _, err = run_main(args, capsys)
    assert code == 0, err
    assert kept() == before  # reused: the same runs, no shard written again


def test_a_tiny_tarot_atlas_and_its_second_run(capsys, tmp_path):
    out = tmp_path / "atlas"
    args = ["atlas", "tarot", "--games", "2", "--variants", "fft3,fft5", "--seed", "3", "--out", str(out)]
    code, text, err = run_main(args, capsys)
    assert code == 0, err
    assert "2 variants (fft3, fft5)" in text and "wrote" in text
    assert "atlas: 100%" in err and "10.0/10.0" in err  # the progress bar over the tables: 4 + 6
    for f in ("atlas.html", "atlas.md", "atlas.csv", "atlas_skill.png", "atlas_distributions.svg"):
        assert (out / f).exists(), f
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert runs == sorted([f"fft3-{t}" for t in ("field", "seat0", "seat1", "seat2")]
                          + [f"fft5-{t}" for t in ("field", "seat0", "seat1", "seat2", "seat3", "seat4")])
    ids = {p: json.loads((out / "runs" / p / "manifest.json").read_text())["run_id"] for p in runs}
    code, _, err = run_main(args, capsys)
    assert code == 0, err
    assert ids == {p: json.loads((out / "runs" / p / "manifest.json").read_text())["run_id"] for p in runs}


def _run_docs_example(capsys, tmp_path, monkeypatch, heading, game, size, python_size, small, python_small, page):
    """The atlas section ``heading`` of docs/analysis.md: its ``tricksim atlas GAME`` command (its ``size`` made
    ``small``), which must write ``page`` below ``tmp_path``, and its Python (``python_size`` made ``python_small``)
    run in ``tmp_path``; returns what the Python printed."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text()
    section = text[text.index(heading):]
    section = section[:section.index("\n## ", 1)]
    command = re.search(rf"```bash\n(tricksim atlas {game} [^\n]+)\n```", section).group(1)
    python = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    assert size in command and python_size in python
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(command.replace(size, small).split()[1:], capsys)
    assert code == 0, err
    assert (tmp_path / page).exists()
    exec(compile(python.replace(python_size, python_small), "analysis.md", "exec"), {})  # noqa: S102 (the page's own example)
    return capsys.readouterr().out


def test_the_examples_of_docs_analysis_run(capsys, tmp_path, monkeypatch):
    """The atlas section of docs/analysis.md: its command and its Python, at a tiny size (games 500 -> 6)."""
    printed = _run_docs_example(capsys, tmp_path, monkeypatch, "## The Spades variant atlas", "spades",
                                "--games 500", "games=500", "--games 6", "games=6", "data/atlas-demo/atlas.html")
    assert "paired win rate" in printed and (tmp_path / "data" / "atlas-py" / "atlas.md").exists()


def test_the_tarot_examples_of_docs_analysis_run(capsys, tmp_path, monkeypatch):
    """The Tarot atlas section of docs/analysis.md: its command and its Python, at a tiny size."""
    printed = _run_docs_example(capsys, tmp_path, monkeypatch, "## The Tarot variant atlas", "tarot",
                                "--games 300", "deals=3000", "--games 3", "deals=30",
                                "data/atlas-tarot-demo/atlas.html")
    assert "points a deal" in printed and (tmp_path / "data" / "atlas-tarot-py" / "atlas.md").exists()
