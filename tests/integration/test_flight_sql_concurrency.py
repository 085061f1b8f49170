"""50 concurrent Flight SQL clients, 20 queries each, against a server that allows only 4
queries at a time (query.max_concurrent_queries = 4).

Each client is its own pyarrow.flight connection on its own thread, logged in as one of ten
API-key users (so sessions are shared the way real users share them). Every query must
either return exactly the right rows or be refused cleanly by the concurrency limit
(RESOURCE_EXHAUSTED naming query.max_concurrent_queries and saying what to do); no call may
hang (each has a deadline), and the server must answer and still run afterwards.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter

import pyarrow as pa
import pyarrow.flight as flight
import pytest

from conftest import is_listening
from test_flight_sql import ANONYMOUS, statement_query

CLIENTS = 50
QUERIES = 20
USERS = 10
LIMIT = 4
ROWS = 5000
CALL_TIMEOUT = 60.0


def user_key(i: int) -> str:
    return f"sqe_load_user{i}_5d1f9a"


@pytest.fixture
def limited_server(start_server, server_config, tmp_path):
    keys = tmp_path / "api-keys.toml"
    keys.write_text("".join(f'[[keys]]\nkey = "{user_key(i)}"\nuser = "user{i}"\n'
                            f'roles = ["admin"]\n\n' for i in range(USERS)))
    os.chmod(keys, 0o600)
    server_config.extra_toml = f"[query]\nmax_concurrent_queries = {LIMIT}\n"
    text = server_config.text().replace(
        ANONYMOUS, f'[[auth.providers]]\ntype = "api_key"\nkeys_file = "{keys}"\n')
    path = tmp_path / "sqe-load.toml"
    path.write_text(text)
    server = start_server(["--config", str(path)])
    server.wait_ready()
    deadline = time.monotonic() + 10
    while not is_listening(server_config.ports.flight_sql) and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def run(client: flight.FlightClient, options: flight.FlightCallOptions, sql: str) -> pa.Table:
    info = client.get_flight_info(statement_query(sql), options)
    return client.do_get(info.endpoints[0].ticket, options).read_all()


def workload(client_no: int, query_no: int) -> tuple[str, list[dict]]:
    """The query_no-th query of a client and its expected rows (numbers 0..ROWS-1)."""
    k = client_no * QUERIES + query_no
    kind = k % 4
    if kind == 0:
        lo = (k * 37) % (ROWS - 10)
        return (f"SELECT n, label FROM load.numbers WHERE n >= {lo} AND n < {lo + 5} ORDER BY n",
                [{"n": n, "label": f"n{n}"} for n in range(lo, lo + 5)])
    if kind == 1:
        m = 2 + k % 9
        values = [n for n in range(ROWS) if n % m == 0]
        return (f"SELECT count(*) AS c, sum(n) AS s FROM load.numbers WHERE n % {m} = 0",
                [{"c": len(values), "s": sum(values)}])
    if kind == 2:
        m = 3 + k % 5
        groups = Counter(n % m for n in range(ROWS))
        return (f"SELECT n % {m} AS g, count(*) AS c FROM load.numbers GROUP BY n % {m} "
                f"ORDER BY g", [{"g": g, "c": groups[g]} for g in sorted(groups)])
    top = 3 + k % 4
    return (f"SELECT n FROM load.numbers ORDER BY n DESC LIMIT {top}",
            [{"n": ROWS - 1 - i} for i in range(top)])


def test_fifty_clients_twenty_queries_each_under_a_limit_of_four(limited_server,
                                                                 server_config):
    location = f"grpc://127.0.0.1:{server_config.ports.flight_sql}"
    with flight.FlightClient(location) as admin:
        options = flight.FlightCallOptions(
            headers=[admin.authenticate_basic_token("user0", user_key(0))], timeout=120)
        run(admin, options, "CREATE SCHEMA load")
        run(admin, options, "CREATE TABLE load.numbers (n bigint, label varchar)")
        # ROWS numbers from digits, in one INSERT.
        run(admin, options,
            "INSERT INTO load.numbers WITH d(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
            "SELECT a.x * 1000 + b.x * 100 + c.x * 10 + e.x AS n, "
            "'n' || CAST(a.x * 1000 + b.x * 100 + c.x * 10 + e.x AS varchar) AS label "
            f"FROM d a, d b, d c, d e WHERE a.x * 1000 + b.x * 100 + c.x * 10 + e.x < {ROWS}")
        assert run(admin, options, "SELECT count(*) AS c FROM load.numbers").to_pylist() == [
            {"c": ROWS}]

    lock = threading.Lock()
    outcomes: Counter = Counter()
    failures: list[str] = []
    rejections: list[str] = []
    latencies: list[float] = []
    start_line = threading.Barrier(CLIENTS)

    def client_thread(c: int):
        try:
            with flight.FlightClient(location) as client:
                user = c % USERS
                header = client.authenticate_basic_token(f"user{user}", user_key(user))
                opts = flight.FlightCallOptions(headers=[header], timeout=CALL_TIMEOUT)
                start_line.wait(timeout=60)
                for q in range(QUERIES):
                    sql, expected = workload(c, q)
                    began = time.monotonic()
                    try:
                        got = run(client, opts, sql).to_pylist()
                        outcome = "ok" if got == expected else "wrong"
                        if outcome == "wrong":
                            failures.append(f"client {c} query {q}: {sql}: {got} != {expected}")
                    except flight.FlightTimedOutError as e:
                        outcome = "timeout"
                        failures.append(f"client {c} query {q} timed out: {e}")
                    except (pa.ArrowInvalid, flight.FlightUnavailableError,
                            flight.FlightError) as e:
                        # RESOURCE_EXHAUSTED reaches pyarrow as ArrowInvalid.
                        message = str(e)
                        if "max_concurrent_queries" in message:
                            outcome = "rejected"
                            with lock:
                                rejections.append(message)
                        else:
                            outcome = "error"
                            failures.append(f"client {c} query {q}: {type(e).__name__}: {e}")
                    with lock:
                        outcomes[outcome] += 1
                        latencies.append(time.monotonic() - began)
        except Exception as e:  # a client that could not even connect
            with lock:
                failures.append(f"client {c}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=client_thread, args=(c,), daemon=True)
               for c in range(CLIENTS)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=QUERIES * CALL_TIMEOUT)
    elapsed = time.monotonic() - began
    hung = [t.name for t in threads if t.is_alive()]

    latencies.sort()
    p50 = latencies[len(latencies) // 2] if latencies else 0
    p99 = latencies[int(len(latencies) * 0.99)] if latencies else 0
    print(f"\n{CLIENTS} clients x {QUERIES} queries, max_concurrent_queries = {LIMIT}: "
          f"{dict(outcomes)} in {elapsed:.1f}s; latency p50 {p50 * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms")
    if rejections:
        print(f"a rejection reads: {rejections[0]}")

    assert not hung, f"threads still running: {hung}"
    assert not failures, "\n".join(failures[:20])
    assert outcomes["ok"] + outcomes["rejected"] == CLIENTS * QUERIES, dict(outcomes)
    assert outcomes["ok"] > 0
    for message in rejections:
        # The message names the limit and tells the caller what to do.
        assert f"query.max_concurrent_queries = {LIMIT}" in message
        assert "retry" in message.lower()

    # The server still answers, and is still the same process.
    assert limited_server.proc.poll() is None
    with flight.FlightClient(location) as client:
        options = flight.FlightCallOptions(
            headers=[client.authenticate_basic_token("user1", user_key(1))], timeout=30)
        assert run(client, options,
                   "SELECT count(*) AS c, max(n) AS m FROM load.numbers").to_pylist() == [
            {"c": ROWS, "m": ROWS - 1}]
    assert limited_server.proc.poll() is None
