// Codecs for the page index (PageIndex.md: ColumnIndex, OffsetIndex) and the Bloom filter
// header (BloomFilter.md).
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
using internal::ReadStructList;
using internal::WriteEmptyStructField;
using internal::WriteIntList;
using internal::WriteStructList;

Status Decode(CompactReader& r, PageLocation* out) {
  *out = {};
  return ReadFields(r, "PageLocation", Fields({1, 2, 3}), [&](int16_t id, CompactType t) {
    if (id == 1) return ReadInt(r, t, &out->offset);
    if (id == 2) return ReadInt(r, t, &out->compressed_page_size);
    if (id == 3) return ReadInt(r, t, &out->first_row_index);
    return r.Skip(t);
  });
}

void Encode(const PageLocation& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI64Field(1, v.offset);
  w.WriteI32Field(2, v.compressed_page_size);
  w.WriteI64Field(3, v.first_row_index);
  w.EndStruct();
}

Status Decode(CompactReader& r, OffsetIndex* out) {
  *out = {};
  return ReadFields(r, "OffsetIndex", Fields({1}), [&](int16_t id, CompactType t) {
    if (id == 1) return ReadStructList(r, t, &out->page_locations);
    if (id == 2) return ReadIntList(r, t, &out->unencoded_byte_array_data_bytes);
    return r.Skip(t);
  });
}

void Encode(const OffsetIndex& v, CompactWriter& w) {
  w.BeginStruct();
  WriteStructList(w, 1, v.page_locations);
  if (!v.unencoded_byte_array_data_bytes.empty()) {
    WriteIntList(w, 2, CompactType::kI64, v.unencoded_byte_array_data_bytes);
  }
  w.EndStruct();
}

namespace {

Status ReadOptionalIntList(CompactReader& r, CompactType t,
                           std::optional<std::vector<int64_t>>* out) {
  std::vector<int64_t> v;
  SQE_RETURN_NOT_OK(ReadIntList(r, t, &v));
  *out = std::move(v);
  return Status::OK();
}

}  // namespace

Status Decode(CompactReader& r, ColumnIndex* out) {
  *out = {};
  return ReadFields(
      r, "ColumnIndex", Fields({1, 2, 3, 4}), [&](int16_t id, CompactType t) -> Status {
        auto read_binary = [&](CompactType et, std::string* s) { return ReadString(r, et, s); };
        switch (id) {
          case 1: {
            std::vector<char> pages;  // vector<bool> has no addressable elements
            SQE_RETURN_NOT_OK(ReadList(r, t, &pages, [&](CompactType et, char* b) {
              bool v;
              SQE_RETURN_NOT_OK(ReadBool(r, et, &v));
              *b = v;
              return Status::OK();
            }));
            out->null_pages.assign(pages.begin(), pages.end());
            return Status::OK();
          }
          case 2:
            return ReadList(r, t, &out->min_values, read_binary);
          case 3:
            return ReadList(r, t, &out->max_values, read_binary);
          case 4:
            return ReadInt(r, t, &out->boundary_order);
          case 5:
            return ReadOptionalIntList(r, t, &out->null_counts);
          case 6:
            return ReadIntList(r, t, &out->repetition_level_histograms);
          case 7:
            return ReadIntList(r, t, &out->definition_level_histograms);
          case 8:
            return ReadOptionalIntList(r, t, &out->nan_counts);
          default:
            return r.Skip(t);
        }
      });
}

void Encode(const ColumnIndex& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteFieldBegin(1, CompactType::kList);
  w.WriteListBegin(CompactType::kBoolTrue, static_cast<uint32_t>(v.null_pages.size()));
  for (bool b : v.null_pages) w.WriteBool(b);
  for (int16_t id : {2, 3}) {
    const auto& list = id == 2 ? v.min_values : v.max_values;
    w.WriteFieldBegin(id, CompactType::kList);
    w.WriteListBegin(CompactType::kBinary, static_cast<uint32_t>(list.size()));
    for (const std::string& s : list) w.WriteBinary(s);
  }
  w.WriteI32Field(4, static_cast<int32_t>(v.boundary_order));
  if (v.null_counts) WriteIntList(w, 5, CompactType::kI64, *v.null_counts);
  if (!v.repetition_level_histograms.empty()) {
    WriteIntList(w, 6, CompactType::kI64, v.repetition_level_histograms);
  }
  if (!v.definition_level_histograms.empty()) {
    WriteIntList(w, 7, CompactType::kI64, v.definition_level_histograms);
  }
  if (v.nan_counts) WriteIntList(w, 8, CompactType::kI64, *v.nan_counts);
  w.EndStruct();
}

namespace {

// A union whose members are all empty structs: returns the member's field id (0 if none
// is recognised as being in 1..known_max).
Status DecodeUnitUnion(CompactReader& r, CompactType t, const char* name, int known_max,
                       int32_t* out) {
  SQE_RETURN_NOT_OK(ExpectType(r, t, CompactType::kStruct));
  *out = 0;
  return ReadFields(r, name, 0, [&](int16_t id, CompactType ft) {
    if (id >= 1 && id <= known_max) *out = id;
    return r.Skip(ft);
  });
}

void EncodeUnitUnion(CompactWriter& w, int16_t field_id, int32_t member) {
  w.WriteFieldBegin(field_id, CompactType::kStruct);
  w.BeginStruct();
  if (member > 0) WriteEmptyStructField(w, static_cast<int16_t>(member));
  w.EndStruct();
}

}  // namespace

Status Decode(CompactReader& r, BloomFilterHeader* out) {
  *out = {};
  SQE_RETURN_NOT_OK(ReadFields(
      r, "BloomFilterHeader", Fields({1, 2, 3, 4}), [&](int16_t id, CompactType t) -> Status {
        switch (id) {
          case 1:
            return ReadInt(r, t, &out->num_bytes);
          case 2:
            return DecodeUnitUnion(r, t, "BloomFilterAlgorithm", 1, &out->algorithm);
          case 3:
            return DecodeUnitUnion(r, t, "BloomFilterHash", 1, &out->hash);
          case 4:
            return DecodeUnitUnion(r, t, "BloomFilterCompression", 1, &out->compression);
          default:
            return r.Skip(t);
        }
      }));
  if (out->num_bytes < 0) return r.Corrupt("BloomFilterHeader has a negative size");
  return Status::OK();
}

void Encode(const BloomFilterHeader& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.num_bytes);
  EncodeUnitUnion(w, 2, v.algorithm);
  EncodeUnitUnion(w, 3, v.hash);
  EncodeUnitUnion(w, 4, v.compression);
  w.EndStruct();
}

}  // namespace sqe::parquet
