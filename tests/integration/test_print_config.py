"""--print-config prints TOML on stdout reflecting --set > environment > file > defaults."""

import tomllib

import pytest

from conftest import run_cli


def print_config(server_binary, args, env=None):
    result = run_cli(server_binary, ["--print-config", *args], env=env)
    assert result.returncode == 0, result.stderr
    return tomllib.loads(result.stdout), result


def test_output_is_toml_with_every_section(server_binary, server_config):
    config, result = print_config(server_binary, ["--config", str(server_config.write())])
    for section in ["coordinator", "worker", "auth", "catalog", "storage", "access_control",
                    "policy", "session", "query", "query_cache", "query_history", "rate_limit",
                    "metrics", "maintenance"]:
        assert section in config, f"[{section}] missing"
    assert "event=" not in result.stdout, "no log lines on stdout"


def test_defaults_apply_where_nothing_is_set(server_binary, server_config):
    config, _ = print_config(server_binary, ["--config", str(server_config.write())])
    assert config["query"]["max_result_rows"] == 1000000
    assert config["query"]["timeout_secs"] == 300
    assert config["session"]["idle_timeout_secs"] == 900
    assert config["maintenance"]["mode"] == "off"


@pytest.mark.parametrize("layers,expected", [
    ({"file"}, 111),
    ({"file", "env"}, 222),
    ({"file", "env", "set"}, 333),
    ({"env", "set"}, 333),
    ({"set"}, 333),
    ({"env"}, 222),
    (set(), 300),
], ids=lambda v: "+".join(sorted(v)) if isinstance(v, set) else str(v))
def test_precedence_set_over_env_over_file_over_defaults(server_binary, server_config,
                                                        layers, expected):
    if "file" in layers:
        server_config.extra_toml = "[query]\ntimeout_secs = 111\n"
    args = ["--config", str(server_config.write())]
    env = {"SQE_QUERY__TIMEOUT_SECS": "222"} if "env" in layers else {}
    if "set" in layers:
        args += ["--set", "query.timeout_secs=333"]
    config, _ = print_config(server_binary, args, env)
    assert config["query"]["timeout_secs"] == expected


def test_mode_flag_overrides_env_and_file(server_binary, server_config):
    server_config.mode = "hybrid"
    path = str(server_config.write())
    config, _ = print_config(server_binary, ["--config", path])
    assert config["coordinator"]["mode"] == "hybrid"
    config, _ = print_config(server_binary, ["--config", path],
                             env={"SQE_COORDINATOR__MODE": "coordinator"})
    assert config["coordinator"]["mode"] == "coordinator"
    config, _ = print_config(server_binary, ["--config", path, "--mode", "local"],
                             env={"SQE_COORDINATOR__MODE": "coordinator"})
    assert config["coordinator"]["mode"] == "local"


def test_set_and_env_reach_other_types(server_binary, server_config):
    args = ["--config", str(server_config.write()),
            "--set", "query_cache.enabled=true", "--set", "query.max_query_memory=512MB"]
    config, _ = print_config(server_binary, args, env={"SQE_RATE_LIMIT__ENABLED": "yes"})
    assert config["query_cache"]["enabled"] is True
    assert config["rate_limit"]["enabled"] is True
    assert config["query"]["max_query_memory"] in ("512MB", 512 * 1024 * 1024)


def test_config_from_sqe_config_env(server_binary, server_config):
    server_config.extra_toml = "[query]\ntimeout_secs = 444\n"
    path = server_config.write()
    config, _ = print_config(server_binary, [], env={"SQE_CONFIG": str(path)})
    assert config["query"]["timeout_secs"] == 444
