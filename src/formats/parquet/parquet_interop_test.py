"""Parquet interop between SQE and two independent implementations.

Reading: a matrix of files written at test time by pyarrow (every type, codec, data page
v1/v2, per-column encodings, dictionary on/off, nested data with nulls at every level,
page indexes, INT96, several row groups) and by DuckDB is printed by
`sqe-parquet cat --format jsonl` and compared value for value with pyarrow's reading of
the same file, rendered in the same JSON value encoding (src/columnar/json_value_encoding.h).

Writing: `sqe-parquet rewrite` reads a file with our reader and writes it with our writer
(every codec, page v1/v2, several row groups, 0 rows); pyarrow and DuckDB read the result
back and must see the same values, field ids and statistics.

Run: SQE_PARQUET_TOOL=build/release/src/main/sqe-parquet python3 -m pytest -q \
         src/formats/parquet/parquet_interop_test.py
"""

import base64
import datetime
import decimal
import json
import math
import os
import struct
import subprocess
import uuid

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

TOOL = os.environ.get("SQE_PARQUET_TOOL", "build/release/src/main/sqe-parquet")
EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_DATE = datetime.date(1970, 1, 1)


# ---------------------------------------------------------------------------------------
# The Trino JSON value encoding of pyarrow values, as our reader's types print them.


def _frac(sub_second, digits):
    return "." + str(sub_second).rjust(digits, "0")


def _civil(seconds):
    return EPOCH + datetime.timedelta(seconds=seconds)


def _timestamp_text(value, unit):
    per_second = {"s": 1, "ms": 1000, "us": 1000000, "ns": 1000000000}[unit]
    seconds, sub = divmod(value, per_second)
    digits = 9 if unit == "ns" else 6
    sub = sub * (10**digits // per_second)
    return _civil(seconds).strftime("%Y-%m-%d %H:%M:%S") + _frac(sub, digits)


def _time_text(value, unit):
    per_second = {"s": 1, "ms": 1000, "us": 1000000, "ns": 1000000000}[unit]
    seconds, sub = divmod(value, per_second)
    digits = 9 if unit == "ns" else 6
    sub = sub * (10**digits // per_second)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return "%02d:%02d:%02d" % (h, m, s) + _frac(sub, digits)


def _float(value):
    if value is None:
        return None
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def encode_array(arr, int96_as_utc=False):
    """A list with one JSON-ready Python value per element of the pyarrow array."""
    t = arr.type
    if isinstance(t, pa.BaseExtensionType):
        if str(t) in ("extension<arrow.uuid>", "uuid"):
            return [None if v is None else str(uuid.UUID(bytes=v))
                    for v in arr.storage.to_pylist()]
        arr = arr.storage
        t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type)
        t = arr.type
    if pa.types.is_floating(t):
        return [_float(v) for v in arr.to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else format(v, "f") for v in arr.to_pylist()]
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return [None if v is None else base64.b64encode(v).decode() for v in arr.to_pylist()]
    if pa.types.is_date32(t):
        return [None if v is None else (EPOCH_DATE + datetime.timedelta(days=v)).isoformat()
                for v in arr.cast(pa.int32()).to_pylist()]
    if pa.types.is_time(t):
        ints = arr.cast(pa.int32() if pa.types.is_time32(t) else pa.int64())
        return [None if v is None else _time_text(v, t.unit) for v in ints.to_pylist()]
    if pa.types.is_timestamp(t):
        utc = t.tz is not None or int96_as_utc
        return [None if v is None else _timestamp_text(v, t.unit) + (" UTC" if utc else "")
                for v in arr.cast(pa.int64()).to_pylist()]
    if pa.types.is_map(t):
        keys = encode_array(arr.keys)
        values = encode_array(arr.items, int96_as_utc)
        offsets = arr.offsets.to_pylist()
        out = []
        for i in range(len(arr)):
            if not arr[i].is_valid:
                out.append(None)
                continue
            entry = {}
            for j in range(offsets[i], offsets[i + 1]):
                k = keys[j]
                entry[k if isinstance(k, str) else json.dumps(k)] = values[j]
            out.append(entry)
        return out
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        values = encode_array(arr.values, int96_as_utc)
        offsets = arr.offsets.to_pylist()
        return [values[offsets[i]:offsets[i + 1]] if arr[i].is_valid else None
                for i in range(len(arr))]
    if pa.types.is_struct(t):
        children = [(t.field(k).name, encode_array(arr.field(k), int96_as_utc))
                    for k in range(t.num_fields)]
        return [{name: vals[i] for name, vals in children} if arr[i].is_valid else None
                for i in range(len(arr))]
    return arr.to_pylist()


def expected_rows(path, int96_as_utc=False):
    # arrow_extensions_enabled: a UUID column of a file without an ARROW:schema (ours,
    # DuckDB's) reads as arrow.uuid too.
    table = pq.read_table(path, arrow_extensions_enabled=True)
    columns = [(name, encode_array(table.column(name).combine_chunks(), int96_as_utc))
               for name in table.column_names]
    return [{name: vals[i] for name, vals in columns} for i in range(table.num_rows)]


def sqe(*args, check=True):
    proc = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError("sqe-parquet %s failed (%d): %s" % (" ".join(args), proc.returncode,
                                                                 proc.stderr))
    return proc


def sqe_rows(path, *extra):
    out = sqe("cat", str(path), "--format", "jsonl", *extra).stdout
    return [json.loads(line) for line in out.splitlines()]


def _same(ours, theirs, where):
    if isinstance(theirs, float) and isinstance(ours, (int, float)):
        # float32 columns print the shortest text that round-trips the float32 value.
        if float(ours) == theirs:
            return
        packed = struct.unpack("f", struct.pack("f", theirs))[0]
        assert struct.unpack("f", struct.pack("f", float(ours)))[0] == packed, where
        return
    if isinstance(theirs, dict) and isinstance(ours, dict):
        assert list(ours) == list(theirs), "%s: keys %s != %s" % (where, list(ours), list(theirs))
        for k in theirs:
            _same(ours[k], theirs[k], "%s.%s" % (where, k))
        return
    if isinstance(theirs, list) and isinstance(ours, list):
        assert len(ours) == len(theirs), "%s: %d values, expected %d" % (where, len(ours),
                                                                           len(theirs))
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, "%s[%d]" % (where, i))
        return
    assert ours == theirs, "%s: got %r, expected %r" % (where, ours, theirs)


def assert_rows_equal(ours, theirs, path):
    assert len(ours) == len(theirs), "%s: %d rows, expected %d" % (path, len(ours), len(theirs))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        _same(a, b, "%s row %d" % (os.path.basename(str(path)), i))


# ---------------------------------------------------------------------------------------
# Tables written by pyarrow.

UUIDS = [uuid.UUID(int=i * 7919 + 1).bytes for i in range(8)]


def every_type_table(n=300):
    def maybe(i, v, every=7):
        return None if i % every == 3 else v

    cols = {
        "b": pa.array([maybe(i, i % 3 == 0) for i in range(n)], pa.bool_()),
        "i8": pa.array([maybe(i, (i * 37) % 256 - 128) for i in range(n)], pa.int8()),
        "i16": pa.array([maybe(i, (i * 997) % 65536 - 32768) for i in range(n)], pa.int16()),
        "i32": pa.array([maybe(i, i * 104729 - 2**30) for i in range(n)], pa.int32()),
        "i64": pa.array([maybe(i, i * 10**15 - 2**62) for i in range(n)], pa.int64()),
        "u8": pa.array([maybe(i, i % 256) for i in range(n)], pa.uint8()),
        "u16": pa.array([maybe(i, (i * 251) % 65536) for i in range(n)], pa.uint16()),
        "u32": pa.array([maybe(i, (i * 2654435761) % 2**32) for i in range(n)], pa.uint32()),
        "f32": pa.array([maybe(i, [1.5, -0.0, float("nan"), float("inf"), 0.1, -3e38][i % 6])
                         for i in range(n)], pa.float32()),
        "f64": pa.array([maybe(i, [1e300, -2.5, float("nan"), float("-inf"), 0.1, 5e-324][i % 6])
                         for i in range(n)], pa.float64()),
        "d9": pa.array([maybe(i, decimal.Decimal(i * 12345 - 999999) / 1000) for i in range(n)],
                       pa.decimal128(9, 3)),
        "d18": pa.array([maybe(i, decimal.Decimal(i * 10**13 - 7) / 100) for i in range(n)],
                        pa.decimal128(18, 2)),
        "d38": pa.array([maybe(i, decimal.Decimal(10**36 + i * 10**20 - 3) / 10**10
                               * (1 if i % 2 else -1)) for i in range(n)],
                        pa.decimal128(38, 10)),
        "s": pa.array([maybe(i, ["", "héllo", "z" * 40, "a\"b\\c\n", "日本"][i % 5] + str(i % 11))
                       for i in range(n)], pa.string()),
        "bin": pa.array([maybe(i, bytes([i % 256, 0, 255]) * (i % 4)) for i in range(n)],
                        pa.binary()),
        "fix": pa.array([maybe(i, bytes([i % 256] * 5)) for i in range(n)], pa.binary(5)),
        "u": pa.array([maybe(i, UUIDS[i % 8]) for i in range(n)], pa.uuid()),
        "date": pa.array([maybe(i, i * 97 - 20000) for i in range(n)], pa.int32()).cast(
            pa.date32()),
        "t_ms": pa.array([maybe(i, (i * 1234567) % 86400000) for i in range(n)],
                         pa.int32()).cast(pa.time32("ms")),
        "t_us": pa.array([maybe(i, (i * 123456789) % 86400000000) for i in range(n)],
                         pa.int64()).cast(pa.time64("us")),
        "ts_ms": pa.array([maybe(i, i * 86400123 - 10**12) for i in range(n)], pa.int64()).cast(
            pa.timestamp("ms")),
        "ts_us": pa.array([maybe(i, i * 3600000001 - 10**15) for i in range(n)],
                          pa.int64()).cast(pa.timestamp("us")),
        "tstz": pa.array([maybe(i, i * 3600000001) for i in range(n)], pa.int64()).cast(
            pa.timestamp("us", tz="UTC")),
        "ts_ns": pa.array([maybe(i, i * 3600000000123 + 1) for i in range(n)], pa.int64()).cast(
            pa.timestamp("ns")),
    }
    return pa.table(cols)


def nested_table(n=200):
    def ll(i):
        if i % 9 == 0:
            return None
        if i % 9 == 1:
            return []
        return [None if j % 4 == 3 else [k for k in range(j % 3)] if j % 5 else []
                for j in range(i % 4)]

    def ls(i):
        if i % 6 == 0:
            return None
        return [None if j == 1 else {"x": None if j == 2 else i + j, "y": "v%d" % j}
                for j in range(i % 4)]

    def sl(i):
        if i % 7 == 0:
            return None
        return {"id": i, "tags": None if i % 3 == 0 else ["t%d" % j for j in range(i % 3)],
                "inner": None if i % 5 == 0 else {"z": None if i % 2 else float(i)}}

    def m(i):
        if i % 8 == 0:
            return None
        return [("k%d" % j, None if j == 1 else [j, None]) for j in range(i % 3)]

    def mi(i):
        return None if i % 4 == 0 else [(j, "v%d" % j) for j in range(i % 3)]

    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "ll": pa.array([ll(i) for i in range(n)], pa.list_(pa.list_(pa.int32()))),
        "ls": pa.array([ls(i) for i in range(n)],
                       pa.list_(pa.struct([("x", pa.int64()), ("y", pa.string())]))),
        "sl": pa.array([sl(i) for i in range(n)], pa.struct([
            ("id", pa.int32()), ("tags", pa.list_(pa.string())),
            ("inner", pa.struct([("z", pa.float64())]))])),
        "m": pa.array([m(i) for i in range(n)], pa.map_(pa.string(), pa.list_(pa.int16()))),
        "mi": pa.array([mi(i) for i in range(n)], pa.map_(pa.int32(), pa.string())),
        "req_list": pa.array([[i, i + 1] for i in range(n)],
                             pa.list_(pa.field("element", pa.int64(), nullable=False))),
    })


CODECS = ["none", "snappy", "gzip", "zstd", "lz4", "brotli"]


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("dictionary", [True, False])
def test_reads_pyarrow_every_type(tmp_path, codec, page_version, dictionary):
    path = tmp_path / ("types_%s_%s_%s.parquet" % (codec, page_version, dictionary))
    pq.write_table(every_type_table(), path, compression=codec, data_page_version=page_version,
                   use_dictionary=dictionary, row_group_size=128, data_page_size=512,
                   write_page_index=True)
    assert_rows_equal(sqe_rows(path), expected_rows(path), path)


ENCODINGS = {
    "i32": "DELTA_BINARY_PACKED",
    "i64": "DELTA_BINARY_PACKED",
    "s": "DELTA_LENGTH_BYTE_ARRAY",
    "bin": "DELTA_BYTE_ARRAY",
    "fix": "DELTA_BYTE_ARRAY",
    "f32": "BYTE_STREAM_SPLIT",
    "f64": "BYTE_STREAM_SPLIT",
    "d18": "BYTE_STREAM_SPLIT",
    "d38": "BYTE_STREAM_SPLIT",
    "b": "RLE",
}


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("codec", ["none", "zstd"])
def test_reads_pyarrow_encodings(tmp_path, page_version, codec):
    path = tmp_path / "enc.parquet"
    table = every_type_table(2000)
    pq.write_table(table, path, use_dictionary=False, column_encoding=ENCODINGS,
                   compression=codec, data_page_version=page_version, data_page_size=1024)
    md = pq.ParquetFile(path).metadata
    names = [md.schema.column(i).path for i in range(md.num_columns)]
    for col, enc in ENCODINGS.items():
        encodings = md.row_group(0).column(names.index(col)).encodings
        assert enc in encodings, (col, encodings)
    assert_rows_equal(sqe_rows(path), expected_rows(path), path)


def test_reads_dictionary_fallback_to_plain(tmp_path):
    path = tmp_path / "fallback.parquet"
    n = 20000
    table = pa.table({"s": pa.array(["value-%06d" % (i * 7919 % n) for i in range(n)]),
                      "i": pa.array([i * 31 % n for i in range(n)], pa.int64())})
    pq.write_table(table, path, dictionary_pagesize_limit=4096, data_page_size=2048)
    encodings = pq.ParquetFile(path).metadata.row_group(0).column(0).encodings
    assert "PLAIN" in encodings and "RLE_DICTIONARY" in encodings, encodings
    assert_rows_equal(sqe_rows(path), expected_rows(path), path)


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_reads_pyarrow_nested_with_nulls(tmp_path, page_version):
    path = tmp_path / "nested.parquet"
    pq.write_table(nested_table(), path, data_page_version=page_version, row_group_size=64,
                   data_page_size=256)
    assert_rows_equal(sqe_rows(path), expected_rows(path), path)


def test_reads_int96_timestamps(tmp_path):
    path = tmp_path / "int96.parquet"
    values = [0, 1, -1, 1709214300123456789, None, -10**18]
    table = pa.table({"ts": pa.array(values, pa.int64()).cast(pa.timestamp("ns"))})
    pq.write_table(table, path, use_deprecated_int96_timestamps=True)
    assert pq.ParquetFile(path).metadata.schema.column(0).physical_type == "INT96"
    # INT96 timestamps are instants (Spark, Impala, Hive): we read them as timestamp(9)
    # with time zone, so they print with the UTC suffix.
    assert_rows_equal(sqe_rows(path), expected_rows(path, int96_as_utc=True), path)


def test_projection_limit_and_table_format(tmp_path):
    path = tmp_path / "proj.parquet"
    pq.write_table(nested_table(), path, row_group_size=50)
    rows = sqe_rows(path, "--columns", "sl,id", "--limit", "75")
    expected = expected_rows(path)[:75]
    assert_rows_equal(rows, [{"sl": r["sl"], "id": r["id"]} for r in expected], path)
    table = sqe("cat", str(path), "--limit", "3", "--columns", "id").stdout
    assert "id" in table.splitlines()[0]
    unknown = sqe("cat", str(path), "--columns", "nope", check=False)
    assert unknown.returncode == 1 and "nope" in unknown.stderr and "id" in unknown.stderr


def test_reads_empty_and_all_null_files(tmp_path):
    empty = tmp_path / "empty.parquet"
    pq.write_table(every_type_table(0), empty)
    assert sqe_rows(empty) == []
    nulls = tmp_path / "nulls.parquet"
    pq.write_table(pa.table({"a": pa.nulls(10, pa.int64()), "s": pa.nulls(10, pa.string())}),
                   nulls)
    assert sqe_rows(nulls) == [{"a": None, "s": None}] * 10


def test_schema_and_meta_commands(tmp_path):
    path = tmp_path / "ids.parquet"
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False,
                                 metadata={"PARQUET:field_id": "7"}),
                        pa.field("name", pa.string(), metadata={"PARQUET:field_id": "8"})])
    pq.write_table(pa.table({"id": [3, 1, 2], "name": ["c", "a", None]}, schema=schema), path,
                   compression="zstd", write_page_index=True)
    out = sqe("schema", str(path)).stdout
    assert "id bigint not null" in out and "field_id 7" in out and "field_id 8" in out
    meta = sqe("meta", str(path)).stdout
    assert "rows: 3" in meta and "ZSTD" in meta
    assert "min 1 max 3" in meta and 'min "a" max "c"' in meta and "nulls 1" in meta


def test_corrupt_files_fail_cleanly(tmp_path):
    good = tmp_path / "good.parquet"
    pq.write_table(every_type_table(100), good, compression="zstd")
    data = good.read_bytes()
    cases = {
        "truncated": data[: len(data) // 2],
        "no_magic": data[:-4] + b"XXXX",
        "footer_len": data[:-8] + struct.pack("<I", len(data) * 2) + b"PAR1",
        "tiny": b"PAR1",
    }
    # Overwrite the middle of the first column chunk: pages decode to garbage.
    mid = bytearray(data)
    for i in range(100, 400):
        mid[i] = (mid[i] * 31 + 7) % 256
    cases["scrambled_pages"] = bytes(mid)
    for name, content in cases.items():
        bad = tmp_path / (name + ".parquet")
        bad.write_bytes(content)
        proc = sqe("cat", str(bad), "--format", "jsonl", check=False)
        assert proc.returncode == 1, (name, proc.returncode, proc.stderr[-2000:])
        assert "Corruption" in proc.stderr or "IOError" in proc.stderr, (name, proc.stderr)
        assert str(bad) in proc.stderr, (name, proc.stderr)


# ---------------------------------------------------------------------------------------
# Files written by DuckDB.

DUCKDB_QUERY = """
SELECT i AS id,
       CASE WHEN i % 5 = 0 THEN NULL ELSE i * 3 - 100 END::INTEGER AS i32,
       (i * 1000003)::BIGINT AS i64,
       (i % 100)::TINYINT AS i8,
       (i * 7)::SMALLINT AS i16,
       (i / 7.0)::DOUBLE AS f64,
       (i / 3.0)::REAL AS f32,
       (i * 1.25)::DECIMAL(9, 2) AS d9,
       (i * 12345.678)::DECIMAL(18, 3) AS d18,
       (i * 1234567890123.4567)::DECIMAL(38, 4) AS d38,
       CASE WHEN i % 3 = 0 THEN NULL ELSE 'str-' || (i % 17)::VARCHAR END AS s,
       DATE '1990-01-01' + (i % 10000)::INTEGER AS dt,
       TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (i) SECOND AS ts,
       TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (i * 1000) MILLISECOND AS tstz,
       i % 2 = 0 AS flag,
       CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i + 1] END AS lst,
       {'a': i, 'b': CASE WHEN i % 6 = 0 THEN NULL ELSE 'x' || i::VARCHAR END} AS st,
       MAP {'k': i} AS mp,
       ('\\x00\\x01' || (i % 10)::VARCHAR)::BLOB AS bl,
       uuid_extract_uuid(i) AS u
FROM range(0, 3000) t(i)
"""


def _duckdb():
    return pytest.importorskip("duckdb")


@pytest.mark.parametrize("codec", ["uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli"])
def test_reads_duckdb_files(tmp_path, codec):
    duckdb = _duckdb()
    path = tmp_path / ("duck_%s.parquet" % codec)
    con = duckdb.connect()
    query = DUCKDB_QUERY.replace("uuid_extract_uuid(i)",
                                 "('00000000-0000-0000-0000-' || lpad((i % 1000)::VARCHAR, 12, "
                                 "'0'))::UUID")
    con.execute("COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE 1000)"
                % (query, path, codec))
    assert_rows_equal(sqe_rows(path), expected_rows(path), path)


# ---------------------------------------------------------------------------------------
# Files written by our writer, read back by pyarrow and DuckDB.


def _rewrite(src, dst, *options):
    sqe("rewrite", str(src), str(dst), *options)
    return dst


def _pyarrow_rows(path):
    return expected_rows(path)


@pytest.mark.parametrize("codec", ["zstd", "snappy", "gzip", "lz4", "none"])
@pytest.mark.parametrize("page_version", ["1", "2"])
def test_our_writer_read_by_pyarrow(tmp_path, codec, page_version):
    src = tmp_path / "src.parquet"
    pq.write_table(every_type_table(), src)
    ours = _rewrite(src, tmp_path / "ours.parquet", "--codec", codec, "--page-version",
                    page_version, "--row-group-rows", "100")
    assert_rows_equal(_pyarrow_rows(ours), expected_rows(src), ours)
    md = pq.ParquetFile(ours).metadata
    assert md.num_row_groups == 3
    # pyarrow names LZ4_RAW "LZ4" (its Hadoop-framed LZ4 is "LZ4_HADOOP"); our meta
    # command shows the codec id as written.
    want_codec = {"none": "UNCOMPRESSED"}.get(codec, codec.upper())
    assert md.row_group(0).column(0).compression == want_codec
    if codec == "lz4":
        assert "LZ4_RAW" in sqe("meta", str(ours)).stdout
    assert md.row_group(0).column(0).has_offset_index
    assert md.row_group(0).column(0).has_column_index


def test_our_writer_nested_and_statistics(tmp_path):
    src = tmp_path / "src.parquet"
    schema = nested_table().schema
    fields = [f.with_metadata({"PARQUET:field_id": str(100 + i)}) for i, f in enumerate(schema)]
    table = nested_table().cast(pa.schema(fields))
    pq.write_table(table, src)
    ours = _rewrite(src, tmp_path / "ours.parquet")
    assert_rows_equal(_pyarrow_rows(ours), expected_rows(src), ours)
    read_schema = pq.read_schema(ours)
    for i, f in enumerate(read_schema):
        assert f.metadata[b"PARQUET:field_id"] == str(100 + i).encode(), f
    stats = pq.ParquetFile(ours).metadata.row_group(0).column(0).statistics
    assert (stats.min, stats.max, stats.null_count) == (0, 199, 0)


def test_our_writer_statistics_match_the_data(tmp_path):
    src = tmp_path / "src.parquet"
    table = every_type_table()
    pq.write_table(table, src)
    ours = _rewrite(src, tmp_path / "ours.parquet")
    md = pq.ParquetFile(ours).metadata
    back = pq.read_table(ours)
    for i in range(md.num_columns):
        col = md.row_group(0).column(i)
        name = col.path_in_schema
        data = back.column(name)
        stats = col.statistics
        assert stats is not None and stats.has_null_count, name
        assert stats.null_count == data.null_count, name
        if name in ("f32", "f64", "u"):  # NaN / extension: checked separately
            continue
        if name == "ts_ns":  # pyarrow cannot turn ns bounds into datetimes: compare raw
            ints = data.cast(pa.int64())
            mm = pc.min_max(ints)
            assert stats.min_raw == mm["min"].as_py(), name
            assert stats.max_raw == mm["max"].as_py(), name
            continue
        if stats.has_min_max:
            mm = pc.min_max(data)
            assert stats.min == mm["min"].as_py(), (name, stats.min, mm["min"])
            assert stats.max == mm["max"].as_py(), (name, stats.max, mm["max"])
    f64 = md.row_group(0).column(back.column_names.index("f64")).statistics
    assert (f64.min, f64.max) == (float("-inf"), 1e300)  # NaN excluded


def test_our_writer_zero_rows_and_duckdb_reads_it(tmp_path):
    duckdb = _duckdb()
    src = tmp_path / "src.parquet"
    pq.write_table(every_type_table(0), src)
    empty = _rewrite(src, tmp_path / "empty.parquet")
    assert pq.read_table(empty).num_rows == 0
    assert duckdb.connect().execute("SELECT count(*) FROM '%s'" % empty).fetchone()[0] == 0

    pq.write_table(nested_table(), src)
    ours = _rewrite(src, tmp_path / "ours.parquet", "--row-group-rows", "64")
    con = duckdb.connect()
    theirs = con.execute("SELECT * FROM '%s' ORDER BY id" % src).fetchall()
    back = con.execute("SELECT * FROM '%s' ORDER BY id" % ours).fetchall()
    assert back == theirs


def test_duckdb_reads_every_type_we_write(tmp_path):
    duckdb = _duckdb()
    src = tmp_path / "src.parquet"
    pq.write_table(every_type_table().drop_columns(["u8", "u16", "u32"]), src)
    for codec in ["zstd", "snappy", "gzip", "lz4", "none"]:
        ours = _rewrite(src, tmp_path / ("ours_%s.parquet" % codec), "--codec", codec)
        con = duckdb.connect()
        theirs = con.execute("SELECT * FROM '%s'" % src).fetchall()
        back = con.execute("SELECT * FROM '%s'" % ours).fetchall()
        assert len(back) == len(theirs)
        for i, (a, b) in enumerate(zip(back, theirs)):
            assert repr(a) == repr(b), (codec, i, a, b)
