"""The TPC-H benchmark runner works end to end: at SF 0.01 it loads the data into an SQE
warehouse, runs all 22 queries on SQE and DuckDB over the same files, finds every result
equal and writes its JSON report. A check of the instrument, never of speed: no time is
asserted (speed is measured with scripts/bench-tpch.sh, figures in docs/performance.md).
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
SHELL = Path(os.environ.get("SQE_SHELL_BIN",
                           REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"))


@pytest.mark.timeout(900)
def test_runner_runs_all_22_queries_with_matching_results(tmp_path):
    if not SHELL.is_file():
        pytest.fail(f"sqe-shell not built at {SHELL}; run scripts/test.sh")
    report = tmp_path / "tpch.json"
    proc = subprocess.run(
        [sys.executable, str(RUNNER), "--sf", "0.01", "--threads", "2", "--runs", "0",
         "--json", str(report), "--shell", str(SHELL)],
        capture_output=True, text=True, timeout=880, env=clean_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(report.read_text())
    assert data["sf"] == 0.01 and data["threads"] == 2
    assert [q["q"] for q in data["queries"]] == [f"q{i:02d}" for i in range(1, 23)]
    mismatched = [(q["q"], q.get("problem") or q.get("error")) for q in data["queries"]
                  if not q["match"]]
    assert not mismatched, mismatched
    assert all(q["sqe_ms"] is not None and q["duckdb_ms"] is not None for q in data["queries"])
    assert data["geomean_ratio"] > 0
    # The table printed for people carries the same queries and the geometric mean.
    assert "geometric mean of the ratios" in proc.stdout
    assert proc.stdout.count(" yes") == 22
