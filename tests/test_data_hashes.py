"""The data of fixed runs is byte-for-byte what ``tests/data_hashes.json`` recorded.

The file was written by ``scripts/data_hashes.py --write`` before the redesign of
issue #15 began (the Spades runs) and before issue #25 moved Tarot's rules into
phases (the Tarot runs); refactors must leave every hash as it is. The quick test
covers each Spades kernel kind (every built-in strategy compiled in, and the
generic per-seat kernel), the Tarot kernel with one strategy and with mixed seats,
and each family's rarely used rule flags; the slow one covers every recorded run.
"""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

spec = importlib.util.spec_from_file_location("data_hashes", ROOT / "scripts" / "data_hashes.py")
data_hashes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(data_hashes)

EXPECTED = json.loads(data_hashes.REFERENCE.read_text())
QUICK = ["classic/simple/hands", "zone/random/games", "cardems/heuristic/hands", "classic/mixed/games",
         "classic+rare/mixed/hands", "classic+rare/heuristic/games",
         "cardavia/heuristic/deals", "cardavia/mixed/deals", "cardavia+rare/mixed/deals",
         "cardavia/heuristic/games", "fft3+session/mixed/games"]


def test_reference_lists_every_case():
    assert sorted(EXPECTED) == sorted(data_hashes.cases())
    assert set(QUICK) <= set(EXPECTED)


@pytest.mark.parametrize("name", QUICK)
def test_data_unchanged(name):
    assert data_hashes.differences(EXPECTED, data_hashes.compute([name])) == []


@pytest.mark.slow
def test_all_data_unchanged():
    assert data_hashes.differences(EXPECTED, data_hashes.compute()) == []


def test_a_changed_column_is_named():
    changed = json.loads(json.dumps(EXPECTED))
    changed["classic/simple/hands"]["hands"]["tricks_2"] = "0" * 16
    diff = data_hashes.differences(changed, {"classic/simple/hands": EXPECTED["classic/simple/hands"]})
    assert diff == [(f"classic/simple/hands hands.tricks_2: {'0' * 16} -> "
                    f"{EXPECTED['classic/simple/hands']['hands']['tricks_2']}")]
