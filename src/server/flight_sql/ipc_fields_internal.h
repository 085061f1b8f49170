#pragma once
/// Arrow IPC flatbuffer fields and messages built by hand, for the Flight SQL result
/// schemas our columnar model cannot express (unsigned integers, dense unions): used by
/// sql_info.cc and key_results.cc only. Include from .cc files (it needs the accessors
/// columnar/ipc generates).

#include <string>
#include <vector>

#include "arrow_message_generated.h"

namespace sqe::server::flight_sql::ipc_fields {

namespace fb = org::apache::arrow::flatbuf;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

inline Offset<fb::Field> MakeField(FlatBufferBuilder& fbb, const std::string& name, bool nullable,
                                   fb::Type type_type, Offset<void> type,
                                   const std::vector<Offset<fb::Field>>& children = {}) {
  auto name_offset = fbb.CreateString(name);
  auto children_offset = fbb.CreateVector(children);
  return fb::CreateField(fbb, name_offset, nullable, type_type, type, 0, children_offset);
}

inline Offset<fb::Field> Utf8Field(FlatBufferBuilder& fbb, const std::string& name, bool nullable) {
  return MakeField(fbb, name, nullable, fb::Type_Utf8, fb::CreateUtf8(fbb).Union());
}

inline Offset<fb::Field> IntField(FlatBufferBuilder& fbb, const std::string& name, int bits,
                                  bool is_signed, bool nullable) {
  return MakeField(fbb, name, nullable, fb::Type_Int, fb::CreateInt(fbb, bits, is_signed).Union());
}

/// The finished Message flatbuffer around `header`.
inline std::string FinishMessage(FlatBufferBuilder& fbb, fb::MessageHeader type,
                                 Offset<void> header, int64_t body_length) {
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, type, header, body_length));
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

/// The Schema message of `fields` (built by `build` into the builder).
template <typename BuildFields>
std::string SchemaMessage(BuildFields build) {
  FlatBufferBuilder fbb;
  std::vector<Offset<fb::Field>> fields = build(fbb);
  auto schema = fb::CreateSchema(fbb, fb::Endianness_Little, fbb.CreateVector(fields));
  return FinishMessage(fbb, fb::MessageHeader_Schema, schema.Union(), 0);
}

}  // namespace sqe::server::flight_sql::ipc_fields
