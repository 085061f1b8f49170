#!/usr/bin/env bash
# Builds and runs every Google Benchmark micro-benchmark of SQE (the *_benchmark.cc files
# beside the code), then prints one summary table.
#   scripts/bench-micro.sh [--filter REGEX] [--skip-duckdb] [--out DIR]
# --filter      run only the benchmark binaries whose name matches REGEX (grep -E)
# --skip-duckdb skip parquet_reader_benchmark (it compares with DuckDB on TPC-H SF1
#               lineitem, generated on first use: ~30 s)
# --out DIR     keep each binary's JSON output there (default: bench/results/micro-<time>)
# BUILD_DIR (default build/release, the release preset) is configured Release with
# SQE_BUILD_BENCHMARKS=ON. A benchmark, never a test: nothing here asserts a time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="${BUILD_DIR:-build/release}"
FILTER=""
SKIP_DUCKDB=0
OUT="bench/results/micro-$(date +%Y%m%d-%H%M%S)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --filter) FILTER="$2"; shift 2 ;;
    --skip-duckdb) SKIP_DUCKDB=1; shift ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "bench-micro: unknown argument $1" >&2; exit 2 ;;
  esac
done
PYTHON="$ROOT/tests/peers/.venv/bin/python"
[[ -x "$PYTHON" ]] || PYTHON=python3

# name -> binary under BUILD_DIR, and extra arguments.
BENCHMARKS=(
  "parquet_encoding_benchmark src/formats/parquet/parquet_encoding_benchmark"
  "parquet_reader_benchmark src/formats/parquet/parquet_reader_benchmark --threads=2 --iterations=3"
  "ipc_encode_benchmark src/columnar/ipc/ipc_encode_benchmark"
  "expression_evaluator_benchmark src/exec/expression_evaluator_benchmark"
  "hash_aggregate_benchmark src/exec/hash_aggregate_benchmark"
  "hash_join_benchmark src/exec/hash_join_benchmark"
  "sort_benchmark src/exec/sort_benchmark"
  "scan_planner_benchmark src/iceberg/scan/scan_planner_benchmark --benchmark_repetitions=3"
)
selected=()
for entry in "${BENCHMARKS[@]}"; do
  name="${entry%% *}"
  [[ -n "$FILTER" ]] && ! grep -Eq "$FILTER" <<<"$name" && continue
  [[ "$SKIP_DUCKDB" == 1 && "$name" == parquet_reader_benchmark ]] && continue
  selected+=("$entry")
done
if [[ ${#selected[@]} -eq 0 ]]; then
  echo "bench-micro: no benchmark matches '$FILTER'" >&2
  exit 2
fi

export CCACHE_BASEDIR="$ROOT"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSQE_BUILD_BENCHMARKS=ON >/dev/null
targets=()
for entry in "${selected[@]}"; do
  name="${entry%% *}"
  targets+=("$name")
done
cmake --build "$BUILD_DIR" --target "${targets[@]}"

mkdir -p "$OUT"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)" \
  | tee "$OUT/machine.txt"
for entry in "${selected[@]}"; do
  read -r name binary args <<<"$entry"
  echo "== $name" >&2
  # shellcheck disable=SC2086 # args are split on purpose
  "$BUILD_DIR/$binary" $args --benchmark_out="$OUT/$name.json" \
    --benchmark_out_format=json >"$OUT/$name.txt" 2>&1 || {
    echo "bench-micro: $name failed; see $OUT/$name.txt" >&2
    exit 1
  }
done
"$PYTHON" "$ROOT/bench/micro_summary.py" "$OUT"
