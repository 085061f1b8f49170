"""8 writers x 25 appends into one table through the JDBC catalog on a real PostgreSQL.

Each writer is a thread running 25 `sqe-iceberg append` processes one after the other, each
appending one Parquet file of unique ids; the eight race on the same table, so most commits
meet a Conflict and FastAppend retries them (refresh, re-point the manifest list, commit
again). At the end the table has 200 snapshots in one parent chain and every row exactly
once, as SQE and Iceberg Java's JdbcCatalog (the reference reader) both see it.
"""

from __future__ import annotations

import json
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_java_jdbc_interop import ARROW, SCHEMA, Backend, postgres_uri  # noqa: F401 (fixture)

pytestmark = pytest.mark.timeout(600)

WRITERS, APPENDS = 8, 25


def test_eight_writers_each_append_lands_once(tmp_path, postgres_uri):  # noqa: F811
    backend = Backend("postgresql", tmp_path, postgres_uri)
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    backend.sqe("create-namespace", "hot")
    backend.sqe("create", "hot.events", "--schema", str(tmp_path / "schema.json"))
    for w in range(WRITERS):
        for i in range(APPENDS):
            n = w * 1000 + i
            pq.write_table(pa.Table.from_pylist([{"id": n, "name": f"w{w}", "score": i * 0.5}],
                                                ARROW), tmp_path / f"w{w}-{i}.parquet")
    errors: list[BaseException] = []
    attempts: list[int] = []

    def writer(w: int) -> None:
        try:
            for i in range(APPENDS):
                out = json.loads(backend.sqe("append", "hot.events",
                                             str(tmp_path / f"w{w}-{i}.parquet")).stdout)
                attempts.append(out.get("attempts", 1))
        except BaseException as e:  # noqa: BLE001: reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=540)
    assert not errors, errors[0]
    assert len(attempts) == WRITERS * APPENDS
    assert max(attempts) > 1, "no append met a conflict: the writers did not race"

    r = backend.sqe("scan", "hot.events")
    ids = sorted(json.loads(line)["id"] for line in r.stdout.splitlines())
    assert ids == sorted(w * 1000 + i for w in range(WRITERS) for i in range(APPENDS))
    meta = json.loads(backend.sqe("metadata", "hot.events").stdout)
    assert len(meta["snapshots"]) == WRITERS * APPENDS
    # One parent chain through every snapshot.
    by_id = {s["snapshot_id"]: s for s in meta["snapshots"]}
    chain, at = set(), meta["current_snapshot_id"]
    while at is not None:
        assert at not in chain
        chain.add(at)
        at = by_id[at].get("parent_snapshot_id")
    assert len(chain) == WRITERS * APPENDS

    java = backend.peer("scan", "--table", "hot.events")
    assert java["row_count"] == WRITERS * APPENDS
    assert sorted(row["id"] for row in java["rows"]) == ids
