"""Iceberg manifest interop between SQE (src/iceberg/manifest) and reference readers.

fastavro (the reference Avro implementation) reads the manifests and manifest lists that
`sqe-manifest write-sample` writes for format v1, v2 and v3: the writer schemas must carry
the spec's field names and field ids (manifest_entry 0-4, data_file 100-145 with map
key/value ids 117-139, manifest_file 500-520, field_summary 508-518, partition fields with
their partition field ids), the header metadata Iceberg readers need, and the right values.

The other way round, fastavro writes manifests and manifest lists with Java-style spec
schemas (r2/r102/k117_v118/r508 record names, v1 field names such as
added_data_files_count, fields reordered) and SQE's reader must read them by field id,
applying sequence-number and snapshot-id inheritance.

If PyIceberg is installed in the peer venv, its own reader (read_manifest_list,
fetch_manifest_entry) reads our files, and manifests it writes read back through ours
(it writes equality_ids as list<long>, which our read schema accepts).

Run: SQE_MANIFEST_TOOL=build/release/src/iceberg/manifest/sqe-manifest python3 -m pytest -q \
         src/iceberg/manifest/manifest_interop_test.py
"""

import datetime
import json
import os
import struct
import subprocess

import fastavro
import pytest

TOOL = os.environ.get("SQE_MANIFEST_TOOL", "build/release/src/iceberg/manifest/sqe-manifest")
SNAPSHOT_ID = 3051729675574597004
PARENT_ID = 3051729675574597003
EPOCH = datetime.date(1970, 1, 1)

ENTRY_IDS = {"status": 0, "snapshot_id": 1, "data_file": 2, "sequence_number": 3,
             "file_sequence_number": 4}
DATA_FILE_IDS = {
    "content": 134, "file_path": 100, "file_format": 101, "partition": 102, "record_count": 103,
    "file_size_in_bytes": 104, "block_size_in_bytes": 105, "column_sizes": 108,
    "value_counts": 109, "null_value_counts": 110, "nan_value_counts": 137,
    "lower_bounds": 125, "upper_bounds": 128, "key_metadata": 131, "split_offsets": 132,
    "equality_ids": 135, "sort_order_id": 140, "first_row_id": 142,
    "referenced_data_file": 143, "content_offset": 144, "content_size_in_bytes": 145,
}
MAP_IDS = {"column_sizes": (117, 118), "value_counts": (119, 120),
           "null_value_counts": (121, 122), "nan_value_counts": (138, 139),
           "lower_bounds": (126, 127), "upper_bounds": (129, 130)}
LIST_IDS = {
    "manifest_path": 500, "manifest_length": 501, "partition_spec_id": 502,
    "added_snapshot_id": 503, "added_files_count": 504, "existing_files_count": 505,
    "deleted_files_count": 506, "partitions": 507, "added_rows_count": 512,
    "existing_rows_count": 513, "deleted_rows_count": 514, "sequence_number": 515,
    "min_sequence_number": 516, "content": 517, "key_metadata": 519, "first_row_id": 520,
}
SUMMARY_IDS = {"contains_null": 509, "contains_nan": 518, "lower_bound": 510, "upper_bound": 511}

DATA_FILE_FIELDS = {
    1: {"file_path", "file_format", "partition", "record_count", "file_size_in_bytes",
        "block_size_in_bytes", "column_sizes", "value_counts", "null_value_counts",
        "nan_value_counts", "lower_bounds", "upper_bounds", "key_metadata", "split_offsets",
        "sort_order_id"},
}
DATA_FILE_FIELDS[2] = (DATA_FILE_FIELDS[1] - {"block_size_in_bytes"}) | {
    "content", "equality_ids", "referenced_data_file"}
DATA_FILE_FIELDS[3] = DATA_FILE_FIELDS[2] | {"first_row_id", "content_offset",
                                             "content_size_in_bytes"}
LIST_FIELDS = {1: set(LIST_IDS) - {"sequence_number", "min_sequence_number", "content",
                                   "first_row_id"}}
LIST_FIELDS[2] = set(LIST_IDS) - {"first_row_id"}
LIST_FIELDS[3] = set(LIST_IDS)


def _tool(*args):
    proc = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module", autouse=True)
def _tool_exists():
    if not os.path.exists(TOOL):
        pytest.fail(f"sqe-manifest not found at {TOOL} (build it or set SQE_MANIFEST_TOOL)")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    out = tmp_path_factory.mktemp("sample")
    _tool("write-sample", str(out))
    return out


def _read(path):
    with open(path, "rb") as f:
        reader = fastavro.reader(f)
        records = list(reader)
        meta = dict(reader.metadata)
    schema = json.loads(meta["avro.schema"])
    return schema, meta, records


def _fields(record_schema):
    return {f["name"]: f for f in record_schema["fields"]}


def _branch(avro_type):
    # The non-null branch of an optional field's type.
    if isinstance(avro_type, list):
        return next(t for t in avro_type if t != "null")
    return avro_type


def _day(d):
    return (d - EPOCH).days if isinstance(d, datetime.date) else d


@pytest.mark.parametrize("version", [1, 2, 3])
def test_fastavro_reads_our_manifest_list(sample, version):
    schema, meta, records = _read(sample / f"v{version}" / "manifest-list.avro")
    assert schema["name"] == "manifest_file"
    fields = _fields(schema)
    assert set(fields) == LIST_FIELDS[version]
    for name, field in fields.items():
        assert field["field-id"] == LIST_IDS[name], name
    partitions = _branch(fields["partitions"]["type"])
    assert partitions["element-id"] == 508
    for name, field in _fields(partitions["items"]).items():
        assert field["field-id"] == SUMMARY_IDS[name], name
    assert meta["format-version"] == str(version)
    assert meta["snapshot-id"] == str(SNAPSHOT_ID)
    assert meta["parent-snapshot-id"] == str(PARENT_ID)
    if version >= 2:
        assert meta["sequence-number"] == "2"

    assert len(records) == (1 if version == 1 else 2)
    data = records[0]
    assert data["manifest_path"] == str(sample / f"v{version}" / "data-manifest.avro")
    assert data["manifest_length"] == os.path.getsize(data["manifest_path"])
    assert data["partition_spec_id"] == 0
    assert data["added_snapshot_id"] == SNAPSHOT_ID
    assert (data["added_files_count"], data["existing_files_count"],
            data["deleted_files_count"]) == (2, 1, 0)
    assert (data["added_rows_count"], data["existing_rows_count"],
            data["deleted_rows_count"]) == (150, 25, 0)
    summaries = data["partitions"]
    assert len(summaries) == 3
    assert summaries[0] == {"contains_null": True, "contains_nan": False,
                            "lower_bound": b"art", "upper_bound": b"books"}
    day = (datetime.date(2023, 11, 14) - EPOCH).days
    assert summaries[1]["contains_null"] is False
    assert summaries[1]["lower_bound"] == struct.pack("<i", day - 3)
    assert summaries[1]["upper_bound"] == struct.pack("<i", day + 1)
    if version >= 2:
        assert data["content"] == 0
        assert data["sequence_number"] == 2  # unassigned -> the snapshot's
        assert data["min_sequence_number"] == 1  # the EXISTING entry's
        deletes = records[1]
        assert deletes["content"] == 1
        assert deletes["sequence_number"] == 2 and deletes["min_sequence_number"] == 2
    if version == 3:
        assert data["first_row_id"] == 1000
        assert records[1]["first_row_id"] is None

    # Our own reader agrees with fastavro.
    ours = _tool("cat-list", str(sample / f"v{version}" / "manifest-list.avro"))
    assert [m["manifest_path"] for m in ours] == [r["manifest_path"] for r in records]
    assert ours[0]["partitions"][1]["lower_bound"] == summaries[1]["lower_bound"].hex()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_fastavro_reads_our_manifests(sample, version):
    path = sample / f"v{version}" / "data-manifest.avro"
    schema, meta, records = _read(path)
    assert schema["name"] == "manifest_entry"
    fields = _fields(schema)
    expected_entry = {"status", "snapshot_id", "data_file"}
    if version >= 2:
        expected_entry |= {"sequence_number", "file_sequence_number"}
    assert set(fields) == expected_entry
    for name, field in fields.items():
        assert field["field-id"] == ENTRY_IDS[name], name
    data_file = fields["data_file"]["type"]
    assert data_file["name"] == "r2"
    df_fields = _fields(data_file)
    assert set(df_fields) == DATA_FILE_FIELDS[version]
    for name, field in df_fields.items():
        assert field["field-id"] == DATA_FILE_IDS[name], name
        if name in MAP_IDS:
            items = _branch(field["type"])["items"]
            assert [f["field-id"] for f in items["fields"]] == list(MAP_IDS[name])
            assert [f["name"] for f in items["fields"]] == ["key", "value"]
    assert _branch(df_fields["split_offsets"]["type"])["element-id"] == 133
    partition = df_fields["partition"]["type"]
    assert partition["name"] == "r102"
    assert [(f["name"], f["field-id"]) for f in partition["fields"]] == [
        ("category", 1000), ("ts_day", 1001), ("id_bucket", 1002)]
    assert _branch(partition["fields"][1]["type"]) == {"type": "int", "logicalType": "date"}

    assert meta["format-version"] == str(version)
    assert meta["schema-id"] == "0"
    assert meta["partition-spec-id"] == "0"
    table_schema = json.loads(meta["schema"])
    assert [f["name"] for f in table_schema["fields"]] == ["id", "category", "ts", "price"]
    spec_fields = json.loads(meta["partition-spec"])
    assert [(f["name"], f["field-id"], f["source-id"], f["transform"]) for f in spec_fields] == [
        ("category", 1000, 2, "identity"), ("ts_day", 1001, 3, "day"),
        ("id_bucket", 1002, 1, "bucket[16]")]
    if version >= 2:
        assert meta["content"] == "data"

    assert [r["status"] for r in records] == [1, 1, 0]
    a = records[0]
    assert a["snapshot_id"] == SNAPSHOT_ID
    if version >= 2:
        assert a["sequence_number"] is None and a["file_sequence_number"] is None
        assert records[2]["sequence_number"] == 1
        assert a["data_file"]["content"] == 0
    else:
        assert a["data_file"]["block_size_in_bytes"] == 64 * 1024 * 1024
    f = a["data_file"]
    assert f["file_format"] == "PARQUET"
    assert f["file_path"].endswith("/data/a.parquet")
    assert f["partition"]["category"] == "books"
    assert _day(f["partition"]["ts_day"]) == (datetime.date(2023, 11, 14) - EPOCH).days
    assert f["record_count"] == 100 and f["file_size_in_bytes"] == 1100
    assert {e["key"]: e["value"] for e in f["value_counts"]} == {1: 100, 2: 100}
    lower = {e["key"]: e["value"] for e in f["lower_bounds"]}
    assert lower[1] == struct.pack("<q", 1)
    assert lower[2] == b"books"
    assert lower[3] == struct.pack("<q", 1700000000000000)
    assert lower[4] == (-1050).to_bytes(2, "big", signed=True)
    assert {e["key"]: e["value"] for e in f["upper_bounds"]}[1] == struct.pack("<q", 100)
    assert f["key_metadata"] == b"\x0a\x0b"
    assert f["split_offsets"] == [4]
    assert f["sort_order_id"] == 0
    assert records[1]["data_file"]["partition"]["category"] is None

    # Our reader's view (with inheritance from the list) matches fastavro's.
    ours = _tool("cat-manifest", str(path), "--list",
                 str(sample / f"v{version}" / "manifest-list.avro"))
    for got, raw in zip(ours, records):
        assert got["data_file"]["file_path"] == raw["data_file"]["file_path"]
        assert got["data_file"]["partition"]["id_bucket"] == raw["data_file"]["partition"][
            "id_bucket"]
        raw_lower = {str(e["key"]): e["value"].hex() for e in raw["data_file"]["lower_bounds"]}
        assert got["data_file"]["lower_bounds"] == raw_lower
        assert got["status"] == raw["status"]
    seq = 0 if version == 1 else 2
    assert [e["sequence_number"] for e in ours] == [seq, seq, 0 if version == 1 else 1]
    if version == 3:
        assert [e["data_file"]["first_row_id"] for e in ours] == [1000, 1100, 1150]


@pytest.mark.parametrize("version", [2, 3])
def test_fastavro_reads_our_delete_manifests(sample, version):
    schema, meta, records = _read(sample / f"v{version}" / "delete-manifest.avro")
    assert meta["content"] == "deletes"
    contents = [r["data_file"]["content"] for r in records]
    assert contents == ([2, 1] if version == 2 else [2, 1, 1])
    assert records[0]["data_file"]["equality_ids"] == [1]
    assert records[1]["data_file"]["referenced_data_file"].endswith("/data/a.parquet")
    if version == 3:
        dv = records[2]["data_file"]
        assert dv["file_format"] == "PUFFIN"
        assert (dv["content_offset"], dv["content_size_in_bytes"]) == (4, 42)


# --- files fastavro writes with Java-style spec schemas, read by SQE ---------------------


def _opt(name, avro_type, field_id):
    return {"name": name, "type": ["null", avro_type], "default": None, "field-id": field_id}


def _req(name, avro_type, field_id):
    return {"name": name, "type": avro_type, "field-id": field_id}


def _int_map(key_id, value_id, value_type):
    return {"type": "array", "logicalType": "map", "items": {
        "type": "record", "name": f"k{key_id}_v{value_id}",
        "fields": [_req("key", "int", key_id), _req("value", value_type, value_id)]}}


PARTITION_RECORD = {"type": "record", "name": "r102", "fields": [
    _opt("category", "string", 1000),
    _opt("ts_day", {"type": "int", "logicalType": "date"}, 1001),
    _opt("id_bucket", "int", 1002),
]}

# Java's V2 manifest_entry, with file_format/file_path and the bounds swapped round to show
# that fields are matched by id, not position.
JAVA_V2_ENTRY = {"type": "record", "name": "manifest_entry", "fields": [
    _req("status", "int", 0),
    _opt("snapshot_id", "long", 1),
    _opt("sequence_number", "long", 3),
    _opt("file_sequence_number", "long", 4),
    _req("data_file", {"type": "record", "name": "r2", "fields": [
        _req("content", "int", 134),
        _req("file_format", "string", 101),
        _req("file_path", "string", 100),
        _req("partition", PARTITION_RECORD, 102),
        _req("record_count", "long", 103),
        _req("file_size_in_bytes", "long", 104),
        _opt("column_sizes", _int_map(117, 118, "long"), 108),
        _opt("value_counts", _int_map(119, 120, "long"), 109),
        _opt("null_value_counts", _int_map(121, 122, "long"), 110),
        _opt("nan_value_counts", _int_map(138, 139, "long"), 137),
        _opt("upper_bounds", _int_map(129, 130, "bytes"), 128),
        _opt("lower_bounds", _int_map(126, 127, "bytes"), 125),
        _opt("key_metadata", "bytes", 131),
        _opt("split_offsets", {"type": "array", "items": "long", "element-id": 133}, 132),
        _opt("equality_ids", {"type": "array", "items": "int", "element-id": 136}, 135),
        _opt("sort_order_id", "int", 140),
        _opt("referenced_data_file", "string", 143),
    ]}, 2),
]}

JAVA_V1_ENTRY = {"type": "record", "name": "manifest_entry", "fields": [
    _req("status", "int", 0),
    _req("snapshot_id", "long", 1),
    _req("data_file", {"type": "record", "name": "r2", "fields": [
        _req("file_path", "string", 100),
        _req("file_format", "string", 101),
        _req("partition", PARTITION_RECORD, 102),
        _req("record_count", "long", 103),
        _req("file_size_in_bytes", "long", 104),
        _req("block_size_in_bytes", "long", 105),
        _opt("value_counts", _int_map(119, 120, "long"), 109),
        _opt("lower_bounds", _int_map(126, 127, "bytes"), 125),
    ]}, 2),
]}

FIELD_SUMMARY = {"type": "array", "element-id": 508, "items": {
    "type": "record", "name": "r508", "fields": [
        _req("contains_null", "boolean", 509),
        _opt("contains_nan", "boolean", 518),
        _opt("lower_bound", "bytes", 510),
        _opt("upper_bound", "bytes", 511)]}}

JAVA_V2_LIST = {"type": "record", "name": "manifest_file", "fields": [
    _req("manifest_path", "string", 500),
    _req("manifest_length", "long", 501),
    _req("partition_spec_id", "int", 502),
    _req("content", "int", 517),
    _req("sequence_number", "long", 515),
    _req("min_sequence_number", "long", 516),
    _req("added_snapshot_id", "long", 503),
    _req("added_files_count", "int", 504),
    _req("existing_files_count", "int", 505),
    _req("deleted_files_count", "int", 506),
    _req("added_rows_count", "long", 512),
    _req("existing_rows_count", "long", 513),
    _req("deleted_rows_count", "long", 514),
    _opt("partitions", FIELD_SUMMARY, 507),
    _opt("key_metadata", "bytes", 519),
]}

# Old Java v1 lists named the counts added_data_files_count etc.
JAVA_V1_LIST = {"type": "record", "name": "manifest_file", "fields": [
    _req("manifest_path", "string", 500),
    _req("manifest_length", "long", 501),
    _req("partition_spec_id", "int", 502),
    _req("added_snapshot_id", "long", 503),
    _opt("added_data_files_count", "int", 504),
    _opt("existing_data_files_count", "int", 505),
    _opt("deleted_data_files_count", "int", 506),
    _opt("partitions", FIELD_SUMMARY, 507),
    _opt("added_rows_count", "long", 512),
    _opt("existing_rows_count", "long", 513),
    _opt("deleted_rows_count", "long", 514),
]}

TABLE_SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "category", "required": False, "type": "string"},
    {"id": 3, "name": "ts", "required": False, "type": "timestamptz"},
]}
SPEC_FIELDS = [
    {"name": "category", "transform": "identity", "source-id": 2, "field-id": 1000},
    {"name": "ts_day", "transform": "day", "source-id": 3, "field-id": 1001},
    {"name": "id_bucket", "transform": "bucket[16]", "source-id": 1, "field-id": 1002},
]


def _write(path, schema, records, metadata):
    with open(path, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(schema), records, codec="deflate",
                        metadata=metadata)


def _manifest_meta(version):
    meta = {"schema": json.dumps(TABLE_SCHEMA), "schema-id": "0",
            "partition-spec": json.dumps(SPEC_FIELDS), "partition-spec-id": "0",
            "format-version": str(version)}
    if version >= 2:
        meta["content"] = "data"
    return meta


def _data_file(path, category, day, bucket, rows, v2=True):
    f = {"file_path": path, "file_format": "PARQUET",
         "partition": {"category": category, "ts_day": EPOCH + datetime.timedelta(days=day),
                       "id_bucket": bucket},
         "record_count": rows, "file_size_in_bytes": 10 * rows,
         "value_counts": [{"key": 1, "value": rows}],
         "lower_bounds": [{"key": 1, "value": struct.pack("<q", 7)},
                          {"key": 2, "value": b"aa"}]}
    if v2:
        f.update({"content": 0, "upper_bounds": [{"key": 1, "value": struct.pack("<q", 9)}],
                  "split_offsets": [4, 64], "sort_order_id": 1, "key_metadata": b"\x01"})
    else:
        f["block_size_in_bytes"] = 67108864
    return f


def test_we_read_java_style_v2_manifests(tmp_path):
    manifest = tmp_path / "m0.avro"
    _write(manifest, JAVA_V2_ENTRY, [
        {"status": 1, "snapshot_id": None, "sequence_number": None,
         "file_sequence_number": None, "data_file": _data_file("s3://b/a.parquet", "x", 19000, 3, 10)},
        {"status": 0, "snapshot_id": 70, "sequence_number": 3, "file_sequence_number": 4,
         "data_file": _data_file("s3://b/b.parquet", None, 19001, 5, 20)},
        {"status": 2, "snapshot_id": 77, "sequence_number": 2, "file_sequence_number": 2,
         "data_file": _data_file("s3://b/c.parquet", "y", 18000, 0, 30)},
    ], _manifest_meta(2))
    listing = tmp_path / "snap-77.avro"
    _write(listing, JAVA_V2_LIST, [{
        "manifest_path": str(manifest), "manifest_length": os.path.getsize(manifest),
        "partition_spec_id": 0, "content": 0, "sequence_number": 5, "min_sequence_number": 3,
        "added_snapshot_id": 77, "added_files_count": 1, "existing_files_count": 1,
        "deleted_files_count": 1, "added_rows_count": 10, "existing_rows_count": 20,
        "deleted_rows_count": 30,
        "partitions": [
            {"contains_null": True, "contains_nan": False, "lower_bound": b"x",
             "upper_bound": b"y"},
            {"contains_null": False, "contains_nan": None, "lower_bound": None,
             "upper_bound": None},
            {"contains_null": False, "contains_nan": False, "lower_bound": struct.pack("<i", 0),
             "upper_bound": struct.pack("<i", 5)}],
        "key_metadata": None}],
        {"snapshot-id": "77", "parent-snapshot-id": "null", "sequence-number": "5",
         "format-version": "2"})

    [m] = _tool("cat-list", str(listing))
    assert m["manifest_path"] == str(manifest)
    assert (m["sequence_number"], m["min_sequence_number"], m["content"]) == (5, 3, 0)
    assert (m["added_files_count"], m["existing_files_count"], m["deleted_files_count"]) == (1, 1, 1)
    assert m["partitions"][0] == {"contains_null": True, "contains_nan": False,
                                  "lower_bound": b"x".hex(), "upper_bound": b"y".hex()}
    assert m["partitions"][1]["contains_nan"] is None
    assert m["first_row_id"] is None

    entries = _tool("cat-manifest", str(manifest), "--list", str(listing))
    assert [e["status"] for e in entries] == [1, 0, 2]
    # ADDED with nulls inherits the manifest's snapshot and sequence number; others keep theirs.
    assert [e["snapshot_id"] for e in entries] == [77, 70, 77]
    assert [e["sequence_number"] for e in entries] == [5, 3, 2]
    assert [e["file_sequence_number"] for e in entries] == [5, 4, 2]
    f = entries[0]["data_file"]
    assert f["file_path"] == "s3://b/a.parquet"
    assert f["file_format"] == "PARQUET"
    assert f["partition"] == {"category": "x", "ts_day": 19000, "id_bucket": 3}
    assert f["lower_bounds"] == {"1": struct.pack("<q", 7).hex(), "2": b"aa".hex()}
    assert f["upper_bounds"] == {"1": struct.pack("<q", 9).hex()}
    assert f["value_counts"] == {"1": 10}
    assert f["split_offsets"] == [4, 64] and f["sort_order_id"] == 1
    assert f["key_metadata"] == "01"
    assert entries[1]["data_file"]["partition"]["category"] is None

    raw = _tool("cat-manifest", str(manifest))  # no inheritance
    assert raw[0]["sequence_number"] is None and raw[0]["snapshot_id"] is None


def test_we_read_java_style_v1_files(tmp_path):
    manifest = tmp_path / "v1-m0.avro"
    _write(manifest, JAVA_V1_ENTRY, [
        {"status": 1, "snapshot_id": 11,
         "data_file": _data_file("s3://b/a.parquet", "x", 19000, 3, 10, v2=False)},
        {"status": 0, "snapshot_id": 10,
         "data_file": _data_file("s3://b/b.parquet", "z", 19002, 1, 5, v2=False)},
    ], _manifest_meta(1))
    listing = tmp_path / "v1-list.avro"
    _write(listing, JAVA_V1_LIST, [{
        "manifest_path": str(manifest), "manifest_length": os.path.getsize(manifest),
        "partition_spec_id": 0, "added_snapshot_id": 11, "added_data_files_count": 1,
        "existing_data_files_count": 1, "deleted_data_files_count": 0,
        "partitions": None, "added_rows_count": 10, "existing_rows_count": 5,
        "deleted_rows_count": None}],
        {"snapshot-id": "11", "parent-snapshot-id": "10", "format-version": "1"})

    [m] = _tool("cat-list", str(listing))
    assert (m["content"], m["sequence_number"], m["min_sequence_number"]) == (0, 0, 0)
    assert (m["added_files_count"], m["existing_files_count"], m["deleted_files_count"]) == (1, 1, 0)
    assert m["deleted_rows_count"] is None and m["partitions"] is None

    entries = _tool("cat-manifest", str(manifest), "--list", str(listing))
    assert [e["snapshot_id"] for e in entries] == [11, 10]
    assert [e["sequence_number"] for e in entries] == [0, 0]  # v1: everything is 0
    assert [e["data_file"]["content"] for e in entries] == [0, 0]
    assert entries[1]["data_file"]["partition"] == {"category": "z", "ts_day": 19002,
                                                    "id_bucket": 1}


@pytest.mark.parametrize("bad", ["status", "content", "file_format"])
def test_out_of_spec_values_are_corruption(tmp_path, bad):
    entry = {"status": 1, "snapshot_id": 1, "sequence_number": None,
             "file_sequence_number": None,
             "data_file": _data_file("s3://b/a.parquet", "x", 19000, 3, 10)}
    if bad == "status":
        entry["status"] = 7
    elif bad == "content":
        entry["data_file"]["content"] = 9
    else:
        entry["data_file"]["file_format"] = "CSV"
    manifest = tmp_path / "bad.avro"
    _write(manifest, JAVA_V2_ENTRY, [entry], _manifest_meta(2))
    proc = subprocess.run([TOOL, "cat-manifest", str(manifest)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert "Corruption" in proc.stderr and str(manifest) in proc.stderr


# --- PyIceberg, when the peer venv has it -------------------------------------------------


def test_pyiceberg_reads_our_files(sample):
    pyiceberg_manifest = pytest.importorskip("pyiceberg.manifest")
    from pyiceberg.io.pyarrow import PyArrowFileIO

    io = PyArrowFileIO()
    for version in (1, 2, 3):
        listing = str(sample / f"v{version}" / "manifest-list.avro")
        manifests = list(pyiceberg_manifest.read_manifest_list(io.new_input(listing)))
        assert len(manifests) == (1 if version == 1 else 2)
        data = manifests[0]
        assert data.added_snapshot_id == SNAPSHOT_ID
        assert data.added_files_count == 2 and data.existing_files_count == 1
        if version >= 2:
            assert data.sequence_number == 2
        entries = data.fetch_manifest_entry(io, discard_deleted=False)
        assert [e.data_file.file_path.rsplit("/", 1)[-1] for e in entries] == [
            "a.parquet", "b.parquet", "c.parquet"]
        assert entries[0].data_file.record_count == 100
        assert entries[0].data_file.partition[0] == "books"
        assert entries[0].data_file.lower_bounds[1] == struct.pack("<q", 1)
        assert entries[1].data_file.partition[0] is None
        assert entries[0].snapshot_id == SNAPSHOT_ID
        if version >= 2:
            assert entries[0].sequence_number == 2  # inherited
            assert entries[2].sequence_number == 1
            deletes = manifests[1]
            assert deletes.content == pyiceberg_manifest.ManifestContent.DELETES
            delete_entries = deletes.fetch_manifest_entry(io, discard_deleted=False)
            assert delete_entries[0].data_file.content == (
                pyiceberg_manifest.DataFileContent.EQUALITY_DELETES)
            assert list(delete_entries[0].data_file.equality_ids) == [1]
            assert delete_entries[1].data_file.content == (
                pyiceberg_manifest.DataFileContent.POSITION_DELETES)


@pytest.mark.parametrize("version", [1, 2])
def test_we_read_pyiceberg_files(tmp_path, version):
    pyiceberg_manifest = pytest.importorskip("pyiceberg.manifest")
    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform
    from pyiceberg.typedef import Record
    from pyiceberg.types import LongType, NestedField, StringType, TimestamptzType

    m = pyiceberg_manifest
    schema = Schema(NestedField(1, "id", LongType(), required=True),
                    NestedField(2, "category", StringType(), required=False),
                    NestedField(3, "ts", TimestamptzType(), required=False), schema_id=0)
    spec = PartitionSpec(PartitionField(2, 1000, IdentityTransform(), "category"),
                         PartitionField(3, 1001, DayTransform(), "ts_day"),
                         PartitionField(1, 1002, BucketTransform(16), "id_bucket"), spec_id=0)
    io = PyArrowFileIO()
    manifest_path = str(tmp_path / f"pyiceberg-v{version}-m0.avro")
    files = []
    for i, (category, day, bucket) in enumerate([("books", 19675, 4), (None, 19676, 2)]):
        files.append(m.DataFile.from_args(
            content=m.DataFileContent.DATA,
            file_path=f"s3://b/t/{i}.parquet", file_format=m.FileFormat.PARQUET,
            partition=Record(category, day, bucket), record_count=10 + i,
            file_size_in_bytes=100 + i, column_sizes={1: 80}, value_counts={1: 10 + i},
            null_value_counts={1: 0}, nan_value_counts={}, lower_bounds={1: struct.pack("<q", 1)},
            upper_bounds={1: struct.pack("<q", 10 + i)}, key_metadata=None, split_offsets=[4],
            equality_ids=None, sort_order_id=0))
    with m.write_manifest(format_version=version, spec=spec, schema=schema,
                          output_file=io.new_output(manifest_path), snapshot_id=77,
                          avro_compression="deflate") as writer:
        for f in files:
            writer.add_entry(m.ManifestEntry.from_args(
                status=m.ManifestEntryStatus.ADDED,
                snapshot_id=77, sequence_number=None, file_sequence_number=None, data_file=f))
    manifest_file = writer.to_manifest_file()
    list_path = str(tmp_path / f"pyiceberg-v{version}-list.avro")
    with m.write_manifest_list(format_version=version, output_file=io.new_output(list_path),
                               snapshot_id=77, parent_snapshot_id=None, sequence_number=5,
                               avro_compression="deflate") as list_writer:
        list_writer.add_manifests([manifest_file])

    [listed] = _tool("cat-list", list_path)
    assert listed["manifest_path"] == manifest_path
    assert listed["added_files_count"] == 2 and listed["added_rows_count"] == 21
    assert listed["sequence_number"] == (5 if version == 2 else 0)
    assert listed["partitions"][0]["contains_null"] is True
    assert listed["partitions"][0]["lower_bound"] == b"books".hex()
    entries = _tool("cat-manifest", manifest_path, "--list", list_path)
    assert [e["data_file"]["file_path"] for e in entries] == ["s3://b/t/0.parquet",
                                                              "s3://b/t/1.parquet"]
    assert [e["sequence_number"] for e in entries] == ([5, 5] if version == 2 else [0, 0])
    assert [e["snapshot_id"] for e in entries] == [77, 77]
    assert entries[0]["data_file"]["partition"] == {"category": "books", "ts_day": 19675,
                                                    "id_bucket": 4}
    assert entries[1]["data_file"]["partition"]["category"] is None
    assert entries[1]["data_file"]["upper_bounds"] == {"1": struct.pack("<q", 11).hex()}
    assert entries[0]["data_file"]["file_format"] == "PARQUET"
