"""SQE's read path (src/iceberg/read) on tables pyiceberg evolves: sqe-iceberg scan must
return the rows pyiceberg itself reads after add column, rename and int -> long /
float -> double promotion, with old files read by field id, and apply filters exactly."""
import json

import pyarrow as pa
import pytest

from test_iceberg_interop import sql_catalog, sqe, sqe_scan


def test_sqe_reads_a_pyiceberg_table_after_schema_evolution(tmp_path):
    from pyiceberg.schema import Schema
    from pyiceberg.types import DoubleType, FloatType, IntegerType, LongType, NestedField, StringType
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    sqe(warehouse, "create-namespace", "db")  # SQE makes the catalog database
    catalog = sql_catalog(warehouse)
    table = catalog.create_table("db.evolve", schema=Schema(
        NestedField(1, "id", IntegerType(), required=False),
        NestedField(2, "name", StringType(), required=False),
        NestedField(3, "qty", FloatType(), required=False)))
    table.append(pa.table({"id": pa.array([1, 2, 3], pa.int32()),
                           "name": ["a", "b", None],
                           "qty": pa.array([0.5, 1.5, 2.5], pa.float32())}))
    with table.update_schema() as update:
        update.add_column("note", StringType())
        update.rename_column("name", "label")
        update.update_column("id", field_type=LongType())
        update.update_column("qty", field_type=DoubleType())
    table = catalog.load_table("db.evolve")
    table.append(pa.table({"id": pa.array([2**40, 5], pa.int64()),
                           "label": ["big", "e"],
                           "qty": pa.array([9.25, None], pa.float64()),
                           "note": ["new", None]}))
    expected = sorted((r["id"], r["label"], r["qty"], r["note"])
                      for r in table.scan().to_arrow().to_pylist())
    assert len(expected) == 5
    got, stats = sqe_scan(warehouse, "db.evolve")
    assert sorted((r["id"], r["label"], r["qty"], r["note"]) for r in got) == expected
    assert set(got[0]) == {"id", "label", "qty", "note"}
    assert stats["rows"] == 5 and stats["rows_deleted"] == 0, stats
    # The filter is applied to rows, not only to file metrics.
    filtered, stats = sqe_scan(warehouse, "db.evolve", "--filter", "id>=3")
    assert sorted(r["id"] for r in filtered) == [3, 5, 2**40]
    assert stats["rows_filtered"] == 2, stats
