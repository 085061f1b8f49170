#!/usr/bin/env python3
"""TPC-H side by side: SQE (in-process, sqe-shell) and DuckDB on the same Parquet files.

The data: TPC-H at --sf from DuckDB's dbgen (cached by tests/integration/differential), copied
once into an SQE warehouse (build/bench/tpch-sf<SF>/warehouse, schema tpch). DuckDB then
reads the *SQE table's own data files* (read_parquet over <warehouse>/tpch/<table>/data), so
both engines read exactly the same files.

Per query: one sqe-shell process runs the query --runs + 1 times (the first run is "cold":
fresh process, empty footer cache; the others warm); one DuckDB child process does the same
with the same thread count. The reported time is the best warm run. Every result is checked
against DuckDB's with the differential tests' rules (tests/integration/differential/compare.py).

Output: a table (query, SQE ms, DuckDB ms, ratio, match) with the geometric mean of the
ratios and each engine's peak RSS; --json FILE writes the same as JSON (default under
bench/results/). --baseline FILE adds the ratio of this run's SQE time to the baseline's.

Usage: bench/tpch/run_tpch.py --sf 1 --threads 2 [--runs 3] [--queries 1,5,9]
       [--memory 2GB] [--json FILE] [--baseline FILE]
A benchmark, never a timed test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests" / "integration"))

from differential import compare, tpch_data  # noqa: E402

QUERY_DIR = REPO_ROOT / "bench" / "tpch" / "queries"
DEFAULT_SHELL = REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"
RUN_TIME = re.compile(r"^Run Time: ([0-9.]+) s$", re.M)

# The DuckDB side: a child process (so its peak RSS is its own), one query per invocation.
DUCKDB_CHILD = r"""
import json, sys, time, duckdb
spec = json.loads(sys.stdin.read())
con = duckdb.connect()
con.execute(f"SET threads = {spec['threads']}")
con.execute("SET TimeZone = 'UTC'")
con.execute("SET enable_progress_bar = false")
for table, glob in spec["tables"].items():
    con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{glob}')")
times, rows = [], None
for _ in range(spec["runs"]):
    start = time.perf_counter()
    rows = con.execute(spec["sql"]).fetchall()
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times, "rows": rows}, default=str))
"""


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sf", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=3, help="warm runs per query (after one cold)")
    p.add_argument("--queries", default="", help="comma-separated query numbers (default all)")
    p.add_argument("--memory", default="",
                   help="SQE query.max_query_memory for the run (default: the config's, 256MB)")
    p.add_argument("--shell", default=os.environ.get("SQE_SHELL_BIN", str(DEFAULT_SHELL)))
    p.add_argument("--json", default="", help="write the results as JSON here")
    p.add_argument("--baseline", default="", help="a previous --json file to compare with")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per query and engine")
    return p.parse_args()


def ensure_warehouse(shell: str, sf: float) -> Path:
    """An SQE warehouse with schema tpch holding the eight tables at `sf` (made once)."""
    parquet_dir = tpch_data.ensure_tpch_parquet(sf)
    root = REPO_ROOT / "build" / "bench" / f"tpch-sf{sf:g}"
    warehouse = root / "warehouse"
    marker = root / "complete"
    if marker.exists():
        return warehouse
    shutil.rmtree(root, ignore_errors=True)
    warehouse.mkdir(parents=True)
    args = [shell, "--warehouse", str(warehouse)]
    for statement in tpch_data.sqe_load_statements(parquet_dir):
        args += ["-c", statement]
    print(f"loading TPC-H SF{sf:g} into {warehouse} ...", file=sys.stderr)
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"loading failed: {proc.stderr.strip()}")
    marker.write_text("ok\n")
    return warehouse


def run_child(args: list[str], stdin: str | None, timeout: float):
    """(completed process, the child's peak RSS in bytes): the child is reaped with wait4 so
    its own resource usage is known."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    err: list[str] = []
    readers = [threading.Thread(target=lambda: out.append(proc.stdout.read())),
               threading.Thread(target=lambda: err.append(proc.stderr.read()))]
    for r in readers:
        r.start()
    if stdin is not None:
        proc.stdin.write(stdin)
    proc.stdin.close()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    killer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for r in readers:
        r.join()
    stderr = "".join(err)
    if proc.returncode < 0:
        stderr += f"\n(killed by signal {-proc.returncode}; timeout {timeout:.0f} s)"
    return (subprocess.CompletedProcess(args, proc.returncode, "".join(out), stderr),
            usage.ru_maxrss * 1024)


PEAK_RSS = {"sqe": 0, "duckdb": 0}


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(no message)"


def run_sqe(opts, warehouse: Path, sql: str):
    args = [opts.shell, "--warehouse", str(warehouse), "--threads", str(opts.threads),
            "--format", "jsonl", "--timing", "--set", "query.max_result_rows=0"]
    if opts.memory:
        args += ["--set", f"query.max_query_memory={opts.memory}"]
    args += ["-c", "USE tpch"]
    for _ in range(opts.runs + 1):
        args += ["-c", sql]
    proc, rss = run_child(args, None, opts.timeout)
    PEAK_RSS["sqe"] = max(PEAK_RSS["sqe"], rss)
    if proc.returncode != 0:
        return None, None, last_line(proc.stderr)
    times = [float(t) for t in RUN_TIME.findall(proc.stderr)][1:]  # [0] is USE
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    per_run = len(lines) // (opts.runs + 1) if lines else 0
    rows = compare.parse_jsonl("\n".join(lines[:per_run]))
    return times, rows, None


def run_duckdb(opts, warehouse: Path, sql: str):
    tables = {t: str(warehouse / "tpch" / t / "data" / "*.parquet") for t in tpch_data.TPCH_TABLES}
    spec = json.dumps({"threads": opts.threads, "tables": tables, "runs": opts.runs + 1,
                       "sql": sql})
    proc, rss = run_child([sys.executable, "-c", DUCKDB_CHILD], spec, opts.timeout)
    PEAK_RSS["duckdb"] = max(PEAK_RSS["duckdb"], rss)
    if proc.returncode != 0:
        return None, None, last_line(proc.stderr)
    data = json.loads(last_line(proc.stdout))
    return data["times"], [tuple(r) for r in data["rows"]], None


def best_warm(times: list[float]) -> float:
    return min(times[1:]) if len(times) > 1 else times[0]


def geomean(values: list[float]) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main() -> int:
    opts = parse_args()
    if not Path(opts.shell).is_file():
        sys.exit(f"sqe-shell not built at {opts.shell} (cmake --build build/release "
                 f"--target sqe-shell)")
    warehouse = ensure_warehouse(opts.shell, opts.sf)
    wanted = {int(q) for q in opts.queries.split(",") if q.strip()}
    baseline = {}
    if opts.baseline:
        baseline = {q["q"]: q for q in json.loads(Path(opts.baseline).read_text())["queries"]}
    results = []
    print(f"TPC-H SF{opts.sf:g}, {opts.threads} threads, best of {opts.runs} warm runs "
          f"(ms); SQE max_query_memory={opts.memory or 'default (256MB)'}")
    header = f"{'query':>5} {'SQE':>9} {'SQE cold':>9} {'DuckDB':>9} {'ratio':>7}  match"
    if baseline:
        header += "   vs baseline"
    print(header)
    for path in sorted(QUERY_DIR.glob("q*.sql")):
        number = int(path.stem[1:])
        if wanted and number not in wanted:
            continue
        sql = path.read_text().strip().rstrip(";")
        sqe_times, sqe_rows, sqe_error = run_sqe(opts, warehouse, sql)
        duck_times, duck_rows, duck_error = run_duckdb(opts, warehouse, sql)
        entry = {"q": path.stem, "sqe_ms": None, "sqe_cold_ms": None, "duckdb_ms": None,
                 "ratio": None, "match": False}
        if sqe_error is None:
            entry["sqe_ms"] = round(best_warm(sqe_times) * 1000, 1)
            entry["sqe_cold_ms"] = round(sqe_times[0] * 1000, 1)
        if duck_error is None:
            entry["duckdb_ms"] = round(best_warm(duck_times) * 1000, 1)
        if sqe_error is None and duck_error is None:
            problem = compare.compare_results(sql, sqe_rows, duck_rows)
            entry["match"] = problem is None
            if problem:
                entry["problem"] = problem[:300]
            entry["ratio"] = round(entry["sqe_ms"] / max(entry["duckdb_ms"], 0.1), 2)
        else:
            entry["error"] = sqe_error or duck_error
        results.append(entry)
        line = (f"{path.stem:>5} {entry['sqe_ms'] or '-':>9} {entry['sqe_cold_ms'] or '-':>9} "
                f"{entry['duckdb_ms'] or '-':>9} {entry['ratio'] or '-':>7}  "
                f"{'yes' if entry['match'] else 'NO'}")
        if baseline.get(path.stem, {}).get("sqe_ms") and entry["sqe_ms"]:
            line += f"   {entry['sqe_ms'] / baseline[path.stem]['sqe_ms']:.2f}x"
        if "error" in entry:
            line += f"   ({entry['error']})"
        elif "problem" in entry:
            line += f"   ({entry['problem']})"
        print(line, flush=True)
    ratios = [e["ratio"] for e in results if e["ratio"]]
    summary = {"sf": opts.sf, "threads": opts.threads, "runs": opts.runs,
               "max_query_memory": opts.memory,
               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "queries": results, "geomean_ratio": round(geomean(ratios), 3),
               "all_match": all(e["match"] for e in results)}
    summary["peak_rss_mib"] = {k: round(v / 2**20) for k, v in PEAK_RSS.items()}
    print(f"peak RSS: SQE {summary['peak_rss_mib']['sqe']} MiB, "
          f"DuckDB {summary['peak_rss_mib']['duckdb']} MiB")
    print(f"geometric mean of the ratios (SQE / DuckDB): {summary['geomean_ratio']:.2f} "
          f"over {len(ratios)} queries; all match: {summary['all_match']}")
    out = Path(opts.json) if opts.json else (
        REPO_ROOT / "bench" / "results" /
        f"tpch-sf{opts.sf:g}-t{opts.threads}-{datetime.datetime.now():%Y%m%d-%H%M%S}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"results: {out}")
    return 0 if summary["all_match"] else 1


if __name__ == "__main__":
    sys.exit(main())
