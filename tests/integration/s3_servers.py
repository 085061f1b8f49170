"""Mock S3 servers and a fault-injecting proxy for the S3 client integration tests.

Plain module (no tests, no fixtures): tests import it and use the context managers.

    with MotoServer() as s3:                      # moto_server from tests/peers/.venv
        s3.create_bucket("b")
        with FaultProxy(s3) as proxy:             # 127.0.0.1:<free port> -> s3.endpoint
            proxy.set_faults(slowdown=0.5, seed=7)
            ... point the client at proxy.endpoint ...
            assert proxy.stats["slowdown"] > 0

    with S3rverServer(buckets=["b"]) as s3: ...   # s3rver from tests/peers/node_modules

Every server and proxy listens on 127.0.0.1 on its own free port with its own temporary
directory, so tests may run in parallel (pytest -n); the log of each server is in
`<dir>/server.log` (`.log_path`, `.log_tail()`).

The two servers
---------------
* MotoServer (moto 5.2.5, `moto_server -H 127.0.0.1 -p PORT`): accepts ANY credentials and
  does not verify signatures; unsigned requests are accepted too (plain http.client works).
  Objects live in memory. Gotchas: bucket names need >= 3 characters (InvalidBucketName);
  an object PUT anonymously gets a private ACL and anonymous GETs of it answer 403 (objects
  written by a signed client read fine anonymously; `put_object` adds x-amz-acl:
  public-read); every response carries `Connection: close` (werkzeug), so a client gets a
  new connection per request against moto (the FaultProxy keeps the client side alive).
* S3rverServer (s3rver 3.7.1 under node): one built-in account, access key `S3RVER`,
  secret key `S3RVER`. What it checks (lib/middleware/authentication.js):
  - a signed request (Authorization header, or X-Amz-Algorithm / Signature query) with any
    other access key id gets 403 InvalidAccessKeyId;
  - SigV4: the header must be well formed and x-amz-content-sha256 present (UNSIGNED-PAYLOAD,
    STREAMING-AWS4-HMAC-SHA256-PAYLOAD or 64 hex digits), but the SIGNATURE ITSELF IS NOT
    VERIFIED ("Signature version 4 calculation is unimplemented"): a wrong secret key, or a
    Host/path/header changed after signing, still passes. Only SigV2 signatures are
    computed and compared (403 SignatureDoesNotMatch). So s3rver proves "sends SigV4 with
    the right key id and the required headers", not "signs correctly";
  - unsigned requests are served anonymously, so `create_bucket` with a plain PUT works;
  - the payload hash is never compared with the body.
  GOTCHA: s3rver does not decode `Content-Encoding: aws-chunked` bodies (the AWS SDKs'
  default for PUT since their "flexible checksums" change, x-amz-content-sha256:
  STREAMING-UNSIGNED-PAYLOAD-TRAILER): it stores the chunk framing and the trailer as the
  object bytes. `pyarrow_fs()` sets AWS_REQUEST_CHECKSUM_CALCULATION=when_required (env,
  before the S3 client is made) to avoid it; a client under test must send plain bodies.
  moto decodes aws-chunked correctly. Objects live in files under the server's directory.

Virtual-host (bucket in the Host header) addressing, checked with manual Host headers sent
to 127.0.0.1 (the client resolves the name itself: libcurl (7.88 here) maps `localhost` and
every `*.localhost` name to the loopback address without asking DNS; pyarrow's AWS SDK did
too in the tests):
* moto: endpoint `http://localhost:PORT` (`.virtual_host_endpoint`). A Host of
  `BUCKET.localhost:PORT` is routed to BUCKET with no setting (moto takes the first label of
  any dotted non-IP host that does not start with `localhost`); `localhost:PORT` and
  `127.0.0.1:PORT` are path style. MOTO_S3_CUSTOM_ENDPOINTS is NOT needed (it only forces path
  style for hosts listed in it). Bucket names containing dots cannot be used virtual-host
  style (moto takes the first label only). `BUCKET.s3.localhost:PORT` routes to BUCKET on
  moto too, so `http://s3.localhost:PORT` is a virtual-host endpoint that works on BOTH.
* s3rver: endpoint `http://s3.localhost:PORT` (`.virtual_host_endpoint`), with
  `--service-endpoint localhost` (S3rverServer passes it). s3rver matches the host name
  (port stripped) against `^(BUCKET.)?s3[-.region]?.<service-endpoint>$`, so the Host must
  be `BUCKET.s3.localhost:PORT`. A Host of `BUCKET.localhost:PORT` does NOT work: s3rver's
  fallback takes the WHOLE host name as the bucket ("BUCKET.localhost") -> NoSuchBucket.
  Path style works with a Host of `127.0.0.1:PORT`, `localhost:PORT` or `s3.localhost:PORT`.
* Through FaultProxy the Host header is forwarded unchanged, so the same names work with the
  proxy's port (`proxy.virtual_host_endpoint`), and a signature (which covers Host) made for
  the proxy's address stays valid for a signature-checking upstream.
"""

from __future__ import annotations

import http.client
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterable
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parents[2]
PEERS = REPO_ROOT / "tests" / "peers"
MOTO_SERVER_BIN = PEERS / ".venv" / "bin" / "moto_server"
S3RVER_JS = PEERS / "node_modules" / "s3rver" / "bin" / "s3rver.js"
DEFAULT_REGION = "us-east-1"

try:  # the conftest helper when this module is imported next to it
    from conftest import free_ports as _free_ports
except ImportError:  # pragma: no cover - used outside the pytest rootdir
    _free_ports = None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    if _free_ports is not None:
        return _free_ports(1)[0]
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_request(endpoint: str, method: str, path: str, body: bytes | None = None,
                 headers: dict[str, str] | None = None,
                 timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """One plain (unsigned) HTTP request to 127.0.0.1:<endpoint's port>; `headers` may set
    Host (for virtual-host checks). Returns (status, headers lower-cased, body)."""
    port = urlsplit(endpoint).port
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = dict(headers or {})
        skip_host = any(k.lower() == "host" for k in headers)
        conn.putrequest(method, path, skip_host=skip_host, skip_accept_encoding=True)
        if body is not None and not any(k.lower() == "content-length" for k in headers):
            headers["Content-Length"] = str(len(body))
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


class _ServerProcess:
    """A server subprocess in its own process group, with a log file and a temp dir."""

    name = "server"
    region = DEFAULT_REGION
    access_key = "testing"
    secret_key = "testing"
    startup_timeout = 30.0

    def __init__(self, directory: str | os.PathLike | None = None, port: int | None = None):
        self._own_dir = directory is None
        self.dir = Path(directory) if directory is not None else Path(
            tempfile.mkdtemp(prefix=f"sqe-{self.name}-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.log_path = self.dir / "server.log"
        self.proc: subprocess.Popen | None = None

    # subclasses
    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self) -> dict[str, str]:
        return dict(os.environ)

    @property
    def endpoint(self) -> str:
        """Path-style endpoint: http://127.0.0.1:PORT."""
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def start(self):
        log = open(self.log_path, "ab")
        try:
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=self.environment(),
                                         cwd=self.dir, start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode} at "
                                   f"startup:\n{self.log_tail()}")
            try:
                http_request(self.endpoint, "GET", "/", timeout=1.0)
                return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.name} did not answer on {self.endpoint} within "
                                   f"{self.startup_timeout}s:\n{self.log_tail()}")
            time.sleep(0.1)

    def stop(self):
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        if proc is not None:
            try:  # the group may still hold children after the leader died
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def create_bucket(self, name: str) -> None:
        """Creates a bucket with an unsigned path-style PUT /name (both servers accept it)."""
        status, _, body = http_request(self.endpoint, "PUT", f"/{name}", body=b"")
        if status != 200:
            raise RuntimeError(f"{self.name}: PUT /{name} -> {status} {body[:500]!r}")

    def put_object(self, bucket: str, key: str, data: bytes, timeout: float = 5.0) -> None:
        """An unsigned path-style PUT /bucket/key with `x-amz-acl: public-read`: moto gives an
        object PUT anonymously a private ACL and then answers anonymous GETs of it with 403
        (objects a signed client wrote are readable anonymously); s3rver serves it either way."""
        status, _, body = http_request(self.endpoint, "PUT", f"/{bucket}/{key}", body=data,
                                       headers={"x-amz-acl": "public-read"}, timeout=timeout)
        if status != 200:
            raise RuntimeError(f"{self.name}: PUT /{bucket}/{key} -> {status} {body[:500]!r}")

    def get_object(self, bucket: str, key: str, timeout: float = 5.0) -> bytes:
        """An unsigned path-style GET /bucket/key; raises unless 200."""
        status, _, body = http_request(self.endpoint, "GET", f"/{bucket}/{key}",
                                       timeout=timeout)
        if status != 200:
            raise RuntimeError(f"{self.name}: GET /{bucket}/{key} -> {status} {body[:500]!r}")
        return body

    def pyarrow_fs(self, endpoint: str | None = None, **kwargs):
        """A pyarrow.fs.S3FileSystem for this server (path style unless kwargs say so)."""
        # The AWS SDK in pyarrow >= 2x sends PUT bodies aws-chunked with a trailing CRC
        # (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER); s3rver does not decode
        # that and would store the chunk framing as the object. "when_required" makes the
        # SDK send plain bodies. Read when the S3 client is made, so set it before.
        os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
        from pyarrow import fs
        ep = urlsplit(endpoint or self.endpoint)
        args = dict(endpoint_override=ep.netloc, scheme=ep.scheme, access_key=self.access_key,
                    secret_key=self.secret_key, region=self.region,
                    connect_timeout=5, request_timeout=10)
        args.update(kwargs)
        return fs.S3FileSystem(**args)


class MotoServer(_ServerProcess):
    """moto_server (tests/peers/.venv) on 127.0.0.1:PORT; any credentials, no signature
    checks. Virtual-host style: `.virtual_host_endpoint` = http://localhost:PORT (Host
    BUCKET.localhost:PORT), no extra settings."""

    name = "moto"

    def __init__(self, directory=None, port=None, binary: str | os.PathLike | None = None,
                 env: dict[str, str] | None = None):
        super().__init__(directory, port)
        self.binary = Path(binary or os.environ.get("SQE_MOTO_SERVER", MOTO_SERVER_BIN))
        self.extra_env = dict(env or {})
        if not self.binary.is_file():
            raise FileNotFoundError(f"{self.binary} missing; run scripts/install-deps.sh")

    def command(self):
        return [str(self.binary), "-H", "127.0.0.1", "-p", str(self.port)]

    def environment(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("AWS_", "MOTO_", "SQE_"))}
        env.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                    "AWS_DEFAULT_REGION": self.region})
        env.update(self.extra_env)
        return env

    @property
    def virtual_host_endpoint(self) -> str:
        return f"http://localhost:{self.port}"


class S3rverServer(_ServerProcess):
    """s3rver (tests/peers/node_modules) on 127.0.0.1:PORT with --service-endpoint localhost.

    Credentials: access key S3RVER / secret key S3RVER (`.access_key`, `.secret_key`). Other
    access key ids get 403 InvalidAccessKeyId; SigV4 signatures are only parsed, NOT verified
    (a wrong secret passes; SigV2 is verified). Unsigned requests are served anonymously.
    aws-chunked PUT bodies are stored undecoded (see the module docstring). Virtual-host style:
    `.virtual_host_endpoint` = http://s3.localhost:PORT (Host BUCKET.s3.localhost:PORT);
    BUCKET.localhost does not work with s3rver. `buckets` are created at startup
    (--configure-bucket)."""

    name = "s3rver"
    access_key = "S3RVER"
    secret_key = "S3RVER"

    def __init__(self, directory=None, port=None, buckets: Iterable[str] = (),
                 node: str | None = None, allow_mismatched_signatures: bool = False):
        super().__init__(directory, port)
        self.node = node or shutil.which("node")
        if not self.node:
            raise FileNotFoundError("node not found; run scripts/install-deps.sh")
        if not S3RVER_JS.is_file():
            raise FileNotFoundError(f"{S3RVER_JS} missing; run scripts/install-deps.sh")
        self.buckets = list(buckets)
        self.allow_mismatched_signatures = allow_mismatched_signatures
        self.data_dir = self.dir / "data"

    def command(self):
        cmd = [self.node, str(S3RVER_JS), "--directory", str(self.data_dir),
               "--address", "127.0.0.1", "--port", str(self.port),
               "--service-endpoint", "localhost"]
        if self.allow_mismatched_signatures:
            cmd.append("--allow-mismatched-signatures")
        for b in self.buckets:
            cmd += ["--configure-bucket", b]
        return cmd

    @property
    def virtual_host_endpoint(self) -> str:
        return f"http://s3.localhost:{self.port}"


# ---------------------------------------------------------------------------------------
# Fault proxy

def s3_error_xml(code: str, message: str, request_id: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Error><Code>{code}</Code><Message>{message}</Message>"
            f"<RequestId>{request_id}</RequestId><HostId>sqe-fault-proxy</HostId></Error>"
            ).encode()


# mode -> (status, reason, S3 error code, message)
ERROR_FAULTS = {
    "slowdown": (503, "Slow Down", "SlowDown", "Please reduce your request rate."),
    "throttle": (429, "Too Many Requests", "TooManyRequestsException",
                 "Too many requests, please slow down."),
    "internal_error": (500, "Internal Server Error", "InternalError",
                       "We encountered an internal error. Please try again."),
}
# order in which the fractions share the [0, 1) draw
FAULT_MODES = ("reset", "reset_mid_body", "slowdown", "throttle", "internal_error", "stall")
# not forwarded (they describe this hop, not the request)
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization",
              "te", "trailer", "upgrade"}


class _ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sqe-fault-proxy"
    timeout = 300  # idle keep-alive connections

    proxy: "FaultProxy"  # set on the subclass FaultProxy makes

    def log_message(self, format, *args):  # quiet
        pass

    def setup(self):
        super().setup()
        self.upstream: http.client.HTTPConnection | None = None
        self.proxy._track(self.connection, True)

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.proxy._track(self.connection, False)
            if self.upstream is not None:
                self.upstream.close()

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self._handle
        raise AttributeError(name)

    # -- request
    def _read_body(self) -> tuple[bytes, bool]:
        te = self.headers.get("Transfer-Encoding", "")
        if "chunked" in te.lower():
            parts = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(parts), True
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return (self.rfile.read(n) if n else b""), False

    def _handle(self):
        p = self.proxy
        body, chunked = self._read_body()
        fault = p._choose_fault(self.command)
        p._record(self.command, self.path, fault)
        if fault == "reset":
            self._reset()
            return
        if fault in ERROR_FAULTS:
            self._send_error_fault(fault)
            return
        if fault == "stall":
            if p._closing.wait(p._stall_seconds):
                self._reset()
                return
        try:
            resp = self._forward(body, chunked)
        except (OSError, http.client.HTTPException) as e:
            p._count("upstream_error")
            if self.upstream is not None:
                self.upstream.close()
                self.upstream = None
            self._send_error_fault(None, (502, "Bad Gateway", "BadGateway",
                                          f"fault proxy: upstream failed: {e}"))
            return
        p._count("forwarded")
        try:
            if fault == "reset_mid_body":
                self._send_half_then_reset(resp)
            else:
                self._relay(resp)
        finally:
            if not resp.isclosed():
                resp.close()  # body not fully read: the upstream connection is unusable
                resp.will_close = True
            if resp.will_close and self.upstream is not None:
                self.upstream.close()
                self.upstream = None

    def _forward(self, body: bytes, chunked: bool) -> http.client.HTTPResponse:
        p = self.proxy
        for attempt in (1, 2):
            if self.upstream is None:
                self.upstream = http.client.HTTPConnection(p._up_host, p._up_port,
                                                           timeout=p.upstream_timeout)
            conn = self.upstream
            try:
                conn.putrequest(self.command, self.path, skip_host=True,
                                skip_accept_encoding=True)
                for k, v in self.headers.items():
                    if k.lower() not in HOP_BY_HOP:
                        conn.putheader(k, v)
                conn.endheaders()
                if chunked:
                    if body:
                        conn.send(b"%x\r\n%s\r\n" % (len(body), body))
                    conn.send(b"0\r\n\r\n")
                elif body:
                    conn.send(body)
                return conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError,
                    ConnectionResetError, http.client.CannotSendRequest):
                conn.close()
                self.upstream = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    # -- responses
    def _send_head(self, status: int, reason: str, headers: list[tuple[str, str]]):
        self.send_response_only(status, reason)
        for k, v in headers:
            if k.lower() not in HOP_BY_HOP:
                self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()

    def _relay(self, resp: http.client.HTTPResponse):
        headers = resp.getheaders()
        chunked = resp.chunked
        self._send_head(resp.status, resp.reason, headers)
        if self.command == "HEAD" or resp.status in (204, 304) or 100 <= resp.status < 200:
            resp.read()  # b"", marks the response done so the connection can be reused
            return
        while True:
            data = resp.read(65536)
            if not data:
                break
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _send_half_then_reset(self, resp: http.client.HTTPResponse):
        data = resp.read() if self.command != "HEAD" else b""
        headers = [(k, v) for k, v in resp.getheaders() if k.lower() != "transfer-encoding"]
        if resp.chunked:
            headers.append(("Content-Length", str(len(data))))
        self._send_head(resp.status, resp.reason, headers)
        if self.command != "HEAD":
            self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        time.sleep(0.05)  # let loopback deliver what was written before the RST drops it
        self._reset()

    def _send_error_fault(self, fault: str | None, spec=None):
        status, reason, code, message = spec or ERROR_FAULTS[fault]
        rid = uuid.uuid4().hex[:16].upper()
        body = s3_error_xml(code, message, rid)
        headers = [("Content-Type", "application/xml"), ("x-amz-request-id", rid),
                   ("Content-Length", str(len(body)))]
        self._send_head(status, reason, headers)
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def _reset(self):
        """Closes the client socket with SO_LINGER 0: the peer sees a TCP RST."""
        self.close_connection = True
        sock = self.connection
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            os.close(sock.detach())  # the real close now, whatever file objects still exist
        except OSError:
            pass


class FaultProxy:
    """A threaded HTTP/1.1 reverse proxy on 127.0.0.1:<free port> in front of `upstream`
    (an endpoint URL or a server object with `.endpoint`), with injectable faults.

    Forwards method, path+query, every header unchanged (Host included, so a SigV4 signature
    made for the proxy's address stays valid upstream; only hop-by-hop Connection/Keep-Alive/TE/... are dropped) and the
    body (Content-Length or chunked); relays status, headers and body back. Keep-alive both
    ways; one thread per client connection (daemon threads), so a stalled request does not
    block the others.

    `set_faults(...)` (any time): each request draws once from a seeded random generator and
    gets at most one fault, by fraction of requests:
      reset           close the client socket with a TCP RST before any response
      reset_mid_body  forward, send status + headers + half the body, then RST
      slowdown        503 <Code>SlowDown</Code>
      throttle        429 <Code>TooManyRequestsException</Code>
      internal_error  500 <Code>InternalError</Code>
      stall           wait stall_seconds, then forward normally
    `only_methods` (e.g. {"PUT"}) limits faults to those methods; `max_faults` stops
    injecting after that many faults (slowdown=1.0, max_faults=2: the first two requests
    fail, the rest pass). `stats` counts requests, forwarded, upstream_error and each fault;
    `log` lists (method, path, fault or None) per request.
    """

    upstream_timeout = 60.0

    def __init__(self, upstream, port: int = 0):
        self.upstream = upstream
        up = urlsplit(upstream if isinstance(upstream, str) else upstream.endpoint)
        self._up_host = up.hostname
        self._up_port = up.port or 80
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._conns: set[socket.socket] = set()
        self.log: list[tuple[str, str, str | None]] = []
        self._stats = {"requests": 0, "forwarded": 0, "upstream_error": 0,
                       **{m: 0 for m in FAULT_MODES}}
        self.set_faults()
        handler = type("Handler", (_ProxyHandler,), {"proxy": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread: threading.Thread | None = None

    # -- configuration
    def set_faults(self, slowdown: float = 0.0, internal_error: float = 0.0,
                   reset: float = 0.0, reset_mid_body: float = 0.0, stall: float = 0.0,
                   stall_seconds: float = 30.0, seed: int = 1,
                   only_methods: Iterable[str] | None = None, throttle: float = 0.0,
                   max_faults: int | None = None) -> None:
        fractions = {"reset": reset, "reset_mid_body": reset_mid_body, "slowdown": slowdown,
                     "throttle": throttle, "internal_error": internal_error, "stall": stall}
        if any(f < 0 for f in fractions.values()) or sum(fractions.values()) > 1.0 + 1e-9:
            raise ValueError(f"fault fractions must be >= 0 and sum to <= 1: {fractions}")
        with self._lock:
            self._fractions = fractions
            self._stall_seconds = stall_seconds
            self._rng = random.Random(seed)
            self._only = {m.upper() for m in only_methods} if only_methods else None
            self._max_faults = max_faults
            self._faults_injected = 0

    def clear_faults(self) -> None:
        self.set_faults()

    def _choose_fault(self, method: str) -> str | None:
        with self._lock:
            if self._only is not None and method.upper() not in self._only:
                return None
            if self._max_faults is not None and self._faults_injected >= self._max_faults:
                return None
            if not any(self._fractions.values()):
                return None
            r = self._rng.random()
            acc = 0.0
            for mode in FAULT_MODES:
                acc += self._fractions[mode]
                if r < acc:
                    self._faults_injected += 1
                    return mode
            return None

    def _record(self, method: str, path: str, fault: str | None) -> None:
        with self._lock:
            self._stats["requests"] += 1
            if fault:
                self._stats[fault] += 1
            self.log.append((method, path, fault))

    def _count(self, key: str) -> None:
        with self._lock:
            self._stats[key] += 1

    def _track(self, conn: socket.socket, add: bool) -> None:
        with self._lock:
            (self._conns.add if add else self._conns.discard)(conn)

    @property
    def stats(self) -> dict[str, int]:
        with self._lock:
            return dict(self._stats)

    def reset_stats(self) -> None:
        with self._lock:
            for k in self._stats:
                self._stats[k] = 0
            self.log.clear()

    # -- addresses
    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def virtual_host_endpoint(self) -> str:
        """The upstream server's virtual-host endpoint name with the proxy's port."""
        vh = getattr(self.upstream, "virtual_host_endpoint", None)
        if vh is None:
            raise AttributeError("the upstream has no virtual_host_endpoint")
        u = urlsplit(vh)
        return f"{u.scheme}://{u.hostname}:{self.port}"

    def __getattr__(self, name):  # access_key, secret_key, region, pyarrow_fs of the upstream
        if name in ("access_key", "secret_key", "region"):
            return getattr(self.__dict__.get("upstream"), name, getattr(_ServerProcess, name))
        raise AttributeError(name)

    name = "fault-proxy"

    # the servers' helpers, sent through the proxy
    def pyarrow_fs(self, endpoint: str | None = None, **kwargs):
        return _ServerProcess.pyarrow_fs(self, endpoint or self.endpoint, **kwargs)

    put_object = _ServerProcess.put_object
    get_object = _ServerProcess.get_object

    # -- lifecycle
    def start(self) -> "FaultProxy":
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.1},
                                        name=f"fault-proxy-{self.port}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()  # wakes stalled requests
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.server_close()
        with self._lock:
            conns = list(self._conns)
        for c in conns:  # idle keep-alive handlers blocked in a read
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def __enter__(self) -> "FaultProxy":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
