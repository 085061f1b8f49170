"""Gzip metadata files (write.metadata.compression-codec=gzip) both ways with pyiceberg.

SQE writes `*.gz.metadata.json` for a table with the property and pyiceberg reads it;
SQE reads and commits on top of gzip metadata another writer left.
"""

from __future__ import annotations

import gzip
import json

import pyarrow.parquet as pq
import pytest
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

from test_iceberg_interop import SCHEMA, normalized, normalized_sqe, rows, sql_catalog, sqe, sqe_scan

pytestmark = pytest.mark.timeout(120)


def test_pyiceberg_reads_gzip_metadata_sqe_wrote(tmp_path):
    warehouse = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    pq.write_table(rows(0, 30), tmp_path / "a.parquet")
    sqe(warehouse, "create-namespace", "db")
    sqe(warehouse, "create", "db.gz", "--schema", str(tmp_path / "schema.json"),
        "--property", "write.metadata.compression-codec=gzip")
    sqe(warehouse, "append", "db.gz", str(tmp_path / "a.parquet"))
    location = json.loads(sqe(warehouse, "metadata", "db.gz").stdout)["metadata_location"]
    assert location.endswith(".gz.metadata.json"), location
    with open(location.removeprefix("file://").removeprefix("file:"), "rb") as f:
        assert json.loads(gzip.decompress(f.read()))["format-version"] == 2
    table = sql_catalog(warehouse).load_table("db.gz")
    assert normalized(table.scan().to_arrow()) == normalized(rows(0, 30))


def test_sqe_reads_gzip_metadata_of_another_writer(tmp_path):
    """pyiceberg does not write gzip metadata itself (Iceberg Java does, with the property):
    its table's current metadata file is gzipped under Java's name for it and the catalog
    row pointed at that file, as a Java writer's commit would leave it."""
    import sqlite3

    import pyarrow as pa
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    cat = sql_catalog(warehouse)
    cat.create_namespace("db")
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "name", StringType(), required=False))
    table = cat.create_table("db.pygz", schema=schema)
    table.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", "b", "c"]}))
    plain = cat.load_table("db.pygz").metadata_location
    gz = plain.replace(".metadata.json", ".gz.metadata.json")
    with open(plain.removeprefix("file://"), "rb") as f:
        data = f.read()
    with open(gz.removeprefix("file://"), "wb") as f:
        f.write(gzip.compress(data))
    with sqlite3.connect(warehouse / "sqe_catalog.db") as db:
        updated = db.execute("UPDATE iceberg_tables SET metadata_location = ? WHERE "
                             "table_name = 'pygz'", (gz,)).rowcount
    assert updated == 1
    got, stats = sqe_scan(warehouse, "db.pygz")
    assert sorted((r["id"], r["name"]) for r in got) == [(1, "a"), (2, "b"), (3, "c")]
    # SQE's next commit keeps the chain: pyiceberg reads the table after an SQE append.
    pq.write_table(pa.table({"id": pa.array([4], pa.int64()), "name": ["d"]}),
                   tmp_path / "more.parquet")
    sqe(warehouse, "append", "db.pygz", str(tmp_path / "more.parquet"))
    ids = sorted(cat.load_table("db.pygz").scan().to_arrow().column("id").to_pylist())
    assert ids == [1, 2, 3, 4]
