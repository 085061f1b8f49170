"""Table evolution by SQE (`sqe-iceberg alter`), read back by SQE and by pyiceberg.

SQE adds, renames, widens and drops columns, then appends rows with the new schema: old
files read by field id (renamed column keeps its values, added columns are null, dropped
ones vanish), time travel to the first snapshot reads with that snapshot's schema, and
pyiceberg sees the same rows both ways. Partition spec, sort order and property changes
land in the metadata pyiceberg loads; bad changes fail with a clear error and change
nothing.
"""

from __future__ import annotations

import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_iceberg_interop import TOOL, sql_catalog, sqe, sqe_scan

pytestmark = pytest.mark.timeout(120)

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "name", "required": False, "type": "string"},
    {"id": 3, "name": "qty", "required": False, "type": "int"},
    {"id": 4, "name": "note", "required": False, "type": "string"}]}


def alter(warehouse, table, *args) -> dict:
    return json.loads(sqe(warehouse, "alter", table, *args).stdout)


def alter_fails(warehouse, table, *args) -> str:
    r = subprocess.run([str(TOOL), "--warehouse", str(warehouse), "alter", table, *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0, r.stdout
    return r.stderr


def test_schema_evolution_round_trip(tmp_path):
    wh = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    pq.write_table(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", "b", "c"],
                             "qty": pa.array([10, 20, 30], pa.int32()),
                             "note": ["x", "y", "z"]}), tmp_path / "v0.parquet")
    sqe(wh, "create-namespace", "db")
    sqe(wh, "create", "db.t", "--schema", str(tmp_path / "schema.json"))
    first = json.loads(sqe(wh, "append", "db.t", str(tmp_path / "v0.parquet")).stdout)

    out = alter(wh, "db.t", "--add-column", "region string", "--rename-column", "name=label",
                "--widen-column", "qty=long", "--drop-column", "note")
    assert [(f["id"], f["name"], f["type"]) for f in out["fields"]] == [
        (1, "id", "long"), (2, "label", "string"), (3, "qty", "long"), (5, "region", "string")]
    assert out["schema_id"] == 1

    # Current schema, no new snapshot yet: old rows with the new names, region null.
    got, _ = sqe_scan(wh, "db.t")
    assert sorted(got, key=lambda r: r["id"]) == [
        {"id": 1, "label": "a", "qty": 10, "region": None},
        {"id": 2, "label": "b", "qty": 20, "region": None},
        {"id": 3, "label": "c", "qty": 30, "region": None}]

    pq.write_table(pa.table({"id": pa.array([4], pa.int64()), "label": ["d"],
                             "qty": pa.array([2**40], pa.int64()), "region": ["eu"]}),
                   tmp_path / "v1.parquet")
    sqe(wh, "append", "db.t", str(tmp_path / "v1.parquet"))
    want = [(1, "a", 10, None), (2, "b", 20, None), (3, "c", 30, None), (4, "d", 2**40, "eu")]
    got, _ = sqe_scan(wh, "db.t")
    assert sorted((r["id"], r["label"], r["qty"], r["region"]) for r in got) == want
    # A filter on the renamed column binds against the current schema.
    got, _ = sqe_scan(wh, "db.t", "--filter", "label=d")
    assert [r["id"] for r in got] == [4]

    table = sql_catalog(wh).load_table("db.t")
    assert [f.name for f in table.schema().fields] == ["id", "label", "qty", "region"]
    rows = table.scan().to_arrow().to_pylist()
    assert sorted((r["id"], r["label"], r["qty"], r["region"]) for r in rows) == want

    # Time travel: the first snapshot with its own schema, in SQE and in pyiceberg.
    old, _ = sqe_scan(wh, "db.t", "--snapshot-id", str(first["snapshot_id"]))
    assert sorted(old, key=lambda r: r["id"]) == [
        {"id": 1, "name": "a", "qty": 10, "note": "x"},
        {"id": 2, "name": "b", "qty": 20, "note": "y"},
        {"id": 3, "name": "c", "qty": 30, "note": "z"}]
    py_old = table.scan(snapshot_id=first["snapshot_id"]).to_arrow()
    assert py_old.column_names == ["id", "name", "qty", "note"]
    assert sorted(py_old.to_pylist(), key=lambda r: r["id"]) == sorted(old, key=lambda r: r["id"])


def test_spec_sort_and_property_evolution_and_bad_changes(tmp_path):
    wh = tmp_path / "wh"
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    sqe(wh, "create-namespace", "db")
    sqe(wh, "create", "db.t", "--schema", str(tmp_path / "schema.json"))
    out = alter(wh, "db.t", "--add-partition-field", "id:bucket[8]",
                "--add-partition-field", "name:truncate[2]:name_prefix",
                "--sort-by", "qty:desc", "--sort-by", "id",
                "--set-property", "owner=qa", "--set-property", "write.target-file-size-bytes=1000")
    assert [(p["name"], p["transform"]) for p in out["partition"]] == [
        ("id_bucket_8", "bucket[8]"), ("name_prefix", "truncate[2]")]
    table = sql_catalog(wh).load_table("db.t")
    assert [(f.name, str(f.transform)) for f in table.spec().fields] == [
        ("id_bucket_8", "bucket[8]"), ("name_prefix", "truncate[2]")]
    order = table.sort_order()
    assert [(f.source_id, str(f.direction).lower()) for f in order.fields] == [(3, "desc"), (1, "asc")]
    assert table.properties["owner"] == "qa"

    out = alter(wh, "db.t", "--drop-partition-field", "id_bucket_8", "--unsorted",
                "--unset-property", "owner")
    assert [p["name"] for p in out["partition"]] == ["name_prefix"]
    assert out["sort_order_id"] == 0 and "owner" not in out["properties"]

    before = json.loads(sqe(wh, "metadata", "db.t").stdout)["metadata_location"]
    err = alter_fails(wh, "db.t", "--drop-column", "nope")
    assert "'nope' does not exist" in err
    err = alter_fails(wh, "db.t", "--widen-column", "name=long")
    assert "from string to long" in err
    err = alter_fails(wh, "db.t", "--add-column", "id long")
    assert "'id' already exists" in err
    err = alter_fails(wh, "db.t", "--add-partition-field", "id:bogus[3]")
    assert "not a transform" in err
    # A bad flag after a good one commits nothing (all flags are checked first).
    err = alter_fails(wh, "db.t", "--add-column", "ok string", "--sort-by", "id:sideways")
    assert "asc or desc" in err
    assert json.loads(sqe(wh, "metadata", "db.t").stdout)["metadata_location"] == before
