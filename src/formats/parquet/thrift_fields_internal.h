#pragma once
/// Private: the small vocabulary the struct codecs in metadata*.cc are written in: read a
/// struct's fields with a callback, typed field readers that check the wire type, and
/// required-field checks.

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "formats/parquet/thrift_compact.h"

namespace sqe::parquet::internal {

/// Reads a struct, calling `on_field(id, type)` for each field; the callback must consume
/// the value (unknown ids: `return reader.Skip(type)`). Fails with Corruption if a field
/// whose bit is set in `required` (bit i = field id i) is missing.
template <typename F>
Status ReadFields(CompactReader& r, const char* name, uint64_t required, F&& on_field) {
  SQE_RETURN_NOT_OK(r.BeginStruct());
  uint64_t seen = 0;
  while (true) {
    int16_t id;
    CompactType type;
    SQE_RETURN_NOT_OK(r.ReadFieldBegin(&id, &type));
    if (type == CompactType::kStop) break;
    Status st = on_field(id, type);
    if (!st.ok()) return st.WithContext(std::string(name) + "." + std::to_string(id));
    if (id > 0 && id < 64) seen |= uint64_t{1} << id;
  }
  if ((seen & required) != required) {
    for (int i = 1; i < 64; ++i) {
      if ((required >> i & 1) && !(seen >> i & 1)) {
        return r.Corrupt(std::string(name) + " lacks required field " + std::to_string(i));
      }
    }
  }
  return r.EndStruct();
}

constexpr uint64_t Fields(std::initializer_list<int> ids) {
  uint64_t m = 0;
  for (int i : ids) m |= uint64_t{1} << i;
  return m;
}

inline Status ExpectType(CompactReader& r, CompactType got, CompactType want) {
  if (got == want) return Status::OK();
  return r.Corrupt("wire type " + std::to_string(static_cast<int>(got)) + ", expected " +
                   std::to_string(static_cast<int>(want)));
}

template <typename T>
Status ReadInt(CompactReader& r, CompactType t, T* out) {
  SQE_ASSIGN_OR_RETURN(int64_t v, r.ReadInteger(t));
  if constexpr (std::is_enum_v<T>) {
    using U = std::underlying_type_t<T>;
    if (v < std::numeric_limits<U>::min() || v > std::numeric_limits<U>::max()) {
      return r.Corrupt("enum value out of range");
    }
    *out = static_cast<T>(v);
  } else {
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
      return r.Corrupt("integer out of range");
    }
    *out = static_cast<T>(v);
  }
  return Status::OK();
}

template <typename T>
Status ReadInt(CompactReader& r, CompactType t, std::optional<T>* out) {
  T v;
  SQE_RETURN_NOT_OK(ReadInt(r, t, &v));
  *out = v;
  return Status::OK();
}

inline Status ReadBool(CompactReader& r, CompactType t, bool* out) {
  if (t != CompactType::kBoolTrue && t != CompactType::kBoolFalse) {
    return ExpectType(r, t, CompactType::kBoolTrue);
  }
  SQE_ASSIGN_OR_RETURN(*out, r.ReadBool());
  return Status::OK();
}

inline Status ReadBool(CompactReader& r, CompactType t, std::optional<bool>* out) {
  bool v;
  SQE_RETURN_NOT_OK(ReadBool(r, t, &v));
  *out = v;
  return Status::OK();
}

inline Status ReadString(CompactReader& r, CompactType t, std::string* out) {
  SQE_RETURN_NOT_OK(ExpectType(r, t, CompactType::kBinary));
  SQE_ASSIGN_OR_RETURN(*out, r.ReadBinary());
  return Status::OK();
}

inline Status ReadString(CompactReader& r, CompactType t, std::optional<std::string>* out) {
  std::string v;
  SQE_RETURN_NOT_OK(ReadString(r, t, &v));
  *out = std::move(v);
  return Status::OK();
}

/// Reads a list whose elements `read_element(element_type, T*)` decodes.
template <typename T, typename F>
Status ReadList(CompactReader& r, CompactType t, std::vector<T>* out, F&& read_element) {
  if (t != CompactType::kList && t != CompactType::kSet) {
    return ExpectType(r, t, CompactType::kList);
  }
  CompactType element_type;
  uint32_t n;
  SQE_RETURN_NOT_OK(r.ReadListBegin(&element_type, &n));
  out->clear();
  out->reserve(n);  // n <= remaining bytes (checked by ReadListBegin)
  for (uint32_t i = 0; i < n; ++i) {
    T v{};
    SQE_RETURN_NOT_OK(read_element(element_type, &v));
    out->push_back(std::move(v));
  }
  return Status::OK();
}

/// Lists of structs that have a Decode overload.
template <typename T>
Status ReadStructList(CompactReader& r, CompactType t, std::vector<T>* out) {
  return ReadList(r, t, out, [&r](CompactType et, T* v) {
    SQE_RETURN_NOT_OK(ExpectType(r, et, CompactType::kStruct));
    return Decode(r, v);
  });
}

template <typename T>
Status ReadIntList(CompactReader& r, CompactType t, std::vector<T>* out) {
  return ReadList(r, t, out, [&r](CompactType et, T* v) { return ReadInt(r, et, v); });
}

template <typename T>
Status ReadStructField(CompactReader& r, CompactType t, std::optional<T>* out) {
  SQE_RETURN_NOT_OK(ExpectType(r, t, CompactType::kStruct));
  T v;
  SQE_RETURN_NOT_OK(Decode(r, &v));
  *out = std::move(v);
  return Status::OK();
}

// ---- writing ----

template <typename T>
void WriteStructField(CompactWriter& w, int16_t id, const T& v) {
  w.WriteFieldBegin(id, CompactType::kStruct);
  Encode(v, w);
}

template <typename T>
void WriteStructList(CompactWriter& w, int16_t id, const std::vector<T>& v) {
  w.WriteFieldBegin(id, CompactType::kList);
  w.WriteListBegin(CompactType::kStruct, static_cast<uint32_t>(v.size()));
  for (const T& e : v) Encode(e, w);
}

template <typename T>
void WriteIntList(CompactWriter& w, int16_t id, CompactType type, const std::vector<T>& v) {
  w.WriteFieldBegin(id, CompactType::kList);
  w.WriteListBegin(type, static_cast<uint32_t>(v.size()));
  for (const T& e : v) w.WriteI64(static_cast<int64_t>(e));
}

/// Writes an empty struct (the payload of unit union members such as StringType).
inline void WriteEmptyStructField(CompactWriter& w, int16_t id) {
  w.WriteFieldBegin(id, CompactType::kStruct);
  w.BeginStruct();
  w.EndStruct();
}

}  // namespace sqe::parquet::internal
