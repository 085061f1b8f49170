"""S3 and local read throughput of SQE's storage layer, with coalescing on and off.

Writes FILES files of SIZE MiB (random bytes) to s3rver (started here on 127.0.0.1, from
tests/peers) and to a local directory, then reads every file with a Parquet-like pattern
(CHUNK-byte ranges separated by HOLE-byte gaps, i.e. column chunks of a row group) through
`sqe-fs read-ranges` (all files at once, the [storage] pipeline), with coalesce_threshold
0 (off) and 1 MiB (on). As a peer baseline it reads the same ranges with pyarrow's
S3FileSystem / local files (the AWS C++ SDK; one thread per file). Prints MB/s of bytes
read from the store and the requests each run made, and the SQE / pyarrow ratio.

Usage: tests/peers/.venv/bin/python bench/s3_read_throughput.py [--files 16] [--size-mib 64]
         [--chunk 1048576] [--hole 65536] [--runs 3] [--sqe-fs build/release/src/main/sqe-fs]

That the bytes are right is the integration tests' job (tests/integration/test_s3_fs.py
compares digests); here the tool skips hashing (--no-digest).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from s3_servers import S3rverServer  # noqa: E402

BUCKET = "bench"


def sqe_read(tool, common, uris, chunk, hole, coalesce, sizes):
    """One sqe-fs read-ranges run over every uri; returns (seconds, bytes, requests)."""
    cmd = [tool, *common, "read-ranges", *uris, "--pattern", f"{chunk}:{hole}",
           "--coalesce", str(coalesce), "--size", str(sizes), "--no-digest"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"sqe-fs failed: {out.stderr}")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    files, total = lines[:-1], lines[-1]
    requests = sum(f["io"]["get_requests"] for f in files)
    # The tool's own clock: from the first open to the last byte (no process start-up).
    return total["seconds"], total["total_bytes"], requests


def ranges_for(size, chunk, hole):
    ranges, offset = [], 0
    while offset < size:
        ranges.append((offset, min(chunk, size - offset)))
        offset += chunk + hole
    return ranges


def pyarrow_read(open_file, paths, size, chunk, hole):
    """Reads the same ranges with pyarrow (one thread per file); returns (seconds, bytes)."""
    ranges = ranges_for(size, chunk, hole)

    def read_one(path):
        n = 0
        with open_file(path) as f:
            for offset, length in ranges:
                n += len(f.read_at(length, offset))
        return n

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(len(paths)) as pool:
        total = sum(pool.map(read_one, paths))
    return time.perf_counter() - started, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--size-mib", type=int, default=64)
    parser.add_argument("--chunk", type=int, default=1 << 20)
    parser.add_argument("--hole", type=int, default=64 << 10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sqe-fs", default=str(ROOT / "build/release/src/main/sqe-fs"))
    args = parser.parse_args()
    size = args.size_mib << 20
    work = Path(tempfile.mkdtemp(prefix="sqe-s3-bench-"))
    try:
        local_dir = work / "local"
        local_dir.mkdir()
        blob = os.urandom(size)
        local_paths = []
        for i in range(args.files):
            p = local_dir / f"f{i:02d}.bin"
            p.write_bytes(blob[i:] + blob[:i])  # distinct contents, same size
            local_paths.append(str(p))
        with S3rverServer(directory=work / "s3rver", buckets=[BUCKET]) as s3:
            env = dict(os.environ, AWS_ACCESS_KEY_ID=s3.access_key,
                       AWS_SECRET_ACCESS_KEY=s3.secret_key)
            os.environ.update(AWS_ACCESS_KEY_ID=s3.access_key, AWS_SECRET_ACCESS_KEY=s3.secret_key)
            common = ["--endpoint", s3.endpoint, "--allow-http", "--region", s3.region]
            uris = [f"s3://{BUCKET}/f{i:02d}.bin" for i in range(args.files)]
            started = time.perf_counter()
            for path, uri in zip(local_paths, uris):
                subprocess.run([args.sqe_fs, *common, "put", uri, path], check=True, env=env)
            upload = time.perf_counter() - started
            print(f"setup: {args.files} x {args.size_mib} MiB written to s3rver in {upload:.1f} s "
                  f"({args.files * size / 1e6 / upload:.0f} MB/s through sqe-fs put)")
            pa_s3 = s3.pyarrow_fs()
            import pyarrow.fs as pafs
            pa_local = pafs.LocalFileSystem()
            print(f"pattern: {args.chunk}-byte ranges, {args.hole}-byte holes; "
                  f"best of {args.runs} runs; MB/s = bytes read from the store / wall time")
            print(f"{'store':8} {'coalesce':>9} {'sqe MB/s':>9} {'requests':>9} "
                  f"{'pyarrow MB/s':>13} {'ratio':>6}")
            for store, targets, extra in (("s3rver", uris, common), ("local", local_paths, [])):
                pa_paths = [u.removeprefix("s3://") for u in uris] if store == "s3rver" else local_paths
                pa_open = pa_s3.open_input_file if store == "s3rver" else pa_local.open_input_file
                pa_best = min(pyarrow_read(pa_open, pa_paths, size, args.chunk, args.hole)[0]
                              for _ in range(args.runs))
                pa_bytes = pyarrow_read(pa_open, pa_paths, size, args.chunk, args.hole)[1]
                for coalesce in (0, 1 << 20):
                    runs = [sqe_read(args.sqe_fs, extra, targets, args.chunk, args.hole, coalesce,
                                     size) for _ in range(args.runs)]
                    best = min(runs, key=lambda r: r[0])
                    seconds, nbytes, requests = best
                    mbps = nbytes / 1e6 / seconds
                    pa_mbps = pa_bytes / 1e6 / pa_best
                    print(f"{store:8} {('on' if coalesce else 'off'):>9} {mbps:9.0f} "
                          f"{requests:9d} {pa_mbps:13.0f} {mbps / pa_mbps:6.2f}")
                    sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
