"""SQE reads the delete files Iceberg Java writes, with the rows Java itself reads.

`IcebergPeer write-deletes` creates a table through Iceberg Java's JdbcCatalog (SQLite, the
same layout SQE's jdbc backend uses), appends two data files and commits row deltas the way
Java writers do: position deletes (a Parquet position delete file in v2, deletion vectors
in a Puffin file in v3) and an equality delete file on id that overlaps one positional
delete. SQE's scan must give exactly the rows Java's IcebergGenerics reader gives, and say
how many rows the deletes removed.
"""

from __future__ import annotations

import json

import pytest

from test_java_jdbc_interop import Backend

pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("version", [2, 3])
def test_sqe_applies_java_written_deletes(tmp_path, version):
    backend = Backend("sqlite", tmp_path, None)
    java = backend.peer("write-deletes", "--table", "lake.deleted", "--rows", "20",
                        "--format-version", str(version))
    kinds = sorted((d["content"], d["format"]) for d in java["delete_files"])
    if version == 2:
        assert kinds == [("EQUALITY_DELETES", "PARQUET"), ("POSITION_DELETES", "PARQUET")]
    else:
        assert kinds == [("EQUALITY_DELETES", "PARQUET"), ("POSITION_DELETES", "PUFFIN"),
                         ("POSITION_DELETES", "PUFFIN")]
    want = sorted((r["id"], r["name"], r["score"]) for r in java["rows"])
    # ids 1 and 3 (positions), 10 (position 0 of the second file), 19 and 1 (equality).
    assert [w[0] for w in want] == [i for i in range(20) if i not in (1, 3, 10, 19)]

    r = backend.sqe("scan", "lake.deleted")
    got = sorted((row["id"], row["name"], row["score"])
                 for row in map(json.loads, r.stdout.splitlines()))
    assert got == want
    stats = json.loads(r.stderr.strip().splitlines()[-1])
    assert stats["snapshot_id"] == java["snapshot_id"]
    assert stats["rows"] == 16 and stats["rows_deleted"] >= 4, stats
    assert stats["delete_files_applied"] >= 2, stats

    # A filter still sees the deletes: id 3 is gone, 4 is there.
    r = backend.sqe("scan", "lake.deleted", "--filter", "id<5")
    assert sorted(json.loads(x)["id"] for x in r.stdout.splitlines()) == [0, 2, 4]
