"""Listeners bind first, then serve: a port problem fails the start before anything serves."""

import socket

from conftest import is_listening, run_cli


def assert_nothing_served(result, ports):
    assert "event=server.listening" not in result.stderr, result.stderr
    assert "event=server.ready" not in result.stderr
    for port in ports:
        assert not is_listening(port), f"port {port} still open after exit"


def test_flight_port_equal_to_metrics_port_is_rejected(server_binary, server_config):
    server_config.ports.flight_sql = server_config.ports.metrics
    result = run_cli(server_binary, ["--config", str(server_config.write())])
    assert result.returncode == 1, result.stderr
    assert "coordinator.flight_sql_port" in result.stderr
    assert "metrics.prometheus_port" in result.stderr
    assert_nothing_served(result, server_config.ports.all())


def test_trino_port_equal_to_metrics_port_is_rejected(server_binary, server_config):
    server_config.ports.trino_http = server_config.ports.metrics
    result = run_cli(server_binary, ["--config", str(server_config.write())])
    assert result.returncode == 1, result.stderr
    assert "coordinator.trino_http_port" in result.stderr
    assert "metrics.prometheus_port" in result.stderr
    assert_nothing_served(result, server_config.ports.all())


def hold_port(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", port))
    s.listen(1)
    return s


def test_port_taken_by_another_process_names_the_field(server_binary, server_config):
    taken = server_config.ports.trino_http
    with hold_port(taken):
        result = run_cli(server_binary, ["--config", str(server_config.write())])
        assert result.returncode == 1, result.stderr
        assert "coordinator.trino_http_port" in result.stderr
        assert str(taken) in result.stderr
        assert "address already in use" in result.stderr
        others = [p for p in server_config.ports.all() if p != taken]
        assert_nothing_served(result, others)


def test_metrics_port_taken_by_another_process(server_binary, server_config):
    taken = server_config.ports.metrics
    with hold_port(taken):
        result = run_cli(server_binary, ["--config", str(server_config.write())])
        assert result.returncode == 1, result.stderr
        assert "metrics.prometheus_port" in result.stderr
        assert str(taken) in result.stderr
        assert_nothing_served(result, [p for p in server_config.ports.all() if p != taken])


def test_second_server_on_the_same_ports_fails(server_binary, start_server, server_config):
    path = server_config.write()
    first = start_server(["--config", str(path)])
    first.wait_ready()
    result = run_cli(server_binary, ["--config", str(path)])
    assert result.returncode == 1
    assert "address already in use" in result.stderr
    assert "event=server.listening" not in result.stderr
    code, _ = first.stop()
    assert code == 0
