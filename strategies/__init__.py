"""Seat strategies, one folder per game family, and the registry that names them."""
from tricksim.simulator.games import game_folders

__path__ += game_folders("strategies")  # the games kept outside the repository (simulator/games/__init__.py)
