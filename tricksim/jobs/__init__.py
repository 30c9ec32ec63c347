"""Study jobs: orchestration that combines the engine, the strategies and the analysis.

The command line calls these; so can a notebook. Each job validates its input
and raises ``JobError`` (a one-line message) for bad input.
"""


class JobError(ValueError):
    """A job that cannot run as asked (one-line message)."""
