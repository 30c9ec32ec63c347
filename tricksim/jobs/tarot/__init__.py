"""Tarot study jobs: duplicate rotations (``rotation``), the forced-contract what-if (``whatif``), the variant
atlas (``atlas``); the Tarot functions of the Python API (``api``)."""
from tricksim.jobs import GameJobs, JobError
from tricksim.simulator.errors import option

from .rotation import rotations


def _match(specs, *, count: int, hand_limit: int | None = None, **options) -> dict:
    """Duplicate rotations of two ``specs`` on ``count`` deals (a Tarot deal stands alone: no games, no hand
    limit)."""
    if hand_limit is not None:
        raise JobError(f"a tarot deal stands alone (no games): {option('hand_limit', None)} does not apply; "
                       "leave it out")
    if len(specs) != 2:
        raise JobError(f"tarot compare takes two strategy specs, got {len(specs)}")
    return rotations(*specs, deals=count, **options)


def _atlas(**options):
    """The variant atlas (``tricksim.atlas("tarot", ...)``: the options of :func:`.api.atlas`)."""
    from .api import atlas

    return atlas(**options)


JOBS = GameJobs(match=_match, match_unit="deals",
                match_help="deals per rotation (each is played in five runs: the field alone, then A in each seat)",
                api={"sessions": "tricksim.jobs.tarot.api:sessions"}, atlas=_atlas)
