"""A writer killed with SIGKILL at each phase of an append loses nothing and commits
nothing twice.

`sqe-iceberg append` runs with SQE_TEST_PAUSE_AT=<crash point> (src/common/crash_point.h):
it stops dead at that point (after the data file, the manifest, the manifest list, the new
metadata file are written, or right after the catalog pointer moved) and the test kills
it with SIGKILL, so no cleanup code runs. The table must then be at its previous snapshot
(or, for the kill after the pointer moved, at the new one, holding the rows once), readable
by SQE and by pyiceberg, and the next append must land normally.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading

import pyarrow.parquet as pq
import pytest

from test_iceberg_interop import (SCHEMA, TOOL, normalized, normalized_sqe, rows, sql_catalog,
                                  sqe, sqe_scan)

pytestmark = pytest.mark.timeout(120)

BEFORE_COMMIT = ["iceberg.data_file_written", "iceberg.manifest_written",
                 "iceberg.manifest_list_written", "catalog.metadata_written"]
AFTER_COMMIT = ["catalog.committed"]


def append_killed_at(warehouse, table: str, parquet, point: str) -> None:
    env = dict(os.environ, SQE_TEST_PAUSE_AT=point)
    proc = subprocess.Popen([str(TOOL), "--warehouse", str(warehouse), "append", table,
                             str(parquet)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    paused = threading.Event()
    seen: list[str] = []

    def watch():
        for line in proc.stderr:
            seen.append(line)
            if f"sqe-crash-point: paused at {point}" in line:
                paused.set()
                return

    threading.Thread(target=watch, daemon=True).start()
    reached = paused.wait(timeout=60)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert reached, f"append never reached {point}: {''.join(seen)}"
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("point", BEFORE_COMMIT + AFTER_COMMIT)
def test_kill_at_each_phase_keeps_the_table_whole(tmp_path, point):
    warehouse = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    for i, (first, n) in enumerate(((0, 40), (40, 25), (65, 10))):
        pq.write_table(rows(first, n), tmp_path / f"in{i}.parquet")
    sqe(warehouse, "create-namespace", "db")
    sqe(warehouse, "create", "db.t", "--schema", str(tmp_path / "schema.json"))
    base = json.loads(sqe(warehouse, "append", "db.t", str(tmp_path / "in0.parquet")).stdout)

    append_killed_at(warehouse, "db.t", tmp_path / "in1.parquet", point)

    committed = point in AFTER_COMMIT
    expected = rows(0, 65) if committed else rows(0, 40)
    got, _ = sqe_scan(warehouse, "db.t")
    assert normalized_sqe(got) == normalized(expected)
    table = sql_catalog(warehouse).load_table("db.t")
    assert normalized(table.scan().to_arrow()) == normalized(expected)
    assert len(table.metadata.snapshots) == (2 if committed else 1)
    if not committed:
        assert table.metadata.current_snapshot_id == base["snapshot_id"]

    # The next writer is not blocked by anything the dead one left behind.
    sqe(warehouse, "append", "db.t", str(tmp_path / "in2.parquet"))
    got, _ = sqe_scan(warehouse, "db.t")
    want = normalized(rows(0, 75)) if committed else sorted(
        normalized(rows(0, 40)) + normalized(rows(65, 10)))
    assert normalized_sqe(got) == want
    table = sql_catalog(warehouse).load_table("db.t")
    assert normalized(table.scan().to_arrow()) == want
    assert len(table.metadata.snapshots) == (3 if committed else 2)
