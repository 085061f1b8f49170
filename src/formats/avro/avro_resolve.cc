#include "formats/avro/avro_resolve.h"

#include <map>
#include <utility>

#include "formats/avro/avro_datum.h"
#include "formats/avro/avro_json.h"

namespace sqe::avro {

struct SchemaResolver::Plan {
  enum class Op : uint8_t {
    kIdentity,
    kToLong,
    kToFloat,
    kToDouble,
    kToBytes,
    kToString,
    kRecord,
    kArray,
    kMap,
    kEnum,
    kWriterUnion,  // writer is a union (reader may or may not be)
    kReaderUnion,  // only the reader is a union
  };
  Op op = Op::kIdentity;
  bool done = false;  // built completely (a plan in a recursion cycle is not yet)
  const Node* writer = nullptr;
  const Node* reader = nullptr;
  // kRecord: per reader field, the writer field index or -1 (then defaults[i]).
  std::vector<int> source;
  std::vector<Value> defaults;
  std::vector<const Plan*> children;  // record fields / array items / map values / branches
  // kWriterUnion: per writer branch, the reader branch (-1: reader is no union, -2: none).
  // kReaderUnion: reader_branch[0].
  std::vector<int> reader_branch;
  // kEnum: per writer symbol, the reader symbol or -1.
  std::vector<int> symbol_map;
  int enum_default = -1;
};

namespace {

using Plan = SchemaResolver::Plan;
using Op = Plan::Op;

bool IsNamed(AvroType t) {
  return t == AvroType::kRecord || t == AvroType::kEnum || t == AvroType::kFixed;
}

// Whether writer type `w` can be read as `r` ignoring names (neither is a union).
bool Promotable(const Node& w, const Node& r) {
  if (w.type == r.type) {
    return r.type != AvroType::kFixed || w.fixed_size == r.fixed_size;
  }
  switch (w.type) {
    case AvroType::kInt:
      return r.type == AvroType::kLong || r.type == AvroType::kFloat || r.type == AvroType::kDouble;
    case AvroType::kLong:
      return r.type == AvroType::kFloat || r.type == AvroType::kDouble;
    case AvroType::kFloat:
      return r.type == AvroType::kDouble;
    case AvroType::kString:
      return r.type == AvroType::kBytes;
    case AvroType::kBytes:
      return r.type == AvroType::kString;
    default:
      return false;
  }
}

// The reader union branch a writer (non-union) type reads as: the same type (and name,
// for named types) first, then the same kind of named type, then a promotion.
int MatchBranch(const Node& w, const Node& reader_union) {
  const auto& bs = reader_union.branches;
  for (size_t i = 0; i < bs.size(); ++i) {
    if (bs[i]->type == w.type && (!IsNamed(w.type) || bs[i]->short_name() == w.short_name()) &&
        Promotable(w, *bs[i])) {
      return static_cast<int>(i);
    }
  }
  for (size_t i = 0; i < bs.size(); ++i) {
    if (bs[i]->type == w.type && Promotable(w, *bs[i])) return static_cast<int>(i);
  }
  for (size_t i = 0; i < bs.size(); ++i) {
    if (Promotable(w, *bs[i])) return static_cast<int>(i);
  }
  return -1;
}

std::string Describe(const Node& n) {
  return std::string(AvroTypeName(n.type)) + (n.name.empty() ? "" : " '" + n.name + "'");
}

class PlanBuilder {
 public:
  explicit PlanBuilder(std::vector<std::unique_ptr<Plan>>* plans) : plans_(plans) {}

  Result<const Plan*> Build(const Node* w, const Node* r, int depth) {
    if (depth > kMaxDatumDepth) return Status::InvalidArgument("avro resolve: schema too deep");
    auto key = std::make_pair(w, r);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    plans_->push_back(std::make_unique<Plan>());
    Plan* p = plans_->back().get();
    p->writer = w;
    p->reader = r;
    memo_[key] = p;
    SQE_RETURN_NOT_OK(Fill(p, *w, *r, depth));
    p->done = true;
    return p;
  }

 private:
  static bool IsIdentity(const Plan* p) {
    return p != nullptr && p->done && p->op == Op::kIdentity;
  }

  Status Fill(Plan* p, const Node& w, const Node& r, int depth) {
    if (w.type == AvroType::kUnion) {
      p->op = Op::kWriterUnion;
      bool all_identity = r.type == AvroType::kUnion && r.branches.size() == w.branches.size();
      for (size_t i = 0; i < w.branches.size(); ++i) {
        const Node& wb = *w.branches[i];
        int rb = -1;
        const Node* target = &r;
        if (r.type == AvroType::kUnion) {
          rb = MatchBranch(wb, r);
          target = rb >= 0 ? r.branches[rb] : nullptr;
        } else if (!Promotable(wb, r)) {
          target = nullptr;
        }
        if (target == nullptr) {
          p->reader_branch.push_back(-2);
          p->children.push_back(nullptr);
          all_identity = false;
          continue;
        }
        SQE_ASSIGN_OR_RETURN(const Plan* child, Build(&wb, target, depth + 1));
        p->reader_branch.push_back(rb);
        p->children.push_back(child);
        if (rb != static_cast<int>(i) || !IsIdentity(child)) all_identity = false;
      }
      if (all_identity) p->op = Op::kIdentity;
      return Status::OK();
    }
    if (r.type == AvroType::kUnion) {
      int rb = MatchBranch(w, r);
      if (rb < 0) {
        return Status::InvalidArgument("avro resolve: writer type " + Describe(w) +
                                       " matches no branch of the reader union");
      }
      p->op = Op::kReaderUnion;
      p->reader_branch.push_back(rb);
      SQE_ASSIGN_OR_RETURN(const Plan* child, Build(&w, r.branches[rb], depth + 1));
      p->children.push_back(child);
      return Status::OK();
    }
    if (!Promotable(w, r)) {
      return Status::InvalidArgument("avro resolve: writer type " + Describe(w) +
                                     " cannot be read as " + Describe(r));
    }
    if (w.type != r.type) {
      if (r.type == AvroType::kLong) p->op = Op::kToLong;
      if (r.type == AvroType::kFloat) p->op = Op::kToFloat;
      if (r.type == AvroType::kDouble) p->op = Op::kToDouble;
      if (r.type == AvroType::kBytes) p->op = Op::kToBytes;
      if (r.type == AvroType::kString) p->op = Op::kToString;
      return Status::OK();
    }
    switch (r.type) {
      case AvroType::kRecord:
        return FillRecord(p, w, r, depth);
      case AvroType::kArray: {
        SQE_ASSIGN_OR_RETURN(const Plan* child, Build(w.items, r.items, depth + 1));
        p->children.push_back(child);
        p->op = IsIdentity(child) ? Op::kIdentity : Op::kArray;
        return Status::OK();
      }
      case AvroType::kMap: {
        SQE_ASSIGN_OR_RETURN(const Plan* child, Build(w.values, r.values, depth + 1));
        p->children.push_back(child);
        p->op = IsIdentity(child) ? Op::kIdentity : Op::kMap;
        return Status::OK();
      }
      case AvroType::kEnum: {
        bool same = w.symbols.size() <= r.symbols.size();
        for (size_t i = 0; i < w.symbols.size(); ++i) {
          int found = -1;
          for (size_t j = 0; j < r.symbols.size(); ++j) {
            if (r.symbols[j] == w.symbols[i]) found = static_cast<int>(j);
          }
          p->symbol_map.push_back(found);
          if (found != static_cast<int>(i)) same = false;
        }
        if (r.enum_default) {
          for (size_t j = 0; j < r.symbols.size(); ++j) {
            if (r.symbols[j] == *r.enum_default) p->enum_default = static_cast<int>(j);
          }
        }
        p->op = same ? Op::kIdentity : Op::kEnum;
        return Status::OK();
      }
      default:
        p->op = Op::kIdentity;
        return Status::OK();
    }
  }

  Status FillRecord(Plan* p, const Node& w, const Node& r, int depth) {
    p->op = Op::kRecord;
    bool writer_has_ids = false;
    for (const Field& f : w.fields) writer_has_ids |= f.field_id.has_value();
    bool identity = w.fields.size() == r.fields.size();
    for (size_t i = 0; i < r.fields.size(); ++i) {
      const Field& rf = r.fields[i];
      int src = -1;
      if (rf.field_id && writer_has_ids) {
        src = w.FieldIndexById(*rf.field_id);
      } else {
        src = w.FieldIndex(rf.name);
        for (size_t a = 0; src < 0 && a < rf.aliases.size(); ++a) src = w.FieldIndex(rf.aliases[a]);
      }
      p->source.push_back(src);
      if (src >= 0) {
        auto child = Build(w.fields[src].type, rf.type, depth + 1);
        if (!child.ok()) {
          return child.status().WithContext("record '" + r.name + "' field '" + rf.name + "'");
        }
        p->children.push_back(*child);
        p->defaults.emplace_back();
        if (src != static_cast<int>(i) || !IsIdentity(*child)) identity = false;
        continue;
      }
      identity = false;
      p->children.push_back(nullptr);
      if (rf.default_value) {
        auto v = ValueFromJson(*rf.default_value, *rf.type, JsonBytes::kCodePoints);
        if (!v.ok()) {
          return v.status().WithContext("default of reader field '" + rf.name + "'");
        }
        p->defaults.push_back(std::move(*v));
      } else if (rf.type->type == AvroType::kUnion && rf.type->NullBranch() >= 0) {
        Value v = Value::Null();
        v.set_union_branch(rf.type->NullBranch());
        p->defaults.push_back(std::move(v));
      } else {
        return Status::Corruption(
            "avro resolve: required reader field '" + rf.name + "'" +
            (rf.field_id ? " (field-id " + std::to_string(*rf.field_id) + ")" : "") +
            " of record '" + r.name + "' is missing from the writer schema and has no default");
      }
    }
    if (identity) p->op = Op::kIdentity;
    return Status::OK();
  }

  std::vector<std::unique_ptr<Plan>>* plans_;
  std::map<std::pair<const Node*, const Node*>, Plan*> memo_;
};

Status Apply(const Plan* p, Value* v) {
  switch (p->op) {
    case Op::kIdentity:
      return Status::OK();
    case Op::kToLong:
      *v = Value::Long(v->long_value());
      return Status::OK();
    case Op::kToFloat:
      *v = Value::Float(v->kind() == Value::Kind::kInt || v->kind() == Value::Kind::kLong
                            ? static_cast<float>(v->long_value())
                            : v->float_value());
      return Status::OK();
    case Op::kToDouble:
      *v = Value::Double(v->kind() == Value::Kind::kInt || v->kind() == Value::Kind::kLong
                             ? static_cast<double>(v->long_value())
                             : v->double_value());
      return Status::OK();
    case Op::kToBytes:
      *v = Value::Bytes(std::move(v->mutable_bytes()));
      return Status::OK();
    case Op::kToString:
      *v = Value::String(std::move(v->mutable_bytes()));
      return Status::OK();
    case Op::kRecord: {
      std::vector<Value>& in = v->mutable_children();
      std::vector<Value> out(p->source.size());
      for (size_t i = 0; i < p->source.size(); ++i) {
        int src = p->source[i];
        if (src < 0) {
          out[i] = p->defaults[i];
          continue;
        }
        if (static_cast<size_t>(src) >= in.size()) {
          return Status::Corruption("avro resolve: record datum has too few fields");
        }
        out[i] = std::move(in[src]);
        SQE_RETURN_NOT_OK(Apply(p->children[i], &out[i]));
      }
      *v = Value::Record(std::move(out));
      return Status::OK();
    }
    case Op::kArray:
      for (Value& item : v->mutable_children()) {
        SQE_RETURN_NOT_OK(Apply(p->children[0], &item));
      }
      return Status::OK();
    case Op::kMap:
      for (auto& entry : v->mutable_map()) {
        SQE_RETURN_NOT_OK(Apply(p->children[0], &entry.second));
      }
      return Status::OK();
    case Op::kEnum: {
      int index = v->enum_index();
      int mapped = index >= 0 && static_cast<size_t>(index) < p->symbol_map.size()
                       ? p->symbol_map[index]
                       : -1;
      if (mapped < 0) mapped = p->enum_default;
      if (mapped < 0) {
        return Status::Corruption("avro resolve: enum symbol #" + std::to_string(index) + " of '" +
                                  p->writer->name + "' is unknown to the reader");
      }
      *v = Value::Enum(mapped);
      return Status::OK();
    }
    case Op::kWriterUnion: {
      int b = v->union_branch();
      if (b < 0 || static_cast<size_t>(b) >= p->children.size()) {
        return Status::Corruption("avro resolve: union datum without a branch");
      }
      if (p->children[b] == nullptr) {
        return Status::Corruption("avro resolve: writer union branch " +
                                  Describe(*p->writer->branches[b]) +
                                  " has no counterpart in the reader schema");
      }
      SQE_RETURN_NOT_OK(Apply(p->children[b], v));
      v->set_union_branch(p->reader_branch[b]);
      return Status::OK();
    }
    case Op::kReaderUnion:
      SQE_RETURN_NOT_OK(Apply(p->children[0], v));
      v->set_union_branch(p->reader_branch[0]);
      return Status::OK();
  }
  return Status::Internal("avro resolve: bad plan");
}

}  // namespace

SchemaResolver::~SchemaResolver() = default;

Result<std::unique_ptr<SchemaResolver>> SchemaResolver::Make(SchemaPtr writer, SchemaPtr reader) {
  std::unique_ptr<SchemaResolver> out(new SchemaResolver());
  out->writer_ = std::move(writer);
  out->reader_ = std::move(reader);
  PlanBuilder builder(&out->plans_);
  SQE_ASSIGN_OR_RETURN(out->root_, builder.Build(&out->writer_->root(), &out->reader_->root(), 0));
  return out;
}

bool SchemaResolver::identity() const { return root_->op == Op::kIdentity; }

Status SchemaResolver::Resolve(Value* value) const { return Apply(root_, value); }

}  // namespace sqe::avro
