"""Tarot study jobs: duplicate rotations (``rotation``) and the forced-contract what-if (``whatif``)."""
from tricksim.jobs import GameJobs, JobError

from .rotation import rotations


def _match(specs, *, count: int, hand_limit: int, **options) -> dict:
    """Duplicate rotations of two ``specs`` on ``count`` deals (a Tarot deal stands alone: no games, no hand
    limit)."""
    if len(specs) != 2:
        raise JobError(f"tarot compare takes two strategy specs, got {len(specs)}")
    return rotations(*specs, deals=count, **options)


JOBS = GameJobs(match=_match, match_unit="deals",
                match_help="deals per rotation (each is played in five runs: the field alone, then A in each seat)")
