"""Shared helpers for test_s3_fs.py: running the sqe-fs tool and the storage backends
(a local directory, moto, s3rver) it is tested against.

Plain module (no fixtures): the fixtures live in test_s3_fs.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from s3_servers import REPO_ROOT, MotoServer, S3rverServer  # noqa: F401 (re-exported)

DEFAULT_SQE_FS = REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-fs"
BUCKET = "sqe-fs-bucket"
MiB = 1 << 20


def sqe_fs_binary() -> Path:
    return Path(os.environ.get("SQE_FS_TOOL", DEFAULT_SQE_FS))


def tool_env(access_key: str | None = None, secret_key: str | None = None,
             extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test process environment without AWS_* / SQE_* variables, plus credentials."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "SQE_"))}
    if access_key is not None:
        env["AWS_ACCESS_KEY_ID"] = access_key
    if secret_key is not None:
        env["AWS_SECRET_ACCESS_KEY"] = secret_key
    env.update(extra or {})
    return env


@dataclass
class FsRun:
    args: list[str]
    returncode: int
    stdout: bytes
    stderr: str
    elapsed: float = 0.0

    @property
    def text(self) -> str:
        return self.stdout.decode()

    def json_lines(self) -> list[dict]:
        return [json.loads(line) for line in self.text.splitlines() if line.strip()]

    @property
    def stats(self) -> dict:
        """The --stats JSON line on stderr ({"io": {...}, "elapsed_ms": ...})."""
        for line in reversed(self.stderr.splitlines()):
            line = line.strip()
            if line.startswith("{") and '"io"' in line:
                return json.loads(line)
        raise AssertionError(f"no --stats line in stderr of {self.describe()}")

    @property
    def io(self) -> dict:
        return self.stats["io"]

    def describe(self) -> str:
        out = self.stdout[:600]
        return (f"sqe-fs {' '.join(self.args)}\n  exit {self.returncode}\n"
                f"  stdout {out!r}{'...' if len(self.stdout) > 600 else ''}\n"
                f"  stderr {self.stderr[-2000:]!r}")

    def ok(self) -> "FsRun":
        assert self.returncode == 0, f"expected success:\n{self.describe()}"
        return self


def run_fs(args: Sequence[str], env: dict[str, str], input: bytes | None = None,
           timeout: float = 60) -> FsRun:
    binary = sqe_fs_binary()
    start = time.monotonic()
    proc = subprocess.run([str(binary), *args], input=input if input is not None else b"",
                          capture_output=True, env=env, timeout=timeout)
    return FsRun(list(args), proc.returncode, proc.stdout,
                 proc.stderr.decode(errors="replace"), time.monotonic() - start)


class LegacyS3rverServer(S3rverServer):
    """s3rver with NODE_OPTIONS=--openssl-legacy-provider: s3rver 3.7.1 makes ListObjectsV2
    continuation tokens with DES (lib/controllers/bucket.js generateContinuationToken), which
    OpenSSL 3 (node >= 17) refuses without the legacy provider -> every listing of more than
    1000 keys answers 500 InternalError (ERR_OSSL_EVP_UNSUPPORTED in server.log)."""

    def environment(self):
        env = super().environment()
        opts = env.get("NODE_OPTIONS", "")
        if "--openssl-legacy-provider" not in opts:
            env["NODE_OPTIONS"] = (opts + " --openssl-legacy-provider").strip()
        return env


@dataclass
class Backend:
    """One storage backend as sqe-fs sees it: how to name a key, the global flags and the
    environment, and a side door to the stored bytes that does not go through sqe-fs."""

    name: str
    root: str                      # "s3://bucket" or a local directory
    flags: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    server: object | None = None   # MotoServer / S3rverServer for S3 backends
    bucket: str | None = None

    @property
    def is_s3(self) -> bool:
        return self.server is not None

    def uri(self, key: str) -> str:
        return f"{self.root}/{key}"

    def fresh_prefix(self, label: str = "t") -> str:
        return f"{label}-{uuid.uuid4().hex[:12]}"

    def run(self, *args: str, input: bytes | None = None, flags: Iterable[str] = (),
            env: dict[str, str] | None = None, timeout: float = 60) -> FsRun:
        return run_fs([*self.flags, *flags, *args], env or self.env, input=input,
                      timeout=timeout)

    # side door (not sqe-fs)
    @property
    def boto(self):
        """A boto3 S3 client for the server (signed: moto answers anonymous GETs of some
        objects with 403)."""
        if self.__dict__.get("_boto") is None:
            self.__dict__["_boto"] = boto3_s3(self.server)
        return self.__dict__["_boto"]

    def raw_put(self, key: str, data: bytes) -> None:
        if self.is_s3:
            self.boto.put_object(Bucket=self.bucket, Key=key, Body=data)
        else:
            path = Path(self.root) / key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)

    def raw_get(self, key: str) -> bytes:
        if self.is_s3:
            return self.boto.get_object(Bucket=self.bucket, Key=key)["Body"].read()
        return (Path(self.root) / key).read_bytes()

    def raw_put_many(self, items: dict[str, bytes], threads: int = 16) -> None:
        self.boto  # made once, before the threads share it (boto3 clients are thread safe)
        with ThreadPoolExecutor(threads) as ex:
            list(ex.map(lambda kv: self.raw_put(*kv), items.items()))


def quote_key(key: str) -> str:
    from urllib.parse import quote
    return quote(key, safe="/-_.~")


def s3_backend(name: str, server, bucket: str = BUCKET) -> Backend:
    return Backend(name=name, root=f"s3://{bucket}",
                   flags=["--endpoint", server.endpoint, "--allow-http", "--path-style",
                          "--retry-base-ms", "5"],
                   env=tool_env(server.access_key, server.secret_key), server=server,
                   bucket=bucket)


def local_backend(root: Path) -> Backend:
    root.mkdir(parents=True, exist_ok=True)
    return Backend(name="local", root=str(root), env=tool_env())


def boto3_s3(server, endpoint: str | None = None, access_key: str | None = None,
             secret_key: str | None = None):
    import boto3
    from botocore.config import Config
    return boto3.client("s3", endpoint_url=endpoint or server.endpoint,
                        region_name="us-east-1",
                        aws_access_key_id=access_key or server.access_key,
                        aws_secret_access_key=secret_key or server.secret_key,
                        config=Config(s3={"addressing_style": "path"},
                                      retries={"max_attempts": 1},
                                      request_checksum_calculation="when_required",
                                      response_checksum_validation="when_required"))


__all__ = ["BUCKET", "MiB", "Backend", "FsRun", "LegacyS3rverServer", "MotoServer",
           "boto3_s3", "local_backend", "run_fs", "s3_backend",
           "sqe_fs_binary", "tool_env", "quote_key"]
