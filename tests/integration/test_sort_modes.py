"""query.sort_mode and catalog.trust_sort_order on a real sqe-server: tables SQE writes
(partitioned by an identity column; declared sorted_by with files written in key order),
queried over the Trino protocol. Each mode's EXPLAIN shows whether the scan serves the
ORDER BY (ordered_by=..., no Sort) or a Sort remains, and every mode returns the rows the
strict mode returns.
"""

from __future__ import annotations

import pytest

from test_trino_protocol import connect, run, wait_listening

pytestmark = pytest.mark.timeout(120)

SETUP = [
    "CREATE SCHEMA IF NOT EXISTS s",
    "CREATE TABLE s.p (region varchar, id bigint) WITH (partitioning = ARRAY['region'])",
    "INSERT INTO s.p VALUES ('us', 1), ('eu', 2), ('ap', 3), (NULL, 4)",
    "INSERT INTO s.p VALUES ('eu', 5), ('us', 6), ('ap', 7)",
    "CREATE TABLE s.t (id bigint, v varchar) WITH (sorted_by = ARRAY['id'])",
    "INSERT INTO s.t VALUES (20, 'u'), (21, 'v'), (22, 'w')",
    "INSERT INTO s.t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "INSERT INTO s.t VALUES (10, 'k'), (11, 'l'), (12, 'm')",
]

BY_PARTITION = "SELECT region FROM s.p ORDER BY region"
BY_SORT_ORDER = "SELECT id, v FROM s.t ORDER BY id"
TOP = "SELECT id FROM s.t ORDER BY id LIMIT 4"

# mode, trust_sort_order -> whether each query keeps its Sort (TopN for TOP).
CASES = {
    ("strict", False): {BY_PARTITION: True, BY_SORT_ORDER: True, TOP: True},
    ("strict", True): {BY_PARTITION: True, BY_SORT_ORDER: True, TOP: True},
    ("partition_only", False): {BY_PARTITION: False, BY_SORT_ORDER: True, TOP: True},
    ("adaptive", False): {BY_PARTITION: False, BY_SORT_ORDER: True, TOP: True},
    ("adaptive", True): {BY_PARTITION: False, BY_SORT_ORDER: False, TOP: False},
}

EXPECTED = {
    BY_PARTITION: [["ap"], ["ap"], ["eu"], ["eu"], ["us"], ["us"], [None]],
    BY_SORT_ORDER: [[1, "a"], [2, "b"], [3, "c"], [10, "k"], [11, "l"], [12, "m"],
                    [20, "u"], [21, "v"], [22, "w"]],
    TOP: [[1], [2], [3], [10]],
}


@pytest.mark.parametrize("mode,trust", list(CASES))
def test_sort_mode_plans_and_results(start_server, server_config, mode, trust):
    server_config.extra_toml = (f'[query]\nsort_mode = "{mode}"\n'
                                f'[catalog]\ntrust_sort_order = {str(trust).lower()}\n')
    server = start_server(["--config", str(server_config.write())])
    server.wait_ready()
    wait_listening(server_config.ports.trino_http)
    conn = connect(server_config, catalog="iceberg", schema="s")
    for statement in SETUP:
        run(conn, statement)
    for query, keeps_sort in CASES[(mode, trust)].items():
        _, plan = run(conn, "EXPLAIN " + query)
        text = plan[0][0]
        has_sort = "- Sort " in text or "- TopN " in text
        assert has_sort == keeps_sort, f"{mode}/{trust}: {query}\n{text}"
        assert ("ordered_by=" in text) == (not keeps_sort), text
        _, rows = run(conn, query)
        assert [list(r) for r in rows] == EXPECTED[query], f"{mode}/{trust}: {query}"
