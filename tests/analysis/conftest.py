"""Fixtures for the analysis tests (helpers live in analysis_helpers.py)."""
from __future__ import annotations

import pytest
from analysis_helpers import fake_games, write_run


@pytest.fixture
def games_run(tmp_path):
    hands, games = fake_games(30, seed=3)
    return write_run(tmp_path / "games_run", hands, games, n_files=3,
                     manifest={"preset": "cardems", "seats": ["random", "simple", "random", "simple"]})


@pytest.fixture
def hands_run(tmp_path):
    hands, _ = fake_games(200, seed=4, fresh=True)
    return write_run(tmp_path / "hands_run", hands, None, mode="hands", n_files=2)
