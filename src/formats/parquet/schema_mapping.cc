#include "formats/parquet/schema_mapping.h"

#include "columnar/data_type.h"

namespace sqe::parquet {
namespace {

using columnar::Field;
using columnar::TypeId;
using columnar::TypePtr;
using Kind = LogicalType::Kind;

constexpr int kMaxSchemaDepth = 128;

// The flat list rebuilt as a tree.
struct Node {
  const SchemaElement* element = nullptr;
  int index = 0;
  std::vector<Node> children;
  bool is_group() const { return element->num_children.has_value(); }
  bool repeated() const { return element->repetition_type == FieldRepetitionType::kRepeated; }
  bool optional() const { return element->repetition_type == FieldRepetitionType::kOptional; }
};

Status BuildTree(const std::vector<SchemaElement>& elements, size_t* cursor, int depth,
                 Node* node) {
  if (depth > kMaxSchemaDepth) {
    return Status::Corruption("parquet schema: nesting deeper than " +
                              std::to_string(kMaxSchemaDepth));
  }
  if (*cursor >= elements.size()) {
    return Status::Corruption("parquet schema: child counts exceed the " +
                              std::to_string(elements.size()) + " schema elements");
  }
  node->index = static_cast<int>(*cursor);
  node->element = &elements[(*cursor)++];
  const SchemaElement& e = *node->element;
  if (!e.num_children.has_value()) {
    if (!e.type.has_value() && depth > 0) {
      return Status::Corruption("parquet schema: leaf '" + e.name + "' has no physical type");
    }
    return Status::OK();
  }
  int32_t n = *e.num_children;
  if (n < 0 || static_cast<size_t>(n) > elements.size() - *cursor) {
    return Status::Corruption("parquet schema: group '" + e.name + "' claims " + std::to_string(n) +
                              " children");
  }
  node->children.resize(n);
  for (int32_t i = 0; i < n; ++i) {
    SQE_RETURN_NOT_OK(BuildTree(elements, cursor, depth + 1, &node->children[i]));
  }
  return Status::OK();
}

bool HasLogical(const SchemaElement& e, Kind k) {
  return e.logical_type.has_value() && e.logical_type->kind == k;
}
bool HasConverted(const SchemaElement& e, ConvertedType c) {
  return e.converted_type.has_value() && *e.converted_type == c;
}

Status Unsupported(const SchemaElement& e, const std::string& what) {
  return Status::NotImplemented("parquet column '" + e.name + "': " + what + " is not supported");
}

struct LeafType {
  TypePtr type;
  LeafConversion conversion = LeafConversion::kNone;
};

Result<LeafType> DecimalLeaf(const SchemaElement& e, PhysicalType pt) {
  int32_t precision = e.logical_type && e.logical_type->kind == Kind::kDecimal
                          ? e.logical_type->precision
                          : e.precision.value_or(0);
  int32_t scale = e.logical_type && e.logical_type->kind == Kind::kDecimal ? e.logical_type->scale
                                                                           : e.scale.value_or(0);
  auto type = columnar::MakeDecimal(precision, scale);
  if (!type.ok()) {
    return Unsupported(e,
                       "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")");
  }
  switch (pt) {
    case PhysicalType::kInt32:
      return LeafType{*type, LeafConversion::kDecimalFromInt32};
    case PhysicalType::kInt64:
      return LeafType{*type, LeafConversion::kDecimalFromInt64};
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return LeafType{*type, LeafConversion::kDecimalFromBytes};
    default:
      return Status::Corruption("parquet column '" + e.name + "': decimal on " +
                                std::string(PhysicalTypeName(pt)));
  }
}

Result<LeafType> MapLeaf(const SchemaElement& e) {
  const PhysicalType pt = *e.type;
  const std::optional<LogicalType>& lt = e.logical_type;
  if (HasLogical(e, Kind::kDecimal) || HasConverted(e, ConvertedType::kDecimal)) {
    return DecimalLeaf(e, pt);
  }
  switch (pt) {
    case PhysicalType::kBoolean:
      return LeafType{columnar::Boolean(), LeafConversion::kBoolean};
    case PhysicalType::kInt32: {
      if (HasLogical(e, Kind::kDate) || HasConverted(e, ConvertedType::kDate)) {
        return LeafType{columnar::Date32()};
      }
      if ((lt && lt->kind == Kind::kTime && lt->unit == LogicalTimeUnit::kMillis) ||
          HasConverted(e, ConvertedType::kTimeMillis)) {
        return LeafType{columnar::Time64(columnar::TimeUnit::kMicro),
                        LeafConversion::kMillisToMicros};
      }
      int bits = 32;
      bool is_signed = true;
      if (lt && lt->kind == Kind::kInteger) {
        bits = lt->bit_width;
        is_signed = lt->is_signed;
      } else if (e.converted_type) {
        switch (*e.converted_type) {
          case ConvertedType::kInt8:
            bits = 8;
            break;
          case ConvertedType::kInt16:
            bits = 16;
            break;
          case ConvertedType::kUint8:
            bits = 8, is_signed = false;
            break;
          case ConvertedType::kUint16:
            bits = 16, is_signed = false;
            break;
          case ConvertedType::kUint32:
            is_signed = false;
            break;
          default:
            break;
        }
      }
      if (!is_signed) {
        TypePtr wider = bits == 8    ? columnar::Int16()
                        : bits == 16 ? columnar::Int32()
                                     : columnar::Int64();
        return LeafType{wider, LeafConversion::kUint32ToWider};
      }
      if (bits == 8) return LeafType{columnar::Int8(), LeafConversion::kInt32ToInt8};
      if (bits == 16) return LeafType{columnar::Int16(), LeafConversion::kInt32ToInt16};
      return LeafType{columnar::Int32()};
    }
    case PhysicalType::kInt64: {
      if ((lt && lt->kind == Kind::kInteger && !lt->is_signed) ||
          HasConverted(e, ConvertedType::kUint64)) {
        return Unsupported(e, "UINT_64");
      }
      if (lt && (lt->kind == Kind::kTime || lt->kind == Kind::kTimestamp)) {
        const bool ts = lt->kind == Kind::kTimestamp;
        columnar::TimeUnit unit = lt->unit == LogicalTimeUnit::kNanos ? columnar::TimeUnit::kNano
                                                                      : columnar::TimeUnit::kMicro;
        LeafConversion conv = lt->unit == LogicalTimeUnit::kMillis ? LeafConversion::kMillisToMicros
                                                                   : LeafConversion::kNone;
        if (!ts) return LeafType{columnar::Time64(unit), conv};
        return LeafType{columnar::Timestamp(unit, lt->is_adjusted_to_utc ? "UTC" : ""), conv};
      }
      if (HasConverted(e, ConvertedType::kTimeMicros)) return LeafType{columnar::Time64()};
      // Converted timestamps are UTC-adjusted by definition (LogicalTypes.md).
      if (HasConverted(e, ConvertedType::kTimestampMicros)) {
        return LeafType{columnar::TimestampTz()};
      }
      if (HasConverted(e, ConvertedType::kTimestampMillis)) {
        return LeafType{columnar::TimestampTz(), LeafConversion::kMillisToMicros};
      }
      return LeafType{columnar::Int64()};
    }
    case PhysicalType::kInt96:
      return LeafType{columnar::TimestampTz(columnar::TimeUnit::kNano),
                      LeafConversion::kInt96ToNanos};
    case PhysicalType::kFloat:
      return LeafType{columnar::Float32()};
    case PhysicalType::kDouble:
      return LeafType{columnar::Float64()};
    case PhysicalType::kByteArray:
      if (HasLogical(e, Kind::kString) || HasLogical(e, Kind::kEnum) ||
          HasLogical(e, Kind::kJson) || HasConverted(e, ConvertedType::kUtf8) ||
          HasConverted(e, ConvertedType::kEnum) || HasConverted(e, ConvertedType::kJson)) {
        return LeafType{columnar::String()};
      }
      return LeafType{columnar::Binary()};
    case PhysicalType::kFixedLenByteArray: {
      int32_t len = e.type_length.value_or(-1);
      if (len < 0) {
        return Status::Corruption("parquet column '" + e.name +
                                  "': FIXED_LEN_BYTE_ARRAY without type_length");
      }
      if (HasLogical(e, Kind::kUuid)) {
        if (len != 16)
          return Status::Corruption("parquet column '" + e.name + "': UUID of " +
                                    std::to_string(len) + " bytes");
        return LeafType{columnar::Uuid()};
      }
      if (HasLogical(e, Kind::kFloat16)) {
        if (len != 2)
          return Status::Corruption("parquet column '" + e.name + "': FLOAT16 of " +
                                    std::to_string(len) + " bytes");
        return LeafType{columnar::Float32(), LeafConversion::kFloat16ToFloat32};
      }
      if (HasConverted(e, ConvertedType::kInterval)) return Unsupported(e, "INTERVAL");
      return LeafType{columnar::FixedSizeBinary(len)};
    }
  }
  return Status::Corruption("parquet column '" + e.name + "': unknown physical type " +
                            std::to_string(static_cast<int>(pt)));
}

class Converter {
 public:
  std::vector<ColumnDescriptor> columns;

  // Converts `node` into a field. `def`/`rep` are the levels of its parent.
  Result<Field> Convert(const Node& node, int16_t def, int16_t rep,
                        std::vector<std::string>& path) {
    const SchemaElement& e = *node.element;
    path.push_back(e.name);
    if (node.optional()) ++def;
    Result<Field> result = Status::Internal("unset");
    if (node.repeated()) {
      // A repeated field outside a LIST/MAP annotation is a list of required elements.
      ++def;
      ++rep;
      SQE_ASSIGN_OR_RETURN(Field element, ConvertNonRepeated(node, def, rep, path));
      result = Field(e.name, columnar::List(element.WithName("element").WithNullable(false)), false,
                     e.field_id);
    } else {
      result = ConvertNonRepeated(node, def, rep, path);
    }
    path.pop_back();
    return result;
  }

 private:
  // The node as if it were not repeated (its own levels are already counted).
  Result<Field> ConvertNonRepeated(const Node& node, int16_t def, int16_t rep,
                                   std::vector<std::string>& path) {
    const SchemaElement& e = *node.element;
    const bool nullable = node.optional();
    if (!node.is_group()) {
      SQE_ASSIGN_OR_RETURN(LeafType leaf, MapLeaf(e));
      ColumnDescriptor d;
      d.path = path;
      d.schema_index = node.index;
      d.physical_type = *e.type;
      d.type_length = e.type_length.value_or(0);
      d.max_definition_level = def;
      d.max_repetition_level = rep;
      d.type = leaf.type;
      d.conversion = leaf.conversion;
      d.field_id = e.field_id;
      columns.push_back(std::move(d));
      return Field(e.name, leaf.type, nullable, e.field_id);
    }
    if (HasLogical(e, Kind::kList) || HasConverted(e, ConvertedType::kList)) {
      return ConvertList(node, def, rep, path);
    }
    if (HasLogical(e, Kind::kMap) || HasConverted(e, ConvertedType::kMap) ||
        HasConverted(e, ConvertedType::kMapKeyValue)) {
      return ConvertMap(node, def, rep, path);
    }
    if (node.children.empty()) {
      return Unsupported(e, "a struct without fields");
    }
    std::vector<Field> fields;
    for (const Node& child : node.children) {
      SQE_ASSIGN_OR_RETURN(Field f, Convert(child, def, rep, path));
      fields.push_back(std::move(f));
    }
    return Field(e.name, columnar::Struct(std::move(fields)), nullable, e.field_id);
  }

  Result<Field> ConvertList(const Node& node, int16_t def, int16_t rep,
                            std::vector<std::string>& path) {
    const SchemaElement& e = *node.element;
    if (node.children.size() != 1 || !node.children[0].repeated()) {
      return Status::Corruption("parquet schema: LIST '" + e.name +
                                "' must have exactly one repeated child");
    }
    const Node& repeated = node.children[0];
    const SchemaElement& r = *repeated.element;
    path.push_back(r.name);
    const int16_t elem_def = def + 1, elem_rep = rep + 1;
    Result<Field> element = Status::Internal("unset");
    // LogicalTypes.md backward-compatibility rules: when is the repeated node itself the
    // element?
    const bool repeated_is_element = !repeated.is_group() || repeated.children.size() != 1 ||
                                     r.name == "array" || r.name == e.name + "_tuple";
    if (repeated_is_element) {
      element = ConvertNonRepeated(repeated, elem_def, elem_rep, path);
      if (element.ok()) element = element->WithNullable(false);
    } else {
      element = Convert(repeated.children[0], elem_def, elem_rep, path);
    }
    path.pop_back();
    SQE_RETURN_NOT_OK(element.status());
    return Field(e.name, columnar::List(element->WithName("element")), node.optional(), e.field_id);
  }

  Result<Field> ConvertMap(const Node& node, int16_t def, int16_t rep,
                           std::vector<std::string>& path) {
    const SchemaElement& e = *node.element;
    if (node.children.size() != 1 || !node.children[0].repeated() || !node.children[0].is_group()) {
      return Status::Corruption("parquet schema: MAP '" + e.name +
                                "' must have exactly one repeated group child");
    }
    const Node& kv = node.children[0];
    if (kv.children.size() != 2) {
      return Unsupported(
          e, "a MAP whose key_value group has " + std::to_string(kv.children.size()) + " fields");
    }
    path.push_back(kv.element->name);
    auto key = Convert(kv.children[0], def + 1, rep + 1, path);
    auto value = key.ok() ? Convert(kv.children[1], def + 1, rep + 1, path) : key;
    path.pop_back();
    SQE_RETURN_NOT_OK(key.status());
    SQE_RETURN_NOT_OK(value.status());
    return Field(e.name,
                 columnar::Map(key->WithName("key").WithNullable(false), value->WithName("value")),
                 node.optional(), e.field_id);
  }
};

// ---- writing ----

SchemaElement Leaf(const Field& f, PhysicalType t) {
  SchemaElement e;
  e.name = f.name();
  e.type = t;
  e.repetition_type =
      f.nullable() ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired;
  e.field_id = f.field_id();
  return e;
}

SchemaElement Group(const std::string& name, FieldRepetitionType rep, int32_t children,
                    std::optional<int32_t> field_id) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.num_children = children;
  e.field_id = field_id;
  return e;
}

int32_t DecimalBytes(int32_t precision) {
  // Smallest n with 10^precision <= 2^(8n - 1).
  int32_t n = 1;
  while (n < 16 && (8.0 * n - 1) * 0.30102999566398 < precision) ++n;
  return n;
}

Status Emit(const Field& f, std::vector<SchemaElement>* out) {
  const auto rep = f.nullable() ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired;
  const columnar::DataType& t = *f.type();
  auto with = [&](SchemaElement e, std::optional<LogicalType> lt, std::optional<ConvertedType> ct) {
    e.logical_type = lt;
    e.converted_type = ct;
    out->push_back(std::move(e));
    return Status::OK();
  };
  switch (t.id()) {
    case TypeId::kBoolean:
      return with(Leaf(f, PhysicalType::kBoolean), {}, {});
    case TypeId::kInt8:
      return with(Leaf(f, PhysicalType::kInt32), LogicalType::Integer(8, true),
                  ConvertedType::kInt8);
    case TypeId::kInt16:
      return with(Leaf(f, PhysicalType::kInt32), LogicalType::Integer(16, true),
                  ConvertedType::kInt16);
    case TypeId::kInt32:
      return with(Leaf(f, PhysicalType::kInt32), {}, {});
    case TypeId::kInt64:
      return with(Leaf(f, PhysicalType::kInt64), {}, {});
    case TypeId::kFloat32:
      return with(Leaf(f, PhysicalType::kFloat), {}, {});
    case TypeId::kFloat64:
      return with(Leaf(f, PhysicalType::kDouble), {}, {});
    case TypeId::kDecimal128: {
      PhysicalType pt = t.precision() <= 9    ? PhysicalType::kInt32
                        : t.precision() <= 18 ? PhysicalType::kInt64
                                              : PhysicalType::kFixedLenByteArray;
      SchemaElement e = Leaf(f, pt);
      if (pt == PhysicalType::kFixedLenByteArray) e.type_length = DecimalBytes(t.precision());
      e.precision = t.precision();
      e.scale = t.scale();
      return with(e, LogicalType::Decimal(t.precision(), t.scale()), ConvertedType::kDecimal);
    }
    case TypeId::kString:
      return with(Leaf(f, PhysicalType::kByteArray), LogicalType::Of(Kind::kString),
                  ConvertedType::kUtf8);
    case TypeId::kBinary:
      return with(Leaf(f, PhysicalType::kByteArray), {}, {});
    case TypeId::kFixedSizeBinary: {
      SchemaElement e = Leaf(f, PhysicalType::kFixedLenByteArray);
      e.type_length = t.byte_width();
      return with(e, {}, {});
    }
    case TypeId::kUuid: {
      SchemaElement e = Leaf(f, PhysicalType::kFixedLenByteArray);
      e.type_length = 16;
      return with(e, LogicalType::Of(Kind::kUuid), {});
    }
    case TypeId::kDate32:
      return with(Leaf(f, PhysicalType::kInt32), LogicalType::Of(Kind::kDate),
                  ConvertedType::kDate);
    case TypeId::kTime64: {
      const bool micros = t.unit() == columnar::TimeUnit::kMicro;
      return with(
          Leaf(f, PhysicalType::kInt64),
          LogicalType::Time(false, micros ? LogicalTimeUnit::kMicros : LogicalTimeUnit::kNanos),
          {});
    }
    case TypeId::kTimestamp: {
      const bool micros = t.unit() == columnar::TimeUnit::kMicro;
      const bool utc = t.has_timezone();
      std::optional<ConvertedType> ct;
      if (utc && micros) ct = ConvertedType::kTimestampMicros;  // converted implies UTC
      return with(
          Leaf(f, PhysicalType::kInt64),
          LogicalType::Timestamp(utc, micros ? LogicalTimeUnit::kMicros : LogicalTimeUnit::kNanos),
          ct);
    }
    case TypeId::kList: {
      SchemaElement g = Group(f.name(), rep, 1, f.field_id());
      g.logical_type = LogicalType::Of(Kind::kList);
      g.converted_type = ConvertedType::kList;
      out->push_back(std::move(g));
      out->push_back(Group("list", FieldRepetitionType::kRepeated, 1, std::nullopt));
      return Emit(t.value_field().WithName("element"), out);
    }
    case TypeId::kMap: {
      SchemaElement g = Group(f.name(), rep, 1, f.field_id());
      g.logical_type = LogicalType::Of(Kind::kMap);
      g.converted_type = ConvertedType::kMap;
      out->push_back(std::move(g));
      out->push_back(Group("key_value", FieldRepetitionType::kRepeated, 2, std::nullopt));
      SQE_RETURN_NOT_OK(Emit(t.key_field().WithName("key").WithNullable(false), out));
      return Emit(t.item_field().WithName("value"), out);
    }
    case TypeId::kStruct: {
      if (t.num_fields() == 0) {
        return Status::NotImplemented("parquet: struct '" + f.name() + "' without fields");
      }
      out->push_back(Group(f.name(), rep, t.num_fields(), f.field_id()));
      for (const Field& child : t.fields()) SQE_RETURN_NOT_OK(Emit(child, out));
      return Status::OK();
    }
  }
  return Status::NotImplemented("parquet: cannot write type " + t.ToString());
}

}  // namespace

Result<ParquetSchema> FromParquetSchema(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) return Status::Corruption("parquet schema: no root element");
  Node root;
  size_t cursor = 0;
  SQE_RETURN_NOT_OK(BuildTree(elements, &cursor, 0, &root));
  if (!root.is_group()) return Status::Corruption("parquet schema: root is not a group");
  if (cursor != elements.size()) {
    return Status::Corruption("parquet schema: " + std::to_string(elements.size() - cursor) +
                              " elements are outside the root's tree");
  }
  Converter conv;
  std::vector<Field> fields;
  std::vector<std::string> path;
  for (const Node& child : root.children) {
    SQE_ASSIGN_OR_RETURN(Field f, conv.Convert(child, 0, 0, path));
    fields.push_back(std::move(f));
  }
  ParquetSchema out;
  out.schema = columnar::Schema::Make(std::move(fields));
  out.columns = std::move(conv.columns);
  return out;
}

Result<std::vector<SchemaElement>> ToParquetSchema(const columnar::Schema& schema) {
  std::vector<SchemaElement> out;
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema.num_fields();
  out.push_back(std::move(root));
  for (const Field& f : schema.fields()) SQE_RETURN_NOT_OK(Emit(f, &out));
  return out;
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) {
    if (!out.empty()) out += '.';
    out += p;
  }
  return out;
}

}  // namespace sqe::parquet
