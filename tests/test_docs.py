"""The user docs say what the code does: the README's Python example runs, the rules page names every flag."""
import re
from dataclasses import fields
from pathlib import Path

from tricksim.simulator.games.spades.rules import CHOICES, PRESETS, SpadesRules

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_python_example_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = re.search(r"## Python\n\n```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL).group(1)
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 (the README's own example, run as a user would)
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


# a path in the docs: folders and a file name with an extension (``tests/...``, ``simulator/rundir.py``); a
# placeholder (``<game>``, ``*``, ``{a,b}``, an upper-case folder such as ``DIR/`` or ``RUN/``) is no path
DOC_PATH = re.compile(r"(?<![\w./~<>*{}$-])((?:[\w.-]+/)+[\w.-]+\.(?:py|md|json|toml|sh|txt|csv|png))(?![\w*<>{}])")


def named_paths(text: str) -> list[str]:
    return [p for p in DOC_PATH.findall(text) if not p.split("/")[0].isupper() and not p.startswith("data/")]


def test_the_path_finder_finds_a_planted_path():
    assert named_paths("see `tests/no/such_test.py` and simulator/rundir.py, not DIR/manifest.json or data/x.csv") \
        == ["tests/no/such_test.py", "simulator/rundir.py"]


def test_every_path_the_readme_and_docs_name_exists():
    """A file the README or a page of docs/ names (from the repository's root, or a page's own folder) exists."""
    missing = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for path in named_paths(doc.read_text()):
            if not ((ROOT / path).exists() or (doc.parent / path).exists()):
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert missing == []


MAIN_JOB = "tricksim simulate spades --preset classic --games 20000 --seed 1 --out data/classic --overwrite"
SETUP = (f"pip install -e . && {MAIN_JOB}", "pip install -e '.[test]' && python3 -m pytest -q")


def test_the_readme_set_up_is_two_commands_and_names_the_python_it_needs():
    import tomllib

    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert tuple(b.strip() for b in re.findall(r"```bash\n(.*?)```", setup, re.DOTALL)) == SETUP
    needs = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert needs == ">=3.11" and "Python ≥ 3.11" in setup and "virtual environment" in setup


def test_the_readme_shows_every_command_and_the_search_player():
    from click import Context

    from tricksim.cli import cli

    readme = (ROOT / "README.md").read_text()
    for name in cli.list_commands(Context(cli)):
        if name not in ("summary", "verify"):  # the summary follows every simulate; verify is in docs/output.md
            assert f"tricksim {name} " in readme, name
    assert "pimc" in readme


def test_the_package_description_names_every_game():
    import tomllib

    from tricksim.simulator.family import names

    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    assert "next" not in description
    assert all(game.lower() in description.lower() for game in names())
