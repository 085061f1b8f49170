"""Iceberg's JDBC catalog layout shared with Iceberg Java's own JdbcCatalog (iceberg-core from
Maven, driven by tests/peers/java's IcebergPeer), both ways, on SQLite and PostgreSQL:
  * tables SQE registers (sqe-iceberg create + append) are listed and loaded by the Java
    catalog, which reads the same rows through IcebergGenerics;
  * a table the Java catalog creates (Java's generic Parquet writer, manifests and commit) is
    scanned by SQE with equal rows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from java_peer import PEERS, run_peer

pytestmark = pytest.mark.timeout(300)

REPO = Path(__file__).resolve().parents[2]
TOOL = Path(os.environ.get("SQE_ICEBERG_TOOL", REPO / "build/release/src/main/sqe-iceberg"))

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "name", "required": False, "type": "string"},
    {"id": 3, "name": "score", "required": False, "type": "double"}]}
ARROW = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string()),
                   pa.field("score", pa.float64())])


def rows(first: int, n: int) -> list[tuple]:
    return [(i, None if i % 5 == 0 else f"sqe-{i}", i * 0.5) for i in range(first, first + n)]


@pytest.fixture(scope="module")
def postgres_uri():
    """The harness's PostgreSQL (SQE_TEST_POSTGRES_URI, as scripts/test.sh exports) or our own."""
    if os.environ.get("SQE_TEST_POSTGRES_URI"):
        yield os.environ["SQE_TEST_POSTGRES_URI"]
        return
    # Under /tmp itself: pytest's tmp dirs are private to root and the server runs as postgres.
    d = tempfile.mkdtemp(prefix="sqe-java-postgres.", dir="/tmp")
    r = subprocess.run(["bash", str(PEERS / "postgres.sh"), "start", str(d)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, f"tests/peers/postgres.sh start failed:\n{r.stderr}"
    try:
        yield r.stdout.strip()
    finally:
        subprocess.run(["bash", str(PEERS / "postgres.sh"), "stop", str(d)], timeout=60)
        shutil.rmtree(d, ignore_errors=True)


class Backend:
    """One JDBC catalog as SQE (sqe-iceberg env) and as Java (IcebergPeer args) open it."""

    def __init__(self, kind: str, tmp: Path, postgres_uri: str | None):
        self.warehouse = tmp / "wh"
        self.warehouse.mkdir()
        self.catalog = "java_" + uuid.uuid4().hex[:10]  # distinct per test in a shared database
        self.env = dict(os.environ, SQE_CATALOG__BACKEND__TYPE="jdbc",
                        SQE_CATALOG__BACKEND__WAREHOUSE=str(self.warehouse),
                        SQE_CATALOG__NAME=self.catalog)
        if kind == "sqlite":
            db = tmp / "catalog.db"
            self.env["SQE_CATALOG__BACKEND__URL"] = f"sqlite:{db}"
            self.java = ["--uri", f"jdbc:sqlite:{db}"]
        else:
            # postgresql://user@host:port/db -> jdbc:postgresql://host:port/db + --user
            rest = postgres_uri.split("://", 1)[1]
            user, hostdb = rest.split("@", 1)
            self.env["SQE_CATALOG__BACKEND__URL"] = postgres_uri
            self.java = ["--uri", f"jdbc:postgresql://{hostdb}", "--user", user.split(":")[0]]
        self.java += ["--catalog", self.catalog, "--warehouse", str(self.warehouse)]

    def sqe(self, *args: str) -> subprocess.CompletedProcess:
        if not TOOL.is_file():
            pytest.fail(f"sqe-iceberg not built at {TOOL} (cmake --build build/release --target sqe-iceberg)")
        r = subprocess.run([str(TOOL), *args], capture_output=True, text=True, env=self.env, timeout=60)
        assert r.returncode == 0, f"sqe-iceberg {' '.join(args)} failed:\n{r.stderr}"
        return r

    def peer(self, command: str, *args: str) -> dict:
        return run_peer(command, *self.java, *args)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path):
    uri = request.getfixturevalue("postgres_uri") if request.param == "postgresql" else None
    return Backend(request.param, tmp_path, uri)


def test_java_jdbc_catalog_lists_and_loads_what_sqe_registered(backend, tmp_path):
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    pq.write_table(pa.Table.from_pylist([dict(zip(ARROW.names, r)) for r in rows(0, 40)], ARROW),
                   tmp_path / "a.parquet")
    pq.write_table(pa.Table.from_pylist([dict(zip(ARROW.names, r)) for r in rows(40, 25)], ARROW),
                   tmp_path / "b.parquet")
    backend.sqe("create-namespace", "sales")
    backend.sqe("create-namespace", "empty_ns")
    backend.sqe("create", "sales.orders", "--schema", str(tmp_path / "schema.json"))
    backend.sqe("create", "sales.returns", "--schema", str(tmp_path / "schema.json"))
    backend.sqe("append", "sales.orders", str(tmp_path / "a.parquet"))
    last = json.loads(backend.sqe("append", "sales.orders", str(tmp_path / "b.parquet")).stdout)

    listed = backend.peer("jdbc-list")
    assert sorted(listed["namespaces"]) == ["empty_ns", "sales"]
    tables = {t["name"]: t for t in listed["tables"]}
    assert sorted(tables) == ["sales.orders", "sales.returns"]
    orders = tables["sales.orders"]
    assert orders["snapshot_id"] == last["snapshot_id"]
    assert orders["row_count"] == 65
    assert sorted((r["id"], r["name"], r["score"]) for r in orders["rows"]) == rows(0, 65)
    assert [f["name"] for f in orders["schema"]["fields"]] == ["id", "name", "score"]
    meta = json.loads(backend.sqe("metadata", "sales.orders").stdout)
    assert orders["metadata_location"].removeprefix("file:") == meta["metadata_location"].removeprefix("file:")
    assert tables["sales.returns"]["snapshot_id"] is None and tables["sales.returns"]["row_count"] == 0


def test_sqe_reads_a_table_the_java_catalog_created(backend):
    created = backend.peer("jdbc-create", "--table", "lake.events", "--rows", "31")
    assert created["row_count"] == 31
    r = backend.sqe("scan", "lake.events")
    got = sorted((row["id"], row["name"], row["score"]) for row in map(json.loads, r.stdout.splitlines()))
    want = sorted((row["id"], row["name"], row["score"]) for row in created["rows"])
    assert got == want and len(got) == 31
    stats = json.loads(r.stderr.strip().splitlines()[-1])
    assert stats["snapshot_id"] == created["snapshot_id"] and stats["data_files"] == 2, stats
    # SQE appends on top of Java's snapshot; Java sees both.
    tmp = backend.warehouse.parent
    pq.write_table(pa.Table.from_pylist([dict(zip(ARROW.names, r)) for r in rows(100, 3)], ARROW),
                   tmp / "more.parquet")
    backend.sqe("append", "lake.events", str(tmp / "more.parquet"))
    again = backend.peer("scan", "--table", "lake.events")
    assert again["row_count"] == 34
    assert sorted((x["id"], x["name"], x["score"]) for x in again["rows"]) == sorted(want + rows(100, 3))
