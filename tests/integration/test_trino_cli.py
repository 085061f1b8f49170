"""The Trino CLI (io.trino:trino-cli 476, the executable jar tests/peers/java/build.sh copies
to target/trino-cli.jar) against sqe-server's Trino HTTP port.

A script of queries over one Parquet file runs through `--execute ... --output-format CSV`;
its output must equal the same queries' results from DuckDB over the same file, rendered the
way the CLI renders CSV (every value quoted, NULL as "", booleans lower-case). Also
`--user`, `--catalog` / `--schema` and a failing statement's exit code.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest

from java_peer import PEERS, classpath
from test_trino_protocol import trino_server  # noqa: F401 (fixture)

CLI_JAR = PEERS / "java" / "target" / "trino-cli.jar"

QUERIES = [
    "SELECT count(*), sum(qty), min(name), max(day), count(maybe) FROM {src}",
    "SELECT name, count(*) AS n, sum(price) AS total, min(id) FROM {src} GROUP BY name "
    "ORDER BY name",
    "SELECT id, name, price, qty, day, ok, maybe FROM {src} WHERE id % 37 = 0 ORDER BY id",
    "SELECT a.qty, count(*) FROM {src} a JOIN {src} b ON a.id = b.id + 1 "
    "WHERE b.ok GROUP BY a.qty ORDER BY a.qty",
    "SELECT day, max(price) FROM {src} WHERE maybe IS NULL GROUP BY day ORDER BY day DESC LIMIT 5",
    "SELECT upper(name) || '-' || CAST(qty AS varchar), CAST(price * 2 AS decimal(12,2)) "
    "FROM {src} WHERE id < 4 ORDER BY id",
]


def cli(port: int, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    if not CLI_JAR.exists():
        classpath()  # builds the peers, which copies the CLI jar
    assert CLI_JAR.exists(), f"{CLI_JAR} missing (tests/peers/java/build.sh copies it)"
    return subprocess.run(["java", "-jar", str(CLI_JAR), "--server", f"http://127.0.0.1:{port}",
                           *args], capture_output=True, text=True, timeout=timeout)


def csv_value(v) -> str:
    if v is None:
        text = ""
    elif isinstance(v, bool):
        text = "true" if v else "false"
    else:
        text = str(v)
    return '"' + text.replace('"', '""') + '"'


@pytest.fixture
def parquet_file(tmp_path) -> Path:
    path = tmp_path / "items.parquet"
    duckdb.connect().execute(f"""
        COPY (SELECT i::BIGINT AS id, 'name' || (i % 13)::VARCHAR AS name,
                     CAST(i * 1.25 AS DECIMAL(10,2)) AS price, (i % 5)::INTEGER AS qty,
                     DATE '2024-01-01' + (i % 60)::INTEGER AS day, i % 3 = 0 AS ok,
                     CASE WHEN i % 11 = 0 THEN NULL ELSE i::BIGINT END AS maybe
              FROM range(1000) t(i))
        TO '{path}' (FORMAT parquet)""")
    return path


def test_cli_csv_script_equals_duckdb(trino_server, server_config, parquet_file):
    src = f"read_parquet('{parquet_file}')"
    script = ";\n".join(q.format(src=src) for q in QUERIES) + ";"
    r = cli(server_config.ports.trino_http, "--user", "dev", "--output-format", "CSV",
            "--execute", script)
    assert r.returncode == 0, r.stderr
    expected = []
    con = duckdb.connect()
    for q in QUERIES:
        for row in con.execute(q.format(src=src)).fetchall():
            expected.append(",".join(csv_value(v) for v in row))
    assert r.stdout.splitlines() == expected


def test_cli_user_catalog_schema(trino_server, server_config):
    port = server_config.ports.trino_http
    r = cli(port, "--user", "dev", "--execute",
            "CREATE SCHEMA IF NOT EXISTS iceberg.cli_s; "
            "CREATE TABLE iceberg.cli_s.t (x bigint); INSERT INTO iceberg.cli_s.t VALUES 1, 2")
    assert r.returncode == 0, r.stderr
    r = cli(port, "--user", "carol", "--catalog", "iceberg", "--schema", "cli_s",
            "--output-format", "CSV_HEADER", "--execute",
            "SELECT current_user AS u, current_catalog AS c, current_schema AS s, sum(x) AS total "
            "FROM t")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ['"u","c","s","total"', '"carol","iceberg","cli_s","3"']
    r = cli(port, "--execute", "SHOW SCHEMAS FROM iceberg", "--output-format", "CSV")
    assert '"cli_s"' in r.stdout.splitlines()


def test_cli_failing_statement(trino_server, server_config):
    r = cli(server_config.ports.trino_http, "--execute", "SELECT * FROM nowhere.at.all")
    assert r.returncode != 0
    assert "nowhere" in r.stderr
