"""Spades study jobs: duplicate matches and round robins (``compare``), parameter sweeps (``sweep``),
double-dummy columns (``dd``) and the Nil what-if (``whatif``)."""
from tricksim.jobs import GameJobs

from .compare import duplicate_matches


def _match(specs, *, games: int, deals: int, **options) -> dict:
    """Duplicate matches of ``games`` games between every pair of ``specs`` (a Spades match is played in games)."""
    return duplicate_matches(list(specs), games=games, **options)


JOBS = GameJobs(match=_match)
