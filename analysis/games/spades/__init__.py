"""Spades studies: hand features (``features``), team outcomes (``outcomes``), the summary (``summary``), the
Nil study (``nil``) and its what-if (``whatif``), duplicate matches (``compare``), parameter sweeps
(``sweep``) and the Spades part of the report (``report``)."""
from .. import GameAnalysis, later

ANALYSIS = GameAnalysis(summary=later(f"{__name__}.summary", "summarize"),
                        report_part=later(f"{__name__}.report", "report_part"))
