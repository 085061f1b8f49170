"""sqe-shell streams results (the P9 review's leftover): each statement's rows print as
the engine produces them, so `SELECT * FROM range(20000000) ORDER BY 1 DESC` with
`query.max_query_memory=256MB` prints all 20M rows (the sort spills) while the shell's
resident memory stays under 1 GiB, measured by sampling /proc (rss.py). The csv, tsv and
jsonl formats write each batch as it arrives; the aligned table prints pages of 10,000 rows with
the header once (main/shell_output.h). A failing statement of a script still leaves the
rows of the ones before it printed, and its error's line is the script's.

The RSS case needs a Release sqe-shell (SQE_SHELL_BIN, default build/release/src/main/
sqe-shell) and takes about a minute on the 2-core development machine.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conftest import REPO_ROOT, clean_env
from rss import RssSampler, sanitizer_build

SHELL = Path(os.environ.get("SQE_SHELL_BIN",
                            REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"))
RSS_LIMIT = 1 << 30
ROWS = 20_000_000


def shell_args(tmp_path: Path, fmt: str, *sql: str) -> list[str]:
    args = [str(SHELL), "--warehouse", str(tmp_path / "warehouse"), "--threads", "2",
            "--format", fmt, "--set", "query.max_query_memory=256MB",
            "--set", f"worker.spill_dir={tmp_path / 'spill'}"]
    for s in sql:
        args += ["-c", s]
    return args


@pytest.fixture(scope="module")
def shell_binary() -> Path:
    if not SHELL.is_file():
        pytest.fail(f"{SHELL} not built; run scripts/test.sh")
    return SHELL


class StreamedOutput:
    """Reads a process's stdout in 1 MiB pieces, keeping only the line count and the
    first and last lines (the output itself is hundreds of MB)."""

    def __init__(self):
        self.lines = 0
        self.head: list[str] = []
        self.tail = b""

    def read(self, stream) -> None:
        first = b""
        while True:
            piece = stream.read(1 << 20)
            if not piece:
                break
            self.lines += piece.count(b"\n")
            if len(first) < 4096:
                first += piece[:4096]
            self.tail = (self.tail + piece)[-4096:]
        self.head = first.decode().splitlines()[:3]

    def last_lines(self, n: int) -> list[str]:
        return self.tail.decode().splitlines()[-n:]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("fmt,first,last", [
    ("csv", ["range", str(ROWS - 1), str(ROWS - 2)], ["1", "0"]),
    ("tsv", ["range", str(ROWS - 1), str(ROWS - 2)], ["1", "0"]),
    ("jsonl", [f"[{ROWS - 1}]", f"[{ROWS - 2}]", f"[{ROWS - 3}]"], ["[1]", "[0]"]),
])
def test_a_twenty_million_row_sort_prints_in_bounded_memory(shell_binary, tmp_path, fmt, first,
                                                             last):
    reason = sanitizer_build(shell_binary)
    if reason:
        pytest.skip(f"Release binaries only: {reason}")
    args = shell_args(tmp_path, fmt, f"SELECT * FROM range({ROWS}) ORDER BY 1 DESC")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env())
    output = StreamedOutput()
    with RssSampler(proc.pid) as sampler:
        output.read(proc.stdout)
        stderr = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
    print(f"\nsqe-shell --format {fmt}: {output.lines:,} lines, peak RSS "
          f"{sampler.peak / 2**20:.0f} MiB")
    assert code == 0, stderr[-3000:]
    assert output.head == first
    assert output.last_lines(2) == last
    assert output.lines == ROWS + (0 if fmt == "jsonl" else 1)
    assert 0 < sampler.peak < RSS_LIMIT


def test_the_table_prints_in_pages_with_one_header(shell_binary, tmp_path):
    rows = 25_000  # two full pages of 10,000 rows and a part page
    proc = subprocess.run(
        shell_args(tmp_path, "table", f"SELECT range AS n, 'v' || CAST(range AS varchar) AS s "
                                      f"FROM range({rows}) ORDER BY 1 DESC"),
        capture_output=True, text=True, env=clean_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split("|")[0].strip() == "n"
    assert sum(1 for line in lines if line.startswith("--")) == 1
    assert lines[2].split("|")[0].strip() == str(rows - 1)
    assert lines[-2].split("|")[1].strip() == "v0"
    assert lines[-1] == f"({rows} rows)"
    assert len(lines) == rows + 3
    # The first page (the widest values) sized the columns for every later page.
    assert len({len(line) for i, line in enumerate(lines[:-1]) if i != 1}) == 1


def test_a_failing_statement_keeps_earlier_results_and_script_lines(shell_binary, tmp_path):
    proc = subprocess.run(
        shell_args(tmp_path, "csv", "SELECT 41 + 1 AS answer;\n\nSELECT nope"),
        capture_output=True, text=True, env=clean_env(), timeout=120)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == ["answer", "42"]
    assert "line 3:8" in proc.stderr, proc.stderr
