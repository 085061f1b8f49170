# Test peer for file_reader_test.cc: "gen DIR" writes Parquet files with pyarrow (every type,
# codec, page version, encoding, nesting, INT96, row groups, page index; DuckDB-written
# files too when duckdb is installed); "check DIR NAMES..."
# compares our reader's JSON lines (NAME.ours.jsonl) with what pyarrow reads, value by value.
import sys, os, json, base64, struct, math, uuid, decimal, datetime
import pyarrow as pa, pyarrow.parquet as pq

N = 157

def col(vals, t):
    return pa.array(vals, t)

def f16(vals):
    raw = [None if v is None else struct.pack('<e', v) for v in vals]
    return pa.array(raw, pa.binary(2)).view(pa.float16())

def nul(i, k):
    return i % k == k - 1

def flat_table(n=N):
    d = {}
    d["b"] = col([None if nul(i, 7) else i % 3 == 0 for i in range(n)], pa.bool_())
    d["i8"] = col([None if nul(i, 5) else (i * 37) % 256 - 128 for i in range(n)], pa.int8())
    d["i16"] = col([None if nul(i, 6) else (i * 997) % 65536 - 32768 for i in range(n)], pa.int16())
    d["i32"] = col([None if nul(i, 8) else (i * 7919) * (-1) ** i for i in range(n)], pa.int32())
    d["i64"] = col([None if nul(i, 9) else (i * 1234567891011) * (-1) ** i for i in range(n)], pa.int64())
    d["u8"] = col([None if nul(i, 5) else (i * 7) % 256 for i in range(n)], pa.uint8())
    d["u16"] = col([None if nul(i, 5) else (i * 401) % 65536 for i in range(n)], pa.uint16())
    d["u32"] = col([None if nul(i, 5) else (i * 27644437) % (1 << 32) for i in range(n)], pa.uint32())
    d["f32"] = col([None if nul(i, 4) else (float('nan') if i == 3 else i / 3.0) for i in range(n)], pa.float32())
    d["f64"] = col([None if nul(i, 4) else (float('inf') if i == 5 else -i / 7.0) for i in range(n)], pa.float64())
    d["f16"] = f16([None if nul(i, 4) else i / 4.0 for i in range(n)])
    d["dec9"] = col([None if nul(i, 5) else decimal.Decimal(i * 1001 - 5000) / 100 for i in range(n)], pa.decimal128(9, 2))
    d["dec18"] = col([None if nul(i, 5) else decimal.Decimal(i * 10**12 + 7) / 1000 for i in range(n)], pa.decimal128(18, 3))
    d["dec30"] = col([None if nul(i, 5) else decimal.Decimal(-i * 10**20 - 3) / 10**5 for i in range(n)], pa.decimal128(30, 5))
    d["s"] = col([None if nul(i, 3) else "str%d-%s" % (i % 11, "x" * (i % 5)) for i in range(n)], pa.string())
    d["bin"] = col([None if nul(i, 3) else bytes([i % 256, 0, 255]) * (i % 3) for i in range(n)], pa.binary())
    d["fix"] = col([None if nul(i, 3) else bytes([(i + k) % 256 for k in range(5)]) for i in range(n)], pa.binary(5))
    d["uuid"] = pa.array([None if nul(i, 4) else bytes([(i * 3 + k) % 256 for k in range(16)]) for i in range(n)], pa.binary(16)).cast(pa.uuid())
    d["date"] = col([None if nul(i, 6) else 18000 + i * 3 for i in range(n)], pa.date32())
    d["t_ms"] = col([None if nul(i, 6) else (i * 123457) % 86400000 for i in range(n)], pa.time32("ms"))
    d["t_us"] = col([None if nul(i, 6) else (i * 123456789) % 86400000000 for i in range(n)], pa.time64("us"))
    d["t_ns"] = col([None if nul(i, 6) else (i * 123456789123) % 86400000000000 for i in range(n)], pa.time64("ns"))
    d["ts_ms"] = col([None if nul(i, 6) else 1700000000000 + i * 86399 for i in range(n)], pa.timestamp("ms"))
    d["ts_us"] = col([None if nul(i, 6) else 1700000000000000 + i * 86399999 for i in range(n)], pa.timestamp("us", tz="UTC"))
    d["ts_ns"] = col([None if nul(i, 6) else 1700000000000000000 + i * 86399999999 for i in range(n)], pa.timestamp("ns"))
    d["req"] = col(list(range(n)), pa.int64())
    fields = [pa.field(k, v.type, nullable=(k != "req")) for k, v in d.items()]
    return pa.table(list(d.values()), schema=pa.schema(fields))

def nested_table(n=N):
    li, lli, st, mp, ls, ms, ne = [], [], [], [], [], [], []
    for i in range(n):
        k = i % 6
        li.append(None if k == 0 else [] if k == 1 else [None if j % 3 == 2 else i * 10 + j for j in range(k)])
        lli.append(None if k == 1 else [None if j == 1 else [] if j == 2 else ["v%d.%d" % (i, x) if x != 1 else None for x in range(j)] for j in range(k)])
        st.append(None if k == 2 else {"a": None if k == 3 else i, "b": None if k == 4 else [{"c": None if (i + j) % 4 == 0 else "c%d" % j} if j != 1 else None for j in range(k)], "e": {"f": None if k == 5 else float(i)}})
        mp.append(None if k == 3 else [("k%d" % j, None if j == 2 else i + j) for j in range(k)])
        ls.append(None if k == 4 else [None if j == 0 and k == 2 else {"x": i + j, "y": None if j % 2 else "y%d" % j} for j in range(k)])
        ms.append(None if k == 5 else [(j, None if j == 1 else [i, None, j]) for j in range(k)])
        ne.append([i, i + 1] if k else [])
    schema = pa.schema([
        pa.field("li", pa.list_(pa.int32())),
        pa.field("lli", pa.list_(pa.list_(pa.string()))),
        pa.field("st", pa.struct([("a", pa.int64()), ("b", pa.list_(pa.struct([("c", pa.string())]))), ("e", pa.struct([("f", pa.float64())]))])),
        pa.field("mp", pa.map_(pa.string(), pa.int64())),
        pa.field("ls", pa.list_(pa.struct([("x", pa.int32()), ("y", pa.string())]))),
        pa.field("ms", pa.map_(pa.int32(), pa.list_(pa.int16()))),
        pa.field("ne", pa.list_(pa.field("element", pa.int64(), nullable=False)), nullable=False),
        pa.field("id", pa.int32(), nullable=False),
    ])
    return pa.table([li, lli, st, mp, ls, ms, ne, list(range(n))], schema=schema)

def scenarios():
    out = []
    flat = flat_table()
    for codec in ["none", "snappy", "gzip", "brotli", "zstd", "lz4"]:
        for v in ["1.0", "2.0"]:
            out.append(("types_%s_v%s" % (codec, v[0]), flat, dict(compression=codec, data_page_version=v, data_page_size=512, store_schema=False)))
    out.append(("types_nodict", flat, dict(use_dictionary=False, data_page_size=700)))
    out.append(("types_decint", flat, dict(store_decimal_as_integer=True, data_page_version="2.0")))
    out.append(("types_dictfallback", flat, dict(dictionary_pagesize_limit=64, data_page_size=256)))
    # Format 1.0: PLAIN_DICTIONARY pages and converted types only (no nanosecond types).
    out.append(("types_format1", flat.drop_columns(["ts_ns", "t_ns"]), dict(version="1.0")))
    out.append(("types_crc", flat, dict(write_page_checksum=True, compression="gzip", data_page_size=400)))
    out.append(("types_rowgroups", flat, dict(row_group_size=23, data_page_size=128, compression="zstd")))
    out.append(("types_int96", flat.select(["ts_us", "ts_ns", "ts_ms", "req"]), dict(use_deprecated_int96_timestamps=True)))
    enc = {
        "PLAIN": ["b", "i32", "i64", "f32", "f64", "s", "bin", "fix", "dec30", "f16", "ts_ns"],
        "BYTE_STREAM_SPLIT": ["i32", "i64", "f32", "f64", "fix", "dec30", "f16"],
        "DELTA_BINARY_PACKED": ["i8", "i16", "i32", "i64", "u32", "date", "t_ms", "ts_us", "dec9", "dec18"],
        "DELTA_LENGTH_BYTE_ARRAY": ["s", "bin"],
        "DELTA_BYTE_ARRAY": ["s", "bin", "fix", "dec30", "uuid"],
        "RLE": ["b"],
    }
    for e, cols in enc.items():
        for v in ["1.0", "2.0"]:
            t = flat.select(cols + ["req"])
            out.append(("enc_%s_v%s" % (e, v[0]), t, dict(use_dictionary=False, column_encoding={c: e for c in cols}, data_page_version=v, data_page_size=300, compression="snappy" if v == "2.0" else "none", store_decimal_as_integer=(e == "DELTA_BINARY_PACKED"))))
    nested = nested_table()
    for v in ["1.0", "2.0"]:
        out.append(("nested_v%s" % v[0], nested, dict(data_page_version=v, data_page_size=200)))
    out.append(("nested_rowgroups", nested, dict(row_group_size=10, compression="gzip", use_dictionary=False)))
    out.append(("pageindex", pa.table({"id": list(range(5000)), "s": ["s%d" % (i % 97) if i % 5 else None for i in range(5000)], "l": [[i] * (i % 3) if i % 7 else None for i in range(5000)]}), dict(write_page_index=True, data_page_size=1024, row_group_size=2000, write_batch_size=100)))
    return out

def gen(d):
    names = []
    for name, table, opts in scenarios():
        pq.write_table(table, os.path.join(d, name + ".parquet"), **opts)
        names.append(name)
    try:
        import duckdb
    except ImportError:
        duckdb = None
    if duckdb is not None:
        con = duckdb.connect()
        queries = {
            "duck_flat": "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || (i % 13) END AS s, "
                         "(i * 1.25)::DECIMAL(15, 2) AS d, DATE '2020-01-01' + (i % 400)::INT AS day, "
                         "i / 3.0 AS f, i % 2 = 0 AS b, TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS ts "
                         "FROM range(20000) t(i)",
            "duck_nested": "SELECT [i, NULL, i + 1] AS l, CASE WHEN i % 5 = 0 THEN NULL ELSE "
                           "{'a': 'x' || i, 'b': [i % 3]} END AS st, map(['k' || (i % 4)], [i]) AS m, "
                           "CASE WHEN i % 3 = 0 THEN [] ELSE [[i::VARCHAR], NULL] END AS ll "
                           "FROM range(3000) t(i)",
        }
        for name, q in queries.items():
            for codec in ["snappy", "zstd"]:
                path = os.path.join(d, "%s_%s.parquet" % (name, codec))
                con.execute("COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE 4096)"
                            % (q, path, codec))
                names.append("%s_%s" % (name, codec))
    with open(os.path.join(d, "scenarios.txt"), "w") as f:
        f.write("\n".join(names) + "\n")

class F32(float):
    pass

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def fmt_clock(ns_of_day, digits):
    s, frac = divmod(ns_of_day, 10**9)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    fr = str(frac).rjust(9, "0")[:digits]
    return "%02d:%02d:%02d.%s" % (h, m, sec, fr)

def to_ns(unit):
    return {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[unit]

def canon_array(arr):
    t = arr.type
    n = len(arr)
    valid = [arr[i].is_valid for i in range(n)] if arr.null_count else [True] * n
    def mask(vals):
        return [v if ok else None for v, ok in zip(vals, valid)]
    if isinstance(t, pa.ExtensionType):
        st = arr.storage
        if str(t) in ("extension<arrow.uuid>", "uuid") or "uuid" in str(t):
            return mask([None if b is None else str(uuid.UUID(bytes=b)) for b in st.to_pylist()])
        return canon_array(st)
    if pa.types.is_float16(t):
        return canon_array(arr.cast(pa.float32()))
    if pa.types.is_floating(t):
        def fl(v):
            if v is None: return None
            if math.isnan(v): return "NaN"
            if math.isinf(v): return "Infinity" if v > 0 else "-Infinity"
            return F32(v) if pa.types.is_float32(t) else v
        return [fl(v) for v in arr.to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else "{:.{}f}".format(v, t.scale) for v in arr.to_pylist()]
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t) or pa.types.is_large_binary(t):
        return [None if v is None else base64.b64encode(v).decode() for v in arr.to_pylist()]
    if pa.types.is_date32(t):
        return mask([None if v is None else (datetime.date(1970, 1, 1) + datetime.timedelta(days=v)).isoformat() for v in arr.cast(pa.int32()).to_pylist()])
    if pa.types.is_time(t) or pa.types.is_timestamp(t):
        mult = to_ns(t.unit)
        digits = 9 if t.unit == "ns" else 6
        ints = arr.cast(pa.int32() if pa.types.is_time32(t) else pa.int64()).to_pylist()
        res = []
        for v in ints:
            if v is None:
                res.append(None); continue
            ns = v * mult
            if pa.types.is_time(t):
                res.append(fmt_clock(ns, digits))
            else:
                days, rem = divmod(ns, 86400 * 10**9)
                day = (datetime.date(1970, 1, 1) + datetime.timedelta(days=days)).isoformat()
                res.append(day + " " + fmt_clock(rem, digits))
        return mask(res)
    if pa.types.is_map(t):
        keys = canon_array(arr.keys)
        items = canon_array(arr.items)
        offs = arr.offsets.to_pylist()
        res = []
        for i in range(n):
            if not valid[i]:
                res.append(None); continue
            dct = {}
            for j in range(offs[i], offs[i + 1]):
                k = keys[j]
                dct[k if isinstance(k, str) else json.dumps(k)] = items[j]
            res.append(dct)
        return res
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        vals = canon_array(arr.values)
        offs = arr.offsets.to_pylist()
        return [vals[offs[i]:offs[i + 1]] if valid[i] else None for i in range(n)]
    if pa.types.is_struct(t):
        fields = [(t.field(k).name, canon_array(arr.field(k))) for k in range(t.num_fields)]
        return [{name: vals[i] for name, vals in fields} if valid[i] else None for i in range(n)]
    return [str(v) if isinstance(v, uuid.UUID) else v for v in arr.to_pylist()]

def eq(e, a):
    if isinstance(e, F32):
        return isinstance(a, (int, float)) and not isinstance(a, bool) and f32(a) == f32(e)
    if isinstance(e, str) and isinstance(a, str):
        return e.replace(" UTC", "") == a.replace(" UTC", "")
    if isinstance(e, list):
        return isinstance(a, list) and len(a) == len(e) and all(eq(x, y) for x, y in zip(e, a))
    if isinstance(e, dict):
        return isinstance(a, dict) and set(e) == set(a) and all(eq(e[k], a[k]) for k in e)
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) == type(a) and e == a
    return e == a

def check(d, names):
    bad = 0
    for name in names:
        t = pq.read_table(os.path.join(d, name + ".parquet"))
        cols = {c: canon_array(t.column(c).combine_chunks()) for c in t.column_names}
        exp = [{c: cols[c][i] for c in t.column_names} for i in range(t.num_rows)]
        with open(os.path.join(d, name + ".ours.jsonl")) as f:
            ours = [json.loads(line) for line in f if line.strip()]
        if len(ours) != len(exp):
            print("%s: %d rows, pyarrow %d" % (name, len(ours), len(exp))); bad += 1; continue
        errs = 0
        for i, (e, a) in enumerate(zip(exp, ours)):
            for c in e:
                if c not in a or not eq(e[c], a[c]):
                    if errs < 5:
                        print("%s row %d column %s: ours %r, pyarrow %r" % (name, i, c, a.get(c, "<missing>"), e[c]))
                    errs += 1
        if errs:
            bad += 1
            print("%s: %d mismatches" % (name, errs))
    print("checked %d files, %d bad" % (len(names), bad))
    return 1 if bad else 0

if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3:]))
