"""Memory safety (issue P9, deliverable 4 and the memory acceptance point): operators that
would exceed `query.max_query_memory` spill to `worker.spill_dir` and finish, with the
process's peak RSS under 1 GiB; with `worker.spill_to_disk = false` they fail with
ResourceExhausted naming the limit; the query's spill directory is empty once it ends, also
after a timeout mid-spill, and a crashed process's directory is removed at the next start;
`worker.memory_limit` caps the sum of the running queries.

The cases drive the Release `sqe-shell` (SQE_SHELL_BIN, default build/release/src/main/
sqe-shell) with `--set query.max_query_memory=256MB --set worker.spill_dir=<tmp>`; the sort
streams its 50M rows to a pyarrow.flight client of `sqe-server` (the shell streams too:
test_shell_streaming.py). Each case watches the spill directory on a thread: spilling
must have written files while the query ran.

Adding a case: `assert_completes_by_spilling(tmp_path, sql, expected_row, label)` for a
query whose one-row result the shell prints, else run it through `shell()` or
`FlightServer` inside `SpillWatch(spill_dir)` and end with `assert_spilled_and_clean`.
Release binaries only (a sanitizer build's shadow memory makes RSS meaningless); together
they take about two minutes on the 2-core development machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.flight as flight
import pytest

from conftest import REPO_ROOT, clean_env, is_listening
from test_flight_sql import statement_query
from rss import Poller, RssSampler, sanitizer_build

SHELL = Path(os.environ.get("SQE_SHELL_BIN",
                            REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"))
RSS_LIMIT = 1 << 30
QUERY_MEMORY = "256MB"

GROUPS = 20_000_000
GROUP_ROWS = 40_000_000
GROUP_BY = (f"SELECT count(*), sum(c), min(c), max(c), sum(s), sum(k) FROM ("
            f"SELECT range % {GROUPS} AS k, count(*) AS c, sum(range) AS s "
            f"FROM range({GROUP_ROWS}) GROUP BY 1)")
# Every key k has the rows k and k + GROUPS.
GROUP_BY_RESULT = [GROUPS, GROUP_ROWS, 2, 2, GROUP_ROWS * (GROUP_ROWS - 1) // 2,
                   GROUPS * (GROUPS - 1) // 2]

SORT_ROWS = 50_000_000
MULTIPLIER = 7919  # prime, so n -> n * 7919 % SORT_ROWS is a permutation
SORT = (f"SELECT range AS n, (range * {MULTIPLIER}) % {SORT_ROWS} AS k "
        f"FROM range({SORT_ROWS}) ORDER BY k")


@pytest.fixture(scope="module", autouse=True)
def release_only():
    for binary in (SHELL, Path(os.environ.get("SQE_SERVER_BIN", REPO_ROOT / "build" / "release" /
                                              "src" / "main" / "sqe-server"))):
        if not binary.is_file():
            pytest.fail(f"{binary} not built; run scripts/test.sh")
        reason = sanitizer_build(binary)
        if reason:
            pytest.skip(f"Release binaries only: {reason}")


class SpillWatch(Poller):
    """Polls a spill directory on a thread: the most bytes it held at once."""

    interval = 0.05

    def __init__(self, root: Path):
        super().__init__()
        self.root = root
        self.peak_bytes = 0
        self.peak_files = 0

    def sample(self) -> bool:
        files, size = 0, 0
        for dirpath, _, names in os.walk(self.root):
            for name in names:
                try:
                    size += os.path.getsize(os.path.join(dirpath, name))
                    files += 1
                except OSError:
                    pass  # removed meanwhile
        self.peak_bytes = max(self.peak_bytes, size)
        self.peak_files = max(self.peak_files, files)
        return True


def assert_spilled_and_clean(watch: SpillWatch):
    assert watch.peak_files > 0 and watch.peak_bytes > 0, "nothing was spilled"
    left = [str(p) for p in watch.root.rglob("*")]
    assert left == [], f"spill directory not empty after the query: {left[:5]}"


@dataclass
class ShellRun:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss: int  # bytes (the child's ru_maxrss)


def shell(tmp_path: Path, sql: str, spill_dir: Path | None, *sets: str,
          timeout: float = 170, kill_after: float | None = None) -> ShellRun:
    """Runs one statement in sqe-shell (2 threads, 256MB per query, csv output)."""
    args = [str(SHELL), "--warehouse", str(tmp_path / "warehouse"), "--threads", "2",
            "--format", "csv", "--set", f"query.max_query_memory={QUERY_MEMORY}"]
    if spill_dir is not None:
        args += ["--set", f"worker.spill_dir={spill_dir}"]
    for s in sets:
        args += ["--set", s]
    args += ["-c", sql]
    begin = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=clean_env())
    if kill_after is not None:
        time.sleep(kill_after)
        proc.send_signal(signal.SIGKILL)
    # wait4 gives the child's peak RSS; read the pipes on threads meanwhile.
    out: dict[str, str] = {}
    readers = [threading.Thread(target=lambda n=n, f=f: out.__setitem__(n, f.read()))
               for n, f in (("stdout", proc.stdout), ("stderr", proc.stderr))]
    for r in readers:
        r.start()
    deadline = begin + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    for r in readers:
        r.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return ShellRun(proc.returncode, out.get("stdout", ""), out.get("stderr", ""),
                    time.monotonic() - begin, usage.ru_maxrss * 1024)


def csv_numbers(stdout: str) -> list[int]:
    lines = [line for line in stdout.splitlines() if line.strip()]
    return [int(v) for v in lines[-1].split(",")]


def assert_completes_by_spilling(tmp_path: Path, sql: str, expected: list[int],
                                 label: str) -> ShellRun:
    """Runs `sql` in sqe-shell with spilling on: its csv row must be `expected`, the peak
    RSS under 1 GiB, the spill directory used and empty afterwards; prints the figures."""
    spill = tmp_path / "spill"
    with SpillWatch(spill) as watch:
        run = shell(tmp_path, sql, spill)
    assert run.returncode == 0, run.stderr[-3000:]
    assert csv_numbers(run.stdout) == expected
    print(f"\n{label}: {run.seconds:.1f} s, peak RSS {run.peak_rss / 2**20:.0f} MiB, spill "
          f"directory peak {watch.peak_bytes / 2**20:.0f} MiB in {watch.peak_files} files")
    assert run.peak_rss < RSS_LIMIT
    assert_spilled_and_clean(watch)
    return run


def test_group_by_twenty_million_keys_spills_under_256mb(tmp_path):
    assert_completes_by_spilling(tmp_path, GROUP_BY, GROUP_BY_RESULT,
                                 f"GROUP BY {GROUPS:,} keys over {GROUP_ROWS:,} rows")


@pytest.mark.parametrize("sql", [GROUP_BY, f"SELECT count(*), max(n) FROM ({SORT})"],
                         ids=["group_by", "sort"])
def test_without_spilling_the_limit_is_resource_exhausted(tmp_path, sql):
    spill = tmp_path / "spill"
    run = shell(tmp_path, sql, spill, "worker.spill_to_disk=false")
    assert run.returncode == 1, run.stdout[-2000:]
    assert "query.max_query_memory" in run.stderr, run.stderr
    assert "worker.spill_to_disk" in run.stderr, run.stderr
    assert not spill.exists() or list(spill.rglob("*")) == []


def test_timeout_mid_spill_leaves_the_spill_directory_empty(tmp_path):
    spill = tmp_path / "spill"
    with SpillWatch(spill) as watch:
        run = shell(tmp_path, GROUP_BY, spill, "query.timeout_secs=5")
    assert run.returncode == 1, run.stdout[-2000:]
    assert "query.timeout_secs" in run.stderr, run.stderr
    assert_spilled_and_clean(watch)


def test_a_crashed_process_spill_directory_is_removed_at_the_next_start(tmp_path):
    spill = tmp_path / "spill"
    with SpillWatch(spill) as watch:
        killed = shell(tmp_path, GROUP_BY, spill, kill_after=4)
    assert killed.returncode == -signal.SIGKILL
    assert watch.peak_files > 0, "the killed query had not spilled yet"
    left = [p for p in spill.iterdir()]
    assert left, "a killed process cannot clean up; its directory should still be there"
    run = shell(tmp_path, "SELECT 1", spill)
    assert run.returncode == 0, run.stderr
    assert list(spill.iterdir()) == []


class FlightServer:
    """sqe-server with the Flight SQL listener, query and worker settings from the env."""

    def __init__(self, start_server, server_config, env: dict[str, str]):
        server_config.extra_toml = "[query]\nmax_result_rows = 0\n"
        self.server = start_server(["--config", str(server_config.write())], env=env)
        self.server.wait_ready()
        deadline = time.monotonic() + 10
        while not is_listening(server_config.ports.flight_sql) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.location = f"grpc://127.0.0.1:{server_config.ports.flight_sql}"

    def reader(self, client: flight.FlightClient, sql: str) -> flight.FlightStreamReader:
        info = client.get_flight_info(statement_query(sql))
        assert len(info.endpoints) == 1
        return client.do_get(info.endpoints[0].ticket)


@pytest.mark.timeout(400)
def test_sort_of_fifty_million_rows_spills_and_streams_in_order(tmp_path, start_server,
                                                                server_config):
    spill = tmp_path / "spill"
    server = FlightServer(start_server, server_config,
                          {"SQE_QUERY__MAX_QUERY_MEMORY": QUERY_MEMORY,
                           "SQE_WORKER__SPILL_DIR": str(spill),
                           "SQE_COORDINATOR__FLIGHT_COMPRESSION": "none"})
    pid = server.server.proc.pid
    rows = 0
    with SpillWatch(spill) as watch, RssSampler(pid) as sampler:
        begin = time.monotonic()
        with flight.FlightClient(server.location) as client:
            for i, chunk in enumerate(server.reader(client, SORT)):
                batch = chunk.data
                k = batch.column(1)
                n = batch.column(0)
                count = batch.num_rows
                if count == 0:
                    continue
                # In order and complete: the keys are exactly rows, rows + 1, ...
                assert k[0].as_py() == rows, (i, k[0], rows)
                if count > 1:
                    steps = pc.subtract(k.slice(1), k.slice(0, count - 1))
                    assert pc.min_max(steps).as_py() == {"min": 1, "max": 1}, i
                # Each row's payload travelled with its key.
                for j in (0, count // 2, count - 1):
                    assert n[j].as_py() * MULTIPLIER % SORT_ROWS == k[j].as_py()
                rows += count
        seconds = time.monotonic() - begin
    peak = sampler.peak  # VmRSS samples and the VmHWM at the end
    print(f"\nORDER BY over {SORT_ROWS:,} rows streamed: {seconds:.1f} s, server peak RSS "
          f"{peak / 2**20:.0f} MiB, spill directory peak {watch.peak_bytes / 2**20:.0f} MiB "
          f"in {watch.peak_files} files")
    assert rows == SORT_ROWS
    assert peak < RSS_LIMIT
    assert_spilled_and_clean(watch)


PROCESS_QUERY = "SELECT range FROM range(4000000) ORDER BY range DESC"


@pytest.mark.parametrize("spill_on", [False, True], ids=["spill_off", "spill_on"])
def test_worker_memory_limit_caps_concurrent_queries(tmp_path, start_server, server_config,
                                                     spill_on):
    """Query A sorts 4M rows and, paused after its first batch, keeps its sorted run; query
    B then needs as much again. Each fits its 256MB, both do not fit the process's 250MB:
    B fails naming worker.memory_limit, or spills and completes when spilling is on."""
    spill = tmp_path / "spill"
    env = {"SQE_QUERY__MAX_QUERY_MEMORY": QUERY_MEMORY, "SQE_WORKER__MEMORY_LIMIT": "250MB",
           "SQE_WORKER__SPILL_DIR": str(spill),
           "SQE_WORKER__SPILL_TO_DISK": "true" if spill_on else "false"}
    server = FlightServer(start_server, server_config, env)
    with flight.FlightClient(server.location) as a, flight.FlightClient(server.location) as b:
        first = server.reader(a, PROCESS_QUERY)
        head = first.read_chunk().data
        assert head.column(0)[0].as_py() == 3999999
        with SpillWatch(spill) as watch:
            if spill_on:
                table = server.reader(b, PROCESS_QUERY).read_all()
                assert table.num_rows == 4000000
                assert table.column(0)[0].as_py() == 3999999
                assert table.column(0)[table.num_rows - 1].as_py() == 0
            else:
                # pyarrow raises gRPC's RESOURCE_EXHAUSTED as ArrowInvalid.
                with pytest.raises((flight.FlightError, pa.ArrowException)) as error:
                    server.reader(b, PROCESS_QUERY).read_all()
                assert "worker.memory_limit" in str(error.value), str(error.value)
                assert "worker.spill_to_disk" in str(error.value), str(error.value)
        rest = first.read_all()
        assert head.num_rows + rest.num_rows == 4000000
    if spill_on:
        assert_spilled_and_clean(watch)


# --- Hash join (helper spillB): the grace hash join of src/exec/hash_join.h ---------------

JOIN_ROWS = 30_000_000
JOIN = (f"SELECT count(*), sum(a.range) FROM range({JOIN_ROWS}) a "
        f"JOIN range({JOIN_ROWS}) b ON a.range = b.range")
# Every key matches once: sum(0 .. n - 1).
JOIN_RESULT = [JOIN_ROWS, JOIN_ROWS * (JOIN_ROWS - 1) // 2]


def test_join_with_a_thirty_million_row_build_side_spills_under_256mb(tmp_path):
    assert_completes_by_spilling(tmp_path, JOIN, JOIN_RESULT,
                                 f"JOIN with a {JOIN_ROWS:,}-row build side")


# Computed keys repeating on both sides: every key 3 times a side, so 9 pairs a key.
JOIN_DUPLICATES = (f"SELECT count(*), sum(a.range) FROM range({JOIN_ROWS}) a "
                   f"JOIN range({JOIN_ROWS}) b ON a.range % 10000000 = b.range % 10000000")
JOIN_DUPLICATES_RESULT = [9 * 10_000_000, 3 * JOIN_ROWS * (JOIN_ROWS - 1) // 2]


def test_join_with_repeated_keys_spills_and_fans_out_under_256mb(tmp_path):
    assert_completes_by_spilling(
        tmp_path, JOIN_DUPLICATES, JOIN_DUPLICATES_RESULT,
        f"JOIN of {JOIN_ROWS:,} x {JOIN_ROWS:,} rows on repeated keys (90M pairs)")


def test_join_explain_analyze_shows_the_spilled_bytes(tmp_path):
    spill = tmp_path / "spill"
    with SpillWatch(spill) as watch:
        run = shell(tmp_path, "EXPLAIN ANALYZE SELECT count(*) FROM range(3000000) a "
                              "JOIN range(3000000) b ON a.range = b.range", spill,
                    "query.max_query_memory=64MB")
    assert run.returncode == 0, run.stderr[-3000:]
    joins = [line for line in run.stdout.splitlines() if "HashJoin" in line]
    assert len(joins) == 1, run.stdout
    assert "rows=3000000" in joins[0] and "spilled=" in joins[0], joins[0]
    assert_spilled_and_clean(watch)


def test_join_without_spilling_is_resource_exhausted(tmp_path):
    spill = tmp_path / "spill"
    run = shell(tmp_path, JOIN, spill, "worker.spill_to_disk=false")
    assert run.returncode == 1, run.stdout[-2000:]
    assert "memory limit 256MB exceeded" in run.stderr, run.stderr
    assert "query.max_query_memory" in run.stderr, run.stderr
    assert "worker.spill_to_disk" in run.stderr, run.stderr
    assert not spill.exists() or list(spill.rglob("*")) == []
    assert run.peak_rss < RSS_LIMIT


def test_join_timeout_mid_spill_leaves_the_spill_directory_empty(tmp_path):
    spill = tmp_path / "spill"
    with SpillWatch(spill) as watch:
        run = shell(tmp_path, JOIN_DUPLICATES, spill, "query.timeout_secs=4")
    assert run.returncode == 1, run.stdout[-2000:]
    assert "query.timeout_secs" in run.stderr, run.stderr
    assert_spilled_and_clean(watch)
