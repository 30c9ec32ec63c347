"""The toy game's analysis: the summary after a run and its part of the report."""
from tricksim.analysis.games import GameAnalysis, later

ANALYSIS = GameAnalysis(summary=later(f"{__name__}.figures", "summarize"),
                        report_part=later(f"{__name__}.figures", "report_part"))
