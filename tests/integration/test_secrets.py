"""No configured secret ever reaches --print-config output or a log line.

Every secret field gets a distinctive value, given three ways: inline in the TOML file, by
environment variable, and by a `<field>_file`. Then --print-config, --check-config and a
full server start/stop run, and their stdout and stderr must contain none of the values
(--print-config shows "***" instead, which also proves each value was picked up).
"""

import tomllib

import pytest

from conftest import run_cli

# (dotted path, TOML table it lives in, key, env var, distinctive value)
SECRETS = [
    ("auth.client_secret", "auth", "client_secret", "SQE_AUTH__CLIENT_SECRET",
     "sqe-t-auth-cs-4b1e9d"),
    ("auth.providers.1.client_secret", "provider", "client_secret",
     "SQE_AUTH__PROVIDERS__1__CLIENT_SECRET", "sqe-t-prov-cs-77c0aa"),
    ("coordinator.worker_secret", "coordinator", "worker_secret",
     "SQE_COORDINATOR__WORKER_SECRET", "sqe-t-worker-5e2f18"),
    ("storage.s3_access_key", "storage", "s3_access_key", "SQE_STORAGE__S3_ACCESS_KEY",
     "SQETAKIA0Q9Z8X7W6"),
    ("storage.s3_secret_key", "storage", "s3_secret_key", "SQE_STORAGE__S3_SECRET_KEY",
     "sqe-t-s3sk-d41d8cd98f"),
    ("maintenance.principal.client_secret", "principal", "client_secret",
     "SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET", "sqe-t-maint-cs-0c9b3e"),
]


def lookup(config, dotted):
    node = config
    for part in dotted.split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    return node


def build(server_config, tmp_path, how):
    """Fills server_config with every secret given `how`; returns the env to pass."""
    tables = {"auth": [], "provider": [], "coordinator": [], "storage": [], "principal": []}
    env = {}
    for _, table, key, env_name, value in SECRETS:
        if how == "inline":
            tables[table].append(f'{key} = "{value}"')
        elif how == "env":
            env[env_name] = value
        else:
            secret_file = tmp_path / f"{table}-{key}.secret"
            secret_file.write_text(value + "\n")
            tables[table].append(f'{key}_file = "{secret_file}"')
    server_config.coordinator_extra = "\n".join(tables["coordinator"])
    server_config.providers_extra = "\n".join([
        "",
        "[[auth.providers]]",
        'type = "oidc_m2m"',
        'token_endpoint = "http://127.0.0.1:9/oauth/token"',
        'client_id = "sqe-test-m2m"',
        *tables["provider"],
    ])
    server_config.extra_toml = "\n".join([
        "[auth]",
        'client_id = "sqe-test-client"',
        'token_endpoint = "http://127.0.0.1:9/legacy/token"',
        *tables["auth"],
        "",
        "[storage]",
        's3_endpoint = "http://127.0.0.1:9"',
        *tables["storage"],
        "",
        "[maintenance.principal]",
        'token_endpoint = "http://127.0.0.1:9/maint/token"',
        'client_id = "sqe-test-maintenance"',
        'user_id = "svc-test-maintenance"',
        'roles = ["maintenance"]',
        *tables["principal"],
    ])
    return env


def assert_no_secret(text, where):
    for dotted, *_, value in SECRETS:
        assert value not in text, f"{dotted} leaked into {where}"


HOW = ["inline", "env", "file"]


@pytest.mark.parametrize("how", HOW)
def test_print_config_redacts_every_secret(server_binary, server_config, tmp_path, how):
    env = build(server_config, tmp_path, how)
    result = run_cli(server_binary, ["--print-config", "--config", str(server_config.write())],
                     env=env)
    assert result.returncode == 0, result.stderr
    assert_no_secret(result.stdout, "--print-config stdout")
    assert_no_secret(result.stderr, "--print-config stderr")
    config = tomllib.loads(result.stdout)
    for dotted, *_ in SECRETS:
        assert lookup(config, dotted) == "***", f"{dotted} was not set ({how}) or not redacted"


@pytest.mark.parametrize("how", HOW)
def test_check_config_never_prints_a_secret(server_binary, server_config, tmp_path, how):
    env = build(server_config, tmp_path, how)
    result = run_cli(server_binary, ["--check-config", "--config", str(server_config.write())],
                     env=env)
    assert result.returncode == 0, result.stderr
    assert_no_secret(result.stdout + result.stderr, "--check-config output")


@pytest.mark.parametrize("how", HOW)
def test_invalid_config_errors_never_print_a_secret(server_binary, server_config, tmp_path,
                                                    how):
    env = build(server_config, tmp_path, how)
    server_config.extra_toml += '\n\n[query]\nsort_mode = "sideways"\n'
    result = run_cli(server_binary, ["--check-config", "--config", str(server_config.write())],
                     env=env)
    assert result.returncode == 1
    assert_no_secret(result.stdout + result.stderr, "error output")


@pytest.mark.parametrize("how", HOW)
def test_server_logs_never_print_a_secret(start_server, server_config, tmp_path, how):
    env = build(server_config, tmp_path, how)
    server = start_server(["--config", str(server_config.write())], env=env)
    server.wait_ready()
    code, _ = server.stop()
    assert code == 0
    assert_no_secret(server.stderr(), "server log")
    assert_no_secret(server.stdout, "server stdout")
