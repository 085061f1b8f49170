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


# --- protobuf by hand: varints, fixed64, and a small decoder for results ----------------

def _varint_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value & 0xFFFFFFFFFFFFFFFF)


def _decode(buf: bytes) -> dict:
    """Field number -> list of values (int for varints and fixed64, bytes when
    length-delimited)."""
    out: dict = {}
    i = 0
    while i < len(buf):
        key, i = _read_varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(buf, i)
        elif wire == 1:
            value, i = int.from_bytes(buf[i:i + 8], "little", signed=True), i + 8
        elif wire == 2:
            length, i = _read_varint(buf, i)
            value, i = buf[i:i + length], i + length
        else:
            raise ValueError(f"wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def _read_varint(buf: bytes, i: int):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, i


def _any_value(body: bytes) -> bytes:
    """The packed message of a google.protobuf.Any."""
    return _decode(body).get(2, [b""])[0]


# --- CommandGetXdbcTypeInfo ---------------------------------------------------------------

XDBC_COLUMNS = ["type_name", "data_type", "column_size", "literal_prefix", "literal_suffix",
                "create_params", "nullable", "case_sensitive", "searchable",
                "unsigned_attribute", "fixed_prec_scale", "auto_increment", "local_type_name",
                "minimum_scale", "maximum_scale", "sql_data_type", "datetime_subcode",
                "num_prec_radix", "interval_precision"]


def test_pyarrow_xdbc_type_info_has_the_spec_schema_and_filter(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        info = client.get_flight_info(command("CommandGetXdbcTypeInfo", b""), options)
        assert info.schema.names == XDBC_COLUMNS
        for name in ("type_name", "data_type", "nullable", "case_sensitive", "searchable",
                     "fixed_prec_scale", "sql_data_type"):
            assert not info.schema.field(name).nullable, name
        assert info.schema.field("data_type").type == pa.int32()
        assert info.schema.field("case_sensitive").type == pa.bool_()
        assert info.schema.field("create_params").type == pa.list_(
            pa.field("item", pa.string(), nullable=False))
        assert client.get_schema(command("CommandGetXdbcTypeInfo", b""), options).schema.equals(
            info.schema)
        table = client.do_get(info.endpoints[0].ticket, options).read_all()
        assert table.schema.equals(info.schema)
        rows = {r["type_name"]: r for r in table.to_pylist()}
        assert {"boolean", "tinyint", "smallint", "integer", "bigint", "real", "double",
                "decimal", "varchar", "varbinary", "date", "time", "timestamp",
                "timestamp with time zone"} <= set(rows)
        # java.sql.Types codes; datetimes have the generic SQL type 9 and a subcode.
        assert rows["bigint"]["data_type"] == -5
        assert rows["varchar"]["data_type"] == 12
        assert rows["boolean"]["data_type"] == 16
        assert rows["decimal"]["create_params"] == ["precision", "scale"]
        assert rows["date"]["sql_data_type"] == 9 and rows["date"]["datetime_subcode"] == 1
        assert rows["timestamp with time zone"]["data_type"] == 2014
        assert rows["varchar"]["literal_prefix"] == "'"
        assert rows["double"]["num_prec_radix"] == 2
        codes = table.column("data_type").to_pylist()
        assert codes == sorted(codes)
        # The optional data_type filter (a negative int32 on the wire).
        only = client.get_flight_info(
            command("CommandGetXdbcTypeInfo", _varint_field(1, -5)), options)
        assert client.do_get(only.endpoints[0].ticket, options).read_all().column(
            "type_name").to_pylist() == ["bigint"]


# --- PollFlightInfo ---------------------------------------------------------------------

def test_adbc_incremental_execution_polls_flight_info(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.adbc_statement.set_options(**{"adbc.statement.exec.incremental": "true"})
        sql = "SELECT x, x * 2 AS y FROM (VALUES 1, 2, 3) t(x) ORDER BY x"
        partitions, schema = cur.adbc_execute_partitions(sql)
        assert schema.names == ["x", "y"]
        collected = list(partitions)
        # The server answers complete at once: progress 1 and no further partitions.
        assert cur.adbc_statement.get_option_float("adbc.statement.exec.progress") == 1.0
        for _ in range(3):
            more, _ = cur.adbc_execute_partitions(sql)
            if not more:
                break
            collected.extend(more)
        assert len(collected) == 1
        cur.adbc_read_partition(collected[0])
        assert cur.fetchall() == [(1, 2), (2, 4), (3, 6)]


# --- CancelFlightInfo / CancelQuery ------------------------------------------------------

CANCELLED, NOT_CANCELLABLE = 1, 3
ENDLESS = ("WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
           "SELECT a.x + b.x * 10 + c.x * 100 AS n FROM t a, t b, t c, t d, t e, t f, t g, "
           "t h, t i")


def cancel_flight_info(client, info, options) -> int:
    results = list(client.do_action(
        flight.Action("CancelFlightInfo", _field(1, info.serialize())), options))
    assert len(results) == 1
    return _decode(results[0].body.to_pybytes()).get(1, [0])[0]


def test_pyarrow_cancel_flight_info_stops_a_streaming_query(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        info = client.get_flight_info(statement_query(ENDLESS), options)
        reader = client.do_get(info.endpoints[0].ticket, options)
        first = reader.read_chunk()
        assert first.data.num_rows > 0
        # Another user cannot cancel Alice's query.
        with pytest.raises(flight.FlightUnauthorizedError):
            cancel_flight_info(client, info, login(client, "bob", BOB_KEY))
        assert cancel_flight_info(client, info, options) == CANCELLED
        started = time.monotonic()
        with pytest.raises(flight.FlightCancelledError):
            while True:
                reader.read_chunk()
        assert time.monotonic() - started < 1.0
        # The stream is over: its ticket names nothing now (NOT_FOUND: KeyError).
        with pytest.raises(KeyError):
            cancel_flight_info(client, info, options)
        # The server still answers.
        again = client.get_flight_info(statement_query("SELECT 1 AS one"), options)
        assert client.do_get(again.endpoints[0].ticket, options).read_all().num_rows == 1


def test_pyarrow_cancel_query_action_withdraws_a_ticket(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        assert {a.type for a in client.list_actions(options)} >= {
            "CancelFlightInfo", "CancelQuery", "SetSessionOptions", "GetSessionOptions",
            "CloseSession"}
        info = client.get_flight_info(statement_query(ENDLESS), options)
        url = b"type.googleapis.com/arrow.flight.protocol.sql.ActionCancelQueryRequest"
        body = _field(1, url) + _field(2, _field(1, info.serialize()))
        results = list(client.do_action(flight.Action("CancelQuery", body), options))
        answer = results[0].body.to_pybytes()
        assert b"arrow.flight.protocol.sql.ActionCancelQueryResult" in answer
        assert _decode(_any_value(answer)).get(1, [0])[0] == CANCELLED
        with pytest.raises(KeyError):
            client.do_get(info.endpoints[0].ticket, options).read_all()
        # A statement that already ran at GetFlightInfo cannot be cancelled.
        ran = client.get_flight_info(statement_query("CREATE SCHEMA cancel_me"), options)
        assert cancel_flight_info(client, ran, options) == NOT_CANCELLABLE


# --- session options (SetSessionOptions / GetSessionOptions / CloseSession + cookie) --------

class CookieJar(flight.ClientMiddlewareFactory):
    """Keeps the session cookie the server sets and sends it back, as a browser would."""

    def __init__(self):
        self.cookie = None

    def start_call(self, info):
        return _CookieMiddleware(self)


class _CookieMiddleware(flight.ClientMiddleware):
    def __init__(self, jar):
        self.jar = jar

    def sending_headers(self):
        return {"cookie": self.jar.cookie} if self.jar.cookie else {}

    def received_headers(self, headers):
        for value in headers.get("set-cookie", []):
            pair = value.split(";")[0].strip()
            name, _, content = pair.partition("=")
            self.jar.cookie = pair if content else None


def _string_option(name: str, value: str) -> bytes:
    return _field(1, _field(1, name.encode()) + _field(2, _field(1, value.encode())))


def _options_map(body: bytes) -> dict:
    """map<string, SessionOptionValue> (field 1) -> {name: value}."""
    out = {}
    for entry in _decode(body).get(1, []):
        fields = _decode(entry)
        name = fields[1][0].decode()
        value = _decode(fields.get(2, [b""])[0])
        if 1 in value:
            out[name] = value[1][0].decode()
        elif 3 in value:
            out[name] = value[3][0]
        else:
            out[name] = value
    return out


def _errors_map(body: bytes) -> dict:
    """SetSessionOptionsResult.errors -> {name: ErrorValue}."""
    out = {}
    for entry in _decode(body).get(1, []):
        fields = _decode(entry)
        out[fields[1][0].decode()] = _decode(fields.get(2, [b""])[0]).get(1, [0])[0]
    return out


def test_pyarrow_session_options_ride_on_a_cookie(flight_server, server_config):
    jar = CookieJar()
    with flight.FlightClient(location(server_config), middleware=[jar]) as client, \
            flight.FlightClient(location(server_config)) as plain:
        alice = login(client, "alice", ALICE_KEY)

        def rows(c, sql, options):
            info = c.get_flight_info(statement_query(sql), options)
            return c.do_get(info.endpoints[0].ticket, options).read_all().to_pylist()

        rows(client, "CREATE SCHEMA desk", alice)
        rows(client, "CREATE TABLE desk.notes (body varchar)", alice)
        rows(client, "INSERT INTO desk.notes VALUES ('hello')", alice)
        # No session yet: GetSessionOptions needs one (NOT_FOUND: KeyError).
        with pytest.raises(KeyError):
            list(client.do_action(flight.Action("GetSessionOptions", b""), alice))

        request = _string_option("catalog", "iceberg") + _string_option("schema", "desk")
        result = list(client.do_action(flight.Action("SetSessionOptions", request), alice))
        assert _errors_map(result[0].body.to_pybytes()) == {}
        assert jar.cookie and jar.cookie.startswith("arrow_flight_session_id=")
        # Unqualified names resolve in the cookie's session...
        assert rows(client, "SELECT body FROM notes", alice) == [{"body": "hello"}]
        # ...and not in Alice's calls without the cookie.
        plain_alice = login(plain, "alice", ALICE_KEY)
        with pytest.raises(pa.ArrowInvalid):
            rows(plain, "SELECT body FROM notes", plain_alice)

        # Per-option errors: an unknown schema, an unknown option; a property is set.
        request = (_string_option("schema", "no_such_schema") +
                   _string_option("no_such_option", "x") +
                   _string_option("time_zone", "Europe/Paris"))
        result = list(client.do_action(flight.Action("SetSessionOptions", request), alice))
        assert _errors_map(result[0].body.to_pybytes()) == {
            "schema": 2, "no_such_option": 1}  # INVALID_VALUE, INVALID_NAME
        result = list(client.do_action(flight.Action("GetSessionOptions", b""), alice))
        current = _options_map(result[0].body.to_pybytes())
        assert current["catalog"] == "iceberg"
        assert current["schema"] == "desk"
        assert current["time_zone"] == "Europe/Paris"

        # The session is Alice's: Bob with her cookie is refused.
        bob = login(client, "bob", BOB_KEY)
        with pytest.raises(flight.FlightUnauthorizedError):
            rows(client, "SELECT 1", bob)

        result = list(client.do_action(flight.Action("CloseSession", b""), alice))
        assert _decode(result[0].body.to_pybytes()).get(1, [0])[0] == 1  # CLOSED
        assert jar.cookie is None


def test_adbc_session_options_through_the_driver(flight_server, server_config):
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    import json
    with adbc_connect(server_config) as setup, setup.cursor() as cur:
        cur.execute("CREATE SCHEMA adbc_s")
        cur.execute("CREATE TABLE adbc_s.t (v bigint)")
        cur.execute("INSERT INTO adbc_s.t VALUES (5)")
    with dbapi.connect(location(server_config),
                       db_kwargs={"username": "alice", "password": ALICE_KEY,
                                  "adbc.flight.sql.rpc.with_cookie_middleware": "true"},
                       autocommit=True) as conn:
        conn.adbc_connection.set_options(**{"adbc.flight.sql.session.option.schema": "adbc_s"})
        options = json.loads(conn.adbc_connection.get_option("adbc.flight.sql.session.options"))
        assert options["schema"] == "adbc_s"
        with conn.cursor() as cur:
            cur.execute("SELECT v FROM t")
            assert cur.fetchall() == [(5,)]
        with pytest.raises(dbapi.Error):
            conn.adbc_connection.set_options(
                **{"adbc.flight.sql.session.option.schema": "missing_schema"})


# --- CommandStatementIngest --------------------------------------------------------------

def test_adbc_bulk_ingest_create_append_replace(flight_server, server_config):
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    data = pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "name": pa.array(["ann", "bo", None], pa.string()),
        "amount": pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-2.25")],
                           pa.decimal128(10, 2)),
        "day": pa.array([datetime.date(2024, 1, 1)] * 3, pa.date32()),
        "ok": pa.array([True, False, None], pa.bool_()),
    })
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.execute("CREATE SCHEMA bulk")
        assert cur.adbc_ingest("loaded", data, mode="create", db_schema_name="bulk") == 3
        cur.execute("SELECT id, name, amount, day, ok FROM bulk.loaded ORDER BY id")
        back = cur.fetch_arrow_table()
        assert back.schema.field("amount").type == pa.decimal128(10, 2)
        assert back.to_pylist() == data.to_pylist()
        # create again: the table exists.
        with pytest.raises(dbapi.Error):
            cur.adbc_ingest("loaded", data, mode="create", db_schema_name="bulk")
        # append: several batches, one commit.
        many = pa.Table.from_batches([data.to_batches()[0].slice(0, 2)] * 4)
        assert cur.adbc_ingest("loaded", many, mode="append", db_schema_name="bulk") == 8
        cur.execute("SELECT count(*), sum(id) FROM bulk.loaded")
        assert cur.fetchone() == (11, 6 + 4 * 3)
        # replace: only the new rows remain.
        assert cur.adbc_ingest("loaded", data.slice(2), mode="replace",
                               db_schema_name="bulk") == 1
        cur.execute("SELECT id, name FROM bulk.loaded")
        assert cur.fetchall() == [(3, None)]
        # append to a missing table fails; temporary tables are refused.
        with pytest.raises(dbapi.Error):
            cur.adbc_ingest("missing", data, mode="append", db_schema_name="bulk")
        with pytest.raises(dbapi.Error) as err:
            cur.adbc_ingest("tmp", data, mode="create", db_schema_name="bulk", temporary=True)
        assert "temporary" in str(err.value)


# --- total_records, coordinator.debug, transactions ---------------------------------------

def test_pyarrow_total_records_of_a_statement_that_ran(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        client.get_flight_info(statement_query("CREATE SCHEMA counted"), options)
        client.get_flight_info(statement_query("CREATE TABLE counted.t (a bigint)"), options)
        info = client.get_flight_info(
            statement_query("INSERT INTO counted.t VALUES (1), (2), (3)"), options)
        table = client.do_get(info.endpoints[0].ticket, options).read_all()
        assert info.total_records == table.num_rows == 1
        assert table.column(0).to_pylist() == [3]


def test_pyarrow_transactions_are_refused_at_once(flight_server, server_config):
    with flight.FlightClient(location(server_config)) as client:
        options = login(client, "alice", ALICE_KEY)
        url = b"type.googleapis.com/arrow.flight.protocol.sql.ActionBeginTransactionRequest"
        started = time.monotonic()
        with pytest.raises(NotImplementedError) as err:  # gRPC UNIMPLEMENTED
            list(client.do_action(flight.Action("BeginTransaction", _field(1, url)), options))
        assert "transactions are not supported" in str(err.value)
        url = b"type.googleapis.com/arrow.flight.protocol.sql.ActionEndTransactionRequest"
        body = _field(1, url) + _field(2, _field(1, b"tx") + _varint_field(2, 1))
        with pytest.raises(NotImplementedError):
            list(client.do_action(flight.Action("EndTransaction", body), options))
        # A statement inside a transaction is refused too.
        with pytest.raises(NotImplementedError):
            client.get_flight_info(command("CommandStatementQuery",
                                           _field(1, b"SELECT 1") + _field(2, b"tx")), options)
        assert time.monotonic() - started < 5


def test_adbc_transactions_are_refused(flight_server, server_config):
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    with adbc_connect(server_config) as conn:
        with pytest.raises(dbapi.Error):
            conn.adbc_connection.set_autocommit(False)


@pytest.mark.parametrize("debug", [False, True])
def test_pyarrow_coordinator_debug_adds_internal_details(start_server, server_config, debug):
    server_config.coordinator_extra = f"debug = {'true' if debug else 'false'}"
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    with flight.FlightClient(location(server_config)) as client:
        with pytest.raises(pa.ArrowInvalid) as err:
            client.get_flight_info(statement_query("SELECT nope FROM (VALUES 1) t(x)"))
        assert "line 1:8" in str(err.value)
        assert ("[sqe status" in str(err.value)) == debug


def test_adbc_an_upload_larger_than_the_query_memory_is_refused(start_server, server_config):
    """DoPut holds an upload before it runs: past query.max_query_memory the call fails with
    a message naming the limit, and nothing of it is written."""
    dbapi = pytest.importorskip("adbc_driver_flightsql.dbapi")
    server_config.extra_toml = '[query]\nmax_query_memory = "16MB"\n'
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    rows = 3_000_000  # 24 MB of bigints, in 4 MB batches (under gRPC's message limit)
    data = pa.table({"id": pa.array(range(rows), pa.int64())}).combine_chunks()
    data = pa.Table.from_batches(data.to_batches(max_chunksize=500_000))
    with dbapi.connect(location(server_config)) as conn, conn.cursor() as cur:
        cur.execute("CREATE SCHEMA big")
        with pytest.raises(dbapi.Error) as err:
            cur.adbc_ingest("loaded", data, mode="create", db_schema_name="big")
        assert "max_query_memory" in str(err.value)
        cur.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'big'")
        assert cur.fetchone() == (0,)
        # A load under the limit still goes through.
        assert cur.adbc_ingest("loaded", data.slice(0, 1000), mode="create",
                               db_schema_name="big") == 1000
