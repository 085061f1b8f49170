"""Iceberg metadata tables, time travel and hidden columns, through sqe-shell.

A partitioned table gets three snapshots from SQL INSERTs; pyiceberg (SqlCatalog on the same
embedded warehouse, <warehouse>/sqe_catalog.db) then tags the first snapshot, branches from
the second and appends a row to that branch only. The metadata tables SQE serves
("t$snapshots", $history, $files, $manifests, $partitions, $refs, $properties) are compared
with what pyiceberg's `inspect` reports for the same table; time travel by snapshot id,
timestamp, tag and branch returns the rows of that snapshot; the hidden columns "$path" and
"$file_modified_time" name each row's data file and its modification time.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(180)

REPO = Path(__file__).resolve().parents[2]
SHELL = Path(os.environ.get("SQE_SHELL_BIN", REPO / "build/release/src/main/sqe-shell"))

INSERTS = [
    [(1, "a"), (2, "b")],
    [(3, "a")],
    [(4, "c"), (5, "b"), (6, None)],
]


def run_shell(warehouse: Path, sql: str) -> subprocess.CompletedProcess:
    if not SHELL.is_file():
        pytest.fail(f"sqe-shell not built at {SHELL} (cmake --build build/release --target sqe-shell)")
    return subprocess.run([str(SHELL), "--warehouse", str(warehouse), "--format", "jsonl", "-c", sql],
                          capture_output=True, text=True, timeout=120)


def shell(warehouse: Path, sql: str) -> list[list]:
    """The jsonl rows of `sql` (one statement or several separated by ';')."""
    r = run_shell(warehouse, sql)
    assert r.returncode == 0, f"sqe-shell failed on:\n{sql}\n{r.stderr}"
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def shell_error(warehouse: Path, sql: str) -> str:
    r = run_shell(warehouse, sql)
    assert r.returncode != 0, f"expected an error from:\n{sql}\ngot:\n{r.stdout}"
    return r.stderr


def micros(text: str) -> int:
    """'2024-01-01 10:00:00.123000 UTC' -> microseconds since the epoch."""
    dt = datetime.datetime.strptime(text.removesuffix(" UTC"), "%Y-%m-%d %H:%M:%S.%f")
    dt = dt.replace(tzinfo=datetime.timezone.utc)
    return int(dt.timestamp()) * 1_000_000 + dt.microsecond


def int_map(m) -> dict[int, object] | None:
    return None if m is None else {int(k): v for k, v in (m.items() if isinstance(m, dict) else m)}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """(warehouse, pyiceberg table, snapshot ids in commit order, branch-only snapshot id)."""
    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    warehouse = tmp_path_factory.mktemp("meta") / "wh"
    shell(warehouse, "CREATE SCHEMA s; CREATE TABLE s.t (id bigint, name varchar) "
                     "WITH (partitioning = ARRAY['name'])")
    for rows in INSERTS:
        values = ", ".join(f"({i}, {'NULL' if n is None else repr(n)})" for i, n in rows)
        shell(warehouse, f"INSERT INTO s.t VALUES {values}")
        time.sleep(0.05)  # distinct commit milliseconds for FOR TIMESTAMP AS OF
    catalog = SqlCatalog("iceberg", uri=f"sqlite:///{warehouse}/sqe_catalog.db",
                         warehouse=f"file://{warehouse}")
    tbl = catalog.load_table("s.t")
    ids = [s.snapshot_id for s in sorted(tbl.metadata.snapshots, key=lambda s: s.timestamp_ms)]
    assert len(ids) == 3
    tbl.manage_snapshots().create_tag(ids[0], "v1").create_branch(ids[1], "b2").commit()
    tbl = catalog.load_table("s.t")
    arrow = pa.table({"id": pa.array([100], pa.int64()), "name": pa.array(["z"], pa.string())},
                     schema=tbl.schema().as_arrow())
    tbl.append(arrow, branch="b2")
    tbl = catalog.load_table("s.t")
    branch_snapshot = tbl.metadata.refs["b2"].snapshot_id
    assert branch_snapshot not in ids
    return warehouse, tbl, ids, branch_snapshot


def test_snapshots_match_pyiceberg(table):
    warehouse, tbl, ids, branch_snapshot = table
    got = {r[1]: r for r in shell(warehouse, 'SELECT * FROM s."t$snapshots"')}
    expected = tbl.inspect.snapshots().to_pylist()
    assert set(got) == {e["snapshot_id"] for e in expected} == set(ids) | {branch_snapshot}
    for e in expected:
        committed_at, snapshot_id, parent_id, operation, manifest_list, summary = got[e["snapshot_id"]]
        assert parent_id == e["parent_id"]
        assert operation == e["operation"] == "append"
        assert manifest_list == e["manifest_list"]
        assert summary == dict(e["summary"])
        assert micros(committed_at) // 1000 == int(e["committed_at"].timestamp() * 1000 + 0.5)
    # The typed columns work in expressions.
    rows = shell(warehouse, 'SELECT count(*), max(committed_at) > min(committed_at) '
                            'FROM s."t$snapshots" WHERE operation = \'append\'')
    assert rows == [[4, True]]
    # summary is a map(varchar, varchar).
    rows = shell(warehouse, "SELECT summary['total-records'], element_at(summary, 'added-records') "
                            f'FROM s."t$snapshots" WHERE snapshot_id = {ids[2]}')
    assert rows == [["6", "3"]]


def test_history_matches_pyiceberg(table):
    warehouse, tbl, ids, branch_snapshot = table
    got = shell(warehouse, 'SELECT snapshot_id, parent_id, is_current_ancestor, made_current_at '
                           'FROM s."t$history" ORDER BY made_current_at')
    expected = tbl.inspect.history().to_pylist()
    assert [r[:3] for r in got] == [[e["snapshot_id"], e["parent_id"], e["is_current_ancestor"]]
                                    for e in expected]
    assert [r[0] for r in got] == ids  # the branch commit never became current
    assert all(r[2] for r in got)


def test_refs_match_pyiceberg(table):
    warehouse, tbl, ids, branch_snapshot = table
    got = shell(warehouse, 'SELECT * FROM s."t$refs" ORDER BY name')
    expected = sorted(tbl.inspect.refs().to_pylist(), key=lambda e: e["name"])
    assert got == [[e["name"], e["type"], e["snapshot_id"], e["max_reference_age_in_ms"],
                    e["min_snapshots_to_keep"], e["max_snapshot_age_in_ms"]] for e in expected]
    assert [r[:3] for r in got] == [["b2", "BRANCH", branch_snapshot], ["main", "BRANCH", ids[2]],
                                    ["v1", "TAG", ids[0]]]


def test_properties(table):
    warehouse, tbl, _, _ = table
    got = dict(tuple(r) for r in shell(warehouse, 'SELECT key, value FROM s."t$properties"'))
    assert got == dict(tbl.properties)


def test_files_match_pyiceberg(table):
    warehouse, tbl, _, _ = table
    cols = ("content, file_path, file_format, spec_id, partition, record_count, file_size_in_bytes, "
            "column_sizes, value_counts, null_value_counts, nan_value_counts, lower_bounds, "
            "upper_bounds, key_metadata, split_offsets, equality_ids, sort_order_id")
    got = {r[1]: r for r in shell(warehouse, f'SELECT {cols} FROM s."t$files"')}
    expected = tbl.inspect.files().to_pylist()
    assert set(got) == {e["file_path"] for e in expected}
    assert len(got) == 6  # one file per partition per insert: a, b | a | c, b, NULL
    for e in expected:
        (content, _, file_format, spec_id, partition, record_count, size, column_sizes,
         value_counts, null_counts, nan_counts, lower, upper, key_metadata, split_offsets,
         equality_ids, sort_order_id) = got[e["file_path"]]
        assert content == e["content"] == 0
        assert file_format == e["file_format"]
        assert spec_id == e["spec_id"]
        assert partition == e["partition"]
        assert record_count == e["record_count"]
        assert size == e["file_size_in_bytes"]
        assert int_map(column_sizes) == int_map(e["column_sizes"])
        assert int_map(value_counts) == int_map(e["value_counts"])
        assert int_map(null_counts) == int_map(e["null_value_counts"])
        assert (int_map(nan_counts) or None) == (int_map(e["nan_value_counts"]) or None)
        assert key_metadata is None and equality_ids is None
        assert split_offsets == e["split_offsets"]
        # Bounds as readable text: id's bounds are numbers, name's the partition value.
        readable = e["readable_metrics"]
        assert int(int_map(lower)[1]) == readable["id"]["lower_bound"]
        assert int(int_map(upper)[1]) == readable["id"]["upper_bound"]
        if partition["name"] is not None:
            assert int_map(lower)[2] == int_map(upper)[2] == partition["name"]


def test_manifests_match_pyiceberg(table):
    warehouse, tbl, _, _ = table
    got = {r[1]: r for r in shell(
        warehouse, 'SELECT content, path, length, partition_spec_id, added_snapshot_id, '
                   'added_data_files_count, existing_data_files_count, deleted_data_files_count, '
                   'added_delete_files_count, existing_delete_files_count, '
                   'deleted_delete_files_count, partition_summaries, added_rows_count '
                   'FROM s."t$manifests"')}
    expected = tbl.inspect.manifests().to_pylist()
    assert set(got) == {e["path"] for e in expected}
    for e in expected:
        r = got[e["path"]]
        assert r[:11] == [e["content"], e["path"], e["length"], e["partition_spec_id"],
                          e["added_snapshot_id"], e["added_data_files_count"],
                          e["existing_data_files_count"], e["deleted_data_files_count"],
                          e["added_delete_files_count"], e["existing_delete_files_count"],
                          e["deleted_delete_files_count"]]
        summaries = r[11]
        assert [(s["contains_null"], s["lower_bound"], s["upper_bound"]) for s in summaries] == \
            [(s["contains_null"], s["lower_bound"], s["upper_bound"]) for s in e["partition_summaries"]]
    assert sum(r[12] for r in got.values()) == sum(len(rows) for rows in INSERTS)


def test_partitions_match_pyiceberg(table):
    warehouse, tbl, _, _ = table
    got = shell(warehouse, 'SELECT partition, record_count, file_count, total_size '
                           'FROM s."t$partitions"')
    expected = tbl.inspect.partitions().to_pylist()
    key = lambda p: (p["name"] is None, p["name"] or "")  # noqa: E731
    assert sorted(([r[0], r[1], r[2], r[3]] for r in got), key=lambda r: key(r[0])) == sorted(
        ([e["partition"], e["record_count"], e["file_count"], e["total_data_file_size_in_bytes"]]
         for e in expected), key=lambda r: key(r[0]))
    assert {r[0]["name"]: r[1] for r in got} == {"a": 2, "b": 2, "c": 1, None: 1}
    assert shell(warehouse, 'SELECT sum(record_count), sum(file_count) FROM s."t$partitions"') == [
        [6, 6]]


def test_unknown_metadata_table(table):
    warehouse, _, _, _ = table
    err = shell_error(warehouse, 'SELECT * FROM s."t$nope"')
    assert "'$nope'" in err and "$snapshots" in err and "$refs" in err
    err = shell_error(warehouse, 'SELECT * FROM s."missing$snapshots"')
    assert "does not exist" in err


def ids_of(warehouse: Path, suffix: str) -> list[int]:
    return [r[0] for r in shell(warehouse, f"SELECT id FROM s.t {suffix} ORDER BY id")]


def test_time_travel_by_snapshot_id(table):
    warehouse, _, ids, branch_snapshot = table
    assert ids_of(warehouse, f"FOR VERSION AS OF {ids[0]}") == [1, 2]
    assert ids_of(warehouse, f"FOR VERSION AS OF {ids[1]}") == [1, 2, 3]
    assert ids_of(warehouse, "") == [1, 2, 3, 4, 5, 6]
    assert ids_of(warehouse, f"FOR VERSION AS OF {branch_snapshot}") == [1, 2, 3, 100]
    err = shell_error(warehouse, "SELECT * FROM s.t FOR VERSION AS OF 12345")
    assert "12345" in err and "does not exist" in err


def test_time_travel_by_tag_and_branch(table):
    warehouse, _, _, _ = table
    assert ids_of(warehouse, "FOR VERSION AS OF 'v1'") == [1, 2]
    assert ids_of(warehouse, "FOR VERSION AS OF 'b2'") == [1, 2, 3, 100]
    assert ids_of(warehouse, "FOR VERSION AS OF 'main'") == [1, 2, 3, 4, 5, 6]
    err = shell_error(warehouse, "SELECT * FROM s.t FOR VERSION AS OF 'nope'")
    assert "'nope'" in err and "b2" in err and "v1" in err


def test_time_travel_by_timestamp(table):
    warehouse, tbl, ids, _ = table
    log = {e.snapshot_id: e.timestamp_ms for e in tbl.metadata.snapshot_log}

    def at(ms: int) -> str:
        text = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M:%S.%f")
        return f"FOR TIMESTAMP AS OF CAST('{text} UTC' AS timestamp(6) with time zone)"

    assert ids_of(warehouse, at(log[ids[0]])) == [1, 2]
    assert ids_of(warehouse, at(log[ids[1]] - 1)) == [1, 2]
    assert ids_of(warehouse, at(log[ids[1]])) == [1, 2, 3]
    assert ids_of(warehouse, at(log[ids[2]] + 1000)) == [1, 2, 3, 4, 5, 6]
    err = shell_error(warehouse, f"SELECT * FROM s.t {at(log[ids[0]] - 1)}")
    assert "No version history" in err and "first snapshot" in err
    err = shell_error(warehouse, "SELECT * FROM s.t FOR TIMESTAMP AS OF DATE '2001-01-01'")
    assert "No version history" in err
    err = shell_error(warehouse, f'SELECT * FROM s."t$files" FOR VERSION AS OF {ids[0]}')
    assert "not supported" in err


def test_hidden_columns(table):
    warehouse, tbl, _, _ = table
    files = {e["file_path"]: e["record_count"] for e in tbl.inspect.files().to_pylist()}
    # Not part of SELECT *.
    assert all(len(r) == 2 for r in shell(warehouse, "SELECT * FROM s.t"))
    got = shell(warehouse, 'SELECT "$path", count(*) FROM s.t GROUP BY 1')
    assert {p: n for p, n in got} == files
    path = next(iter(files))
    rows = shell(warehouse, f"SELECT id, \"$path\" FROM s.t WHERE \"$path\" = '{path}'")
    assert len(rows) == files[path] and all(r[1] == path for r in rows)
    # $file_modified_time is the data file's modification time.
    got = shell(warehouse, 'SELECT DISTINCT "$path", "$file_modified_time" FROM s.t')
    assert len(got) == len(files)
    for p, modified in got:
        assert micros(modified) == os.stat(p).st_mtime_ns // 1000
    assert shell(warehouse, 'SELECT count(*) FROM s.t WHERE "$file_modified_time" > '
                            "CAST('2001-01-01 00:00:00 UTC' AS timestamp(6) with time zone)") == [[6]]
    # Qualified, with time travel, and beside aliased columns.
    assert shell(warehouse, f'SELECT count(DISTINCT x."$path") FROM s.t FOR VERSION AS OF \'v1\' '
                            'AS x(a, b)') == [[2]]
    assert shell(warehouse, "SELECT typeof(\"$path\"), typeof(\"$file_modified_time\") "
                            "FROM s.t LIMIT 1") == [["varchar", "timestamp(6) with time zone"]]


def test_hidden_columns_on_s3(tmp_path):
    """On S3 "$file_modified_time" is the object's Last-Modified (HEAD), "$path" its s3:// URI."""
    from s3_servers import S3rverServer
    with S3rverServer(tmp_path / "s3rver", buckets=["lake"]) as s3:
        env = dict(os.environ, AWS_ACCESS_KEY_ID=s3.access_key, AWS_SECRET_ACCESS_KEY=s3.secret_key,
                   SQE_CATALOG__BACKEND__TYPE="jdbc",
                   SQE_CATALOG__BACKEND__URL=f"sqlite:{tmp_path / 'catalog.db'}",
                   SQE_CATALOG__BACKEND__WAREHOUSE="s3://lake/wh", SQE_STORAGE__S3_ENDPOINT=s3.endpoint,
                   SQE_STORAGE__S3_ALLOW_HTTP="true")
        before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        sql = ("CREATE SCHEMA s; CREATE TABLE s.t (id bigint); INSERT INTO s.t VALUES (1), (2); "
               'SELECT "$path", "$file_modified_time", count(*) FROM s.t GROUP BY 1, 2')
        r = subprocess.run([str(SHELL), "--format", "jsonl", "-c", sql], capture_output=True,
                           text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        rows = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
        path, modified, count = rows[-1]
        assert path.startswith("s3://lake/wh/s/t/data/") and count == 2
        when = micros(modified) / 1e6
        assert before.timestamp() - 5 <= when <= time.time() + 5
