"""Arrow IPC interop between SQE (sqe-ipc-tool) and pyarrow, the reference implementation.

Run: SQE_IPC_TOOL=build/ipc/src/columnar/ipc/sqe-ipc-tool python3 -m pytest -q \
         src/columnar/ipc/interop_test.py
(needs pyarrow >= 18 for the arrow.uuid extension type; tested with pyarrow 26.0.1).
The expected values mirror src/columnar/ipc/ipc_sample.cc: keep the two in sync.
"""

import decimal
import json
import os
import subprocess

import pyarrow as pa
import pyarrow.ipc as ipc
import pytest

TOOL = os.environ.get("SQE_IPC_TOOL", "build/ipc/src/columnar/ipc/sqe-ipc-tool")
UUID0 = bytes.fromhex("123e4567e89b12d3a456426614174000")
UUID2 = bytes(15) + b"\x01"

# Column name -> (pyarrow type, [row0, row1, row2]) in storage form (ints for temporal types).
SAMPLE = {
    "bool": (pa.bool_(), [True, None, False]),
    "i8": (pa.int8(), [-128, None, 127]),
    "i16": (pa.int16(), [-300, None, 300]),
    "i32": (pa.int32(), [-70000, None, 70000]),
    "i64": (pa.int64(), [-9000000000, 0, 9000000000]),
    "f32": (pa.float32(), [1.5, None, -2.25]),
    "f64": (pa.float64(), [3.25, None, -1e300]),
    "dec": (pa.decimal128(10, 2), [decimal.Decimal("123.45"), None, decimal.Decimal("-0.05")]),
    "str": (pa.string(), ["héllo", None, ""]),
    "bin": (pa.binary(), [b"\x00\x01\xff", None, b"ab"]),
    "fixed": (pa.binary(3), [b"abc", None, b"xyz"]),
    "uuid": (pa.uuid(), [UUID0, None, UUID2]),
    "date": (pa.date32(), [19782, None, -1]),
    "time": (pa.time64("us"), [49500000000, None, 1]),
    "ts": (pa.timestamp("us"), [1709214300000000, None, -1]),
    "tstz": (pa.timestamp("us", tz="UTC"), [1709214300000000, None, 0]),
    "tsns": (pa.timestamp("ns"), [1709214300123456789, None, 1]),
    "list": (pa.list_(pa.int32()), [[1, None, 3], None, []]),
    "struct": (
        pa.struct([("a", pa.int64()), ("b", pa.string())]),
        [{"a": 1, "b": "x"}, None, {"a": None, "b": "z"}],
    ),
    "map": (pa.map_(pa.string(), pa.int64()), [[("k1", 10), ("k2", None)], None, []]),
}

# sqe-ipc-tool dump of the three sample rows (Trino JSON value encoding).
EXPECTED_JSONL = [
    {"bool": True, "i8": -128, "i16": -300, "i32": -70000, "i64": -9000000000, "f32": 1.5,
     "f64": 3.25, "dec": "123.45", "str": "héllo", "bin": "AAH/", "fixed": "YWJj",
     "uuid": "123e4567-e89b-12d3-a456-426614174000", "date": "2024-02-29",
     "time": "13:45:00.000000", "ts": "2024-02-29 13:45:00.000000",
     "tstz": "2024-02-29 13:45:00.000000 UTC", "tsns": "2024-02-29 13:45:00.123456789",
     "list": [1, None, 3], "struct": {"a": 1, "b": "x"}, "map": {"k1": 10, "k2": None}},
    {"bool": None, "i8": None, "i16": None, "i32": None, "i64": 0, "f32": None, "f64": None,
     "dec": None, "str": None, "bin": None, "fixed": None, "uuid": None, "date": None,
     "time": None, "ts": None, "tstz": None, "tsns": None, "list": None, "struct": None,
     "map": None},
    {"bool": False, "i8": 127, "i16": 300, "i32": 70000, "i64": 9000000000, "f32": -2.25,
     "f64": -1e300, "dec": "-0.05", "str": "", "bin": "YWI=", "fixed": "eHl6",
     "uuid": "00000000-0000-0000-0000-000000000001", "date": "1969-12-31",
     "time": "00:00:00.000001", "ts": "1969-12-31 23:59:59.999999",
     "tstz": "1970-01-01 00:00:00.000000 UTC", "tsns": "1970-01-01 00:00:00.000000001",
     "list": [], "struct": {"a": None, "b": "z"}, "map": {}},
]


def storage_rows(table):
    """Rows with extension columns as their storage and temporal columns as integers."""
    columns = {}
    for name in table.column_names:
        col = table.column(name).combine_chunks()
        if isinstance(col.type, pa.BaseExtensionType):
            col = col.storage
        if pa.types.is_timestamp(col.type) or pa.types.is_time64(col.type):
            col = col.cast(pa.int64())
        elif pa.types.is_date32(col.type):
            col = col.cast(pa.int32())
        elif pa.types.is_dictionary(col.type):
            col = col.dictionary_decode()
        columns[name] = col.to_pylist()
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def expected_rows(indices):
    return [{name: values[i] for name, (_, values) in SAMPLE.items()} for i in indices]


@pytest.mark.parametrize("dictionary", [False, True])
@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_pyarrow_reads_sqe_stream(tmp_path, codec, dictionary):
    path = tmp_path / "sample.arrows"
    args = [TOOL, "write-sample", str(path), codec] + (["dict"] if dictionary else [])
    subprocess.run(args, check=True)
    with open(path, "rb") as f:
        reader = ipc.open_stream(f)
        table = reader.read_all()
    schema = table.schema
    assert schema.metadata == {b"origin": b"sqe"}
    assert schema.field("i32").metadata[b"PARQUET:field_id"] == b"7"
    assert schema.field("i32").metadata[b"comment"] == b"has field id 7"
    assert not schema.field("i64").nullable
    assert schema.field("uuid").type == pa.uuid()
    assert schema.field("tstz").type == pa.timestamp("us", tz="UTC")
    assert schema.field("map").type == pa.map_(pa.string(), pa.int64())
    if dictionary:
        assert pa.types.is_dictionary(schema.field("str").type)
    # write-sample writes the sample and then its slice of rows 1..2.
    assert storage_rows(table) == expected_rows([0, 1, 2, 1, 2])


def sample_table(dictionary):
    arrays, fields = [], []
    for name, (typ, values) in SAMPLE.items():
        if isinstance(typ, pa.BaseExtensionType):
            array = pa.ExtensionArray.from_storage(typ, pa.array(values, typ.storage_type))
        else:
            array = pa.array(values, typ)
        if dictionary and name == "str":
            array = array.dictionary_encode()
        metadata = {"PARQUET:field_id": "7"} if name == "i32" else None
        arrays.append(array)
        fields.append(pa.field(name, array.type, nullable=(name != "i64"), metadata=metadata))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields, metadata={"origin": "pyarrow"}))


@pytest.mark.parametrize("dictionary", [False, True])
@pytest.mark.parametrize("codec", [None, "lz4", "zstd"])
def test_sqe_reads_pyarrow_stream(tmp_path, codec, dictionary):
    table = sample_table(dictionary)
    path = tmp_path / "pyarrow.arrows"
    options = ipc.IpcWriteOptions(compression=codec)
    with ipc.new_stream(str(path), table.schema, options=options) as writer:
        writer.write_table(table)
        writer.write_table(table.slice(1, 2))  # a sliced table: offsets not at 0
        writer.write_table(table.slice(0, 0))
    out = subprocess.run([TOOL, "dump", str(path)], check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows == EXPECTED_JSONL + EXPECTED_JSONL[1:]


def test_sqe_rejects_unsupported_type(tmp_path):
    table = pa.table({"u": pa.array([1, 2], pa.uint32())})
    path = tmp_path / "uint.arrows"
    with ipc.new_stream(str(path), table.schema) as writer:
        writer.write_table(table)
    out = subprocess.run([TOOL, "dump", str(path)], capture_output=True, text=True)
    assert out.returncode == 1
    assert "NotImplemented" in out.stderr and "unsigned" in out.stderr


@pytest.mark.parametrize("codec", [None, "zstd"])
def test_sqe_decodes_nested_dictionaries(tmp_path, codec):
    words = pa.array(["a", "b", None, "a"]).dictionary_encode()
    lists = pa.ListArray.from_arrays(pa.array([0, 2, 2, 4], pa.int32()), words)
    small = pa.array(["x", "y", "x"]).dictionary_encode().cast(
        pa.dictionary(pa.int8(), pa.string()))
    table = pa.table({"l": lists, "d8": small})
    path = tmp_path / "dict.arrows"
    with ipc.new_stream(str(path), table.schema,
                        options=ipc.IpcWriteOptions(compression=codec)) as writer:
        writer.write_table(table)
    out = subprocess.run([TOOL, "dump", str(path)], check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows == [{"l": ["a", "b"], "d8": "x"}, {"l": [], "d8": "y"},
                    {"l": [None, "a"], "d8": "x"}]
