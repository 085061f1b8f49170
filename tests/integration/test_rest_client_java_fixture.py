"""SQE's REST catalog client against a reference REST server none of us wrote: Iceberg's Java
REST fixture (tests/peers/iceberg_rest_fixture.sh: RESTCatalogAdapter + RESTCatalogServlet
from iceberg-core over a JdbcCatalog). `sqe-iceberg` runs with `[catalog.backend] type =
"rest"` on the fixture's URI, so every namespace, table and commit call goes through
src/catalog/rest; pyiceberg's RestCatalog on the same server is the reference reader and
writer:
  * tables SQE creates, appends to, row-deletes (position deletes) and overwrites through the
    Java server read back by pyiceberg with equal rows, time travel included;
  * a partitioned table pyiceberg writes through the Java server is scanned by SQE with
    equal rows;
  * 8 writers x 25 sqe-iceberg appends race on one table through the Java server: 200
    snapshots in one chain, every row once.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_iceberg_interop import SCHEMA, TOOL, normalized, normalized_sqe, rows
from test_java_rest_fixture import rest_fixture  # noqa: F401 (fixture)

pytestmark = pytest.mark.timeout(600)


class RestSqe:
    """sqe-iceberg with its catalog the REST client on `uri`."""

    def __init__(self, uri: str):
        self.uri = uri
        self.env = dict(os.environ, SQE_CATALOG__BACKEND__TYPE="rest",
                        SQE_CATALOG__BACKEND__URI=uri, SQE_CATALOG__WAREHOUSE="")

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        if not TOOL.is_file():
            pytest.fail(f"sqe-iceberg not built at {TOOL}")
        r = subprocess.run([str(TOOL), *args], capture_output=True, text=True, env=self.env,
                           timeout=120)
        if check:
            assert r.returncode == 0, f"sqe-iceberg {' '.join(args)} failed:\n{r.stderr}"
        return r

    def scan(self, table: str, *args: str) -> list[dict]:
        return [json.loads(line) for line in self.run("scan", table, *args).stdout.splitlines()]


def py_catalog(uri: str):
    from pyiceberg.catalog.rest import RestCatalog
    return RestCatalog("fixture", uri=uri)


def test_sqe_writes_through_the_java_rest_server_and_pyiceberg_reads(rest_fixture, tmp_path):  # noqa: F811
    uri, _, warehouse, _ = rest_fixture
    sqe = RestSqe(uri)
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    pq.write_table(rows(0, 100), tmp_path / "a.parquet")
    pq.write_table(rows(100, 50), tmp_path / "b.parquet")
    sqe.run("create-namespace", "db")
    created = json.loads(sqe.run("create", "db.t", "--schema", str(tmp_path / "schema.json"),
                                 "--format-version", "2").stdout)
    # The Java server placed the table in its warehouse and wrote the metadata.
    assert created["location"].removeprefix("file:").startswith(str(warehouse))
    first = json.loads(sqe.run("append", "db.t", str(tmp_path / "a.parquet")).stdout)
    sqe.run("append", "db.t", str(tmp_path / "b.parquet"))

    catalog = py_catalog(uri)
    assert ("db",) in catalog.list_namespaces()
    assert catalog.list_tables("db") == [("db", "t")]
    t = catalog.load_table("db.t")
    assert normalized(t.scan().to_arrow()) == normalized(pa.concat_tables([rows(0, 100), rows(100, 50)]))
    assert normalized_sqe(sqe.scan("db.t")) == normalized(t.scan().to_arrow())

    # Position deletes and an overwrite, committed through the Java server.
    out = json.loads(sqe.run("delete", "db.t", "--filter", "id<10").stdout)
    assert out["rows_deleted"] == 10
    pq.write_table(rows(1000, 5), tmp_path / "new.parquet")
    out = json.loads(sqe.run("overwrite", "db.t", "--filter", "id>=100",
                             str(tmp_path / "new.parquet")).stdout)
    assert out["operation"] == "overwrite"
    want = sorted(list(range(10, 100)) + list(range(1000, 1005)))
    t = catalog.load_table("db.t")
    assert sorted(t.scan().to_arrow().column("id").to_pylist()) == want
    assert sorted(r["id"] for r in sqe.scan("db.t")) == want
    assert [s.summary.operation.value for s in t.snapshots()] == [
        "append", "append", "delete", "overwrite"]
    # Time travel, both readers, to the first append.
    assert sorted(t.scan(snapshot_id=first["snapshot_id"]).to_arrow().column("id").to_pylist()) == list(range(100))
    assert sorted(r["id"] for r in sqe.scan("db.t", "--snapshot-id", str(first["snapshot_id"]))) == list(range(100))

    # Errors from the Java server come back as clear SQE errors.
    r = sqe.run("create", "db.t", "--schema", str(tmp_path / "schema.json"), check=False)
    assert r.returncode != 0 and "already exists" in r.stderr.lower(), r.stderr
    r = sqe.run("scan", "db.missing", check=False)
    assert r.returncode != 0 and "db.missing" in r.stderr, r.stderr


def test_sqe_reads_a_partitioned_table_pyiceberg_wrote_through_the_java_server(rest_fixture):  # noqa: F811
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import BucketTransform, DayTransform
    from pyiceberg.types import LongType, NestedField, StringType, TimestamptzType
    import datetime
    uri = rest_fixture[0]
    catalog = py_catalog(uri)
    catalog.create_namespace("lake")
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType()),
                    NestedField(3, "ts", TimestamptzType()))
    spec = PartitionSpec(PartitionField(3, 1000, DayTransform(), "ts_day"),
                         PartitionField(1, 1001, BucketTransform(4), "id_bucket"))
    table = catalog.create_table("lake.events", schema=schema, partition_spec=spec)
    base = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
    arrow = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string()),
                       pa.field("ts", pa.timestamp("us", tz="UTC"))])
    data = pa.table({"id": list(range(60)), "name": [f"n{i}" if i % 4 else None for i in range(60)],
                     "ts": [base + datetime.timedelta(hours=7 * i) for i in range(60)]}, schema=arrow)
    table.append(data)
    table.delete("id < 5")  # pyiceberg rewrites the affected files (copy-on-write)
    want = sorted((r["id"], r["name"]) for r in data.to_pylist() if r["id"] >= 5)

    sqe = RestSqe(uri)
    got = sqe.scan("lake.events")
    assert sorted((r["id"], r["name"]) for r in got) == want
    assert len(catalog.load_table("lake.events").scan().plan_files()) > 1


def test_eight_writers_x_25_appends_through_the_java_rest_server(rest_fixture, tmp_path):  # noqa: F811
    writers, appends = 8, 25
    uri = rest_fixture[0]
    sqe = RestSqe(uri)
    schema = {"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "writer", "required": False, "type": "string"}]}
    arrow = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("writer", pa.string())])
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    sqe.run("create-namespace", "hot")
    sqe.run("create", "hot.events", "--schema", str(tmp_path / "schema.json"))
    for w in range(writers):
        for i in range(appends):
            pq.write_table(pa.Table.from_pylist([{"id": w * 1000 + i, "writer": f"w{w}"}], arrow),
                           tmp_path / f"w{w}-{i}.parquet")
    errors: list[BaseException] = []
    attempts: list[int] = []

    def writer(w: int) -> None:
        try:
            for i in range(appends):
                out = json.loads(sqe.run("append", "hot.events", str(tmp_path / f"w{w}-{i}.parquet")).stdout)
                attempts.append(out.get("attempts", 1))
        except BaseException as e:  # noqa: BLE001: reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=540)
    assert not errors, errors[0]
    assert len(attempts) == writers * appends
    assert max(attempts) > 1, "no append met a conflict: the writers did not race"

    want = sorted(w * 1000 + i for w in range(writers) for i in range(appends))
    assert sorted(r["id"] for r in sqe.scan("hot.events")) == want
    t = py_catalog(uri).load_table("hot.events")
    assert sorted(t.scan().to_arrow().column("id").to_pylist()) == want
    snapshots = {s.snapshot_id: s for s in t.snapshots()}
    assert len(snapshots) == writers * appends
    chain, at = set(), t.metadata.current_snapshot_id
    while at is not None:
        assert at not in chain
        chain.add(at)
        at = snapshots[at].parent_snapshot_id
    assert len(chain) == writers * appends
