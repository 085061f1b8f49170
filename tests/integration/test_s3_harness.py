"""Checks of the S3 test harness itself (s3_servers.py): the mock servers answer a real S3
client (pyarrow), virtual-host routing works as documented, and the fault proxy forwards
faithfully and injects each fault. Test infrastructure, not product behaviour."""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from s3_servers import FaultProxy, MotoServer, S3rverServer, http_request

pytestmark = pytest.mark.timeout(30)

BUCKET = "harness-bucket"
NOWHERE = "http://127.0.0.1:9"  # upstream for faults that never forward


def roundtrip(s3fs, key: str, data: bytes) -> bytes:
    with s3fs.open_output_stream(f"{BUCKET}/{key}") as out:
        out.write(data)
    with s3fs.open_input_stream(f"{BUCKET}/{key}") as inp:
        return inp.read()


@pytest.fixture
def moto(tmp_path):
    with MotoServer(tmp_path / "moto") as server:
        server.create_bucket(BUCKET)
        yield server


@pytest.fixture
def s3rver(tmp_path):
    with S3rverServer(tmp_path / "s3rver", buckets=[BUCKET]) as server:
        yield server


@pytest.fixture(params=["moto", "s3rver"])
def any_server(request):
    return request.getfixturevalue(request.param)


def raw(endpoint: str, method: str, path: str, timeout: float = 5.0, **kw):
    return http_request(endpoint, method, path, timeout=timeout, **kw)


def test_pyarrow_writes_and_reads_back(any_server):
    data = b"parquet bytes \x00\x01" * 1000
    assert roundtrip(any_server.pyarrow_fs(), "dir/object.bin", data) == data
    assert any_server.get_object(BUCKET, "dir/object.bin") == data  # stored as sent
    any_server.put_object(BUCKET, "raw.txt", b"raw")
    assert any_server.get_object(BUCKET, "raw.txt") == b"raw"
    # a second bucket made through the harness works too
    any_server.create_bucket("harness-second")
    status, _, _ = raw(any_server.endpoint, "GET", "/harness-second")
    assert status == 200


def test_s3rver_rejects_an_unknown_access_key(s3rver):
    from pyarrow import fs
    bad = fs.S3FileSystem(endpoint_override=s3rver.endpoint, scheme="http", access_key="nobody",
                          secret_key="S3RVER", region="us-east-1", connect_timeout=2,
                          request_timeout=5)
    with pytest.raises(OSError):
        bad.get_file_info(f"{BUCKET}/missing")


def test_moto_routes_bucket_from_host(moto):
    moto.put_object(BUCKET, "vh.txt", b"via path")
    port = moto.port
    status, _, body = raw(moto.endpoint, "GET", "/vh.txt",
                          headers={"Host": f"{BUCKET}.localhost:{port}"})
    assert (status, body) == (200, b"via path")
    status, _, body = raw(moto.endpoint, "GET", f"/{BUCKET}/vh.txt",
                          headers={"Host": f"localhost:{port}"})
    assert (status, body) == (200, b"via path")
    # a real client with virtual addressing on the documented endpoint
    s3fs = moto.pyarrow_fs(moto.virtual_host_endpoint, force_virtual_addressing=True)
    assert roundtrip(s3fs, "vh2.txt", b"virtual") == b"virtual"


def test_s3rver_routes_bucket_from_s3_dot_host(s3rver):
    s3rver.put_object(BUCKET, "vh.txt", b"via path")
    port = s3rver.port
    status, _, body = raw(s3rver.endpoint, "GET", "/vh.txt",
                          headers={"Host": f"{BUCKET}.s3.localhost:{port}"})
    assert (status, body) == (200, b"via path")
    # BUCKET.localhost is taken as a bucket named "BUCKET.localhost"
    status, _, body = raw(s3rver.endpoint, "GET", "/vh.txt",
                          headers={"Host": f"{BUCKET}.localhost:{port}"})
    assert status == 404 and b"NoSuchBucket" in body
    s3fs = s3rver.pyarrow_fs(s3rver.virtual_host_endpoint, force_virtual_addressing=True)
    assert roundtrip(s3fs, "vh2.txt", b"virtual") == b"virtual"


def test_proxy_forwards_a_client_unchanged(any_server):
    with FaultProxy(any_server) as proxy:
        data = bytes(range(256)) * 400
        assert roundtrip(proxy.pyarrow_fs(), "through-proxy.bin", data) == data
        # virtual-host style through the proxy: Host reaches the upstream unchanged
        s3fs = proxy.pyarrow_fs(proxy.virtual_host_endpoint, force_virtual_addressing=True)
        assert roundtrip(s3fs, "through-proxy-vh.bin", data) == data
        stats = proxy.stats
    assert stats["requests"] > 0
    assert stats["forwarded"] == stats["requests"]
    assert stats["upstream_error"] == 0
    # and directly from the server: the bytes stored are the bytes sent
    assert roundtrip(any_server.pyarrow_fs(), "direct.bin", b"x") == b"x"
    assert any_server.get_object(BUCKET, "through-proxy.bin") == data


@pytest.mark.parametrize("mode,status,code", [
    ("slowdown", 503, b"<Code>SlowDown</Code><Message>Please reduce your request rate."),
    ("internal_error", 500, b"<Code>InternalError</Code>"),
    ("throttle", 429, b"<Code>TooManyRequestsException</Code>"),
])
def test_proxy_error_faults(mode, status, code):
    with FaultProxy(NOWHERE) as proxy:
        proxy.set_faults(**{mode: 1.0})
        got, headers, body = raw(proxy.endpoint, "GET", f"/{BUCKET}/k")
        assert got == status and code in body
        assert headers["content-type"] == "application/xml"
        stats = proxy.stats
    assert stats["requests"] == 1 and stats[mode] == 1 and stats["forwarded"] == 0


def test_proxy_max_faults_then_forwards_on_the_same_connection(moto):
    moto.put_object(BUCKET, "k", b"ok")
    with FaultProxy(moto) as proxy:
        proxy.set_faults(slowdown=1.0, max_faults=2)
        conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=5)
        statuses = []
        for _ in range(3):
            conn.request("GET", f"/{BUCKET}/k")
            resp = conn.getresponse()
            statuses.append((resp.status, resp.read()[:2]))
        conn.close()
        assert statuses[:2] == [(503, b"<?")] * 2 and statuses[2] == (200, b"ok")
        assert proxy.stats == {**proxy.stats, "requests": 3, "slowdown": 2, "forwarded": 1}


def test_proxy_reset_before_response():
    with FaultProxy(NOWHERE) as proxy:
        proxy.set_faults(reset=1.0)
        with pytest.raises(ConnectionError):  # RST: ConnectionResetError / RemoteDisconnected
            raw(proxy.endpoint, "GET", f"/{BUCKET}/k")
        assert proxy.stats["reset"] == 1


def test_proxy_reset_mid_body(moto):
    data = b"0123456789" * 10000
    moto.put_object(BUCKET, "big", data)
    with FaultProxy(moto) as proxy:
        proxy.set_faults(reset_mid_body=1.0)
        conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=5)
        conn.request("GET", f"/{BUCKET}/big")
        resp = conn.getresponse()
        assert resp.status == 200 and int(resp.getheader("Content-Length")) == len(data)
        got = b""
        with pytest.raises((http.client.IncompleteRead, ConnectionError)):
            while chunk := resp.read(4096):
                got += chunk
        conn.close()
        assert 0 < len(got) < len(data)  # the client did see part of the body
        assert proxy.stats["reset_mid_body"] == 1 and proxy.stats["forwarded"] == 1


def test_proxy_stall_times_out_without_blocking_others(moto):
    moto.put_object(BUCKET, "k", b"ok")
    with FaultProxy(moto) as proxy:
        proxy.set_faults(stall=1.0, stall_seconds=2, only_methods={"PUT"})
        start = time.monotonic()
        with pytest.raises((TimeoutError, socket.timeout)):
            proxy.put_object(BUCKET, "s", b"x", timeout=0.5)
        assert time.monotonic() - start < 1.5
        # a GET on another connection is answered while the PUT's thread still sleeps
        status, _, body = raw(proxy.endpoint, "GET", f"/{BUCKET}/k", timeout=1.0)
        assert (status, body) == (200, b"ok")
        assert proxy.stats["stall"] == 1 and proxy.stats["forwarded"] == 1
