"""TLS and mTLS on the Flight SQL listener ([coordinator.tls]) with pyarrow.flight.

The certificates are made per test with the `openssl` command: a CA, a server certificate
for 127.0.0.1 / localhost and a client certificate it signed, plus a second CA that signed
nothing the server knows. The server runs in local mode with the anonymous provider.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow.flight as flight
import pytest

from conftest import is_listening
from test_flight_sql import statement_query
from test_flight_sql_jdbc import run_jdbc_peer

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")


def openssl(*args: str, cwd: Path) -> None:
    r = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"openssl {' '.join(args)} failed:\n{r.stderr}"


def make_ca(dir: Path, name: str) -> None:
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2",
            "-subj", f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=dir)


def make_leaf(dir: Path, name: str, ca: str, extensions: str) -> None:
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=dir)
    (dir / f"{name}.ext").write_text(extensions)
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
            "-CAcreateserial", "-out", f"{name}.pem", "-days", "2", "-sha256",
            "-extfile", f"{name}.ext", cwd=dir)


@dataclass
class Pki:
    dir: Path

    def path(self, name: str) -> Path:
        return self.dir / name

    def read(self, name: str) -> bytes:
        return (self.dir / name).read_bytes()


@pytest.fixture
def pki(tmp_path) -> Pki:
    dir = tmp_path / "pki"
    dir.mkdir()
    make_ca(dir, "ca")
    make_ca(dir, "other-ca")
    make_leaf(dir, "server", "ca", "basicConstraints=CA:FALSE\n"
              "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    make_leaf(dir, "client", "ca", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
    make_leaf(dir, "stranger", "other-ca",
              "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
    return Pki(dir)


def tls_section(cert: Path, key: Path, ca: Path | None = None) -> str:
    text = f'[coordinator.tls]\ncert_file = "{cert}"\nkey_file = "{key}"\n'
    if ca is not None:
        text += f'ca_file = "{ca}"\n'
    return text


def start_tls_server(start_server, server_config, tls: str):
    server_config.extra_toml = tls
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    deadline = time.monotonic() + 10
    while not is_listening(server_config.ports.flight_sql) and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def tls_location(server_config, host: str = "127.0.0.1") -> str:
    return f"grpc+tls://{host}:{server_config.ports.flight_sql}"


def query(client: flight.FlightClient, sql: str, timeout: float = 20) -> list[dict]:
    options = flight.FlightCallOptions(timeout=timeout)
    info = client.get_flight_info(statement_query(sql), options)
    return client.do_get(info.endpoints[0].ticket, options).read_all().to_pylist()


SQL = "SELECT x, 'tls ' || CAST(x AS varchar) AS s FROM (VALUES 1, 2) t(x) ORDER BY x"
ROWS = [{"x": 1, "s": "tls 1"}, {"x": 2, "s": "tls 2"}]


def test_tls_client_trusting_the_ca_queries(start_server, server_config, pki):
    server = start_tls_server(start_server, server_config,
                              tls_section(pki.path("server.pem"), pki.path("server.key")))
    assert server.has_line("event=server.listening", "listener=flight_sql", "protocol=grpc+tls")
    for host in ("127.0.0.1", "localhost"):
        with flight.FlightClient(tls_location(server_config, host),
                                 tls_root_certs=pki.read("ca.pem")) as client:
            assert query(client, SQL) == ROWS
    # The private key never reaches the log.
    key_body = pki.read("server.key").decode().splitlines()[1]
    assert key_body not in server.stderr()
    assert "PRIVATE KEY" not in server.stderr()


def test_tls_client_not_trusting_the_ca_is_refused(start_server, server_config, pki):
    start_tls_server(start_server, server_config,
                     tls_section(pki.path("server.pem"), pki.path("server.key")))
    with flight.FlightClient(tls_location(server_config),
                             tls_root_certs=pki.read("other-ca.pem")) as client:
        with pytest.raises(flight.FlightUnavailableError):
            query(client, SQL, timeout=10)
    # Nor does a plaintext client get an answer from the TLS port.
    with flight.FlightClient(f"grpc://127.0.0.1:{server_config.ports.flight_sql}") as client:
        with pytest.raises(flight.FlightUnavailableError):
            query(client, SQL, timeout=10)


def test_mtls_requires_a_client_certificate_the_ca_signed(start_server, server_config, pki):
    server = start_tls_server(start_server, server_config,
                              tls_section(pki.path("server.pem"), pki.path("server.key"),
                                          pki.path("ca.pem")))
    assert server.has_line("event=server.listening", "listener=flight_sql", "protocol=grpc+mtls")
    with flight.FlightClient(tls_location(server_config), tls_root_certs=pki.read("ca.pem"),
                             cert_chain=pki.read("client.pem"),
                             private_key=pki.read("client.key")) as client:
        assert query(client, SQL) == ROWS
    # No client certificate: the handshake fails.
    with flight.FlightClient(tls_location(server_config),
                             tls_root_certs=pki.read("ca.pem")) as client:
        with pytest.raises(flight.FlightUnavailableError):
            query(client, SQL, timeout=10)
    # A certificate from a CA the server does not trust: refused too.
    with flight.FlightClient(tls_location(server_config), tls_root_certs=pki.read("ca.pem"),
                             cert_chain=pki.read("stranger.pem"),
                             private_key=pki.read("stranger.key")) as client:
        with pytest.raises(flight.FlightUnavailableError):
            query(client, SQL, timeout=10)
    # The server is still serving the right client afterwards.
    with flight.FlightClient(tls_location(server_config), tls_root_certs=pki.read("ca.pem"),
                             cert_chain=pki.read("client.pem"),
                             private_key=pki.read("client.key")) as client:
        assert query(client, "SELECT 5 AS n") == [{"n": 5}]


def test_jdbc_driver_over_tls_and_mtls(start_server, server_config, pki):
    """The Flight SQL JDBC driver with useEncryption=true, tlsRootCerts and (for mTLS)
    clientCertificate / clientKey."""
    start_tls_server(start_server, server_config,
                     tls_section(pki.path("server.pem"), pki.path("server.key"),
                                 pki.path("ca.pem")))
    port = server_config.ports.flight_sql
    trusted = run_jdbc_peer(port, "--mode", "check", "--tls-root-certs", str(pki.path("ca.pem")),
                            "--client-cert", str(pki.path("client.pem")),
                            "--client-key", str(pki.path("client.key")))
    assert trusted["check"] == [{"answer": 42}], trusted
    no_cert = run_jdbc_peer(port, "--mode", "check", "--tls-root-certs", str(pki.path("ca.pem")))
    assert "error" in no_cert["check"], no_cert
    untrusted = run_jdbc_peer(port, "--mode", "check",
                              "--tls-root-certs", str(pki.path("other-ca.pem")),
                              "--client-cert", str(pki.path("client.pem")),
                              "--client-key", str(pki.path("client.key")))
    assert "error" in untrusted["check"], untrusted


def failed_start(start_server, server_config, tls: str) -> str:
    server_config.extra_toml = tls
    server = start_server(["--config", str(server_config.write())])
    code = server.wait_exit(timeout=30)
    assert code != 0, server.stderr()
    return server.stderr()


def test_missing_tls_file_stops_the_start_naming_field_and_path(start_server, server_config,
                                                                pki):
    missing = pki.path("nope.pem")
    err = failed_start(start_server, server_config, tls_section(missing, pki.path("server.key")))
    assert "coordinator.tls.cert_file" in err and str(missing) in err
    err = failed_start(start_server, server_config,
                       tls_section(pki.path("server.pem"), pki.path("server.key"), missing))
    assert "coordinator.tls.ca_file" in err and str(missing) in err


def test_bad_tls_material_stops_the_start_without_showing_the_key(start_server, server_config,
                                                                  pki):
    # A key that is not the certificate's.
    err = failed_start(start_server, server_config,
                       tls_section(pki.path("server.pem"), pki.path("client.key")))
    assert "coordinator.tls.key_file" in err and str(pki.path("client.key")) in err
    assert "not the private key" in err
    assert pki.read("client.key").decode().splitlines()[1] not in err
    # A certificate file that holds no certificate.
    junk = pki.path("junk.pem")
    junk.write_text("this is not PEM\n")
    err = failed_start(start_server, server_config, tls_section(junk, pki.path("server.key")))
    assert "coordinator.tls.cert_file" in err and str(junk) in err
