#include "exec/scan_filter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

namespace sqe::exec {
namespace {

namespace ice = iceberg::expr;
using CT = columnar::TypeId;

/// One simple predicate recognised in an exec::Expr: the common form both targets are
/// built from.
struct SimplePredicate {
  enum class Kind : uint8_t {
    kCompare,
    kIsNull,
    kNotNull,
    kIn,
    kNotIn,
    kStartsWith,
    kNotStartsWith
  };
  Kind kind = Kind::kCompare;
  int column = -1;
  parquet::PredicateOp op = parquet::PredicateOp::kEq;  // kCompare only
  std::vector<Value> values;                            // kCompare: 1; kIn / kNotIn: the list
  std::string prefix;                                   // kStartsWith / kNotStartsWith
};

/// The simple predicates one expression is the conjunction of, and whether they accept
/// exactly its rows (false: a superset, which may not be negated).
struct Conjunction {
  std::vector<SimplePredicate> predicates;
  bool exact = true;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<parquet::PredicateOp> ComparisonOp(std::string_view name) {
  using Op = parquet::PredicateOp;
  if (name == "=" || name == "==") return Op::kEq;
  if (name == "<>" || name == "!=") return Op::kNe;
  if (name == "<") return Op::kLt;
  if (name == "<=") return Op::kLe;
  if (name == ">") return Op::kGt;
  if (name == ">=") return Op::kGe;
  return std::nullopt;
}

// `literal op column` as `column Flip(op) literal`.
parquet::PredicateOp Flip(parquet::PredicateOp op) {
  using Op = parquet::PredicateOp;
  switch (op) {
    case Op::kLt:
      return Op::kGt;
    case Op::kLe:
      return Op::kGe;
    case Op::kGt:
      return Op::kLt;
    case Op::kGe:
      return Op::kLe;
    default:
      return op;
  }
}

parquet::PredicateOp NegateComparison(parquet::PredicateOp op) {
  using Op = parquet::PredicateOp;
  switch (op) {
    case Op::kEq:
      return Op::kNe;
    case Op::kNe:
      return Op::kEq;
    case Op::kLt:
      return Op::kGe;
    case Op::kLe:
      return Op::kGt;
    case Op::kGt:
      return Op::kLe;
    case Op::kGe:
      return Op::kLt;
    default:
      return op;
  }
}

int ColumnIndex(const Expr& e, std::span<const ScanColumn> columns) {
  if (e.kind != ExprKind::kColumn) return -1;
  if (e.column < 0 || e.column >= static_cast<int32_t>(columns.size())) return -1;
  if (!columns[static_cast<size_t>(e.column)].type) return -1;
  return e.column;
}

bool IsLiteral(const Expr& e) { return e.kind == ExprKind::kLiteral; }

// The string of a non-null varchar literal.
std::optional<std::string> StringLiteral(const Expr& e) {
  if (!IsLiteral(e) || e.value.is_null()) return std::nullopt;
  if (!std::holds_alternative<std::string>(e.value.storage())) return std::nullopt;
  return e.value.string_value();
}

// `column op literal` in either order; null literals are not converted (never true).
std::optional<SimplePredicate> Comparison(const Expr& e, std::span<const ScanColumn> columns) {
  if (e.args.size() != 2) return std::nullopt;
  auto op = ComparisonOp(e.name);
  if (!op) return std::nullopt;
  const Expr& a = *e.args[0];
  const Expr& b = *e.args[1];
  SimplePredicate p;
  if (int c = ColumnIndex(a, columns); c >= 0 && IsLiteral(b)) {
    p.column = c;
    p.op = *op;
    p.values = {b.value};
  } else if (int c2 = ColumnIndex(b, columns); c2 >= 0 && IsLiteral(a)) {
    p.column = c2;
    p.op = Flip(*op);
    p.values = {a.value};
  } else {
    return std::nullopt;
  }
  if (p.values[0].is_null()) return std::nullopt;
  return p;
}

// starts_with(column, 'p') or column LIKE 'p...' as a prefix test.
std::optional<Conjunction> PrefixMatch(const Expr& e, std::span<const ScanColumn> columns,
                                       bool like) {
  if (e.args.size() != 2) return std::nullopt;
  const int c = ColumnIndex(*e.args[0], columns);
  if (c < 0 || columns[static_cast<size_t>(c)].type->id() != CT::kString) return std::nullopt;
  auto pattern = StringLiteral(*e.args[1]);
  if (!pattern) return std::nullopt;
  Conjunction out;
  SimplePredicate p;
  p.column = c;
  if (!like) {
    p.kind = SimplePredicate::Kind::kStartsWith;
    p.prefix = *pattern;
  } else {
    const size_t wild = pattern->find_first_of("%_");
    if (wild == std::string::npos) {
      // No wildcard: LIKE is equality.
      p.kind = SimplePredicate::Kind::kCompare;
      p.op = parquet::PredicateOp::kEq;
      p.values = {Value::Varchar(*pattern)};
      out.predicates.push_back(std::move(p));
      return out;
    }
    p.kind = SimplePredicate::Kind::kStartsWith;
    p.prefix = pattern->substr(0, wild);
    // Exact only for 'prefix%'; anything after the first wildcard narrows further.
    out.exact = pattern->substr(wild) == "%";
  }
  if (p.prefix.empty()) {
    p.kind = SimplePredicate::Kind::kNotNull;
    p.prefix.clear();
  }
  out.predicates.push_back(std::move(p));
  return out;
}

std::optional<Conjunction> ParseConjunction(const Expr& e, std::span<const ScanColumn> columns);

std::optional<Conjunction> ParseNot(const Expr& e, std::span<const ScanColumn> columns) {
  if (e.args.size() != 1) return std::nullopt;
  auto inner = ParseConjunction(*e.args[0], columns);
  if (!inner || !inner->exact || inner->predicates.size() != 1) return std::nullopt;
  SimplePredicate p = std::move(inner->predicates[0]);
  using K = SimplePredicate::Kind;
  switch (p.kind) {
    case K::kCompare:
      p.op = NegateComparison(p.op);
      break;
    case K::kIsNull:
      p.kind = K::kNotNull;
      break;
    case K::kNotNull:
      p.kind = K::kIsNull;
      break;
    case K::kIn:
      p.kind = K::kNotIn;
      break;
    case K::kNotIn:
      p.kind = K::kIn;
      break;
    case K::kStartsWith:
      p.kind = K::kNotStartsWith;
      break;
    case K::kNotStartsWith:
      p.kind = K::kStartsWith;
      break;
  }
  Conjunction out;
  out.predicates.push_back(std::move(p));
  return out;
}

// The conjunction of simple predicates `e` is, or nullopt when no part converts.
std::optional<Conjunction> ParseConjunction(const Expr& e, std::span<const ScanColumn> columns) {
  switch (e.kind) {
    case ExprKind::kAnd: {
      Conjunction out;
      for (const ExprPtr& arg : e.args) {
        auto part = ParseConjunction(*arg, columns);
        if (!part) {
          out.exact = false;  // dropping a conjunct widens the set
          continue;
        }
        out.exact = out.exact && part->exact;
        for (SimplePredicate& p : part->predicates) out.predicates.push_back(std::move(p));
      }
      if (out.predicates.empty()) return std::nullopt;
      return out;
    }
    case ExprKind::kNot:
      return ParseNot(e, columns);
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull: {
      if (e.args.size() != 1) return std::nullopt;
      const int c = ColumnIndex(*e.args[0], columns);
      if (c < 0) return std::nullopt;
      SimplePredicate p;
      p.kind = e.kind == ExprKind::kIsNull ? SimplePredicate::Kind::kIsNull
                                           : SimplePredicate::Kind::kNotNull;
      p.column = c;
      Conjunction out;
      out.predicates.push_back(std::move(p));
      return out;
    }
    case ExprKind::kIn: {
      if (e.args.empty()) return std::nullopt;
      const int c = ColumnIndex(*e.args[0], columns);
      if (c < 0) return std::nullopt;
      SimplePredicate p;
      p.kind = SimplePredicate::Kind::kIn;
      p.column = c;
      Conjunction out;
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (!IsLiteral(*e.args[i])) return std::nullopt;
        // A null item is never equal to anything: it only turns false into null, which
        // makes the conversion inexact under NOT.
        if (e.args[i]->value.is_null()) {
          out.exact = false;
          continue;
        }
        p.values.push_back(e.args[i]->value);
      }
      out.predicates.push_back(std::move(p));
      return out;
    }
    case ExprKind::kCall: {
      const std::string name = Lower(e.name);
      if (auto p = Comparison(e, columns)) {
        Conjunction out;
        out.predicates.push_back(std::move(*p));
        return out;
      }
      if (name == "between" && e.args.size() == 3) {
        const int c = ColumnIndex(*e.args[0], columns);
        if (c < 0 || !IsLiteral(*e.args[1]) || !IsLiteral(*e.args[2])) return std::nullopt;
        Conjunction out;
        for (int k = 1; k <= 2; ++k) {
          if (e.args[static_cast<size_t>(k)]->value.is_null()) return std::nullopt;
          SimplePredicate p;
          p.column = c;
          p.op = k == 1 ? parquet::PredicateOp::kGe : parquet::PredicateOp::kLe;
          p.values = {e.args[static_cast<size_t>(k)]->value};
          out.predicates.push_back(std::move(p));
        }
        return out;
      }
      if (name == "starts_with") return PrefixMatch(e, columns, /*like=*/false);
      if (name == "like") return PrefixMatch(e, columns, /*like=*/true);
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

bool FitsInteger(int64_t v, CT id) {
  switch (id) {
    case CT::kInt8:
      return v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max();
    case CT::kInt16:
      return v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
    case CT::kInt32:
      return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    default:
      return true;
  }
}

// Whether literal `v` may stand for a value of column type `col`: the same type, or
// integers of any width.
bool LiteralFits(const Value& v, const columnar::DataType& col) {
  if (v.is_null() || !v.type()) return false;
  const columnar::DataType& vt = *v.type();
  if (col.is_integer()) return vt.is_integer() && FitsInteger(v.int_value(), col.id());
  return vt.Equals(col);
}

std::optional<iceberg::Literal> IcebergLiteral(const Value& v, const columnar::DataType& col) {
  using L = iceberg::Literal;
  if (!LiteralFits(v, col)) return std::nullopt;
  switch (col.id()) {
    case CT::kBoolean:
      return L::Boolean(v.bool_value());
    case CT::kInt8:
    case CT::kInt16:
    case CT::kInt32:
      return L::Int(static_cast<int32_t>(v.int_value()));
    case CT::kInt64:
      return L::Long(v.int_value());
    case CT::kFloat32:
      if (std::isnan(v.double_value())) return std::nullopt;
      return L::Float(static_cast<float>(v.double_value()));
    case CT::kFloat64:
      if (std::isnan(v.double_value())) return std::nullopt;
      return L::Double(v.double_value());
    case CT::kDecimal128:
      return L::Decimal(v.decimal_value(), col.scale());
    case CT::kString:
      return L::String(v.string_value());
    case CT::kBinary:
      return L::Binary(v.string_value());
    case CT::kFixedSizeBinary:
      return L::Fixed(v.string_value());
    case CT::kUuid:
      if (v.string_value().size() != 16) return std::nullopt;
      return L::Uuid(v.string_value());
    case CT::kDate32:
      return L::Date(static_cast<int32_t>(v.int_value()));
    case CT::kTime64:
      if (col.unit() != columnar::TimeUnit::kMicro) return std::nullopt;
      return L::Time(v.int_value());
    case CT::kTimestamp:
      if (col.unit() == columnar::TimeUnit::kMicro) {
        return col.has_timezone() ? L::TimestampTz(v.int_value()) : L::Timestamp(v.int_value());
      }
      if (col.unit() == columnar::TimeUnit::kNano) {
        return col.has_timezone() ? L::TimestampTzNs(v.int_value()) : L::TimestampNs(v.int_value());
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<parquet::Literal> ParquetLiteral(const Value& v, const columnar::DataType& col) {
  using L = parquet::Literal;
  if (!LiteralFits(v, col)) return std::nullopt;
  switch (col.id()) {
    case CT::kBoolean:
      return L::Bool(v.bool_value());
    case CT::kInt8:
    case CT::kInt16:
    case CT::kInt32:
    case CT::kInt64:
      return L::Int64(v.int_value());
    case CT::kFloat32:
    case CT::kFloat64:
      if (std::isnan(v.double_value())) return std::nullopt;
      return L::Double(v.double_value());
    case CT::kDecimal128:
      return L::Decimal(v.decimal_value(), col.scale());
    case CT::kString:
      return L::String(v.string_value());
    case CT::kBinary:
    case CT::kFixedSizeBinary:
    case CT::kUuid:
      return L::Bytes(v.string_value());
    case CT::kDate32:
      return L::Date(static_cast<int32_t>(v.int_value()));
    case CT::kTime64:
      return L::Time(v.int_value(), col.unit());
    case CT::kTimestamp:
      return L::Timestamp(v.int_value(), col.unit());
    default:
      return std::nullopt;
  }
}

ice::Op IcebergOp(parquet::PredicateOp op) {
  using P = parquet::PredicateOp;
  switch (op) {
    case P::kEq:
      return ice::Op::kEq;
    case P::kNe:
      return ice::Op::kNotEq;
    case P::kLt:
      return ice::Op::kLt;
    case P::kLe:
      return ice::Op::kLtEq;
    case P::kGt:
      return ice::Op::kGt;
    default:
      return ice::Op::kGtEq;
  }
}

std::optional<ice::ExprPtr> SimpleToIceberg(const SimplePredicate& p,
                                            std::span<const ScanColumn> columns) {
  const ScanColumn& col = columns[static_cast<size_t>(p.column)];
  if (col.name.empty()) return std::nullopt;
  using K = SimplePredicate::Kind;
  switch (p.kind) {
    case K::kIsNull:
      return ice::IsNull(col.name);
    case K::kNotNull:
      return ice::NotNull(col.name);
    case K::kCompare: {
      auto lit = IcebergLiteral(p.values[0], *col.type);
      if (!lit) return std::nullopt;
      return ice::Compare(IcebergOp(p.op), col.name, std::move(*lit));
    }
    case K::kIn:
    case K::kNotIn: {
      std::vector<iceberg::Literal> lits;
      for (const Value& v : p.values) {
        auto lit = IcebergLiteral(v, *col.type);
        if (!lit) return std::nullopt;  // dropping an item would narrow the set
        lits.push_back(std::move(*lit));
      }
      return p.kind == K::kIn ? ice::In(col.name, std::move(lits))
                              : ice::NotIn(col.name, std::move(lits));
    }
    case K::kStartsWith:
    case K::kNotStartsWith:
      return ice::Compare(p.kind == K::kStartsWith ? ice::Op::kStartsWith : ice::Op::kNotStartsWith,
                          col.name, iceberg::Literal::String(p.prefix));
  }
  return std::nullopt;
}

// (expression, exact) of any convertible expression, AND / OR / NOT included.
std::optional<std::pair<ice::ExprPtr, bool>> ToIceberg(const Expr& e,
                                                       std::span<const ScanColumn> columns) {
  if (e.kind == ExprKind::kAnd) {
    ice::ExprPtr out;
    bool exact = true;
    for (const ExprPtr& arg : e.args) {
      auto part = ToIceberg(*arg, columns);
      if (!part) {
        exact = false;
        continue;
      }
      exact = exact && part->second;
      out = out ? ice::And(out, part->first) : part->first;
    }
    if (!out) return std::nullopt;
    return std::make_pair(out, exact);
  }
  if (e.kind == ExprKind::kOr) {
    ice::ExprPtr out;
    bool exact = true;
    for (const ExprPtr& arg : e.args) {
      auto part = ToIceberg(*arg, columns);
      if (!part) return std::nullopt;
      exact = exact && part->second;
      out = out ? ice::Or(out, part->first) : part->first;
    }
    if (!out) return std::nullopt;
    return std::make_pair(out, exact);
  }
  if (e.kind == ExprKind::kNot && e.args.size() == 1) {
    auto inner = ToIceberg(*e.args[0], columns);
    if (!inner || !inner->second) return std::nullopt;
    return std::make_pair(ice::Not(inner->first), true);
  }
  auto conj = ParseConjunction(e, columns);
  if (!conj) return std::nullopt;
  ice::ExprPtr out;
  bool exact = conj->exact;
  for (const SimplePredicate& p : conj->predicates) {
    auto one = SimpleToIceberg(p, columns);
    if (!one) {
      exact = false;
      continue;
    }
    out = out ? ice::And(out, *one) : *one;
  }
  if (!out) return std::nullopt;
  return std::make_pair(out, exact);
}

// The smallest string greater than every string starting with `prefix` (unsigned byte
// order), or nullopt when there is none (empty or all 0xFF).
std::optional<std::string> PrefixSuccessor(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xFF) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

void SimpleToParquet(const SimplePredicate& p, const parquet::ColumnRef& ref,
                     const columnar::DataType& type, std::vector<parquet::Predicate>* out) {
  using K = SimplePredicate::Kind;
  using P = parquet::Predicate;
  switch (p.kind) {
    case K::kIsNull:
      out->push_back(P::IsNull(ref));
      return;
    case K::kNotNull:
      out->push_back(P::IsNotNull(ref));
      return;
    case K::kCompare: {
      auto lit = ParquetLiteral(p.values[0], type);
      if (lit) out->push_back(P::Compare(ref, p.op, std::move(*lit)));
      return;
    }
    case K::kIn: {
      std::vector<parquet::Literal> lits;
      for (const Value& v : p.values) {
        auto lit = ParquetLiteral(v, type);
        if (!lit) return;
        lits.push_back(std::move(*lit));
      }
      out->push_back(P::In(ref, std::move(lits)));
      return;
    }
    case K::kStartsWith: {
      out->push_back(
          P::Compare(ref, parquet::PredicateOp::kGe, parquet::Literal::String(p.prefix)));
      if (auto upper = PrefixSuccessor(p.prefix)) {
        out->push_back(
            P::Compare(ref, parquet::PredicateOp::kLt, parquet::Literal::String(*upper)));
      }
      return;
    }
    case K::kNotIn:
    case K::kNotStartsWith:
      return;  // Parquet predicates have no negated forms of these
  }
}

std::optional<parquet::Literal> ParquetFromIceberg(const iceberg::Literal& l) {
  using T = iceberg::TypeId;
  using L = parquet::Literal;
  if (l.is_null()) return std::nullopt;
  switch (l.type()) {
    case T::kBoolean:
      return L::Bool(l.bool_value());
    case T::kInt:
    case T::kLong:
      return L::Int64(l.int_value());
    case T::kFloat:
    case T::kDouble:
      if (std::isnan(l.double_value())) return std::nullopt;
      return L::Double(l.double_value());
    case T::kDecimal:
      return L::Decimal(l.decimal_value(), l.scale());
    case T::kDate:
      return L::Date(static_cast<int32_t>(l.int_value()));
    case T::kTime:
      return L::Time(l.int_value(), columnar::TimeUnit::kMicro);
    case T::kTimestamp:
    case T::kTimestampTz:
      return L::Timestamp(l.int_value(), columnar::TimeUnit::kMicro);
    case T::kTimestampNs:
    case T::kTimestampTzNs:
      return L::Timestamp(l.int_value(), columnar::TimeUnit::kNano);
    case T::kString:
      return L::String(l.bytes());
    case T::kBinary:
    case T::kFixed:
    case T::kUuid:
      return L::Bytes(l.bytes());
    default:
      return std::nullopt;
  }
}

void CollectIcebergConjuncts(const ice::ExprPtr& e, std::vector<parquet::Predicate>* out) {
  if (!e) return;
  if (e->op == ice::Op::kAnd) {
    CollectIcebergConjuncts(e->left, out);
    CollectIcebergConjuncts(e->right, out);
    return;
  }
  if (!e->is_predicate() || e->field_id < 0) return;
  const parquet::ColumnRef ref = parquet::ColumnRef::FieldId(e->field_id);
  using P = parquet::Predicate;
  using PO = parquet::PredicateOp;
  auto single = [&](PO op) {
    if (e->literals.size() != 1) return;
    if (auto lit = ParquetFromIceberg(e->literals[0])) out->push_back(P::Compare(ref, op, *lit));
  };
  switch (e->op) {
    case ice::Op::kIsNull:
      out->push_back(P::IsNull(ref));
      break;
    case ice::Op::kNotNull:
      out->push_back(P::IsNotNull(ref));
      break;
    case ice::Op::kLt:
      single(PO::kLt);
      break;
    case ice::Op::kLtEq:
      single(PO::kLe);
      break;
    case ice::Op::kGt:
      single(PO::kGt);
      break;
    case ice::Op::kGtEq:
      single(PO::kGe);
      break;
    case ice::Op::kEq:
      single(PO::kEq);
      break;
    case ice::Op::kNotEq:
      single(PO::kNe);
      break;
    case ice::Op::kIn: {
      std::vector<parquet::Literal> lits;
      for (const iceberg::Literal& l : e->literals) {
        auto lit = ParquetFromIceberg(l);
        if (!lit) return;
        lits.push_back(std::move(*lit));
      }
      out->push_back(P::In(ref, std::move(lits)));
      break;
    }
    case ice::Op::kStartsWith:
      if (e->literals.size() == 1 && e->literals[0].type() == iceberg::TypeId::kString) {
        const std::string& prefix = e->literals[0].bytes();
        out->push_back(P::Compare(ref, PO::kGe, parquet::Literal::String(prefix)));
        if (auto upper = PrefixSuccessor(prefix)) {
          out->push_back(P::Compare(ref, PO::kLt, parquet::Literal::String(*upper)));
        }
      }
      break;
    default:
      break;  // is_nan, not_nan, not_in, not_starts_with: no Parquet form
  }
}

}  // namespace

std::vector<ExprPtr> SplitConjuncts(const ExprPtr& filter) {
  std::vector<ExprPtr> out;
  if (!filter) return out;
  if (filter->kind == ExprKind::kAnd) {
    for (const ExprPtr& arg : filter->args) {
      for (ExprPtr& e : SplitConjuncts(arg)) out.push_back(std::move(e));
    }
    return out;
  }
  out.push_back(filter);
  return out;
}

std::optional<iceberg::expr::ExprPtr> ToIcebergFilter(const Expr& conjunct,
                                                      std::span<const ScanColumn> columns) {
  auto converted = ToIceberg(conjunct, columns);
  if (!converted) return std::nullopt;
  return converted->first;
}

std::vector<parquet::Predicate> ToParquetPredicates(const Expr& conjunct,
                                                    std::span<const ScanColumn> columns,
                                                    ParquetColumnRefKind refs) {
  std::vector<parquet::Predicate> out;
  auto conj = ParseConjunction(conjunct, columns);
  if (!conj) return out;
  for (const SimplePredicate& p : conj->predicates) {
    const ScanColumn& col = columns[static_cast<size_t>(p.column)];
    if (refs == ParquetColumnRefKind::kFieldId) {
      if (col.field_id < 0) continue;
      SimpleToParquet(p, parquet::ColumnRef::FieldId(col.field_id), *col.type, &out);
    } else {
      if (col.name.empty()) continue;
      SimpleToParquet(p, parquet::ColumnRef::Name(col.name), *col.type, &out);
    }
  }
  return out;
}

std::vector<parquet::Predicate> IcebergToParquetPredicates(const iceberg::expr::ExprPtr& bound) {
  std::vector<parquet::Predicate> out;
  CollectIcebergConjuncts(bound, &out);
  return out;
}

PushedFilter ConvertPushedFilter(const std::vector<ExprPtr>& conjuncts,
                                 std::span<const ScanColumn> columns, ParquetColumnRefKind refs) {
  PushedFilter out;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (!conjuncts[i]) continue;
    if (auto e = ToIcebergFilter(*conjuncts[i], columns)) {
      out.iceberg = out.iceberg ? ice::And(out.iceberg, *e) : *e;
      out.iceberg_conjuncts.push_back(static_cast<int>(i));
    }
    std::vector<parquet::Predicate> preds = ToParquetPredicates(*conjuncts[i], columns, refs);
    if (!preds.empty()) {
      for (parquet::Predicate& p : preds) out.parquet.push_back(std::move(p));
      out.parquet_conjuncts.push_back(static_cast<int>(i));
    }
  }
  return out;
}

}  // namespace sqe::exec
