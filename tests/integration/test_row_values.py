"""ROW values through every wire path, read by the real clients.

Trino's client protocol sends a row as a JSON array of its field values and names the
fields in the column's type signature (an anonymous field has no name): the Trino Python
client gives a named tuple, the Trino CLI prints {x=1, y=a} (an anonymous field shows its
value alone). Flight SQL sends an Arrow struct whose anonymous fields are named field0,
field1, ... (as Trino's JDBC driver names them in a row's map). sqe-shell prints rows as the
Trino CLI does. Expected values by hand from Trino's documented row semantics.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pytest

from conftest import REPO_ROOT, clean_env
# The servers and clients of the protocol tests (fixtures and helpers, not copies).
from test_flight_sql import adbc_connect, flight_server  # noqa: F401
from test_trino_cli import cli
from test_trino_protocol import connect, run, trino_server  # noqa: F401

SHELL = Path(os.environ.get("SQE_SHELL_BIN",
                            REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"))

ROWS_SQL = ("SELECT CAST(ROW(1, 'a') AS ROW(x bigint, y varchar)) AS named, "
            "ROW(2, 'b') AS anon, "
            "ARRAY[ROW(n, 'c'), NULL] AS arr, "
            "CAST(ROW(n, ROW(true, 2.5)) AS ROW(k integer, v ROW(b boolean, d double))) AS nested, "
            "CAST(NULL AS ROW(x integer)) AS nothing "
            "FROM (VALUES 7) t(n)")


def test_trino_python_client_reads_rows(trino_server, server_config):
    cur, rows = run(connect(server_config), ROWS_SQL)
    named, anon, arr, nested, nothing = rows[0]
    assert tuple(named) == (1, "a")
    assert (named.x, named.y) == (1, "a")
    assert tuple(anon) == (2, "b")
    assert [tuple(r) if r is not None else None for r in arr] == [(7, "c"), None]
    assert nested.k == 7 and tuple(nested.v) == (True, 2.5) and nested.v.d == 2.5
    assert nothing is None
    assert [c[1] for c in cur.description] == [
        "row(x bigint, y varchar)", "row(integer, varchar)", "array(row(integer, varchar))",
        "row(k integer, v row(b boolean, d double))", "row(x integer)"]


def test_trino_python_client_reads_fields_and_rows_per_row(trino_server, server_config):
    _, rows = run(connect(server_config),
                  "SELECT r.x, r[2], r FROM (SELECT CAST(ROW(n, 'v' || CAST(n AS varchar)) "
                  "AS ROW(x integer, y varchar)) AS r FROM (VALUES 1, 2) t(n)) ORDER BY r.x")
    assert [(x, y, tuple(r)) for x, y, r in rows] == [(1, "v1", (1, "v1")), (2, "v2", (2, "v2"))]


def test_trino_cli_prints_rows(trino_server, server_config):
    r = cli(server_config.ports.trino_http, "--user", "dev", "--output-format", "CSV",
            "--execute", ROWS_SQL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ('"{x=1, y=a}","{2, b}","[{7, c}, NULL]",'
                                '"{k=7, v={b=true, d=2.5}}",""')


def test_flight_sql_sends_arrow_structs(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.execute(ROWS_SQL)
        table = cur.fetch_arrow_table()
    schema = table.schema
    assert schema.field("named").type == pa.struct([("x", pa.int64()), ("y", pa.string())])
    assert schema.field("anon").type == pa.struct([("field0", pa.int32()),
                                                    ("field1", pa.string())])
    assert schema.field("nested").type == pa.struct(
        [("k", pa.int32()), ("v", pa.struct([("b", pa.bool_()), ("d", pa.float64())]))])
    row = table.to_pylist()[0]
    assert row["named"] == {"x": 1, "y": "a"}
    assert row["anon"] == {"field0": 2, "field1": "b"}
    assert row["arr"] == [{"field0": 7, "field1": "c"}, None]
    assert row["nested"] == {"k": 7, "v": {"b": True, "d": 2.5}}
    assert row["nothing"] is None


def test_shell_prints_rows_as_the_trino_cli(tmp_path):
    if not SHELL.is_file():
        pytest.fail(f"{SHELL} not built; run scripts/test.sh")
    out = subprocess.run([str(SHELL), "--warehouse", str(tmp_path / "warehouse"),
                          "--format", "csv", "-c", ROWS_SQL],
                         capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "named,anon,arr,nested,nothing"
    assert lines[1] == ('"{x=1, y=a}","{2, b}","[{7, c}, NULL]",'
                        '"{k=7, v={b=true, d=2.5}}",')
