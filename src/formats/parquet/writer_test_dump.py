# Reads a Parquet file with pyarrow and prints it for writer_test.cc: "rows" mode prints
# one JSON array per row in the Trino JSON value encoding (json_value_encoding.h);
# "meta" mode prints key=value lines about the footer.
import base64, datetime, json, math, sys, uuid
import pyarrow as pa, pyarrow.parquet as pq

EPOCH = datetime.datetime(1970, 1, 1)


def fmt_dt(d):
    return "%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second)


def ticks(unit):
    return {"us": 10**6, "ns": 10**9}[unit]


def conv(arr, name=""):
    t = arr.type
    valid = [v.is_valid for v in arr] if len(arr) else []
    if isinstance(t, pa.BaseExtensionType):
        vals = [None if b is None else str(uuid.UUID(bytes=b)) for b in arr.storage.to_pylist()]
        return vals
    if pa.types.is_struct(t):
        kids = [conv(c, t.field(i).name) for i, c in enumerate(arr.flatten())]
        return [None if not valid[i] else {t.field(k).name: kids[k][i] for k in range(t.num_fields)}
                for i in range(len(arr))]
    if pa.types.is_map(t):
        keys, items = conv(arr.keys), conv(arr.items)
        offs = arr.offsets.to_pylist()
        out = []
        for i in range(len(arr)):
            if not valid[i]:
                out.append(None)
                continue
            d = {}
            for k in range(offs[i], offs[i + 1]):
                key = keys[k] if isinstance(keys[k], str) else json.dumps(keys[k])
                d[key] = items[k]
            out.append(d)
        return out
    if pa.types.is_list(t):
        vals = conv(arr.values, name)
        offs = arr.offsets.to_pylist()
        return [None if not valid[i] else vals[offs[i]:offs[i + 1]] for i in range(len(arr))]
    if pa.types.is_timestamp(t):
        n = ticks(t.unit)
        out = []
        for v in arr.cast(pa.int64()).to_pylist():
            if v is None:
                out.append(None)
                continue
            s, f = divmod(v, n)
            txt = fmt_dt(EPOCH + datetime.timedelta(seconds=s)) + "." + str(f).zfill(len(str(n)) - 1)
            out.append(txt + (" UTC" if t.tz else ""))
        return out
    if pa.types.is_time64(t):
        n = ticks(t.unit)
        out = []
        for v in arr.cast(pa.int64()).to_pylist():
            if v is None:
                out.append(None)
                continue
            s, f = divmod(v, n)
            out.append("%02d:%02d:%02d.%s" % (s // 3600, s // 60 % 60, s % 60,
                                              str(f).zfill(len(str(n)) - 1)))
        return out
    if pa.types.is_date32(t):
        return [None if v is None else
                (datetime.date(1970, 1, 1) + datetime.timedelta(days=v)).strftime("%Y-%m-%d")
                for v in arr.cast(pa.int32()).to_pylist()]
    vals = arr.to_pylist()
    if pa.types.is_floating(t):
        return [None if v is None else ("NaN" if math.isnan(v) else
                                        ("Infinity" if v == math.inf else
                                         ("-Infinity" if v == -math.inf else v))) for v in vals]
    if pa.types.is_decimal(t):
        return [None if v is None else format(v, "f") for v in vals]
    if pa.types.is_fixed_size_binary(t) and name == "uuid":
        return [None if v is None else str(uuid.UUID(bytes=v)) for v in vals]
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        return [None if v is None else base64.b64encode(v).decode() for v in vals]
    return vals


def field_ids(field, prefix, out):
    md = field.metadata or {}
    if b"PARQUET:field_id" in md:
        out.append("%s%s=%s" % (prefix, field.name, md[b"PARQUET:field_id"].decode()))
    t = field.type
    kids = []
    if pa.types.is_struct(t):
        kids = [t.field(i) for i in range(t.num_fields)]
    elif pa.types.is_map(t):
        kids = [t.key_field, t.item_field]
    elif pa.types.is_list(t):
        kids = [t.value_field]
    for k in kids:
        field_ids(k, prefix + field.name + ".", out)


path, mode = sys.argv[1], sys.argv[2]
if mode == "rows":
    table = pq.read_table(path)
    cols = [conv(c.combine_chunks(), table.schema.field(i).name) for i, c in enumerate(table.columns)]
    for r in range(table.num_rows):
        print(json.dumps([c[r] for c in cols], ensure_ascii=False, separators=(",", ":")))
else:
    f = pq.ParquetFile(path)
    md = f.metadata
    lines = ["num_rows=%d" % md.num_rows, "num_row_groups=%d" % md.num_row_groups,
             "created_by=%s" % md.created_by, "schema=%s" % ",".join(f.schema_arrow.names)]
    for k, v in (md.metadata or {}).items():
        lines.append("kv.%s=%s" % (k.decode(), v.decode()))
    ids = []
    for fld in f.schema_arrow:
        field_ids(fld, "", ids)
    lines += ["field_id." + s for s in ids]
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        lines.append("rg%d.num_rows=%d" % (g, rg.num_rows))
        for c in range(rg.num_columns):
            col = rg.column(c)
            p = "rg%d.%s." % (g, col.path_in_schema)
            lines.append(p + "compression=" + col.compression)
            lines.append(p + "encodings=" + ",".join(sorted(col.encodings)))
            lines.append(p + "has_dictionary_page=%s" % col.has_dictionary_page)
            lines.append(p + "has_column_index=%s" % col.has_column_index)
            lines.append(p + "has_offset_index=%s" % col.has_offset_index)
            lines.append(p + "first_offset=%d" % (col.dictionary_page_offset
                                                  if col.has_dictionary_page else col.data_page_offset))
            st = col.statistics
            if st is not None:
                lines.append(p + "null_count=%s" % st.null_count)
                if st.has_min_max:
                    try:
                        lo, hi = st.min, st.max
                    except ValueError:  # nanosecond timestamps without pandas
                        lo, hi = st.min_raw, st.max_raw
                    lines.append(p + "min=%s" % (lo,))
                    lines.append(p + "max=%s" % (hi,))
    print("\n".join(lines))
