"""Outgoing HTTPS to S3 verifies the server certificate unless auth.ssl_verification is
false (sqe-fs --no-verify-tls), which logs a warning.

moto listens on plain HTTP; a TLS terminator in this file (Python's ssl module, a
self-signed certificate made with the openssl CLI) forwards decrypted bytes to it, so
sqe-fs talks HTTPS to a real S3 implementation."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from s3_servers import MotoServer

pytestmark = pytest.mark.timeout(60)

BUCKET = "tls-bucket"
FS_TOOL = Path(os.environ.get("SQE_FS_TOOL", Path(__file__).resolve().parents[2] /
                              "build/release/src/main/sqe-fs"))


class TlsTerminator:
    """Accepts TLS on 127.0.0.1:<free port> and pipes the plaintext to `upstream_port`."""

    def __init__(self, cert: Path, key: Path, upstream_port: int):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.handshake_failures = 0
        self.stopping = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        try:
            tls = self.context.wrap_socket(client, server_side=True)
        except (ssl.SSLError, OSError):
            self.handshake_failures += 1
            client.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))

        def pipe(src, dst):
            try:
                while data := src.recv(65536):
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                for s in (src, dst):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        threading.Thread(target=pipe, args=(upstream, tls), daemon=True).start()
        pipe(tls, upstream)

    def close(self):
        self.stopping = True
        self.listener.close()


@pytest.fixture(scope="module")
def https_s3(tmp_path_factory):
    if not FS_TOOL.is_file():
        pytest.fail(f"sqe-fs not built at {FS_TOOL} (cmake --build build/release --target sqe-fs)")
    work = tmp_path_factory.mktemp("tls")
    cert, key = work / "cert.pem", work / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    with MotoServer(work / "moto") as moto:
        moto.create_bucket(BUCKET)
        terminator = TlsTerminator(cert, key, int(moto.endpoint.rsplit(":", 1)[1]))
        try:
            yield moto, terminator, cert
        finally:
            terminator.close()


def sqe_fs(moto, endpoint, *args, data=None, extra_env=None):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=moto.access_key,
               AWS_SECRET_ACCESS_KEY=moto.secret_key)
    for name, value in (extra_env or {}).items():  # None: unset
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run([str(FS_TOOL), "--endpoint", endpoint, *args], input=data,
                          capture_output=True, env=env, timeout=30)


def test_self_signed_certificate_is_refused_by_default(https_s3):
    moto, terminator, _ = https_s3
    endpoint = f"https://127.0.0.1:{terminator.port}"
    before = terminator.handshake_failures
    r = sqe_fs(moto, endpoint, "--max-attempts", "3", "put", f"s3://{BUCKET}/refused.bin", "-",
               data=b"x")
    assert r.returncode == 1, r.stderr
    err = r.stderr.decode()
    assert "certificate" in err.lower() and f"s3://{BUCKET}/refused.bin" in err, err
    assert "attempts" not in err, "a TLS failure must not be retried: " + err
    # The terminator counts the failed handshake on its own thread, which may finish after
    # the client has already exited: give it a moment before checking.
    deadline = time.monotonic() + 5
    while terminator.handshake_failures <= before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert terminator.handshake_failures > before
    # the object must not exist:
    r = sqe_fs(moto, moto.endpoint, "--allow-http", "stat", f"s3://{BUCKET}/refused.bin")
    assert r.returncode == 1 and "NoSuchKey" in r.stderr.decode(), r.stderr


def test_no_verify_tls_works_over_https_and_warns(https_s3):
    moto, terminator, _ = https_s3
    endpoint = f"https://127.0.0.1:{terminator.port}"
    data = os.urandom(6 << 20)  # multipart over TLS too
    r = sqe_fs(moto, endpoint, "--no-verify-tls", "--part-size", str(5 << 20), "put",
               f"s3://{BUCKET}/tls.bin", "-", data=data)
    assert r.returncode == 0, r.stderr
    assert b"tls_verification_disabled" in r.stderr, r.stderr
    r = sqe_fs(moto, endpoint, "--no-verify-tls", "get", f"s3://{BUCKET}/tls.bin")
    assert r.returncode == 0, r.stderr
    assert r.stdout == data
    # the same object read over plain HTTP straight from moto: it went through TLS intact
    assert moto.get_object(BUCKET, "tls.bin", timeout=30) == data


def test_https_with_a_trusted_ca_bundle_verifies(https_s3):
    moto, terminator, cert = https_s3
    endpoint = f"https://127.0.0.1:{terminator.port}"
    # A private CA (here the self-signed certificate itself) is trusted through
    # AWS_CA_BUNDLE (or SSL_CERT_FILE), with verification on.
    for variable in ("AWS_CA_BUNDLE", "SSL_CERT_FILE"):
        key = f"trusted-{variable}.bin"
        r = sqe_fs(moto, endpoint, "put", f"s3://{BUCKET}/{key}", "-", data=b"trusted",
                   extra_env={"AWS_CA_BUNDLE": None, "SSL_CERT_FILE": None,
                              variable: str(cert)})
        assert r.returncode == 0, (variable, r.stderr)
        assert b"tls_verification_disabled" not in r.stderr
        r = sqe_fs(moto, moto.endpoint, "--allow-http", "get", f"s3://{BUCKET}/{key}")
        assert r.returncode == 0 and r.stdout == b"trusted", r.stderr
