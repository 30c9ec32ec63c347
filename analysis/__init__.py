"""Analysis of tricksim runs: pure Python over Parquet (pyarrow, numpy, pandas, matplotlib).

Never imports Numba or the simulator kernels, so it works on any machine
that can read the run directories.

Modules every game shares
-------------------------
``io``        open and validate a run directory, stream its Parquet batch by batch
``stats``     Wilson / t / paired / ratio / clustered intervals, streaming sums, sample sizes
``parallel``  the same sums on Dask workers, a few shards each, merged
``plots``     integer histograms, grouped rate bars, percent axes, chart files
``summary``   ``summarize_run``: the short text printed after a simulation (no pandas), the run's game's
``report``    side-by-side HTML / Markdown / PNG / SVG report (``tricksim report``): the runs and rules
              tables and the page, each game's tables and charts from its part
``games``     one folder per game (``games/spades``, ``games/tarot``), found by name with ``analysis_of``

This file imports nothing on purpose: ``tricksim.analysis.summary`` must stay cheap.
"""
