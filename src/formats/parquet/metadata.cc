// Codecs for the footer structs of parquet.thrift (FileMetaData and what it contains).
// Field ids are the spec's; see thrift_fields_internal.h for the reading vocabulary.
#include "formats/parquet/metadata.h"

#include "formats/parquet/thrift_fields_internal.h"

namespace sqe::parquet {

using internal::ExpectType;
using internal::Fields;
using internal::ReadBool;
using internal::ReadFields;
using internal::ReadInt;
using internal::ReadIntList;
using internal::ReadList;
using internal::ReadString;
using internal::ReadStructField;
using internal::ReadStructList;
using internal::WriteEmptyStructField;
using internal::WriteIntList;
using internal::WriteStructField;
using internal::WriteStructList;

// ---- Statistics ----

Status Decode(CompactReader& r, Statistics* out) {
  *out = {};
  return ReadFields(r, "Statistics", 0, [&](int16_t id, CompactType t) -> Status {
    switch (id) {
      case 1:
        return ReadString(r, t, &out->max);
      case 2:
        return ReadString(r, t, &out->min);
      case 3:
        return ReadInt(r, t, &out->null_count);
      case 4:
        return ReadInt(r, t, &out->distinct_count);
      case 5:
        return ReadString(r, t, &out->max_value);
      case 6:
        return ReadString(r, t, &out->min_value);
      case 7:
        return ReadBool(r, t, &out->is_max_value_exact);
      case 8:
        return ReadBool(r, t, &out->is_min_value_exact);
      case 9:
        return ReadInt(r, t, &out->nan_count);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const Statistics& v, CompactWriter& w) {
  w.BeginStruct();
  if (v.max) w.WriteBinaryField(1, *v.max);
  if (v.min) w.WriteBinaryField(2, *v.min);
  if (v.null_count) w.WriteI64Field(3, *v.null_count);
  if (v.distinct_count) w.WriteI64Field(4, *v.distinct_count);
  if (v.max_value) w.WriteBinaryField(5, *v.max_value);
  if (v.min_value) w.WriteBinaryField(6, *v.min_value);
  if (v.is_max_value_exact) w.WriteBoolField(7, *v.is_max_value_exact);
  if (v.is_min_value_exact) w.WriteBoolField(8, *v.is_min_value_exact);
  if (v.nan_count) w.WriteI64Field(9, *v.nan_count);
  w.EndStruct();
}

// ---- LogicalType ----

LogicalType LogicalType::Decimal(int32_t precision, int32_t scale) {
  LogicalType t = Of(Kind::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}
LogicalType LogicalType::Time(bool utc, LogicalTimeUnit unit) {
  LogicalType t = Of(Kind::kTime);
  t.is_adjusted_to_utc = utc;
  t.unit = unit;
  return t;
}
LogicalType LogicalType::Timestamp(bool utc, LogicalTimeUnit unit) {
  LogicalType t = Of(Kind::kTimestamp);
  t.is_adjusted_to_utc = utc;
  t.unit = unit;
  return t;
}
LogicalType LogicalType::Integer(int8_t bit_width, bool is_signed) {
  LogicalType t = Of(Kind::kInteger);
  t.bit_width = bit_width;
  t.is_signed = is_signed;
  return t;
}

namespace {

Status DecodeTimeUnit(CompactReader& r, CompactType t, LogicalTimeUnit* unit) {
  SQE_RETURN_NOT_OK(ExpectType(r, t, CompactType::kStruct));
  bool known = false;
  SQE_RETURN_NOT_OK(ReadFields(r, "TimeUnit", 0, [&](int16_t id, CompactType ft) -> Status {
    if (id >= 1 && id <= 3) {
      *unit = static_cast<LogicalTimeUnit>(id - 1);
      known = true;
    }
    return r.Skip(ft);
  }));
  if (!known) return r.Corrupt("unknown TimeUnit");
  return Status::OK();
}

void EncodeTimeUnit(CompactWriter& w, int16_t field_id, LogicalTimeUnit unit) {
  w.WriteFieldBegin(field_id, CompactType::kStruct);
  w.BeginStruct();
  WriteEmptyStructField(w, static_cast<int16_t>(static_cast<int>(unit) + 1));
  w.EndStruct();
}

// TimeType and TimestampType share their shape: 1 isAdjustedToUTC, 2 unit.
Status DecodeTimeLike(CompactReader& r, const char* name, LogicalType* out) {
  return ReadFields(r, name, Fields({1, 2}), [&](int16_t id, CompactType t) -> Status {
    switch (id) {
      case 1:
        return ReadBool(r, t, &out->is_adjusted_to_utc);
      case 2:
        return DecodeTimeUnit(r, t, &out->unit);
      default:
        return r.Skip(t);
    }
  });
}

}  // namespace

Status Decode(CompactReader& r, LogicalType* out) {
  *out = {};
  return ReadFields(r, "LogicalType", 0, [&](int16_t id, CompactType t) -> Status {
    if (t != CompactType::kStruct) return r.Skip(t);
    switch (id) {
      case 5:
        out->kind = LogicalType::Kind::kDecimal;
        return ReadFields(r, "DecimalType", Fields({1, 2}), [&](int16_t fid, CompactType ft) {
          if (fid == 1) return ReadInt(r, ft, &out->scale);
          if (fid == 2) return ReadInt(r, ft, &out->precision);
          return r.Skip(ft);
        });
      case 7:
        out->kind = LogicalType::Kind::kTime;
        return DecodeTimeLike(r, "TimeType", out);
      case 8:
        out->kind = LogicalType::Kind::kTimestamp;
        return DecodeTimeLike(r, "TimestampType", out);
      case 10:
        out->kind = LogicalType::Kind::kInteger;
        return ReadFields(r, "IntType", Fields({1, 2}), [&](int16_t fid, CompactType ft) {
          if (fid == 1) return ReadInt(r, ft, &out->bit_width);
          if (fid == 2) return ReadBool(r, ft, &out->is_signed);
          return r.Skip(ft);
        });
      case 1:
      case 2:
      case 3:
      case 4:
      case 6:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
      case 16:
      case 17:
      case 18:
        out->kind = static_cast<LogicalType::Kind>(id);
        return r.Skip(t);  // unit structs (variant/geo payloads are not modelled yet)
      default:
        out->kind = LogicalType::Kind::kUnrecognized;
        return r.Skip(t);
    }
  });
}

void Encode(const LogicalType& v, CompactWriter& w) {
  using Kind = LogicalType::Kind;
  w.BeginStruct();
  const auto id = static_cast<int16_t>(v.kind);
  switch (v.kind) {
    case Kind::kDecimal:
      w.WriteFieldBegin(id, CompactType::kStruct);
      w.BeginStruct();
      w.WriteI32Field(1, v.scale);
      w.WriteI32Field(2, v.precision);
      w.EndStruct();
      break;
    case Kind::kTime:
    case Kind::kTimestamp:
      w.WriteFieldBegin(id, CompactType::kStruct);
      w.BeginStruct();
      w.WriteBoolField(1, v.is_adjusted_to_utc);
      EncodeTimeUnit(w, 2, v.unit);
      w.EndStruct();
      break;
    case Kind::kInteger:
      w.WriteFieldBegin(id, CompactType::kStruct);
      w.BeginStruct();
      w.WriteFieldBegin(1, CompactType::kByte);
      w.WriteI8(v.bit_width);
      w.WriteBoolField(2, v.is_signed);
      w.EndStruct();
      break;
    case Kind::kUnrecognized:
      break;  // nothing we can write
    default:
      WriteEmptyStructField(w, id);
      break;
  }
  w.EndStruct();
}

// ---- SchemaElement ----

Status Decode(CompactReader& r, SchemaElement* out) {
  *out = {};
  return ReadFields(r, "SchemaElement", Fields({4}), [&](int16_t id, CompactType t) -> Status {
    switch (id) {
      case 1:
        return ReadInt(r, t, &out->type);
      case 2:
        return ReadInt(r, t, &out->type_length);
      case 3:
        return ReadInt(r, t, &out->repetition_type);
      case 4:
        return ReadString(r, t, &out->name);
      case 5:
        return ReadInt(r, t, &out->num_children);
      case 6:
        return ReadInt(r, t, &out->converted_type);
      case 7:
        return ReadInt(r, t, &out->scale);
      case 8:
        return ReadInt(r, t, &out->precision);
      case 9:
        return ReadInt(r, t, &out->field_id);
      case 10:
        return ReadStructField(r, t, &out->logical_type);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const SchemaElement& v, CompactWriter& w) {
  w.BeginStruct();
  if (v.type) w.WriteI32Field(1, static_cast<int32_t>(*v.type));
  if (v.type_length) w.WriteI32Field(2, *v.type_length);
  if (v.repetition_type) w.WriteI32Field(3, static_cast<int32_t>(*v.repetition_type));
  w.WriteBinaryField(4, v.name);
  if (v.num_children) w.WriteI32Field(5, *v.num_children);
  if (v.converted_type) w.WriteI32Field(6, static_cast<int32_t>(*v.converted_type));
  if (v.scale) w.WriteI32Field(7, *v.scale);
  if (v.precision) w.WriteI32Field(8, *v.precision);
  if (v.field_id) w.WriteI32Field(9, *v.field_id);
  if (v.logical_type) WriteStructField(w, 10, *v.logical_type);
  w.EndStruct();
}

// ---- small structs ----

Status Decode(CompactReader& r, KeyValue* out) {
  *out = {};
  return ReadFields(r, "KeyValue", Fields({1}), [&](int16_t id, CompactType t) -> Status {
    if (id == 1) return ReadString(r, t, &out->key);
    if (id == 2) return ReadString(r, t, &out->value);
    return r.Skip(t);
  });
}

void Encode(const KeyValue& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteBinaryField(1, v.key);
  if (v.value) w.WriteBinaryField(2, *v.value);
  w.EndStruct();
}

Status Decode(CompactReader& r, SortingColumn* out) {
  *out = {};
  return ReadFields(r, "SortingColumn", Fields({1, 2, 3}), [&](int16_t id, CompactType t) {
    if (id == 1) return ReadInt(r, t, &out->column_idx);
    if (id == 2) return ReadBool(r, t, &out->descending);
    if (id == 3) return ReadBool(r, t, &out->nulls_first);
    return r.Skip(t);
  });
}

void Encode(const SortingColumn& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.column_idx);
  w.WriteBoolField(2, v.descending);
  w.WriteBoolField(3, v.nulls_first);
  w.EndStruct();
}

Status Decode(CompactReader& r, PageEncodingStats* out) {
  *out = {};
  return ReadFields(r, "PageEncodingStats", Fields({1, 2, 3}), [&](int16_t id, CompactType t) {
    if (id == 1) return ReadInt(r, t, &out->page_type);
    if (id == 2) return ReadInt(r, t, &out->encoding);
    if (id == 3) return ReadInt(r, t, &out->count);
    return r.Skip(t);
  });
}

void Encode(const PageEncodingStats& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, static_cast<int32_t>(v.page_type));
  w.WriteI32Field(2, static_cast<int32_t>(v.encoding));
  w.WriteI32Field(3, v.count);
  w.EndStruct();
}

Status Decode(CompactReader& r, SizeStatistics* out) {
  *out = {};
  return ReadFields(r, "SizeStatistics", 0, [&](int16_t id, CompactType t) -> Status {
    if (id == 1) return ReadInt(r, t, &out->unencoded_byte_array_data_bytes);
    if (id == 2) return ReadIntList(r, t, &out->repetition_level_histogram);
    if (id == 3) return ReadIntList(r, t, &out->definition_level_histogram);
    return r.Skip(t);
  });
}

void Encode(const SizeStatistics& v, CompactWriter& w) {
  w.BeginStruct();
  if (v.unencoded_byte_array_data_bytes) w.WriteI64Field(1, *v.unencoded_byte_array_data_bytes);
  if (!v.repetition_level_histogram.empty()) {
    WriteIntList(w, 2, CompactType::kI64, v.repetition_level_histogram);
  }
  if (!v.definition_level_histogram.empty()) {
    WriteIntList(w, 3, CompactType::kI64, v.definition_level_histogram);
  }
  w.EndStruct();
}

// ---- ColumnMetaData / ColumnChunk / RowGroup ----

Status Decode(CompactReader& r, ColumnMetaData* out) {
  *out = {};
  return ReadFields(r, "ColumnMetaData", Fields({1, 2, 3, 4, 5, 6, 7, 9}),
                    [&](int16_t id, CompactType t) -> Status {
                      switch (id) {
                        case 1:
                          return ReadInt(r, t, &out->type);
                        case 2:
                          return ReadIntList(r, t, &out->encodings);
                        case 3:
                          return ReadList(
                              r, t, &out->path_in_schema,
                              [&](CompactType et, std::string* s) { return ReadString(r, et, s); });
                        case 4:
                          return ReadInt(r, t, &out->codec);
                        case 5:
                          return ReadInt(r, t, &out->num_values);
                        case 6:
                          return ReadInt(r, t, &out->total_uncompressed_size);
                        case 7:
                          return ReadInt(r, t, &out->total_compressed_size);
                        case 8:
                          return ReadStructList(r, t, &out->key_value_metadata);
                        case 9:
                          return ReadInt(r, t, &out->data_page_offset);
                        case 10:
                          return ReadInt(r, t, &out->index_page_offset);
                        case 11:
                          return ReadInt(r, t, &out->dictionary_page_offset);
                        case 12:
                          return ReadStructField(r, t, &out->statistics);
                        case 13:
                          return ReadStructList(r, t, &out->encoding_stats);
                        case 14:
                          return ReadInt(r, t, &out->bloom_filter_offset);
                        case 15:
                          return ReadInt(r, t, &out->bloom_filter_length);
                        case 16:
                          return ReadStructField(r, t, &out->size_statistics);
                        default:
                          return r.Skip(t);
                      }
                    });
}

void Encode(const ColumnMetaData& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, static_cast<int32_t>(v.type));
  WriteIntList(w, 2, CompactType::kI32, v.encodings);
  w.WriteFieldBegin(3, CompactType::kList);
  w.WriteListBegin(CompactType::kBinary, static_cast<uint32_t>(v.path_in_schema.size()));
  for (const std::string& p : v.path_in_schema) w.WriteBinary(p);
  w.WriteI32Field(4, static_cast<int32_t>(v.codec));
  w.WriteI64Field(5, v.num_values);
  w.WriteI64Field(6, v.total_uncompressed_size);
  w.WriteI64Field(7, v.total_compressed_size);
  if (!v.key_value_metadata.empty()) WriteStructList(w, 8, v.key_value_metadata);
  w.WriteI64Field(9, v.data_page_offset);
  if (v.index_page_offset) w.WriteI64Field(10, *v.index_page_offset);
  if (v.dictionary_page_offset) w.WriteI64Field(11, *v.dictionary_page_offset);
  if (v.statistics) WriteStructField(w, 12, *v.statistics);
  if (!v.encoding_stats.empty()) WriteStructList(w, 13, v.encoding_stats);
  if (v.bloom_filter_offset) w.WriteI64Field(14, *v.bloom_filter_offset);
  if (v.bloom_filter_length) w.WriteI32Field(15, *v.bloom_filter_length);
  if (v.size_statistics) WriteStructField(w, 16, *v.size_statistics);
  w.EndStruct();
}

Status Decode(CompactReader& r, ColumnChunk* out) {
  *out = {};
  // file_offset (2) is required by the IDL but some writers omit it; it defaults to 0.
  return ReadFields(r, "ColumnChunk", 0, [&](int16_t id, CompactType t) -> Status {
    switch (id) {
      case 1:
        return ReadString(r, t, &out->file_path);
      case 2:
        return ReadInt(r, t, &out->file_offset);
      case 3:
        return ReadStructField(r, t, &out->meta_data);
      case 4:
        return ReadInt(r, t, &out->offset_index_offset);
      case 5:
        return ReadInt(r, t, &out->offset_index_length);
      case 6:
        return ReadInt(r, t, &out->column_index_offset);
      case 7:
        return ReadInt(r, t, &out->column_index_length);
      case 8:
        out->has_crypto_metadata = true;
        return r.Skip(t);
      case 9:
        return ReadString(r, t, &out->encrypted_column_metadata);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const ColumnChunk& v, CompactWriter& w) {
  w.BeginStruct();
  if (v.file_path) w.WriteBinaryField(1, *v.file_path);
  w.WriteI64Field(2, v.file_offset);
  if (v.meta_data) WriteStructField(w, 3, *v.meta_data);
  if (v.offset_index_offset) w.WriteI64Field(4, *v.offset_index_offset);
  if (v.offset_index_length) w.WriteI32Field(5, *v.offset_index_length);
  if (v.column_index_offset) w.WriteI64Field(6, *v.column_index_offset);
  if (v.column_index_length) w.WriteI32Field(7, *v.column_index_length);
  if (v.encrypted_column_metadata) w.WriteBinaryField(9, *v.encrypted_column_metadata);
  w.EndStruct();
}

Status Decode(CompactReader& r, RowGroup* out) {
  *out = {};
  return ReadFields(r, "RowGroup", Fields({1, 2, 3}), [&](int16_t id, CompactType t) -> Status {
    switch (id) {
      case 1:
        return ReadStructList(r, t, &out->columns);
      case 2:
        return ReadInt(r, t, &out->total_byte_size);
      case 3:
        return ReadInt(r, t, &out->num_rows);
      case 4:
        return ReadStructList(r, t, &out->sorting_columns);
      case 5:
        return ReadInt(r, t, &out->file_offset);
      case 6:
        return ReadInt(r, t, &out->total_compressed_size);
      case 7:
        return ReadInt(r, t, &out->ordinal);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const RowGroup& v, CompactWriter& w) {
  w.BeginStruct();
  WriteStructList(w, 1, v.columns);
  w.WriteI64Field(2, v.total_byte_size);
  w.WriteI64Field(3, v.num_rows);
  if (!v.sorting_columns.empty()) WriteStructList(w, 4, v.sorting_columns);
  if (v.file_offset) w.WriteI64Field(5, *v.file_offset);
  if (v.total_compressed_size) w.WriteI64Field(6, *v.total_compressed_size);
  if (v.ordinal) {
    w.WriteFieldBegin(7, CompactType::kI16);
    w.WriteI16(*v.ordinal);
  }
  w.EndStruct();
}

// ---- FileMetaData ----

namespace {

Status DecodeColumnOrder(CompactReader& r, CompactType t, ColumnOrder* out) {
  SQE_RETURN_NOT_OK(ExpectType(r, t, CompactType::kStruct));
  *out = ColumnOrder::kUnknown;
  return ReadFields(r, "ColumnOrder", 0, [&](int16_t id, CompactType ft) {
    if (id >= 1 && id <= 3) *out = static_cast<ColumnOrder>(id);
    return r.Skip(ft);
  });
}

}  // namespace

Status Decode(CompactReader& r, FileMetaData* out) {
  *out = {};
  return ReadFields(
      r, "FileMetaData", Fields({1, 2, 3, 4}), [&](int16_t id, CompactType t) -> Status {
        switch (id) {
          case 1:
            return ReadInt(r, t, &out->version);
          case 2:
            return ReadStructList(r, t, &out->schema);
          case 3:
            return ReadInt(r, t, &out->num_rows);
          case 4:
            return ReadStructList(r, t, &out->row_groups);
          case 5:
            return ReadStructList(r, t, &out->key_value_metadata);
          case 6:
            return ReadString(r, t, &out->created_by);
          case 7:
            return ReadList(r, t, &out->column_orders, [&](CompactType et, ColumnOrder* o) {
              return DecodeColumnOrder(r, et, o);
            });
          case 8:
            out->has_encryption_algorithm = true;
            return r.Skip(t);
          case 9:
            return ReadString(r, t, &out->footer_signing_key_metadata);
          default:
            return r.Skip(t);
        }
      });
}

void Encode(const FileMetaData& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.version);
  WriteStructList(w, 2, v.schema);
  w.WriteI64Field(3, v.num_rows);
  WriteStructList(w, 4, v.row_groups);
  if (!v.key_value_metadata.empty()) WriteStructList(w, 5, v.key_value_metadata);
  if (v.created_by) w.WriteBinaryField(6, *v.created_by);
  if (!v.column_orders.empty()) {
    w.WriteFieldBegin(7, CompactType::kList);
    w.WriteListBegin(CompactType::kStruct, static_cast<uint32_t>(v.column_orders.size()));
    for (ColumnOrder o : v.column_orders) {
      w.BeginStruct();
      if (o != ColumnOrder::kUnknown) WriteEmptyStructField(w, static_cast<int16_t>(o));
      w.EndStruct();
    }
  }
  if (v.footer_signing_key_metadata) w.WriteBinaryField(9, *v.footer_signing_key_metadata);
  w.EndStruct();
}

}  // namespace sqe::parquet
