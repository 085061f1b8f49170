"""The REST catalog server behind the api_key provider, driven by pyiceberg.

sqe-server runs in local mode with `[[auth.providers]] type = "api_key"` (no anonymous
provider): pyiceberg gets in with the API key as a bearer token (`token=`) or through the
OAuth2 client-credentials exchange (`credential="client:<key>"`, which calls
/v1/oauth/tokens); without a key or with a wrong one every route answers 401, and the key
never appears in the server's output.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import OAuthError, UnauthorizedError
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

KEY = "sqe_itest_5d1f0c3a9e"
ANONYMOUS = '[[auth.providers]]\ntype = "anonymous"\nuser = "dev"\nroles = ["admin"]\n'


@pytest.fixture
def keyed_server(start_server, server_config, tmp_path):
    keys = tmp_path / "api-keys.toml"
    keys.write_text(f'[[keys]]\nkey = "{KEY}"\nuser = "etl"\nroles = ["writer"]\n')
    os.chmod(keys, 0o600)
    text = server_config.text()
    assert ANONYMOUS in text
    text = text.replace(ANONYMOUS,
                        f'[[auth.providers]]\ntype = "api_key"\nkeys_file = "{keys}"\n')
    path = tmp_path / "sqe-keyed.toml"
    path.write_text(text)
    server = start_server(["--config", str(path)])
    server.wait_ready()
    return server


def uri(server_config) -> str:
    return f"http://127.0.0.1:{server_config.ports.rest_catalog}"


def raw(server_config, path: str, headers: dict[str, str] | None = None,
        data: bytes | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(uri(server_config) + path, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_routes_refuse_callers_without_an_accepted_key(keyed_server, server_config):
    for path in ("/v1/config", "/v1/namespaces"):
        status, body = raw(server_config, path)
        assert status == 401, body
        assert body["error"]["type"] == "NotAuthorizedException"
        status, body = raw(server_config, path, {"Authorization": "Bearer sqe_not_the_key"})
        assert status == 401, body
        assert "sqe_not_the_key" not in json.dumps(body)
    with pytest.raises(UnauthorizedError):
        RestCatalog("nokey", uri=uri(server_config)).list_namespaces()
    with pytest.raises(OAuthError):
        RestCatalog("badkey", uri=uri(server_config), credential="etl:sqe_wrong")


def test_api_key_as_token_and_through_the_oauth2_exchange(keyed_server, server_config):
    by_token = RestCatalog("bytoken", uri=uri(server_config), token=KEY)
    by_token.create_namespace("db")
    schema = Schema(NestedField(1, "id", LongType(), required=False))
    table = by_token.create_table("db.t", schema=schema)
    table.append(pa.table({"id": pa.array([1, 2, 3], pa.int64())}))

    by_credential = RestCatalog("bycred", uri=uri(server_config), credential=f"etl:{KEY}")
    assert by_credential.list_namespaces() == [("db",)]
    got = by_credential.load_table("db.t").scan().to_arrow().column("id").to_pylist()
    assert sorted(got) == [1, 2, 3]

    # The token the exchange issued works as a bearer token on its own.
    status, body = raw(server_config, "/v1/oauth/tokens",
                       {"Content-Type": "application/x-www-form-urlencoded"},
                       f"grant_type=client_credentials&client_id=etl&client_secret={KEY}"
                       .encode())
    assert status == 200, body
    assert KEY not in json.dumps(body)
    status, listed = raw(server_config, "/v1/namespaces",
                         {"Authorization": f"Bearer {body['access_token']}"})
    assert status == 200 and listed["namespaces"] == [["db"]]
    assert KEY not in keyed_server.stderr()
