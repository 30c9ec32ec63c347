"""One folder per game family: ``simulator/games/<game>/`` with a ``family.py`` that defines ``FAMILY``.

A game kept outside this repository is a folder laid out as the repository is, holding only that game's
folders (``simulator/games/<game>/``, ``strategies/<game>/``, ``analysis/games/<game>/``,
``tricksim/jobs/<game>/``, ``tricksim/commands/<game>/``, each optional but the first); name it in the
environment variable ``TRICKSIM_GAMES`` (several: separated by ``os.pathsep``). Every layer's game package
adds the matching folder to its ``__path__`` with :func:`game_folders`, so the game is found by name as a
built-in one is (docs/architecture.md: "Add a game").
"""
from __future__ import annotations

import os
from pathlib import Path

GAMES_PATH = "TRICKSIM_GAMES"


def game_roots() -> list[Path]:
    """The folders named by ``TRICKSIM_GAMES``, as given (those that do not exist are skipped)."""
    return [Path(p) for p in os.environ.get(GAMES_PATH, "").split(os.pathsep) if p and Path(p).is_dir()]


def game_folders(layer: str) -> list[str]:
    """Where the games outside the repository keep their part of ``layer`` (a folder as in the repository,
    e.g. ``"analysis/games"``): the folders that exist, to add to the layer package's ``__path__``."""
    return [str(root / layer) for root in game_roots() if (root / layer).is_dir()]


__path__ += game_folders("simulator/games")
