#pragma once
/// The type system of columnar data: DataType (a type id and its parameters) and Field
/// (a named, possibly nullable child or column with an optional Iceberg field id). Each
/// type maps one-to-one onto an Arrow columnar type, so a Column of it has Arrow's
/// memory layout and goes to Arrow IPC without conversion:
///
///   boolean                 Arrow Bool (bit-packed values)
///   int8/16/32/64           Arrow Int(bitWidth, signed)
///   float32/64              Arrow FloatingPoint(SINGLE/DOUBLE)
///   decimal(p,s), p <= 38   Arrow Decimal(p, s, 128): 16-byte little-endian two's complement
///   string / binary         Arrow Utf8 / Binary (int32 offsets)
///   fixed(n)                Arrow FixedSizeBinary(n)
///   uuid                    Arrow extension "arrow.uuid" on FixedSizeBinary(16)
///   date32                  Arrow Date(DAY): days since 1970-01-01
///   time64(us|ns)           Arrow Time(unit, 64): ticks since midnight
///   timestamp(us|ns[, tz])  Arrow Timestamp(unit, tz): ticks since the UTC epoch
///   list<T>                 Arrow List (int32 offsets, one child)
///   struct<...>             Arrow Struct
///   map<K,V>                Arrow Map: list of non-null struct<key: K not null, value: V>
///
/// Types are immutable and shared (TypePtr); every method is thread-safe.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/key_value_metadata.h"
#include "columnar/time_unit.h"
#include "common/result.h"

namespace sqe::columnar {

enum class TypeId : uint8_t {
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat32,
  kFloat64,
  kDecimal128,
  kString,
  kBinary,
  kFixedSizeBinary,
  kUuid,
  kDate32,
  kTime64,
  kTimestamp,
  kList,
  kStruct,
  kMap,
};

/// The physical layout family of a type: which buffers a Column of it has, in Arrow's
/// buffer order.
enum class Layout : uint8_t {
  kBitmap,      // [validity, bit-packed values]                      boolean
  kFixedWidth,  // [validity, values of byte_width() bytes each]      numbers, decimal, fixed,
                //                                                    uuid, date, time, timestamp
  kVarBinary,   // [validity, int32 offsets (length + 1), data]       string, binary
  kList,        // [validity, int32 offsets (length + 1)] + 1 child   list, map
  kStruct,      // [validity] + one child per field                   struct
};

class DataType;
class Field;
using TypePtr = std::shared_ptr<const DataType>;

/// A named slot of a nested type or a schema. A value type: cheap to copy (the type is
/// shared). The Iceberg field id is optional because Arrow data need not come from Iceberg.
class Field {
 public:
  Field(std::string name, TypePtr type, bool nullable = true,
        std::optional<int32_t> field_id = std::nullopt, KeyValueMetadata metadata = {});

  const std::string& name() const { return name_; }
  const TypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  std::optional<int32_t> field_id() const { return field_id_; }
  const KeyValueMetadata& metadata() const { return metadata_; }

  Field WithName(std::string name) const;
  Field WithType(TypePtr type) const;
  Field WithNullable(bool nullable) const;
  Field WithFieldId(std::optional<int32_t> field_id) const;
  Field WithMetadata(KeyValueMetadata metadata) const;

  /// "name bigint", "name bigint not null" (the field id is not printed).
  std::string ToString() const;
  /// Name, type, nullability and field id equal; metadata too when `check_metadata`.
  bool Equals(const Field& other, bool check_metadata = true) const;
  bool operator==(const Field& other) const { return Equals(other); }

 private:
  std::string name_;
  TypePtr type_;
  bool nullable_;
  std::optional<int32_t> field_id_;
  KeyValueMetadata metadata_;
};

/// A type id with its parameters. Construct through the factory functions below.
class DataType {
 public:
  static constexpr int32_t kMaxDecimalPrecision = 38;

  TypeId id() const { return id_; }
  Layout layout() const;
  /// Bytes per value for kFixedWidth types; 0 for every other layout.
  int32_t byte_width() const;

  /// Decimal parameters (0 for other types).
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  /// Resolution of time64 and timestamp (kMicro for other types).
  TimeUnit unit() const { return unit_; }
  /// Timestamp zone; "" for a timestamp without time zone. Values are UTC either way.
  const std::string& timezone() const { return timezone_; }
  bool has_timezone() const { return !timezone_.empty(); }
  /// Map: whether keys are sorted within each entry list (Arrow's keysSorted).
  bool keys_sorted() const { return keys_sorted_; }

  /// Children: list -> {element}, struct -> its fields, map -> {entries: struct<key, value>}.
  const std::vector<Field>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const Field& field(int i) const { return fields_[i]; }
  /// List element field; map entries field.
  const Field& value_field() const { return fields_[0]; }
  /// Map key and value fields (children of the entries struct).
  const Field& key_field() const;
  const Field& item_field() const;

  bool is_integer() const { return id_ >= TypeId::kInt8 && id_ <= TypeId::kInt64; }
  bool is_floating() const { return id_ == TypeId::kFloat32 || id_ == TypeId::kFloat64; }
  bool is_nested() const { return id_ >= TypeId::kList; }

  /// Trino-style spelling: bigint, varchar, decimal(15,2), timestamp(6) with time zone,
  /// array(bigint), row(a bigint), map(varchar, bigint). fixed(n) has no Trino type
  /// (the Trino layer reports it as varbinary) and keeps Iceberg's spelling.
  std::string ToString() const;

  /// Same id and parameters; nested types compare their children's types and
  /// nullability, and struct field names. List/map child names ("element", "item",
  /// "entries"), field ids and metadata do not count: they do not change the data.
  bool Equals(const DataType& other) const;
  bool operator==(const DataType& other) const { return Equals(other); }

 private:
  friend struct DataTypeFactory;
  explicit DataType(TypeId id) : id_(id) {}

  TypeId id_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t byte_width_ = 0;
  TimeUnit unit_ = TimeUnit::kMicro;
  bool keys_sorted_ = false;
  std::string timezone_;
  std::vector<Field> fields_;
};

/// The stable lowercase name of a type id ("int64", "timestamp", "map").
std::string_view TypeIdName(TypeId id);

// Factories. Parameterless types are shared singletons.
TypePtr Boolean();
TypePtr Int8();
TypePtr Int16();
TypePtr Int32();
TypePtr Int64();
TypePtr Float32();
TypePtr Float64();
/// Precondition: 1 <= precision <= 38, 0 <= scale <= precision (MakeDecimal checks).
TypePtr Decimal(int32_t precision, int32_t scale);
Result<TypePtr> MakeDecimal(int32_t precision, int32_t scale);
TypePtr String();
TypePtr Binary();
/// Precondition: byte_width >= 0 (MakeFixedSizeBinary checks).
TypePtr FixedSizeBinary(int32_t byte_width);
Result<TypePtr> MakeFixedSizeBinary(int32_t byte_width);
TypePtr Uuid();
TypePtr Date32();
TypePtr Time64(TimeUnit unit = TimeUnit::kMicro);
/// Without time zone when `timezone` is empty. Iceberg's timestamptz is "UTC".
TypePtr Timestamp(TimeUnit unit = TimeUnit::kMicro, std::string timezone = "");
TypePtr TimestampTz(TimeUnit unit = TimeUnit::kMicro);
/// list<element>: the element field is named "element" (Iceberg's and Parquet's name).
TypePtr List(TypePtr element_type, bool element_nullable = true);
TypePtr List(Field element);
TypePtr Struct(std::vector<Field> fields);
/// map<key, value>: the key field is always non-nullable; entries are named
/// "entries" {"key", "value"} as the Arrow spec suggests.
TypePtr Map(TypePtr key_type, TypePtr value_type, bool value_nullable = true);
TypePtr Map(Field key, Field value, bool keys_sorted = false);

}  // namespace sqe::columnar
