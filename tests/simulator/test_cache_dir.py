"""Compiled code is cached in the folder named after the sources' hash, never beside the sources."""
import subprocess
import sys

import pytest

pytestmark = pytest.mark.needs_jit("reads where compiled functions are cached; as pure Python nothing is compiled")

CODE = """
import os, sys
{first}
import tricksim.simulator.games.spades.phases as phases
from numba.core import config
want = os.environ["NUMBA_CACHE_DIR"]
assert config.CACHE_DIR == want, (config.CACHE_DIR, want)
assert phases.start_trick._cache._cache_path.startswith(want), phases.start_trick._cache._cache_path
"""


def run(first: str, tmp_path):
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TRICKSIM_CACHE"] = str(tmp_path)
    subprocess.run([sys.executable, "-c", CODE.format(first=first)], check=True, env=env)


def test_the_cache_folder_is_the_source_hash_folder(tmp_path):
    run("", tmp_path)


def test_also_when_numba_was_imported_first(tmp_path):
    run("import numba", tmp_path)


def test_a_cache_folder_that_cannot_be_written_is_reported_once(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file, not a folder")
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TRICKSIM_CACHE"] = str(blocked)
    done = subprocess.run([sys.executable, "-c", "import tricksim.simulator, tricksim.simulator.engine"], env=env,
                          capture_output=True, text=True, check=True)
    assert done.stderr.count("cannot be written") == 1
    assert done.stderr.startswith(f"tricksim: the compile cache {blocked}/numba-")
    assert "set TRICKSIM_CACHE to a writable folder" in done.stderr


def test_the_cache_key_covers_the_games_kept_outside_the_repository(tmp_path, monkeypatch):
    """docs/architecture.md, "Add a game": the folders TRICKSIM_GAMES names are hashed with the package's own
    sources, so an edit to an outside game's strategy cannot run stale compiled code."""
    from tricksim import simulator

    game = tmp_path / "strategies" / "mygame"
    game.mkdir(parents=True)
    (game / "mine.py").write_text("X = 1\n")
    monkeypatch.delenv("TRICKSIM_GAMES", raising=False)
    alone = simulator._source_hash()
    monkeypatch.setenv("TRICKSIM_GAMES", str(tmp_path))
    with_game = simulator._source_hash()
    (game / "mine.py").write_text("X = 2\n")
    edited = simulator._source_hash()
    assert len({alone, with_game, edited}) == 3
