"""Every example configuration under docs/examples/ passes --check-config."""

from pathlib import Path

import pytest

from conftest import REPO_ROOT, run_cli

EXAMPLES_DIR = REPO_ROOT / "docs" / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.toml"))


def test_examples_directory_exists():
    assert EXAMPLES_DIR.is_dir(), f"{EXAMPLES_DIR} missing"


# An empty directory yields no parametrized case; the test above still runs.
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_passes_check_config(server_binary, example: Path):
    result = run_cli(server_binary, ["--check-config", "--config", str(example)], cwd=REPO_ROOT)
    assert result.returncode == 0, f"{example.name}:\n{result.stderr}"
