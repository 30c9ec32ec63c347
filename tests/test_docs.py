"""The user docs say what the code does: the README's Python example runs, the rules page names every flag."""
import re
from dataclasses import fields
from pathlib import Path

from tricksim.simulator.games.spades.rules import CHOICES, PRESETS, SpadesRules

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_python_example_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = re.search(r"## Python\n\n```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert "score_0" in capsys.readouterr().out


def test_the_readme_stays_short():
    assert len((ROOT / "README.md").read_text().splitlines()) < 100


def test_the_rules_page_names_every_spades_flag_preset_and_value():
    text = (ROOT / "docs" / "rules.md").read_text()
    for f in fields(SpadesRules):
        assert f"`{f.name}" in text, f.name
    for name, values in CHOICES.items():
        for v in values:
            assert v in text, f"{name}={v}"
    for preset in PRESETS:
        assert f"`{preset}`" in text, preset
