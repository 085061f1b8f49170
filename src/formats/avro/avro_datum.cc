#include "formats/avro/avro_datum.h"

namespace sqe::avro {

namespace {

bool CanEncodeEmptyAt(const Node& schema, int depth) {
  if (depth > 32) return false;
  switch (schema.type) {
    case AvroType::kNull:
      return true;
    case AvroType::kFixed:
      return schema.fixed_size == 0;
    case AvroType::kRecord:
      for (const Field& f : schema.fields) {
        if (!CanEncodeEmptyAt(*f.type, depth + 1)) return false;
      }
      return true;
    default:
      return false;
  }
}

// Checks a block of `count` items against the bytes left and the zero-byte budget.
Status CheckBlockCount(Decoder* decoder, int64_t count, bool items_can_be_empty,
                       DecodeContext* context) {
  if (items_can_be_empty) {
    if (count > context->zero_byte_items_left) {
      return decoder->Error("block of " + std::to_string(count) +
                            " zero-byte items exceeds the limit");
    }
    context->zero_byte_items_left -= count;
    return Status::OK();
  }
  if (static_cast<uint64_t>(count) > decoder->remaining()) {
    return decoder->Error("block count " + std::to_string(count) + " exceeds the " +
                          std::to_string(decoder->remaining()) + " bytes left");
  }
  return Status::OK();
}

// Reads a block header; 0 ends the list. A negative count is followed by a byte size.
Result<int64_t> ReadBlockCount(Decoder* decoder) {
  SQE_ASSIGN_OR_RETURN(int64_t count, decoder->ReadLong());
  if (count < 0) {
    if (count == INT64_MIN) return decoder->Error("block count overflows");
    count = -count;
    SQE_ASSIGN_OR_RETURN(int64_t byte_size, decoder->ReadLong());
    if (byte_size < 0 || static_cast<uint64_t>(byte_size) > decoder->remaining()) {
      return decoder->Error("block byte size " + std::to_string(byte_size) + " is out of range");
    }
  }
  return count;
}

Status DecodeAt(Decoder* d, const Node& s, Value* out, DecodeContext* ctx, int depth) {
  if (depth > kMaxDatumDepth) return d->Error("datum nested deeper than the limit");
  switch (s.type) {
    case AvroType::kNull:
      *out = Value::Null();
      return Status::OK();
    case AvroType::kBoolean: {
      SQE_ASSIGN_OR_RETURN(bool v, d->ReadBoolean());
      *out = Value::Boolean(v);
      return Status::OK();
    }
    case AvroType::kInt: {
      SQE_ASSIGN_OR_RETURN(int32_t v, d->ReadInt());
      *out = Value::Int(v);
      return Status::OK();
    }
    case AvroType::kLong: {
      SQE_ASSIGN_OR_RETURN(int64_t v, d->ReadLong());
      *out = Value::Long(v);
      return Status::OK();
    }
    case AvroType::kFloat: {
      SQE_ASSIGN_OR_RETURN(float v, d->ReadFloat());
      *out = Value::Float(v);
      return Status::OK();
    }
    case AvroType::kDouble: {
      SQE_ASSIGN_OR_RETURN(double v, d->ReadDouble());
      *out = Value::Double(v);
      return Status::OK();
    }
    case AvroType::kBytes:
    case AvroType::kString: {
      SQE_ASSIGN_OR_RETURN(std::string_view v, d->ReadBytes());
      *out =
          s.type == AvroType::kBytes ? Value::Bytes(std::string(v)) : Value::String(std::string(v));
      return Status::OK();
    }
    case AvroType::kFixed: {
      SQE_ASSIGN_OR_RETURN(std::string_view v, d->ReadFixed(static_cast<size_t>(s.fixed_size)));
      *out = Value::Fixed(std::string(v));
      return Status::OK();
    }
    case AvroType::kEnum: {
      SQE_ASSIGN_OR_RETURN(int32_t index, d->ReadInt());
      if (index < 0 || static_cast<size_t>(index) >= s.symbols.size()) {
        return d->Error("enum index " + std::to_string(index) + " out of range for '" + s.name +
                        "'");
      }
      *out = Value::Enum(index);
      return Status::OK();
    }
    case AvroType::kUnion: {
      SQE_ASSIGN_OR_RETURN(int64_t index, d->ReadLong());
      if (index < 0 || static_cast<uint64_t>(index) >= s.branches.size()) {
        return d->Error("union branch " + std::to_string(index) + " out of range");
      }
      SQE_RETURN_NOT_OK(DecodeAt(d, *s.branches[index], out, ctx, depth + 1));
      out->set_union_branch(static_cast<int>(index));
      return Status::OK();
    }
    case AvroType::kRecord: {
      std::vector<Value> fields(s.fields.size());
      for (size_t i = 0; i < s.fields.size(); ++i) {
        SQE_RETURN_NOT_OK(DecodeAt(d, *s.fields[i].type, &fields[i], ctx, depth + 1));
      }
      *out = Value::Record(std::move(fields));
      return Status::OK();
    }
    case AvroType::kArray: {
      std::vector<Value> items;
      const bool empty_items = CanEncodeEmpty(*s.items);
      while (true) {
        SQE_ASSIGN_OR_RETURN(int64_t count, ReadBlockCount(d));
        if (count == 0) break;
        SQE_RETURN_NOT_OK(CheckBlockCount(d, count, empty_items, ctx));
        items.reserve(items.size() + static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          items.emplace_back();
          SQE_RETURN_NOT_OK(DecodeAt(d, *s.items, &items.back(), ctx, depth + 1));
        }
      }
      *out = Value::Array(std::move(items));
      return Status::OK();
    }
    case AvroType::kMap: {
      Value::MapEntries entries;
      while (true) {
        SQE_ASSIGN_OR_RETURN(int64_t count, ReadBlockCount(d));
        if (count == 0) break;
        SQE_RETURN_NOT_OK(CheckBlockCount(d, count, false, ctx));
        entries.reserve(entries.size() + static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          SQE_ASSIGN_OR_RETURN(std::string_view key, d->ReadBytes());
          entries.emplace_back(std::string(key), Value());
          SQE_RETURN_NOT_OK(DecodeAt(d, *s.values, &entries.back().second, ctx, depth + 1));
        }
      }
      *out = Value::Map(std::move(entries));
      return Status::OK();
    }
  }
  return d->Error("unknown schema type");
}

bool Fits(const Value& v, const Node& s) {
  using K = Value::Kind;
  switch (s.type) {
    case AvroType::kNull:
      return v.kind() == K::kNull;
    case AvroType::kBoolean:
      return v.kind() == K::kBoolean;
    case AvroType::kInt:
      return v.kind() == K::kInt;
    case AvroType::kLong:
      return v.kind() == K::kLong || v.kind() == K::kInt;
    case AvroType::kFloat:
      return v.kind() == K::kFloat;
    case AvroType::kDouble:
      return v.kind() == K::kDouble || v.kind() == K::kFloat;
    case AvroType::kBytes:
      return v.kind() == K::kBytes;
    case AvroType::kString:
      return v.kind() == K::kString;
    case AvroType::kFixed:
      return v.kind() == K::kFixed && v.bytes().size() == static_cast<size_t>(s.fixed_size);
    case AvroType::kEnum:
      return v.kind() == K::kEnum;
    case AvroType::kRecord:
      return v.kind() == K::kRecord && v.children().size() == s.fields.size();
    case AvroType::kArray:
      return v.kind() == K::kArray;
    case AvroType::kMap:
      return v.kind() == K::kMap;
    case AvroType::kUnion:
      return false;
  }
  return false;
}

Status Mismatch(const Value& v, const Node& s) {
  return Status::InvalidArgument("avro: value " + v.DebugString().substr(0, 80) +
                                 " does not fit schema type " + std::string(AvroTypeName(s.type)) +
                                 (s.name.empty() ? "" : " '" + s.name + "'"));
}

Status EncodeAt(const Value& v, const Node& s, Encoder* e, int depth) {
  if (depth > kMaxDatumDepth) return Status::InvalidArgument("avro: value nested too deep");
  using K = Value::Kind;
  if (s.type == AvroType::kUnion) {
    int branch = ChooseUnionBranch(v, s);
    if (branch < 0) return Mismatch(v, s);
    e->WriteLong(branch);
    return EncodeAt(v, *s.branches[branch], e, depth + 1);
  }
  if (!Fits(v, s)) return Mismatch(v, s);
  switch (s.type) {
    case AvroType::kNull:
      return Status::OK();
    case AvroType::kBoolean:
      e->WriteBoolean(v.boolean());
      return Status::OK();
    case AvroType::kInt:
    case AvroType::kLong:
      e->WriteLong(v.long_value());
      return Status::OK();
    case AvroType::kFloat:
      e->WriteFloat(v.float_value());
      return Status::OK();
    case AvroType::kDouble:
      e->WriteDouble(v.double_value());
      return Status::OK();
    case AvroType::kBytes:
    case AvroType::kString:
      e->WriteBytes(v.bytes());
      return Status::OK();
    case AvroType::kFixed:
      e->WriteFixed(v.bytes());
      return Status::OK();
    case AvroType::kEnum:
      if (v.enum_index() < 0 || static_cast<size_t>(v.enum_index()) >= s.symbols.size()) {
        return Status::InvalidArgument("avro: enum index " + std::to_string(v.enum_index()) +
                                       " out of range");
      }
      e->WriteInt(v.enum_index());
      return Status::OK();
    case AvroType::kRecord:
      for (size_t i = 0; i < s.fields.size(); ++i) {
        Status st = EncodeAt(v.field(i), *s.fields[i].type, e, depth + 1);
        if (!st.ok()) return st.WithContext("field '" + s.fields[i].name + "'");
      }
      return Status::OK();
    case AvroType::kArray:
      if (!v.children().empty()) {
        e->WriteLong(static_cast<int64_t>(v.children().size()));
        for (const Value& item : v.children()) {
          SQE_RETURN_NOT_OK(EncodeAt(item, *s.items, e, depth + 1));
        }
      }
      e->WriteLong(0);
      return Status::OK();
    case AvroType::kMap:
      if (!v.map().empty()) {
        e->WriteLong(static_cast<int64_t>(v.map().size()));
        for (const auto& [key, value] : v.map()) {
          e->WriteBytes(key);
          SQE_RETURN_NOT_OK(EncodeAt(value, *s.values, e, depth + 1));
        }
      }
      e->WriteLong(0);
      return Status::OK();
    case AvroType::kUnion:
      break;
  }
  (void)K::kNull;
  return Mismatch(v, s);
}

}  // namespace

bool CanEncodeEmpty(const Node& schema) { return CanEncodeEmptyAt(schema, 0); }

Status DecodeDatum(Decoder* decoder, const Node& schema, Value* out, DecodeContext* context) {
  return DecodeAt(decoder, schema, out, context, 0);
}

int ChooseUnionBranch(const Value& value, const Node& union_schema) {
  int set = value.union_branch();
  if (set >= 0 && static_cast<size_t>(set) < union_schema.branches.size() &&
      Fits(value, *union_schema.branches[set])) {
    return set;
  }
  // Exact kinds first (an int value prefers an int branch over a long one).
  for (size_t i = 0; i < union_schema.branches.size(); ++i) {
    const Node& b = *union_schema.branches[i];
    bool exact = Fits(value, b) &&
                 !(b.type == AvroType::kLong && value.kind() == Value::Kind::kInt) &&
                 !(b.type == AvroType::kDouble && value.kind() == Value::Kind::kFloat);
    if (exact) return static_cast<int>(i);
  }
  for (size_t i = 0; i < union_schema.branches.size(); ++i) {
    if (Fits(value, *union_schema.branches[i])) return static_cast<int>(i);
  }
  return -1;
}

Status EncodeDatum(const Value& value, const Node& schema, Encoder* encoder) {
  return EncodeAt(value, schema, encoder, 0);
}

}  // namespace sqe::avro
