"""scripts/run-local.sh, the quick start of docs/quickstart.md: on a fresh data directory it
writes the config, creates demo.cities and the TPC-H schema `tpch` with sqe-datagen, and
starts sqe-server in local mode; a TPC-H query answers through the Trino HTTP protocol (the
trino Python client) and through Flight SQL (pyarrow.flight); after a restart the data is
still there and nothing is generated again.

The script runs this build's binaries (SQE_LOCAL_BUILD_DIR = the directory of
SQE_SERVER_BIN, SQE_LOCAL_NO_BUILD=1), at TPC-H SF 0.01 to keep the sanitizer build quick,
on free ports passed as --set arguments.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pyarrow.flight as flight
import pytest
import trino

from conftest import ServerProcess, clean_env
from test_flight_sql import statement_query
from test_trino_protocol import wait_listening

REPO = Path(__file__).resolve().parents[2]
Q1 = ("SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS qty "
      "FROM iceberg.tpch.lineitem GROUP BY l_returnflag, l_linestatus "
      "ORDER BY l_returnflag, l_linestatus")


def start_run_local(server_binary: Path, data: Path, ports) -> ServerProcess:
    env = clean_env({
        "SQE_LOCAL_DATA": str(data),
        "SQE_LOCAL_BUILD_DIR": str(server_binary.parents[2]),
        "SQE_LOCAL_NO_BUILD": "1",
        "SQE_LOCAL_TPCH_SF": "0.01",
    })
    args = ["--set", f"coordinator.flight_sql_port={ports.flight_sql}",
            "--set", f"coordinator.trino_http_port={ports.trino_http}",
            "--set", f"metrics.prometheus_port={ports.metrics}",
            "--set", f"catalog.rest_server.port={ports.rest_catalog}",
            "--set", f"worker.flight_port={ports.worker_flight}"]
    proc = subprocess.Popen(["bash", str(REPO / "scripts" / "run-local.sh"), *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=str(data.parent))
    return ServerProcess(proc)


def trino_rows(port: int, sql: str):
    conn = trino.dbapi.connect(host="127.0.0.1", port=port, user="dev", http_scheme="http")
    cur = conn.cursor()
    cur.execute(sql)
    return cur.fetchall()


def flight_rows(port: int, sql: str):
    """Rows of `sql` through Flight SQL (anonymous: no handshake needed)."""
    client = flight.FlightClient(f"grpc://127.0.0.1:{port}")
    info = client.get_flight_info(statement_query(sql))
    table = client.do_get(info.endpoints[0].ticket).read_all()
    return [list(r.values()) for r in table.to_pylist()]


@pytest.fixture
def run_local(server_binary, tmp_path, ports):
    started: list[ServerProcess] = []

    def start() -> ServerProcess:
        server = start_run_local(server_binary, tmp_path / "sqe-data", ports)
        started.append(server)
        server.wait_ready(timeout=600)
        wait_listening(ports.trino_http)
        return server

    yield start
    for server in started:
        server.kill()


def test_run_local_quickstart_survives_restart(run_local, ports, tmp_path):
    first = run_local()
    log = first.stderr()
    assert "created demo.cities" in log and "created schema tpch" in log, log
    assert (tmp_path / "sqe-data" / "sqe-local.toml").exists()

    q1 = trino_rows(ports.trino_http, Q1)
    assert [r[:2] for r in q1] == [["A", "F"], ["N", "F"], ["N", "O"], ["R", "F"]]
    assert sum(r[2] for r in q1) == trino_rows(
        ports.trino_http, "SELECT count(*) FROM iceberg.tpch.lineitem")[0][0]
    assert trino_rows(ports.trino_http, "SELECT count(*) FROM iceberg.tpch.nation") == [[25]]
    assert trino_rows(ports.trino_http, "SELECT count(*) FROM iceberg.demo.cities") == [[8]]
    assert [r[:3] for r in flight_rows(ports.flight_sql, Q1)] == [r[:3] for r in q1]

    trino_rows(ports.trino_http, "INSERT INTO iceberg.demo.cities VALUES "
                                 "(9, 'Oslo', 'NO', 709037, DATE '1048-01-01')")
    code, _ = first.stop(timeout=30)
    assert code == 0

    second = run_local()
    log = second.stderr()
    assert "generating TPC-H" not in log and "created demo.cities" not in log, log
    assert trino_rows(ports.trino_http, Q1) == q1
    assert trino_rows(ports.trino_http, "SELECT count(*) FROM iceberg.demo.cities") == [[9]]
    assert [r[:3] for r in flight_rows(ports.flight_sql, Q1)] == [r[:3] for r in q1]
