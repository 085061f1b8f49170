#include "iceberg/expr/expression.h"

#include "columnar/civil_time.h"

#include <cmath>
#include <limits>

namespace sqe::iceberg::expr {
namespace {

ExprPtr Make(Expression e) { return std::make_shared<const Expression>(std::move(e)); }
ExprPtr Constant(Op op);

ExprPtr Predicate(Op op, std::string column, std::vector<Literal> literals = {}) {
  Expression e;
  e.op = op;
  e.column = std::move(column);
  e.literals = std::move(literals);
  return Make(std::move(e));
}

bool IsNumeric(TypeId t) {
  return t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kFloat || t == TypeId::kDouble ||
         t == TypeId::kDecimal;
}

bool IsIntegral(TypeId t) {
  return t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kDate || t == TypeId::kTime ||
         t == TypeId::kTimestamp || t == TypeId::kTimestampTz || t == TypeId::kTimestampNs ||
         t == TypeId::kTimestampTzNs;
}

bool IsBytes(TypeId t) {
  return t == TypeId::kString || t == TypeId::kBinary || t == TypeId::kFixed || t == TypeId::kUuid;
}

// The scaled-up unscaled value of `d` at `scale` (>= d's scale).
Result<columnar::Decimal128> Rescale(const Literal& d, int32_t scale) {
  if (scale == d.scale()) return d.decimal_value();
  return columnar::Decimal128::FromString(d.decimal_value().ToString(d.scale()), scale);
}

// Parses "YYYY-MM-DD" to days since the epoch.
std::optional<int64_t> ParseDate(std::string_view s) {
  int y, m, d;
  char tail;
  if (s.size() != 10 ||
      std::sscanf(std::string(s).c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3) {
    return std::nullopt;
  }
  if (m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  return columnar::DaysFromCivil(y, m, d);
}

// Parses "YYYY-MM-DD[T ]HH:MM:SS[.ffffff]" to microseconds since the epoch.
std::optional<int64_t> ParseTimestampMicros(std::string_view s) {
  if (s.size() < 19) return std::nullopt;
  auto days = ParseDate(s.substr(0, 10));
  if (!days || (s[10] != 'T' && s[10] != ' ')) return std::nullopt;
  int h, mi, se;
  if (std::sscanf(std::string(s.substr(11, 8)).c_str(), "%2d:%2d:%2d", &h, &mi, &se) != 3) {
    return std::nullopt;
  }
  int64_t micros = 0;
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    int digits = 0;
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      if (digits < 6) micros = micros * 10 + (s[i] - '0');
      ++digits;
    }
    for (; digits < 6; ++digits) micros *= 10;
  }
  if (i != s.size() && !(i + 1 == s.size() && s[i] == 'Z')) {
    if (s.substr(i) != "+00:00") return std::nullopt;
  }
  return ((*days * 24 + h) * 60 + mi) * 60 * int64_t{1000000} + se * int64_t{1000000} + micros;
}

Result<ExprPtr> BindNode(const ExprPtr& e, const Schema& schema, bool case_sensitive, bool negate);

Result<ExprPtr> BindPredicate(const Expression& e, const Schema& schema, bool case_sensitive,
                              bool negate) {
  const NestedField* field = schema.FindFieldByName(e.column, case_sensitive);
  if (field == nullptr) {
    return Status::InvalidArgument("filter column '" + e.column + "' is not in the table schema");
  }
  const Type& type = *field->type;
  if (!type.is_primitive()) {
    return Status::InvalidArgument("filter column '" + e.column + "' is a " + type.ToString() +
                                   ", not a primitive value");
  }
  Expression bound;
  bound.op = negate ? Negate(e.op) : e.op;
  bound.column = e.column;
  bound.field_id = field->id;
  bound.type = field->type;
  if ((e.op == Op::kIsNan || e.op == Op::kNotNan) && type.id() != TypeId::kFloat &&
      type.id() != TypeId::kDouble) {
    return Status::InvalidArgument("is_nan needs a float or double column; '" + e.column + "' is " +
                                   type.ToString());
  }
  if ((e.op == Op::kStartsWith || e.op == Op::kNotStartsWith) && type.id() != TypeId::kString) {
    return Status::InvalidArgument("starts_with needs a string column; '" + e.column + "' is " +
                                   type.ToString());
  }
  for (const Literal& l : e.literals) {
    if (l.is_null()) {
      return Status::InvalidArgument("a comparison with null on '" + e.column +
                                     "' is never true: use is_null / not_null");
    }
    auto converted = ConvertLiteral(l, type);
    if (!converted.ok()) {
      return Status::InvalidArgument("filter on '" + e.column +
                                     "': " + converted.status().message());
    }
    bound.literals.push_back(std::move(*converted));
  }
  if ((bound.op == Op::kIn || bound.op == Op::kNotIn) && bound.literals.empty()) {
    return bound.op == Op::kIn ? False() : True();
  }
  return Make(std::move(bound));
}

Result<ExprPtr> BindNode(const ExprPtr& e, const Schema& schema, bool case_sensitive, bool negate) {
  switch (e->op) {
    case Op::kTrue:
      return negate ? False() : True();
    case Op::kFalse:
      return negate ? True() : False();
    case Op::kNot:
      return BindNode(e->left, schema, case_sensitive, !negate);
    case Op::kAnd:
    case Op::kOr: {
      SQE_ASSIGN_OR_RETURN(ExprPtr l, BindNode(e->left, schema, case_sensitive, negate));
      SQE_ASSIGN_OR_RETURN(ExprPtr r, BindNode(e->right, schema, case_sensitive, negate));
      // De Morgan: not (a and b) = (not a) or (not b).
      bool is_and = (e->op == Op::kAnd) != negate;
      return is_and ? And(l, r) : Or(l, r);
    }
    default:
      return BindPredicate(*e, schema, case_sensitive, negate);
  }
}

}  // namespace

namespace {
ExprPtr Constant(Op op) {
  Expression e;
  e.op = op;
  return Make(std::move(e));
}
}  // namespace
ExprPtr True() {
  static const ExprPtr t = Constant(Op::kTrue);
  return t;
}
ExprPtr False() {
  static const ExprPtr f = Constant(Op::kFalse);
  return f;
}
ExprPtr And(ExprPtr a, ExprPtr b) {
  if (a->op == Op::kFalse || b->op == Op::kFalse) return False();
  if (a->op == Op::kTrue) return b;
  if (b->op == Op::kTrue) return a;
  Expression e;
  e.op = Op::kAnd;
  e.left = std::move(a);
  e.right = std::move(b);
  return Make(std::move(e));
}
ExprPtr Or(ExprPtr a, ExprPtr b) {
  if (a->op == Op::kTrue || b->op == Op::kTrue) return True();
  if (a->op == Op::kFalse) return b;
  if (b->op == Op::kFalse) return a;
  Expression e;
  e.op = Op::kOr;
  e.left = std::move(a);
  e.right = std::move(b);
  return Make(std::move(e));
}
ExprPtr Not(ExprPtr a) {
  if (a->op == Op::kTrue) return False();
  if (a->op == Op::kFalse) return True();
  Expression e;
  e.op = Op::kNot;
  e.left = std::move(a);
  return Make(std::move(e));
}
ExprPtr IsNull(std::string column) { return Predicate(Op::kIsNull, std::move(column)); }
ExprPtr NotNull(std::string column) { return Predicate(Op::kNotNull, std::move(column)); }
ExprPtr IsNan(std::string column) { return Predicate(Op::kIsNan, std::move(column)); }
ExprPtr NotNan(std::string column) { return Predicate(Op::kNotNan, std::move(column)); }
ExprPtr Compare(Op op, std::string column, Literal value) {
  return Predicate(op, std::move(column), {std::move(value)});
}
ExprPtr In(std::string column, std::vector<Literal> values) {
  return Predicate(Op::kIn, std::move(column), std::move(values));
}
ExprPtr NotIn(std::string column, std::vector<Literal> values) {
  return Predicate(Op::kNotIn, std::move(column), std::move(values));
}

Op Negate(Op op) {
  switch (op) {
    case Op::kTrue:
      return Op::kFalse;
    case Op::kFalse:
      return Op::kTrue;
    case Op::kIsNull:
      return Op::kNotNull;
    case Op::kNotNull:
      return Op::kIsNull;
    case Op::kIsNan:
      return Op::kNotNan;
    case Op::kNotNan:
      return Op::kIsNan;
    case Op::kLt:
      return Op::kGtEq;
    case Op::kLtEq:
      return Op::kGt;
    case Op::kGt:
      return Op::kLtEq;
    case Op::kGtEq:
      return Op::kLt;
    case Op::kEq:
      return Op::kNotEq;
    case Op::kNotEq:
      return Op::kEq;
    case Op::kIn:
      return Op::kNotIn;
    case Op::kNotIn:
      return Op::kIn;
    case Op::kStartsWith:
      return Op::kNotStartsWith;
    case Op::kNotStartsWith:
      return Op::kStartsWith;
    case Op::kAnd:
      return Op::kOr;
    case Op::kOr:
      return Op::kAnd;
    case Op::kNot:
      return Op::kNot;
  }
  return op;
}

const char* OpName(Op op) {
  switch (op) {
    case Op::kTrue:
      return "true";
    case Op::kFalse:
      return "false";
    case Op::kAnd:
      return "and";
    case Op::kOr:
      return "or";
    case Op::kNot:
      return "not";
    case Op::kIsNull:
      return "is_null";
    case Op::kNotNull:
      return "not_null";
    case Op::kIsNan:
      return "is_nan";
    case Op::kNotNan:
      return "not_nan";
    case Op::kLt:
      return "<";
    case Op::kLtEq:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGtEq:
      return ">=";
    case Op::kEq:
      return "==";
    case Op::kNotEq:
      return "!=";
    case Op::kIn:
      return "in";
    case Op::kNotIn:
      return "not_in";
    case Op::kStartsWith:
      return "starts_with";
    case Op::kNotStartsWith:
      return "not_starts_with";
  }
  return "?";
}

std::string ToString(const ExprPtr& e) {
  switch (e->op) {
    case Op::kTrue:
    case Op::kFalse:
      return OpName(e->op);
    case Op::kAnd:
    case Op::kOr:
      return "(" + ToString(e->left) + " " + OpName(e->op) + " " + ToString(e->right) + ")";
    case Op::kNot:
      return "not(" + ToString(e->left) + ")";
    default: {
      std::string out = e->column + " " + OpName(e->op);
      if (e->op == Op::kIn || e->op == Op::kNotIn) {
        out += " (";
        for (size_t i = 0; i < e->literals.size(); ++i) {
          out += (i ? ", " : "") + e->literals[i].ToString();
        }
        return out + ")";
      }
      for (const Literal& l : e->literals) out += " " + l.ToString();
      return out;
    }
  }
}

Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, bool case_sensitive) {
  return BindNode(e, schema, case_sensitive, /*negate=*/false);
}

Result<int> CompareLiterals(const Literal& a, const Literal& b) {
  if (a.is_null() || b.is_null()) return Status::InvalidArgument("cannot order a null literal");
  TypeId ta = a.type(), tb = b.type();
  // int, long and date (a day number, as partition values of day transforms are) order
  // together; times and timestamps only with their own kind.
  auto int_like = [](TypeId t) {
    return t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kDate;
  };
  if (IsIntegral(ta) && IsIntegral(tb) && (ta == tb || (int_like(ta) && int_like(tb)))) {
    return a.int_value() < b.int_value() ? -1 : (a.int_value() > b.int_value() ? 1 : 0);
  }
  if ((ta == TypeId::kFloat || ta == TypeId::kDouble) &&
      (tb == TypeId::kFloat || tb == TypeId::kDouble)) {
    double x = a.double_value(), y = b.double_value();
    // NaN sorts above everything (bounds never hold NaN; this keeps the order total).
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) ? (std::isnan(y) ? 0 : 1) : -1;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (ta == TypeId::kDecimal && tb == TypeId::kDecimal) {
    int32_t scale = std::max(a.scale(), b.scale());
    SQE_ASSIGN_OR_RETURN(auto x, Rescale(a, scale));
    SQE_ASSIGN_OR_RETURN(auto y, Rescale(b, scale));
    return x < y ? -1 : (y < x ? 1 : 0);
  }
  if (ta == TypeId::kBoolean && tb == TypeId::kBoolean) {
    return static_cast<int>(a.bool_value()) - static_cast<int>(b.bool_value());
  }
  if (IsBytes(ta) && ta == tb) {
    const std::string& x = a.bytes();
    const std::string& y = b.bytes();
    size_t n = std::min(x.size(), y.size());
    for (size_t i = 0; i < n; ++i) {
      auto cx = static_cast<unsigned char>(x[i]), cy = static_cast<unsigned char>(y[i]);
      if (cx != cy) return cx < cy ? -1 : 1;
    }
    return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
  }
  return Status::InvalidArgument("cannot compare " + a.ToString() + " with " + b.ToString());
}

Result<Literal> ConvertLiteral(const Literal& value, const Type& type) {
  TypeId from = value.type(), to = type.id();
  if (from == to && to != TypeId::kDecimal) return value;
  auto cannot = [&] {
    return Status::InvalidArgument("the value " + value.ToString() + " cannot be compared with a " +
                                   type.ToString() + " column");
  };
  switch (to) {
    case TypeId::kInt:
      if (from == TypeId::kLong) {
        int64_t v = value.int_value();
        if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
          return Status::InvalidArgument("the value " + value.ToString() +
                                         " is out of range for an int column");
        }
        return Literal::Int(static_cast<int32_t>(v));
      }
      return cannot();
    case TypeId::kLong:
      if (from == TypeId::kInt) return Literal::Long(value.int_value());
      return cannot();
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (from == TypeId::kInt || from == TypeId::kLong) {
        double d = static_cast<double>(value.int_value());
        return to == TypeId::kFloat ? Literal::Float(static_cast<float>(d)) : Literal::Double(d);
      }
      if (from == TypeId::kFloat || from == TypeId::kDouble) {
        return to == TypeId::kFloat ? Literal::Float(static_cast<float>(value.double_value()))
                                    : Literal::Double(value.double_value());
      }
      return cannot();
    case TypeId::kDecimal: {
      if (from == TypeId::kInt || from == TypeId::kLong) {
        SQE_ASSIGN_OR_RETURN(auto d, columnar::Decimal128::FromString(
                                         std::to_string(value.int_value()), type.scale()));
        return Literal::Decimal(d, type.scale());
      }
      if (from == TypeId::kDecimal) {
        if (value.scale() > type.scale()) {
          return Status::InvalidArgument("the value " + value.ToString() +
                                         " has more digits after "
                                         "the point than the column's " +
                                         type.ToString());
        }
        SQE_ASSIGN_OR_RETURN(auto d, Rescale(value, type.scale()));
        return Literal::Decimal(d, type.scale());
      }
      if (from == TypeId::kString) {
        auto parsed = columnar::Decimal128::FromString(value.bytes(), type.scale());
        if (!parsed.ok()) return cannot();
        return Literal::Decimal(*parsed, type.scale());
      }
      return cannot();
    }
    case TypeId::kDate:
      if (from == TypeId::kString) {
        auto days = ParseDate(value.bytes());
        if (!days) return cannot();
        return Literal::Date(static_cast<int32_t>(*days));
      }
      if (from == TypeId::kInt) return Literal::Date(static_cast<int32_t>(value.int_value()));
      return cannot();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      int64_t micros = 0;
      if (from == TypeId::kString) {
        auto parsed = ParseTimestampMicros(value.bytes());
        if (!parsed) return cannot();
        micros = *parsed;
      } else if (from == TypeId::kTimestamp || from == TypeId::kTimestampTz ||
                 from == TypeId::kLong) {
        micros = value.int_value();
      } else if (from == TypeId::kDate) {
        micros = value.int_value() * int64_t{86400000000};
      } else {
        return cannot();
      }
      return to == TypeId::kTimestamp ? Literal::Timestamp(micros) : Literal::TimestampTz(micros);
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      int64_t nanos = 0;
      if (from == TypeId::kString) {
        auto parsed = ParseTimestampMicros(value.bytes());
        if (!parsed) return cannot();
        nanos = *parsed * 1000;
      } else if (from == TypeId::kTimestamp || from == TypeId::kTimestampTz) {
        nanos = value.int_value() * 1000;
      } else if (from == TypeId::kTimestampNs || from == TypeId::kTimestampTzNs ||
                 from == TypeId::kLong) {
        nanos = value.int_value();
      } else {
        return cannot();
      }
      return to == TypeId::kTimestampNs ? Literal::TimestampNs(nanos)
                                        : Literal::TimestampTzNs(nanos);
    }
    case TypeId::kUuid:
      if (from == TypeId::kString) return Literal::UuidFromString(value.bytes());
      return cannot();
    case TypeId::kBinary:
    case TypeId::kFixed:
      if (from == TypeId::kBinary || from == TypeId::kFixed) {
        if (to == TypeId::kFixed && static_cast<int32_t>(value.bytes().size()) != type.length()) {
          return cannot();
        }
        return to == TypeId::kBinary ? Literal::Binary(value.bytes())
                                     : Literal::Fixed(value.bytes());
      }
      return cannot();
    default:
      return cannot();
  }
}

}  // namespace sqe::iceberg::expr
