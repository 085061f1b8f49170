#!/usr/bin/env python3
"""The summary table of scripts/bench-micro.sh: one line per benchmark run, from the JSON
files Google Benchmark wrote (--benchmark_out) into DIR: binary, benchmark, label, wall and
CPU time per iteration and its throughput counters (rows/s, values/s, MB/s...),
human-scaled. Rates are per wall second for benchmarks that use real time (the
multi-threaded ones, "/real_time" in the name) and per CPU second otherwise. With
repetitions only the median is shown.

Usage: bench/micro_summary.py DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RATE_COUNTERS = ("rows_per_s", "values_per_s", "probe_rows_per_s", "build_rows_per_s",
                 "MB_per_s", "encoded_MB_per_s")
PLAIN_COUNTERS = ("body_ratio", "bytes_per_value", "selectivity", "groups_out")


def scaled(value: float, unit: str) -> str:
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= factor:
            return f"{value / factor:.2f} {prefix}{unit}"
    return f"{value:.2f} {unit}"


def main() -> int:
    directory = Path(sys.argv[1])
    print(f"{'benchmark':<58} {'wall':>12} {'CPU':>12}  throughput")
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text())
        for run in data.get("benchmarks", []):
            if run.get("run_type") == "aggregate" and run.get("aggregate_name") != "median":
                continue
            if run.get("run_type") == "iteration" and run.get("repetitions", 1) > 1:
                continue
            if run.get("error_occurred"):
                print(f"{path.stem + ': ' + run['name']:<58} error: {run.get('error_message')}")
                continue
            name = f"{path.stem.removesuffix('_benchmark')}: {run['name']}"
            if run.get("label"):
                name += f" [{run['label']}]"
            wall = f"{run['real_time']:.2f} {run['time_unit']}"
            cpu = f"{run['cpu_time']:.2f} {run['time_unit']}"
            rates = []
            for key in RATE_COUNTERS:
                if key in run:
                    unit = "B/s" if key.endswith("MB_per_s") else "/s"
                    value = run[key] * (1e6 if key.endswith("MB_per_s") else 1)
                    rates.append(f"{key.removesuffix('_per_s')} {scaled(value, unit)}")
            for key in PLAIN_COUNTERS:
                if key in run:
                    rates.append(f"{key} {run[key]:.3g}")
            print(f"{name:<58} {wall:>12} {cpu:>12}  {', '.join(rates)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
