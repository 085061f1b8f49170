"""Tables made with SQL through sqe-shell, read by the reference Iceberg readers.

sqe-shell runs CREATE SCHEMA / CREATE TABLE (partitioned) / INSERT / CTAS / ALTER TABLE on
an embedded warehouse (Iceberg's JDBC catalog layout in SQLite, <warehouse>/sqe_catalog.db).
pyiceberg's SqlCatalog loads the same tables and reads rows equal to what was inserted,
with the partition spec the SQL asked for; DuckDB's iceberg_scan reads the metadata file
with equal rows too.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(180)

REPO = Path(__file__).resolve().parents[2]
SHELL = Path(os.environ.get("SQE_SHELL_BIN", REPO / "build/release/src/main/sqe-shell"))

BASE = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


def shell(warehouse: Path, sql: str) -> list[list]:
    """Runs `sql` (statements separated by ';'); the jsonl rows of every result."""
    if not SHELL.is_file():
        pytest.fail(f"sqe-shell not built at {SHELL} (cmake --build build/release --target sqe-shell)")
    r = subprocess.run([str(SHELL), "--warehouse", str(warehouse), "--format", "jsonl", "-c", sql],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"sqe-shell failed on:\n{sql}\n{r.stderr}"
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def expected_rows(first: int, n: int) -> list[tuple]:
    """(id, name, price, ts, score, day) with nulls, several days and buckets."""
    out = []
    for i in range(first, first + n):
        out.append((i,
                    None if i % 7 == 0 else f"name-{i}",
                    decimal.Decimal(i) / 4,
                    BASE + datetime.timedelta(hours=5 * i),
                    i * 0.5,
                    datetime.date(2024, 1, 1) + datetime.timedelta(days=i % 3)))
    return out


def values_sql(rows: list[tuple]) -> str:
    def literal(v):
        if v is None:
            return "NULL"
        if isinstance(v, str):
            return "'" + v.replace("'", "''") + "'"
        if isinstance(v, decimal.Decimal):
            return f"{v:.2f}"
        if isinstance(v, datetime.datetime):
            return f"CAST('{v.strftime('%Y-%m-%d %H:%M:%S.%f')} UTC' AS timestamp(6) with time zone)"
        if isinstance(v, datetime.date):
            return f"DATE '{v.isoformat()}'"
        return repr(v)
    return ", ".join("(" + ", ".join(literal(v) for v in row) + ")" for row in rows)


def normalized(pylist: list[dict]) -> list[tuple]:
    out = []
    for r in pylist:
        price = r["price"]
        out.append((r["id"], r["name"],
                    None if price is None else decimal.Decimal(price).quantize(decimal.Decimal("0.01")),
                    r["ts"].astimezone(datetime.timezone.utc), r["score"], r["day"]))
    return sorted(out, key=lambda t: t[0])


def quantized(rows: list[tuple]) -> list[tuple]:
    return sorted(((r[0], r[1], r[2].quantize(decimal.Decimal("0.01")), r[3], r[4], r[5])
                   for r in rows), key=lambda t: t[0])


def sql_catalog(warehouse: Path):
    from pyiceberg.catalog.sql import SqlCatalog
    return SqlCatalog("iceberg", uri=f"sqlite:///{warehouse}/sqe_catalog.db",
                      warehouse=f"file://{warehouse}")


def duckdb_rows(metadata_location: str) -> list[dict]:
    import duckdb
    import duckdb_extension_avro
    import duckdb_extension_iceberg
    con = duckdb.connect()
    for module, name in ((duckdb_extension_avro, "avro"), (duckdb_extension_iceberg, "iceberg")):
        path = Path(module.__file__).parent / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
        con.execute(f"LOAD '{path}'")
    return con.execute(f"SELECT * FROM iceberg_scan('{metadata_location}')").to_arrow_table().to_pylist()


def test_sql_created_partitioned_table_reads_back_in_pyiceberg_and_duckdb(tmp_path):
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    first, second = expected_rows(0, 40), expected_rows(40, 25)
    out = shell(warehouse, f"""
        CREATE SCHEMA db;
        CREATE TABLE db.sales (id bigint NOT NULL, name varchar, price decimal(9, 2),
                               ts timestamp(6) with time zone, score double, day date)
          WITH (partitioning = ARRAY['day(ts)', 'bucket(id, 4)'],
                "write.parquet.compression-codec" = 'snappy');
        INSERT INTO db.sales VALUES {values_sql(first)};
        INSERT INTO db.sales (id, name, price, ts, score, day) VALUES {values_sql(second)};
        SELECT count(*) FROM db.sales
    """)
    assert out == [[40], [25], [65]], out

    table = sql_catalog(warehouse).load_table("db.sales")
    spec = table.spec()
    assert [(f.name, str(f.transform)) for f in spec.fields] == [("ts_day", "day"),
                                                                 ("id_bucket", "bucket[4]")]
    assert table.properties["write.parquet.compression-codec"] == "snappy"
    assert len(table.metadata.snapshots) == 2
    got = normalized(table.scan().to_arrow().to_pylist())
    assert got == quantized(first + second)

    ducked = normalized(duckdb_rows(table.metadata_location))
    assert ducked == got

    # SQE reads back what it wrote, through SQL.
    ids = shell(warehouse, "SELECT id FROM db.sales WHERE day = DATE '2024-01-02' ORDER BY id")
    assert [r[0] for r in ids] == [r[0] for r in quantized(first + second)
                                   if r[5] == datetime.date(2024, 1, 2)]


def test_sql_ctas_and_alter_table_read_back_in_pyiceberg(tmp_path):
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    rows = expected_rows(0, 30)
    shell(warehouse, f"""
        CREATE SCHEMA db;
        CREATE TABLE db.src (id bigint, name varchar, price decimal(9, 2),
                             ts timestamp(6) with time zone, score double, day date);
        INSERT INTO db.src VALUES {values_sql(rows)};
        CREATE TABLE db.copy WITH (partitioning = ARRAY['day']) AS
          SELECT id, name, price, ts, score, day FROM db.src WHERE id % 2 = 0;
        ALTER TABLE db.copy ADD COLUMN note varchar;
        ALTER TABLE db.copy RENAME COLUMN score TO points;
        INSERT INTO db.copy (id, name, note) VALUES (1000, 'late', 'added')
    """)
    table = sql_catalog(warehouse).load_table("db.copy")
    assert [f.name for f in table.schema().fields] == ["id", "name", "price", "ts", "points",
                                                       "day", "note"]
    assert [(f.name, str(f.transform)) for f in table.spec().fields] == [("day", "identity")]
    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    even = [r for r in quantized(rows) if r[0] % 2 == 0]
    assert [r["id"] for r in got] == [r[0] for r in even] + [1000]
    assert [r["points"] for r in got[:-1]] == [r[4] for r in even]
    assert got[-1]["note"] == "added" and got[-1]["name"] == "late"
    assert all(r["note"] is None for r in got[:-1])
