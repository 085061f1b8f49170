"""Partitioned tables SQE writes, read by pyiceberg and DuckDB, with pyiceberg's partition
values.

`sqe-iceberg append` routes rows by the table's spec (identity, bucket, truncate,
year/month/day/hour, void, with nulls), v2 and v3. pyiceberg and DuckDB's iceberg_scan
read equal rows; a twin table pyiceberg itself appends the same rows to has the same
partition tuples and per-partition row counts; SQE's partition filter prunes files; a
small write.target-file-size-bytes rolls files without losing a row.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_iceberg_interop import duckdb_scan, sql_catalog, sqe, sqe_scan

pytestmark = pytest.mark.timeout(180)

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "region", "required": False, "type": "string"},
    {"id": 3, "name": "name", "required": False, "type": "string"},
    {"id": 4, "name": "ts", "required": False, "type": "timestamp"},
    {"id": 5, "name": "day", "required": False, "type": "date"},
    {"id": 6, "name": "amount", "required": False, "type": "decimal(9,2)"}]}

ARROW = pa.schema([
    pa.field("id", pa.int64(), nullable=False), pa.field("region", pa.string()),
    pa.field("name", pa.string()), pa.field("ts", pa.timestamp("us")),
    pa.field("day", pa.date32()), pa.field("amount", pa.decimal128(9, 2))])

SPECS = {
    "identity_bucket_day": [("region", "identity", "region"), ("id", "bucket[4]", "id_bucket"),
                            ("ts", "day", "ts_day")],
    "truncate_month_hour": [("name", "truncate[3]", "name_trunc"), ("day", "month", "day_month"),
                            ("ts", "hour", "ts_hour")],
    "year_void_truncdec": [("ts", "year", "ts_year"), ("region", "void", "region_null"),
                           ("amount", "truncate[10]", "amount_trunc")],
}


def rows(n: int) -> pa.Table:
    base = dt.datetime(2023, 12, 30, 20, 0, 0)
    out = []
    for i in range(n):
        out.append({
            "id": i,
            "region": None if i % 11 == 0 else ["eu", "us", "ap/south"][i % 3],
            "name": None if i % 13 == 0 else f"name-{i % 7}-{i}",
            "ts": None if i % 17 == 0 else base + dt.timedelta(hours=7 * i),
            "day": dt.date(2023, 11, 1) + dt.timedelta(days=3 * i),
            "amount": decimal.Decimal(i * 37 - 500) / 4,
        })
    return pa.Table.from_pylist(out, schema=ARROW)


def spec_json(fields) -> dict:
    ids = {f["name"]: f["id"] for f in SCHEMA["fields"]}
    return {"spec-id": 0, "fields": [
        {"source-id": ids[col], "field-id": 1000 + i, "name": name, "transform": transform}
        for i, (col, transform, name) in enumerate(fields)]}


def canon(table: pa.Table) -> list[tuple]:
    return sorted((r["id"], r["region"], r["name"], r["ts"], r["day"], r["amount"])
                  for r in table.select(ARROW.names).to_pylist())


def partitions(iceberg_table) -> list[tuple]:
    files = iceberg_table.inspect.files().to_pylist()
    by = {}
    for f in files:
        key = json.dumps(f["partition"], sort_keys=True, default=str)
        by[key] = by.get(key, 0) + f["record_count"]
    return sorted(by.items())


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("spec_name", sorted(SPECS))
def test_partitioned_writes_read_back_everywhere(tmp_path, spec_name, version):
    from pyiceberg.partitioning import PartitionSpec
    from pyiceberg.schema import Schema
    wh = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    spec = spec_json(SPECS[spec_name])
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    data = rows(120)
    pq.write_table(data.slice(0, 70), tmp_path / "a.parquet")
    pq.write_table(data.slice(70), tmp_path / "b.parquet")
    sqe(wh, "create-namespace", "db")
    sqe(wh, "create", "db.t", "--schema", str(tmp_path / "schema.json"), "--spec",
        str(tmp_path / "spec.json"), "--format-version", str(version))
    out = json.loads(sqe(wh, "append", "db.t", str(tmp_path / "a.parquet"),
                         str(tmp_path / "b.parquet")).stdout)
    assert out["data_files"] > 1

    cat = sql_catalog(wh)
    table = cat.load_table("db.t")
    assert table.metadata.format_version == version
    assert canon(table.scan().to_arrow()) == canon(data)
    got, stats = sqe_scan(wh, "db.t")
    assert stats["rows"] == 120 and stats["data_files"] == out["data_files"]
    if version == 2:  # DuckDB's iceberg reader: v2 tables
        assert canon(duckdb_scan(table.metadata_location)) == canon(data)

    # pyiceberg's own partitioning of the same rows gives the same tuples and counts (its
    # twin is v2: pyiceberg does not write v3; partition values do not depend on it).
    twin = cat.create_table("db.twin", schema=Schema.model_validate_json(json.dumps(SCHEMA)),
                            partition_spec=PartitionSpec.model_validate_json(json.dumps(spec)),
                            properties={"format-version": "2"})
    twin.append(data)
    assert partitions(cat.load_table("db.t")) == partitions(cat.load_table("db.twin"))


def test_partition_filter_prunes_and_small_target_rolls_files(tmp_path):
    wh = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    (tmp_path / "spec.json").write_text(json.dumps(spec_json([("region", "identity", "region")])))
    data = rows(12000)  # ~3000 rows per partition: the writer checks sizes every 1024 rows
    pq.write_table(data, tmp_path / "a.parquet")
    sqe(wh, "create-namespace", "db")
    sqe(wh, "create", "db.t", "--schema", str(tmp_path / "schema.json"), "--spec",
        str(tmp_path / "spec.json"), "--property", "write.target-file-size-bytes=20000")
    out = json.loads(sqe(wh, "append", "db.t", str(tmp_path / "a.parquet")).stdout)
    assert out["data_files"] >= 8  # 4 partitions (3 regions + null), several files each
    got, stats = sqe_scan(wh, "db.t", "--filter", "region=eu")
    assert sorted(r["id"] for r in got) == sorted(
        r["id"] for r in data.to_pylist() if r["region"] == "eu")
    assert stats["data_files_skipped_by_partition"] > 0, stats
    assert canon(sql_catalog(wh).load_table("db.t").scan().to_arrow()) == canon(data)
