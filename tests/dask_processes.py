"""A Dask cluster of separate processes, as on a real cluster (issue #26): ``dask scheduler`` and ``dask worker``
started as commands, each worker in a working folder of its own (a ``LocalCluster``'s workers share the
client's, which hides a relative path). Everything listens on the loopback only. Used as a context manager,
it ends every process it started."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Self

DASK = str(Path(sys.executable).parent / "dask")


class DaskProcesses:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.file = self.root / "scheduler.json"
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        for p in [*self.workers, self.scheduler]:
            if p is not None and p.poll() is None:
                self._signal(p, signal.SIGKILL)
                p.wait(timeout=30)

    @staticmethod
    def _signal(p: subprocess.Popen, sig: int) -> None:
        """``sig`` to the process and its children (a worker's nanny and worker process): its own session."""
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass

    def start_scheduler(self) -> str:
        self.file.unlink(missing_ok=True)
        with open(self.root / "scheduler.log", "ab") as log:  # the process keeps its own copy of the file
            self.scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                               "--no-dashboard", "--scheduler-file", str(self.file)],
                                              stdout=log, stderr=log, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                self.address = json.loads(self.file.read_text())["address"]
                return self.address
            except (FileNotFoundError, ValueError, KeyError):
                time.sleep(0.1)
        raise RuntimeError("the scheduler did not start in 60 s")

    def start_worker(self) -> Path:
        """One single-threaded worker, in a folder of its own; returns the folder once the worker has joined."""
        import distributed

        folder = self.root / f"worker-{len(self.workers)}"
        folder.mkdir(exist_ok=True)
        with open(folder / "worker.log", "ab") as log:
            self.workers.append(subprocess.Popen([DASK, "worker", "--scheduler-file", str(self.file), "--nthreads",
                                                  "1", "--nworkers", "1", "--no-dashboard", "--host", "127.0.0.1"],
                                                 cwd=folder, stdout=log, stderr=log, start_new_session=True))
        alive = sum(w.poll() is None for w in self.workers)
        with distributed.Client(self.address, timeout="30s") as client:
            client.wait_for_workers(alive, timeout=120)
        return folder

    def kill_scheduler(self) -> None:
        self._signal(self.scheduler, signal.SIGKILL)
        self.scheduler.wait(timeout=30)

    def kill_worker(self, i: int) -> None:
        """SIGKILL to worker ``i``, its nanny too (nothing restarts it)."""
        self._signal(self.workers[i], signal.SIGKILL)
        self.workers[i].wait(timeout=30)
