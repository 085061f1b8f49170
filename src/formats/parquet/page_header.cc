// Codecs for PageHeader and its per-page-type headers (parquet.thrift).
#include "formats/parquet/metadata.h"
#include "formats/parquet/thrift_fields_internal.h"

namespace sqe::parquet {

using internal::Fields;
using internal::ReadBool;
using internal::ReadFields;
using internal::ReadInt;
using internal::ReadStructField;
using internal::WriteStructField;

Status Decode(CompactReader& r, DataPageHeader* out) {
  *out = {};
  return ReadFields(r, "DataPageHeader", Fields({1, 2, 3, 4}), [&](int16_t id, CompactType t) {
    switch (id) {
      case 1:
        return ReadInt(r, t, &out->num_values);
      case 2:
        return ReadInt(r, t, &out->encoding);
      case 3:
        return ReadInt(r, t, &out->definition_level_encoding);
      case 4:
        return ReadInt(r, t, &out->repetition_level_encoding);
      case 5:
        return ReadStructField(r, t, &out->statistics);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const DataPageHeader& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.num_values);
  w.WriteI32Field(2, static_cast<int32_t>(v.encoding));
  w.WriteI32Field(3, static_cast<int32_t>(v.definition_level_encoding));
  w.WriteI32Field(4, static_cast<int32_t>(v.repetition_level_encoding));
  if (v.statistics) WriteStructField(w, 5, *v.statistics);
  w.EndStruct();
}

Status Decode(CompactReader& r, IndexPageHeader* out) {
  return ReadFields(r, "IndexPageHeader", 0, [&](int16_t, CompactType t) { return r.Skip(t); });
}

void Encode(const IndexPageHeader&, CompactWriter& w) {
  w.BeginStruct();
  w.EndStruct();
}

Status Decode(CompactReader& r, DictionaryPageHeader* out) {
  *out = {};
  return ReadFields(r, "DictionaryPageHeader", Fields({1, 2}), [&](int16_t id, CompactType t) {
    switch (id) {
      case 1:
        return ReadInt(r, t, &out->num_values);
      case 2:
        return ReadInt(r, t, &out->encoding);
      case 3:
        return ReadBool(r, t, &out->is_sorted);
      default:
        return r.Skip(t);
    }
  });
}

void Encode(const DictionaryPageHeader& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.num_values);
  w.WriteI32Field(2, static_cast<int32_t>(v.encoding));
  if (v.is_sorted) w.WriteBoolField(3, *v.is_sorted);
  w.EndStruct();
}

Status Decode(CompactReader& r, DataPageHeaderV2* out) {
  *out = {};
  return ReadFields(r, "DataPageHeaderV2", Fields({1, 2, 3, 4, 5, 6}),
                    [&](int16_t id, CompactType t) {
                      switch (id) {
                        case 1:
                          return ReadInt(r, t, &out->num_values);
                        case 2:
                          return ReadInt(r, t, &out->num_nulls);
                        case 3:
                          return ReadInt(r, t, &out->num_rows);
                        case 4:
                          return ReadInt(r, t, &out->encoding);
                        case 5:
                          return ReadInt(r, t, &out->definition_levels_byte_length);
                        case 6:
                          return ReadInt(r, t, &out->repetition_levels_byte_length);
                        case 7:
                          return ReadBool(r, t, &out->is_compressed);
                        case 8:
                          return ReadStructField(r, t, &out->statistics);
                        default:
                          return r.Skip(t);
                      }
                    });
}

void Encode(const DataPageHeaderV2& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, v.num_values);
  w.WriteI32Field(2, v.num_nulls);
  w.WriteI32Field(3, v.num_rows);
  w.WriteI32Field(4, static_cast<int32_t>(v.encoding));
  w.WriteI32Field(5, v.definition_levels_byte_length);
  w.WriteI32Field(6, v.repetition_levels_byte_length);
  w.WriteBoolField(7, v.is_compressed);
  if (v.statistics) WriteStructField(w, 8, *v.statistics);
  w.EndStruct();
}

Status Decode(CompactReader& r, PageHeader* out) {
  *out = {};
  SQE_RETURN_NOT_OK(
      ReadFields(r, "PageHeader", Fields({1, 2, 3}), [&](int16_t id, CompactType t) -> Status {
        switch (id) {
          case 1:
            return ReadInt(r, t, &out->type);
          case 2:
            return ReadInt(r, t, &out->uncompressed_page_size);
          case 3:
            return ReadInt(r, t, &out->compressed_page_size);
          case 4:
            return ReadInt(r, t, &out->crc);
          case 5:
            return ReadStructField(r, t, &out->data_page_header);
          case 6:
            return ReadStructField(r, t, &out->index_page_header);
          case 7:
            return ReadStructField(r, t, &out->dictionary_page_header);
          case 8:
            return ReadStructField(r, t, &out->data_page_header_v2);
          default:
            return r.Skip(t);
        }
      }));
  if (out->uncompressed_page_size < 0 || out->compressed_page_size < 0) {
    return r.Corrupt("PageHeader has a negative page size");
  }
  return Status::OK();
}

void Encode(const PageHeader& v, CompactWriter& w) {
  w.BeginStruct();
  w.WriteI32Field(1, static_cast<int32_t>(v.type));
  w.WriteI32Field(2, v.uncompressed_page_size);
  w.WriteI32Field(3, v.compressed_page_size);
  if (v.crc) w.WriteI32Field(4, *v.crc);
  if (v.data_page_header) WriteStructField(w, 5, *v.data_page_header);
  if (v.index_page_header) WriteStructField(w, 6, *v.index_page_header);
  if (v.dictionary_page_header) WriteStructField(w, 7, *v.dictionary_page_header);
  if (v.data_page_header_v2) WriteStructField(w, 8, *v.data_page_header_v2);
  w.EndStruct();
}

}  // namespace sqe::parquet
