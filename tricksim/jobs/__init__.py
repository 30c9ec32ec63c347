"""Study jobs: orchestration that combines the engine, the strategies and the analysis.

The command line calls these; so can a notebook. Each job validates its input
and raises ``JobError`` (a one-line message) for bad input.
"""


from tricksim.simulator.errors import JobError  # noqa: F401  (re-exported)


def run_kept(cfg, d, threads=None, *, engine: str = "local", scheduler: str | None = None) -> None:
    """Run ``cfg`` into folder ``d`` for a study (on ``engine``): the same run already there is reused (an
    interrupted one finished by --resume); a different one is replaced."""
    from tricksim.simulator.engine import RunError, run
    from tricksim.simulator.rundir import RunDirError, read_manifest, same_data

    try:
        try:
            old = read_manifest(d).get("plan") if d.exists() else None
            same = isinstance(old, dict) and same_data(cfg.upgrade_plan(old), cfg.plan())
        except RunDirError:
            same = False
        run(cfg, d, resume=same, overwrite=d.exists() and not same, threads=threads, engine=engine,
            scheduler=scheduler)
    except (RunError, RunDirError) as e:
        raise JobError(str(e)) from None
