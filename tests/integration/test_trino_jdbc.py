"""The Trino JDBC driver (io.trino:trino-jdbc 476, what DBeaver and DataGrip use for Trino)
against sqe-server's Trino HTTP port, driven by tests/peers/java/.../TrinoJdbcPeer.java with
plain JDBC calls.

The driver sends a password or an access token only over TLS and this port is plaintext, so
the server runs with the anonymous provider and the driver names its user (wrong credentials
-> 401 is covered by test_trino_protocol.py with the Python client). The peer records every
step's result or error as JSON; the tests check the values.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from java_peer import classpath
from test_trino_protocol import trino_server  # noqa: F401 (fixture)

# java.sql.Types codes.
BIGINT, INTEGER, VARCHAR, DECIMAL, BOOLEAN, DATE, TIMESTAMP, DOUBLE, ARRAY, JAVA_OBJECT = (
    -5, 4, 12, 3, 16, 91, 93, 8, 2003, 2000)


def run_peer(port: int) -> dict:
    r = subprocess.run(["java", "-Duser.timezone=UTC", "-cp", classpath(), "dev.sqe.peers.TrinoJdbcPeer",
                        "--port", str(port), "--user", "dev", "--schema", "jdbc_peer"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"TrinoJdbcPeer failed:\n{r.stderr[-6000:]}"
    return json.loads(r.stdout)


def ok(out: dict, step: str):
    value = out[step]
    assert not (isinstance(value, dict) and "error" in value), f"{step}: {value}"
    return value


@pytest.fixture
def out(trino_server, server_config) -> dict:  # noqa: F811
    """The peer's observations; each test runs its own server and peer."""
    return run_peer(server_config.ports.trino_http)


def test_jdbc_database_metadata(out):
    assert out["connected"] is True
    assert ok(out, "setup") == 3
    product = ok(out, "product")
    assert product["name"] == "Trino"
    assert product["version"].startswith("sqe-")

    assert ok(out, "catalogs") == ["iceberg", "system"]
    schemas = ok(out, "schemas")
    assert ["information_schema", "iceberg"] in schemas
    assert ["jdbc_peer", "iceberg"] in schemas
    assert all(s[1] == "iceberg" for s in schemas)
    assert ["jdbc_peer", "iceberg"] in ok(out, "schemas_like")
    assert all(s[0].startswith("jdbc") for s in ok(out, "schemas_like"))

    tables = ok(out, "tables")
    assert tables == [["iceberg", "jdbc_peer", "items", "TABLE", None, None, None, None, None,
                       None]]
    assert ok(out, "tables_typed") == tables
    system_tables = [t[2] for t in ok(out, "tables_system_jdbc")]
    assert system_tables == ["table_types", "tables", "types"]
    assert ok(out, "table_types") == ["TABLE", "VIEW"]

    columns = ok(out, "columns")
    assert [c["COLUMN_NAME"] for c in columns] == ["id", "name", "price", "qty", "ok", "day",
                                                    "at", "score"]
    by_name = {c["COLUMN_NAME"]: c for c in columns}
    assert all(c["TABLE_CAT"] == "iceberg" and c["TABLE_SCHEM"] == "jdbc_peer" and
               c["TABLE_NAME"] == "items" for c in columns)
    assert [c["ORDINAL_POSITION"] for c in columns] == list(range(1, 9))
    expect = {
        "id": ("bigint", BIGINT, 19, None, 10),
        "name": ("varchar", VARCHAR, 2147483647, None, None),
        "price": ("decimal(10,2)", DECIMAL, 10, 2, 10),
        "qty": ("integer", INTEGER, 10, None, 10),
        "ok": ("boolean", BOOLEAN, None, None, None),
        "day": ("date", DATE, 14, None, None),
        "at": ("timestamp(6)", TIMESTAMP, 28, 6, None),
        "score": ("double", DOUBLE, 53, None, 2),
    }
    for name, (type_name, data_type, size, digits, radix) in expect.items():
        c = by_name[name]
        assert (c["TYPE_NAME"], c["DATA_TYPE"], c["COLUMN_SIZE"], c["DECIMAL_DIGITS"],
                c["NUM_PREC_RADIX"]) == (type_name, data_type, size, digits, radix), c
    assert ok(out, "columns_pattern") == ["price"]

    types = ok(out, "type_info")
    assert types["bigint"] == BIGINT and types["varchar"] == JAVA_OBJECT
    assert types["array"] == ARRAY and types["double"] == DOUBLE and types["date"] == DATE
    assert ok(out, "empty_metadata") == {
        "procedures": 0, "udts": 0, "super_tables": 0, "super_types": 0, "attributes": 0,
        "pseudo_columns": 0, "primary_keys": 0}


def test_jdbc_every_type(out):
    row = ok(out, "every_type")
    # column type name, java.sql.Types code, getObject's class, its toString
    expect = {
        "b": ("boolean", BOOLEAN, "Boolean", "true"),
        "ti": ("tinyint", -6, "Byte", "1"),
        "si": ("smallint", 5, "Short", "2"),
        "i": ("integer", INTEGER, "Integer", "3"),
        "bi": ("bigint", BIGINT, "Long", "4"),
        "r": ("real", 7, "Float", "1.5"),
        "d": ("double", DOUBLE, "Double", "2.25"),
        "dec": ("decimal(10,2)", DECIMAL, "BigDecimal", "12.30"),
        "v": ("varchar", VARCHAR, "String", "héllo"),
        "vb": ("varbinary", -3, "byte[]", "0102"),
        "dt": ("date", DATE, "Date", "2024-02-29"),
        "tm": ("time(6)", 92, "Time", "13:45:00"),
        "ts": ("timestamp(6)", TIMESTAMP, "Timestamp", "2024-02-29 13:45:00.123456"),
        # The driver turns the zoned value into a Timestamp in the JVM's zone (UTC here).
        "tstz": ("timestamp(6) with time zone", 2014, "Timestamp", "2024-02-29 13:45:00.0"),
        "arr": ("array(integer)", ARRAY, "TrinoArray", "[1, 2]"),
        "n": ("bigint", BIGINT, None, None),
        "u": ("uuid", JAVA_OBJECT, "String", "123e4567-e89b-12d3-a456-426614174000"),
    }
    assert list(row) == list(expect)
    for name, (type_name, jdbc_type, cls, value) in expect.items():
        assert (row[name]["type"], row[name]["jdbc_type"], row[name]["class"],
                row[name]["value"]) == (type_name, jdbc_type, cls, value), name


def test_jdbc_prepared_statements_and_session(out):
    prepared = ok(out, "prepared")
    assert prepared["first"] == [["1", "apple"], ["3", "fig"]]
    assert prepared["second"] == [["2", "pear"], ["3", "fig"]]
    assert ok(out, "prepared_insert") == 1
    assert ok(out, "execute_immediate") == [["pear"]]

    moved = ok(out, "set_catalog_schema")
    assert moved == {"rows": [["4"]], "catalog": "iceberg", "schema": "jdbc_peer"}
    use = ok(out, "use_statement")
    assert use == {"schema": "jdbc_peer_other", "current": [["jdbc_peer_other"]],
                   "schema_after": "jdbc_peer"}
    in_url = ok(out, "catalog_schema_in_url")
    assert in_url == {"catalog": "iceberg", "schema": "jdbc_peer", "rows": [["4"]]}

    assert ok(out, "session_property") == "123"
    txn = ok(out, "transaction")
    assert txn == {"inside": [["4"]], "after_commit": [["1"]], "autocommit": True}
    assert ok(out, "encoding_json") == [["1", "apple"], ["2", "pear"], ["3", "fig"], ["4", "kiwi"]]


def test_jdbc_errors_and_system_tables(out):
    syntax = out["syntax_error"]
    assert isinstance(syntax, dict) and "error" in syntax, syntax
    assert "line 2:3" in syntax["error"], syntax
    assert syntax["error_code"] == 1  # SYNTAX_ERROR
    missing = out["missing_table"]
    assert "line 1:15: Table 'iceberg.jdbc_peer.no_such_table' does not exist" in \
        missing["error"], missing
    assert missing["error_code"] == 46  # TABLE_NOT_FOUND

    user, zone, has_version = ok(out, "system_functions")[0]
    assert user == "dev" and zone and has_version == "true"
    runtime = ok(out, "runtime")
    assert runtime["nodes"] == [["true", "active"]]
    assert runtime["queries"] == [["true"]]
