"""tests/peers/iceberg_rest_fixture.sh: Iceberg's Java REST catalog test server starts on
127.0.0.1, answers /v1/config, and a client none of us wrote (pyiceberg's RestCatalog) creates,
appends to, lists and reads tables through it; stop ends the process. SQE's REST client interop
tests use the same launcher."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pyarrow as pa
import pytest

from java_peer import PEERS, classpath

pytestmark = pytest.mark.timeout(240)
SCRIPT = PEERS / "iceberg_rest_fixture.sh"


def _fixture(*args: str, state: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SQE_JAVA_PEER_CLASSPATH=classpath(), SQE_REST_FIXTURE_DIR=str(state))
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.fixture
def rest_fixture(tmp_path):
    from conftest import free_ports
    port = free_ports(1)[0]
    warehouse = tmp_path / "wh"
    r = _fixture("start", str(port), str(warehouse), state=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"http://127.0.0.1:{port}"
    yield r.stdout.strip(), port, warehouse, tmp_path
    _fixture("stop", str(port), state=tmp_path)


def test_fixture_serves_pyiceberg_and_stops(rest_fixture):
    from pyiceberg.catalog.rest import RestCatalog
    from pyiceberg.schema import Schema
    from pyiceberg.types import LongType, NestedField, StringType
    uri, port, warehouse, state = rest_fixture
    with urllib.request.urlopen(f"{uri}/v1/config", timeout=5) as resp:
        assert resp.status == 200 and b"defaults" in resp.read()

    catalog = RestCatalog("fixture", uri=uri)
    catalog.create_namespace("db")
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType()))
    table = catalog.create_table("db.t", schema=schema)
    arrow_schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
    table.append(pa.table({"id": [1, 2, 3], "name": ["a", None, "c"]}, schema=arrow_schema))
    table.append(pa.table({"id": [4], "name": ["d"]}, schema=arrow_schema))

    assert ("db",) in catalog.list_namespaces()
    assert catalog.list_tables("db") == [("db", "t")]
    reread = catalog.load_table("db.t")
    assert len(reread.history()) == 2
    assert sorted((r["id"], r["name"]) for r in reread.scan().to_arrow().to_pylist()) == [
        (1, "a"), (2, None), (3, "c"), (4, "d")]
    # The table lives in the given warehouse (metadata written by Iceberg Java's JdbcCatalog).
    assert reread.metadata_location.removeprefix("file:").startswith(str(warehouse))
    assert list((warehouse / "db" / "t" / "metadata").glob("*.metadata.json"))

    pid = int((state / f"sqe-iceberg-rest-fixture-{port}.pid").read_text())
    assert _fixture("stop", str(port), state=state).returncode == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the fixture (pid {pid}) still runs after stop")
    assert not (state / f"sqe-iceberg-rest-fixture-{port}.pid").exists()


def test_fixture_start_fails_clearly_on_a_taken_port(rest_fixture):
    _, port, _, state = rest_fixture
    other_state = state / "second"
    other_state.mkdir()
    r = _fixture("start", str(port), str(state / "other"), state=other_state)
    assert r.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in r.stderr, r.stderr
    assert not (other_state / f"sqe-iceberg-rest-fixture-{port}.pid").exists()
