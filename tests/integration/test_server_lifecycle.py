"""The server starts, serves /health and /ready, and stops cleanly on SIGTERM/SIGINT."""

import http.client
import re
import signal
import threading
import time

import pytest

from conftest import http_get, is_listening, parse_json


def start_local(start_server, server_config):
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    return server


def test_health_and_ready_answer_200(start_server, server_config):
    server = start_local(start_server, server_config)
    port = server_config.ports.metrics
    status, body = http_get(port, "/health")
    assert (status, parse_json(body)) == (200, {"status": "ok"})
    status, body = http_get(port, "/ready")
    assert (status, parse_json(body)) == (200, {"status": "ready"})
    status, _ = http_get(port, "/no-such-path")
    assert status == 404


def test_logs_one_listening_line_per_listener_then_ready(start_server, server_config):
    server = start_local(start_server, server_config)
    listening = [l for l in server.lines if "event=server.listening" in l]
    by_name = {re.search(r"listener=(\S+)", l).group(1): l for l in listening}
    assert len(by_name) == len(listening), "one line per listener"
    ports = server_config.ports
    for name, port, field in [("metrics", ports.metrics, "metrics.prometheus_port"),
                              ("flight_sql", ports.flight_sql, "coordinator.flight_sql_port"),
                              ("trino_http", ports.trino_http, "coordinator.trino_http_port")]:
        assert name in by_name, server.stderr()
        assert f"port={port}" in by_name[name]
        assert f"field={field}" in by_name[name]
    assert "worker_flight" not in by_name, "local mode opens no worker port"
    ready_index = next(i for i, l in enumerate(server.lines) if "event=server.ready" in l)
    last_listening = max(i for i, l in enumerate(server.lines) if "event=server.listening" in l)
    assert last_listening < ready_index
    for name, line in by_name.items():
        port = int(re.search(r"port=(\d+)", line).group(1))
        assert is_listening(port), f"{name} on {port}"


def test_anonymous_provider_logs_a_startup_warning(start_server, server_config):
    server = start_local(start_server, server_config)
    assert server.has_line("level=warn", "event=config.warning", "auth.providers[0]",
                           "anonymous"), server.stderr()


def test_trino_info_answers(start_server, server_config):
    start_local(start_server, server_config)
    status, body = http_get(server_config.ports.trino_http, "/v1/info")
    assert status == 200
    info = parse_json(body)
    assert info["nodeVersion"]["version"] == "sqe-0.1.0"
    assert info["environment"] == "sqe"
    assert info["coordinator"] is True
    assert info["starting"] is False
    assert re.fullmatch(r"\d+\.\d\d(ms|s|m|h|d)", info["uptime"])
    # /v1/statement takes POST only (the statement protocol: test_trino_protocol.py).
    assert http_get(server_config.ports.trino_http, "/v1/statement")[0] == 405


def test_unimplemented_listeners_say_so(start_server, server_config):
    server = start_local(start_server, server_config)
    assert server.has_line("level=warn", "event=server.not_implemented", "listener=flight_sql")
    # The Flight SQL port is really held: a connection is accepted (and closed).
    assert is_listening(server_config.ports.flight_sql)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_stops_cleanly_within_5s(start_server, server_config, sig):
    server = start_local(start_server, server_config)
    code, elapsed = server.stop(sig, timeout=10)
    assert code == 0, server.stderr()
    assert elapsed < 5, f"took {elapsed:.2f}s"
    assert server.has_line("event=server.stopping", f"signal={signal.Signals(sig).name}")
    assert server.has_line("event=server.stopped")
    assert server.stdout == "", "stdout carries no logs"
    for port in server_config.ports.all():
        assert not is_listening(port)


def test_ready_reports_draining_during_shutdown(start_server, server_config):
    """A Trino statement page in flight (it waits up to a second for rows of a slow query)
    holds that listener's stop; the metrics listener stops last, so /ready is observable
    in between."""
    server = start_local(start_server, server_config)
    port = server_config.ports.trino_http
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    slow = ("WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
            "SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i")
    conn.request("POST", "/v1/statement", body=slow, headers={"X-Trino-User": "dev"})
    next_path = "/" + parse_json(conn.getresponse().read())["nextUri"].split("/", 3)[3]

    def page():
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", next_path, headers={"X-Trino-User": "dev"})
            c.getresponse().read()
        except OSError:
            pass

    pager = threading.Thread(target=page)
    pager.start()

    seen = []
    stop_polling = threading.Event()

    def poll():
        while not stop_polling.is_set():
            try:
                seen.append(http_get(server_config.ports.metrics, "/ready", timeout=1))
            except OSError:
                pass
            time.sleep(0.01)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        time.sleep(0.1)
        code, elapsed = server.stop(signal.SIGTERM, timeout=10)
    finally:
        stop_polling.set()
        poller.join()
        pager.join()
        conn.close()
    assert code == 0
    assert elapsed < 5
    assert (200, '{"status":"ready"}') in seen
    assert (503, '{"status":"draining"}') in seen, f"never saw draining in {len(seen)} polls"


@pytest.mark.parametrize("mode", ["local", "hybrid", "coordinator", "distributed", "worker"])
def test_every_mode_starts_and_serves_health(start_server, server_config, mode):
    args = ["--config", str(server_config.write()), "--mode", mode]
    server = start_server(args)
    server.wait_ready()
    assert server.has_line("event=server.mode", f"mode={mode}")
    assert http_get(server_config.ports.metrics, "/health")[0] == 200
    if mode == "worker":
        assert server.has_line("event=server.listening", "listener=worker_flight")
        assert not server.has_line("event=server.listening", "listener=flight_sql")
    else:
        assert server.has_line("event=server.listening", "listener=flight_sql")
    code, _ = server.stop()
    assert code == 0
