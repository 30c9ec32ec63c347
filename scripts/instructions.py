"""Instructions a hand (Tarot: a deal) of self-play, counted by valgrind's callgrind: a figure the host's load
does not move, to compare two versions of the kernels side by side on a busy machine (docs/performance.md P48).

Each strategy plays ``--small`` and then ``--large`` hands in a process of its own under
``valgrind --tool=callgrind`` (one thread); the difference of the two totals over the difference of the hand
counts is the figure (start-up, imports and the cache load cancel out). Valgrind runs the code on a CPU of its
own (an older x86-64 without AVX-512), so the kernels are compiled for that CPU (``NUMBA_CPU_NAME`` and
``NUMBA_CPU_FEATURES`` set to what valgrind shows) once, natively, before the counted runs: the count is of that
code, not of the code the host's own CPU gets, and a change in instructions is not a change in time one for one.
When valgrind's CPU has BMI2, ``nth_set_bit`` is compiled with ``pdep`` as on a host with BMI2 (a loop otherwise),
so that LLVM inlines the same small functions as in the host's build (docs/performance.md P90).
To compare versions, run it in two checkouts, each with its own installation::

    python scripts/instructions.py heuristic simple
    python scripts/instructions.py --game tarot heuristic
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

_CPU = ("import llvmlite.binding as ll; print(ll.get_host_cpu_name()); "
        "print(ll.get_host_cpu_features().flatten())")


def _child(game: str, preset: str | None, strategy: str, hands: int) -> None:
    if PDEP_MARK in os.environ.get("NUMBA_CPU_FEATURES", ""):
        # set here, not in the package, so that any installation (an older one too) is counted with the same build
        from tricksim.simulator import bits
        bits._pdep_compiles = lambda: True
    from tricksim.api import plan
    from tricksim.simulator.engine import run_to_tables
    unit = {"deals": hands} if game == "tarot" else {"hands": hands}
    run_to_tables(plan(game, preset=preset, seed=5, seats=strategy, **unit), threads=1)


# appended to valgrind's features when it has BMI2: the children compile nth_set_bit with pdep, and a features
# string of their own keeps Numba from loading kernels cached for valgrind's CPU with nth_set_bit as a loop
PDEP_MARK = ",+bmi2"


def valgrind_env() -> dict:
    """The environment of the counted runs: Numba compiles for the CPU valgrind presents, hashing is fixed, one
    thread."""
    out = subprocess.run(["valgrind", "-q", sys.executable, "-c", _CPU], capture_output=True, text=True,
                         check=True).stdout.split()
    if "+bmi2" in out[1].split(","):
        out[1] += PDEP_MARK
    # OPENBLAS_NUM_THREADS=1: numpy's OpenBLAS otherwise starts idle threads that spin while the kernel runs,
    # counted as instructions of the run in proportion to its length (up to 4,600 a hand: P56)
    return dict(os.environ, NUMBA_CPU_NAME=out[0], NUMBA_CPU_FEATURES=out[1], PYTHONHASHSEED="0",
                NUMBA_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")


def count(args_child: list[str], env: dict) -> int:
    """Instructions of one child run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                        "--child", *args_child], env=env, check=True, capture_output=True)
        with open(out) as f:
            return int(re.search(r"^summary: (\d+)", f.read(), re.MULTILINE).group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("strategies", nargs="+", help="strategy specs, each at every seat")
    ap.add_argument("--game", default="spades", choices=("spades", "tarot"))
    ap.add_argument("--preset", default=None)
    ap.add_argument("--small", type=int, default=1_000)
    ap.add_argument("--large", type=int, default=11_000)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:  # strategies = [strategy, hands]
        _child(args.game, args.preset, args.strategies[0], int(args.strategies[1]))
        return
    if args.large <= args.small:
        ap.error(f"--large ({args.large}) must be more than --small ({args.small})")
    env = valgrind_env()
    unit = "deal" if args.game == "tarot" else "hand"
    common = ["--game", args.game] + (["--preset", args.preset] if args.preset else [])
    for s in args.strategies:
        # compile (or load) natively for valgrind's CPU first: a compile under valgrind takes an hour
        subprocess.run([sys.executable, __file__, "--child", s, "10", *common], env=env, check=True)
        small = count([s, str(args.small), *common], env)
        large = count([s, str(args.large), *common], env)
        print(f"{s}: {(large - small) / (args.large - args.small):,.0f} instructions a {unit} "
              f"(callgrind, {args.large:,} less {args.small:,} {unit}s, CPU {env['NUMBA_CPU_NAME']})", flush=True)


if __name__ == "__main__":
    main()
