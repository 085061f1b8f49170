"""The npm `trino-client` (trinodb/trino-js-client) against sqe-server's Trino HTTP port,
driven by tests/peers/trino_client.mjs: typed values, a 100,000-row result over several
pages, a cancelled long query (DELETE /v1/query/{id}), and an API key as Basic auth next to
a wrong one (401).

`trino-client` is pinned in tests/peers/package.json (scripts/install-deps.sh runs npm ci
there); $SQE_TRINO_CLIENT_DIR (a directory with node_modules/trino-client) overrides it.
Without it the tests skip, except under CI, where a missing peer is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from java_peer import PEERS
from test_trino_protocol import ALICE_KEY, secured_server, trino_server  # noqa: F401

SCRIPT = PEERS / "trino_client.mjs"


def client_available() -> bool:
    if shutil.which("node") is None:
        return False
    custom = os.environ.get("SQE_TRINO_CLIENT_DIR")
    if custom:
        return (Path(custom) / "node_modules" / "trino-client").is_dir()
    return (PEERS / "node_modules" / "trino-client").is_dir()


if not client_available() and os.environ.get("CI"):
    raise RuntimeError("npm trino-client is missing in CI: scripts/install-deps.sh should have "
                       "installed tests/peers/package.json (npm ci)")
pytestmark = pytest.mark.skipif(
    not client_available(),
    reason="npm trino-client is not installed (run scripts/install-deps.sh, or set "
           "SQE_TRINO_CLIENT_DIR to a directory with node_modules/trino-client)")


def run_script(*args: str) -> dict:
    r = subprocess.run(["node", str(SCRIPT), *args], capture_output=True, text=True,
                       timeout=120, cwd=str(PEERS))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_npm_client_types_paging_and_cancel(trino_server, server_config):
    out = run_script("--port", str(server_config.ports.trino_http))

    types = out["types"]
    assert types["state"] == "FINISHED", types
    assert types["columns"] == ["i:integer", "d:double", "v:varchar", "dt:date",
                                "dec:decimal(5,2)", "b:boolean", "arr:array(varchar)",
                                "n:varchar"]
    assert types["rows"] == [[7, 2.5, "x", "2024-02-29", "1.25", True, ["a", "b"], None]]

    paged = out["paged"]
    assert paged["count"] == 100000 and paged["distinct"] == 100000, paged
    assert paged["sum"] == 99999 * 100000 // 2
    assert len(paged["pages"]) >= 2 and max(paged["pages"]) <= 50000, paged
    assert paged["state"] == "FINISHED"

    cancelled = out["cancelled"]
    assert cancelled["error"] == "USER_CANCELED", cancelled
    assert cancelled["state"] == "FAILED"
    assert cancelled["info_state"] == "FAILED"


def test_npm_client_api_key_and_wrong_key(secured_server, server_config):
    out = run_script("--port", str(server_config.ports.trino_http), "--key", ALICE_KEY,
                     "--user", "alice")
    assert out["api_key"]["rows"] == [["alice"]], out
    assert out["wrong_key"]["status"] == 401, out
