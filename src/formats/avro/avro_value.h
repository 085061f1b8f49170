#pragma once
/// Value: a generic Avro datum, a small tree of tagged nodes. Records hold their fields
/// in schema order, maps their entries in file order, unions the chosen branch index
/// beside the value itself (so a Value built by hand for writing may leave the branch
/// unset and let the encoder pick the first branch that fits).
///
/// Values are plain data: copyable, movable, not synchronised.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sqe::avro {

class Value {
 public:
  enum class Kind : uint8_t {
    kNull,
    kBoolean,
    kInt,
    kLong,
    kFloat,
    kDouble,
    kBytes,
    kString,
    kFixed,
    kEnum,
    kRecord,
    kArray,
    kMap,
  };
  using MapEntries = std::vector<std::pair<std::string, Value>>;

  Value() = default;
  static Value Null() { return Value(); }
  static Value Boolean(bool v) { return Scalar(Kind::kBoolean, v ? 1 : 0); }
  static Value Int(int32_t v) { return Scalar(Kind::kInt, v); }
  static Value Long(int64_t v) { return Scalar(Kind::kLong, v); }
  static Value Float(float v);
  static Value Double(double v);
  static Value Bytes(std::string v) { return Text(Kind::kBytes, std::move(v)); }
  static Value String(std::string v) { return Text(Kind::kString, std::move(v)); }
  static Value Fixed(std::string v) { return Text(Kind::kFixed, std::move(v)); }
  /// An enum symbol by its index in the schema's symbols.
  static Value Enum(int32_t index) { return Scalar(Kind::kEnum, index); }
  static Value Record(std::vector<Value> fields);
  static Value Array(std::vector<Value> items);
  static Value Map(MapEntries entries);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  /// The union branch this value was decoded from / is to be encoded as; -1 = unset.
  int union_branch() const { return branch_; }
  void set_union_branch(int branch) { branch_ = branch; }

  bool boolean() const { return i_ != 0; }
  int32_t int_value() const { return static_cast<int32_t>(i_); }
  int64_t long_value() const { return i_; }
  int32_t enum_index() const { return static_cast<int32_t>(i_); }
  float float_value() const { return static_cast<float>(d_); }
  double double_value() const { return d_; }
  /// bytes, string and fixed contents.
  const std::string& bytes() const { return s_; }
  std::string& mutable_bytes() { return s_; }
  /// Record fields (schema order) or array items.
  const std::vector<Value>& children() const { return children_; }
  std::vector<Value>& mutable_children() { return children_; }
  const Value& field(size_t i) const { return children_[i]; }
  const MapEntries& map() const { return map_; }
  MapEntries& mutable_map() { return map_; }

  /// Deep equality (union branches are ignored; float/double compare bitwise-by-value).
  bool operator==(const Value& other) const;

  /// A debugging rendering (not the JSON encoding).
  std::string DebugString() const;

 private:
  static Value Scalar(Kind kind, int64_t v) {
    Value out;
    out.kind_ = kind;
    out.i_ = v;
    return out;
  }
  static Value Text(Kind kind, std::string v) {
    Value out;
    out.kind_ = kind;
    out.s_ = std::move(v);
    return out;
  }

  Kind kind_ = Kind::kNull;
  int16_t branch_ = -1;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  std::vector<Value> children_;
  MapEntries map_;
};

}  // namespace sqe::avro
