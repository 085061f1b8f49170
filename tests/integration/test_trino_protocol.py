"""The Trino client protocol (coordinator.trino_http_port) driven by the real `trino` Python
client (trinodb/trino-python-client, DB-API), plus a few raw HTTP checks.

Most tests run sqe-server in local mode with the anonymous provider (callers name
themselves with X-Trino-User); the credential tests run it behind the api_key provider only.
"""

from __future__ import annotations

import datetime
import decimal
import http.client
import json
import os
import threading
import time
import uuid

import pytest
import trino
from trino.auth import BasicAuthentication
from trino.exceptions import HttpError, TrinoUserError, TrinoQueryError

from conftest import is_listening

ALICE_KEY = "sqe_trino_alice_5d1f0b"
ANONYMOUS = '[[auth.providers]]\ntype = "anonymous"\nuser = "dev"\nroles = ["admin"]\n'

# Nine 10-row tables cross-joined: 10^9 rows to count, far longer than any test waits.
SLOW_QUERY = ("WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
              "SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i")


def wait_listening(port: int):
    deadline = time.monotonic() + 10
    while not is_listening(port) and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture
def trino_server(start_server, server_config):
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    wait_listening(server_config.ports.trino_http)
    return server


@pytest.fixture
def secured_server(start_server, server_config, tmp_path):
    keys = tmp_path / "api-keys.toml"
    keys.write_text(f'[[keys]]\nkey = "{ALICE_KEY}"\nuser = "alice"\nroles = ["admin"]\n')
    os.chmod(keys, 0o600)
    text = server_config.text()
    assert ANONYMOUS in text
    text = text.replace(ANONYMOUS, f'[[auth.providers]]\ntype = "api_key"\nkeys_file = "{keys}"\n')
    path = tmp_path / "sqe-trino.toml"
    path.write_text(text)
    server = start_server(["--config", str(path)])
    server.wait_ready()
    wait_listening(server_config.ports.trino_http)
    return server


def connect(server_config, **kwargs) -> trino.dbapi.Connection:
    kwargs.setdefault("user", "dev")
    return trino.dbapi.connect(host="127.0.0.1", port=server_config.ports.trino_http,
                               http_scheme="http", **kwargs)


def run(conn, sql: str):
    cur = conn.cursor()
    cur.execute(sql)
    rows = cur.fetchall()
    return cur, rows


def test_show_catalogs_schemas_tables(trino_server, server_config):
    conn = connect(server_config, catalog="iceberg", schema="demo")
    run(conn, "CREATE SCHEMA IF NOT EXISTS shop")
    run(conn, "CREATE TABLE shop.items (id bigint, name varchar)")
    _, catalogs = run(conn, "SHOW CATALOGS")
    assert ["iceberg"] in catalogs
    _, schemas = run(conn, "SHOW SCHEMAS FROM iceberg")
    assert ["shop"] in schemas
    cur, tables = run(conn, "SHOW TABLES FROM iceberg.shop")
    assert tables == [["items"]]
    assert cur.description[0][0].lower() == "table"


def test_every_type_decodes_to_python_values(trino_server, server_config):
    conn = connect(server_config)
    cur, rows = run(conn, """
        SELECT true AS b, CAST(1 AS tinyint) AS ti, CAST(2 AS smallint) AS si, 3 AS i,
               CAST(4 AS bigint) AS bi, CAST(1.5 AS real) AS r, CAST(2.25 AS double) AS d,
               CAST(12.3 AS decimal(10,2)) AS dec, 'héllo' AS v, X'0102' AS vb,
               DATE '2024-02-29' AS dt, TIME '13:45:00.5' AS tm,
               TIMESTAMP '2024-02-29 13:45:00.123456' AS ts,
               CAST(TIMESTAMP '2024-02-29 13:45:00' AS timestamp(6) with time zone) AS tstz,
               ARRAY[1, 2] AS arr, CAST(NULL AS bigint) AS n,
               UUID '123e4567-e89b-12d3-a456-426614174000' AS u""")
    assert len(rows) == 1
    (b, ti, si, i, bi, r, d, dec, v, vb, dt, tm, ts, tstz, arr, n, u) = rows[0]
    assert b is True
    assert (ti, si, i, bi) == (1, 2, 3, 4)
    assert r == 1.5 and d == 2.25
    assert dec == decimal.Decimal("12.30")
    assert v == "héllo"
    assert vb == b"\x01\x02"
    assert dt == datetime.date(2024, 2, 29)
    assert tm == datetime.time(13, 45, 0, 500000)
    assert ts == datetime.datetime(2024, 2, 29, 13, 45, 0, 123456)
    assert tstz.replace(tzinfo=None) == datetime.datetime(2024, 2, 29, 13, 45)
    assert tstz.utcoffset() == datetime.timedelta(0)
    assert arr == [1, 2]
    assert n is None
    assert u == uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    types = [col[1] for col in cur.description]
    assert types == ["boolean", "tinyint", "smallint", "integer", "bigint", "real", "double",
                     "decimal(10,2)", "varchar", "varbinary", "date", "time(6)", "timestamp(6)",
                     "timestamp(6) with time zone", "array(integer)", "bigint", "uuid"]


def test_a_million_rows_page_through_next_uri(trino_server, server_config):
    conn = connect(server_config)
    cur = conn.cursor()
    cur.execute("WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
                "SELECT a.x * 100000 + b.x * 10000 + c.x * 1000 + d.x * 100 + e.x * 10 + f.x "
                "AS n, 'v' AS s FROM t a, t b, t c, t d, t e, t f")
    count = 0
    total = 0
    while True:
        batch = cur.fetchmany(50000)
        if not batch:
            break
        count += len(batch)
        total += sum(row[0] for row in batch)
    assert count == 1_000_000
    assert total == sum(range(1_000_000))
    assert cur.stats["state"] == "FINISHED"
    assert cur.stats["processedRows"] == 1_000_000
    # The engine's own accounting: a million computed rows take CPU time and memory.
    assert cur.stats["cpuTimeMillis"] > 0
    assert cur.stats["peakMemoryBytes"] > 0


def test_use_changes_catalog_and_schema_through_headers(trino_server, server_config):
    conn = connect(server_config, catalog="iceberg", schema="demo")
    run(conn, "CREATE SCHEMA IF NOT EXISTS sales")
    run(conn, "CREATE TABLE sales.orders (id bigint)")
    run(conn, "INSERT INTO sales.orders VALUES 1, 2")
    run(conn, "USE sales")
    assert conn._client_session.schema == "sales"
    assert conn._client_session.catalog == "iceberg"
    _, rows = run(conn, "SELECT count(*) FROM orders")
    assert rows == [[2]]
    # Another connection of the same user keeps its own schema: the headers decide.
    other = connect(server_config, catalog="iceberg", schema="demo")
    with pytest.raises(TrinoUserError):
        run(other, "SELECT count(*) FROM orders")


def test_set_session_comes_back_and_is_sent(trino_server, server_config):
    conn = connect(server_config)
    run(conn, "SET SESSION query_max_run_time = 1234")
    assert conn._client_session.properties == {"query_max_run_time": "1234"}
    _, rows = run(conn, "SHOW SESSION LIKE 'query_max_run_time'")
    assert rows[0][1] == "1234"
    fresh = connect(server_config)
    _, rows = run(fresh, "SHOW SESSION LIKE 'query_max_run_time'")
    assert rows[0][1] != "1234"
    scoped = connect(server_config, session_properties={"query_max_run_time": "99"})
    _, rows = run(scoped, "SHOW SESSION LIKE 'query_max_run_time'")
    assert rows[0][1] == "99"


def test_insert_reports_its_row_count(trino_server, server_config):
    conn = connect(server_config, catalog="iceberg", schema="demo")
    run(conn, "CREATE SCHEMA demo")  # the client's schema need not exist before
    run(conn, "CREATE TABLE counts (a bigint)")
    cur, rows = run(conn, "INSERT INTO counts VALUES 1, 2, 3")
    assert cur.rowcount == 3
    assert rows == [[3]]


def test_parameters_run_through_prepare_and_execute(trino_server, server_config):
    conn = connect(server_config)
    cur = conn.cursor()
    cur.execute("SELECT ? + 1, ?", (41, "x"))
    assert cur.fetchall() == [[42, "x"]]


def test_a_syntax_error_names_line_and_column(trino_server, server_config):
    conn = connect(server_config)
    with pytest.raises(TrinoUserError) as error:
        run(conn, "SELECT 1\nFROM (VALUES 1) t(x)\nWHERE x = = 1")
    assert error.value.error_name == "SYNTAX_ERROR"
    assert error.value.error_type == "USER_ERROR"
    assert error.value.error_location == (3, 11)
    assert "line 3:11" in error.value.message


def test_cancel_a_long_query(trino_server, server_config):
    conn = connect(server_config)
    cur = conn.cursor()
    failure: list[BaseException] = []

    def execute():
        try:
            cur.execute(SLOW_QUERY)
            cur.fetchall()
        except BaseException as e:  # noqa: BLE001 - the test inspects it
            failure.append(e)

    worker = threading.Thread(target=execute)
    worker.start()
    deadline = time.monotonic() + 10
    while cur.query_id is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    started = time.monotonic()
    cur.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert time.monotonic() - started < 5
    # The query is FAILED with USER_CANCELED on the server.
    conn2 = http.client.HTTPConnection("127.0.0.1", server_config.ports.trino_http, timeout=5)
    conn2.request("GET", f"/v1/query/{cur.query_id}", headers={"X-Trino-User": "dev"})
    info = json.loads(conn2.getresponse().read())
    assert info["state"] == "FAILED"
    assert info["errorCode"]["name"] == "USER_CANCELED"


def test_delete_query_cancels_and_next_uri_answers_user_canceled(trino_server, server_config):
    port = server_config.ports.trino_http
    headers = {"X-Trino-User": "dev"}
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("POST", "/v1/statement", body=SLOW_QUERY, headers=headers)
    posted = json.loads(c.getresponse().read())
    assert posted["stats"]["state"] == "QUEUED"
    next_path = posted["nextUri"].split(str(port), 1)[1]
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("DELETE", f"/v1/query/{posted['id']}", headers=headers)
    assert c.getresponse().status == 204
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", next_path, headers=headers)
    page = json.loads(c.getresponse().read())
    assert page["stats"]["state"] == "FAILED"
    assert page["error"]["errorName"] == "USER_CANCELED"
    assert page["error"]["errorCode"] == 3
    assert "nextUri" not in page
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/v1/query", headers=headers)
    listed = json.loads(c.getresponse().read())
    assert any(q["queryId"] == posted["id"] and q["state"] == "FAILED" for q in listed)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/v1/status")
    status = json.loads(c.getresponse().read())
    assert status["nodeVersion"]["version"].startswith("sqe-")


def test_api_key_credentials(secured_server, server_config):
    port = server_config.ports.trino_http
    # No credentials: 401 with a challenge.
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("POST", "/v1/statement", body="SELECT 1", headers={"X-Trino-User": "alice"})
    response = c.getresponse()
    assert response.status == 401
    assert "Basic" in response.getheader("WWW-Authenticate")
    # A wrong key: the client sees HTTP 401.
    wrong = connect(server_config, user="alice", allow_insecure_auth=True,
                    auth=BasicAuthentication("alice", "sqe_trino_wrong"))
    with pytest.raises(HttpError) as error:
        run(wrong, "SELECT 1")
    assert "401" in str(error.value)
    # The right key, as the Basic password: the query runs as the key's user.
    good = connect(server_config, user="mallory", allow_insecure_auth=True,
                   auth=BasicAuthentication("alice", ALICE_KEY))
    _, rows = run(good, "SELECT current_user")
    assert rows == [["alice"]]
