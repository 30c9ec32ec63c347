"""Analysis of tricksim runs: pure Python over Parquet (pyarrow, numpy, pandas, matplotlib).

Never imports Numba or the simulator kernels, so it works on any machine
that can read the run directories.

Modules
-------
``io``        open and validate a run directory, stream its Parquet batch by batch
``stats``     Wilson / t / paired / ratio / clustered intervals, streaming sums, sample sizes
``features``  vectorised hand features from 64-bit card masks
``outcomes``  per-hand team outcomes (contract, sets, bags) and per-game sums
``summary``   ``summarize_run``: the short text printed after a simulation (no pandas)
``nil``       Nil / Blind Nil study (``tricksim nil``)
``report``    side-by-side HTML / Markdown / PNG / SVG report (``tricksim report``)
``compare``   duplicate matches and round robins
``whatif``    forced-Nil replays: which seat-hands to replay and the resulting rates

This file imports nothing on purpose: ``tricksim.analysis.summary`` must stay cheap.
"""
