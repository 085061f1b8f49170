"""WITH RECURSIVE over the Trino protocol: the depth limit fails with Trino's message naming
the session property, and raising max_recursion_depth (SET SESSION or the client's session
properties) lets the query finish.
"""

from __future__ import annotations

import pytest
from trino.exceptions import TrinoQueryError

from test_trino_protocol import connect, run, wait_listening

pytestmark = pytest.mark.timeout(60)

COUNT_TO_50 = ("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 50) "
               "SELECT count(*), max(n) FROM t")


@pytest.fixture
def server(start_server, server_config):
    s = start_server(["--config", str(server_config.write())])
    s.wait_ready()
    wait_listening(server_config.ports.trino_http)
    return s


def test_depth_limit_and_session_property(server, server_config):
    conn = connect(server_config)
    with pytest.raises(TrinoQueryError) as failed:
        run(conn, COUNT_TO_50)
    assert "Recursion depth limit exceeded (10)" in failed.value.message
    assert "max_recursion_depth" in failed.value.message
    run(conn, "SET SESSION max_recursion_depth = 60")
    assert run(conn, COUNT_TO_50)[1] == [[50, 50]]
    scoped = connect(server_config, session_properties={"max_recursion_depth": "100"})
    assert run(scoped, COUNT_TO_50)[1] == [[50, 50]]
    _, rows = run(scoped, "SHOW SESSION LIKE 'max_recursion_depth'")
    assert rows[0][0] == "max_recursion_depth" and rows[0][1] == "100"


def test_graph_reachability_with_union(server, server_config):
    conn = connect(server_config)
    _, rows = run(conn, "WITH RECURSIVE e(a, b) AS (VALUES (1, 2), (2, 3), (3, 1), (4, 5)), "
                        "r(n) AS (SELECT 1 UNION SELECT e.b FROM r JOIN e ON e.a = r.n) "
                        "SELECT n FROM r ORDER BY n")
    assert rows == [[1], [2], [3]]
