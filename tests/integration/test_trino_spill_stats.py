"""The Trino protocol's query stats report the bytes a query spilled (`spilledBytes`), as
Trino's clients and UIs show them: a GROUP BY over 3M keys under a 64MB query limit spills;
one under the default limit does not."""

from __future__ import annotations

import time

import pytest
import trino

from conftest import is_listening


def trino_stats(port: int, sql: str) -> tuple[list, dict]:
    conn = trino.dbapi.connect(host="127.0.0.1", port=port, user="alice", catalog="iceberg")
    cur = conn.cursor()
    cur.execute(sql)
    rows = cur.fetchall()
    return rows, cur.stats


GROUP_BY = ("SELECT count(*), sum(c) FROM (SELECT range % 3000000 AS k, count(*) AS c "
            "FROM range(6000000) GROUP BY 1)")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("limit,spills", [("64MB", True), ("4GB", False)],
                         ids=["spilling", "in_memory"])
def test_spilled_bytes_in_trino_query_stats(tmp_path, start_server, server_config, limit,
                                            spills):
    spill = tmp_path / "spill"
    env = {"SQE_QUERY__MAX_QUERY_MEMORY": limit, "SQE_WORKER__SPILL_DIR": str(spill)}
    server = start_server(["--config", str(server_config.write())], env=env)
    server.wait_ready()
    port = server_config.ports.trino_http
    deadline = time.monotonic() + 10
    while not is_listening(port) and time.monotonic() < deadline:
        time.sleep(0.05)
    rows, stats = trino_stats(port, GROUP_BY)
    assert rows == [[3000000, 6000000]]
    if spills:
        assert stats["spilledBytes"] > 1 << 20, stats
    else:
        assert stats["spilledBytes"] == 0, stats
