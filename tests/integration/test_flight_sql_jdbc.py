"""The Arrow Flight SQL JDBC driver (org.apache.arrow:flight-sql-jdbc-driver, what DBeaver,
DataGrip and Tableau use) against sqe-server's Flight SQL port, driven by
tests/peers/java/.../FlightSqlJdbcPeer.java with plain JDBC calls.

The server runs behind the api_key provider only (the fixture of test_flight_sql.py): the
driver logs in with a Basic handshake (user + API key as password) and sends the Bearer token
it gets back on every call. The peer records every step's result or error as JSON; the tests
here check the values.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from java_peer import classpath
from test_flight_sql import ALICE_KEY, flight_server  # noqa: F401 (fixture)

# Arrow's memory module reads java.nio.Buffer's address field by reflection; on Java 17 that
# needs java.nio opened to it (the shaded driver runs in the unnamed module).
JVM_FLAGS = ["--add-opens=java.base/java.nio=ALL-UNNAMED"]


def run_jdbc_peer(port: int, *args: str) -> dict:
    """FlightSqlJdbcPeer's JSON; by default the whole scenario as alice."""
    if not args:
        args = ("--user", "alice", "--password", ALICE_KEY, "--wrong-password",
                "sqe_not_alices_key")
    r = subprocess.run(["java", *JVM_FLAGS, "-cp", classpath(), "dev.sqe.peers.FlightSqlJdbcPeer",
                        "--port", str(port), *args],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"FlightSqlJdbcPeer failed:\n{r.stderr[-6000:]}"
    return json.loads(r.stdout)


@pytest.fixture
def jdbc(flight_server, server_config) -> dict:
    """The peer's observations (one run per test module would hide which test broke what)."""
    out = run_jdbc_peer(server_config.ports.flight_sql)
    out["_server_log"] = flight_server.stderr()
    return out


def ok(out: dict, step: str):
    value = out[step]
    assert not (isinstance(value, dict) and "error" in value), f"{step}: {value}"
    return value


def test_jdbc_driver_session(jdbc):
    # Refused logins: a wrong API key, and no credentials at all (no anonymous provider).
    for step in ("connect_wrong_password", "connect_without_credentials"):
        assert jdbc[step].get("status") == "UNAUTHENTICATED", jdbc[step]
    assert "sqe_not_alices_key" not in jdbc["_server_log"]
    assert ALICE_KEY not in jdbc["_server_log"]
    assert jdbc["connected"] is True

    product = ok(jdbc, "product")  # GetSqlInfo
    assert product["name"] == "SQE"
    assert product["version"]
    assert product["read_only"] is False
    assert product["quote"] == '"'
    assert product["transactions"] is False

    # DDL through executeUpdate counts 0 (JDBC's convention), the INSERT its rows.
    assert ok(jdbc, "setup") == {"create_schema": 0, "create_table": 0, "insert": 3}


def test_jdbc_metadata(jdbc):
    assert {"TABLE_CAT": "iceberg"} in ok(jdbc, "catalogs")
    schemas = ok(jdbc, "schemas")
    assert {"TABLE_CATALOG": "iceberg", "TABLE_SCHEM": "jdbc_peer"} in schemas
    like = ok(jdbc, "schemas_like")
    assert {"TABLE_CATALOG": "iceberg", "TABLE_SCHEM": "jdbc_peer"} in like
    assert all(s["TABLE_SCHEM"].startswith("jdb") for s in like), like
    assert ok(jdbc, "tables") == [{"TABLE_CAT": "iceberg", "TABLE_SCHEM": "jdbc_peer",
                                   "TABLE_NAME": "items", "TABLE_TYPE": "TABLE"}]
    assert ok(jdbc, "tables_of_type_view") == []
    assert "TABLE" in [t["TABLE_TYPE"] for t in ok(jdbc, "table_types")]
    assert ok(jdbc, "primary_keys") == []
    # Driver 18.3 does not implement getTypeInfo (Avatica's empty default; XdbcTypeInfo is
    # never asked for), so only "no error" is checked.
    assert isinstance(ok(jdbc, "type_info"), list)

    # getColumns reads GetTables(include_schema=true) and its ARROW:FLIGHT:SQL:* metadata.
    columns = ok(jdbc, "columns")
    assert [c["COLUMN_NAME"] for c in columns] == [
        "id", "name", "price", "qty", "ratio", "active", "day", "ts"]
    assert [c["ORDINAL_POSITION"] for c in columns] == list(range(1, 9))
    # java.sql.Types: BIGINT -5, VARCHAR 12, DECIMAL 3, INTEGER 4, DOUBLE 8, BOOLEAN 16,
    # DATE 91, TIMESTAMP 93.
    assert [c["DATA_TYPE"] for c in columns] == [-5, 12, 3, 4, 8, 16, 91, 93]
    assert [c["TYPE_NAME"] for c in columns] == [
        "bigint", "varchar", "decimal(10,2)", "integer", "double", "boolean", "date",
        "timestamp(6)"]
    assert {c["IS_NULLABLE"] for c in columns} == {"YES"}
    price = columns[2]
    assert price["COLUMN_SIZE"] == 10 and price["DECIMAL_DIGITS"] == 2


def test_jdbc_query_of_every_column_type(jdbc):
    result = ok(jdbc, "all_types")
    types = {c["name"]: c["type"] for c in result["columns"]}
    # java.sql.Types codes the driver derives from the Arrow schema (float32 is FLOAT, 6).
    assert types == {"i64": -5, "i32": 4, "i16": 5, "i8": -6, "f64": 8, "f32": 6, "dec": 3,
                     "dec38": 3, "s": 12, "b": 16, "bin": -3, "dt": 91, "tm": 92, "ts": 93,
                     "tstz": 2014, "n": 12}
    [row] = result["rows"]
    assert row["i64"] == 7 and row["i32"] == 3 and row["i16"] == 2 and row["i8"] == 1
    assert row["f64"] == 1.5 and row["f32"] == 2.25
    assert row["dec"] == "12.34" and row["dec38"] == "-98765432109876.543210"
    assert row["s"] == "text" and row["b"] is True
    assert row["bin"] == "0xcafe"
    assert row["dt"] == "2024-02-29"
    assert row["tm"] == "13:14:15.123"  # java.sql.Time holds milliseconds
    assert row["ts"] == "2024-01-02 03:04:05.123456"
    # Avatica's getObject has no case for TIMESTAMP_WITH_TIMEZONE (a driver gap); the value
    # arrives and getString reads it.
    assert row["tstz"]["string"] == "2024-01-02 03:04:05.123456", row["tstz"]
    assert row["n"] is None
    # uuid (the arrow.uuid extension type, unknown to the driver) reads as its 16 bytes.
    uuid = ok(jdbc, "uuid")
    assert uuid["columns"][0]["type"] == -2
    assert uuid["rows"] == [{"u": "0x6ba7b8109dad11d180b400c04fd430c8"}]
    array = ok(jdbc, "array")
    assert array["columns"][0]["type"] == 2003
    assert array["rows"] == [{"arr": "[1,2,3]"}]


def test_jdbc_prepared_statement_runs_twice_with_different_parameters(jdbc):
    by_name = ok(jdbc, "prepared_query_string_parameter")
    assert by_name == {"pear": [{"id": 2}], "plum": [{"id": 3}]}


def test_jdbc_prepared_statement_with_a_numeric_parameter(jdbc):
    prepared = ok(jdbc, "prepared_query")
    assert prepared["parameter_count"] == 1
    assert prepared["first"] == [{"id": 2, "name": "pear", "price": "2.50"},
                                 {"id": 3, "name": "plum", "price": "0.75"}]
    assert prepared["second"] == [{"id": 3, "name": "plum", "price": "0.75"}]


def test_jdbc_inserts_and_reads_back(jdbc):
    # A prepared INSERT run twice with bound values, and a plain executeUpdate.
    assert ok(jdbc, "prepared_insert") == {"first": 1, "second": 1}
    assert ok(jdbc, "statement_update") == 1
    rows = ok(jdbc, "read_back")["rows"]
    assert [r["id"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r["name"] for r in rows] == ["apple", "pear", "plum", "fig", "kiwi", "lime"]
    assert [r["price"] for r in rows] == ["1.25", "2.50", "0.75", "9.99", "0.10", None]
    assert [r["qty"] for r in rows] == [10, 20, 30, None, None, None]
    assert rows[0]["ratio"] == 0.5 and rows[2]["ratio"] is None
    assert rows[1]["day"] == "2024-02-29"
    assert rows[0]["ts"] == "2024-01-01 08:00:00.0"
    assert rows[1]["ts"] == "2024-02-29 12:30:00.5"
    assert rows[0]["active"] is True and rows[1]["active"] is False
    assert rows[2]["active"] is None


def test_jdbc_sql_error_carries_the_position(jdbc):
    err = jdbc["syntax_error"]
    assert err.get("status") == "INVALID_ARGUMENT", err
    assert "Column 'nope' cannot be resolved" in err["error"] and "line 1:8" in err["error"]


def test_jdbc_catalog_property_becomes_a_session_option(jdbc):
    # `catalog=iceberg` in the URL: the driver's SetSessionOptions{catalog} is accepted and
    # the connection's queries run in that session.
    rows = ok(jdbc, "session_catalog")
    assert len(rows) == 1 and rows[0]["n"] >= 3, rows
    # An unknown catalog is refused when the driver sets it, naming the catalog.
    refused = jdbc["session_unknown_catalog"]
    assert isinstance(refused, dict) and "error" in refused, refused
    assert "no_such_catalog" in json.dumps(refused), refused
