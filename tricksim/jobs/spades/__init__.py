"""Spades study jobs: duplicate matches and round robins (``compare``), parameter sweeps (``sweep``),
double-dummy columns (``dd``) and the Nil what-if (``whatif``); the Spades functions of the Python API
(``api``)."""
from tricksim.jobs import GameJobs

from .compare import duplicate_matches


def _match(specs, *, count: int, **options) -> dict:
    """Duplicate matches of ``count`` games between every pair of ``specs`` (a Spades match is played in
    games)."""
    return duplicate_matches(list(specs), games=count, **options)


JOBS = GameJobs(match=_match, match_unit="games",
                match_help="games per match (each deal is played twice, seats swapped)",
                api={name: f"{__name__}.api:{name}" for name in ("nil", "nil_report", "sweep", "dd")})
