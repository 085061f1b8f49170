#!/usr/bin/env python3
"""TPC-H side by side: SQE in-process (sqe-shell), SQE through Arrow Flight SQL (a running
sqe-server, read with ADBC's flightsql driver) and DuckDB, all on the same Parquet files.

The data (--data):
* dbgen (default): TPC-H at --sf from DuckDB's dbgen (cached by tests/integration/differential),
  copied once into an SQE warehouse (build/bench/tpch-sf<SF>/warehouse, schema tpch).
* sqe-datagen: `sqe-datagen tpch --sf SF --warehouse DIR` writes the Iceberg tables straight
  into an SQE warehouse (build/bench/tpch-datagen-sf<SF>/warehouse).
Either way DuckDB reads the *SQE tables' own data files* (read_parquet over
<warehouse>/tpch/<table>/data), so all engines read exactly the same files.

Per query: one sqe-shell process runs the query --runs + 1 times (the first run is "cold":
fresh process, empty footer cache; the others warm); the Flight SQL client runs it --runs + 1
times on one sqe-server started for the whole run (its first run is cold only for that query's
files); one DuckDB child process does the same with the same thread count. The reported time
is the best warm run; Flight SQL times are from the statement to the last batch received.
sqe-server has no thread setting: its queries run on all cores ("flight_threads" in the
JSON), whatever --threads says.
Every result, in-process and through Flight SQL, is checked against DuckDB's with the
differential tests' rules (tests/integration/differential/compare.py: exact for integers,
strings and dates, decimals to their scale, doubles to a relative 1e-9).

Output: a table (query, SQE ms, SQE Flight SQL ms, DuckDB ms, ratio, match) with the geometric
mean of the ratios (in-process SQE / DuckDB, and Flight SQL / DuckDB) and each engine's peak
RSS; --json FILE writes the same as JSON (default under bench/results/). --baseline FILE adds
the ratio of this run's SQE time to the baseline's. --no-flight skips the Flight SQL column.

Usage: bench/tpch/run_tpch.py --sf 1 --threads 2 [--runs 3] [--queries 1,5,9]
       [--data dbgen|sqe-datagen] [--memory 2GB] [--json FILE] [--baseline FILE]
A benchmark, never a timed test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
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
DEFAULT_BIN = REPO_ROOT / "build" / "release" / "src" / "main"
DEFAULT_SHELL = DEFAULT_BIN / "sqe-shell"
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
    p.add_argument("--data", choices=["dbgen", "sqe-datagen"], default="dbgen",
                   help="whose TPC-H data: DuckDB's dbgen (default) or sqe-datagen's")
    p.add_argument("--shell", default=os.environ.get("SQE_SHELL_BIN", str(DEFAULT_SHELL)))
    p.add_argument("--server", default=os.environ.get("SQE_SERVER_BIN",
                                                      str(DEFAULT_BIN / "sqe-server")))
    p.add_argument("--datagen", default=os.environ.get("SQE_DATAGEN_BIN",
                                                       str(DEFAULT_BIN / "sqe-datagen")))
    p.add_argument("--no-flight", action="store_true",
                   help="skip the Flight SQL column (no sqe-server started)")
    p.add_argument("--json", default="", help="write the results as JSON here")
    p.add_argument("--baseline", default="", help="a previous --json file to compare with")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per query and engine")
    return p.parse_args()


def ensure_datagen_warehouse(datagen: str, sf: float) -> Path:
    """An SQE warehouse whose schema tpch sqe-datagen wrote at `sf` (made once)."""
    if not Path(datagen).is_file():
        sys.exit(f"sqe-datagen not built at {datagen} (cmake --build build/release "
                 f"--target sqe-datagen)")
    root = REPO_ROOT / "build" / "bench" / f"tpch-datagen-sf{sf:g}"
    warehouse = root / "warehouse"
    marker = root / "complete"
    # Made again when sqe-datagen was rebuilt since (its data may have changed).
    stat = Path(datagen).stat()
    version = f"{Path(datagen).resolve()} {stat.st_size} {stat.st_mtime_ns}\n"
    if marker.exists() and marker.read_text() == version:
        return warehouse
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    print(f"generating TPC-H SF{sf:g} with sqe-datagen into {warehouse} ...", file=sys.stderr)
    proc = subprocess.run([datagen, "tpch", "--sf", f"{sf:g}", "--warehouse", str(warehouse)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"sqe-datagen failed: {proc.stderr.strip()}")
    marker.write_text(version)
    return warehouse


def ensure_warehouse(shell: str, sf: float) -> Path:
    """An SQE warehouse with schema tpch holding dbgen's eight tables at `sf` (made once)."""
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


def vm_hwm(pid: int) -> int:
    """The peak resident memory of process `pid` so far (VmHWM, bytes); 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_child(args: list[str], stdin: str | None, timeout: float):
    """(completed process, the child's peak RSS in bytes). The peak is the child's VmHWM,
    sampled every 20 ms while it runs: wait4's ru_maxrss would not do, since Linux carries
    the parent's (this runner's, with pyarrow and DuckDB loaded) peak across the exec."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    err: list[str] = []
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], vm_hwm(proc.pid))
            done.wait(0.02)

    threads = [threading.Thread(target=lambda: out.append(proc.stdout.read())),
               threading.Thread(target=lambda: err.append(proc.stderr.read())),
               threading.Thread(target=sample)]
    for t in threads:
        t.start()
    if stdin is not None:
        proc.stdin.write(stdin)
    proc.stdin.close()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    # Reading stdout to its end means the child is exiting: its last peak is in.
    threads[0].join()
    proc.wait()
    killer.cancel()
    done.set()
    for t in threads:
        t.join()
    stderr = "".join(err)
    if proc.returncode < 0:
        stderr += f"\n(killed by signal {-proc.returncode}; timeout {timeout:.0f} s)"
    return subprocess.CompletedProcess(args, proc.returncode, "".join(out), stderr), peak[0]


PEAK_RSS = {"sqe": 0, "sqe_flight": 0, "duckdb": 0}


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


class FlightServer:
    """An sqe-server in local mode over the benchmark's warehouse (embedded catalog, anonymous
    admin), its Flight SQL port read by ADBC's flightsql driver. stop() returns its peak RSS."""

    def __init__(self, opts, warehouse: Path):
        from conftest import ServerConfig, Ports, clean_env, free_ports, is_listening
        # The integration tests' configuration (local mode, embedded catalog in
        # <dir>/warehouse, anonymous admin, free ports) with the benchmark's limits.
        config = ServerConfig(dir=warehouse.parent, ports=Ports(*free_ports(5)))
        config.extra_toml = "[query]\nmax_result_rows = 0\n"
        if opts.memory:
            config.extra_toml += f'max_query_memory = "{opts.memory}"\n'
        path = config.write("sqe-bench-server.toml")
        self.port = config.ports.flight_sql
        log_path = warehouse.parent / "sqe-bench-server.log"
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen([opts.server, "--config", str(path)],
                                     stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, env=clean_env())
        deadline = time.monotonic() + 30
        while not is_listening(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                sys.exit(f"sqe-server did not start; see {log_path}")
            time.sleep(0.05)
        from adbc_driver_flightsql import dbapi
        self.conn = dbapi.connect(f"grpc://127.0.0.1:{self.port}", autocommit=True)

    def stop(self) -> int:
        rss = vm_hwm(self.proc.pid)
        if getattr(self, "conn", None) is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - the server may already be gone
                pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return rss


def flight_value(value):
    """An Arrow value as sqe-shell's JSON lines give it (what compare.values_equal expects):
    decimals as exact strings, dates and timestamps as ISO text."""
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def run_flight(opts, server: FlightServer, sql: str):
    """(times, rows, error) of --runs + 1 runs of `sql` through Flight SQL."""
    times, rows = [], None
    try:
        with server.conn.cursor() as cur:
            for _ in range(opts.runs + 1):
                start = time.perf_counter()
                cur.execute(sql)
                table = cur.fetch_arrow_table()
                times.append(time.perf_counter() - start)
            rows = [[flight_value(v) for v in row.values()] for row in table.to_pylist()]
    except Exception as e:  # noqa: BLE001 - any driver error is this query's failure
        return None, None, last_line(str(e))
    return times, rows, None


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
    if not opts.no_flight and not Path(opts.server).is_file():
        sys.exit(f"sqe-server not built at {opts.server} (cmake --build build/release "
                 f"--target sqe-server), or pass --no-flight")
    if opts.data == "sqe-datagen":
        warehouse = ensure_datagen_warehouse(opts.datagen, opts.sf)
    else:
        warehouse = ensure_warehouse(opts.shell, opts.sf)
    wanted = {int(q) for q in opts.queries.split(",") if q.strip()}
    baseline = {}
    if opts.baseline:
        baseline = {q["q"]: q for q in json.loads(Path(opts.baseline).read_text())["queries"]}
    server = None
    if not opts.no_flight and opts.threads != os.cpu_count():
        print(f"note: sqe-server has no thread setting; its Flight SQL queries run on all "
              f"{os.cpu_count()} cores, not --threads {opts.threads}", file=sys.stderr)
    if not opts.no_flight:
        server = FlightServer(opts, warehouse)
        with server.conn.cursor() as cur:
            cur.execute("USE tpch")
    try:
        results = run_queries(opts, warehouse, server, wanted, baseline)
    finally:
        if server is not None:
            PEAK_RSS["sqe_flight"] = server.stop()
    ratios = [e["ratio"] for e in results if e["ratio"]]
    flight_ratios = [e["flight_ratio"] for e in results if e.get("flight_ratio")]
    summary = {"sf": opts.sf, "threads": opts.threads, "runs": opts.runs, "data": opts.data,
               "max_query_memory": opts.memory,
               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "queries": results, "geomean_ratio": round(geomean(ratios), 3),
               "all_match": all(e["match"] for e in results)}
    if server is not None:
        summary["geomean_flight_ratio"] = round(geomean(flight_ratios), 3)
        summary["flight_threads"] = os.cpu_count()
    summary["peak_rss_mib"] = {k: round(v / 2**20) for k, v in PEAK_RSS.items()
                               if server is not None or k != "sqe_flight"}
    rss = summary["peak_rss_mib"]
    print(f"peak RSS: SQE {rss['sqe']} MiB"
          + (f", sqe-server (Flight SQL) {rss['sqe_flight']} MiB" if server else "")
          + f", DuckDB {rss['duckdb']} MiB")
    print(f"geometric mean of the ratios (SQE / DuckDB): {summary['geomean_ratio']:.2f} "
          f"over {len(ratios)} queries; all match: {summary['all_match']}")
    if server is not None:
        print(f"geometric mean of the ratios (SQE Flight SQL / DuckDB): "
              f"{summary['geomean_flight_ratio']:.2f} over {len(flight_ratios)} queries")
    out = Path(opts.json) if opts.json else (
        REPO_ROOT / "bench" / "results" /
        f"tpch-sf{opts.sf:g}-t{opts.threads}-{datetime.datetime.now():%Y%m%d-%H%M%S}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"results: {out}")
    return 0 if summary["all_match"] else 1


def run_queries(opts, warehouse: Path, server, wanted: set[int], baseline: dict) -> list[dict]:
    """Runs each wanted query on every engine, printing a line a query; the JSON entries."""
    results = []
    print(f"TPC-H SF{opts.sf:g} ({opts.data} data), {opts.threads} threads, best of "
          f"{opts.runs} warm runs (ms); SQE max_query_memory={opts.memory or 'default (256MB)'}")
    header = (f"{'query':>5} {'SQE':>9} {'SQE cold':>9} {'Flight SQL':>10} {'DuckDB':>9} "
              f"{'ratio':>7}  match")
    if baseline:
        header += "   vs baseline"
    print(header)
    for path in sorted(QUERY_DIR.glob("q*.sql")):
        number = int(path.stem[1:])
        if wanted and number not in wanted:
            continue
        sql = path.read_text().strip().rstrip(";")
        sqe_times, sqe_rows, sqe_error = run_sqe(opts, warehouse, sql)
        flight_times, flight_rows, flight_error = (None, None, None)
        if server is not None:
            flight_times, flight_rows, flight_error = run_flight(opts, server, sql)
        duck_times, duck_rows, duck_error = run_duckdb(opts, warehouse, sql)
        entry = {"q": path.stem, "sqe_ms": None, "sqe_cold_ms": None, "duckdb_ms": None,
                 "ratio": None, "match": False}
        if server is not None:
            entry.update({"sqe_flight_ms": None, "flight_ratio": None, "flight_match": False})
        if sqe_error is None:
            entry["sqe_ms"] = round(best_warm(sqe_times) * 1000, 1)
            entry["sqe_cold_ms"] = round(sqe_times[0] * 1000, 1)
        if flight_times is not None:
            entry["sqe_flight_ms"] = round(best_warm(flight_times) * 1000, 1)
        if duck_error is None:
            entry["duckdb_ms"] = round(best_warm(duck_times) * 1000, 1)
        errors = [e for e in (sqe_error, flight_error and f"Flight SQL: {flight_error}",
                              duck_error) if e]
        if sqe_error is None and duck_error is None:
            problem = compare.compare_results(sql, sqe_rows, duck_rows)
            entry["match"] = problem is None
            if problem:
                entry["problem"] = problem[:300]
            entry["ratio"] = round(entry["sqe_ms"] / max(entry["duckdb_ms"], 0.1), 2)
        if server is not None and flight_error is None and duck_error is None:
            problem = compare.compare_results(sql, flight_rows, duck_rows)
            entry["flight_match"] = problem is None
            if problem:
                entry["flight_problem"] = problem[:300]
            entry["flight_ratio"] = round(entry["sqe_flight_ms"] / max(entry["duckdb_ms"], 0.1),
                                          2)
        # "match": every SQE path returned DuckDB's result.
        entry["match"] = entry["match"] and (server is None or entry["flight_match"])
        if errors:
            entry["error"] = "; ".join(errors)
        results.append(entry)
        line = (f"{path.stem:>5} {entry['sqe_ms'] or '-':>9} {entry['sqe_cold_ms'] or '-':>9} "
                f"{entry.get('sqe_flight_ms') or '-':>10} {entry['duckdb_ms'] or '-':>9} "
                f"{entry['ratio'] or '-':>7}  {'yes' if entry['match'] else 'NO'}")
        if baseline.get(path.stem, {}).get("sqe_ms") and entry["sqe_ms"]:
            line += f"   {entry['sqe_ms'] / baseline[path.stem]['sqe_ms']:.2f}x"
        for key in ("error", "problem", "flight_problem"):
            if key in entry:
                line += f"   ({entry[key]})"
        print(line, flush=True)
    return results


if __name__ == "__main__":
    sys.exit(main())
