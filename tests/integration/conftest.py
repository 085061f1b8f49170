"""Fixtures that run the real sqe-server binary on 127.0.0.1.

The binary is build/release/src/main/sqe-server (override with SQE_SERVER_BIN). Each test
gets its own free ports and a temporary directory; every server a test starts is killed at
teardown, whatever the test did.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-server"


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="also run the volume-scale tests (scripts/test.sh --full)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full") or os.environ.get("SQE_TEST_FULL") == "1":
        return
    skip = pytest.mark.skip(reason="volume scale: run with scripts/test.sh --full")
    for item in items:
        if "full" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def server_binary() -> Path:
    binary = Path(os.environ.get("SQE_SERVER_BIN", DEFAULT_BINARY))
    if not binary.is_file():
        pytest.fail(f"sqe-server not built at {binary}; run scripts/test.sh "
                    f"(or cmake --build build/release --target sqe-server)")
    return binary


def free_ports(count: int) -> list[int]:
    """Distinct ports that were free a moment ago (held together, then released)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def is_listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test process environment without any SQE_* variable, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQE_")}
    env.setdefault("SQE_LOG_LEVEL", "info")
    env.update(extra or {})
    return env


def http_get(port: int, path: str, timeout: float = 5.0) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


@dataclass
class Ports:
    flight_sql: int
    trino_http: int
    metrics: int
    rest_catalog: int
    worker_flight: int

    def all(self) -> list[int]:
        return [self.flight_sql, self.trino_http, self.metrics, self.rest_catalog,
                self.worker_flight]


@dataclass
class ServerConfig:
    """A test configuration: local mode, embedded catalog, anonymous admin, free ports."""

    dir: Path
    ports: Ports
    mode: str = "local"
    extra_toml: str = ""
    coordinator_extra: str = ""
    providers_extra: str = ""

    def text(self) -> str:
        warehouse = self.dir / "warehouse"
        return f"""
[coordinator]
mode = "{self.mode}"
flight_sql_port = {self.ports.flight_sql}
trino_http_port = {self.ports.trino_http}
{self.coordinator_extra}

[worker]
flight_port = {self.ports.worker_flight}

[metrics]
prometheus_port = {self.ports.metrics}

[catalog.backend]
type = "embedded"
warehouse = "{warehouse}"

[catalog.rest_server]
port = {self.ports.rest_catalog}

[[auth.providers]]
type = "anonymous"
user = "dev"
roles = ["admin"]
{self.providers_extra}
{self.extra_toml}
"""

    def write(self, name: str = "sqe.toml") -> Path:
        path = self.dir / name
        path.write_text(self.text())
        return path


@pytest.fixture
def ports() -> Ports:
    return Ports(*free_ports(5))


@pytest.fixture
def server_config(tmp_path, ports) -> ServerConfig:
    return ServerConfig(dir=tmp_path, ports=ports)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_cli(binary: Path, args: Iterable[str], env: dict[str, str] | None = None,
            cwd: Path | None = None, timeout: float = 30) -> Run:
    """Runs sqe-server to completion (for --check-config, --print-config, failures)."""
    proc = subprocess.run([str(binary), *args], capture_output=True, text=True,
                          env=clean_env(env), cwd=cwd, timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr)


@dataclass
class ServerProcess:
    """A running sqe-server; stderr is collected line by line on a thread."""

    proc: subprocess.Popen
    lines: list[str] = field(default_factory=list)
    stdout: str = ""

    def __post_init__(self):
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stderr:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    def stderr(self) -> str:
        with self._lock:
            return "\n".join(self.lines)

    def has_line(self, *needles: str) -> bool:
        with self._lock:
            return any(all(n in line for n in needles) for line in self.lines)

    def wait_for_line(self, *needles: str, timeout: float = 15) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.has_line(*needles):
                return True
            if self.proc.poll() is not None:
                self._reader.join(timeout=2)
                return self.has_line(*needles)
            time.sleep(0.02)
        return False

    def wait_ready(self, timeout: float = 15):
        if not self.wait_for_line("event=server.ready", timeout=timeout):
            raise AssertionError(f"server not ready (exit {self.proc.poll()}):\n{self.stderr()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5) -> tuple[int, float]:
        """Sends `sig`; returns (exit code, seconds it took to exit)."""
        start = time.monotonic()
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout)
        elapsed = time.monotonic() - start
        self._reader.join(timeout=2)
        self.stdout = self.proc.stdout.read() if self.proc.stdout else ""
        return code, elapsed

    def wait_exit(self, timeout: float = 10) -> int:
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=2)
        self.stdout = self.proc.stdout.read() if self.proc.stdout else ""
        return code

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._reader.join(timeout=2)


@pytest.fixture
def start_server(server_binary):
    """start_server(args, env=None) -> ServerProcess; every one is killed at teardown."""
    started: list[ServerProcess] = []

    def start(args: Iterable[str], env: dict[str, str] | None = None,
              cwd: Path | None = None) -> ServerProcess:
        proc = subprocess.Popen([str(server_binary), *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=clean_env(env), cwd=cwd)
        server = ServerProcess(proc)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


def parse_json(body: str):
    return json.loads(body)
