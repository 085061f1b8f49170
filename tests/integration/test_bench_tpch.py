"""The TPC-H benchmark runner works end to end: at SF 0.01 it loads the data into an SQE
warehouse, runs all 22 queries on SQE in-process, on SQE through Flight SQL (a started
sqe-server read with ADBC) and on DuckDB over the same files, finds every result equal and
writes its JSON report; with --data sqe-datagen the same on sqe-datagen's tables. A check
of the instrument, never of speed: no time is asserted (speed is measured with
scripts/bench-tpch.sh, figures in docs/performance.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO_ROOT, clean_env

RUNNER = REPO_ROOT / "bench" / "tpch" / "run_tpch.py"
BIN = REPO_ROOT / "build" / "release" / "src" / "main"
SHELL = Path(os.environ.get("SQE_SHELL_BIN", BIN / "sqe-shell"))
SERVER = Path(os.environ.get("SQE_SERVER_BIN", BIN / "sqe-server"))
DATAGEN = Path(os.environ.get("SQE_DATAGEN_BIN", BIN / "sqe-datagen"))


def run_runner(tmp_path, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    for binary in (SHELL, SERVER):
        if not binary.is_file():
            pytest.fail(f"{binary.name} not built at {binary}; run scripts/test.sh")
    report = tmp_path / "tpch.json"
    proc = subprocess.run(
        [sys.executable, str(RUNNER), "--sf", "0.01", "--threads", "2", "--runs", "0",
         "--json", str(report), "--shell", str(SHELL), "--server", str(SERVER), *extra],
        capture_output=True, text=True, timeout=880, env=clean_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, json.loads(report.read_text())


def check_report(proc: subprocess.CompletedProcess, data: dict) -> None:
    assert data["sf"] == 0.01 and data["threads"] == 2
    assert [q["q"] for q in data["queries"]] == [f"q{i:02d}" for i in range(1, 23)]
    mismatched = [(q["q"], q.get("problem") or q.get("flight_problem") or q.get("error"))
                  for q in data["queries"] if not q["match"]]
    assert not mismatched, mismatched
    # Both SQE paths ran every query and matched DuckDB on their own.
    assert all(q["flight_match"] for q in data["queries"])
    for field in ("sqe_ms", "sqe_flight_ms", "duckdb_ms", "ratio", "flight_ratio"):
        assert all(q[field] is not None for q in data["queries"]), field
    assert data["geomean_ratio"] > 0 and data["geomean_flight_ratio"] > 0
    assert data["peak_rss_mib"]["sqe_flight"] > 0
    # The table printed for people carries the same queries and the geometric means.
    assert "geometric mean of the ratios (SQE / DuckDB)" in proc.stdout
    assert "geometric mean of the ratios (SQE Flight SQL / DuckDB)" in proc.stdout
    assert proc.stdout.count(" yes") == 22


@pytest.mark.timeout(900)
def test_runner_runs_all_22_queries_with_matching_results(tmp_path):
    proc, data = run_runner(tmp_path)
    assert data["data"] == "dbgen"
    check_report(proc, data)


@pytest.mark.timeout(900)
def test_runner_on_sqe_datagen_data(tmp_path):
    if not DATAGEN.is_file():
        pytest.fail(f"sqe-datagen not built at {DATAGEN}; run scripts/test.sh")
    proc, data = run_runner(tmp_path, "--data", "sqe-datagen", "--datagen", str(DATAGEN))
    assert data["data"] == "sqe-datagen"
    check_report(proc, data)
