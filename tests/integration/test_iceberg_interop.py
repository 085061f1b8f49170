"""Iceberg tables shared between SQE and the reference implementations, both ways.

SQE's embedded catalog is Iceberg's JDBC layout in SQLite (<warehouse>/sqe_catalog.db),
which pyiceberg's SqlCatalog reads and writes too. So:
  * tables SQE writes (sqe-iceberg create/append: SQE's Parquet writer, manifests,
    manifest lists, metadata and commit) are read by pyiceberg (through the catalog) and
    by DuckDB's iceberg extension (iceberg_scan on the metadata file) with equal rows;
  * tables pyiceberg writes into the same catalog are scanned by SQE (manifest reading,
    planning, field-id reads) with equal rows, time travel included.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.timeout(120)

REPO = Path(__file__).resolve().parents[2]
TOOL = Path(os.environ.get("SQE_ICEBERG_TOOL", REPO / "build/release/src/main/sqe-iceberg"))

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "name", "required": False, "type": "string"},
    {"id": 3, "name": "price", "required": False, "type": "decimal(9,2)"},
    {"id": 4, "name": "ts", "required": False, "type": "timestamptz"},
    {"id": 5, "name": "score", "required": False, "type": "double"},
    {"id": 6, "name": "day", "required": False, "type": "date"}]}

ARROW_SCHEMA = pa.schema([
    pa.field("id", pa.int64(), nullable=False),
    pa.field("name", pa.string()),
    pa.field("price", pa.decimal128(9, 2)),
    pa.field("ts", pa.timestamp("us", tz="UTC")),
    pa.field("score", pa.float64()),
    pa.field("day", pa.date32()),
])


def rows(first: int, n: int) -> pa.Table:
    base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    ids = list(range(first, first + n))
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "name": [None if i % 7 == 0 else f"name-{i}" for i in ids],
        "price": pa.array([decimal.Decimal(i) / 4 for i in ids], pa.decimal128(9, 2)),
        "ts": pa.array([base + datetime.timedelta(minutes=i) for i in ids], pa.timestamp("us", tz="UTC")),
        "score": [i * 0.5 for i in ids],
        "day": pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=i % 3) for i in ids]),
    }, schema=ARROW_SCHEMA)


def sqe(warehouse: Path, *args: str) -> subprocess.CompletedProcess:
    if not TOOL.is_file():
        pytest.fail(f"sqe-iceberg not built at {TOOL} (cmake --build build/release --target sqe-iceberg)")
    r = subprocess.run([str(TOOL), "--warehouse", str(warehouse), *args], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, f"sqe-iceberg {' '.join(args)} failed:\n{r.stderr}"
    return r


def sqe_scan(warehouse: Path, table: str, *args: str) -> tuple[list[dict], dict]:
    r = sqe(warehouse, "scan", table, *args)
    stats = json.loads(r.stderr.strip().splitlines()[-1])
    return [json.loads(line) for line in r.stdout.splitlines()], stats


def normalized(table: pa.Table) -> list[tuple]:
    """Rows as comparable tuples in the order of the test schema, sorted by id."""
    out = []
    for r in table.select([f.name for f in ARROW_SCHEMA]).to_pylist():
        out.append((r["id"], r["name"], str(r["price"]) if r["price"] is not None else None,
                    r["ts"].astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f"),
                    r["score"], r["day"].isoformat()))
    return sorted(out)


def normalized_sqe(json_rows: list[dict]) -> list[tuple]:
    return sorted((r["id"], r["name"], r["price"], r["ts"].removesuffix(" UTC"), r["score"], r["day"])
                  for r in json_rows)


def sql_catalog(warehouse: Path):
    from pyiceberg.catalog.sql import SqlCatalog
    return SqlCatalog("iceberg", uri=f"sqlite:///{warehouse}/sqe_catalog.db",
                      warehouse=f"file://{warehouse}")


def duckdb_scan(metadata_location: str) -> pa.Table:
    import duckdb
    import duckdb_extension_avro
    import duckdb_extension_iceberg
    con = duckdb.connect()
    for module, name in ((duckdb_extension_avro, "avro"), (duckdb_extension_iceberg, "iceberg")):
        path = Path(module.__file__).parent / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
        con.execute(f"LOAD '{path}'")
    return con.execute(f"SELECT * FROM iceberg_scan('{metadata_location}')").to_arrow_table()


@pytest.fixture
def sqe_table(tmp_path):
    """A table SQE created and appended to twice (two snapshots; the first append's two
    input files land in one data file, under the target file size: two data files)."""
    warehouse = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    for i, (first, n) in enumerate(((0, 100), (100, 50), (150, 70))):
        pq.write_table(rows(first, n), tmp_path / f"in{i}.parquet")
    sqe(warehouse, "create-namespace", "db")
    sqe(warehouse, "create", "db.sales", "--schema", str(tmp_path / "schema.json"))
    first = json.loads(sqe(warehouse, "append", "db.sales", str(tmp_path / "in0.parquet"),
                           str(tmp_path / "in1.parquet")).stdout)
    second = json.loads(sqe(warehouse, "append", "db.sales", str(tmp_path / "in2.parquet")).stdout)
    return warehouse, first["snapshot_id"], second["snapshot_id"]


def test_pyiceberg_reads_what_sqe_wrote(sqe_table):
    warehouse, first, second = sqe_table
    table = sql_catalog(warehouse).load_table("db.sales")
    assert table.metadata.current_snapshot_id == second
    assert normalized(table.scan().to_arrow()) == normalized(rows(0, 220))
    assert normalized(table.scan(snapshot_id=first).to_arrow()) == normalized(rows(0, 150))
    # pyiceberg plans with our manifests' metrics and partition data too.
    assert len(table.scan(row_filter="id >= 160").to_arrow()) == 60


def test_duckdb_reads_what_sqe_wrote(sqe_table):
    warehouse, _, _ = sqe_table
    meta = json.loads(sqe(warehouse, "metadata", "db.sales").stdout)
    assert normalized(duckdb_scan(meta["metadata_location"])) == normalized(rows(0, 220))


def test_sqe_reads_what_pyiceberg_wrote(tmp_path):
    from pyiceberg.schema import Schema
    from pyiceberg.types import (DateType, DecimalType, DoubleType, LongType, NestedField,
                                 StringType, TimestamptzType)
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    sqe(warehouse, "create-namespace", "db")  # SQE makes the catalog database
    catalog = sql_catalog(warehouse)
    schema = Schema(NestedField(1, "id", LongType(), required=True),
                    NestedField(2, "name", StringType()), NestedField(3, "price", DecimalType(9, 2)),
                    NestedField(4, "ts", TimestamptzType()), NestedField(5, "score", DoubleType()),
                    NestedField(6, "day", DateType()))
    table = catalog.create_table("db.py", schema=schema)
    table.append(rows(0, 80))
    first = table.current_snapshot().snapshot_id
    table.append(rows(80, 40))
    got, stats = sqe_scan(warehouse, "db.py")
    assert normalized_sqe(got) == normalized(rows(0, 120))
    assert stats["data_files"] == 2 and stats["manifests"] == 2, stats
    old, _ = sqe_scan(warehouse, "db.py", "--snapshot-id", str(first))
    assert normalized_sqe(old) == normalized(rows(0, 80))
    # Metrics pyiceberg wrote prune in SQE's planner.
    _, pruned = sqe_scan(warehouse, "db.py", "--filter", "id>=100")
    assert pruned["data_files_skipped_by_metrics"] == 1, pruned


def test_sqe_appends_to_a_pyiceberg_table_and_both_agree(tmp_path):
    from pyiceberg.schema import Schema
    from pyiceberg.types import LongType, NestedField, StringType
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    sqe(warehouse, "create-namespace", "db")
    catalog = sql_catalog(warehouse)
    table = catalog.create_table("db.mixed", schema=Schema(NestedField(1, "id", LongType(), required=True),
                                                           NestedField(2, "name", StringType())))
    small = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
    table.append(pa.table({"id": [1, 2], "name": ["a", "b"]}, schema=small))
    pq.write_table(pa.table({"id": [3, 4], "name": ["c", None]}, schema=small), tmp_path / "more.parquet")
    sqe(warehouse, "append", "db.mixed", str(tmp_path / "more.parquet"))
    table.append(pa.table({"id": [5], "name": ["e"]}, schema=small))  # pyiceberg on top of SQE's snapshot
    got, _ = sqe_scan(warehouse, "db.mixed")
    assert sorted((r["id"], r["name"]) for r in got) == [(1, "a"), (2, "b"), (3, "c"), (4, None), (5, "e")]
    reread = catalog.load_table("db.mixed").scan().to_arrow().to_pylist()
    assert sorted((r["id"], r["name"]) for r in reread) == [(1, "a"), (2, "b"), (3, "c"), (4, None), (5, "e")]
    assert len(catalog.load_table("db.mixed").history()) == 3


def test_table_on_s3rver_round_trips_and_pyiceberg_reads_it(tmp_path):
    """The same path with the warehouse on S3 (s3rver): data, manifests and metadata go
    through SQE's S3 client; pyiceberg reads the table back through its own S3 FileIO."""
    from s3_servers import S3rverServer
    with S3rverServer(tmp_path / "s3rver", buckets=["lake"]) as s3:
        catalog_db = tmp_path / "catalog.db"
        env = dict(os.environ, AWS_ACCESS_KEY_ID=s3.access_key, AWS_SECRET_ACCESS_KEY=s3.secret_key,
                   SQE_CATALOG__BACKEND__TYPE="jdbc", SQE_CATALOG__BACKEND__URL=f"sqlite:{catalog_db}",
                   SQE_CATALOG__BACKEND__WAREHOUSE="s3://lake/wh", SQE_STORAGE__S3_ENDPOINT=s3.endpoint,
                   SQE_STORAGE__S3_ALLOW_HTTP="true")

        def run(*args):
            r = subprocess.run([str(TOOL), *args], capture_output=True, text=True, env=env, timeout=60)
            assert r.returncode == 0, f"sqe-iceberg {' '.join(args)}:\n{r.stderr}"
            return r

        (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
        pq.write_table(rows(0, 60), tmp_path / "a.parquet")
        pq.write_table(rows(60, 40), tmp_path / "b.parquet")
        run("create-namespace", "db")
        created = json.loads(run("create", "db.s3t", "--schema", str(tmp_path / "schema.json")).stdout)
        assert created["location"] == "s3://lake/wh/db/s3t"
        first = json.loads(run("append", "db.s3t", str(tmp_path / "a.parquet")).stdout)["snapshot_id"]
        run("append", "db.s3t", str(tmp_path / "b.parquet"))
        out = run("scan", "db.s3t")
        assert normalized_sqe([json.loads(l) for l in out.stdout.splitlines()]) == normalized(rows(0, 100))
        old = run("scan", "db.s3t", "--snapshot-id", str(first))
        assert len(old.stdout.splitlines()) == 60
        # Everything lives in the bucket: nothing under a local warehouse.
        listing = s3.pyarrow_fs().get_file_info(__import__("pyarrow.fs", fromlist=["FileSelector"])
                                                .FileSelector("lake/wh/db/s3t", recursive=True))
        names = [i.path for i in listing]
        assert sum(n.endswith(".parquet") for n in names) == 2
        assert sum(n.endswith(".metadata.json") for n in names) == 3

        from pyiceberg.catalog.sql import SqlCatalog
        catalog = SqlCatalog("iceberg", uri=f"sqlite:///{catalog_db}", warehouse="s3://lake/wh",
                             **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
                                "s3.secret-access-key": s3.secret_key, "s3.region": s3.region})
        table = catalog.load_table("db.s3t")
        assert normalized(table.scan().to_arrow()) == normalized(rows(0, 100))


@pytest.mark.parametrize("config_codec, table_codec, expected", [
    ("snappy", None, "SNAPPY"), ("none", None, "UNCOMPRESSED"), ("lz4", "zstd", "ZSTD")])
def test_data_file_codec_from_table_property_else_catalog_config(tmp_path, config_codec,
                                                                 table_codec, expected):
    """write.parquet.compression-codec wins; else [catalog] parquet_compression."""
    warehouse = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    pq.write_table(rows(0, 20), tmp_path / "in.parquet")
    setting = ["--set", f"catalog.parquet_compression={config_codec}"]
    sqe(warehouse, *setting, "create-namespace", "db")
    props = [] if table_codec is None else ["--property",
                                            f"write.parquet.compression-codec={table_codec}"]
    sqe(warehouse, *setting, "create", "db.c", "--schema", str(tmp_path / "schema.json"), *props)
    sqe(warehouse, *setting, "append", "db.c", str(tmp_path / "in.parquet"))
    files = list((warehouse / "db" / "c" / "data").glob("*.parquet"))
    assert len(files) == 1
    md = pq.ParquetFile(files[0]).metadata
    codecs = {md.row_group(0).column(i).compression for i in range(md.num_columns)}
    assert codecs == {expected}
    assert normalized(sql_catalog(warehouse).load_table("db.c").scan().to_arrow()) == \
        normalized(rows(0, 20))


def test_scan_tasks_bin_pack_small_files_to_the_target_task_size(sqe_table):
    """Two small data files weigh the 4 MiB open-file cost each: one task at the default
    256MB target, one task per file at a 4MB target; the rows are the same."""
    warehouse, _, _ = sqe_table
    rows_default, stats = sqe_scan(warehouse, "db.sales")
    assert stats["tasks"] == 2 and stats["combined_tasks"] == 1, stats
    r = sqe(warehouse, "--set", "query.target_task_size=4MB", "scan", "db.sales")
    stats = json.loads(r.stderr.strip().splitlines()[-1])
    rows_small = [json.loads(line) for line in r.stdout.splitlines()]
    assert stats["combined_tasks"] == 2, stats
    assert normalized_sqe(rows_small) == normalized_sqe(rows_default) == normalized(rows(0, 220))
