"""iceberg-js (npm, pinned in tests/peers) against sqe-server's Iceberg REST catalog.

The real sqe-server runs in local mode (embedded catalog over a temporary warehouse);
tests/peers/iceberg_js_client.mjs drives iceberg-js's IcebergRestCatalog against
its [catalog.rest_server] port one step at a time, and between the steps pyiceberg's
SqlCatalog on the embedded catalog's SQLite file and sqe-iceberg check what SQE holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "tests" / "peers" / "iceberg_js_client.mjs"
PACKAGE = REPO / "tests" / "peers" / "node_modules" / "iceberg-js" / "package.json"
TOOL = Path(os.environ.get("SQE_ICEBERG_TOOL", REPO / "build/release/src/main/sqe-iceberg"))


def node() -> str:
    exe = shutil.which("node")
    if not exe:
        pytest.fail("node not found; run scripts/install-deps.sh")
    if not PACKAGE.is_file():
        pytest.fail(f"iceberg-js not installed at {PACKAGE.parent}; run npm ci in tests/peers")
    return exe


def js(port: int, *args: str, ok: bool = True) -> dict:
    r = subprocess.run([node(), str(CLIENT), f"http://127.0.0.1:{port}", *args],
                       capture_output=True, text=True, timeout=60)
    out = json.loads(r.stdout.strip().splitlines()[-1]) if r.stdout.strip() else {}
    if ok:
        assert r.returncode == 0, f"iceberg-js {' '.join(args)} failed: {out} {r.stderr}"
    return out


def sqe_tool(warehouse: Path, *args: str) -> subprocess.CompletedProcess:
    if not TOOL.is_file():
        pytest.fail(f"sqe-iceberg not built at {TOOL} (cmake --build build/release --target sqe-iceberg)")
    return subprocess.run([str(TOOL), "--warehouse", str(warehouse), *args], capture_output=True,
                          text=True, timeout=60)


def sql_catalog(warehouse: Path):
    from pyiceberg.catalog.sql import SqlCatalog
    return SqlCatalog("iceberg", uri=f"sqlite:///{warehouse}/sqe_catalog.db",
                      warehouse=f"file://{warehouse}")


@pytest.fixture
def rest_server(start_server, server_config):
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    return server


def test_iceberg_js_namespace_and_table_lifecycle(rest_server, server_config, tmp_path):
    port = server_config.ports.rest_catalog
    warehouse = tmp_path / "warehouse"

    out = js(port, "setup", "js_ns", "events")
    assert ["js_ns"] in out["namespaces"]
    assert out["namespace_exists"] is True
    assert out["missing_namespace_exists"] is False
    assert out["created_location"].startswith(str(warehouse))
    assert out["loaded_fields"] == [
        [1, "id", "long", True], [2, "name", "string", False], [3, "ts", "timestamptz", False],
        [4, "amount", "decimal(10, 2)", False] if out["loaded_fields"][3][2] != "decimal(10,2)"
        else [4, "amount", "decimal(10,2)", False],
        [5, "tags", {"type": "list", "element-id": 6, "element": "string",
                     "element-required": False}, False]]
    assert out["loaded_identifier_field_ids"] == [1]
    assert [(f["source-id"], f["name"], f["transform"]) for f in out["loaded_spec"]["fields"]] == \
        [(3, "ts_day", "day")]
    assert out["loaded_properties"]["created-by"] == "iceberg-js"
    assert out["tables"] == [[["js_ns"], "events"]]
    assert out["table_exists"] is True
    assert out["namespace_properties"] == {"owner": "js", "stage": "dev"}
    assert out["committed_properties"]["write.target-file-size-bytes"] == "1048576"

    # What SQE now holds, seen by another client (pyiceberg on the same catalog) and by
    # SQE's own tool.
    cat = sql_catalog(warehouse)
    assert ("js_ns",) in cat.list_namespaces()
    props = cat.load_namespace_properties("js_ns")
    props.pop("exists", None)  # pyiceberg's SqlCatalog marker row
    assert props == {"owner": "js", "stage": "dev"}
    table = cat.load_table("js_ns.events")
    assert [f.name for f in table.schema().fields] == ["id", "name", "ts", "amount", "tags"]
    assert table.schema().identifier_field_ids == [1]
    assert str(table.spec().fields[0].transform) == "day"
    assert table.properties["write.target-file-size-bytes"] == "1048576"
    assert table.metadata_location == out["committed_metadata_location"]
    meta = sqe_tool(warehouse, "metadata", "js_ns.events")
    assert meta.returncode == 0, meta.stderr
    assert json.loads(meta.stdout)["metadata_location"] == out["committed_metadata_location"]

    errs = js(port, "errors", "js_ns")
    assert errs["load_missing_table"]["status"] == 404
    assert errs["load_missing_table"]["type"] == "NoSuchTableException"
    assert "no_such_table" in errs["load_missing_table"]["message"]
    assert errs["create_existing_namespace"]["status"] == 409
    assert errs["create_existing_namespace"]["type"] == "AlreadyExistsException"
    assert errs["missing_namespace"]["status"] == 404
    assert errs["missing_namespace"]["type"] == "NoSuchNamespaceException"
    assert errs["drop_non_empty_namespace"]["status"] == 409
    assert errs["stale_commit"]["thrown"] is True
    assert errs["stale_commit"]["status"] in (404, 409)

    dropped = js(port, "drop", "js_ns", "events")
    assert dropped == {"table_exists": False, "tables": []}
    assert cat.list_tables("js_ns") == []
    assert sqe_tool(warehouse, "metadata", "js_ns.events").returncode != 0
