"""Flight SQL streams a large result (issue P6, "Streaming"): a SELECT of 50,000,000 rows
from a generated table is read by a pyarrow.flight client while the server's resident
memory stays under 1 GiB, once per `coordinator.flight_compression` (lz4, zstd, none; one
server start each). The client discards the batches as they arrive; a thread samples the
server's VmRSS from /proc meanwhile and the server's VmHWM (its peak) is read at the end.
Throughput is printed per codec (rows/s and MB/s of Arrow data received; run pytest with
-s to see it) and the figures are in docs/performance.md.

The table: gen.a, 10,000 rows (bigint, double, a varchar of 12..16 characters) made with a
CTAS over a VALUES cross join; the query joins it with its first 5,000 rows, so 50M rows
stream from a 10,000-row table (a cross join streams its probe side: the server holds
the 5,000-row build side and one output batch at a time).

Release binaries only: a sanitizer build is several times slower and its shadow memory
makes the RSS bound meaningless, so the test skips there. It runs in the Release
integration stage (scripts/test.sh) and takes about 15 s on the 2-core development
machine (three server starts, three reads of 50M rows; 2026-12-05).
"""

from __future__ import annotations

import time

import pyarrow.flight as flight
import pytest

from conftest import is_listening
from rss import RssSampler, sanitizer_build, status_kib
from test_flight_sql import statement_query

ROWS = 50_000_000
RSS_LIMIT = 1 << 30
CODECS = ["lz4", "zstd", "none"]
QUERY = ("SELECT a.id * 10000 + b.id AS n, a.v, a.s FROM gen.a a "
         "CROSS JOIN (SELECT id FROM gen.a WHERE id < 5000) b")
MAKE_TABLE = [
    "CREATE SCHEMA gen",
    "CREATE TABLE gen.a AS WITH d(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
    "SELECT CAST(a.x * 1000 + b.x * 100 + c.x * 10 + e.x AS bigint) AS id, "
    "CAST(a.x * 1000 + b.x * 100 + c.x * 10 + e.x AS double) * 1.5 AS v, "
    "'row payload ' || CAST(a.x * 1000 + b.x * 100 + c.x * 10 + e.x AS varchar) AS s "
    "FROM d a, d b, d c, d e",
]


def start(start_server, server_config, codec: str):
    server_config.coordinator_extra = f'flight_compression = "{codec}"'
    server_config.extra_toml = "[query]\nmax_result_rows = 0\n"
    server = start_server(["--config", str(server_config.write(f"sqe-{codec}.toml"))])
    server.wait_ready()
    deadline = time.monotonic() + 10
    while not is_listening(server_config.ports.flight_sql) and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def run_statement(client: flight.FlightClient, sql: str) -> None:
    info = client.get_flight_info(statement_query(sql))
    for endpoint in info.endpoints:
        client.do_get(endpoint.ticket).read_all()


@pytest.mark.timeout(900)
def test_fifty_million_rows_stream_in_bounded_server_memory(server_binary, start_server,
                                                            server_config):
    reason = sanitizer_build(server_binary)
    if reason:
        pytest.skip(f"Release binaries only: {reason}")
    location = f"grpc://127.0.0.1:{server_config.ports.flight_sql}"
    figures = []
    for i, codec in enumerate(CODECS):
        server = start(start_server, server_config, codec)
        with flight.FlightClient(location) as client:
            if i == 0:
                for sql in MAKE_TABLE:
                    run_statement(client, sql)
            rss_before = status_kib(server.proc.pid, "VmRSS") * 1024
            rows = 0
            arrow_bytes = 0
            batches = 0
            with RssSampler(server.proc.pid) as sampler:
                begin = time.perf_counter()
                info = client.get_flight_info(statement_query(QUERY))
                assert [f.name for f in info.schema] == ["n", "v", "s"]
                for endpoint in info.endpoints:
                    for chunk in client.do_get(endpoint.ticket):
                        rows += chunk.data.num_rows
                        arrow_bytes += chunk.data.nbytes
                        batches += 1
                seconds = time.perf_counter() - begin
            peak = sampler.peak  # VmRSS samples and the VmHWM at the end
        code, _ = server.stop(timeout=30)
        assert code == 0, server.stderr()[-2000:]
        figures.append((codec, rows, batches, seconds, arrow_bytes, rss_before, peak))
        print(f"\nflight_compression={codec}: {rows:,} rows in {batches} batches, {seconds:.1f} s: "
              f"{rows / seconds / 1e6:.2f} M rows/s, {arrow_bytes / seconds / 1e6:.0f} MB/s "
              f"(Arrow data {arrow_bytes / 1e9:.2f} GB); server RSS {rss_before / 2**20:.0f} MiB "
              f"before, peak {peak / 2**20:.0f} MiB")
        assert rows == ROWS, (codec, rows)
        assert peak < RSS_LIMIT, (codec, peak)
    assert [f[0] for f in figures] == CODECS
