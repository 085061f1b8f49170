#include "formats/avro/avro_value.h"

#include <cmath>
#include <cstring>

namespace sqe::avro {

Value Value::Float(float v) {
  Value out;
  out.kind_ = Kind::kFloat;
  out.d_ = v;
  return out;
}

Value Value::Double(double v) {
  Value out;
  out.kind_ = Kind::kDouble;
  out.d_ = v;
  return out;
}

Value Value::Record(std::vector<Value> fields) {
  Value out;
  out.kind_ = Kind::kRecord;
  out.children_ = std::move(fields);
  return out;
}

Value Value::Array(std::vector<Value> items) {
  Value out;
  out.kind_ = Kind::kArray;
  out.children_ = std::move(items);
  return out;
}

Value Value::Map(MapEntries entries) {
  Value out;
  out.kind_ = Kind::kMap;
  out.map_ = std::move(entries);
  return out;
}

bool Value::operator==(const Value& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kNull:
      return true;
    case Kind::kBoolean:
    case Kind::kInt:
    case Kind::kLong:
    case Kind::kEnum:
      return i_ == other.i_;
    case Kind::kFloat:
    case Kind::kDouble:
      return d_ == other.d_ || (std::isnan(d_) && std::isnan(other.d_));
    case Kind::kBytes:
    case Kind::kString:
    case Kind::kFixed:
      return s_ == other.s_;
    case Kind::kRecord:
    case Kind::kArray:
      return children_ == other.children_;
    case Kind::kMap:
      return map_ == other.map_;
  }
  return false;
}

std::string Value::DebugString() const {
  switch (kind_) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return i_ ? "true" : "false";
    case Kind::kInt:
    case Kind::kLong:
      return std::to_string(i_);
    case Kind::kEnum:
      return "enum#" + std::to_string(i_);
    case Kind::kFloat:
    case Kind::kDouble:
      return std::to_string(d_);
    case Kind::kBytes:
    case Kind::kFixed:
      return "b\"" + s_ + "\"";
    case Kind::kString:
      return "\"" + s_ + "\"";
    case Kind::kRecord:
    case Kind::kArray: {
      std::string out = kind_ == Kind::kRecord ? "{" : "[";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) out += ", ";
        out += children_[i].DebugString();
      }
      return out + (kind_ == Kind::kRecord ? "}" : "]");
    }
    case Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < map_.size(); ++i) {
        if (i) out += ", ";
        out += "\"" + map_[i].first + "\": " + map_[i].second.DebugString();
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace sqe::avro
