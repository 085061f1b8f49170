"""Arrow Flight SQL (coordinator.flight_sql_port) driven by real clients: pyarrow.flight and
ADBC's flightsql driver through DB-API.

sqe-server runs in local mode behind the api_key provider only (no anonymous provider), so
every call must authenticate: a Basic handshake with an API key as the password returns a
Bearer token, which the clients then send on every call.
"""

from __future__ import annotations

import datetime
import decimal
import os
import time

import pyarrow as pa
import pyarrow.flight as flight
import pytest

from conftest import is_listening

ALICE_KEY = "sqe_flight_alice_8c2e7d"
BOB_KEY = "sqe_flight_bob_41aa09"
ANONYMOUS = '[[auth.providers]]\ntype = "anonymous"\nuser = "dev"\nroles = ["admin"]\n'


@pytest.fixture
def flight_server(start_server, server_config, tmp_path):
    keys = tmp_path / "api-keys.toml"
    keys.write_text(f'[[keys]]\nkey = "{ALICE_KEY}"\nuser = "alice"\nroles = ["admin"]\n\n'
                    f'[[keys]]\nkey = "{BOB_KEY}"\nuser = "bob"\nroles = ["reader"]\n')
    os.chmod(keys, 0o600)
    text = server_config.text()
    assert ANONYMOUS in text
    text = text.replace(ANONYMOUS,
                        f'[[auth.providers]]\ntype = "api_key"\nkeys_file = "{keys}"\n')
    path = tmp_path / "sqe-flight.toml"
    path.write_text(text)
    server = start_server(["--config", str(path)])
    server.wait_ready()
    port = server_config.ports.flight_sql
    deadline = time.monotonic() + 10
    while not is_listening(port) and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def location(server_config) -> str:
    return f"grpc://127.0.0.1:{server_config.ports.flight_sql}"


# --- Flight SQL commands by hand (pyarrow.flight has no Flight SQL layer) ---------------

def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def command(message: str, payload: bytes) -> flight.FlightDescriptor:
    """A FlightDescriptor whose cmd is google.protobuf.Any(arrow.flight.protocol.sql.<message>)."""
    url = f"type.googleapis.com/arrow.flight.protocol.sql.{message}".encode()
    return flight.FlightDescriptor.for_command(_field(1, url) + _field(2, payload))


def statement_query(sql: str) -> flight.FlightDescriptor:
    return command("CommandStatementQuery", _field(1, sql.encode()))


def login(client: flight.FlightClient, user: str, key: str) -> flight.FlightCallOptions:
    header = client.authenticate_basic_token(user, key)
    assert header[0] == b"authorization"
    assert header[1].startswith(b"Bearer ")
    return flight.FlightCallOptions(headers=[header])


def test_pyarrow_basic_handshake_then_query(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        info = client.get_flight_info(
            statement_query("SELECT x, x * 10 AS y, 'row ' || CAST(x AS varchar) AS s "
                            "FROM (VALUES 1, 2, 3) t(x) ORDER BY x"), options)
        assert info.schema.names == ["x", "y", "s"]
        assert len(info.endpoints) == 1
        assert info.total_records == -1
        table = client.do_get(info.endpoints[0].ticket, options).read_all()
        assert table.column("y").to_pylist() == [10, 20, 30]
        assert table.column("s").to_pylist() == ["row 1", "row 2", "row 3"]
        assert table.schema.equals(info.schema)


def test_pyarrow_streams_a_larger_result(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        sql = ("WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
               "SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x AS n "
               "FROM t a, t b, t c, t d, t e")
        info = client.get_flight_info(statement_query(sql), options)
        reader = client.do_get(info.endpoints[0].ticket, options)
        batches = 0
        total = 0
        for chunk in reader:
            batches += 1
            total += chunk.data.num_rows
        assert total == 100000
        assert batches > 1


def test_pyarrow_wrong_password_is_unauthenticated(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        with pytest.raises(flight.FlightUnauthenticatedError) as err:
            client.authenticate_basic_token("alice", "sqe_not_the_key")
        assert "sqe_not_the_key" not in str(err.value)
    assert "sqe_not_the_key" not in flight_server.stderr()
    assert ALICE_KEY not in flight_server.stderr()


def test_pyarrow_missing_token_is_unauthenticated(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        with pytest.raises(flight.FlightUnauthenticatedError):
            client.get_flight_info(statement_query("SELECT 1"))
        with pytest.raises(flight.FlightUnauthenticatedError):
            client.get_flight_info(statement_query("SELECT 1"), flight.FlightCallOptions(
                headers=[(b"authorization", b"Bearer not-a-token")]))


def test_pyarrow_ticket_of_user_a_is_refused_to_user_b(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        alice = login(client, "alice", ALICE_KEY)
        bob = login(client, "bob", BOB_KEY)
        info = client.get_flight_info(statement_query("SELECT 42 AS answer"), alice)
        ticket = info.endpoints[0].ticket
        with pytest.raises(flight.FlightUnauthorizedError):
            client.do_get(ticket, bob).read_all()
        # The ticket is still Alice's, and single-use (gRPC NOT_FOUND: pyarrow's KeyError).
        assert client.do_get(ticket, alice).read_all().column(0).to_pylist() == [42]
        with pytest.raises(KeyError):
            client.do_get(ticket, alice).read_all()


def test_pyarrow_sql_error_is_invalid_argument_with_position(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        # gRPC INVALID_ARGUMENT surfaces in pyarrow as ArrowInvalid.
        with pytest.raises(pa.ArrowInvalid) as err:
            client.get_flight_info(statement_query("SELECT nope FROM (VALUES 1) t(x)"), options)
        assert "line 1:8" in str(err.value)


# --- ADBC (adbc-driver-flightsql) through DB-API ----------------------------------------

def adbc_connect(server_config, user="alice", key=ALICE_KEY):
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    return dbapi.connect(location(server_config),
                         db_kwargs={"username": user, "password": key},
                         autocommit=True)


def test_adbc_query_with_several_column_types(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.execute("SELECT CAST(7 AS bigint) AS i, CAST(3 AS integer) AS i32, 'text' AS s, "
                    "CAST(1.5 AS double) AS d, true AS b, DATE '2024-02-29' AS dt, "
                    "CAST('12.34' AS decimal(10, 2)) AS dec, "
                    "TIMESTAMP '2024-01-02 03:04:05.123456' AS ts, "
                    "CAST(NULL AS varchar) AS n")
        table = cur.fetch_arrow_table()
        assert table.schema.field("i").type == pa.int64()
        assert table.schema.field("i32").type == pa.int32()
        assert table.schema.field("s").type == pa.string()
        assert table.schema.field("d").type == pa.float64()
        assert table.schema.field("b").type == pa.bool_()
        assert table.schema.field("dt").type == pa.date32()
        assert table.schema.field("dec").type == pa.decimal128(10, 2)
        assert table.schema.field("ts").type == pa.timestamp("us")
        row = table.to_pylist()[0]
        assert row["i"] == 7 and row["i32"] == 3 and row["s"] == "text"
        assert row["d"] == 1.5 and row["b"] is True
        assert row["dt"] == datetime.date(2024, 2, 29)
        assert row["dec"] == decimal.Decimal("12.34")
        assert row["ts"] == datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)
        assert row["n"] is None


def test_adbc_prepared_statement_with_parameters_twice(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        sql = "SELECT x FROM (VALUES 1, 2, 3, 4) t(x) WHERE x > ? ORDER BY x"
        cur.execute(sql, (1,))
        assert [r[0] for r in cur.fetchall()] == [2, 3, 4]
        cur.execute(sql, (3,))
        assert [r[0] for r in cur.fetchall()] == [4]


def test_adbc_insert_and_metadata(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.execute("CREATE SCHEMA sales")
        cur.execute("CREATE TABLE sales.orders (id bigint, customer varchar, "
                    "amount decimal(10, 2))")
        cur.execute("INSERT INTO sales.orders VALUES (1, 'ann', 10.50), (2, 'bo', 3.25)")
        cur.execute("INSERT INTO sales.orders VALUES (?, ?, 1.00)", (3, "cy"))
        cur.execute("SELECT count(*), sum(id) FROM sales.orders")
        assert cur.fetchone() == (3, 6)

        schema = conn.adbc_get_table_schema("orders", db_schema_filter="sales")
        assert schema.names == ["id", "customer", "amount"]
        assert schema.field("amount").type == pa.decimal128(10, 2)
        assert "TABLE" in conn.adbc_get_table_types()

        objects = conn.adbc_get_objects(depth="all", db_schema_filter="sales").read_all()
        catalogs = {c["catalog_name"]: c for c in objects.to_pylist()}
        assert "iceberg" in catalogs
        schemas = catalogs["iceberg"]["catalog_db_schemas"]
        assert [s["db_schema_name"] for s in schemas] == ["sales"]
        tables = schemas[0]["db_schema_tables"]
        assert [t["table_name"] for t in tables] == ["orders"]
        assert [c["column_name"] for c in tables[0]["table_columns"]] == [
            "id", "customer", "amount"]


def test_adbc_wrong_password_is_refused(flight_server, server_config):
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    with pytest.raises(dbapi.Error) as err:
        with adbc_connect(server_config, key="sqe_wrong_key") as conn, conn.cursor() as cur:
            cur.execute("SELECT 1")
    assert "UNAUTHENTICATED" in str(err.value).upper() or "Unauthenticated" in str(err.value)


def test_pyarrow_get_schema_does_not_run_the_statement(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        client.get_flight_info(statement_query("CREATE SCHEMA s"), options)
        client.get_flight_info(statement_query("CREATE TABLE s.t (a bigint, b varchar)"), options)
        schema = client.get_schema(statement_query("SELECT b, a FROM s.t"), options).schema
        assert schema.names == ["b", "a"]
        assert schema.field("a").type == pa.int64()
        # GetSchema of an INSERT describes it without running it.
        client.get_schema(statement_query("INSERT INTO s.t VALUES (1, 'x')"), options)
        info = client.get_flight_info(statement_query("SELECT count(*) AS n FROM s.t"), options)
        assert client.do_get(info.endpoints[0].ticket, options).read_all().column(0)[0].as_py() == 0


def test_adbc_server_info_and_batched_parameters(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        info = conn.adbc_get_info()
        # Read from GetSqlInfo's dense-union result by the driver.
        assert info["vendor_name"] == "SQE"
        assert info["vendor_version"]
        assert info["vendor_arrow_version"] == "1.5.0"
        cur.execute("CREATE SCHEMA app")
        cur.execute("CREATE TABLE app.events (id bigint, name varchar)")
        # The prepared INSERT's parameter schema has the target columns' types.
        params = cur.adbc_prepare("INSERT INTO app.events VALUES (?, ?)")
        assert params.types == [pa.int64(), pa.string()]
        # executemany binds every row and runs the prepared INSERT once per row.
        cur.executemany("INSERT INTO app.events VALUES (?, ?)", [(1, "a"), (2, "b"), (3, None)])
        cur.execute("SELECT id, name FROM app.events ORDER BY id")
        assert cur.fetchall() == [(1, "a"), (2, "b"), (3, None)]


def test_pyarrow_a_cancelled_call_stops_its_query(start_server, server_config, tmp_path):
    """A DoGet whose deadline passes while the query computes stops the query: with one
    query allowed at a time, the next one runs instead of being refused."""
    keys = tmp_path / "api-keys.toml"
    keys.write_text(f'[[keys]]\nkey = "{ALICE_KEY}"\nuser = "alice"\nroles = ["admin"]\n')
    os.chmod(keys, 0o600)
    server_config.extra_toml = "[query]\nmax_concurrent_queries = 1\n"
    text = server_config.text().replace(
        ANONYMOUS, f'[[auth.providers]]\ntype = "api_key"\nkeys_file = "{keys}"\n')
    path = tmp_path / "sqe-cancel.toml"
    path.write_text(text)
    server = start_server(["--config", str(path)])
    server.wait_ready()
    slow = ("WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
            "SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i, t j")
    with flight.FlightClient(location(server_config)) as client:
        header = client.authenticate_basic_token("alice", ALICE_KEY)
        options = flight.FlightCallOptions(headers=[header])
        hurried = flight.FlightCallOptions(headers=[header], timeout=1.0)
        info = client.get_flight_info(statement_query(slow), options)
        started = time.monotonic()
        with pytest.raises(flight.FlightTimedOutError):
            client.do_get(info.endpoints[0].ticket, hurried).read_all()
        assert time.monotonic() - started < 5
        deadline = time.monotonic() + 5
        while True:
            try:
                info = client.get_flight_info(statement_query("SELECT 7 AS n"), options)
                table = client.do_get(info.endpoints[0].ticket, options).read_all()
                break
            except (flight.FlightError, pa.ArrowInvalid):  # RESOURCE_EXHAUSTED: ArrowInvalid
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert table.column(0).to_pylist() == [7]


def test_pyarrow_the_users_session_persists_across_calls(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        alice = login(client, "alice", ALICE_KEY)
        bob = login(client, "bob", BOB_KEY)

        def rows(sql, options):
            info = client.get_flight_info(statement_query(sql), options)
            return client.do_get(info.endpoints[0].ticket, options).read_all().to_pylist()

        rows("CREATE SCHEMA crm", alice)
        rows("CREATE TABLE crm.people (name varchar)", alice)
        rows("INSERT INTO crm.people VALUES ('ann')", alice)
        # USE holds for Alice's later calls (a new token even: the session is per user)...
        rows("USE crm", alice)
        assert rows("SELECT name FROM people", login(client, "alice", ALICE_KEY)) == [
            {"name": "ann"}]
        # ...and not for Bob's.
        with pytest.raises(pa.ArrowInvalid):
            rows("SELECT name FROM people", bob)


@pytest.mark.parametrize("codec", ["none", "zstd", "lz4"])
def test_pyarrow_reads_every_flight_compression(start_server, server_config, tmp_path, codec):
    server_config.coordinator_extra = f'flight_compression = "{codec}"'
    path = server_config.write()
    server = start_server(["--config", str(path)])
    server.wait_ready()
    # The default test config has the anonymous provider: no credentials needed.
    with flight.FlightClient(location(server_config)) as client:
        sql = ("WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
               "SELECT a.x + b.x * 10 + c.x * 100 AS n, 'same text' AS s FROM t a, t b, t c")
        info = client.get_flight_info(statement_query(sql))
        table = client.do_get(info.endpoints[0].ticket).read_all()
        assert table.num_rows == 1000
        assert sorted(table.column("n").to_pylist()) == list(range(1000))
        assert set(table.column("s").to_pylist()) == {"same text"}


def test_pyarrow_key_commands_are_empty_with_the_spec_schemas(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        primary = client.get_flight_info(command("CommandGetPrimaryKeys", _field(3, b"t")), options)
        assert primary.schema.names == ["catalog_name", "db_schema_name", "table_name",
                                        "column_name", "key_name", "key_sequence"]
        assert primary.schema.field("key_sequence").type == pa.int32()
        assert not primary.schema.field("table_name").nullable
        assert client.do_get(primary.endpoints[0].ticket, options).read_all().num_rows == 0
        for message in ("CommandGetExportedKeys", "CommandGetImportedKeys"):
            info = client.get_flight_info(command(message, _field(3, b"t")), options)
            assert info.schema.field("update_rule").type == pa.uint8()
            assert info.schema.field("delete_rule").type == pa.uint8()
            assert len(info.schema) == 13
            assert client.do_get(info.endpoints[0].ticket, options).read_all().num_rows == 0
        cross = client.get_flight_info(
            command("CommandGetCrossReference", _field(3, b"a") + _field(6, b"b")), options)
        assert cross.schema.names[0] == "pk_catalog_name"
