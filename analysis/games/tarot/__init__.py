"""Tarot studies: the summary counts (``summary``), the bidding study and the forced-contract what-if
(``bidding``), duplicate rotations (``rotation``) and the Tarot part of the report (``report``)."""
from .. import GameAnalysis, later

ANALYSIS = GameAnalysis(summary=later(f"{__name__}.summary", "summarize"),
                        report_part=later(f"{__name__}.report", "report_part"))
