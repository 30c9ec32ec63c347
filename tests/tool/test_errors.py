"""One error hierarchy for every layer, turned into one line and exit code 2 in one place; the command
line's parameter types check a value's form without loading a strategy or a kernel."""
import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tricksim
from tricksim.cli import main
from tricksim.simulator import errors

ROOT = Path(__file__).resolve().parents[2]


def one_line_error(args, capsys) -> str:
    """What the installed command prints for ``args``, checked to be one line with exit code 2."""
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith("Error: ") and err.count("\n") == 1, err
    return err


def test_every_error_class_of_the_package_is_a_tricksim_error():
    """No layer defines an error of its own outside the hierarchy (a new one would escape the CLI's mapping)."""
    outside = []
    for folder in ("simulator", "strategies", "analysis", "tricksim"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef) and any(
                        getattr(b, "id", getattr(b, "attr", "")) in ("ValueError", "Exception", "RuntimeError")
                        for b in node.bases) and path.name != "errors.py":
                    outside.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert not outside, outside
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.TricksimError)
    assert tricksim.TricksimError is errors.TricksimError


def test_the_layers_raise_their_errors_under_the_old_names():
    from tricksim.analysis.io import AnalysisError
    from tricksim.jobs import JobError
    from tricksim.simulator.rules import RulesError
    from tricksim.strategies.registry import StrategyError

    for cls in (AnalysisError, JobError, RulesError, StrategyError):
        assert issubclass(cls, tricksim.TricksimError) and issubclass(cls, ValueError)


@pytest.mark.parametrize("call, kind, fragment", [
    (lambda: tricksim.simulate("spades", hands=10, preset="nope"), "RulesError", "unknown preset 'nope'"),
    (lambda: tricksim.simulate("spades", hands=10, seats="genius"), "StrategyError", "unknown spades strategy"),
    (lambda: tricksim.simulate("bridge", hands=10), "FamilyError", "unknown game 'bridge'"),
    (lambda: tricksim.simulate("tarot", deals=10, teams={0: "random"}), "TricksimError", "tarot has no teams"),
])
def test_the_api_raises_the_layer_error_itself(call, kind, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(tricksim.TricksimError) as e:
        call()
    assert type(e.value).__name__ == kind and fragment in str(e.value)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_cli_maps_every_layer_error_in_one_place():
    """No command catches the hierarchy itself: the group does, for all of them."""
    from tricksim import cli as cli_module

    source = inspect.getsource(cli_module)
    handlers = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ExceptHandler)]
    caught = [ast.unparse(h.type) for h in handlers if h.type is not None]
    assert caught.count("TricksimError") == 1, caught
    assert not any(name in c for c in caught for name in errors.__all__ if name != "TricksimError"), caught


@pytest.mark.parametrize("args, fragment", [
    (["--rule", "target"], "Invalid value for '--rule': bad rule override 'target': expected key=value"),
    (["--strategy", "x="], "Invalid value for '--strategy': bad strategy 'x='"),
    (["--strategy", "heuristic:nil_threshold"], "bad strategy parameter 'nil_threshold'"),
    (["--seat", "x=heuristic"], "Invalid value for '--seat': bad seat strategy 'x=heuristic': expected N=SPEC"),
    (["--team", "0"], "Invalid value for '--team': bad team strategy '0': expected T=SPEC"),
    (["--seat", "1=heuristic", "--seat", "1=simple"], "Invalid value for '--seat': 1 is given twice"),
    (["--team", "0=heuristic", "--team", "0=simple"], "Invalid value for '--team': 0 is given twice"),
])
def test_parameter_types_name_the_option(args, fragment, tmp_path, capsys):
    err = one_line_error(["simulate", "spades", "--games", "3", "--out", str(tmp_path / "X"), *args], capsys)
    assert fragment in err, err
    assert not (tmp_path / "X").exists()


@pytest.mark.parametrize("args, fragment", [
    (["sweep", "heuristic:nil_threshold", "--vs", "heuristic"], "Invalid value for 'GRID': bad sweep item"),
    (["sweep", "heuristic:nil_threshold=0..1:0.5", "--vs", "a=b="], "Invalid value for '--vs': bad strategy"),
    (["compare", "heuristic", "x="], "bad strategy 'x='"),
])
def test_parameter_types_of_the_study_commands(args, fragment, capsys):
    assert fragment in one_line_error(args, capsys)


def test_a_bad_form_is_refused_without_loading_numba(tmp_path):
    """The form checks read no strategy module: a mistyped spec answers at once, even on an empty cache."""
    code = ("import sys; from click.testing import CliRunner; from tricksim.cli import cli; "
            f"r = CliRunner().invoke(cli, ['simulate', 'spades', '--games', '3', '--out', {str(tmp_path / 'X')!r}, "
            "'--rule', 'target=200', '--seat', '1=heuristic:bag_mode']); "
            "assert r.exit_code == 2 and 'bag_mode' in r.output, r.output; print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ a message names the caller's option (#25)
FLAG = re.compile(r"(?<![\w-])--[a-z][\w-]*")
CLI_TEXT = re.compile(r"\btricksim [a-z]")  # a literal that shows a command line ("tricksim nil --what-if")


def flag_literals(source: str, name: str = "<source>") -> list[str]:
    """The string literals of ``source`` (f-strings' parts included; docstrings and comments not) that spell
    a command-line flag, except those that show a whole ``tricksim ...`` command line."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [f"{name}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and FLAG.search(node.value) and not CLI_TEXT.search(node.value)]


def test_the_flag_finder_finds_a_planted_flag():
    planted = ('"""Module: run with --resume."""\n'
               'def f(out):\n'
               '    """Like ``tricksim simulate --out DIR``."""\n'
               '    # rerun with --resume\n'
               '    help = "for studies: tricksim nil --what-if"\n'
               '    raise RunDirError(f"{out} is not empty: pass --overwrite")\n'
               'def g():\n'
               '    raise RunError("rerun with --resume")\n')
    found = flag_literals(planted)
    assert sorted(line.split(":")[1] for line in found) == ["6", "8"], found
    assert flag_literals('raise RunError(f"rerun with {option(\'resume\')}")') == []


def test_no_message_outside_the_command_line_spells_a_flag():
    """The core, strategies, analysis and jobs name options with errors.option(): their messages reach Python
    API users too, for whom ``--resume`` is no spelling (the command line renders the flags)."""
    found = []
    for folder in ("simulator", "strategies", "analysis", "tricksim/jobs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += flag_literals(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, found


def test_option_spells_the_keyword_and_in_the_command_line_the_flag():
    assert (errors.option("resume"), errors.option("out", "data/x"), errors.option("out", None)) == \
        ("resume=True", "out=data/x", "out")
    assert errors.option("what_if", api="nil_what_if") == "nil_what_if"
    with errors.flag_spelling():
        assert (errors.option("resume"), errors.option("out", "data/x"), errors.option("out", None)) == \
            ("--resume", "--out data/x", "--out")
        assert (errors.option("shard_size", "9"), errors.option("what_if", api="nil_what_if")) == \
            ("--shard-size 9", "--what-if")
    assert errors.option("resume") == "resume=True"  # after the command, the API's spelling again


def test_a_non_empty_out_folder_reads_in_the_callers_terms(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    err = one_line_error(["simulate", "spades", "--hands", "10", "--out", str(out)], capsys)
    assert err == f"Error: --out {out} is not empty: pass --overwrite to replace it or --resume to finish it\n"
    with pytest.raises(tricksim.TricksimError) as e:
        tricksim.api.execute(tricksim.api.plan("spades", hands=10), out)
    assert str(e.value) == f"out={out} is not empty: pass overwrite=True to replace it or resume=True to finish it"
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_resuming_another_run_reads_in_the_callers_terms(tmp_path, capsys):
    out = tmp_path / "run"
    tricksim.api.execute(tricksim.api.plan("spades", hands=50, seed=1, seats="random"), out)
    err = one_line_error(["simulate", "spades", "--hands", "50", "--seed", "2", "--strategy", "random", "--out",
                          str(out), "--resume"], capsys)
    assert err == (f"Error: --resume: {out} was started with different options (seed); rerun with the original "
                   "options or use --overwrite\n")
    with pytest.raises(tricksim.TricksimError) as e:
        tricksim.api.execute(tricksim.api.plan("spades", hands=50, seed=2, seats="random"), out, resume=True)
    assert str(e.value) == (f"resume=True: {out} was started with different options (seed); rerun with the original "
                            "options or use overwrite=True")
