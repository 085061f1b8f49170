"""Exit codes and output streams: 0 ok, 1 error, 2 usage; stdout only for command output."""

import pytest

from conftest import run_cli


def test_check_config_on_a_good_config_exits_0(server_binary, server_config):
    result = run_cli(server_binary, ["--check-config", "--config", str(server_config.write())])
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "configuration OK" in result.stderr


def test_check_config_reports_every_error_and_exits_1(server_binary, server_config):
    server_config.extra_toml = """
[query]
sort_mode = "sideways"

[session]
persistence = "carrier-pigeon"
"""
    result = run_cli(server_binary, ["--check-config", "--config", str(server_config.write())])
    assert result.returncode == 1
    assert result.stdout == ""
    assert "query.sort_mode" in result.stderr
    assert "session.persistence" in result.stderr, "all errors, not only the first"
    assert "configuration invalid" in result.stderr


def test_starting_with_a_bad_config_exits_1_without_listening(server_binary, server_config):
    server_config.extra_toml = '[query]\nsort_mode = "sideways"\n'
    result = run_cli(server_binary, ["--config", str(server_config.write())])
    assert result.returncode == 1
    assert "query.sort_mode" in result.stderr
    assert "event=server.listening" not in result.stderr


def test_missing_config_file_exits_1(server_binary, tmp_path):
    result = run_cli(server_binary, ["--check-config", "--config", str(tmp_path / "nope.toml")])
    assert result.returncode == 1
    assert "nope.toml" in result.stderr


def test_malformed_toml_exits_1(server_binary, tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[coordinator\nflight_sql_port = \n")
    result = run_cli(server_binary, ["--check-config", "--config", str(path)])
    assert result.returncode == 1
    assert result.stderr.strip()


@pytest.mark.parametrize("args", [
    ["--no-such-flag"],
    ["--mode", "sideways"],
    ["--config"],
    ["--set", "query.timeout_secs=5", "stray-positional"],
    ["--check-config", "--print-config"],
], ids=["unknown-flag", "bad-mode", "missing-value", "stray-arg", "exclusive"])
def test_usage_errors_exit_2(server_binary, args):
    result = run_cli(server_binary, args)
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert result.stderr.strip()


def test_version_and_help_exit_0_on_stdout(server_binary):
    version = run_cli(server_binary, ["--version"])
    assert version.returncode == 0
    assert version.stdout.strip() == "sqe-server 0.1.0"
    help_ = run_cli(server_binary, ["--help"])
    assert help_.returncode == 0
    for flag in ["--config", "--mode", "--set", "--check-config", "--print-config", "--version"]:
        assert flag in help_.stdout


def test_bad_set_override_exits_1(server_binary, server_config):
    result = run_cli(server_binary, ["--check-config", "--config", str(server_config.write()),
                                     "--set", "query.no_such_field=1"])
    assert result.returncode == 1
    assert "query.no_such_field" in result.stderr
