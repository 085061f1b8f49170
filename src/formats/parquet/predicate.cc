#include "formats/parquet/predicate.h"

#include <cmath>
#include <cstring>

#include "columnar/data_type.h"
#include "common/hex.h"
#include "formats/parquet/value_conversion.h"

namespace sqe::parquet {
namespace {

using columnar::Decimal128;
using columnar::TypeId;

bool IsComparison(PredicateOp op) {
  return op == PredicateOp::kEq || op == PredicateOp::kNe || op == PredicateOp::kLt ||
         op == PredicateOp::kLe || op == PredicateOp::kGt || op == PredicateOp::kGe;
}

// The value as an int64 when it fits.
std::optional<int64_t> AsInt64(const Decimal128& d) {
  const int64_t low = static_cast<int64_t>(d.low);
  if (d.high != (low < 0 ? -1 : 0)) return std::nullopt;
  return low;
}

template <typename T>
std::string Plain(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

// Whether the column's literal kinds include `kind`.
bool Accepts(TypeId column, Literal::Kind kind) {
  using K = Literal::Kind;
  switch (column) {
    case TypeId::kBoolean:
      return kind == K::kBool;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDecimal128:
      return kind == K::kInt64 || kind == K::kDecimal;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return kind == K::kInt64 || kind == K::kDouble;
    case TypeId::kString:
      return kind == K::kString;
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return kind == K::kBytes;
    case TypeId::kDate32:
      return kind == K::kDate;
    case TypeId::kTime64:
      return kind == K::kTime;
    case TypeId::kTimestamp:
      return kind == K::kTimestamp;
    default:
      return false;
  }
}

// The literal as a value of the column's statistics order; nullopt when it has no exact
// place there.
std::optional<StatValue> ToStatValue(const Literal& lit, StatValue::Kind kind) {
  using K = Literal::Kind;
  switch (kind) {
    case StatValue::Kind::kNumber:
      switch (lit.kind()) {
        case K::kBool:
        case K::kInt64:
        case K::kDate:
          return StatValue::Number(Decimal128(lit.int_value()));
        case K::kDecimal:
          return StatValue::Number(lit.decimal(), lit.scale());
        case K::kTime:
        case K::kTimestamp:
          return StatValue::Number(Decimal128(lit.int_value()),
                                   columnar::FractionDigits(lit.unit()));
        default:
          return std::nullopt;
      }
    case StatValue::Kind::kFloat:
      if (lit.kind() == K::kDouble) return StatValue::Float(lit.double_value());
      if (lit.kind() == K::kInt64) {
        constexpr int64_t kExactDouble = int64_t{1} << 53;
        if (lit.int_value() > kExactDouble || lit.int_value() < -kExactDouble) return std::nullopt;
        return StatValue::Float(static_cast<double>(lit.int_value()));
      }
      return std::nullopt;
    case StatValue::Kind::kBytes:
      return StatValue::Bytes(lit.bytes());
  }
  return std::nullopt;
}

// Fills representable and probes for a number-order literal.
void PlaceNumber(const ColumnDescriptor& col, const StatType& st, BoundValue* out) {
  auto raw = Rescale(out->value, st.scale);
  if (!raw) {
    out->representable = false;
    return;
  }
  const columnar::DataType& type = *col.type;
  if (type.id() == TypeId::kDecimal128 && !raw->FitsInPrecision(type.precision())) {
    out->representable = false;
    return;
  }
  switch (col.physical_type) {
    case PhysicalType::kBoolean:
      return;  // Bloom filters on booleans would be pointless; none are probed
    case PhysicalType::kInt32: {
      auto v = AsInt64(*raw);
      int64_t lo = INT32_MIN, hi = INT32_MAX;
      if (st.encoding == StatEncoding::kUint32) {
        lo = 0;
        hi = type.id() == TypeId::kInt16 ? 0xff : type.id() == TypeId::kInt32 ? 0xffff : 0xffffffff;
      } else if (type.id() == TypeId::kInt8) {
        lo = INT8_MIN, hi = INT8_MAX;
      } else if (type.id() == TypeId::kInt16) {
        lo = INT16_MIN, hi = INT16_MAX;
      }
      if (!v || *v < lo || *v > hi) {
        out->representable = false;
        return;
      }
      out->probes.push_back(Plain(static_cast<uint32_t>(*v)));
      return;
    }
    case PhysicalType::kInt64: {
      auto v = AsInt64(*raw);
      if (!v) {
        out->representable = false;
        return;
      }
      out->probes.push_back(Plain(*v));
      return;
    }
    case PhysicalType::kFixedLenByteArray: {
      if (st.encoding != StatEncoding::kDecimalBigEndian) return;
      std::string be(static_cast<size_t>(std::max(col.type_length, 0)), '\0');
      if (col.type_length <= 0 || col.type_length > 16 ||
          !DecimalToBigEndian(*raw, col.type_length, reinterpret_cast<uint8_t*>(be.data())).ok()) {
        // Wider than 16 bytes: the encoding is sign extension we could add, but such
        // columns are rare; leave the literal unprobed.
        if (col.type_length <= 16) out->representable = false;
        return;
      }
      out->probes.push_back(std::move(be));
      return;
    }
    default:
      return;  // BYTE_ARRAY decimals have no canonical width; INT96 has no order
  }
}

void PlaceFloat(const ColumnDescriptor& col, BoundValue* out) {
  const double v = out->value.real;
  if (std::isnan(v)) return;
  if (col.physical_type == PhysicalType::kDouble) {
    out->probes.push_back(Plain(v));
    if (v == 0) out->probes.push_back(Plain(-v));
  } else if (col.physical_type == PhysicalType::kFloat) {
    const auto f = static_cast<float>(v);
    if (static_cast<double>(f) != v) return;  // no exact float: leave it unprobed
    out->probes.push_back(Plain(f));
    if (f == 0) out->probes.push_back(Plain(-f));
  }
}

void PlaceBytes(const ColumnDescriptor& col, BoundValue* out) {
  if (col.physical_type == PhysicalType::kFixedLenByteArray &&
      out->value.bytes.size() != static_cast<size_t>(col.type_length)) {
    out->representable = false;
    return;
  }
  out->probes.push_back(out->value.bytes);
}

Result<const ColumnDescriptor*> Resolve(const ColumnRef& ref, const ParquetSchema& schema) {
  for (const ColumnDescriptor& c : schema.columns) {
    const bool hit =
        ref.kind == ColumnRef::Kind::kFieldId ? c.field_id == ref.field_id : c.path == ref.path;
    if (hit) return &c;
  }
  if (ref.kind == ColumnRef::Kind::kName && ref.path.size() == 1 &&
      schema.schema->FieldIndex(ref.path[0]) >= 0) {
    const auto& f = schema.schema->field(schema.schema->FieldIndex(ref.path[0]));
    return Status::InvalidArgument("parquet predicate: column '" + ref.path[0] + "' has type " +
                                   f.type()->ToString() +
                                   "; predicates apply to primitive columns (name a leaf path)");
  }
  std::string known;
  int listed = 0;
  for (const ColumnDescriptor& c : schema.columns) {
    if (listed++ == 20) {
      known += ", ...";
      break;
    }
    if (!known.empty()) known += ", ";
    known += JoinPath(c.path);
    if (ref.kind == ColumnRef::Kind::kFieldId && c.field_id) {
      known += " (id " + std::to_string(*c.field_id) + ")";
    }
  }
  return Status::NotFound("parquet predicate: column " + ref.ToString() +
                          " not found in the file (columns: " + known + ")");
}

}  // namespace

std::string_view PredicateOpName(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEq:
      return "=";
    case PredicateOp::kNe:
      return "!=";
    case PredicateOp::kLt:
      return "<";
    case PredicateOp::kLe:
      return "<=";
    case PredicateOp::kGt:
      return ">";
    case PredicateOp::kGe:
      return ">=";
    case PredicateOp::kIsNull:
      return "IS NULL";
    case PredicateOp::kIsNotNull:
      return "IS NOT NULL";
    case PredicateOp::kIn:
      return "IN";
  }
  return "?";
}

Literal Literal::Bool(bool value) {
  Literal l;
  l.kind_ = Kind::kBool;
  l.int_ = value ? 1 : 0;
  return l;
}
Literal Literal::Int64(int64_t value) {
  Literal l;
  l.kind_ = Kind::kInt64;
  l.int_ = value;
  return l;
}
Literal Literal::Double(double value) {
  Literal l;
  l.kind_ = Kind::kDouble;
  l.double_ = value;
  return l;
}
Literal Literal::String(std::string value) {
  Literal l;
  l.kind_ = Kind::kString;
  l.bytes_ = std::move(value);
  return l;
}
Literal Literal::Bytes(std::string value) {
  Literal l;
  l.kind_ = Kind::kBytes;
  l.bytes_ = std::move(value);
  return l;
}
Literal Literal::Decimal(Decimal128 unscaled, int32_t scale) {
  Literal l;
  l.kind_ = Kind::kDecimal;
  l.decimal_ = unscaled;
  l.scale_ = scale;
  return l;
}
Literal Literal::Date(int32_t days) {
  Literal l;
  l.kind_ = Kind::kDate;
  l.int_ = days;
  return l;
}
Literal Literal::Time(int64_t ticks, columnar::TimeUnit unit) {
  Literal l;
  l.kind_ = Kind::kTime;
  l.int_ = ticks;
  l.unit_ = unit;
  return l;
}
Literal Literal::Timestamp(int64_t ticks, columnar::TimeUnit unit) {
  Literal l;
  l.kind_ = Kind::kTimestamp;
  l.int_ = ticks;
  l.unit_ = unit;
  return l;
}

std::string Literal::TypeName() const {
  const std::string digits = std::to_string(columnar::FractionDigits(unit_));
  switch (kind_) {
    case Kind::kBool:
      return "boolean";
    case Kind::kInt64:
      return "bigint";
    case Kind::kDouble:
      return "double";
    case Kind::kString:
      return "varchar";
    case Kind::kBytes:
      return "varbinary";
    case Kind::kDecimal:
      return "decimal(_," + std::to_string(scale_) + ")";
    case Kind::kDate:
      return "date";
    case Kind::kTime:
      return "time(" + digits + ")";
    case Kind::kTimestamp:
      return "timestamp(" + digits + ")";
  }
  return "?";
}

std::string Literal::ToString() const {
  switch (kind_) {
    case Kind::kBool:
      return int_ ? "true" : "false";
    case Kind::kInt64:
      return std::to_string(int_);
    case Kind::kDouble:
      return std::to_string(double_);
    case Kind::kString:
      return "'" + bytes_ + "'";
    case Kind::kBytes:
      return "X'" + HexLower(bytes_) + "'";
    case Kind::kDecimal:
      return "DECIMAL '" + decimal_.ToString(scale_) + "'";
    case Kind::kDate:
      return "DATE " + std::to_string(int_);
    case Kind::kTime:
    case Kind::kTimestamp:
      return (kind_ == Kind::kTime ? "TIME(" : "TIMESTAMP(") +
             std::to_string(columnar::FractionDigits(unit_)) + ") " + std::to_string(int_);
  }
  return "?";
}

ColumnRef ColumnRef::Name(std::string name) {
  ColumnRef r;
  r.kind = Kind::kName;
  r.path.push_back(std::move(name));
  return r;
}
ColumnRef ColumnRef::Path(std::vector<std::string> path) {
  ColumnRef r;
  r.kind = Kind::kPath;
  r.path = std::move(path);
  return r;
}
ColumnRef ColumnRef::FieldId(int32_t id) {
  ColumnRef r;
  r.kind = Kind::kFieldId;
  r.field_id = id;
  return r;
}
std::string ColumnRef::ToString() const {
  if (kind == Kind::kFieldId) return "with field id " + std::to_string(field_id);
  return "'" + JoinPath(path) + "'";
}

Predicate Predicate::Compare(ColumnRef column, PredicateOp op, Literal value) {
  return Predicate{std::move(column), op, {std::move(value)}};
}
Predicate Predicate::IsNull(ColumnRef column) {
  return Predicate{std::move(column), PredicateOp::kIsNull, {}};
}
Predicate Predicate::IsNotNull(ColumnRef column) {
  return Predicate{std::move(column), PredicateOp::kIsNotNull, {}};
}
Predicate Predicate::In(ColumnRef column, std::vector<Literal> values) {
  return Predicate{std::move(column), PredicateOp::kIn, std::move(values)};
}

std::string Predicate::ToString() const {
  std::string out = column.ToString() + " " + std::string(PredicateOpName(op));
  if (op == PredicateOp::kIn) {
    out += " (";
    for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].ToString();
    return out + ")";
  }
  for (const Literal& v : values) out += " " + v.ToString();
  return out;
}

std::string BoundPredicate::ToString() const {
  std::string out = column_name + " " + std::string(PredicateOpName(op));
  if (op == PredicateOp::kIn) out += " (";
  for (size_t i = 0; i < values.size(); ++i) {
    out += (i ? ", " : op == PredicateOp::kIn ? "" : " ") + values[i].value.ToString();
  }
  if (op == PredicateOp::kIn) out += ")";
  return out;
}

Result<BoundPredicate> BindPredicate(const Predicate& predicate, const ParquetSchema& schema) {
  const bool null_test =
      predicate.op == PredicateOp::kIsNull || predicate.op == PredicateOp::kIsNotNull;
  if ((null_test && !predicate.values.empty()) ||
      (IsComparison(predicate.op) && predicate.values.size() != 1)) {
    return Status::InvalidArgument("parquet predicate " + predicate.ToString() + ": " +
                                   std::string(PredicateOpName(predicate.op)) + " takes " +
                                   (null_test ? "no literal" : "exactly one literal"));
  }
  SQE_ASSIGN_OR_RETURN(const ColumnDescriptor* col, Resolve(predicate.column, schema));
  BoundPredicate out;
  out.column = static_cast<int>(col - schema.columns.data());
  out.column_name = JoinPath(col->path);
  out.op = predicate.op;
  if (col->max_repetition_level > 0) {
    return Status::InvalidArgument("parquet predicate: column '" + out.column_name +
                                   "' is inside a list or map; predicates apply to columns "
                                   "with one value per row");
  }
  out.stat_type = StatTypeOf(*col);
  out.nullable = col->max_definition_level > 0;
  if (out.stat_type.encoding == StatEncoding::kNone) out.comparable = false;
  const StatValue::Kind kind = out.stat_type.kind();
  for (const Literal& lit : predicate.values) {
    if (!Accepts(col->type->id(), lit.kind())) {
      return Status::InvalidArgument("parquet predicate on column '" + out.column_name + "' (" +
                                     col->type->ToString() + "): a " + lit.TypeName() +
                                     " literal " + lit.ToString() + " cannot be compared with it");
    }
    BoundValue v;
    auto value = ToStatValue(lit, kind);
    if (!value) {
      out.comparable = false;
      out.values.push_back(std::move(v));
      continue;
    }
    v.value = std::move(*value);
    if (out.stat_type.encoding != StatEncoding::kNone) {
      switch (kind) {
        case StatValue::Kind::kNumber:
          PlaceNumber(*col, out.stat_type, &v);
          break;
        case StatValue::Kind::kFloat:
          PlaceFloat(*col, &v);
          break;
        case StatValue::Kind::kBytes:
          PlaceBytes(*col, &v);
          break;
      }
    }
    out.values.push_back(std::move(v));
  }
  return out;
}

Result<std::vector<BoundPredicate>> BindPredicates(const std::vector<Predicate>& conjunction,
                                                   const ParquetSchema& schema) {
  std::vector<BoundPredicate> out;
  out.reserve(conjunction.size());
  for (const Predicate& p : conjunction) {
    SQE_ASSIGN_OR_RETURN(BoundPredicate b, BindPredicate(p, schema));
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace sqe::parquet
