"""The commands a game adds to the command line, one folder per game as in every layer:
``tricksim/commands/<game>/__init__.py`` defines ``COMMANDS``, a tuple of click commands (``tricksim nil``,
``tricksim bidding``, ...). ``tricksim.cli`` lists them beside its own; a game needs none. It may also define
``ATLAS``, the click command named after the game that ``tricksim atlas GAME`` runs.

A game's commands module imports only click and ``tricksim.options`` at its top (its commands import the
rest when they run): every ``tricksim --help`` imports it.
"""
from __future__ import annotations

import importlib
import pkgutil

from tricksim.simulator.games import game_folders

__path__ += game_folders("tricksim/commands")  # the games kept outside the repository (simulator/games/__init__.py)


def names() -> tuple[str, ...]:
    """The games with commands of their own: every folder of ``tricksim/commands``."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def game_commands() -> dict:
    """Every game's commands by name; two games may not name a command alike."""
    found: dict = {}
    for game in names():
        for command in importlib.import_module(f"{__name__}.{game}").COMMANDS:
            assert command.name not in found, f"two games define the command {command.name!r}"
            found[command.name] = command
    return found


def game_atlases() -> dict:
    """Every game's atlas command (``ATLAS``) by game name."""
    found: dict = {}
    for game in names():
        command = getattr(importlib.import_module(f"{__name__}.{game}"), "ATLAS", None)
        if command is not None:
            found[game] = command
    return found
