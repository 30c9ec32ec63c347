"""The layers point one way (docs/architecture.md), checked on every import statement of the package.

    tricksim.cli, tricksim.options    the command line and its parameter types: may import anything
    tricksim.commands                 the commands each game adds to it: likewise
    tricksim.api                      the Python API (the command line is a thin layer over it): all but the CLI
    tricksim.jobs                     study orchestration: anything but the API and the command line
    tricksim.strategies, .analysis    above the core, beside each other: the core and themselves
    tricksim.simulator                the core: only itself

Imports inside functions count too. Scripts use the public API only (no private names).
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"simulator": "tricksim.simulator", "strategies": "tricksim.strategies", "analysis": "tricksim.analysis",
           "tricksim": "tricksim"}
ALLOWED = {
    "tricksim.simulator": ("tricksim.simulator",),
    "tricksim.strategies": ("tricksim.simulator", "tricksim.strategies"),
    "tricksim.analysis": ("tricksim.simulator", "tricksim.analysis"),
    "tricksim.jobs": ("tricksim.simulator", "tricksim.strategies", "tricksim.analysis", "tricksim.jobs"),
    "tricksim.api": ("tricksim.simulator", "tricksim.strategies", "tricksim.analysis", "tricksim.jobs",
                     "tricksim.api"),
    "tricksim.cli": ("tricksim",),
    "tricksim.options": ("tricksim",),  # the command line's click parameter types
    "tricksim.commands": ("tricksim",),  # the commands each game adds to the command line
    "tricksim": ("tricksim.simulator", "tricksim.api"),  # the package root re-exports the API
}


def module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    name = ".".join([FOLDERS[folder], *rest])
    return name.removesuffix(".__init__")


def layer(module: str) -> str:
    for prefix in sorted(ALLOWED, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return "tricksim"  # the package root: tricksim/__init__.py


def imports(path: Path, module: str):
    """(line, imported module) of every import in the file, relative ones resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if node.module is None else base


SOURCES = sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_imports_point_down(path):
    module = module_name(path)
    allowed = ALLOWED.get(layer(module), ("tricksim.simulator",))
    wrong = [f"line {line}: {name}" for line, name in imports(path, module)
             if (name == "tricksim" or name.startswith("tricksim.")) and name != "tricksim"
             and not any(name == a or name.startswith(a + ".") for a in allowed)]
    assert not wrong, f"{module} ({layer(module)}) may import only {', '.join(allowed)}: {'; '.join(wrong)}"


def test_the_checker_sees_a_wrong_import(tmp_path):
    # the core importing a strategy, inside a function, is caught
    bad = ROOT / "simulator" / "engine.py"
    found = [n for _, n in imports(bad, "tricksim.simulator.engine")]
    assert "tricksim.simulator.family" in found
    src = tmp_path / "x.py"
    src.write_text("def f():\n    from tricksim.strategies.registry import get\n")
    assert [n for _, n in imports(src, "tricksim.simulator.x")] == ["tricksim.strategies.registry"]


SCRIPTS = sorted((ROOT / "scripts").glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_scripts_use_the_public_api(path):
    private = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tricksim"):
            private += [f"line {node.lineno}: {a.name}" for a in node.names if a.name.startswith("_")]
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                and isinstance(node.value, ast.Name) and node.value.id in ("engine", "batch", "kernel", "spades",
                                                                         "rundir", "registry", "tables"):
            private.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    assert not private, f"{path.name} uses private names: {'; '.join(private)}"


def test_pyproject_lists_every_package():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {module_name(p) for folder in FOLDERS for p in (ROOT / folder).rglob("__init__.py")}
    assert found == listed, f"missing from pyproject.toml: {sorted(found - listed)}; not a package: {sorted(listed - found)}"


# ------------------------------------------------------------------ one folder per game
GAME_LAYERS = {"simulator/games": "tricksim.simulator.games", "strategies": "tricksim.strategies",
               "analysis/games": "tricksim.analysis.games", "tricksim/jobs": "tricksim.jobs",
               "tricksim/commands": "tricksim.commands"}


def game_names() -> tuple[str, ...]:
    from tricksim.simulator.family import names

    return names()


def game_words() -> set[str]:
    """What names a game: its name and its presets' names."""
    from tricksim.simulator.family import family

    return {w for g in game_names() for w in (g, *family(g).presets)}


def game_of_path(path: Path) -> str | None:
    """The game whose folder holds ``path``, or None for a module every game shares."""
    rel = path.relative_to(ROOT).as_posix()
    for folder in GAME_LAYERS:
        for game in game_names():
            if rel.startswith(f"{folder}/{game}/"):
                return game
    return None


def game_of_module(name: str) -> str | None:
    """The game whose folder holds module ``name``, or None."""
    for package in GAME_LAYERS.values():
        head, _, rest = name.partition(package + ".")
        if not head and rest and rest.split(".")[0] in game_names():
            return rest.split(".")[0]
    return None


def string_literals(tree: ast.AST):
    """(line, text) of every string constant that is not a docstring (f-string parts included)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def named_games(text: str, words) -> list[str]:
    import re

    return [w for w in sorted(words) if re.search(rf"(?<![A-Za-z_]){re.escape(w)}(?![A-Za-z_])", text, re.IGNORECASE)]


NEUTRAL = [p for p in SOURCES if game_of_path(p) is None]


@pytest.mark.parametrize("path", NEUTRAL, ids=[str(p.relative_to(ROOT)) for p in NEUTRAL])
def test_no_game_is_named_outside_its_folders(path):
    words = game_words()
    found = [f"line {line}: {text!r} names {', '.join(named_games(text, words))}"
             for line, text in string_literals(ast.parse(path.read_text())) if named_games(text, words)]
    assert not found, f"{path.relative_to(ROOT)} names a game outside the game's folders: {'; '.join(found)}"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_only_a_games_own_folders_import_it(path):
    mine = game_of_path(path)
    wrong = [f"line {line}: {name}" for line, name in imports(path, module_name(path))
             if game_of_module(name) not in (None, mine)]
    assert not wrong, (f"{path.relative_to(ROOT)} ({'shared by every game' if mine is None else mine}) imports "
                       f"another game's modules by name: {'; '.join(wrong)}")


def test_the_game_checks_can_fail(tmp_path):
    # a planted literal and a planted import in a shared module are both seen; a docstring is not a literal
    words = game_words()
    src = ('"""A docstring may say spades."""\n'
           'def f():\n    """So may this: tarot."""\n    from tricksim.strategies.spades.heuristic import x\n'
           '    return "spades"\n')
    assert [(line, text) for line, text in string_literals(ast.parse(src)) if named_games(text, words)] == \
        [(5, "spades")]
    assert named_games("Spades: simulate N hands", words) == ["spades"]
    assert named_games("spadesque nil_zone", words) == []
    path = ROOT / "analysis" / "x.py"
    assert game_of_path(path) is None and game_of_path(ROOT / "strategies" / "tarot" / "x.py") == "tarot"
    f = tmp_path / "x.py"
    f.write_text(src)
    assert [game_of_module(n) for _, n in imports(f, "tricksim.analysis.x")] == ["spades"]


def test_no_test_folder_shadows_the_package():
    # tests/ is on sys.path (conftest.py): a folder tests/tricksim would be imported as the package
    # itself under the bare `pytest` launcher, whose sys.path lacks the repository
    assert not (ROOT / "tests" / "tricksim").exists()
