"""Every game the simulator plays has its analysis and its study jobs, each found by the game's name."""
import subprocess
import sys

import pytest

from tricksim.analysis.games import GameAnalysis, analysis_of
from tricksim.analysis.games import names as analysed
from tricksim.jobs import GameJobs, JobError, jobs_of
from tricksim.jobs import names as with_jobs
from tricksim.simulator.errors import AnalysisError
from tricksim.simulator.family import names


@pytest.mark.parametrize("game", names())
def test_every_game_has_its_analysis_and_jobs(game):
    a = analysis_of(game)
    assert isinstance(a, GameAnalysis) and callable(a.summary) and callable(a.report_part)
    j = jobs_of(game)
    assert isinstance(j, GameJobs) and callable(j.match)


def test_the_folders_are_the_simulator_games():
    assert analysed() == with_jobs() == names()


def test_an_unknown_game_is_one_line():
    with pytest.raises(AnalysisError) as e:
        analysis_of("bridge")
    assert str(e.value) == f"no analysis for game 'bridge': allowed {' | '.join(names())}"
    with pytest.raises(JobError) as e:
        jobs_of("bridge")
    assert str(e.value) == f"no study jobs for game 'bridge': allowed {' | '.join(names())}"


def test_finding_a_record_loads_none_of_its_modules():
    # the summary must stay cheap: a record's functions are imported when first called
    code = ("import sys\n"
            "from tricksim.analysis.games import analysis_of\n"
            "from tricksim.simulator.family import names\n"
            "for g in names():\n"
            "    analysis_of(g)\n"
            "loaded = [m for m in sys.modules if m.startswith('tricksim.analysis.games.') and m.count('.') > 3]\n"
            "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True)
