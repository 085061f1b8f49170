#!/usr/bin/env bash
# TPC-H on SQE and DuckDB side by side (bench/tpch/run_tpch.py), same files, same threads.
#   scripts/bench-tpch.sh --sf 1 --threads 2 [--runs 3] [--queries 1,5] [--json FILE]
#                         [--baseline FILE] [--memory 1GB] [--data dbgen|sqe-datagen]
#                         [--no-flight]
# Builds the Release sqe-shell, sqe-server (the Flight SQL column) and sqe-datagen first
# (the venv and dependencies come from scripts/install-deps.sh). Results go to bench/results/ unless --json says otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="$ROOT/tests/peers/.venv/bin/python"
if [[ ! -x "$PYTHON" ]]; then
  echo "bench-tpch: no test venv at tests/peers/.venv; run scripts/install-deps.sh" >&2
  exit 1
fi
export CCACHE_BASEDIR="$ROOT"
cmake --preset release >/dev/null
cmake --build build/release --target sqe-shell sqe-server sqe-datagen
exec "$PYTHON" bench/tpch/run_tpch.py "$@"
