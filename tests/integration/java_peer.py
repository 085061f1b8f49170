"""Finds and runs the Java test peers (tests/peers/java): Iceberg's Java library driven by
our program dev.sqe.peers.*. The classpath comes from SQE_JAVA_PEER_CLASSPATH or from
tests/peers/java/build.sh (builds the jar offline after scripts/install-deps.sh)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PEERS = REPO / "tests" / "peers"
_classpath: str | None = None


def classpath() -> str:
    """The peer's runtime classpath; skips only when Java or Maven is genuinely absent."""
    global _classpath
    if _classpath is not None:
        return _classpath
    if os.environ.get("SQE_JAVA_PEER_CLASSPATH"):
        _classpath = os.environ["SQE_JAVA_PEER_CLASSPATH"]
        return _classpath
    if shutil.which("java") is None or shutil.which("mvn") is None:
        if os.environ.get("CI"):
            pytest.fail("java/mvn missing in CI: scripts/install-deps.sh should have installed maven")
        pytest.skip("Java or Maven is not installed (scripts/install-deps.sh installs maven)")
    r = subprocess.run(["bash", str(PEERS / "java" / "build.sh")], capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        pytest.fail(f"building the Java peers failed:\n{r.stderr}")
    _classpath = r.stdout.strip()
    return _classpath


def run_peer(*args: str, timeout: float = 120) -> dict:
    """Runs `IcebergPeer args...` and returns its JSON stdout."""
    r = subprocess.run(["java", "-cp", classpath(), "dev.sqe.peers.IcebergPeer", *args],
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"IcebergPeer {' '.join(args)} failed:\n{r.stderr[-4000:]}"
    return json.loads(r.stdout)
