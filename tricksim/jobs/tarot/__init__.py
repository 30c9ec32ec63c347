"""Tarot study jobs: duplicate rotations (``rotation``) and the forced-contract what-if (``whatif``)."""
from tricksim.jobs import GameJobs, JobError

from .rotation import rotations


def _match(specs, *, games: int, deals: int, hand_limit: int, **options) -> dict:
    """Duplicate rotations of two ``specs`` on ``deals`` deals (a Tarot deal stands alone: no games, no hand
    limit)."""
    if len(specs) != 2:
        raise JobError(f"tarot compare takes two strategy specs, got {len(specs)}")
    return rotations(*specs, deals=deals, **options)


JOBS = GameJobs(match=_match)
