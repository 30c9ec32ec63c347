"""The family record is plain data: reading every family imports no numba, and only ``compute`` loads the
kernels, on its first call (issue #25). The analysis layer relies on it: it takes the games, their modes and
unit tables from the families and keeps no list of its own."""
import dataclasses
import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tricksim.analysis.io import AnalysisError, open_run
from tricksim.simulator import family as families
from tricksim.simulator.family import Family, LazyFunction, default_game, family, names

ROOT = Path(__file__).resolve().parents[2]

READ_EVERY_FAMILY = """
import dataclasses, json, sys
from tricksim.simulator.family import default_game, family, names

seen = {}
for name in names():
    fam = family(name)
    fields = {f.name: getattr(fam, f.name) for f in dataclasses.fields(fam) if f.name != "compute"}
    rules = fam.build_rules(fam.default_preset, [])
    assert isinstance(rules, fam.rules_type) and fam.rules_type().to_dict()
    seen[name] = sorted(fields)
default_game()
before = "numba" in sys.modules
resolved = {name: callable(family(name).compute.resolve()) for name in names()}
print(json.dumps({"fields": seen, "numba_before_compute": before, "resolved": resolved,
                  "numba_after_compute": "numba" in sys.modules}))
"""


def test_reading_every_family_imports_no_numba():
    out = json.loads(subprocess.run([sys.executable, "-c", READ_EVERY_FAMILY], capture_output=True, text=True,
                                    check=True, cwd=ROOT).stdout)
    assert sorted(out["fields"]) == sorted(names()) and len(out["fields"]) >= 2
    every = sorted(f.name for f in dataclasses.fields(Family) if f.name != "compute")
    assert all(fields == every for fields in out["fields"].values())
    assert out["numba_before_compute"] is False
    # the check can fail: resolving compute does load the kernels, and numba with them
    assert all(out["resolved"].values()) and out["numba_after_compute"] is True


@pytest.mark.parametrize("name", names())
def test_compute_resolves_and_computes_every_mode(name):
    from tricksim import api

    fam = family(name)
    for mode in fam.modes:
        cfg = api.plan(name, hand_limit=3 if mode == "games" else None, **{mode: 3})  # a limit only where games are
        tables = fam.compute(cfg, np.arange(3, dtype=np.int64), 1)
        assert sorted(tables) == sorted(fam.tables[mode])
        units = tables[fam.unit_table].num_rows
        assert units == 3 if mode != "games" else units >= 3  # a game is one hand or more


def test_lazy_function_imports_on_first_call_once_and_pickles_by_name():
    import math

    f = LazyFunction("math:sqrt")
    assert f(9.0) == 3.0 and f.resolve() is math.sqrt
    g = pickle.loads(pickle.dumps(f))
    assert g.target == "math:sqrt" and g(4.0) == 2.0
    with pytest.raises(AssertionError, match="module:function"):
        LazyFunction("math.sqrt")


def test_one_family_is_the_default_game():
    assert [n for n in names() if family(n).default] == [default_game()]
    assert family(default_game()).default_preset in family(default_game()).presets


def test_a_run_of_any_family_opens_without_an_edit_to_the_analysis(tmp_path, monkeypatch):
    # a game the analysis has never heard of: open_run asks the families for its modes and unit table
    spades = family("spades")
    new = dataclasses.replace(spades, name="newgame", modes=("rounds",), mode_help={"rounds": "rounds"},
                              tables={"rounds": ("rounds",)},
                              unit_table="rounds", default_shard={"rounds": 1}, default=False)
    monkeypatch.setattr(families, "names", lambda: (*names(), "newgame"))
    real = families.family
    monkeypatch.setattr(families, "family", lambda n: new if n == "newgame" else real(n))
    run = tmp_path / "run"
    (run / "rounds").mkdir(parents=True)
    (run / "manifest.json").write_text(json.dumps({"game": "newgame", "mode": "rounds"}))
    with pytest.raises(AnalysisError, match=r"no data: rounds/\*\.parquet is empty or missing"):
        open_run(run)
    pq.write_table(pa.table({"x": [1, 2]}), run / "rounds" / "part-00000.parquet")
    opened = open_run(run)
    assert opened.count_hands() == 2 and opened.rules == spades.rules_type().to_dict()
    (run / "manifest.json").write_text(json.dumps({"game": "newgame", "mode": "hands"}))
    with pytest.raises(AnalysisError, match=r"unknown mode 'hands' \(expected rounds\)"):
        open_run(run)


def test_unknown_games_are_refused_naming_every_family(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"game": "bridge", "mode": "hands"}))
    with pytest.raises(AnalysisError, match=f"supported: {', '.join(names())}"):
        open_run(run)
