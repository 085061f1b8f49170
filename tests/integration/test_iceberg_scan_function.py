"""iceberg_scan() on tables pyiceberg wrote, outside SQE's catalog.

pyiceberg writes a partitioned table (appends, a delete that rewrites files) into its own
SQLite catalog in a temporary directory; sqe-shell, on an unrelated empty warehouse, reads
it with `SELECT ... FROM iceberg_scan('<metadata file>' | '<table directory>')`, and the
rows must equal what pyiceberg and DuckDB's iceberg_scan read, for the current snapshot
and for an older one (snapshot_id => ...).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pytest

pytestmark = pytest.mark.timeout(180)

REPO = Path(__file__).resolve().parents[2]
SHELL = Path(os.environ.get("SQE_SHELL_BIN", REPO / "build/release/src/main/sqe-shell"))

ARROW_SCHEMA = pa.schema([
    pa.field("id", pa.int64(), nullable=False),
    pa.field("region", pa.string()),
    pa.field("amount", pa.float64()),
])


def shell(warehouse: Path, sql: str) -> subprocess.CompletedProcess:
    if not SHELL.is_file():
        pytest.fail(f"sqe-shell not built at {SHELL} (cmake --build build/release --target sqe-shell)")
    return subprocess.run([str(SHELL), "--warehouse", str(warehouse), "--format", "jsonl", "-c", sql],
                          capture_output=True, text=True, timeout=120)


def sqe_rows(warehouse: Path, sql: str) -> list[list]:
    r = shell(warehouse, sql)
    assert r.returncode == 0, f"sqe-shell failed on:\n{sql}\n{r.stderr}"
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def duckdb_rows(sql: str) -> list[tuple]:
    import duckdb
    import duckdb_extension_avro
    import duckdb_extension_iceberg
    con = duckdb.connect()
    for module, name in ((duckdb_extension_avro, "avro"), (duckdb_extension_iceberg, "iceberg")):
        path = Path(module.__file__).parent / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
        con.execute(f"LOAD '{path}'")
    return [tuple(r) for r in con.execute(sql).fetchall()]


def batch(first: int, n: int) -> pa.Table:
    ids = list(range(first, first + n))
    regions = ["eu", "us", "apac", None]
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "region": [regions[i % 4] for i in ids],
        "amount": [None if i % 9 == 0 else i * 1.25 for i in ids],
    }, schema=ARROW_SCHEMA)


def make_py_table(tmp_path: Path):
    """A pyiceberg table partitioned by region: two appends, then a delete of id >= 150 (rewriting files)."""
    from pyiceberg.catalog.sql import SqlCatalog
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import IdentityTransform
    from pyiceberg.types import DoubleType, LongType, NestedField, StringType
    lake = tmp_path / "lake"
    lake.mkdir()
    catalog = SqlCatalog("py", uri=f"sqlite:///{lake}/catalog.db", warehouse=f"file://{lake}")
    catalog.create_namespace("db")
    schema = Schema(NestedField(1, "id", LongType(), required=True),
                    NestedField(2, "region", StringType()), NestedField(3, "amount", DoubleType()))
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(),
                                        name="region"))
    table = catalog.create_table("db.sales", schema=schema, partition_spec=spec)
    table.append(batch(0, 100))
    first = table.current_snapshot().snapshot_id
    table.append(batch(100, 60))
    table.delete("id >= 150")
    table = catalog.load_table("db.sales")
    return table, first


@pytest.fixture()
def py_table(tmp_path):
    return make_py_table(tmp_path)


def test_iceberg_scan_reads_a_pyiceberg_table_as_pyiceberg_and_duckdb_do(py_table, tmp_path):
    table, first = py_table
    metadata = table.metadata_location.removeprefix("file://")
    location = table.location().removeprefix("file://")
    warehouse = tmp_path / "sqe"
    warehouse.mkdir()

    expected = sorted((r["id"], r["region"], r["amount"]) for r in table.scan().to_arrow().to_pylist())
    assert len(expected) == 150
    got = sqe_rows(warehouse, f"SELECT id, region, amount FROM iceberg_scan('{metadata}') ORDER BY id")
    assert [tuple(r) for r in got] == expected
    ducks = duckdb_rows(f"SELECT id, region, amount FROM iceberg_scan('{metadata}') ORDER BY id")
    assert ducks == expected

    # The directory form finds the same (latest) metadata file.
    agg_sql = "SELECT region, count(*), sum(id) FROM iceberg_scan('{}') GROUP BY region ORDER BY region NULLS LAST"
    got = sqe_rows(warehouse, agg_sql.format(location))
    ducks = duckdb_rows(agg_sql.format(metadata))
    assert [tuple(r) for r in got] == ducks

    # An older snapshot, as pyiceberg reads it.
    old = sorted(r["id"] for r in table.scan(snapshot_id=first).to_arrow().to_pylist())
    got = sqe_rows(warehouse, f"SELECT id FROM iceberg_scan('{metadata}', snapshot_id => {first}) ORDER BY id")
    assert [r[0] for r in got] == old

    # Partition pruning with pyiceberg's partition values.
    plan = sqe_rows(warehouse, f"EXPLAIN ANALYZE SELECT count(*) FROM iceberg_scan('{metadata}') WHERE region = 'eu'")
    text = plan[0][0]
    assert "files_pruned=0" not in text, text
    got = sqe_rows(warehouse, f"SELECT count(*) FROM iceberg_scan('{metadata}') WHERE region = 'eu'")
    assert got == [[sum(1 for e in expected if e[1] == "eu")]]


def test_iceberg_scan_names_a_missing_path(tmp_path):
    warehouse = tmp_path / "sqe"
    warehouse.mkdir()
    missing = tmp_path / "nothing" / "here"
    r = shell(warehouse, f"SELECT * FROM iceberg_scan('{missing}')")
    assert r.returncode != 0
    assert str(missing) in r.stderr, r.stderr
