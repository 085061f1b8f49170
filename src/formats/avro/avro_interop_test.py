"""Avro interop between SQE's Avro library and fastavro (an independent implementation).

Reading: fastavro writes object container files for every codec (null, deflate, snappy,
zstandard) with a schema shaped like Iceberg's manifest_entry (nested records, unions with
null, arrays of records, maps, bytes, fixed, enums, longs, logical types, field-id
attributes, user metadata); `sqe-avro cat` must print the same values fastavro reads back.
Several small blocks (sync_interval) and schema resolution (`--reader-schema`, compared
with fastavro's own resolution) are covered too.

Writing: `sqe-avro write` turns JSON lines into a container file with every codec; fastavro
must read the same values, the writer schema with its field ids and the user metadata.

JSON form printed/read by the tool (src/formats/avro/avro_json.h): bytes and fixed are
base64, enums their symbol, unions the bare value, date = days, timestamp-micros = micros.

Run: SQE_AVRO_TOOL=build/release/src/formats/avro/sqe-avro python3 -m pytest -q \
         src/formats/avro/avro_interop_test.py
"""

import base64
import copy
import datetime
import io
import json
import os
import subprocess
import uuid

import fastavro
import pytest

TOOL = os.environ.get("SQE_AVRO_TOOL", "build/release/src/formats/avro/sqe-avro")
CODECS = ["null", "deflate", "snappy", "zstandard"]
EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _map_of(name, key_id, value_id, value_type):
    # Iceberg writes maps with non-string keys as arrays of key/value records.
    return {
        "type": "array",
        "logicalType": "map",
        "items": {
            "type": "record",
            "name": name,
            "fields": [
                {"name": "key", "type": "int", "field-id": key_id},
                {"name": "value", "type": value_type, "field-id": value_id},
            ],
        },
    }


SCHEMA = {
    "type": "record",
    "name": "manifest_entry",
    "fields": [
        {"name": "status", "type": "int", "field-id": 0},
        {"name": "snapshot_id", "type": ["null", "long"], "default": None, "field-id": 1},
        {"name": "sequence_number", "type": ["null", "long"], "default": None, "field-id": 3},
        {
            "name": "data_file",
            "field-id": 2,
            "type": {
                "type": "record",
                "name": "r2",
                "fields": [
                    {"name": "content", "type": "int", "field-id": 134},
                    {"name": "file_path", "type": "string", "field-id": 100},
                    {"name": "file_format", "type": "string", "field-id": 101},
                    {
                        "name": "partition",
                        "field-id": 102,
                        "type": {
                            "type": "record",
                            "name": "r102",
                            "fields": [
                                {
                                    "name": "day",
                                    "type": ["null", {"type": "int", "logicalType": "date"}],
                                    "default": None,
                                    "field-id": 1000,
                                },
                                {"name": "bucket", "type": ["null", "int"], "default": None,
                                 "field-id": 1001},
                            ],
                        },
                    },
                    {"name": "record_count", "type": "long", "field-id": 103},
                    {"name": "file_size_in_bytes", "type": "long", "field-id": 104},
                    {"name": "column_sizes", "type": ["null", _map_of("k117_v118", 117, 118, "long")],
                     "default": None, "field-id": 108},
                    {"name": "null_value_counts", "type": ["null", _map_of("k121_v122", 121, 122, "long")],
                     "default": None, "field-id": 110},
                    {"name": "lower_bounds", "type": ["null", _map_of("k126_v127", 126, 127, "bytes")],
                     "default": None, "field-id": 125},
                    {"name": "key_metadata", "type": ["null", "bytes"], "default": None, "field-id": 131},
                    {"name": "split_offsets",
                     "type": ["null", {"type": "array", "items": "long", "element-id": 133}],
                     "default": None, "field-id": 132},
                    {"name": "properties",
                     "type": ["null", {"type": "map", "values": "string", "key-id": 141, "value-id": 142}],
                     "default": None, "field-id": 140},
                    {"name": "kind", "type": {"type": "enum", "name": "kind_t", "symbols": ["DATA", "DELETES"]},
                     "field-id": 143},
                    {"name": "hash", "type": {"type": "fixed", "name": "f8", "size": 8}, "field-id": 144},
                    {"name": "score", "type": "double", "field-id": 145},
                    {"name": "ratio", "type": "float", "field-id": 146},
                    {"name": "sorted", "type": "boolean", "field-id": 147},
                    {"name": "written_at", "type": {"type": "long", "logicalType": "timestamp-micros"},
                     "field-id": 148},
                    {"name": "uid", "type": {"type": "string", "logicalType": "uuid"}, "field-id": 149},
                ],
            },
        },
    ],
}


def _record(i):
    return {
        "status": i % 3,
        "snapshot_id": None if i % 4 == 0 else (1 << 62) + i,
        "sequence_number": None if i % 5 == 1 else i,
        "data_file": {
            "content": 0,
            "file_path": f"s3://bucket/warehouse/db/t/data/part-{i:05d}-é.parquet",
            "file_format": "PARQUET",
            "partition": {
                "day": None if i % 6 == 0 else EPOCH_DATE + datetime.timedelta(days=19000 + i),
                "bucket": i % 16,
            },
            "record_count": 1000 * i,
            "file_size_in_bytes": -i if i % 7 == 3 else 4096 + i,
            "column_sizes": [{"key": k, "value": k * 100 + i} for k in range(1, 1 + i % 4)],
            "null_value_counts": None if i % 2 else [],
            "lower_bounds": [{"key": 1, "value": bytes([i % 256, 0, 255, 10])},
                             {"key": 2, "value": b""}],
            "key_metadata": None if i % 3 else bytes(range(i % 20)),
            "split_offsets": [4, 1 << 33, -(1 << 40)] if i % 2 == 0 else None,
            "properties": {"a": "b", "n": str(i)} if i % 3 == 1 else None,
            "kind": "DATA" if i % 2 else "DELETES",
            "hash": (i * 0x0123456789).to_bytes(8, "little", signed=False),
            "score": i * 0.1 - 3.5,
            "ratio": 0.25 * (i % 9),
            "sorted": i % 2 == 0,
            "written_at": EPOCH + datetime.timedelta(microseconds=1_700_000_000_000_000 + i),
            "uid": uuid.UUID(int=i * 7919),
        },
    }


RECORDS = [_record(i) for i in range(40)]
META = {"format-version": "2", "schema": json.dumps({"type": "struct", "fields": []}),
        "partition-spec": "[]", "content": "data"}


def _norm(value):
    """Python value (as fastavro reads or writes it) -> the tool's JSON form."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, datetime.datetime):
        return (value - EPOCH) // datetime.timedelta(microseconds=1)
    if isinstance(value, datetime.date):
        return (value - EPOCH_DATE).days
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_norm(v) for v in value]
    return value


def _tool(*args, stdin=None):
    proc = subprocess.run([TOOL, *args], input=stdin, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _cat(path, *extra):
    return [json.loads(line) for line in _tool("cat", str(path), *extra).splitlines()]


@pytest.fixture(scope="module", autouse=True)
def _tool_exists():
    if not os.path.exists(TOOL):
        pytest.fail(f"sqe-avro not found at {TOOL} (build the release preset or set SQE_AVRO_TOOL)")


@pytest.mark.parametrize("codec", CODECS)
def test_we_read_fastavro_files(tmp_path, codec):
    path = tmp_path / f"fastavro-{codec}.avro"
    with open(path, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(copy.deepcopy(SCHEMA)), RECORDS, codec=codec,
                        metadata=META, sync_interval=2000)
    with open(path, "rb") as f:
        expected = [_norm(r) for r in fastavro.reader(f)]
    assert len(expected) == len(RECORDS)
    assert _cat(path) == expected
    meta = json.loads(_tool("meta", str(path)))
    assert meta["avro.codec"] == codec
    for key, value in META.items():
        assert meta[key] == value
    schema = json.loads(_tool("schema", str(path)))
    data_file = schema["fields"][3]
    assert data_file["field-id"] == 2
    assert data_file["type"]["fields"][10]["type"][1]["element-id"] == 133


@pytest.mark.parametrize("codec", CODECS)
def test_fastavro_reads_our_files(tmp_path, codec):
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(SCHEMA))
    out = tmp_path / f"sqe-{codec}.avro"
    lines = "".join(json.dumps(_norm(r)) + "\n" for r in RECORDS)
    _tool("write", "--schema", str(schema_path), "--codec", codec, "--block-records", "7",
          "--meta", "format-version=2", "--meta", "partition-spec=[]", str(out), stdin=lines)
    with open(out, "rb") as f:
        reader = fastavro.reader(f)
        got = [_norm(r) for r in reader]
        assert reader.codec == codec
        assert reader.metadata["format-version"] == "2"
        assert reader.metadata["partition-spec"] == "[]"
        written = json.loads(reader.metadata["avro.schema"])
    assert got == [_norm(r) for r in RECORDS]
    assert written["fields"][3]["type"]["fields"][1]["field-id"] == 100
    # Our reader agrees with itself on our file.
    assert _cat(out) == got


@pytest.mark.parametrize("codec", ["null", "deflate"])
def test_empty_and_single_block_files(tmp_path, codec):
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(SCHEMA))
    out = tmp_path / "empty.avro"
    _tool("write", "--schema", str(schema_path), "--codec", codec, str(out), stdin="")
    with open(out, "rb") as f:
        assert list(fastavro.reader(f)) == []
    empty = tmp_path / "fastavro-empty.avro"
    with open(empty, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(copy.deepcopy(SCHEMA)), [], codec=codec)
    assert _cat(empty) == []


def test_resolution_matches_fastavro(tmp_path):
    writer_schema = {
        "type": "record", "name": "entry",
        "fields": [
            {"name": "id", "type": "int", "field-id": 1},
            {"name": "name", "type": "string", "field-id": 2},
            {"name": "dropped", "type": ["null", "long"], "field-id": 3},
            {"name": "tags", "type": {"type": "array", "items": "int"}, "field-id": 4},
            {"name": "nested", "field-id": 5, "type": {"type": "record", "name": "n", "fields": [
                {"name": "x", "type": "float", "field-id": 6}]}},
        ],
    }
    reader_schema = {
        "type": "record", "name": "entry",
        "fields": [
            {"name": "nested", "field-id": 5, "type": {"type": "record", "name": "n", "fields": [
                {"name": "x", "type": "double", "field-id": 6},
                {"name": "y", "type": "string", "default": "dflt", "field-id": 7}]}},
            {"name": "tags", "type": {"type": "array", "items": "long"}, "field-id": 4},
            {"name": "id", "type": "long", "field-id": 1},
            {"name": "added", "type": ["null", "string"], "default": None, "field-id": 8},
            {"name": "name", "type": "bytes", "field-id": 2},
        ],
    }
    records = [{"id": i, "name": f"n{i}", "dropped": i, "tags": list(range(i % 4)),
                "nested": {"x": i / 4}} for i in range(20)]
    path = tmp_path / "v1.avro"
    with open(path, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(copy.deepcopy(writer_schema)), records,
                        codec="deflate")
    with open(path, "rb") as f:
        expected = [_norm(r) for r in fastavro.reader(
            f, reader_schema=fastavro.parse_schema(copy.deepcopy(reader_schema)))]
    reader_path = tmp_path / "reader.json"
    reader_path.write_text(json.dumps(reader_schema))
    assert _cat(path, "--reader-schema", str(reader_path)) == expected


def test_corrupt_file_is_an_error_naming_it(tmp_path):
    path = tmp_path / "bad.avro"
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(copy.deepcopy(SCHEMA)), RECORDS[:3], codec="snappy")
    data = bytearray(buf.getvalue())
    data[-20] ^= 0xFF  # inside the last block's data or CRC
    path.write_bytes(bytes(data))
    proc = subprocess.run([TOOL, "cat", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "bad.avro" in proc.stderr
    assert "Corruption" in proc.stderr
