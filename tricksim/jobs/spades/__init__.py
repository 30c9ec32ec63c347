"""Spades study jobs: duplicate matches and round robins (``compare``), parameter sweeps (``sweep``),
double-dummy columns (``dd``) and the Nil what-if (``whatif``); the Spades functions of the Python API
(``api``); the variant atlas (``atlas``)."""
from tricksim.jobs import GameJobs

from .compare import duplicate_matches


def _match(specs, *, count: int, hand_limit: int | None = None, **options) -> dict:
    """Duplicate matches of ``count`` games between every pair of ``specs`` (a Spades match is played in
    games, each ending after ``hand_limit`` hands at most: default 1000)."""
    return duplicate_matches(list(specs), games=count, hand_limit=1000 if hand_limit is None else hand_limit,
                             **options)


def _atlas(**options):
    """The variant atlas (``tricksim.atlas("spades", ...)``: the options of :func:`.api.atlas`)."""
    from .api import atlas

    return atlas(**options)


JOBS = GameJobs(match=_match, match_unit="games",
                match_help="games per match (each deal is played twice, seats swapped)",
                api={name: f"{__name__}.api:{name}" for name in ("nil", "nil_report", "sweep", "dd")},
                atlas=_atlas)
