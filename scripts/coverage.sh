#!/usr/bin/env bash
# Line coverage of the Python sources ([tool.coverage] in pyproject.toml): the default test run under
# coverage with NUMBA_DISABLE_JIT=1, so the kernels and strategies run as plain Python, where coverage
# sees them (compiled code is invisible to it). Tests marked needs_jit are skipped, each with its reason
# (-rs). Then the report.
#
#   bash scripts/coverage.sh               # the tests' output as they run, then the report
#   bash scripts/coverage.sh --log FILE    # the tests' output into FILE (CI): here only the skips and the report
#
# Extra arguments go to pytest. Exits with the tests' status; the report follows only tests that passed.
# PYTHON picks the interpreter (default python3); TRICKSIM_COVERAGE_SECONDS > 0 stops the tests after that
# many seconds (exit 124, no report: CI gives the run what its time limit leaves).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
log=
if [ "${1:-}" = "--log" ]; then
  log=$2
  shift 2
fi
tests=(env NUMBA_DISABLE_JIT=1 "$python" -m coverage run -m pytest -q -rs -m "not slow" "$@")
limit=${TRICKSIM_COVERAGE_SECONDS:-0}
if [ "$limit" -gt 0 ]; then
  tests=(timeout "$limit" "${tests[@]}")
fi
start=$SECONDS
if [ -n "$log" ]; then
  rc=0
  "${tests[@]}" >"$log" 2>&1 || rc=$?
  if [ "$rc" -eq 124 ] && [ "$limit" -gt 0 ]; then
    tail -n 3 "$log"
    echo "the tests under NUMBA_DISABLE_JIT=1 did not finish in $limit s: stopped, no coverage report"
    exit 124
  fi
  if [ "$rc" -ne 0 ]; then
    tail -n 100 "$log"
    echo "the tests failed under NUMBA_DISABLE_JIT=1 (exit $rc; whole output in $log)"
    exit "$rc"
  fi
  grep '^SKIPPED' "$log" || true
else
  "${tests[@]}"
fi
echo "tests under coverage with NUMBA_DISABLE_JIT=1: $((SECONDS - start)) s"
"$python" -m coverage report
