"""The example strategy of docs/strategies.md works as the document says."""
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from tricksim.simulator.bits import cards_of
from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.spades.cards import card_rank
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import get, parse_spec

DOC = Path(__file__).resolve().parents[2] / "docs" / "strategies.md"


@pytest.fixture(autouse=True)
def example_unregistered():
    """The example registers itself in the process's registry: gone after the test, so later tests (the
    command line's list of strategies) see the built-ins only."""
    from tricksim.strategies import registry

    yield
    registry._REGISTRY.pop(("spades", "greedy"), None)


def load_example(tmp_path):
    code = re.search(r"## Example: a new file `greedy.py` in `strategies/spades/`.*?```python\n(.*?)```", DOC.read_text(), re.DOTALL).group(1)
    path = tmp_path / "greedy.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("strategies.greedy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_strategy_plugs_in_without_touching_the_simulator(tmp_path):
    load_example(tmp_path)
    assert get("greedy").params[0].name == "extra"
    seats = (parse_spec("greedy:extra=1"), parse_spec("simple"), parse_spec("greedy"), parse_spec("simple"))
    hands = run_to_tables(RunConfig(rules=build_rules("classic"), seats=seats, seed=3, count=500,
                                       record_plays=True))["hands"]
    assert hands["strategy_0"][0].as_py() == "greedy:extra=1"
    # its bid is aces + spades from the queen up (+ extra for seat 0)
    for seat, extra in ((0, 1), (2, 0)):
        held = hands[f"held_{seat}"].to_numpy()
        bids = hands[f"bid_{seat}"].to_numpy()
        for h, b in zip(held[:100], bids[:100]):
            cards = cards_of(int(h))
            expect = sum(c % 13 == 12 for c in cards if c < 52) + sum(c >= 49 for c in cards) + extra
            assert b == min(13, max(expect, 1))
    # it always plays its highest-ranked legal card: its first lead is its highest non-spade (spades unbroken)
    plays = np.stack(hands["plays"].to_numpy(zero_copy_only=False))
    leaders = hands["first_leader"].to_numpy()
    for row in np.flatnonzero(leaders == 0)[:50]:
        cards = [c for c in cards_of(int(hands["held_0"][int(row)].as_py())) if c < 39]
        if cards:
            assert card_rank(plays[row, 0]) == max(card_rank(c) for c in cards)
